"""Derivatives of the ``math`` module's functions on Python floats.

Written with ``math`` functions and plain float arithmetic, not NumPy, so that scalar code
stays fast and its gradients stay Python floats. Float division raises
``ZeroDivisionError`` where a derivative is infinite (``sqrt`` at 0), and ``math`` raises
``ValueError`` outside its domain: loud, never a silently wrong number.
"""

import math

from .registry import rule
from .support import unreduce

# ------------------------------------------------------------------------ powers and logs


@rule(math.sqrt)
class sqrt:
    torch_name = "Sqrt"

    def vjp_x(g, ans, x):
        return g / (2 * ans)

    def jvp_x(t, ans, x):
        return t / (2 * ans)


@rule(getattr(math, "cbrt", None))
class cbrt:
    torch_name = "Cbrt"

    def vjp_x(g, ans, x):
        return g / (3 * ans * ans)

    def jvp_x(t, ans, x):
        return t / (3 * ans * ans)


@rule(math.pow)
class pow:
    """``x ** y`` with PyTorch's limits: the base's derivative is 0 where ``y == 0``, the
    exponent's is 0 where ``x == 0``."""

    torch_name = "Pow"

    def vjp_x(g, ans, x, y):
        return g * y * x ** (y - 1) if y != 0 else 0.0

    def vjp_y(g, ans, x, y):
        return g * ans * math.log(x) if x != 0 else 0.0

    def jvp_x(t, ans, x, y):
        return t * y * x ** (y - 1) if y != 0 else 0.0

    def jvp_y(t, ans, x, y):
        return t * ans * math.log(x) if x != 0 else 0.0


@rule(math.exp)
class exp:
    torch_name = "Exp"

    def vjp_x(g, ans, x):
        return g * ans

    def jvp_x(t, ans, x):
        return t * ans


@rule(getattr(math, "exp2", None))
class exp2:
    torch_name = "Exp2"

    def vjp_x(g, ans, x):
        return g * ans * math.log(2)

    def jvp_x(t, ans, x):
        return t * ans * math.log(2)


@rule(math.expm1)
class expm1:
    torch_name = "Expm1"

    def vjp_x(g, ans, x):
        return g * (ans + 1)

    def jvp_x(t, ans, x):
        return t * (ans + 1)


@rule(math.log)
class log:
    """``math.log(x, base=e)``; ``base`` is differentiable too."""

    torch_name = "Log"

    def vjp_x(g, ans, x, base=math.e):
        return g / (x * math.log(base))

    def vjp_base(g, ans, x, base=math.e):
        return -g * ans / (base * math.log(base))

    def jvp_x(t, ans, x, base=math.e):
        return t / (x * math.log(base))

    def jvp_base(t, ans, x, base=math.e):
        return -t * ans / (base * math.log(base))


@rule(math.log1p)
class log1p:
    torch_name = "Log1p"

    def vjp_x(g, ans, x):
        return g / (1 + x)

    def jvp_x(t, ans, x):
        return t / (1 + x)


@rule(math.log2)
class log2:
    torch_name = "Log2"

    def vjp_x(g, ans, x):
        return g / (x * math.log(2))

    def jvp_x(t, ans, x):
        return t / (x * math.log(2))


@rule(math.log10)
class log10:
    torch_name = "Log10"

    def vjp_x(g, ans, x):
        return g / (x * math.log(10))

    def jvp_x(t, ans, x):
        return t / (x * math.log(10))


# ---------------------------------------------------------------------------- trigonometry


@rule(math.sin)
class sin:
    torch_name = "Sin"

    def vjp_x(g, ans, x):
        return g * math.cos(x)

    def jvp_x(t, ans, x):
        return t * math.cos(x)


@rule(math.cos)
class cos:
    torch_name = "Cos"

    def vjp_x(g, ans, x):
        return -g * math.sin(x)

    def jvp_x(t, ans, x):
        return -t * math.sin(x)


@rule(math.tan)
class tan:
    torch_name = "Tan"

    def vjp_x(g, ans, x):
        return g * (1 + ans * ans)

    def jvp_x(t, ans, x):
        return t * (1 + ans * ans)


@rule(math.asin)
class asin:
    torch_name = "Asin"

    def vjp_x(g, ans, x):
        return g / math.sqrt(1 - x * x)

    def jvp_x(t, ans, x):
        return t / math.sqrt(1 - x * x)


@rule(math.acos)
class acos:
    torch_name = "Acos"

    def vjp_x(g, ans, x):
        return -g / math.sqrt(1 - x * x)

    def jvp_x(t, ans, x):
        return -t / math.sqrt(1 - x * x)


@rule(math.atan)
class atan:
    torch_name = "Atan"

    def vjp_x(g, ans, x):
        return g / (1 + x * x)

    def jvp_x(t, ans, x):
        return t / (1 + x * x)


@rule(math.atan2)
class atan2:
    torch_name = "Atan2"

    def vjp_y(g, ans, y, x):
        return g * x / (x * x + y * y)

    def vjp_x(g, ans, y, x):
        return -g * y / (x * x + y * y)

    def jvp_y(t, ans, y, x):
        return t * x / (x * x + y * y)

    def jvp_x(t, ans, y, x):
        return -t * y / (x * x + y * y)


@rule(math.hypot)
class hypot:
    """``math.hypot(*coordinates)`` is variadic: one cotangent per coordinate. The JVP zips
    ``list``s, not the tuples themselves: reverse mode accumulates the cotangent of a tuple it
    loops over in place, which needs a list."""

    torch_name = "Hypot"

    def vjp_coordinates(g, ans, *coordinates):
        return [g * c / ans for c in coordinates]

    def jvp_coordinates(t, ans, *coordinates):
        return sum([tc * c for tc, c in zip(list(t), list(coordinates), strict=True)
                    if tc is not None]) / ans


@rule(math.degrees)
class degrees:
    torch_name = "Rad2deg"
    linear = True

    def vjp_x(g, ans, x):
        return g * (180 / math.pi)


@rule(math.radians)
class radians:
    torch_name = "Deg2rad"
    linear = True

    def vjp_x(g, ans, x):
        return g * (math.pi / 180)


# ------------------------------------------------------------------------------ hyperbolic


@rule(math.sinh)
class sinh:
    torch_name = "Sinh"

    def vjp_x(g, ans, x):
        return g * math.cosh(x)

    def jvp_x(t, ans, x):
        return t * math.cosh(x)


@rule(math.cosh)
class cosh:
    torch_name = "Cosh"

    def vjp_x(g, ans, x):
        return g * math.sinh(x)

    def jvp_x(t, ans, x):
        return t * math.sinh(x)


@rule(math.tanh)
class tanh:
    torch_name = "Tanh"

    def vjp_x(g, ans, x):
        return g * (1 - ans * ans)

    def jvp_x(t, ans, x):
        return t * (1 - ans * ans)


@rule(math.asinh)
class asinh:
    torch_name = "Asinh"

    def vjp_x(g, ans, x):
        return g / math.sqrt(x * x + 1)

    def jvp_x(t, ans, x):
        return t / math.sqrt(x * x + 1)


@rule(math.acosh)
class acosh:
    torch_name = "Acosh"

    def vjp_x(g, ans, x):
        return g / math.sqrt(x * x - 1)

    def jvp_x(t, ans, x):
        return t / math.sqrt(x * x - 1)


@rule(math.atanh)
class atanh:
    torch_name = "Atanh"

    def vjp_x(g, ans, x):
        return g / (1 - x * x)

    def jvp_x(t, ans, x):
        return t / (1 - x * x)


# ------------------------------------------------------------------------ special and sign


@rule(math.erf)
class erf:
    torch_name = "Erf"

    def vjp_x(g, ans, x):
        return g * (2 / math.sqrt(math.pi)) * math.exp(-x * x)

    def jvp_x(t, ans, x):
        return t * (2 / math.sqrt(math.pi)) * math.exp(-x * x)


@rule(math.erfc)
class erfc:
    torch_name = "Erfc"

    def vjp_x(g, ans, x):
        return -g * (2 / math.sqrt(math.pi)) * math.exp(-x * x)

    def jvp_x(t, ans, x):
        return -t * (2 / math.sqrt(math.pi)) * math.exp(-x * x)


@rule(math.fabs)
class fabs:
    """At 0 the derivative is taken as 0, as for ``np.abs``."""

    torch_name = "Abs"

    def vjp_x(g, ans, x):
        return g * math.copysign(1.0, x) if x != 0 else 0.0

    def jvp_x(t, ans, x):
        return t * math.copysign(1.0, x) if x != 0 else 0.0



@rule(math.fsum)
class fsum:
    """The exact sum of a list (or 1-D array) of numbers: linear, each gets the cotangent."""
    sequence_params = ("seq",)

    torch_name = "Sum"
    linear = True

    def vjp_seq(g, ans, seq):
        return [g for _ in seq] if isinstance(seq, (list, tuple)) else unreduce(g, seq)
