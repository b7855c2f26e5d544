"""The helpers of ``rules/support.py`` in forms Numba compiles.

Specialisation removes most helper calls (``helpers.py``); the ones left (a shape the
specialiser could not work out, a callee called with several shapes, a module ``sourcegrad
emit --jit`` writes for any shape) run these. Each is a Numba ``overload`` of the helper:
called at compile time with the Numba types of the arguments, it returns the implementation
for those types (or ``None``: Numba then reports that the helper has no form for them, and
``sg.jit`` falls back). The types settle what the Python helper decides at run time (is
``x`` a number? are the shapes of the same length?), so each implementation is short.

Each form reads only ``np``, ``numba`` and ``types`` (Numba's), so that ``emit --jit`` can
copy it into a module of its own (``form_sources``).
"""

from __future__ import annotations

import inspect
from typing import Any

import numba
import numpy as np
from numba.core import types
from numba.extending import overload

from ..rules import support
from . import reductions

FORMS: dict[str, Any] = {}  # helper name -> its form


def _form(helper: Any) -> Any:
    def register(fn: Any) -> Any:
        FORMS[helper.__name__] = fn
        return fn
    return register


def _is_number(t):
    return isinstance(t, types.Number | types.Boolean)


def _omitted(t):
    return t is None or isinstance(t, types.Omitted | types.NoneType)


@_form(support.unbroadcast)
def unbroadcast_form(g, x):
    """Sum ``g`` down to the shape of ``x``: element by element into ``x``'s shape, the
    axes where ``x`` has length 1 (or none) collapsing."""
    if isinstance(x, types.Number):
        if isinstance(g, types.Number):
            return lambda g, x: g
        if isinstance(g, types.Array):
            return lambda g, x: np.sum(g)
        return None
    if not (isinstance(g, types.Array) and isinstance(x, types.Array)) or g.ndim < x.ndim:
        return None
    extra = g.ndim - x.ndim
    if x.ndim == 0:
        return lambda g, x: np.asarray(np.sum(g))

    def impl(g, x):
        gs, xs = g.shape, x.shape
        if extra == 0 and gs == xs:
            return np.asarray(g)
        total = np.zeros(x.size, dtype=g.dtype)
        flat = g.ravel()
        for k in range(flat.size):
            rest, target, stride = k, 0, 1
            for i in range(g.ndim - 1, -1, -1):
                position = rest % gs[i]
                rest //= gs[i]
                j = i - extra
                if j >= 0:
                    if xs[j] != 1:
                        target += position * stride
                    stride *= xs[j]
            total[target] += flat[k]
        return total.reshape(xs)
    return impl


@_form(support.unreduce)
def unreduce_form(g, x, axis=None, keepdims=False):
    """Spread ``g`` over the shape of ``x``: a reduction's cotangent."""
    if _omitted(axis):
        if isinstance(x, types.Number):
            return lambda g, x, axis=None, keepdims=False: g
        if isinstance(x, types.Array) and _is_number(g):
            return lambda g, x, axis=None, keepdims=False: np.full(x.shape, g)
        if isinstance(x, types.Array) and isinstance(g, types.Array):
            return lambda g, x, axis=None, keepdims=False: np.full(x.shape, np.sum(g))
        return None
    position = getattr(axis, "literal_value", None)
    if not (isinstance(x, types.Array) and isinstance(g, types.Array)
            and isinstance(position, int) and x.ndim > 0):
        return None
    keep = keepdims if isinstance(keepdims, bool) else getattr(
        keepdims, "literal_value", getattr(keepdims, "value", None))  # a default, a literal
    if not isinstance(keep, bool):
        return None
    if keep:
        return lambda g, x, axis=None, keepdims=False: np.broadcast_to(g, x.shape).copy()
    position %= x.ndim

    def impl(g, x, axis=None, keepdims=False):
        return np.broadcast_to(np.expand_dims(g, position), x.shape).copy()
    return impl


@_form(support.shape_only)
def shape_only_form(x):
    """The value itself: compiled code keeps no shape-only placeholders."""
    return lambda x: x


@_form(support.shape_of_elementwise)
def shape_of_elementwise_form(*operands):
    """Only the shape and dtype of the result are read: the arithmetic itself gives them."""
    if len(operands) == 1:
        return lambda *operands: operands[0]
    if len(operands) == 2:
        return lambda *operands: operands[0] + operands[1]
    return None


@_form(support.scalar_seed)
def scalar_seed_form(value):
    """The cotangent 1 of a scalar output."""
    if isinstance(value, types.Float | types.Integer):
        return lambda value: 1.0
    if isinstance(value, types.Array):
        return lambda value: np.ones_like(value)
    return None


@_form(support.as_gradient)
def as_gradient_form(g, x):
    """The gradient as returned to the caller: a float for a number, else a new array of
    ``x``'s shape and (float) dtype."""
    if isinstance(x, types.Number):
        if isinstance(g, types.Number):
            return lambda g, x: float(g)
        if isinstance(g, types.Array):
            return lambda g, x: float(np.sum(g))
        return None
    if not isinstance(x, types.Array):
        return None
    dtype = x.dtype if isinstance(x.dtype, types.Float | types.Complex) else types.float64
    if _is_number(g):
        return lambda g, x: np.full(x.shape, g, dtype)
    if isinstance(g, types.Array) and g.ndim == x.ndim:
        return lambda g, x: g.astype(dtype)
    if isinstance(g, types.Array) and g.ndim == 0:
        return lambda g, x: np.full(x.shape, g.item(), dtype)
    return None


@_form(support.zeros_like_grad)
def zeros_like_grad_form(x):
    """A zero gradient shaped like ``x``."""
    if isinstance(x, types.NoneType):
        return lambda x: None
    if _is_number(x):
        return lambda x: 0.0
    if isinstance(x, types.Array):
        dtype = x.dtype if isinstance(x.dtype, types.Float | types.Complex) else types.float64
        return lambda x: np.zeros(x.shape, dtype)
    return None


@_form(support.zero_slots)
def zero_slots_form(x):
    """An array's zeros (Numba takes no list, whose slots would start empty). Written out,
    not through ``zeros_like_grad_form``: ``emit --jit`` copies each form alone."""
    if isinstance(x, types.Array):
        dtype = x.dtype if isinstance(x.dtype, types.Float | types.Complex) else types.float64
        return lambda x: np.zeros(x.shape, dtype)
    return None


@_form(support.no_cotangent)
def no_cotangent_form(x):
    """The value itself."""
    return lambda x: x


@_form(support.row_sparse_zeros)
def row_sparse_zeros_form(x):
    """A dense zero: compiled code has no dense zero per call to avoid."""
    return zeros_like_grad_form(x)


@_form(support.private_copy)
def private_copy_form(g):
    """A copy the code may update in place."""
    if isinstance(g, types.Array):
        return lambda g: g.copy()
    if isinstance(g, types.List):
        return lambda g: g.copy()
    if _is_number(g):
        return lambda g: g
    return None


@_form(support.matmul_vjp_x1)
def matmul_vjp_x1_form(g, x1, x2):
    """Cotangent of ``x1`` in ``x1 @ x2`` for vectors and matrices."""
    if not (isinstance(x1, types.Array) and isinstance(x2, types.Array)):
        return None
    if x2.ndim == 2 and x1.ndim in (1, 2):
        return lambda g, x1, x2: g @ x2.T
    if x2.ndim == 1 and x1.ndim == 2:
        return lambda g, x1, x2: np.outer(g, x2)
    return None


@_form(support.matmul_vjp_x2)
def matmul_vjp_x2_form(g, x1, x2):
    """Cotangent of ``x2`` in ``x1 @ x2`` for vectors and matrices."""
    if not (isinstance(x1, types.Array) and isinstance(x2, types.Array)):
        return None
    if x1.ndim == 2 and x2.ndim in (1, 2):
        return lambda g, x1, x2: x1.T @ g
    if x1.ndim == 1 and x2.ndim == 2:
        return lambda g, x1, x2: np.outer(x1, g)
    return None


@_form(support.matmul_over_steps)
def matmul_over_steps_form(xs, w):
    """``xs @ w`` for stacked steps: their rows multiplied at once, shaped back (Numba
    multiplies vectors and matrices only)."""
    if not (isinstance(xs, types.Array) and isinstance(w, types.Array) and xs.ndim >= 2
            and w.ndim in (1, 2)):
        return None
    if xs.ndim == 2:
        return lambda xs, w: xs @ w

    def impl(xs, w):
        rows = np.ascontiguousarray(xs).reshape((-1, xs.shape[-1]))
        return np.ascontiguousarray(rows @ w).reshape(xs.shape[:-1] + w.shape[1:])
    return impl


@_form(support.enough_steps)
def enough_steps_form(gs, x1s):
    """Have the lists of a loop's collected arrays reached 4,096 elements (as
    ``support._STEPS_PRODUCT_ELEMENTS`` says)?"""
    if not (isinstance(gs, types.List) and isinstance(x1s, types.List)
            and isinstance(gs.dtype, types.Array) and isinstance(x1s.dtype, types.Array)):
        return None

    def impl(gs, x1s):
        if len(gs) == 0:
            return False
        return len(gs) * (gs[len(gs) - 1].size + x1s[len(x1s) - 1].size) >= 4096
    return impl


@_form(support.matmul_vjp_x2_over_steps)
def matmul_vjp_x2_over_steps_form(gs, x1s, x2):
    """The cotangent of a matrix ``x2`` summed over a loop's steps, from lists of the steps'
    float64 cotangents and left factors (vectors or matrices): their rows copied into one
    matrix each (element by element, which Numba compiles quickly), then one product."""
    if not (isinstance(gs, types.List) and isinstance(x1s, types.List)
            and isinstance(x2, types.Array) and x2.ndim == 2):
        return None
    g_item, x1_item = gs.dtype, x1s.dtype
    if not (isinstance(g_item, types.Array) and isinstance(x1_item, types.Array)
            and g_item.ndim == x1_item.ndim and g_item.ndim in (1, 2)
            and g_item.dtype == x1_item.dtype == types.float64):
        return None
    if g_item.ndim == 1:  # vectors: one row a step
        def vectors(gs, x1s, x2):
            inner, outer = x2.shape
            x1_rows = np.empty((len(gs), inner))
            g_rows = np.empty((len(gs), outer))
            for i in range(len(gs)):
                g, x1 = gs[i], x1s[i]
                if x1.shape[0] != inner or g.shape[0] != outer:
                    raise ValueError("a step's arrays do not line up with the matrix")
                for c in range(inner):
                    x1_rows[i, c] = x1[c]
                for c in range(outer):
                    g_rows[i, c] = g[c]
            return x1_rows.T @ g_rows
        return vectors

    def matrices(gs, x1s, x2):
        inner, outer = x2.shape
        rows = 0
        for i in range(len(gs)):
            g, x1 = gs[i], x1s[i]
            if x1.shape != (g.shape[0], inner) or g.shape[1] != outer:
                raise ValueError("a step's arrays do not line up with the matrix")
            rows += g.shape[0]
        x1_rows = np.empty((rows, inner))
        g_rows = np.empty((rows, outer))
        row = 0
        for i in range(len(gs)):
            g, x1 = gs[i], x1s[i]
            for r in range(g.shape[0]):
                for c in range(inner):
                    x1_rows[row + r, c] = x1[r, c]
                for c in range(outer):
                    g_rows[row + r, c] = g[r, c]
            row += g.shape[0]
        return x1_rows.T @ g_rows
    return matrices


@_form(support.reduced_count)
def reduced_count_form(x, ans):
    """How many elements of ``x`` went into each of ``ans``."""
    if isinstance(x, types.Array) and isinstance(ans, types.Array):
        return lambda x, ans: x.size // max(ans.size, 1)
    if isinstance(x, types.Array):
        return lambda x, ans: x.size
    return lambda x, ans: 1


@_form(support.element_count)
def element_count_form(x):
    """How many elements ``x`` has."""
    if isinstance(x, types.Array):
        return lambda x: x.size
    if _is_number(x):
        return lambda x: 1
    return None


@_form(support.add_into)
def add_into_form(a, b):
    """``a + b``, into ``a`` when it is an array of ``b``'s shape or larger."""
    if isinstance(a, types.Array) and a.mutable and isinstance(b, types.Number | types.Array):
        def impl(a, b):
            a += b
            return a
        return impl
    if _is_number(a) and _is_number(b):
        return lambda a, b: a + b
    return None


@_form(support.add_grads)
def add_grads_form(a, b):
    """``a + b`` for gradients that are numbers or arrays."""
    if isinstance(a, types.Number | types.Array) and isinstance(b, types.Number | types.Array):
        return lambda a, b: a + b
    return None


@_form(support.broadcast_like)
def broadcast_like_form(t, ans):
    """A tangent spread to the output's shape."""
    if isinstance(ans, types.Number):
        return lambda t, ans: t
    if isinstance(ans, types.Array):
        return lambda t, ans: np.broadcast_to(t, ans.shape)
    return None


@_form(reductions.reduce_along)
def reduce_along_form(x, axis, keepdims, how):
    """A reduction over one axis: each line of the array along the axis reduced by the
    one-dimensional reduction Numba has."""
    position = getattr(axis, "literal_value", None)
    keep = getattr(keepdims, "literal_value", None)
    name = getattr(how, "literal_value", None)
    if not (isinstance(x, types.Array) and isinstance(position, int) and x.ndim > 0
            and isinstance(keep, bool) and name in ("sum", "mean", "max", "min", "prod",
                                                   "any", "all")):
        return None
    reducer = getattr(np, name)
    dtype = np.asarray(reducer(np.ones(1, numba.np.numpy_support.as_dtype(x.dtype)))).dtype
    at = position % x.ndim
    # the result's shape is sliced from the argument's with constant bounds, which Numba
    # needs: the implementation is written for this axis
    kept = f"shape[:{at}] + (1,) + shape[{at + 1}:]" if keep else (
        f"shape[:{at}] + shape[{at + 1}:]")
    text = (
        "def impl(x, axis, keepdims, how):\n"
        "    shape = x.shape\n"
        "    outer, inner = 1, 1\n"
        f"    for i in range({at}):\n"
        "        outer *= shape[i]\n"
        f"    for i in range({at + 1}, {x.ndim}):\n"
        "        inner *= shape[i]\n"
        f"    lines = np.ascontiguousarray(x).reshape((outer, shape[{at}], inner))\n"
        "    out = np.empty((outer, inner), dtype)\n"
        "    for i in range(outer):\n"
        "        for k in range(inner):\n"
        "            out[i, k] = reducer(lines[i, :, k])\n"
        f"    return out.reshape({kept})\n")
    namespace = {"np": np, "reducer": reducer, "dtype": dtype.type}
    exec(text, namespace)
    return namespace["impl"]


_installed = False


def install() -> None:
    """Register every form with Numba (once)."""
    global _installed
    if _installed:
        return
    for name, form in FORMS.items():
        helper = reductions.reduce_along if name == "reduce_along" else getattr(support, name)
        overload(helper, prefer_literal=True)(form)
    _installed = True


def has_form(helper: Any) -> bool:
    return getattr(helper, "__name__", None) in FORMS and getattr(
        support, helper.__name__, None) is helper


def form_source(name: str) -> str:
    """The form's text, for a module of its own (``emit --jit``)."""
    return inspect.getsource(FORMS[name]).split("\n", 1)[1]  # without ``@_form(...)``
