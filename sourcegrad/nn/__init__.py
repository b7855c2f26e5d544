"""``sg.nn``: PyTorch's ``torch.nn`` on sourcegrad tensors: ``Module`` and ``Parameter``,
layers and losses (``layers.py``), ``sg.nn.functional`` over the primitives of
``sg.nn.ops`` (whose derivatives are in ``sourcegrad/rules/nn.py``), ``init`` and
``utils``."""

from . import ops  # noqa: I001  (ops first: the rule table imports it)
from . import functional, init, utils
from .layers import (
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    Linear,
    MSELoss,
    ReLU,
    Sequential,
    Sigmoid,
    Tanh,
)
from .module import Module
from .parameter import Parameter

__all__ = ["BCEWithLogitsLoss", "CrossEntropyLoss", "Linear", "MSELoss", "Module", "Parameter",
           "ReLU", "Sequential", "Sigmoid", "Tanh", "functional", "init", "ops", "utils"]
