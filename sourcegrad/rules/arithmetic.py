"""Derivatives of NumPy's arithmetic: the operators ``+ - * / ** @`` and their ufuncs.

Broadcasting is each rule's job: a VJP returns its cotangent through ``unbroadcast`` so it
has its operand's shape, and a JVP whose expression might not reach the output's shape on
its own goes through ``broadcast_like``.
"""

import numpy as np

from .registry import rule
from .support import broadcast_like, matmul_vjp_x1, matmul_vjp_x2, unbroadcast


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
    """``x1 ** x2``. At ``x1 == 0`` the exponent's derivative ``ans * log(x1)`` is taken as 0
    (its limit where ``x2 > 0``), as PyTorch does."""

    torch_name = "Pow"

    def vjp_x1(g, ans, x1, x2):
        return unbroadcast(g * x2 * x1 ** (x2 - 1), x1)

    def vjp_x2(g, ans, x1, x2):
        return unbroadcast(g * ans * np.log(np.where(x1 == 0, 1, x1)), x2)

    def jvp_x1(t, ans, x1, x2):
        return broadcast_like(t * x2 * x1 ** (x2 - 1), ans)

    def jvp_x2(t, ans, x1, x2):
        return broadcast_like(t * ans * np.log(np.where(x1 == 0, 1, x1)), ans)


@rule(np.matmul)
class matmul:
    torch_name = "Mm"

    def vjp_x1(g, ans, x1, x2):
        return matmul_vjp_x1(g, x1, x2)

    def vjp_x2(g, ans, x1, x2):
        return matmul_vjp_x2(g, x1, x2)

    def jvp_x1(t, ans, x1, x2):
        return t @ x2

    def jvp_x2(t, ans, x1, x2):
        return x1 @ t
