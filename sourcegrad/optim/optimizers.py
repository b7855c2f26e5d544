"""SGD and Adam, updating parameters' arrays in place with PyTorch's update rules (the same
order of weight decay, momentum and bias correction) and PyTorch's checks of what they are
given."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..runtime.tensor import Tensor

__all__ = ["SGD", "Adam", "Optimizer"]


class Optimizer:
    """Parameter groups (each a dict with ``params`` and its hyper-parameters) and per
    parameter state, as in PyTorch."""

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
        params = group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        for p in params:
            if not isinstance(p, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{type_name(p)}")
            if not (p.is_leaf or p.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        self.param_groups.append({**self.defaults, **group, "params": params})

    def zero_grad(self, set_to_none: bool = True) -> None:
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                if set_to_none:
                    p.grad = None
                else:
                    p.grad.zero_()

    def step(self) -> None:
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    self._update(p, p.grad.data, self.state.setdefault(p, {}), group)
                    p._mark_modified()

    def _update(self, p: Tensor, grad: np.ndarray, state: dict, group: dict) -> None:
        raise NotImplementedError


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
    def __init__(self, params: Iterable[Any], lr: float, momentum: float = 0.0,
                 dampening: float = 0.0, weight_decay: float = 0.0,
                 nesterov: bool = False) -> None:
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
    def __init__(self, params: Iterable[Any], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0) -> None:
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay})

    def _update(self, p: Tensor, grad: np.ndarray, state: dict, group: dict) -> None:
        beta1, beta2 = group["betas"]
        if group["weight_decay"]:
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
