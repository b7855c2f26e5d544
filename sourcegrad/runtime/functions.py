"""Module-level functions mirroring ``torch.*`` (``sg.exp(t)``, ``sg.sum(t, dim=1)``...):
each is the tensor method of the same name, so there is one implementation."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dispatch, tensor
from .tensor import Tensor, to_array


def _as_tensor(value: Any) -> Tensor:
    return value if isinstance(value, Tensor) else Tensor(to_array(value))


def matmul(input: Any, other: Any) -> Tensor:
    return _as_tensor(input).matmul(other)


# The tensor methods themselves: each takes any array-like as ``input``.
exp = tensor.EXP.unary
log = tensor.LOG.unary
sqrt = tensor.SQRT.unary
tanh = tensor.TANH.unary
sin = tensor.SIN.unary
cos = tensor.COS.unary
abs = tensor.ABS.unary  # noqa: A001  (torch.abs)
sigmoid = tensor.SIGMOID.unary
relu = tensor.RELU.unary


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


def cat(tensors: Any, dim: int = 0) -> Tensor:
    """``torch.cat``: join tensors along an existing dimension (``CatBackward0``)."""
    return dispatch.call(np.concatenate, [_as_tensor(t) for t in tensors], axis=dim)


def stack(tensors: Any, dim: int = 0) -> Tensor:
    """``torch.stack``: join tensors along a new dimension (``StackBackward0``)."""
    return dispatch.call(np.stack, [_as_tensor(t) for t in tensors], axis=dim)


def clone(input: Any) -> Tensor:
    return _as_tensor(input).clone()


def flatten(input: Any, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    return _as_tensor(input).flatten(start_dim, end_dim)


def squeeze(input: Any, dim: Any = None) -> Tensor:
    return _as_tensor(input).squeeze(dim)


def unsqueeze(input: Any, dim: int) -> Tensor:
    return _as_tensor(input).unsqueeze(dim)


def permute(input: Any, dims: Any) -> Tensor:
    return _as_tensor(input).permute(dims)


def narrow(input: Any, dim: int, start: int, length: int) -> Tensor:
    return _as_tensor(input).narrow(dim, start, length)


def chunk(input: Any, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    return _as_tensor(input).chunk(chunks, dim)


def split(tensor: Any, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
    return _as_tensor(tensor).split(split_size_or_sections, dim)


def unbind(input: Any, dim: int = 0) -> tuple[Tensor, ...]:
    return _as_tensor(input).unbind(dim)


def add(input: Any, other: Any, alpha: float = 1) -> Tensor:
    return _as_tensor(input).add(other, alpha=alpha)


def sub(input: Any, other: Any, alpha: float = 1) -> Tensor:
    return _as_tensor(input).sub(other, alpha=alpha)


def mul(input: Any, other: Any) -> Tensor:
    return _as_tensor(input).mul(other)


def div(input: Any, other: Any) -> Tensor:
    return _as_tensor(input).div(other)
