"""PyTorch's tensor methods beyond the core of ``tensor.py`` (``prod``, ``std``, ``softmax``,
``sort``, ``gather``, ``mm``, ``tril``...), each one NumPy call with PyTorch's arguments
translated and recorded through ``dispatch`` (the rule table's VJPs: no derivative here).

Each function below is at once the tensor method and the ``sg`` function of the same name
(``x.prod(1)`` is ``sg.prod(x, 1)``: one implementation, its first parameter ``input``), so
they are installed on ``Tensor`` at the end of the module and exported by ``sourcegrad``.
The elementwise ones are ``Op`` calls themselves, from two tables (``UNARY``, ``BINARY``).
Nodes are named as PyTorch 2.13 names them (``StdBackward0``, ``SortBackward0``...).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..nn import ops
from . import dispatch
from .tensor import NEG, TRANSPOSE, ReductionResult, Tensor, _dim_args, _shape_args

_Op = dispatch.Op


def _data(value: Any) -> np.ndarray:
    return value.data if isinstance(value, Tensor) else np.asarray(value)


def _as_tensor(value: Any) -> Tensor:
    return value if isinstance(value, Tensor) else Tensor(np.asarray(value))


def _checked(input: Any, dim: Any) -> Any:
    """``dim`` (an int, several, or None) as given, or PyTorch's error for one out of range
    (NumPy's would name an ``axis``)."""
    ndim = max(_data(input).ndim, 1)
    for d in dim if isinstance(dim, (tuple, list)) else (dim,):
        if d is not None and not -ndim <= d < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                             f"{ndim - 1}], but got {d})")
    return dim


# ------------------------------------------------------------------ elementwise, from tables


def _one_over(a: Any) -> Any:
    """``np.reciprocal`` in floating point (NumPy's keeps integers: 1 // 2 = 0)."""
    return np.divide(1.0, a)


# name: (the Op, what it computes, an example call, what the example prints)
UNARY: dict[str, tuple[dispatch.Op, str, str, str]] = {
    "neg": (NEG, "``-input``, elementwise (``negative`` is the same).",
            "sg.neg(sg.tensor([1.0, -2.0]))", "tensor([-1.,  2.])"),
    "square": (_Op(np.square, "PowBackward0"), "``input ** 2``, elementwise.",
               "sg.square(sg.tensor([1.0, -3.0]))", "tensor([1., 9.])"),
    "reciprocal": (_Op(np.reciprocal, runs=_one_over), "``1 / input``, elementwise.",
                   "sg.reciprocal(sg.tensor([2.0, -4.0]))", "tensor([ 0.5000, -0.2500])"),
    "rsqrt": (_Op(ops.rsqrt), "``1 / sqrt(input)``, elementwise.",
              "sg.rsqrt(sg.tensor([4.0, 0.25]))", "tensor([0.5000, 2.0000])"),
    "log1p": (_Op(np.log1p, "Log1PBackward0"), "``log(1 + input)``, accurate near 0.",
              "sg.log1p(sg.tensor([0.0, 1e-8]))", "tensor([0.0000e+00, 1.0000e-08])"),
    "expm1": (_Op(np.expm1), "``exp(input) - 1``, accurate near 0.",
              "sg.expm1(sg.tensor([0.0, 1e-8]))", "tensor([0.0000e+00, 1.0000e-08])"),
    "log2": (_Op(np.log2), "The base-2 logarithm, elementwise.",
             "sg.log2(sg.tensor([1.0, 8.0]))", "tensor([0., 3.])"),
    "log10": (_Op(np.log10), "The base-10 logarithm, elementwise.",
              "sg.log10(sg.tensor([1.0, 10.0]))", "tensor([0., 1.])"),
    "sinh": (_Op(np.sinh), "The hyperbolic sine, elementwise.",
             "sg.sinh(sg.tensor([0.0, 1.0]))", "tensor([0.0000, 1.1752])"),
    "cosh": (_Op(np.cosh), "The hyperbolic cosine, elementwise.",
             "sg.cosh(sg.tensor([0.0, 1.0]))", "tensor([1.0000, 1.5431])"),
    "erf": (_Op(ops.erf), "The error function, elementwise.",
            "sg.erf(sg.tensor([0.0, 1.0]))", "tensor([0.0000, 0.8427])"),
    "sign": (_Op(np.sign), "-1, 0 or 1 by the sign of each element (its gradient is 0).",
             "sg.sign(sg.tensor([-2.0, 0.0, 3.0]))", "tensor([-1.,  0.,  1.])"),
    "floor": (_Op(ops.floor, "FloorBackward0", runs=np.floor),
              "The largest integer not above each element (its gradient is 0, as in PyTorch).",
              "sg.floor(sg.tensor([-1.5, 0.5]))", "tensor([-2.,  0.])"),
    "ceil": (_Op(ops.ceil, "CeilBackward0", runs=np.ceil),
             "The smallest integer not below each element (its gradient is 0).",
             "sg.ceil(sg.tensor([-1.5, 0.5]))", "tensor([-1.,  1.])"),
    "round": (_Op(ops.round, "RoundBackward0", runs=np.round),
              "Each element rounded to the nearest integer, halves to even (gradient 0).",
              "sg.round(sg.tensor([0.5, 1.5, 2.7]))", "tensor([0., 2., 3.])"),
    "trunc": (_Op(ops.trunc, "TruncBackward0", runs=np.trunc),
              "Each element rounded towards 0 (its gradient is 0).",
              "sg.trunc(sg.tensor([-1.5, 1.5]))", "tensor([-1.,  1.])"),
}

# name: (the Op, what it computes, an example call, what the example prints)
BINARY: dict[str, tuple[dispatch.Op, str, str, str]] = {
    "maximum": (_Op(np.maximum), "The elementwise maximum (ties share the gradient equally).",
                "sg.maximum(sg.tensor([1.0, -2.0]), sg.tensor([0.0, 0.0]))", "tensor([1., 0.])"),
    "minimum": (_Op(np.minimum), "The elementwise minimum (ties share the gradient equally).",
                "sg.minimum(sg.tensor([1.0, -2.0]), sg.tensor([0.0, 0.0]))",
                "tensor([ 0., -2.])"),
    "atan2": (_Op(np.arctan2), "The angle of the point ``(other, input)``, elementwise.",
              "sg.atan2(sg.tensor([1.0, 0.0]), sg.tensor([0.0, 1.0]))",
              "tensor([1.5708, 0.0000])"),
    "hypot": (_Op(np.hypot), "``sqrt(input**2 + other**2)``, elementwise.",
              "sg.hypot(sg.tensor([3.0]), sg.tensor([4.0]))", "tensor([5.])"),
    "fmod": (_Op(np.fmod), "The remainder of the division, with the sign of ``input`` (C's).",
             "sg.fmod(sg.tensor([-3.0, 3.0]), 2.0)", "tensor([-1.,  1.])"),
    "remainder": (_Op(np.remainder),
                  "The remainder of the division, with the sign of ``other`` (Python's ``%``).",
                  "sg.remainder(sg.tensor([-3.0, 3.0]), 2.0)", "tensor([1., 1.])"),
}

_ELEMENTWISE: dict[str, Callable[..., Tensor]] = {}
for _table, _arity in ((UNARY, "unary"), (BINARY, "binary")):
    for _name, (_op, _summary, _call, _printed) in _table.items():
        # the tensor method and the sg function are the Op's call: one docstring for both
        _ELEMENTWISE[_name] = getattr(_op, _arity)
        _ELEMENTWISE[_name].__doc__ = f"{_summary}\n\n>>> {_call}\n{_printed}\n"

# (each by its name, for ``from .operations import square``)
neg, square, reciprocal, rsqrt = (_ELEMENTWISE[n] for n in ("neg", "square", "reciprocal",
                                                            "rsqrt"))
log1p, expm1, log2, log10 = (_ELEMENTWISE[n] for n in ("log1p", "expm1", "log2", "log10"))
sinh, cosh, erf, sign = (_ELEMENTWISE[n] for n in ("sinh", "cosh", "erf", "sign"))
floor, ceil, round, trunc = (_ELEMENTWISE[n] for n in ("floor", "ceil", "round", "trunc"))
maximum, minimum, atan2, hypot, fmod, remainder = (_ELEMENTWISE[n] for n in (
    "maximum", "minimum", "atan2", "hypot", "fmod", "remainder"))


def _comparison(dunder: str, example: str, printed: str) -> Callable[[Any, Any], Tensor]:
    method = getattr(Tensor, dunder)

    def compare(input: Any, other: Any) -> Tensor:
        return method(_as_tensor(input), other)

    compare.__name__ = compare.__qualname__ = dunder.strip("_")
    compare.__doc__ = (f"``input {example} other``, elementwise: a bool tensor, never tracked."
                       f"\n\n>>> sg.{compare.__name__}(sg.tensor([1.0, 2.0, 3.0]), 2.0)\n"
                       f"{printed}\n")
    return compare


eq = _comparison("__eq__", "==", "tensor([False,  True, False])")
ne = _comparison("__ne__", "!=", "tensor([ True, False,  True])")
lt = _comparison("__lt__", "<", "tensor([ True, False, False])")
le = _comparison("__le__", "<=", "tensor([ True,  True, False])")
gt = _comparison("__gt__", ">", "tensor([False, False,  True])")
ge = _comparison("__ge__", ">=", "tensor([False,  True,  True])")

CLAMP_MIN = _Op(np.clip, "ClampMinBackward0")
CLAMP_MAX = _Op(np.clip, "ClampMaxBackward0")


def clamp_min(input: Any, min: Any) -> Tensor:  # noqa: A002  (PyTorch's name)
    """``input`` limited from below (``clamp(min=min)``).

    >>> sg.tensor([-1.0, 2.0]).clamp_min(0.0)
    tensor([0., 2.])
    """
    return CLAMP_MIN.positional(input, min, None)


def clamp_max(input: Any, max: Any) -> Tensor:  # noqa: A002  (PyTorch's name)
    """``input`` limited from above (``clamp(max=max)``).

    >>> sg.tensor([-1.0, 2.0]).clamp_max(0.0)
    tensor([-1.,  0.])
    """
    return CLAMP_MAX.positional(input, None, max)


def lerp(input: Any, end: Any, weight: Any) -> Tensor:
    """``input + weight * (end - input)``: the linear interpolation towards ``end``.

    >>> sg.lerp(sg.tensor([0.0, 10.0]), sg.tensor([1.0, 20.0]), 0.25)
    tensor([ 0.2500, 12.5000])
    """
    name = "LerpBackward1" if isinstance(weight, Tensor) else "LerpBackward0"
    return dispatch.call_named(name, ops.lerp, (input, end, weight), {})


# ------------------------------------------------------------------------------- reductions


def _reduced(node: str | None, fn: Callable, input: Any, dim: Any, keepdim: bool,
             **options: Any) -> Tensor:
    """``fn(input, axis=dim, keepdims=keepdim, **options)``, one node named ``node`` (by
    default the rule's, ``...Backward1`` when ``dim`` is given)."""
    return dispatch.call_named(node, fn, (input,), {
        "axis": _dim_args(_checked(input, dim)), "keepdims": keepdim, **options})


def prod(input: Any, dim: int | None = None, keepdim: bool = False, *,
         dtype: Any = None) -> Tensor:
    """The product of all elements, or along ``dim`` (exact derivative where some are 0).

    >>> x = sg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    >>> x.prod(1)
    tensor([ 2., 12.], grad_fn=<ProdBackward1>)
    >>> x.prod().backward()
    >>> x.grad
    tensor([[24., 12.],
            [ 8.,  6.]])
    """
    options = {} if dtype is None else {"dtype": dtype}
    return _reduced(None, np.prod, input, dim, keepdim, **options)


def _ddof(unbiased: bool | None, correction: Any) -> Any:
    if correction is not None:
        return correction
    return 0 if unbiased is False else 1


def _spread(name: str, fn: Callable, input: Any, dim: Any, unbiased: Any, keepdim: bool,
            correction: Any) -> Tensor:
    """``std``/``var``: PyTorch's ``x.std(False)`` (the old ``unbiased`` first) too."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    return _reduced(name, fn, input, dim, keepdim, ddof=_ddof(unbiased, correction))


def std(input: Any, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    """The standard deviation, with Bessel's correction unless told otherwise
    (``unbiased=False`` or ``correction=0``), as in PyTorch.

    >>> x = sg.tensor([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]])
    >>> x.std(), x.std(1), x.std(dim=1, correction=0)
    (tensor(0.6325), tensor([1., 0.]), tensor([0.8165, 0.0000]))
    """
    return _spread("StdBackward0", np.std, input, dim, unbiased, keepdim, correction)


def var(input: Any, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False, *,
        correction: Any = None) -> Tensor:
    """The variance, with Bessel's correction unless told otherwise, as in PyTorch.

    >>> x = sg.tensor([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]])
    >>> x.var(1), x.var(1, unbiased=False)
    (tensor([1., 0.]), tensor([0.6667, 0.0000]))
    """
    return _spread("VarBackward0", np.var, input, dim, unbiased, keepdim, correction)


def var_mean(input: Any, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False,
             *, correction: Any = None) -> tuple[Tensor, Tensor]:
    """``(var, mean)`` of ``input`` (two nodes, where PyTorch records one).

    >>> sg.var_mean(sg.tensor([1.0, 2.0, 3.0]))
    (tensor(1.), tensor(2.))
    """
    return _with_mean(var, input, dim, unbiased, keepdim, correction)


def std_mean(input: Any, dim: Any = None, unbiased: bool | None = None, keepdim: bool = False,
             *, correction: Any = None) -> tuple[Tensor, Tensor]:
    """``(std, mean)`` of ``input`` (two nodes, where PyTorch records one).

    >>> sg.std_mean(sg.tensor([1.0, 2.0, 3.0]))
    (tensor(1.), tensor(2.))
    """
    return _with_mean(std, input, dim, unbiased, keepdim, correction)


def _with_mean(spread: Callable, input: Any, dim: Any, unbiased: Any, keepdim: bool,
               correction: Any) -> tuple[Tensor, Tensor]:
    return (spread(input, dim, unbiased, keepdim, correction=correction),
            _as_tensor(input).mean(None if isinstance(dim, bool) else dim, keepdim))


def norm(input: Any, p: Any = "fro", dim: Any = None, keepdim: bool = False,
         dtype: Any = None) -> Tensor:
    """The ``p``-norm of all elements taken as one vector, or along ``dim`` (``'fro'`` is
    the 2-norm; ``inf`` the largest magnitude). The nuclear norm is not supported.

    >>> x = sg.tensor([[3.0, -4.0], [0.0, 1.0]], requires_grad=True)
    >>> x.norm(dim=1), x.norm(p=1), x.norm(float("inf"))
    (tensor([5., 1.], grad_fn=<LinalgVectorNormBackward0>), tensor(8., grad_fn=<LinalgVectorNormBackward0>), tensor(4., grad_fn=<LinalgVectorNormBackward0>))
    >>> x[0].norm().backward()
    >>> x.grad
    tensor([[ 0.6000, -0.8000],
            [ 0.0000,  0.0000]])
    """  # noqa: E501  (a printed line)
    if not isinstance(p, (int, float, str)) or isinstance(p, str) and p != "fro":
        raise NotImplementedError(f"norm(p={p!r}): sourcegrad supports the vector norms "
                                  "(p a number, or 'fro') only")
    if dtype is not None:
        input = _as_tensor(input).to(dtype)
    return _vector_norm("LinalgVectorNormBackward0", input, p, dim, keepdim)


def _vector_norm(name: str, input: Any, p: Any, dim: Any, keepdim: bool) -> Tensor:
    return _reduced(name, np.linalg.vector_norm, input, dim, keepdim,
                    ord=2 if p == "fro" else p)


def dist(input: Any, other: Any, p: float = 2) -> Tensor:
    """The ``p``-norm of ``input - other`` (the difference is a node of its own).

    >>> sg.dist(sg.tensor([1.0, 1.0]), sg.tensor([4.0, 5.0]))
    tensor(5.)
    """
    return _vector_norm("DistBackward0", _as_tensor(input) - other, p, None, False)


def logsumexp(input: Any, dim: Any, keepdim: bool = False) -> Tensor:
    """``log(sum(exp(input)))`` along ``dim``, without overflow; its gradient is the softmax.

    >>> x = sg.tensor([[0.0, 0.0], [10.0, 10.0]], requires_grad=True)
    >>> x.logsumexp(1)
    tensor([ 0.6931, 10.6931], grad_fn=<LogsumexpBackward0>)
    >>> x.logsumexp(1).sum().backward()
    >>> x.grad
    tensor([[0.5000, 0.5000],
            [0.5000, 0.5000]])
    """
    return _reduced("LogsumexpBackward0", ops.logsumexp, input, dim, keepdim)


def _all_dims(dim: Any) -> Any:
    """``amax``/``amin``'s ``dim=()``: every dimension."""
    return None if dim is None or isinstance(dim, (tuple, list)) and not dim else dim


def amax(input: Any, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The largest element along ``dim`` (every dimension by default); ties share the
    gradient equally.

    >>> sg.tensor([[1.0, 5.0], [4.0, 2.0]]).amax(1)
    tensor([5., 4.])
    """
    return _reduced("AmaxBackward0", np.max, input, _all_dims(dim), keepdim)


def amin(input: Any, dim: Any = (), keepdim: bool = False) -> Tensor:
    """The smallest element along ``dim`` (every dimension by default); ties share the
    gradient equally.

    >>> sg.tensor([[1.0, 5.0], [4.0, 2.0]]).amin()
    tensor(1.)
    """
    return _reduced("AminBackward0", np.min, input, _all_dims(dim), keepdim)


def _picking(positions: np.ndarray, dim: int, keepdim: bool = True) -> tuple:
    """The index that picks, in each slice along ``dim``, the element at ``positions``
    (integers, with ``dim`` of size 1 unless it was gathered), each other dimension indexed
    by the position it sits at in ``positions``: ``x[_picking(i, d)]`` is
    ``torch.gather(x, d, i)``. Without ``keepdim``, ``dim`` (of size 1) is dropped."""
    grids = list(np.ix_(*(np.arange(n) for n in positions.shape)))
    dim %= max(positions.ndim, 1)
    grids[dim] = positions
    if not keepdim:
        grids = [np.squeeze(g, dim) for g in grids]
    return tuple(grids)


def median(input: Any, dim: int | None = None, keepdim: bool = False) -> Any:
    """The median of all elements, or ``(values, indices)`` along ``dim``: of an even
    number of elements, the lower of the two middle ones (PyTorch's, not NumPy's mean of
    the two); the gradient goes to that element.

    >>> x = sg.tensor([[1.0, 4.0, 2.0, 3.0], [5.0, 0.0, 7.0, 6.0]], requires_grad=True)
    >>> x.median()
    tensor(3., grad_fn=<MedianBackward0>)
    >>> x.median(dim=1)
    ReductionResult(values=tensor([2., 5.], grad_fn=<MedianBackward1>), indices=tensor([2, 0]))
    """
    data = _data(input)
    _checked(input, dim)
    if dim is None:
        flat = data.reshape(-1)
        position = np.argsort(flat, kind="stable")[(flat.size - 1) // 2]
        return dispatch.call_named("MedianBackward0", np.take, (input, position), {})
    middle = (data.shape[dim] - 1) // 2 if data.ndim else 0
    if data.ndim == 0:
        return ReductionResult(_as_tensor(input) * 1, Tensor(np.asarray(0)))
    positions = np.take(np.argsort(data, axis=dim, kind="stable"), [middle], axis=dim)
    values = dispatch.call_named("MedianBackward1", operator.getitem,
                                 (input, _picking(positions, dim, keepdim)), {})
    return ReductionResult(values, Tensor(positions if keepdim else np.squeeze(positions, dim)))


def count_nonzero(input: Any, dim: Any = None) -> Tensor:
    """How many elements (along ``dim``) are not zero: an int64 tensor, never tracked.

    >>> sg.tensor([[0.0, 1.0], [2.0, 3.0]]).count_nonzero(0)
    tensor([1, 2])
    """
    return Tensor(np.asarray(np.count_nonzero(_data(input), axis=_dim_args(dim)),
                             dtype=np.int64))


# ------------------------------------------------------------------- along one dimension


def cumsum(input: Any, dim: int, *, dtype: Any = None) -> Tensor:
    """The running sums along ``dim``.

    >>> x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    >>> x.cumsum(0)
    tensor([1., 3., 6.], grad_fn=<CumsumBackward0>)
    >>> x.cumsum(0).sum().backward()
    >>> x.grad
    tensor([3., 2., 1.])
    """
    return _scan(np.cumsum, input, dim, dtype)


def cumprod(input: Any, dim: int, *, dtype: Any = None) -> Tensor:
    """The running products along ``dim`` (exact derivative where some elements are 0).

    >>> sg.tensor([1.0, 2.0, 3.0]).cumprod(0)
    tensor([1., 2., 6.])
    """
    return _scan(np.cumprod, input, dim, dtype)


def _scan(fn: Callable, input: Any, dim: int, dtype: Any) -> Tensor:
    options = {} if dtype is None else {"dtype": dtype}
    return dispatch.call(fn, input, axis=_checked(input, dim), **options)


def softmax(input: Any, dim: int, dtype: Any = None) -> Tensor:
    """``exp(input)`` normalised to sum to 1 along ``dim``.

    >>> sg.tensor([[1.0, 1.0], [0.0, 2.0]]).softmax(1)
    tensor([[0.5000, 0.5000],
            [0.1192, 0.8808]])
    """
    if dtype is not None:
        input = _as_tensor(input).to(dtype)
    return dispatch.call(ops.softmax, input, axis=_checked(input, dim))


def log_softmax(input: Any, dim: int, dtype: Any = None) -> Tensor:
    """``log(softmax(input, dim))``, computed stably.

    >>> sg.tensor([1.0, 1.0]).log_softmax(0)
    tensor([-0.6931, -0.6931])
    """
    if dtype is not None:
        input = _as_tensor(input).to(dtype)
    return dispatch.call(ops.log_softmax, input, axis=_checked(input, dim))


def _order(data: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """The stable sorting permutation along ``dim``; descending, equal elements keep their
    order too (the ascending order of the reversed data, reversed)."""
    if not descending:
        return np.argsort(data, axis=dim, kind="stable")
    last = data.shape[dim] - 1 if data.ndim else 0
    return last - np.flip(np.argsort(np.flip(data, dim), axis=dim, kind="stable"), dim)


def sort(input: Any, dim: int = -1, descending: bool = False, stable: bool = False) -> Any:
    """``(values, indices)``: the elements sorted along ``dim`` (stably), and where each
    came from; the gradient of the values goes back to those places.

    >>> x = sg.tensor([[3.0, 1.0, 2.0]], requires_grad=True)
    >>> values, indices = x.sort(descending=True)
    >>> values, indices
    (tensor([[3., 2., 1.]], grad_fn=<SortBackward0>), tensor([[0, 2, 1]]))
    """
    order = _order(_data(input), _checked(input, dim), descending)
    values = dispatch.call_named("SortBackward0", operator.getitem,
                                 (input, _picking(order, dim)), {})
    return ReductionResult(values, Tensor(order))


def argsort(input: Any, dim: int = -1, descending: bool = False, stable: bool = False
            ) -> Tensor:
    """The indices that sort ``input`` along ``dim`` (stably).

    >>> sg.tensor([3.0, 1.0, 2.0]).argsort()
    tensor([1, 2, 0])
    """
    return Tensor(_order(_data(input), _checked(input, dim), descending))


def topk(input: Any, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
    """``(values, indices)`` of the ``k`` largest (or smallest) elements along ``dim``, in
    order.

    >>> x = sg.tensor([1.0, 5.0, 3.0, 4.0], requires_grad=True)
    >>> x.topk(2)
    ReductionResult(values=tensor([5., 4.], grad_fn=<TopkBackward0>), indices=tensor([1, 3]))
    """
    data = _data(input)
    if not 0 <= k <= (data.shape[_checked(input, dim)] if data.ndim else 1):
        raise RuntimeError("selected index k out of range")
    order = np.take(_order(data, dim, largest), np.arange(k), axis=dim)
    values = dispatch.call_named("TopkBackward0", operator.getitem,
                                 (input, _picking(order, dim)), {})
    return ReductionResult(values, Tensor(order))


def gather(input: Any, dim: int, index: Any) -> Tensor:
    """The elements at ``index`` along ``dim`` (``out[i][j] = input[i][index[i][j]]`` for
    ``dim=1``); repeated indices add their gradients up.

    >>> x = sg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    >>> x.gather(1, sg.tensor([[0, 0], [1, 0]]))
    tensor([[1., 1.],
            [4., 3.]], grad_fn=<GatherBackward0>)
    """
    index = _data(index)
    if index.ndim != _data(input).ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as input "
                           "tensor")
    return dispatch.call_named("GatherBackward0", operator.getitem,
                               (input, _picking(index, _checked(input, dim))), {})


def index_select(input: Any, dim: int, index: Any) -> Tensor:
    """The slices at ``index`` (1-D) along ``dim``.

    >>> sg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).index_select(1, sg.tensor([2, 0]))
    tensor([[3., 1.],
            [6., 4.]])
    """
    index = _data(index)
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    return dispatch.call_named("IndexSelectBackward0", np.take, (input, index),
                               {"axis": _checked(input, dim)})


def take(input: Any, index: Any) -> Tensor:
    """The elements of the flattened ``input`` at ``index`` (in ``index``'s shape).

    >>> sg.take(sg.tensor([[1.0, 2.0], [3.0, 4.0]]), sg.tensor([0, 3]))
    tensor([1., 4.])
    """
    return dispatch.call(np.take, input, _data(index))


def select(input: Any, dim: int, index: int) -> Tensor:
    """The slice at ``index`` along ``dim``, that dimension removed (a view).

    >>> sg.tensor([[1.0, 2.0], [3.0, 4.0]]).select(1, 0)
    tensor([1., 3.])
    """
    input = _as_tensor(input)
    return input[(slice(None),) * (_checked(input, dim) % input.data.ndim) + (index,)]


def masked_fill(input: Any, mask: Any, value: Any) -> Tensor:
    """``value`` where ``mask`` (broadcast) is true, ``input`` elsewhere; no gradient flows
    to the filled places.

    >>> x = sg.tensor([1.0, -2.0, 3.0])
    >>> x.masked_fill(x < 0, 0.0)
    tensor([1., 0., 3.])
    """
    if isinstance(value, Tensor):
        return dispatch.call_named("MaskedFillBackward1", np.where, (mask, value, input), {})
    value = np.asarray(value, dtype=_data(input).dtype)  # (an int tensor stays int)
    return dispatch.call_named("MaskedFillBackward0", np.where, (mask, value, input), {})


def masked_fill_(input: Tensor, mask: Any, value: Any) -> Tensor:
    """``masked_fill`` in place (recorded as the assignment ``input[mask] = value``).

    >>> x = sg.tensor([1.0, -2.0, 3.0])
    >>> x.masked_fill_(x < 0, 0.0)
    tensor([1., 0., 3.])
    """
    input[np.broadcast_to(_data(mask), input.data.shape)] = value
    return input


def where(condition: Any, input: Any = None, other: Any = None) -> Any:
    """``input`` where ``condition`` is true, ``other`` elsewhere (broadcast together); with
    ``condition`` alone, the indices where it is true (as ``nonzero(as_tuple=True)``).

    >>> x = sg.tensor([1.0, -2.0, 3.0], requires_grad=True)
    >>> sg.where(x > 0, x, 0.0)
    tensor([1., 0., 3.], grad_fn=<WhereBackward0>)
    >>> sg.where(x > 0)
    (tensor([0, 2]),)
    """
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    return dispatch.call(np.where, condition, input, other)


def nonzero(input: Any, *, as_tuple: bool = False) -> Any:
    """The indices of the non-zero elements: one row per element (``argwhere``), or one
    tensor per dimension.

    >>> sg.tensor([[0.0, 1.0], [2.0, 0.0]]).nonzero()
    tensor([[0, 1],
            [1, 0]])
    """
    data = _data(input)
    if as_tuple:
        return tuple(Tensor(i) for i in np.nonzero(np.atleast_1d(data)))
    return Tensor(np.argwhere(data))


def argwhere(input: Any) -> Tensor:
    """The indices of the non-zero elements, one row per element.

    >>> sg.argwhere(sg.tensor([0.0, 3.0, 4.0]))
    tensor([[1],
            [2]])
    """
    return Tensor(np.argwhere(_data(input)))


def _flipped(a: np.ndarray, axis: Any) -> np.ndarray:
    """``np.flip`` as a copy: PyTorch's ``flip`` is no view."""
    return np.flip(a, axis).copy()


_FLIP = _Op(np.flip, "FlipBackward0", runs=_flipped)


def flip(input: Any, dims: Any) -> Tensor:
    """The elements in reverse order along ``dims`` (a copy, as in PyTorch).

    >>> sg.tensor([[1.0, 2.0], [3.0, 4.0]]).flip(1)
    tensor([[2., 1.],
            [4., 3.]])
    """
    dims = _checked(input, tuple(dims) if isinstance(dims, (list, tuple)) else (dims,))
    return _FLIP.binary(input, dims)


def diff(input: Any, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None
         ) -> Tensor:
    """The ``n``-th differences along ``dim`` (``prepend``/``append`` joined first).

    >>> sg.tensor([1.0, 4.0, 9.0]).diff()
    tensor([3., 5.])
    """
    options = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    return dispatch.call_named("SubBackward0", np.diff, (input, n), {"axis": dim, **options})


def repeat_interleave(input: Any, repeats: Any, dim: int | None = None) -> Tensor:
    """Each element (along ``dim``; of the flattened tensor without one) repeated
    ``repeats`` times.

    >>> sg.tensor([1.0, 2.0]).repeat_interleave(2)
    tensor([1., 1., 2., 2.])
    """
    return dispatch.call(np.repeat, input, _data(repeats), axis=dim)


# ----------------------------------------------------------------------------- matrices


def _refuse_ndim(value: Any, ndims: Sequence[int], message: str) -> None:
    if _data(value).ndim not in ndims:
        raise RuntimeError(message)


def dot(input: Any, other: Any) -> Tensor:
    """The inner product of two vectors.

    >>> sg.tensor([1.0, 2.0]).dot(sg.tensor([3.0, 4.0]))
    tensor(11.)
    """
    a, b = _data(input), _data(other)
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    return dispatch.call(np.dot, input, other)


def mm(input: Any, mat2: Any) -> Tensor:
    """The product of two matrices.

    >>> sg.tensor([[1.0, 2.0]]).mm(sg.tensor([[3.0], [4.0]]))
    tensor([[11.]])
    """
    _refuse_ndim(input, (2,), "self must be a matrix")
    _refuse_ndim(mat2, (2,), "mat2 must be a matrix")
    return dispatch.call_named("MmBackward0", np.matmul, (input, mat2), {})


def bmm(input: Any, mat2: Any) -> Tensor:
    """The products of two batches of matrices, one pair at a time.

    >>> sg.bmm(sg.ones(5, 2, 3), sg.ones(5, 3, 4)).shape
    sg.Size([5, 2, 4])
    """
    _refuse_ndim(input, (3,), "batch1 must be a 3D tensor")
    _refuse_ndim(mat2, (3,), "batch2 must be a 3D tensor")
    return dispatch.call_named("BmmBackward0", np.matmul, (input, mat2), {})


def mv(input: Any, vec: Any) -> Tensor:
    """The product of a matrix and a vector.

    >>> sg.tensor([[1.0, 2.0], [3.0, 4.0]]).mv(sg.tensor([1.0, 1.0]))
    tensor([3., 7.])
    """
    a, v = _data(input), _data(vec)
    if a.ndim != 2 or v.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}")
    return dispatch.call_named("MvBackward0", np.matmul, (input, vec), {})


def outer(input: Any, vec2: Any) -> Tensor:
    """The outer product of two vectors (``ger`` is the same).

    >>> sg.tensor([1.0, 2.0]).outer(sg.tensor([1.0, 10.0]))
    tensor([[ 1., 10.],
            [ 2., 20.]])
    """
    return dispatch.call_named("MulBackward0", np.outer, (input, vec2), {})


def addmm(input: Any, mat1: Any, mat2: Any, *, beta: float = 1, alpha: float = 1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)``: the affine layer's node (``nn.ops.linear``
    of ``mat2``'s transpose; ``beta`` and ``alpha`` other than 1 scale the operands first).

    >>> sg.addmm(sg.tensor([1.0, 1.0]), sg.eye(2), sg.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([[2., 3.],
            [4., 5.]])
    """
    _refuse_ndim(mat1, (2,), "self must be a matrix")
    _refuse_ndim(mat2, (2,), "mat2 must be a matrix")
    bias = input if beta == 1 else beta * input
    return dispatch.call_named("AddmmBackward0", ops.linear, (
        mat1 if alpha == 1 else alpha * mat1, _as_tensor(mat2).t(), bias), {})


def trace(input: Any) -> Tensor:
    """The sum of the diagonal of a matrix.

    >>> sg.tensor([[1.0, 2.0], [3.0, 4.0]]).trace()
    tensor(5.)
    """
    ndim = _data(input).ndim
    if ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {ndim}")
    return dispatch.call(np.trace, input)


def diag(input: Any, diagonal: int = 0) -> Tensor:
    """A vector's square matrix with it on the ``diagonal``-th diagonal, or a matrix's
    ``diagonal``-th diagonal.

    >>> sg.tensor([1.0, 2.0]).diag()
    tensor([[1., 0.],
            [0., 2.]])
    >>> sg.tensor([[1.0, 2.0], [3.0, 4.0]]).diag(1)
    tensor([2.])
    """
    ndim = _data(input).ndim
    if ndim not in (1, 2):
        raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " f"{ndim}D")
    name = "DiagEmbedBackward0" if ndim == 1 else "DiagonalBackward0_copy"
    return dispatch.call_named(name, np.diag, (input, diagonal), {})


def diagonal(input: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal ``offset`` of each matrix over ``dim1`` and ``dim2`` (a view that
    cannot be written into).

    >>> sg.tensor([[1.0, 2.0], [3.0, 4.0]]).diagonal()
    tensor([1., 4.])
    """
    return dispatch.call(np.diagonal, input, offset, dim1, dim2)


def tril(input: Any, diagonal: int = 0) -> Tensor:
    """The lower triangle (to the ``diagonal``-th diagonal) of each matrix; zeros above.

    >>> sg.tensor([[1.0, 2.0], [3.0, 4.0]]).tril()
    tensor([[1., 0.],
            [3., 4.]])
    """
    return dispatch.call(np.tril, input, diagonal)


def triu(input: Any, diagonal: int = 0) -> Tensor:
    """The upper triangle (from the ``diagonal``-th diagonal) of each matrix; zeros below.

    >>> sg.tensor([[1.0, 2.0], [3.0, 4.0]]).triu(1)
    tensor([[0., 2.],
            [0., 0.]])
    """
    return dispatch.call(np.triu, input, diagonal)


def inverse(input: Any) -> Tensor:
    """The inverse of a square matrix (of each, in a batch).

    >>> sg.tensor([[2.0, 0.0], [0.0, 4.0]]).inverse()
    tensor([[0.5000, 0.0000],
            [0.0000, 0.2500]])
    """
    return dispatch.call_named("LinalgInvExBackward0", np.linalg.inv, (input,), {})


def det(input: Any) -> Tensor:
    """The determinant of a square matrix (of each, in a batch).

    >>> sg.tensor([[2.0, 1.0], [1.0, 3.0]]).det()
    tensor(5.)
    """
    return dispatch.call(np.linalg.det, input)


def logdet(input: Any) -> Tensor:
    """The logarithm of the determinant (NaN where it is negative), from
    ``np.linalg.slogdet``, so that large matrices do not overflow.

    >>> sg.tensor([[2.0, 1.0], [1.0, 3.0]]).logdet()
    tensor(1.6094)
    """
    sign, log_magnitude = dispatch.call(np.linalg.slogdet, input)
    return where(sign < 0, float("nan"), log_magnitude)


def kron(input: Any, other: Any) -> Tensor:
    """The Kronecker product.

    >>> sg.kron(sg.tensor([1.0, 2.0]), sg.tensor([1.0, 10.0]))
    tensor([ 1., 10.,  2., 20.])
    """
    return dispatch.call(np.kron, input, other)


def cross(input: Any, other: Any, dim: int | None = None) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (by default the first dimension of
    size 3).

    >>> sg.cross(sg.tensor([1.0, 0.0, 0.0]), sg.tensor([0.0, 1.0, 0.0]))
    tensor([0., 0., 1.])
    """
    if dim is None:
        dim = list(np.broadcast_shapes(_data(input).shape, _data(other).shape)).index(3)
    return dispatch.call(np.cross, input, other, axis=dim)


def einsum(equation: str, *operands: Any) -> Tensor:
    """NumPy's (and PyTorch's) Einstein summation; the operands may also come as one list.

    >>> a = sg.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> sg.einsum("ij,j->i", a, sg.tensor([1.0, 1.0]))
    tensor([3., 7.])
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return dispatch.call(np.einsum, equation, *operands)


# --------------------------------------------------------------------------- comparisons


def allclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """Whether every element of ``input`` is close to ``other``'s (a Python bool).

    >>> sg.allclose(sg.tensor([1.0, 2.0]), sg.tensor([1.0, 2.0 + 1e-9]))
    True
    """
    return bool(np.allclose(_data(input), _data(other), rtol, atol, equal_nan))


def isclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """Whether each element of ``input`` is close to ``other``'s: a bool tensor.

    >>> sg.isclose(sg.tensor([1.0, 2.0]), sg.tensor([1.0, 2.5]))
    tensor([ True, False])
    """
    return Tensor(np.asarray(np.isclose(_data(input), _data(other), rtol, atol, equal_nan)))


def equal(input: Any, other: Any) -> bool:
    """Whether both have the same shape and elements (a Python bool).

    >>> sg.equal(sg.tensor([1.0, 2.0]), sg.tensor([1.0, 2.0]))
    True
    """
    return bool(np.array_equal(_data(input), _data(other)))


def isnan(input: Any) -> Tensor:
    """Whether each element is NaN: a bool tensor.

    >>> sg.isnan(sg.tensor([1.0, float("nan")]))
    tensor([False,  True])
    """
    return Tensor(np.asarray(np.isnan(_data(input))))


def isinf(input: Any) -> Tensor:
    """Whether each element is infinite: a bool tensor.

    >>> sg.isinf(sg.tensor([1.0, float("-inf")]))
    tensor([False,  True])
    """
    return Tensor(np.asarray(np.isinf(_data(input))))


def isfinite(input: Any) -> Tensor:
    """Whether each element is neither infinite nor NaN: a bool tensor.

    >>> sg.isfinite(sg.tensor([1.0, float("inf")]))
    tensor([ True, False])
    """
    return Tensor(np.asarray(np.isfinite(_data(input))))


# ------------------------------------------------------------ methods without a function


def _type_name(dtype: np.dtype) -> str:
    from .in_place import _TORCH_TYPE_NAMES

    return f"sg.{_TORCH_TYPE_NAMES.get(dtype.name, dtype.name)}Tensor"


def type(self: Tensor, dtype: Any = None) -> Any:  # noqa: A001  (PyTorch's name)
    """Without ``dtype``, the name of the tensor's type (PyTorch's); with one, a copy in
    that dtype (this tensor itself if it has it already).

    >>> sg.tensor([1.0]).type(), sg.tensor([1]).type(sg.float64).dtype
    ('sg.FloatTensor', dtype('float64'))
    """
    return _type_name(self.data.dtype) if dtype is None else self.to(dtype)


_CONTIGUOUS_COPY = _Op(np.copy, "CloneBackward0", runs=np.ascontiguousarray)


def contiguous(self: Tensor, memory_format: Any = None) -> Tensor:
    """This tensor if its elements are in row-major order already, otherwise a copy that
    has them so (recorded: ``CloneBackward0``).

    >>> x = sg.zeros(2, 3)
    >>> x.contiguous() is x, x.T.contiguous().is_contiguous()
    (True, True)
    """
    return self if self.data.flags.c_contiguous else _CONTIGUOUS_COPY.unary(self)


def is_contiguous(self: Tensor, memory_format: Any = None) -> bool:
    """Whether the elements are in row-major order in memory.

    >>> sg.zeros(2, 3).is_contiguous(), sg.zeros(2, 3).T.is_contiguous()
    (True, False)
    """
    return bool(self.data.flags.c_contiguous)


def cpu(self: Tensor) -> Tensor:
    """This tensor itself: sourcegrad's tensors live in memory, as PyTorch's CPU ones.

    >>> x = sg.ones(2)
    >>> x.cpu() is x
    True
    """
    return self


def _matrix_transpose(self: Tensor) -> Tensor:
    """The last two dimensions swapped (a view): a batch of matrices transposed.

    >>> sg.zeros(5, 2, 3).mT.shape
    sg.Size([5, 3, 2])
    """
    if self.data.ndim < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. "
                           f"Got {self.data.ndim}-D tensor.")
    return TRANSPOSE.positional(self, -2, -1)


mT = property(_matrix_transpose)  # noqa: N816  (PyTorch's name)


def _new(self: Tensor, data: np.ndarray, requires_grad: bool) -> Tensor:
    return Tensor(data, requires_grad=requires_grad)


def new_zeros(self: Tensor, *size: Any, dtype: Any = None, requires_grad: bool = False
              ) -> Tensor:
    """Zeros of ``size``, in this tensor's dtype unless told otherwise.

    >>> sg.tensor([1, 2]).new_zeros(2, 2)
    tensor([[0, 0],
            [0, 0]])
    """
    return _new(self, np.zeros(_shape_args(size), dtype or self.data.dtype), requires_grad)


def new_ones(self: Tensor, *size: Any, dtype: Any = None, requires_grad: bool = False
             ) -> Tensor:
    """Ones of ``size``, in this tensor's dtype unless told otherwise.

    >>> sg.tensor([1.0], dtype=sg.float64).new_ones((2,))
    tensor([1., 1.], dtype=sg.float64)
    """
    return _new(self, np.ones(_shape_args(size), dtype or self.data.dtype), requires_grad)


def new_empty(self: Tensor, *size: Any, dtype: Any = None, requires_grad: bool = False
              ) -> Tensor:
    """A tensor of ``size`` whose values are not set, in this tensor's dtype.

    >>> sg.ones(1).new_empty(2, 3).shape
    sg.Size([2, 3])
    """
    return _new(self, np.empty(_shape_args(size), dtype or self.data.dtype), requires_grad)


def new_full(self: Tensor, size: Any, fill_value: Any, *, dtype: Any = None,
             requires_grad: bool = False) -> Tensor:
    """``fill_value`` everywhere in ``size``, in this tensor's dtype unless told otherwise.

    >>> sg.ones(1).new_full((2,), 7.0)
    tensor([7., 7.])
    """
    return _new(self, np.full(tuple(size), fill_value, dtype or self.data.dtype),
                requires_grad)


def new_tensor(self: Tensor, data: Any, dtype: Any = None, requires_grad: bool = False
               ) -> Tensor:
    """A copy of ``data``, in this tensor's dtype unless told otherwise.

    >>> sg.tensor([1.0], dtype=sg.float64).new_tensor([1, 2])
    tensor([1., 2.], dtype=sg.float64)
    """
    return _new(self, np.array(_data(data), dtype=dtype or self.data.dtype), requires_grad)


# ------------------------------------------------------------------------------ installing

# Both a tensor method and an sg function.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    **_ELEMENTWISE,
    **{fn.__name__: fn for fn in (
        eq, ne, lt, le, gt, ge, clamp_min, clamp_max, lerp, prod, std, var, norm, dist,
        logsumexp, amax, amin, median, count_nonzero, cumsum, cumprod, softmax, log_softmax,
        sort, argsort, topk, gather, index_select, take, select, masked_fill, where, nonzero,
        argwhere, flip, diff, repeat_interleave, dot, mm, bmm, mv, outer, addmm, trace, diag,
        diagonal, tril, triu, inverse, det, logdet, kron, cross, allclose, isclose, equal, isnan,
        isinf, isfinite)},
}
# Tensor methods only.
METHODS: dict[str, Any] = {fn.__name__: fn for fn in (
    masked_fill_, type, contiguous, is_contiguous, cpu, new_zeros, new_ones, new_empty,
    new_full, new_tensor)}
METHODS["mT"] = mT

for _name, _value in (*FUNCTIONS.items(), *METHODS.items()):
    setattr(Tensor, _name, _value)
Tensor.negative = Tensor.neg
Tensor.ger = Tensor.outer
Tensor.ndimension = Tensor.dim
Tensor.nelement = Tensor.numel
