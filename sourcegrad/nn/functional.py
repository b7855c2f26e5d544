"""``sg.nn.functional``: PyTorch's functional API on tensors.

Each function applies a primitive of ``sg.nn.ops`` through the runtime's dispatch, so its
node's backward is the primitive's rule in ``sourcegrad/rules/nn.py``; PyTorch's argument
names (``dim``, ``reduction``) are kept. ``softmax`` and ``log_softmax`` are the tensor
methods' (``runtime/operations.py``), with PyTorch's legacy default for ``dim``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..runtime import dispatch, operations
from ..runtime.tensor import Tensor
from . import ops


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``, one node named as PyTorch names it for the input's rank.

    >>> x = sg.tensor([[1.0, 2.0, 3.0]])
    >>> w = sg.tensor([[0.5, -1.0, 0.0], [1.0, 1.0, 1.0]], requires_grad=True)
    >>> sg.nn.functional.linear(x, w, sg.tensor([0.0, -6.0]))
    tensor([[-1.5000,  0.0000]], grad_fn=<AddmmBackward0>)
    """
    ndim = np.ndim(input.data if isinstance(input, Tensor) else input)
    name = _LINEAR_NODE_NAMES.get((min(ndim, 3), bias is not None))
    args = (input, weight) if bias is None else (input, weight, bias)
    return dispatch.call_named(name, ops.linear, args, {})


_LINEAR_NODE_NAMES = {
    (1, True): "ViewBackward0", (1, False): "SqueezeBackward4",
    (2, True): "AddmmBackward0", (2, False): "MmBackward0",
    (3, True): "ViewBackward0", (3, False): "UnsafeViewBackward0",
}


def sigmoid(input: Tensor) -> Tensor:
    """``1 / (1 + exp(-input))``, computed without overflow.

    >>> sg.nn.functional.sigmoid(sg.tensor([0.0, 2.0]))
    tensor([0.5000, 0.8808])
    """
    return dispatch.call(ops.sigmoid, input)


def relu(input: Tensor) -> Tensor:
    """``max(input, 0)``; its derivative at 0 is 0, as in PyTorch.

    >>> sg.nn.functional.relu(sg.tensor([-1.0, 2.0]))
    tensor([0., 2.])
    """
    return dispatch.call(ops.relu, input)


def tanh(input: Tensor) -> Tensor:
    """The hyperbolic tangent (``input.tanh()``).

    >>> sg.nn.functional.tanh(sg.tensor([0.0, 1.0]))
    tensor([0.0000, 0.7616])
    """
    return input.tanh()


def softmax(input: Tensor, dim: int | None = None) -> Tensor:
    """``exp(input)`` normalised to sum to 1 along ``dim``.

    >>> sg.nn.functional.softmax(sg.tensor([[1.0, 1.0], [0.0, 2.0]]), dim=1)
    tensor([[0.5000, 0.5000],
            [0.1192, 0.8808]])
    """
    return operations.softmax(input, _softmax_dim(input, dim, "softmax"))


def log_softmax(input: Tensor, dim: int | None = None) -> Tensor:
    """``log(softmax(input, dim))``, computed stably.

    >>> sg.nn.functional.log_softmax(sg.tensor([1.0, 1.0]), dim=0)
    tensor([-0.6931, -0.6931])
    """
    return operations.log_softmax(input, _softmax_dim(input, dim, "log_softmax"))


def _softmax_dim(input: Tensor, dim: int | None, name: str) -> int:
    """PyTorch's legacy choice when ``dim`` is missing, with its warning."""
    if dim is not None:
        return dim
    implicit = 0 if input.ndim in (0, 1, 3) else 1
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", UserWarning, stacklevel=3)
    return implicit


def binary_cross_entropy_with_logits(input: Tensor, target: Any, weight: Any = None,
                                     reduction: str = "mean", pos_weight: Any = None) -> Tensor:
    """The binary cross-entropy of ``sigmoid(input)`` against
    ``target``, computed from the logits without overflow.

    >>> sg.nn.functional.binary_cross_entropy_with_logits(sg.tensor([0.0, 3.0]),
    ...                                                   sg.tensor([1.0, 1.0]))
    tensor(0.3709)
    """
    _no_weights(weight, pos_weight)
    return dispatch.call(ops.binary_cross_entropy_with_logits, input, target,
                         reduction=reduction)


def binary_cross_entropy(input: Tensor, target: Any, weight: Any = None,
                         reduction: str = "mean") -> Tensor:
    """The binary cross-entropy of probabilities ``input`` against
    ``target``; each log is clamped at -100, as in PyTorch.

    >>> sg.nn.functional.binary_cross_entropy(sg.tensor([0.5, 0.9]), sg.tensor([1.0, 1.0]))
    tensor(0.3993)
    """
    _no_weights(weight)
    return dispatch.call(ops.binary_cross_entropy, input, target, reduction=reduction)


def mse_loss(input: Tensor, target: Any, reduction: str = "mean") -> Tensor:
    """The mean (or sum, or elementwise) squared difference.

    >>> y = sg.tensor([1.0, 2.0], requires_grad=True)
    >>> loss = sg.nn.functional.mse_loss(y, sg.tensor([0.0, 0.0]))
    >>> loss
    tensor(2.5000, grad_fn=<MseLossBackward0>)
    >>> loss.backward(); y.grad
    tensor([1., 2.])
    """
    if getattr(input, "shape", None) != getattr(target, "shape", None):
        warnings.warn(f"Using a target size ({target.shape}) that is different to the input "
                      f"size ({input.shape}). This will likely lead to incorrect results due "
                      "to broadcasting. Please ensure they have the same size.", UserWarning,
                      stacklevel=2)
    return dispatch.call(ops.mse_loss, input, target, reduction=reduction)


def cross_entropy(input: Tensor, target: Any, weight: Any = None,
                  reduction: str = "mean") -> Tensor:
    """Logits ``(C,)`` or ``(N, C)`` against integer class indices.

    >>> sg.nn.functional.cross_entropy(sg.tensor([[2.0, 0.0, 0.0]]), sg.tensor([0]))
    tensor(0.2395)
    """
    _no_weights(weight)
    return dispatch.call(ops.cross_entropy, input, target, reduction=reduction)


def _no_weights(*weights: Any) -> None:
    if any(w is not None for w in weights):
        raise NotImplementedError("sourcegrad's losses do not take weight/pos_weight yet")
