"""Creating tensors: ``sg.tensor``, ``sg.zeros``, ``sg.randn``... with PyTorch's defaults
(float32 unless told otherwise) and ``requires_grad=``."""

from __future__ import annotations

from typing import Any

import numpy as np

from .tensor import Tensor, to_array

float32 = float = np.dtype(np.float32)  # noqa: A001  (sg.float, as torch.float)
float64 = double = np.dtype(np.float64)
int64 = long = np.dtype(np.int64)
int32 = np.dtype(np.int32)
bool = np.dtype(np.bool_)  # noqa: A001  (sg.bool, as torch.bool)

_rng = np.random.default_rng()


def manual_seed(seed: int) -> None:
    """Seed ``rand``/``randn`` (NumPy's generator: the draws differ from PyTorch's)."""
    global _rng
    _rng = np.random.default_rng(seed)


def _sizes(size: tuple) -> tuple[int, ...]:
    """``zeros(2, 3)`` and ``zeros((2, 3))`` alike."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def _made(data: np.ndarray, requires_grad: bool) -> Tensor:
    return Tensor(data, requires_grad=requires_grad)


def tensor(data: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A new tensor holding a copy of ``data``."""
    return _made(to_array(data, dtype), requires_grad)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing ``array``'s memory and dtype."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    return Tensor(array)


def zeros(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _made(np.zeros(_sizes(size), dtype=dtype or float32), requires_grad)


def ones(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _made(np.ones(_sizes(size), dtype=dtype or float32), requires_grad)


def full(size: Any, fill_value: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    dtype = dtype or to_array(fill_value).dtype
    return _made(np.full(_sizes((size,)), fill_value, dtype=dtype), requires_grad)


def eye(n: int, m: int | None = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _made(np.eye(n, m, dtype=dtype or float32), requires_grad)


def arange(start: Any, end: Any = None, step: Any = 1, dtype: Any = None,
           requires_grad: bool = False) -> Tensor:
    """Integers give int64, any float gives float32, as in PyTorch."""
    if end is None:
        start, end = 0, start
    if dtype is None:
        dtype = int64 if all(isinstance(v, int) for v in (start, end, step)) else float32
    return _made(np.arange(start, end, step, dtype=dtype), requires_grad)


def rand(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _made(_rng.random(_sizes(size), dtype=dtype or float32), requires_grad)


def randn(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _made(_rng.standard_normal(_sizes(size), dtype=dtype or float32), requires_grad)


def randint(*args: Any, size: Any = None, dtype: Any = None,
            requires_grad: bool = False) -> Tensor:
    """Integers drawn uniformly from ``[low, high)``: ``randint(high, size)`` or
    ``randint(low, high, size)``, int64 unless told otherwise, as in PyTorch."""
    if size is None:
        *bounds, size = args
    else:
        bounds = list(args)
    low, high = (0, *bounds) if len(bounds) == 1 else bounds
    data = _rng.integers(low, high, _sizes((size,)), dtype=np.int64)
    return _made(data if dtype is None else data.astype(dtype), requires_grad)


def empty(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Uninitialised in PyTorch; zeros here (NumPy's ``empty`` would show whatever memory
    held, which no test can rely on either way)."""
    return zeros(*size, dtype=dtype, requires_grad=requires_grad)


def empty_like(input: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return zeros_like(input, dtype=dtype, requires_grad=requires_grad)


def full_like(input: Tensor, fill_value: Any, dtype: Any = None,
              requires_grad: bool = False) -> Tensor:
    return _made(np.full_like(input.data, fill_value, dtype=dtype), requires_grad)


def rand_like(input: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return rand(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return randn(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def zeros_like(input: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _made(np.zeros_like(input.data, dtype=dtype), requires_grad)


def ones_like(input: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    return _made(np.ones_like(input.data, dtype=dtype), requires_grad)
