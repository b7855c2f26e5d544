"""Transformations called inside a function being differentiated, to any depth, in both
modes (CONTRACT 1a): each becomes a call of generated code, differentiated from its source.
Expected values are written out by hand or taken by finite differences of the plain
function, never from sourcegrad."""

import functools

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.testing import check_grads

from .fd import assert_close

rng = np.random.default_rng(5)
X = rng.standard_normal(3)
V = rng.standard_normal(3)
A = rng.standard_normal((3, 3))


def sin_sum(x):
    return np.sum(np.sin(x))


def cube_sum(x):
    return np.sum(x ** 3)


def fd_grad(f, x, eps=1e-6):
    out = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e.flat[i] = eps
        out.flat[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return out


def squared_gradient(x):
    return np.sum(sg.grad(sin_sum)(x) ** 2)


def test_a_gradient_inside_a_function_differentiated_in_both_modes():
    # d/dx sum(cos(x)^2) = -2 cos(x) sin(x)
    assert_close(sg.grad(squared_gradient)(X), -2 * np.cos(X) * np.sin(X))
    _, tangent = sg.jvp(squared_gradient, (X,), (V,))
    assert_close(tangent, float(np.dot(-2 * np.cos(X) * np.sin(X), V)))
    assert check_grads(squared_gradient, (X,), order=2)
    source = sg.grad(squared_gradient).source
    assert "forward_grad_sin_sum(x)" in source and "backward_grad_sin_sum(" in source


def test_a_gradient_bound_to_a_name_first_inside_or_outside():
    def inside(x):
        df = sg.grad(cube_sum)
        return np.sum(np.sin(df(x)))

    outside = sg.grad(cube_sum)

    def uses_outside(x):
        return np.sum(np.sin(outside(x)))

    expected = np.cos(3 * X ** 2) * 6 * X
    assert_close(sg.grad(inside)(X), expected)
    assert_close(sg.grad(uses_outside)(X), expected)


def test_hessian_vector_product_through_a_gradient():
    def along(x, v):
        return np.sum(sg.grad(cube_sum)(x) * v)  # d/dx = H v = 6 x v

    assert_close(sg.grad(along)(X, V), 6 * X * V)
    hv = sg.grad(lambda x: sg.jvp(cube_sum, (x,), (V,))[1])(X)
    assert_close(hv, 6 * X * V)


def test_a_lambda_reading_the_enclosing_variable():
    def fun(x):
        inner = lambda y: x * y  # noqa: E731
        return x * sg.grad(inner)(2.0)  # = x * x

    def fun_inline(x):
        return x * sg.grad(lambda y: y * x)(2.0)

    for f in (fun, fun_inline):
        assert_close(sg.grad(f)(1.3), 2.6)
        assert_close(sg.jvp(f, (1.3,), (1.0,))[1], 2.6)
        assert check_grads(f, (1.3,), order=2)


def test_a_nested_def_reading_the_enclosing_variable_at_depth_two():
    def fun(x):
        def inner(y):
            return np.sum(np.sin(x * y))
        outer = lambda z: np.sum(sg.grad(inner)(z))  # noqa: E731  sum_i x_i cos(x_i z_i)
        return np.sum(sg.grad(outer)(V))  # sum_i -x_i^2 sin(x_i v_i)

    def plain(x):
        return np.sum(-x ** 2 * np.sin(x * V))

    assert_close(sg.grad(fun)(X), fd_grad(plain, X), rtol=1e-5)


def test_jacobian_and_hessian_inside():
    def f(x):
        return np.sin(np.outer(x, x)) + np.cos(np.dot(x, x))

    def summed_jacobian(x):
        return np.sum(np.sin(sg.jacobian(f)(x)))

    def summed_hessian(x):
        return np.sum(sg.hessian(cube_sum)(x) * A)  # H = diag(6 x)

    assert_close(sg.grad(summed_jacobian)(X), fd_grad(summed_jacobian, X), rtol=1e-4)
    assert_close(sg.grad(summed_hessian)(X), 6 * np.diag(A))
    assert_close(sg.jvp(summed_hessian, (X,), (V,))[1], float(np.dot(6 * np.diag(A), V)))

    def jacobian_of_jacobian(x):
        return np.sum(np.sin(sg.jacobian(sg.jacobian(f))(x)))

    def stacked(x):  # the same, with the inner Jacobian written out by finite differences
        eps = 1e-5
        columns = []
        for i in range(x.size):
            e = np.zeros_like(x)
            e[i] = eps
            columns.append((sg.jacobian(f)(x + e) - sg.jacobian(f)(x - e)) / (2 * eps))
        return np.sum(np.sin(np.stack(columns, axis=-1)))

    value, gradient = sg.value_and_grad(jacobian_of_jacobian)(X)
    assert_close(value, stacked(X), rtol=1e-5)
    assert_close(gradient, fd_grad(stacked, X, eps=1e-4), rtol=1e-3, atol=1e-4)


def test_vjp_inside():
    def pulled(x):
        return np.sum(sg.vjp(np.sin, x)[1](V)[0] ** 2)  # sum((cos(x) v)^2)

    def unpacked(x):
        value, pullback = sg.vjp(sin_sum, x)
        return value * np.sum(pullback(1.0)[0])  # sum(sin x) * sum(cos x)

    assert_close(sg.grad(pulled)(X), -2 * np.cos(X) * np.sin(X) * V ** 2)
    s, c = np.sum(np.sin(X)), np.sum(np.cos(X))
    assert_close(sg.grad(unpacked)(X), np.cos(X) * c - s * np.sin(X))


def my_grad(fun, argnum=0):
    return sg.grad(fun, wrt=argnum)


def test_the_users_own_wrapper_of_grad():
    def fun(x):
        return np.sum(my_grad(sin_sum)(x) * my_grad(lambda y: np.sum(y * x))(V))

    # my_grad(lambda y: sum(y x))(V) = x: fun = sum(cos(x) x)
    assert_close(sg.grad(fun)(X), np.cos(X) - X * np.sin(X))


def test_a_transformation_of_a_value_computed_inside_is_refused_with_advice():
    def fun(x, fs):
        g = fs[0]
        return np.sum(sg.grad(g)(x))

    with pytest.raises(sg.UnsupportedSyntaxError, match="a transformation of a value computed"):
        sg.grad(fun)


def dict_loss(d):
    return np.sum(np.sin(d["a"])) + np.sum(np.cos(d["b"]))


def uses_the_gradient_of_a_dict(d):
    g = sg.grad(dict_loss)(d)
    return np.sum(g["a"]) + np.sum(np.sin(g["a"])) + np.sum(np.sin(g["b"]))


def test_a_nested_gradient_of_a_dict_to_third_order():
    d = {"a": rng.standard_normal(3), "b": rng.standard_normal(2)}
    grads = sg.grad(uses_the_gradient_of_a_dict)(d)
    assert_close(grads["a"], -np.sin(d["a"]) - np.sin(d["a"]) * np.cos(np.cos(d["a"])))
    assert_close(grads["b"], -np.cos(d["b"]) * np.cos(-np.sin(d["b"])))
    assert check_grads(uses_the_gradient_of_a_dict, (d,), order=2)


def test_transformations_of_transformations_of_an_anonymous_lambda():
    # d/dx_k of J[i, j] = d/dx_j (sin(x_i) x_0): the twins of sg.jacobian's results read the
    # lambda under a name generated code can use (its twin was `value = lambda(x)`)
    second = sg.jacobian(sg.jacobian(lambda x: np.sin(x) * x[0]))(X)
    expected = np.zeros((3, 3, 3))
    for i in range(3):
        expected[i, i, i] += -np.sin(X[i]) * X[0]
        expected[i, i, 0] += np.cos(X[i])
        expected[i, 0, i] += np.cos(X[i])
    assert_close(second, expected)

    def uses_a_hessian(x):
        return np.sum(sg.hessian(lambda y: np.sum(y ** 4))(x) * A)  # H = diag(12 y^2)

    assert_close(sg.grad(uses_a_hessian)(X), 24 * X * np.diag(A))


def pair_of(w, x):
    return np.sin(x @ w)


def first_order(w, x, c):
    return np.sum(pair_of(w, x) * c)


first_gradient = sg.grad(first_order, wrt="w")


def second_order(w, x, c, d):
    return np.sum(first_gradient(w, x, c) * d)


second_gradient = sg.grad(second_order, wrt="w")


def third_order(w, x, c, d, e):
    return np.sum(second_gradient(w, x, c, d) * e)


def test_a_third_derivative_through_gradients_of_functions_calling_functions():
    # reported: zero whenever the innermost function calls another user function (so it was
    # on main before issue 13's second-order fixes, 0.0 at every element; this pins it)
    w, x, c, d, e = (rng.standard_normal(shape) for shape in [(3, 2), (4, 3), (4, 2), (3, 2),
                                                               (3, 2)])
    expected = fd_grad(lambda v: third_order(v, x, c, d, e), w)
    assert np.max(np.abs(expected)) > 0.1
    assert_close(sg.grad(third_order, wrt="w")(w, x, c, d, e), expected, rtol=1e-5)
    _, tangent = sg.jvp(third_order, (w, x, c, d, e), (e, None, None, None, None))
    assert_close(tangent, float(np.sum(expected * e)), rtol=1e-5)


def scaled_power(x, p=2.0, scale=1.0):
    return np.sum(scale * x ** p)


SCALED_CUBE = functools.partial(scaled_power, p=3.0, scale=0.5)


def tangent_of_a_partial(x):
    return sg.jvp(SCALED_CUBE, (x,), (V,))[1]


def test_a_tangent_of_a_partial_with_keywords_keeps_them():
    """``sg.jvp`` of a partial binding keywords, inside a function differentiated: the
    keywords went missing from the call of ``jvp_scaled_power`` (its defaults were used:
    the tangent of ``sum(x ** 2)``, silently)."""
    # d/dx (1.5 x**2 . V) = 3 x V
    assert_close(sg.grad(tangent_of_a_partial)(X), 3.0 * X * V)
    assert_close(sg.jvp(tangent_of_a_partial, (X,), (A[0],))[1], float(np.sum(3.0 * X * V * A[0])))
