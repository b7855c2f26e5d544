"""The layers and losses of ``sg.nn``: each a ``Module`` whose ``forward`` applies one
function of ``sg.nn.functional`` (so one recorded node, its backward from the rule table),
with PyTorch's constructor arguments, defaults, initialisation and printed form."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..runtime.tensor import Tensor
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter

__all__ = ["BCEWithLogitsLoss", "CrossEntropyLoss", "Linear", "MSELoss", "ReLU", "Sequential",
           "Sigmoid", "Tanh"]


class Linear(Module):
    """``y = x @ weight.T + bias``; weight ``(out_features, in_features)`` and bias drawn
    uniformly within ``1/sqrt(in_features)``, as PyTorch's ``reset_parameters`` does."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 dtype: Any = None) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        dtype = np.dtype(dtype or np.float32)
        self.weight = Parameter(np.empty((out_features, in_features), dtype=dtype))
        if bias:
            self.bias = Parameter(np.empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init.fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Sequential(Module):
    """Modules applied in order; built from modules or from one ``OrderedDict`` of them,
    indexed and sliced like a list."""

    def __init__(self, *args: Module) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def forward(self, input: Any) -> Any:
        for module in self._modules.values():
            input = module(input)
        return input

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return Sequential(OrderedDict(list(self._modules.items())[index]))
        size = len(self)
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of range")
        return list(self._modules.values())[index % size]

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self


class ReLU(Module):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Tanh(Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.tanh(input)


class Sigmoid(Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.sigmoid(input)


class _Loss(Module):
    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction


class MSELoss(_Loss):
    def forward(self, input: Tensor, target: Any) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_Loss):
    def __init__(self, weight: Any = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = weight

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return F.cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    def __init__(self, weight: Any = None, reduction: str = "mean",
                 pos_weight: Any = None) -> None:
        super().__init__(reduction)
        self.weight = weight
        self.pos_weight = pos_weight

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return F.binary_cross_entropy_with_logits(input, target, weight=self.weight,
                                                  reduction=self.reduction,
                                                  pos_weight=self.pos_weight)
