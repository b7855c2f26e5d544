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
    """Seed ``rand``/``randn`` (NumPy's generator: the draws differ from PyTorch's).

    >>> sg.manual_seed(0); first = sg.rand(2)
    >>> sg.manual_seed(0); bool((sg.rand(2) == first).all())
    True
    """
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
    """A new tensor holding a copy of ``data``.

    >>> sg.tensor([1.0, 2.0], requires_grad=True)
    tensor([1., 2.], requires_grad=True)
    >>> sg.tensor([1, 2]).dtype, sg.tensor(np.ones(2)).dtype
    (dtype('int64'), dtype('float64'))
    """
    return _made(to_array(data, dtype), requires_grad)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing ``array``'s memory and dtype.

    >>> a = np.array([1.0, 2.0])
    >>> t = sg.from_numpy(a); a[0] = 5.0; t
    tensor([5., 2.], dtype=sg.float64)
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    return Tensor(array)


def zeros(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor of zeros of the given size (``zeros(2, 3)`` or ``zeros((2, 3))``).

    >>> sg.zeros(2, 3)
    tensor([[0., 0., 0.],
            [0., 0., 0.]])
    """
    return _made(np.zeros(_sizes(size), dtype=dtype or float32), requires_grad)


def ones(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor of ones of the given size.

    >>> sg.ones(2)
    tensor([1., 1.])
    """
    return _made(np.ones(_sizes(size), dtype=dtype or float32), requires_grad)


def full(size: Any, fill_value: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor of ``size`` filled with ``fill_value``.

    >>> sg.full((2,), 7.0)
    tensor([7., 7.])
    """
    dtype = dtype or to_array(fill_value).dtype
    return _made(np.full(_sizes((size,)), fill_value, dtype=dtype), requires_grad)


def eye(n: int, m: int | None = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """The ``n`` x ``m`` identity matrix (``m`` defaults to ``n``).

    >>> sg.eye(2)
    tensor([[1., 0.],
            [0., 1.]])
    """
    return _made(np.eye(n, m, dtype=dtype or float32), requires_grad)


def arange(start: Any, end: Any = None, step: Any = 1, dtype: Any = None,
           requires_grad: bool = False) -> Tensor:
    """Integers give int64, any float gives float32, as in PyTorch.

    >>> sg.arange(4)
    tensor([0, 1, 2, 3])
    >>> sg.arange(0.0, 1.0, 0.25)
    tensor([0.0000, 0.2500, 0.5000, 0.7500])
    """
    if end is None:
        start, end = 0, start
    if dtype is None:
        dtype = int64 if all(isinstance(v, int) for v in (start, end, step)) else float32
    return _made(np.arange(start, end, step, dtype=dtype), requires_grad)


def linspace(start: Any, end: Any, steps: int, dtype: Any = None,
             requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` (both included), float32
    unless told otherwise.

    >>> sg.linspace(0, 1, 5)
    tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
    """
    return _made(np.linspace(start, end, steps, dtype=dtype or float32), requires_grad)


def randperm(n: int, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A random permutation of ``0 .. n - 1`` (int64 unless told otherwise).

    >>> sorted(sg.randperm(4).tolist())
    [0, 1, 2, 3]
    """
    return _made(_rng.permutation(n).astype(dtype or int64), requires_grad)


def as_tensor(data: Any, dtype: Any = None) -> Tensor:
    """``data`` as a tensor without a copy where it can be: a tensor itself, an ndarray's
    memory shared (as ``from_numpy``) when the dtype agrees; other data copied.

    >>> a = np.array([1.0, 2.0])
    >>> t = sg.as_tensor(a); a[0] = 5.0; t
    tensor([5., 2.], dtype=sg.float64)
    """
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or np.dtype(dtype) == data.dtype):
        return Tensor(data)
    return tensor(data, dtype=dtype)


def is_tensor(obj: Any) -> bool:
    """Whether ``obj`` is a ``sg.Tensor``.

    >>> sg.is_tensor(sg.ones(1)), sg.is_tensor(np.ones(1))
    (True, False)
    """
    return isinstance(obj, Tensor)


def rand(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Draws uniform in ``[0, 1)`` (from ``sg.manual_seed``'s generator).

    >>> sg.rand(2, 3).shape
    sg.Size([2, 3])
    """
    return _made(_rng.random(_sizes(size), dtype=dtype or float32), requires_grad)


def randn(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Standard normal draws (from ``sg.manual_seed``'s generator).

    >>> sg.randn(4).dtype
    dtype('float32')
    """
    return _made(_rng.standard_normal(_sizes(size), dtype=dtype or float32), requires_grad)


def randint(*args: Any, size: Any = None, dtype: Any = None,
            requires_grad: bool = False) -> Tensor:
    """Integers drawn uniformly from ``[low, high)``: ``randint(high, size)`` or
    ``randint(low, high, size)``, int64 unless told otherwise, as in PyTorch.

    >>> x = sg.randint(0, 10, (3,))
    >>> x.dtype, bool(((x >= 0) & (x < 10)).all())
    (dtype('int64'), True)
    """
    if size is None:
        *bounds, size = args
    else:
        bounds = list(args)
    low, high = (0, *bounds) if len(bounds) == 1 else bounds
    data = _rng.integers(low, high, _sizes((size,)), dtype=np.int64)
    return _made(data if dtype is None else data.astype(dtype), requires_grad)


def empty(*size: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Uninitialised in PyTorch; zeros here (NumPy's ``empty`` would show whatever memory
    held, which no test can rely on either way).

    >>> sg.empty(2, 2).shape
    sg.Size([2, 2])
    """
    return zeros(*size, dtype=dtype, requires_grad=requires_grad)


def empty_like(input: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor of ``input``'s shape and dtype, not to be read before written.

    >>> sg.empty_like(sg.ones(2, 3)).shape
    sg.Size([2, 3])
    """
    return zeros_like(input, dtype=dtype, requires_grad=requires_grad)


def full_like(input: Tensor, fill_value: Any, dtype: Any = None,
              requires_grad: bool = False) -> Tensor:
    """A tensor of ``input``'s shape and dtype filled with ``fill_value``.

    >>> sg.full_like(sg.ones(2), 2.0)
    tensor([2., 2.])
    """
    return _made(np.full_like(input.data, fill_value, dtype=dtype), requires_grad)


def rand_like(input: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Uniform draws in ``[0, 1)`` of ``input``'s shape and dtype.

    >>> sg.rand_like(sg.ones(2, 2)).shape
    sg.Size([2, 2])
    """
    return rand(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def randn_like(input: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Standard normal draws of ``input``'s shape and dtype.

    >>> sg.randn_like(sg.ones(2, 2)).shape
    sg.Size([2, 2])
    """
    return randn(*input.shape, dtype=dtype or input.dtype, requires_grad=requires_grad)


def zeros_like(input: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Zeros of ``input``'s shape and dtype.

    >>> sg.zeros_like(sg.tensor([[1.0, -2.0]]))
    tensor([[0., 0.]])
    """
    return _made(np.zeros_like(input.data, dtype=dtype), requires_grad)


def ones_like(input: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Ones of ``input``'s shape and dtype.

    >>> sg.ones_like(sg.tensor([[1.0, -2.0]]))
    tensor([[1., 1.]])
    """
    return _made(np.ones_like(input.data, dtype=dtype), requires_grad)
