"""How ndarray methods, attributes, operators and builtins map onto the rule table.

``x.sum(axis=1)`` is ``np.sum(x, axis=1)``, ``x.T`` is ``np.transpose(x)``, ``a @ b`` is
``np.matmul(a, b)``: the transformer and the runtime both look their spelling up here and
then use the one rule of the primitive.
"""

from __future__ import annotations

import ast
import math

import numpy as np

from .registry import nondifferentiable, rule
from .support import (
    astype,
    broadcast_like,
    concatenate_c,
    concatenate_r,
    joined,
    real_like,
    reduce_like,
    repeated,
    sorted_like,
    summed_repeats,
    unbroadcast,
    unsorted,
)


@rule(astype, np.ndarray.astype)
class astype_rule:
    """A cast passes the cotangent through, cast back to the input's float type (its real
    part for a real input cast to complex)."""

    nondiff = ("dtype",)

    def vjp_x(g, ans, x, dtype):
        return np.asarray(real_like(g, x), dtype=np.result_type(x, np.float32))

    def jvp_x(t, ans, x, dtype):
        return astype(t, dtype)


@rule(joined)
class joined_rule:
    """``a + b`` of two lists or tuples (``resolve`` tells it from arithmetic): each
    operand's cotangent is its part of the result's; linear in both."""

    sequence_output = True
    sequence_params = ("a", "b")
    linear = True

    def vjp_a(g, ans, a, b):
        return g[:len(a)]

    def vjp_b(g, ans, a, b):
        return g[len(a):]


@rule(repeated)
class repeated_rule:
    """``items * n`` of a list or tuple: each element's cotangent sums its copies'."""

    sequence_output = True
    sequence_params = ("items",)
    linear = True
    nondiff = ("n",)

    def vjp_items(g, ans, items, n):
        return summed_repeats(g, items)


@rule(summed_repeats)
class summed_repeats_rule:
    """``repeated``'s adjoint, itself linear: its adjoint repeats again."""

    sequence_output = True
    sequence_params = ("parts",)
    linear = True
    nondiff = ("items",)

    def vjp_parts(g, ans, parts, items):
        return list(g) * (len(parts) // len(items))


@rule(sorted)
class sorted_rule:
    """Python's ``sorted``: a permutation of the elements (or of an array's rows), each
    derivative routed with its element; ``sorted(d)`` of a dict gives keys, without one.
    At ties, the element ``sorted`` put first takes the first place's."""

    sequence_output = True
    sequence_params = ("iterable",)
    nondiff = ("key", "reverse")

    def vjp_iterable(g, ans, iterable, key=None, reverse=False):
        return unsorted(g, iterable, key, reverse)

    def jvp_iterable(t, ans, iterable, key=None, reverse=False):
        return sorted_like(t, iterable, key, reverse)


@rule(unsorted)
class unsorted_rule:
    """``sorted``'s adjoint, linear in ``g``: its adjoint sorts again."""

    sequence_output = True
    sequence_params = ("parts",)
    linear = True
    nondiff = ("iterable", "key", "reverse")

    def vjp_parts(g, ans, parts, iterable, key=None, reverse=False):
        return sorted_like(g, iterable, key, reverse)


@rule(sorted_like)
class sorted_like_rule:
    sequence_output = True
    sequence_params = ("parts",)
    linear = True
    nondiff = ("iterable", "key", "reverse")

    def vjp_parts(g, ans, parts, iterable, key=None, reverse=False):
        return unsorted(g, iterable, key, reverse)


@rule(float)
class float_rule:
    nondiff = ()

    def vjp_x(g, ans, x):
        return g

    def jvp_x(t, ans, x):
        return np.reshape(t, np.shape(ans))  # float(x[:1, :1]): a (1, 1) tangent, a scalar


@rule(np.float64, np.float32, np.float16, np.longdouble)
class float_cast:
    """``np.float64(x)`` and the other float types called on a number or an array: a cast,
    linear; the cotangent goes back in ``x``'s own float type (a Python float's is any
    float)."""

    linear = True

    def vjp_x(g, ans, x):
        return g if isinstance(x, (float, int)) else np.asarray(g, dtype=np.result_type(
            x, np.float32))


@rule(sum)
class sum_rule:
    """Python's ``sum(iterable, start=0)`` over a list of numbers or arrays, whose shapes may
    broadcast against each other (the list comprehension that replaces a generator)."""
    sequence_params = ("iterable",)

    def vjp_iterable(g, ans, iterable, start=0):
        return [unbroadcast(g, x) for x in iterable]

    def vjp_start(g, ans, iterable, start=0):
        return unbroadcast(g, start)

    def jvp_iterable(t, ans, iterable, start=0):
        return broadcast_like(sum(t), ans)

    def jvp_start(t, ans, iterable, start=0):
        return broadcast_like(t, ans)


# Method name -> (primitive, "varargs" if extra positional arguments form one tuple argument)
METHODS: dict[str, tuple[object, bool]] = {
    "sum": (np.sum, False),
    "mean": (np.mean, False),
    "prod": (np.prod, False),
    "max": (np.max, False),
    "min": (np.min, False),
    "var": (np.var, False),
    "std": (np.std, False),
    "cumsum": (np.cumsum, False),
    "cumprod": (np.cumprod, False),
    "dot": (np.dot, False),
    "ravel": (np.ravel, False),
    "flatten": (np.ravel, False),
    "squeeze": (np.squeeze, False),
    "clip": (np.clip, False),
    "transpose": (np.transpose, True),
    "reshape": (np.reshape, True),
    "swapaxes": (np.swapaxes, False),
    "repeat": (np.repeat, False),
    "take": (np.take, False),
    "diagonal": (np.diagonal, False),
    "trace": (np.trace, False),
    "copy": (np.copy, False),
    "astype": (astype, False),
    "item": (float, False),
    "tolist": (list, False),  # the elements as (nested) lists: the cotangents too
    "conj": (np.conjugate, False),
    "conjugate": (np.conjugate, False),
}
NONDIFF_METHODS = {
    "argmax", "argmin", "argsort", "nonzero", "round", "all", "any", "fill", "keys",
}

ATTRIBUTES: dict[str, object] = {"T": np.transpose, "real": np.real, "imag": np.imag}
NONDIFF_ATTRIBUTES = {"shape", "ndim", "size", "dtype", "itemsize", "nbytes"}

OPERATORS: dict[type, object] = {
    ast.Add: np.add,
    ast.Sub: np.subtract,
    ast.Mult: np.multiply,
    ast.Div: np.divide,
    ast.Pow: np.power,
    ast.MatMult: np.matmul,
    ast.Mod: np.remainder,
    ast.FloorDiv: np.floor_divide,
}
UNARY_OPERATORS: dict[type, object] = {ast.USub: np.negative, ast.UAdd: np.positive}

# Builtins with a derivative, as the NumPy primitive of the same meaning.
BUILTINS: dict[object, object] = {abs: np.abs, max: np.maximum, min: np.minimum}

# Objects whose subscript computes a value from the index, as the function of the same
# meaning (``np.r_[a, b]`` is ``concatenate_r(a, b)``).
SUBSCRIPTED: dict[object, object] = {np.r_: concatenate_r, np.c_: concatenate_c}

nondifferentiable(np.s_, np.index_exp, reason="index builders: their values are indices")

# (Not ``zip`` or ``enumerate``: their results hold their arguments' values, so a derivative
# reaching one outside a ``for`` header, which ``desugar`` rewrites, is an error.)
nondifferentiable(
    len, range, int, bool, round, print, isinstance, type, str, repr,
    math.floor, math.ceil, math.isnan, math.isinf, math.isfinite, math.trunc,
)

# NumPy functions whose result may share memory with their first argument: writing into
# it writes into that argument too, which no derivative can follow.
VIEW_PRIMITIVES = frozenset({
    np.transpose, np.swapaxes, np.moveaxis, np.reshape, np.ravel, np.squeeze, np.expand_dims,
    np.diagonal, np.broadcast_to, np.asarray, np.atleast_1d, np.atleast_2d, np.atleast_3d,
    np.real, np.flip, np.fliplr, np.flipud,
})

# Helpers of generated code that hand back their argument when its shape is already right.
# A gradient differentiated again writes into its cotangents (`grad_v[0] = 0.0`), which may
# then be an intermediate array that a derivative reads: reverse mode puts the elements back.
ARGUMENT_RETURNING = frozenset({unbroadcast, broadcast_like, reduce_like})
