"""Derivatives of the functions that choose between their arguments: ``maximum``,
``minimum``, ``fmax``, ``fmin``, ``clip`` and ``where``.

Where the choice is a tie the derivative does not exist; the conventions are PyTorch's and
each rule's docstring states its own. The masks multiply ``g`` (never the other way round)
so that a float32 cotangent stays float32.
"""

import numpy as np

from .registry import rule
from .support import (
    broadcast_like,
    extreme_jvp,
    extreme_vjp,
    lower_bound,
    unbroadcast,
    upper_bound,
)


@rule(np.maximum)
class maximum:
    """At ties (``x1 == x2``) each argument receives half of the cotangent."""

    torch_name = "Maximum"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g * (x1 > x2) + g * (x1 == x2) / 2, x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * (x2 > x1) + g * (x1 == x2) / 2, x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t * (x1 > x2) + t * (x1 == x2) / 2, ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(t * (x2 > x1) + t * (x1 == x2) / 2, ans)


@rule(np.minimum)
class minimum:
    """At ties (``x1 == x2``) each argument receives half of the cotangent."""

    torch_name = "Minimum"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g * (x1 < x2) + g * (x1 == x2) / 2, x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * (x2 < x1) + g * (x1 == x2) / 2, x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t * (x1 < x2) + t * (x1 == x2) / 2, ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(t * (x2 < x1) + t * (x1 == x2) / 2, ans)


@rule(np.fmax)
class fmax:
    """Like ``maximum`` (ties split in half), except that a NaN loses: the other argument,
    which is the result, receives the whole cotangent."""

    torch_name = "Fmax"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g * ((x1 > x2) | np.isnan(x2)) + g * (x1 == x2) / 2, x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * ((x2 > x1) | np.isnan(x1)) + g * (x1 == x2) / 2, x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t * ((x1 > x2) | np.isnan(x2)) + t * (x1 == x2) / 2, ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(t * ((x2 > x1) | np.isnan(x1)) + t * (x1 == x2) / 2, ans)


@rule(np.fmin)
class fmin:
    """Like ``minimum`` (ties split in half), except that a NaN loses (see ``fmax``)."""

    torch_name = "Fmin"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g * ((x1 < x2) | np.isnan(x2)) + g * (x1 == x2) / 2, x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * ((x2 < x1) | np.isnan(x1)) + g * (x1 == x2) / 2, x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t * ((x1 < x2) | np.isnan(x2)) + t * (x1 == x2) / 2, ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(t * ((x2 < x1) | np.isnan(x1)) + t * (x1 == x2) / 2, ans)


@rule(np.clip)
class clip:
    """``minimum(maximum(a, a_min), a_max)``. As in PyTorch's ``clamp``, ``a`` receives the
    cotangent where ``a_min <= a <= a_max`` (bounds included); ``a_min`` where ``a`` is below
    it, ``a_max`` where the result is ``a_max`` and ``a`` is not. A bound of ``None`` is
    absent. (NumPy 2's keywords ``min=``/``max=`` are not part of this signature.)"""

    torch_name = "Clamp"
    nondiff = ("out",)

    def vjp_a(g, ans, a, a_min=None, a_max=None, out=None):
        return unbroadcast(g * ((a >= lower_bound(a_min)) & (a <= upper_bound(a_max))), a)

    def vjp_a_min(g, ans, a, a_min=None, a_max=None, out=None):
        return unbroadcast(g * ((a < a_min) & (a_min <= upper_bound(a_max))), a_min)

    def vjp_a_max(g, ans, a, a_min=None, a_max=None, out=None):
        return unbroadcast(g * (np.maximum(a, lower_bound(a_min)) > a_max), a_max)

    def jvp_a(t, ans, a, a_min=None, a_max=None, out=None):
        return broadcast_like(t * ((a >= lower_bound(a_min)) & (a <= upper_bound(a_max))), ans)

    def jvp_a_min(t, ans, a, a_min=None, a_max=None, out=None):
        return broadcast_like(t * ((a < a_min) & (a_min <= upper_bound(a_max))), ans)

    def jvp_a_max(t, ans, a, a_min=None, a_max=None, out=None):
        return broadcast_like(t * (np.maximum(a, lower_bound(a_min)) > a_max), ans)


@rule(np.where)
class where:
    """Three-argument ``where``: each of ``x``, ``y`` receives the cotangent where it was
    chosen. (``np.where(condition)`` alone is ``nonzero``, which has no derivative.)"""

    torch_name = "Where"
    nondiff = ("condition",)

    def vjp_x(g, ans, condition, x, y):
        return unbroadcast(np.where(condition, g, 0), x)

    def vjp_y(g, ans, condition, x, y):
        return unbroadcast(np.where(condition, 0, g), y)

    def jvp_x(t, ans, condition, x, y):
        return broadcast_like(np.where(condition, t, 0), ans)

    def jvp_y(t, ans, condition, x, y):
        return broadcast_like(np.where(condition, 0, t), ans)


@rule(max, min)
class builtin_extreme:
    """Python's ``max``/``min`` of several numbers, or of the items of one list: the
    cotangent is shared evenly among the tied winners (as for ``np.max``). Python's two-
    argument form is differentiated as ``np.maximum``/``np.minimum`` (``rules/methods.py``),
    with the same convention."""
    sequence_params = ("args",)

    torch_name = "Max"

    def vjp_args(g, ans, *args):
        return extreme_vjp(g, ans, args)

    def jvp_args(t, ans, *args):
        return extreme_jvp(t, ans, args)
