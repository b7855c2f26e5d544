"""Module-level functions mirroring ``torch.*`` (``sg.exp(t)``, ``sg.sum(t, dim=1)``...):
each is the tensor method of the same name, so there is one implementation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import dispatch, tensor
from .tensor import Tensor, to_array


def _as_tensor(value: Any) -> Tensor:
    return value if isinstance(value, Tensor) else Tensor(to_array(value))


def matmul(input: Any, other: Any) -> Tensor:
    return _as_tensor(input).matmul(other)


def _elementwise(op: dispatch.Op, name: str) -> Callable[[Any], Tensor]:
    """``sg.<name>``: the tensor method's ``Op`` called directly (``sg.tanh(x)`` is as
    frequent as ``x.tanh()``, and a layer of calls less is a tenth of its overhead)."""

    def function(input: Any) -> Tensor:
        return op.unary(input if type(input) is Tensor else _as_tensor(input))

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``torch.{name}``: the same as ``input.{name}()``."
    return function


exp = _elementwise(tensor.EXP, "exp")
log = _elementwise(tensor.LOG, "log")
sqrt = _elementwise(tensor.SQRT, "sqrt")
tanh = _elementwise(tensor.TANH, "tanh")
sin = _elementwise(tensor.SIN, "sin")
cos = _elementwise(tensor.COS, "cos")
abs = _elementwise(tensor.ABS, "abs")  # noqa: A001  (torch.abs)
sigmoid = _elementwise(tensor.SIGMOID, "sigmoid")
relu = _elementwise(tensor.RELU, "relu")


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
