"""Derivatives of NumPy's elementwise functions of one argument (exp, log, trig, ...).

Constants are Python floats (``math.log(2)``, not ``np.log(2)``) so that NumPy 2 keeps a
float32 cotangent float32. Where a derivative is infinite at a point of the domain (``sqrt``
at 0, ``arcsin`` at +-1) the rule computes what NumPy computes there (``inf``).
"""

import math

import numpy as np

from .registry import rule
from .support import sinc_derivative

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


@rule(np.absolute, np.fabs)
class absolute:
    """``|x|``. At 0 the derivative is taken as 0 (``sign(0)``), as in PyTorch."""

    torch_name = "Abs"

    def vjp_x(g, ans, x):
        return g * np.sign(x)

    def jvp_x(t, ans, x):
        return t * np.sign(x)


@rule(np.sign)
class sign:
    """Piecewise constant: the derivative is 0 everywhere (at 0 too). A zero rule, like
    PyTorch's ``SignBackward``, rather than a non-differentiable declaration, so the output
    of ``sign`` stays part of the graph as it does in PyTorch."""

    torch_name = "Sign"

    def vjp_x(g, ans, x):
        return np.zeros_like(g)

    def jvp_x(t, ans, x):
        return np.zeros_like(t)
