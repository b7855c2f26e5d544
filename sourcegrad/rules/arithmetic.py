"""Derivatives of NumPy's arithmetic: the operators ``+ - * / ** %`` (and their spelling in
the ``operator`` module) and the ufuncs of two arguments (``arctan2``, ``hypot``,
``logaddexp``).

Broadcasting is each rule's job: a VJP returns its cotangent through ``unbroadcast`` so it
has its operand's shape, and a JVP whose expression might not reach the output's shape on
its own goes through ``broadcast_like``.
"""

import operator

import numpy as np

from .registry import rule
from .support import broadcast_like, unbroadcast


@rule(np.add, operator.add)
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


@rule(np.subtract, operator.sub)
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


@rule(np.multiply, operator.mul)
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


@rule(np.divide, np.true_divide, operator.truediv)
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


@rule(np.negative, operator.neg)
class negative:
    torch_name = "Neg"
    linear = True

    def vjp_x(g, ans, x):
        return -g


@rule(np.positive, operator.pos)
class positive:
    torch_name = "Positive"
    linear = True

    def vjp_x(g, ans, x):
        return g


@rule(np.power, np.float_power, operator.pow, pow)
class power:
    """``x1 ** x2``, also as Python's ``pow(x1, x2)`` (its three-argument form, modular
    exponentiation of integers, has no derivative: ``frontend/resolve.py`` says so). Two
    limits are taken as PyTorch takes them: where ``x2 == 0`` the base's derivative is 0
    (not ``0 * 0**-1 = nan`` at ``x1 == 0``; the base is taken as 1 there, so that
    ``0.0 ** -1`` is never computed: Python floats raise ZeroDivisionError), and at
    ``x1 == 0`` the exponent's derivative ``ans * log(x1)`` is 0 (its limit where
    ``x2 > 0``). An exponent that does not move (a zero tangent: an integer's, say ``p`` in
    ``v ** p`` saved for the gradient and differentiated again by ``sg.hessian``) adds
    nothing, even where ``x1 < 0`` makes ``log(x1)`` nan: ``0 * nan`` was a nan Hessian."""

    torch_name = "Pow"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(np.where(x2 == 0, 0, g * x2 * np.where(x2 == 0, 1, x1) ** (x2 - 1)),
                           x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * ans * np.log(np.where(x1 == 0, 1, x1)), x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(np.where(x2 == 0, 0, t * x2 * np.where(x2 == 0, 1, x1) ** (x2 - 1)),
                              ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(np.where(t == 0, 0, t * ans * np.log(np.where(x1 == 0, 1, x1))),
                              ans)


@rule(np.remainder, operator.mod)
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


@rule(np.fmod)
class fmod:
    """``x1 - x2 * trunc(x1 / x2)`` (C's remainder, the sign of ``x1``), differentiated
    between its jumps, as ``remainder`` is."""

    torch_name = "Fmod"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g, x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(-g * np.trunc(x1 / x2), x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t, ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(-t * np.trunc(x1 / x2), ans)


@rule(np.divmod, divmod)
class divmod_rule:
    """``(x1 // x2, x1 % x2)``, NumPy's or Python's: the quotient is piecewise constant (its
    cotangent ``g[0]`` is ignored, its tangent is 0), the remainder is ``remainder``'s."""

    sequence_output = True
    torch_name = "Divmod"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g[1], x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(-g[1] * ans[0], x2)

    def jvp_x1(t, ans, x1, x2):
        return np.zeros_like(ans[1]), broadcast_like(t, ans[1])

    def jvp_x2(t, ans, x1, x2):
        return np.zeros_like(ans[1]), broadcast_like(-t * ans[0], ans[1])


@rule(np.modf)
class modf:
    """``(fractional part, integral part)``: the integral part is piecewise constant."""

    sequence_output = True
    torch_name = "Modf"

    def vjp_x(g, ans, x):
        return g[0]

    def jvp_x(t, ans, x):
        return t, np.zeros_like(t)


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
    """Each argument's share is a sigmoid of the difference, ``exp(x1 - ans) = sigmoid(x1 -
    x2)``, written with one ``tanh``: no overflow, no warning, and no need of ``ans``, which
    ``sg.grad`` then does not compute (the logistic loss's gradient costs one transcendental
    function per element, as dask-glm's hand-written one does)."""

    torch_name = "Logaddexp"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g * (0.5 + 0.5 * np.tanh(0.5 * (x1 - x2))), x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * (0.5 + 0.5 * np.tanh(0.5 * (x2 - x1))), x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t * (0.5 + 0.5 * np.tanh(0.5 * (x1 - x2))), ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(t * (0.5 + 0.5 * np.tanh(0.5 * (x2 - x1))), ans)
