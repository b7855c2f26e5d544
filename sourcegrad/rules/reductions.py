"""Derivatives of reductions (sum, mean, prod, var, std, max, min, median, quantiles) with
``axis`` (None, an int, negative, or a tuple) and ``keepdims``, and of the cumulative
``cumsum``/``cumprod``.

Signatures include ``out`` so that positional arguments bind as NumPy binds them; it is a
non-differentiable parameter (the result is still ``ans``).
"""

import numpy as np

from .registry import rule
from .support import (
    average_total,
    average_weights,
    cumprod_jvp,
    cumprod_vjp,
    degrees_of_freedom,
    deviation,
    extremes_weights,
    leading_axes,
    one_if_single,
    product_of_others,
    quantile_axes,
    quantile_kept_axes,
    quantile_slope_weights,
    quantile_trailing_axes,
    quantile_weights,
    reduced_count,
    tie_weights,
    unbroadcast,
    unreduce,
    unstack_like,
)


@rule(np.sum)
class sum:
    torch_name = "Sum"
    linear = True
    nondiff = ("axis", "dtype", "out", "keepdims")

    def vjp_a(g, ans, a, axis=None, dtype=None, out=None, keepdims=False):
        return unreduce(g, a, axis=axis, keepdims=keepdims)


@rule(np.mean)
class mean:
    torch_name = "Mean"
    linear = True
    nondiff = ("axis", "dtype", "out", "keepdims")

    def vjp_a(g, ans, a, axis=None, dtype=None, out=None, keepdims=False):
        return unreduce(g / reduced_count(a, ans), a, axis=axis, keepdims=keepdims)


@rule(np.average)
class average:
    """``sum(w a) / sum(w)`` over ``axis``, ``w`` the weights as they multiply ``a``
    (``average_weights``: all ones without weights; ``average_total`` is ``sum(w)``).
    Differentiable in ``a`` and in ``weights``: a weight's derivative is the cotangent times
    ``(a - ans) / sum(w)``. ``returned=True`` is refused."""

    torch_name = "Mean"
    nondiff = ("axis", "returned", "keepdims")

    def vjp_a(g, ans, a, axis=None, weights=None, returned=False, keepdims=False):
        return unreduce(g / average_total(weights, a, axis, keepdims=keepdims,
                                          returned=returned),
                        a, axis=axis, keepdims=keepdims) * average_weights(weights, a, axis)

    def vjp_weights(g, ans, a, axis=None, weights=None, returned=False, keepdims=False):
        return np.reshape(unbroadcast(
            unreduce(g / average_total(weights, a, axis, keepdims=keepdims, returned=returned),
                     a, axis=axis, keepdims=keepdims)
            * (a - unreduce(ans, a, axis=axis, keepdims=keepdims)),
            average_weights(weights, a, axis)), np.shape(weights))

    def jvp_a(t, ans, a, axis=None, weights=None, returned=False, keepdims=False):
        return np.sum(t * average_weights(weights, a, axis), axis=axis, keepdims=keepdims) / (
            average_total(weights, a, axis, keepdims=keepdims, returned=returned))

    def jvp_weights(t, ans, a, axis=None, weights=None, returned=False, keepdims=False):
        return np.sum(average_weights(t, a, axis)
                      * (a - unreduce(ans, a, axis=axis, keepdims=keepdims)),
                      axis=axis, keepdims=keepdims) / (
            average_total(weights, a, axis, keepdims=keepdims, returned=returned))


@rule(np.prod)
class prod:
    """Exact where ``a`` holds zeros: the derivative is the product of the other elements,
    computed without dividing by the element."""

    torch_name = "Prod"
    nondiff = ("axis", "dtype", "out", "keepdims")

    def vjp_a(g, ans, a, axis=None, dtype=None, out=None, keepdims=False):
        return unreduce(g, a, axis=axis, keepdims=keepdims) * product_of_others(a, axis=axis)

    def jvp_a(t, ans, a, axis=None, dtype=None, out=None, keepdims=False):
        return np.sum(t * product_of_others(a, axis=axis), axis=axis, keepdims=keepdims)


@rule(np.var)
class var:
    """Over one value (``n = 1``, ``ddof = 0``) the variance is 0 whatever the value, and so is
    its derivative; with ``n - ddof <= 0`` NumPy divides by 0 (the value is inf or nan) and
    the derivative is nan (``degrees_of_freedom``), as in JAX."""

    torch_name = "Var"
    nondiff = ("axis", "dtype", "out", "keepdims")

    def vjp_a(g, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return (unreduce(g, a, axis=axis, keepdims=keepdims)
                * deviation(a, axis=axis)
                * (2 / degrees_of_freedom(a, ans, ddof=ddof)))

    def vjp_ddof(g, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        # a float ddof is a divisor's part: var = s / (n - ddof), so dvar/dddof = var / (n - ddof)
        return unbroadcast(g * ans / degrees_of_freedom(a, ans, ddof=ddof), ddof)

    def jvp_a(t, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return (np.sum(t * deviation(a, axis=axis), axis=axis,
                       keepdims=keepdims) * (2 / degrees_of_freedom(a, ans, ddof=ddof)))

    def jvp_ddof(t, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return t * ans / degrees_of_freedom(a, ans, ddof=ddof)


@rule(np.std)
class std:
    """``sqrt(var)``. Over one value the standard deviation is 0 whatever the value, so its
    derivative is 0 (``one_if_single`` keeps 0/0 out); where it is 0 over several values
    the derivative is nan (0/0), as in PyTorch and JAX; with ``n - ddof <= 0``, nan."""

    torch_name = "Std"
    nondiff = ("axis", "dtype", "out", "keepdims")

    def vjp_a(g, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return (unreduce(g / one_if_single(ans, a), a, axis=axis, keepdims=keepdims)
                * deviation(a, axis=axis)
                / degrees_of_freedom(a, ans, ddof=ddof))

    def vjp_ddof(g, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        # std = sqrt(s / (n - ddof)): dstd/dddof = std / (2 (n - ddof))
        return unbroadcast(g * ans / (2 * degrees_of_freedom(a, ans, ddof=ddof)), ddof)

    def jvp_a(t, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return (np.sum(t * deviation(a, axis=axis), axis=axis,
                       keepdims=keepdims)
                / (one_if_single(ans, a) * degrees_of_freedom(a, ans, ddof=ddof)))

    def jvp_ddof(t, ans, a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return t * ans / (2 * degrees_of_freedom(a, ans, ddof=ddof))


@rule(np.max, np.amax, np.nanmax)
class max:
    """The cotangent is shared evenly among the elements that tie for the maximum (PyTorch's
    ``amax``), and the tangent is their average. ``np.nanmax``'s too: a nan ties with
    nothing."""

    torch_name = "Amax"
    nondiff = ("axis", "out", "keepdims")

    def vjp_a(g, ans, a, axis=None, out=None, keepdims=False):
        return unreduce(g, a, axis=axis, keepdims=keepdims) * tie_weights(a, ans, axis=axis,
                                                                       keepdims=keepdims)

    def jvp_a(t, ans, a, axis=None, out=None, keepdims=False):
        return np.sum(t * tie_weights(a, ans, axis=axis, keepdims=keepdims), axis=axis,
                      keepdims=keepdims)


@rule(np.min, np.amin, np.nanmin)
class min:
    """The cotangent is shared evenly among the elements that tie for the minimum (PyTorch's
    ``amin``), and the tangent is their average. ``np.nanmin``'s too: a nan ties with
    nothing."""

    torch_name = "Amin"
    nondiff = ("axis", "out", "keepdims")

    def vjp_a(g, ans, a, axis=None, out=None, keepdims=False):
        return unreduce(g, a, axis=axis, keepdims=keepdims) * tie_weights(a, ans, axis=axis,
                                                                       keepdims=keepdims)

    def jvp_a(t, ans, a, axis=None, out=None, keepdims=False):
        return np.sum(t * tie_weights(a, ans, axis=axis, keepdims=keepdims), axis=axis,
                      keepdims=keepdims)


@rule(np.ptp)
class ptp:
    """``max - min``: the cotangent goes to the maximum's ties with ``+``, to the minimum's
    with ``-`` (shared evenly among ties, as ``max``/``min`` share it)."""

    nondiff = ("axis", "out", "keepdims")

    def vjp_a(g, ans, a, axis=None, out=None, keepdims=False):
        return unreduce(g, a, axis=axis, keepdims=keepdims) * extremes_weights(a, axis=axis)

    def jvp_a(t, ans, a, axis=None, out=None, keepdims=False):
        return np.sum(t * extremes_weights(a, axis=axis), axis=axis, keepdims=keepdims)


@rule(np.cumsum)
class cumsum:
    """``axis=None`` runs over the flattened array."""

    torch_name = "Cumsum"
    linear = True
    nondiff = ("axis", "dtype", "out")

    def vjp_a(g, ans, a, axis=None, dtype=None, out=None):
        return np.reshape(np.flip(np.cumsum(np.flip(g, axis=axis), axis=axis), axis=axis),
                          np.shape(a))


@rule(np.cumprod)
class cumprod:
    """Exact where ``a`` holds zeros (see ``support.cumprod_vjp``)."""

    torch_name = "Cumprod"
    nondiff = ("axis", "dtype", "out")

    def vjp_a(g, ans, a, axis=None, dtype=None, out=None):
        return cumprod_vjp(g, a, ans, axis=axis)

    def jvp_a(t, ans, a, axis=None, dtype=None, out=None):
        return cumprod_jvp(t, a, ans, axis=axis)


@rule(np.quantile)
class quantile:
    """Each quantile is a weighted sum of (at most two) sorted elements; the cotangent goes
    back to them with those weights (``quantile_weights``: method ``'linear'`` only). In
    ``q`` it moves along the gap between them."""

    torch_name = "Quantile"
    sequence_params = ("q",)
    nondiff = ("axis", "out", "overwrite_input", "method", "keepdims", "weights",
               "interpolation")

    def vjp_a(g, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
              keepdims=False, weights=None, interpolation=None):
        return np.sum(np.expand_dims(g, quantile_kept_axes(a, q, axis, keepdims))
                      * quantile_weights(a, q, axis, method), axis=leading_axes(q))

    def vjp_q(g, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
              keepdims=False, weights=None, interpolation=None):
        return unstack_like(np.sum(g * np.sum(a * quantile_slope_weights(a, q, axis, method),
                                              axis=quantile_axes(a, q, axis), keepdims=keepdims),
                                   axis=quantile_trailing_axes(q, ans)), q)

    def jvp_a(t, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
              keepdims=False, weights=None, interpolation=None):
        return np.sum(t * quantile_weights(a, q, axis, method), axis=quantile_axes(a, q, axis),
                      keepdims=keepdims)

    def jvp_q(t, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
              keepdims=False, weights=None, interpolation=None):
        return np.expand_dims(np.array(t), quantile_trailing_axes(q, ans)) * np.sum(
            a * quantile_slope_weights(a, q, axis, method), axis=quantile_axes(a, q, axis),
            keepdims=keepdims)


@rule(np.percentile)
class percentile:
    """``quantile`` at ``q / 100``."""

    torch_name = "Percentile"
    sequence_params = ("q",)
    nondiff = quantile.nondiff

    def vjp_a(g, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
              keepdims=False, weights=None, interpolation=None):
        return np.sum(np.expand_dims(g, quantile_kept_axes(a, q, axis, keepdims))
                      * quantile_weights(a, np.true_divide(q, 100), axis, method),
                      axis=leading_axes(q))

    def vjp_q(g, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
              keepdims=False, weights=None, interpolation=None):
        return unstack_like(np.sum(g * np.sum(
            a * quantile_slope_weights(a, np.true_divide(q, 100), axis, method),
            axis=quantile_axes(a, q, axis), keepdims=keepdims),
            axis=quantile_trailing_axes(q, ans)) / 100, q)

    def jvp_a(t, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
              keepdims=False, weights=None, interpolation=None):
        return np.sum(t * quantile_weights(a, np.true_divide(q, 100), axis, method),
                      axis=quantile_axes(a, q, axis), keepdims=keepdims)

    def jvp_q(t, ans, a, q, axis=None, out=None, overwrite_input=False, method="linear",
              keepdims=False, weights=None, interpolation=None):
        return np.expand_dims(np.array(t) / 100, quantile_trailing_axes(q, ans)) * np.sum(
            a * quantile_slope_weights(a, np.true_divide(q, 100), axis, method),
            axis=quantile_axes(a, q, axis), keepdims=keepdims)


@rule(np.median)
class median:
    """``quantile`` at 0.5: the middle element, or the mean of the two middle ones."""

    torch_name = "Median"
    nondiff = ("axis", "out", "overwrite_input", "keepdims")

    def vjp_a(g, ans, a, axis=None, out=None, overwrite_input=False, keepdims=False):
        return np.expand_dims(g, quantile_kept_axes(a, 0.5, axis, keepdims)) * quantile_weights(
            a, 0.5, axis)

    def jvp_a(t, ans, a, axis=None, out=None, overwrite_input=False, keepdims=False):
        return np.sum(t * quantile_weights(a, 0.5, axis), axis=quantile_axes(a, 0.5, axis),
                      keepdims=keepdims)
