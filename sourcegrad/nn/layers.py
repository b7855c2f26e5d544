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
    uniformly within ``1/sqrt(in_features)``, as PyTorch's ``reset_parameters`` does.

    Made with weights set by hand, ``[[1, -1]] @ [3, 1] + 0.5 = 2.5``; the weight's
    gradient is the input, the bias's is 1:

    >>> layer = sg.nn.Linear(2, 1)
    >>> layer
    Linear(in_features=2, out_features=1, bias=True)
    >>> with sg.no_grad():
    ...     _ = layer.weight.copy_(sg.tensor([[1.0, -1.0]]))
    ...     _ = layer.bias.fill_(0.5)
    >>> x = sg.tensor([[3.0, 1.0]])
    >>> layer(x)
    tensor([[2.5000]], grad_fn=<AddmmBackward0>)
    >>> layer(x).sum().backward()
    >>> layer.weight.grad, layer.bias.grad
    (tensor([[3., 1.]]), tensor([1.]))
    """

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
        """Draw the weight and the bias again (PyTorch's scheme: Kaiming-uniform
        weight, bias uniform within ``1/sqrt(in_features)``).

        Both within ``1/sqrt(4) = 0.5`` here:

        >>> layer = sg.nn.Linear(4, 2)
        >>> with sg.no_grad():
        ...     _ = layer.weight.zero_()
        >>> layer.reset_parameters()
        >>> bool((layer.weight != 0).any())
        True
        >>> bool((layer.weight.abs() <= 0.5).all()), bool((layer.bias.abs() <= 0.5).all())
        (True, True)
        """
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
    indexed and sliced like a list.

    >>> model = sg.nn.Sequential(sg.nn.Linear(2, 3), sg.nn.ReLU(), sg.nn.Linear(3, 1))
    >>> model
    Sequential(
      (0): Linear(in_features=2, out_features=3, bias=True)
      (1): ReLU()
      (2): Linear(in_features=3, out_features=1, bias=True)
    )
    >>> model(sg.zeros(5, 2)).shape
    sg.Size([5, 1])
    >>> len(model), type(model[-1]).__name__, len(model[:2])
    (3, 'Linear', 2)
    """

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
        """Add ``module`` at the end; returns this ``Sequential``.

        >>> model = sg.nn.Sequential(sg.nn.Linear(2, 2)).append(sg.nn.Tanh())
        >>> model
        Sequential(
          (0): Linear(in_features=2, out_features=2, bias=True)
          (1): Tanh()
        )
        """
        self.add_module(str(len(self)), module)
        return self


class ReLU(Module):
    """``max(x, 0)``, elementwise (with ``inplace``, written into ``x``, as in PyTorch).

    >>> x = sg.tensor([-1.0, 2.0], requires_grad=True)
    >>> sg.nn.ReLU()(x)
    tensor([0., 2.], grad_fn=<ReluBackward0>)
    >>> sg.nn.ReLU()(x).sum().backward()
    >>> x.grad
    tensor([0., 1.])
    """
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return input.relu_() if self.inplace else F.relu(input)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Tanh(Module):
    """The hyperbolic tangent, elementwise.

    >>> sg.nn.Tanh()(sg.tensor([0.0, 1.0]))
    tensor([0.0000, 0.7616])
    """
    def forward(self, input: Tensor) -> Tensor:
        return F.tanh(input)


class Sigmoid(Module):
    """``1 / (1 + exp(-x))``, elementwise.

    >>> sg.nn.Sigmoid()(sg.tensor([0.0, np.log(3.0)]))
    tensor([0.5000, 0.7500])
    """
    def forward(self, input: Tensor) -> Tensor:
        return F.sigmoid(input)


class _Loss(Module):
    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction


class MSELoss(_Loss):
    """The mean (``reduction``: or sum, or none) of the squared differences.

    ``((1 - 0)**2 + (2 - 0)**2) / 2 = 2.5``, gradient ``2 (input - target) / n``:

    >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
    >>> loss = sg.nn.MSELoss()(x, sg.tensor([0.0, 0.0]))
    >>> loss
    tensor(2.5000, grad_fn=<MseLossBackward0>)
    >>> loss.backward()
    >>> x.grad
    tensor([1., 2.])
    >>> sg.nn.MSELoss(reduction="sum")(x, sg.zeros(2))
    tensor(5., grad_fn=<MseLossBackward0>)
    """
    def forward(self, input: Tensor, target: Any) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_Loss):
    """The negative log-likelihood of the target classes under
    ``softmax(input)``, averaged over the batch (``weight``: per class).

    Two equal logits give each class probability 1/2, so the loss is ``log 2`` and the
    gradient ``softmax - onehot``:

    >>> logits = sg.tensor([[0.0, 0.0]], requires_grad=True)
    >>> loss = sg.nn.CrossEntropyLoss()(logits, sg.tensor([1]))
    >>> loss
    tensor(0.6931, grad_fn=<NllLossBackward0>)
    >>> loss.backward()
    >>> logits.grad
    tensor([[ 0.5000, -0.5000]])
    """
    def __init__(self, weight: Any = None, reduction: str = "mean") -> None:
        super().__init__(reduction)
        self.weight = weight

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return F.cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy of ``sigmoid(input)`` against ``target``, computed
    stably from the logits (``pos_weight``: weight of the positive class).

    A logit of 0 is probability 1/2: loss ``log 2``, gradient ``sigmoid(x) - target``:

    >>> x = sg.tensor([0.0], requires_grad=True)
    >>> loss = sg.nn.BCEWithLogitsLoss()(x, sg.tensor([1.0]))
    >>> loss
    tensor(0.6931, grad_fn=<BinaryCrossEntropyWithLogitsBackward0>)
    >>> loss.backward()
    >>> x.grad
    tensor([-0.5000])
    """
    def __init__(self, weight: Any = None, reduction: str = "mean",
                 pos_weight: Any = None) -> None:
        super().__init__(reduction)
        self.weight = weight
        self.pos_weight = pos_weight

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return F.binary_cross_entropy_with_logits(input, target, weight=self.weight,
                                                  reduction=self.reduction,
                                                  pos_weight=self.pos_weight)
