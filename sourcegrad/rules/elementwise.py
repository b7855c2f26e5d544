"""Derivatives of NumPy's elementwise functions of one argument (exp, log, trig, ...)."""

import numpy as np

from .registry import rule


@rule(np.exp)
class exp:
    torch_name = "Exp"

    def vjp_x(g, ans, x):
        return g * ans

    def jvp_x(t, ans, x):
        return t * ans


@rule(np.log)
class log:
    torch_name = "Log"

    def vjp_x(g, ans, x):
        return g / x

    def jvp_x(t, ans, x):
        return t / x


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


@rule(np.tanh)
class tanh:
    torch_name = "Tanh"

    def vjp_x(g, ans, x):
        return g * (1 - ans**2)

    def jvp_x(t, ans, x):
        return t * (1 - ans**2)


@rule(np.sqrt)
class sqrt:
    torch_name = "Sqrt"

    def vjp_x(g, ans, x):
        return g / (2 * ans)

    def jvp_x(t, ans, x):
        return t / (2 * ans)
