"""``sg.optim.lr_scheduler``: learning rates that change with the epoch, as PyTorch's
schedulers change them.

Each scheduler sets ``group["lr"]`` of its optimizer's parameter groups in place. Like
PyTorch's, the rules are *chainable*: ``get_lr`` derives the next rate from the current one
(so schedulers can be stacked), and constructing a scheduler performs step 0. Calling
``scheduler.step()`` before the optimizer's first ``step()`` gives PyTorch's warning.
"""

from __future__ import annotations

import functools
import math
import warnings
from typing import Any

from .optimizers import Optimizer

__all__ = ["CosineAnnealingLR", "ExponentialLR", "LRScheduler", "StepLR"]

_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and "
    "later, you should call them in the opposite order: `optimizer.step()` before "
    "`lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first "
    "value of the learning rate schedule. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")
_OVERRIDDEN_WARNING = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
    "initialization. Please, make sure to call `optimizer.step()` before "
    "`lr_scheduler.step()`. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate")


class LRScheduler:
    """Base class: subclasses define ``get_lr``, the rates for ``self.last_epoch``.

    A schedule halving the rate every epoch:

    >>> class Halving(sg.optim.lr_scheduler.LRScheduler):
    ...     def get_lr(self):
    ...         return [base * 0.5 ** self.last_epoch for base in self.base_lrs]
    >>> opt = sg.optim.SGD([sg.zeros(1, requires_grad=True)], lr=1.0)
    >>> scheduler = Halving(opt)
    >>> for epoch in range(3):
    ...     opt.step()
    ...     scheduler.step()
    >>> scheduler.get_last_lr()
    [0.125]
    """

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] "
                                   "when resuming an optimizer")
        self.base_lrs: list[float] = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _track_optimizer_steps(optimizer)
        self._step_count = 0
        self._is_initial = True
        self.step()
        self._is_initial = False

    def get_lr(self) -> list[float]:
        """The rates of the parameter groups for epoch ``self.last_epoch``, which
        ``step`` sets; each scheduler defines it.

        ``StepLR`` multiplies by ``gamma`` at epochs 2, 4...:

        >>> opt = sg.optim.SGD([sg.zeros(1, requires_grad=True)], lr=1.0)
        >>> scheduler = sg.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        >>> scheduler.last_epoch = 2
        >>> scheduler.get_lr()
        [0.5]
        """
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        """The rates the last ``step`` set, one per parameter group.

        >>> opt = sg.optim.SGD([sg.zeros(1, requires_grad=True)], lr=1.0)
        >>> scheduler = sg.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        >>> opt.step()
        >>> scheduler.step()
        >>> scheduler.get_last_lr()
        [0.5]
        """
        return self._last_lr

    def step(self) -> None:
        """Move to the next epoch: set each group's ``lr`` to its new rate (call it
        after ``optimizer.step()``).

        >>> opt = sg.optim.SGD([sg.zeros(1, requires_grad=True)], lr=1.0)
        >>> scheduler = sg.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
        >>> rates = []
        >>> for epoch in range(5):
        ...     rates.append(round(opt.param_groups[0]["lr"], 6))
        ...     opt.step()
        ...     scheduler.step()
        >>> rates
        [1.0, 1.0, 0.1, 0.1, 0.01]
        """
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(_OVERRIDDEN_WARNING, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(_ORDER_WARNING, UserWarning, stacklevel=2)
        self._step_count += 1
        self.last_epoch += 1
        for group, lr in zip(self.optimizer.param_groups, self.get_lr(), strict=True):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self) -> dict[str, Any]:
        """The scheduler's state (everything but its optimizer), for
        ``load_state_dict``.

        >>> opt = sg.optim.SGD([sg.zeros(1, requires_grad=True)], lr=1.0)
        >>> scheduler = sg.optim.lr_scheduler.StepLR(opt, step_size=3)
        >>> state = scheduler.state_dict()
        >>> state["step_size"], state["last_epoch"], state["base_lrs"]
        (3, 0, [1.0])
        """
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take the state ``state_dict`` gave (to resume a schedule).

        >>> opt = sg.optim.SGD([sg.zeros(1, requires_grad=True)], lr=1.0)
        >>> scheduler = sg.optim.lr_scheduler.StepLR(opt, step_size=3)
        >>> scheduler.load_state_dict({"last_epoch": 7, "step_size": 2})
        >>> scheduler.last_epoch, scheduler.step_size
        (7, 2)
        """
        self.__dict__.update(state_dict)

    def _current(self) -> list[float]:
        return [group["lr"] for group in self.optimizer.param_groups]


def _track_optimizer_steps(optimizer: Optimizer) -> None:
    """Wrap the optimizer's ``step`` so that the scheduler can tell whether it ran."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    step = optimizer.step

    @functools.wraps(step)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        optimizer._opt_called = True  # type: ignore[attr-defined]
        return step(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True  # type: ignore[attr-defined]
    optimizer.step = wrapper  # type: ignore[method-assign]


class StepLR(LRScheduler):
    """Multiply the rate by ``gamma`` every ``step_size`` epochs.

    >>> opt = sg.optim.SGD([sg.zeros(1, requires_grad=True)], lr=1.0)
    >>> scheduler = sg.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    >>> rates = []
    >>> for epoch in range(5):
    ...     rates.append(scheduler.get_last_lr()[0])
    ...     opt.step()
    ...     scheduler.step()
    >>> rates
    [1.0, 1.0, 0.5, 0.5, 0.25]
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current()
        return [lr * self.gamma for lr in self._current()]


class ExponentialLR(LRScheduler):
    """Multiply the rate by ``gamma`` every epoch.

    >>> opt = sg.optim.SGD([sg.zeros(1, requires_grad=True)], lr=1.0)
    >>> scheduler = sg.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    >>> rates = []
    >>> for epoch in range(4):
    ...     rates.append(scheduler.get_last_lr()[0])
    ...     opt.step()
    ...     scheduler.step()
    >>> rates
    [1.0, 0.5, 0.25, 0.125]
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self._is_initial:
            return self._current()
        return [lr * self.gamma for lr in self._current()]


class CosineAnnealingLR(LRScheduler):
    """Follow half a cosine from the base rate down to ``eta_min`` over ``T_max`` epochs
    (and back up, periodically), in PyTorch's recursive form.

    Over ``T_max = 4`` epochs the rate is ``(1 + cos(pi t / 4)) / 2``: 1, 0.854, 0.5, 0.146,
    0:

    >>> opt = sg.optim.SGD([sg.zeros(1, requires_grad=True)], lr=1.0)
    >>> scheduler = sg.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
    >>> rates = []
    >>> for epoch in range(5):
    ...     rates.append(round(scheduler.get_last_lr()[0], 3))
    ...     opt.step()
    ...     scheduler.step()
    >>> rates
    [1.0, 0.854, 0.5, 0.146, 0.0]
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0,  # noqa: N803
                 last_epoch: int = -1) -> None:
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self._is_initial:
            return self._current()
        if self._step_count == 1 and self.last_epoch > 0:
            return [self.eta_min + (base - self.eta_min)
                    * (1 + math.cos(self.last_epoch * math.pi / self.T_max)) / 2
                    for base in self.base_lrs]
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            return [lr + (base - self.eta_min) * (1 - math.cos(math.pi / self.T_max)) / 2
                    for base, lr in zip(self.base_lrs, self._current(), strict=True)]
        return [(1 + math.cos(math.pi * self.last_epoch / self.T_max))
                / (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max))
                * (lr - self.eta_min) + self.eta_min
                for lr in self._current()]
