"""Module-level functions mirroring ``torch.*`` (``sg.exp(t)``, ``sg.sum(t, dim=1)``...):
each is the tensor method of the same name, so there is one implementation."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dispatch
from .tensor import Tensor, to_array


def _as_tensor(value: Any) -> Tensor:
    return value if isinstance(value, Tensor) else Tensor(to_array(value))


def matmul(input: Any, other: Any) -> Tensor:
    return _as_tensor(input).matmul(other)


def exp(input: Any) -> Tensor:
    return _as_tensor(input).exp()


def log(input: Any) -> Tensor:
    return _as_tensor(input).log()


def sqrt(input: Any) -> Tensor:
    return _as_tensor(input).sqrt()


def tanh(input: Any) -> Tensor:
    return _as_tensor(input).tanh()


def sin(input: Any) -> Tensor:
    return _as_tensor(input).sin()


def cos(input: Any) -> Tensor:
    return _as_tensor(input).cos()


def abs(input: Any) -> Tensor:  # noqa: A001  (torch.abs)
    return _as_tensor(input).abs()


def sigmoid(input: Any) -> Tensor:
    return _as_tensor(input).sigmoid()


def relu(input: Any) -> Tensor:
    return _as_tensor(input).relu()


def pow(input: Any, exponent: Any) -> Tensor:  # noqa: A001  (torch.pow)
    return _as_tensor(input).pow(exponent)


def sum(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    return _as_tensor(input).sum(dim, keepdim)


def mean(input: Any, dim: Any = None, keepdim: bool = False) -> Tensor:
    return _as_tensor(input).mean(dim, keepdim)


def max(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001
    return _as_tensor(input).max(dim, keepdim)


def min(input: Any, dim: Any = None, keepdim: bool = False) -> Any:  # noqa: A001
    return _as_tensor(input).min(dim, keepdim)


def clamp(input: Any, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
    return _as_tensor(input).clamp(min, max)


def reshape(input: Any, shape: Any) -> Tensor:
    return _as_tensor(input).reshape(shape)


def transpose(input: Any, dim0: int, dim1: int) -> Tensor:
    return _as_tensor(input).transpose(dim0, dim1)


def maximum(input: Any, other: Any) -> Tensor:
    return dispatch.call(np.maximum, input, other)


def minimum(input: Any, other: Any) -> Tensor:
    return dispatch.call(np.minimum, input, other)
