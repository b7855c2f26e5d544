"""``sg.optim``: optimizers (``optimizers.py``) and learning-rate schedulers
(``lr_scheduler.py``), with PyTorch's update rules, defaults and messages."""

from . import lr_scheduler
from .optimizers import SGD, Adam, AdamW, Optimizer

__all__ = ["SGD", "Adam", "AdamW", "Optimizer", "lr_scheduler"]
