"""SGD and Adam, updating parameters' arrays in place with PyTorch's update rules (the same
order of weight decay, momentum and bias correction) and PyTorch's checks of what they are
given."""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..runtime.tensor import Tensor

__all__ = ["SGD", "Adam", "AdamW", "Optimizer"]


class Optimizer:
    """Parameter groups (each a dict with ``params`` and its hyper-parameters) and per
    parameter state, as in PyTorch.

    Each group may override the defaults (here the learning rate):

    >>> w, b = sg.zeros(2, requires_grad=True), sg.zeros(1, requires_grad=True)
    >>> opt = sg.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.01}], lr=0.1)
    >>> [group["lr"] for group in opt.param_groups]
    [0.1, 0.01]
    """

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {type_name(params)}")
        params = list(params)
        if not params:
            raise ValueError("optimizer got an empty parameter list")
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        self.defaults = defaults
        self.param_groups: list[dict[str, Any]] = []
        self.state: dict[Tensor, dict[str, Any]] = {}
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, group: dict[str, Any]) -> None:
        """Add a group of parameters (a dict with ``params``; the defaults fill
        in the hyper-parameters it does not give).

        >>> opt = sg.optim.SGD([sg.zeros(2, requires_grad=True)], lr=0.1, momentum=0.9)
        >>> opt.add_param_group({"params": [sg.zeros(1, requires_grad=True)], "lr": 0.5})
        >>> [(group["lr"], group["momentum"]) for group in opt.param_groups]
        [(0.1, 0.9), (0.5, 0.9)]
        """
        params = group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{type_name(p)}")
            if not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        _refuse_shared(params, self.param_groups)
        self.param_groups.append({**self.defaults, **group, "params": params})

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the parameters' gradients: ``None`` (``set_to_none``) or zeros.

        >>> w = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> opt = sg.optim.SGD([w], lr=0.1)
        >>> (w ** 2).sum().backward()
        >>> opt.zero_grad(set_to_none=False)
        >>> w.grad
        tensor([0., 0.])
        >>> opt.zero_grad()
        >>> w.grad is None
        True
        """
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:  # (a gradient made with create_graph loses its history first)
                    p.grad.detach_()
                    p.grad.zero_()

    def step(self) -> None:
        """Update every parameter that has a gradient, in place.

        One step of plain gradient descent on ``sum(w**2)`` (gradient ``2w``):
        ``w - 0.1 * 2w = 0.8 w``:

        >>> w = sg.tensor([1.0, 2.0], requires_grad=True)
        >>> opt = sg.optim.SGD([w], lr=0.1)
        >>> (w ** 2).sum().backward()
        >>> opt.step()
        >>> w
        tensor([0.8000, 1.6000], requires_grad=True)
        """
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    self._update(p, p.grad.data, self.state.setdefault(p, {}), group)
                    p._mark_modified()

    def _update(self, p: Tensor, grad: np.ndarray, state: dict, group: dict) -> None:
        raise NotImplementedError


def _refuse_shared(params: list[Tensor], groups: list[dict[str, Any]]) -> None:
    """PyTorch's checks of a new group's parameters: one in another group too would be
    updated twice a step (an error); one given twice in the group is warned about."""
    ids = {id(p) for p in params}
    if len(ids) != len(params):
        warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                      "future, this will cause an error; see "
                      "github.com/pytorch/pytorch/issues/40967 for more information",
                      UserWarning, stacklevel=4)
    if any(id(p) in ids for group in groups for p in group["params"]):
        raise ValueError("some parameters appear in more than one parameter group")


def _check_at_least_zero(**values: float) -> None:
    """PyTorch's refusal of a negative hyper-parameter (``Invalid momentum value: -1``)."""
    for name, value in values.items():
        if value < 0.0:
            what = "learning rate" if name == "lr" else (
                "epsilon" if name == "eps" else name) + " value"
            raise ValueError(f"Invalid {what}: {value}")


def type_name(value: Any) -> str:
    """How PyTorch's ``torch.typename`` names a value: tensors by their dtype's tensor type
    (``sg.FloatTensor``), anything else by its qualified type name."""
    if isinstance(value, Tensor):
        kinds = {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int",
                 "bool": "Bool", "float16": "Half"}
        return f"sg.{kinds.get(value.data.dtype.name, value.data.dtype.name)}Tensor"
    module = type(value).__module__
    name = type(value).__qualname__
    return name if module in ("builtins", None) else f"{module}.{name}"


class SGD(Optimizer):
    """Stochastic gradient descent, with PyTorch's momentum, dampening, Nesterov and
    weight decay.

    On ``sum(w**2)`` from ``w = 1`` with momentum 0.5: the gradients are 2 then 1.6, the
    velocity 2 then ``0.5 * 2 + 1.6 = 2.6``, so ``w`` goes to ``0.8`` then ``0.54``:

    >>> w = sg.tensor([1.0], requires_grad=True)
    >>> opt = sg.optim.SGD([w], lr=0.1, momentum=0.5)
    >>> for _ in range(2):
    ...     opt.zero_grad()
    ...     (w ** 2).sum().backward()
    ...     opt.step()
    >>> w
    tensor([0.5400], requires_grad=True)
    """
    def __init__(self, params: Iterable[Any], lr: float, momentum: float = 0.0,
                 dampening: float = 0.0, weight_decay: float = 0.0,
                 nesterov: bool = False) -> None:
        _check_at_least_zero(lr=lr, momentum=momentum, weight_decay=weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov})

    def _update(self, p: Tensor, grad: np.ndarray, state: dict, group: dict) -> None:
        if group["weight_decay"]:
            grad = grad + group["weight_decay"] * p.data
        if group["momentum"]:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = np.array(grad, copy=True)
            else:
                buf *= group["momentum"]
                buf += (1 - group["dampening"]) * grad
            grad = grad + group["momentum"] * buf if group["nesterov"] else buf
        p.data -= group["lr"] * grad


class Adam(Optimizer):
    """Adam (Kingma and Ba), with PyTorch's bias correction and weight decay.

    The first step moves each parameter by ``lr`` against the sign of its gradient:

    >>> w = sg.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = sg.optim.Adam([w], lr=0.1)
    >>> (w ** 2).sum().backward()
    >>> opt.step()
    >>> w
    tensor([ 0.9000, -1.9000], requires_grad=True)
    """
    def __init__(self, params: Iterable[Any], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0) -> None:
        _check_at_least_zero(lr=lr, eps=eps)
        for index, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {index}: {beta}")
        _check_at_least_zero(weight_decay=weight_decay)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay})

    _decoupled = False  # (AdamW's weight decay shrinks the parameter, not the gradient)

    def _update(self, p: Tensor, grad: np.ndarray, state: dict, group: dict) -> None:
        beta1, beta2 = group["betas"]
        if group["weight_decay"] and self._decoupled:
            p.data *= 1 - group["lr"] * group["weight_decay"]
        elif group["weight_decay"]:
            grad = grad + group["weight_decay"] * p.data
        if not state:
            state.update(step=0, exp_avg=np.zeros_like(p.data), exp_avg_sq=np.zeros_like(p.data))
        state["step"] += 1
        m, v, step = state["exp_avg"], state["exp_avg_sq"], state["step"]
        m *= beta1
        m += (1 - beta1) * grad
        v *= beta2
        v += (1 - beta2) * grad * grad
        denom = np.sqrt(v) / np.sqrt(1 - beta2**step) + group["eps"]
        p.data -= (group["lr"] / (1 - beta1**step)) * m / denom


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov and Hutter), as PyTorch's ``AdamW``:
    each step first shrinks the parameter by ``lr * weight_decay``, then takes Adam's step
    on the gradient alone.

    With a zero gradient Adam's step is zero, so only the decay moves ``w``:
    ``1 - 0.1 * 0.5 = 0.95``:

    >>> w = sg.tensor([1.0, -2.0], requires_grad=True)
    >>> opt = sg.optim.AdamW([w], lr=0.1, weight_decay=0.5)
    >>> (w * 0.0).sum().backward()
    >>> opt.step()
    >>> w
    tensor([ 0.9500, -1.9000], requires_grad=True)
    """
    def __init__(self, params: Iterable[Any], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2) -> None:
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)

    _decoupled = True
