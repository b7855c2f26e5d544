"""Derivatives of NumPy's arithmetic: the operators ``+ - * / ** %`` and the ufuncs of two
arguments (``arctan2``, ``hypot``, ``logaddexp``).

Broadcasting is each rule's job: a VJP returns its cotangent through ``unbroadcast`` so it
has its operand's shape, and a JVP whose expression might not reach the output's shape on
its own goes through ``broadcast_like``.
"""

import numpy as np

from .registry import rule
from .support import broadcast_like, unbroadcast


@rule(np.add)
class add:
    torch_name = "Add"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g, x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g, x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t, ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(t, ans)


@rule(np.subtract)
class subtract:
    torch_name = "Sub"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g, x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(-g, x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t, ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(-t, ans)


@rule(np.multiply)
class multiply:
    torch_name = "Mul"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g * x2, x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * x1, x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t * x2, ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(x1 * t, ans)


@rule(np.divide, np.true_divide)
class divide:
    torch_name = "Div"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g / x2, x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(-g * ans / x2, x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t / x2, ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(-t * ans / x2, ans)


@rule(np.negative)
class negative:
    torch_name = "Neg"
    linear = True

    def vjp_x(g, ans, x):
        return -g


@rule(np.positive)
class positive:
    torch_name = "Positive"
    linear = True

    def vjp_x(g, ans, x):
        return g


@rule(np.power)
class power:
    """``x1 ** x2``. Two limits are taken as PyTorch takes them: where ``x2 == 0`` the base's
    derivative is 0 (not ``0 * 0**-1 = nan`` at ``x1 == 0``), and at ``x1 == 0`` the
    exponent's derivative ``ans * log(x1)`` is 0 (its limit where ``x2 > 0``)."""

    torch_name = "Pow"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(np.where(x2 == 0, 0, g * x2 * x1 ** (x2 - 1)), x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * ans * np.log(np.where(x1 == 0, 1, x1)), x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(np.where(x2 == 0, 0, t * x2 * x1 ** (x2 - 1)), ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(t * ans * np.log(np.where(x1 == 0, 1, x1)), ans)


@rule(np.remainder)
class remainder:
    """``x1 % x2 = x1 - x2 * floor(x1 / x2)``, differentiated between its jumps (where
    ``x1 / x2`` is an integer the derivative does not exist; the formula's value is used)."""

    torch_name = "Remainder"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g, x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(-g * np.floor(x1 / x2), x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t, ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(-t * np.floor(x1 / x2), ans)


@rule(np.arctan2)
class arctan2:
    torch_name = "Atan2"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g * x2 / (x1**2 + x2**2), x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(-g * x1 / (x1**2 + x2**2), x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t * x2 / (x1**2 + x2**2), ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(-t * x1 / (x1**2 + x2**2), ans)


@rule(np.hypot)
class hypot:
    """``sqrt(x1**2 + x2**2)``; at ``x1 == x2 == 0`` the derivative is undefined (nan), as
    in PyTorch."""

    torch_name = "Hypot"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g * x1 / ans, x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * x2 / ans, x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t * x1 / ans, ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(t * x2 / ans, ans)


@rule(np.logaddexp)
class logaddexp:
    torch_name = "Logaddexp"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g * np.exp(x1 - ans), x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * np.exp(x2 - ans), x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t * np.exp(x1 - ans), ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(t * np.exp(x2 - ans), ans)
