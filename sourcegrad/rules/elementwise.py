"""Derivatives of NumPy's elementwise functions of one argument (exp, log, trig, ...).

Constants are Python floats (``math.log(2)``, not ``np.log(2)``) so that NumPy 2 keeps a
float32 cotangent float32. Where a derivative is infinite at a point of the domain (``sqrt``
at 0, ``arcsin`` at +-1) the rule computes what NumPy computes there (``inf``).
"""

import math
import operator

import numpy as np

from .registry import rule
from .support import (
    abs_jvp,
    abs_vjp,
    broadcast_like,
    sign_vjp,
    sinc_derivative,
    unbroadcast,
)

# -------------------------------------------------------------------------- powers and roots


@rule(np.square)
class square:
    torch_name = "Pow"

    def vjp_x(g, ans, x):
        return g * 2 * x

    def jvp_x(t, ans, x):
        return t * 2 * x


@rule(np.sqrt)
class sqrt:
    """At 0 the derivative is ``inf`` (``g / 0``), as NumPy computes it."""

    torch_name = "Sqrt"

    def vjp_x(g, ans, x):
        return g / (2 * ans)

    def jvp_x(t, ans, x):
        return t / (2 * ans)


@rule(np.cbrt)
class cbrt:
    torch_name = "Cbrt"

    def vjp_x(g, ans, x):
        return g / (3 * ans**2)

    def jvp_x(t, ans, x):
        return t / (3 * ans**2)


@rule(np.reciprocal)
class reciprocal:
    torch_name = "Reciprocal"

    def vjp_x(g, ans, x):
        return -g * ans**2

    def jvp_x(t, ans, x):
        return -t * ans**2


# ------------------------------------------------------------------ exponentials and logs


@rule(np.exp)
class exp:
    torch_name = "Exp"

    def vjp_x(g, ans, x):
        return g * ans

    def jvp_x(t, ans, x):
        return t * ans


@rule(np.exp2)
class exp2:
    torch_name = "Exp2"

    def vjp_x(g, ans, x):
        return g * ans * math.log(2)

    def jvp_x(t, ans, x):
        return t * ans * math.log(2)


@rule(np.expm1)
class expm1:
    torch_name = "Expm1"

    def vjp_x(g, ans, x):
        return g * (ans + 1)

    def jvp_x(t, ans, x):
        return t * (ans + 1)


@rule(np.log)
class log:
    torch_name = "Log"

    def vjp_x(g, ans, x):
        return g / x

    def jvp_x(t, ans, x):
        return t / x


@rule(np.log2)
class log2:
    torch_name = "Log2"

    def vjp_x(g, ans, x):
        return g / (x * math.log(2))

    def jvp_x(t, ans, x):
        return t / (x * math.log(2))


@rule(np.log10)
class log10:
    torch_name = "Log10"

    def vjp_x(g, ans, x):
        return g / (x * math.log(10))

    def jvp_x(t, ans, x):
        return t / (x * math.log(10))


@rule(np.logaddexp2)
class logaddexp2:
    """``log2(2**x1 + 2**x2)``: each argument's share is ``2**(x - ans)``."""

    torch_name = "Logaddexp2"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g * np.exp2(x1 - ans), x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * np.exp2(x2 - ans), x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t * np.exp2(x1 - ans), ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(t * np.exp2(x2 - ans), ans)


@rule(np.ldexp)
class ldexp:
    """``x1 * 2**x2`` with integer exponents ``x2`` (no derivative); linear in ``x1``."""

    torch_name = "Ldexp"
    nondiff = ("x2",)

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(np.ldexp(g, x2), x1)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(np.ldexp(t, x2), ans)


@rule(np.frexp)
class frexp:
    """``(mantissa, exponent)`` with ``x = mantissa * 2**exponent``: the integer exponent is
    piecewise constant, so the mantissa is ``x * 2**-exponent`` locally."""

    sequence_output = True
    torch_name = "Frexp"

    def vjp_x(g, ans, x):
        return np.ldexp(g[0], -ans[1])

    def jvp_x(t, ans, x):
        return np.ldexp(t, -ans[1]), np.zeros_like(t)


@rule(np.log1p)
class log1p:
    torch_name = "Log1p"

    def vjp_x(g, ans, x):
        return g / (1 + x)

    def jvp_x(t, ans, x):
        return t / (1 + x)


# ---------------------------------------------------------------------------- trigonometry


@rule(np.sin)
class sin:
    torch_name = "Sin"

    def vjp_x(g, ans, x):
        return g * np.cos(x)

    def jvp_x(t, ans, x):
        return t * np.cos(x)


@rule(np.cos)
class cos:
    torch_name = "Cos"

    def vjp_x(g, ans, x):
        return -g * np.sin(x)

    def jvp_x(t, ans, x):
        return -t * np.sin(x)


@rule(np.tan)
class tan:
    torch_name = "Tan"

    def vjp_x(g, ans, x):
        return g * (1 + ans**2)

    def jvp_x(t, ans, x):
        return t * (1 + ans**2)


@rule(np.arcsin)
class arcsin:
    torch_name = "Asin"

    def vjp_x(g, ans, x):
        return g / np.sqrt(1 - x**2)

    def jvp_x(t, ans, x):
        return t / np.sqrt(1 - x**2)


@rule(np.arccos)
class arccos:
    torch_name = "Acos"

    def vjp_x(g, ans, x):
        return -g / np.sqrt(1 - x**2)

    def jvp_x(t, ans, x):
        return -t / np.sqrt(1 - x**2)


@rule(np.arctan)
class arctan:
    torch_name = "Atan"

    def vjp_x(g, ans, x):
        return g / (1 + x**2)

    def jvp_x(t, ans, x):
        return t / (1 + x**2)


@rule(np.degrees, np.rad2deg)
class degrees:
    torch_name = "Rad2deg"
    linear = True

    def vjp_x(g, ans, x):
        return g * (180 / math.pi)


@rule(np.radians, np.deg2rad)
class radians:
    torch_name = "Deg2rad"
    linear = True

    def vjp_x(g, ans, x):
        return g * (math.pi / 180)


@rule(np.sinc)
class sinc:
    """``sin(pi x) / (pi x)``; its derivative at 0 is 0."""

    torch_name = "Sinc"

    def vjp_x(g, ans, x):
        return g * sinc_derivative(x, ans)

    def jvp_x(t, ans, x):
        return t * sinc_derivative(x, ans)


# --------------------------------------------------------------------------------- hyperbolic


@rule(np.sinh)
class sinh:
    torch_name = "Sinh"

    def vjp_x(g, ans, x):
        return g * np.cosh(x)

    def jvp_x(t, ans, x):
        return t * np.cosh(x)


@rule(np.cosh)
class cosh:
    torch_name = "Cosh"

    def vjp_x(g, ans, x):
        return g * np.sinh(x)

    def jvp_x(t, ans, x):
        return t * np.sinh(x)


@rule(np.tanh)
class tanh:
    torch_name = "Tanh"

    def vjp_x(g, ans, x):
        return g * (1 - ans**2)

    def jvp_x(t, ans, x):
        return t * (1 - ans**2)


@rule(np.arcsinh)
class arcsinh:
    torch_name = "Asinh"

    def vjp_x(g, ans, x):
        return g / np.sqrt(x**2 + 1)

    def jvp_x(t, ans, x):
        return t / np.sqrt(x**2 + 1)


@rule(np.arccosh)
class arccosh:
    torch_name = "Acosh"

    def vjp_x(g, ans, x):
        return g / np.sqrt(x**2 - 1)

    def jvp_x(t, ans, x):
        return t / np.sqrt(x**2 - 1)


@rule(np.arctanh)
class arctanh:
    torch_name = "Atanh"

    def vjp_x(g, ans, x):
        return g / (1 - x**2)

    def jvp_x(t, ans, x):
        return t / (1 - x**2)


# ------------------------------------------------------------------------ sign and magnitude


@rule(np.absolute, np.fabs, operator.abs)
class absolute:
    """``|x|``. At 0 the derivative is taken as 0 (``sign(0)``), as in PyTorch; complex
    ``x`` too (see ``rules/complex.py``)."""

    torch_name = "Abs"

    def vjp_x(g, ans, x):
        return abs_vjp(g, x)

    def jvp_x(t, ans, x):
        return abs_jvp(t, x)


@rule(np.sign)
class sign:
    """Piecewise constant: the derivative is 0 everywhere (at 0 too). A zero rule, like
    PyTorch's ``SignBackward``, rather than a non-differentiable declaration, so the output
    of ``sign`` stays part of the graph as it does in PyTorch."""

    torch_name = "Sign"

    def vjp_x(g, ans, x):
        return sign_vjp(g, x)

    def jvp_x(t, ans, x):
        return sign_vjp(t, x)


@rule(np.heaviside)
class heaviside:
    """The step ``0 if x1 < 0, x2 if x1 == 0, 1 if x1 > 0``: constant in ``x1`` away from 0
    (derivative 0 there, and taken as 0 at 0 as for ``sign``); ``x2`` is the value at 0."""

    torch_name = "Heaviside"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(np.zeros_like(g), x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * (x1 == 0), x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(np.zeros_like(t), ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(t * (x1 == 0), ans)


@rule(np.nan_to_num)
class nan_to_num:
    """The identity on finite entries; a NaN or infinite entry becomes a constant, or the
    (differentiable) ``nan``/``posinf``/``neginf`` value that replaces it."""

    torch_name = "NanToNum"
    nondiff = ("copy",)

    def vjp_x(g, ans, x, copy=True, nan=0.0, posinf=None, neginf=None):
        return g * np.isfinite(x)

    def vjp_nan(g, ans, x, copy=True, nan=0.0, posinf=None, neginf=None):
        return unbroadcast(g * np.isnan(x), nan)

    def vjp_posinf(g, ans, x, copy=True, nan=0.0, posinf=None, neginf=None):
        return unbroadcast(g * np.isposinf(x), posinf)

    def vjp_neginf(g, ans, x, copy=True, nan=0.0, posinf=None, neginf=None):
        return unbroadcast(g * np.isneginf(x), neginf)

    def jvp_x(t, ans, x, copy=True, nan=0.0, posinf=None, neginf=None):
        return t * np.isfinite(x)

    def jvp_nan(t, ans, x, copy=True, nan=0.0, posinf=None, neginf=None):
        return broadcast_like(t * np.isnan(x), ans)

    def jvp_posinf(t, ans, x, copy=True, nan=0.0, posinf=None, neginf=None):
        return broadcast_like(t * np.isposinf(x), ans)

    def jvp_neginf(t, ans, x, copy=True, nan=0.0, posinf=None, neginf=None):
        return broadcast_like(t * np.isneginf(x), ans)
