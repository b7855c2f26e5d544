"""Second derivatives (``sg.hessian``: forward mode over the gradient's code) that were wrong
or refused though the gradient was right, found by probing each family of Python semantics
against central finite differences. Each Hessian here is checked against differences of
finite-difference gradients, in float64, at points on both sides of zero."""

import numpy as np
import pytest

import sourcegrad as sg

from .fd import numerical_grad

POINTS = [np.array([0.3, -0.4, 0.8]), np.array([-0.9, 0.2, -0.5])]
STEP = 1e-4


def hessian_by_differences(f, x):
    """Central differences of the finite-difference gradient, row by row."""
    rows = []
    for i in range(x.size):
        step = np.zeros_like(x)
        step[i] = STEP
        plus = numerical_grad(f, (x + step,), 0)
        minus = numerical_grad(f, (x - step,), 0)
        rows.append((plus - minus) / (2 * STEP))
    return np.array(rows)


# -- an integer exponent held in a variable: its zero tangent times log(negative base) ----
def powered(v, power=2):
    return np.sum(v ** power)


def integer_exponent_by_keyword(x):
    return powered(x, power=3)


def integer_exponent_by_default(x):
    return powered(x) * np.sum(x)


def float_exponent_in_a_variable(x):
    p = 3.0
    return np.sum(np.sin(x) * x ** p)


def exponent_in_a_helper_variable(x):
    def cube(v):
        k = 3
        return v ** k
    return np.sum(cube(x) * x)


# -- a gradient whose code writes into an array it restores (`y[0] *= x`) ----------------
def broadcast_then_row_updated(x):
    y = np.zeros((2, 3))
    y += x
    y[0] *= x
    return np.sum(y * y)


def rows_and_columns_updated(x):
    y = np.outer(x, x)
    y[1] = np.sin(y[1]) * x
    y[:, 0] += x ** 2
    return np.sum(y ** 2)


def diagonal_updated_in_a_loop(x):
    y = np.ones((3, 3)) * x
    for i in range(3):
        y[i] *= x[i]
        y[i, i] = y[i, i] ** 2
    return np.sum(y * np.cos(y))


# -- a list's slice written (`a[1:] = [...]`): its tangent is a list, not 0.0 ---------------
def list_slice_written(x):
    a = [x[0], x[1], x[2]]
    a[1:] = [a[0] * 2, a[1] * 3]
    return a[0] * a[1] * a[2]


def list_slice_written_with_constants(x):
    a = [x[0], x[1], x[2]]
    a[:2] = [1.0, 2.0]
    return a[0] * a[1] * a[2] * x[0]


FUNCTIONS = [list_slice_written, list_slice_written_with_constants,
             integer_exponent_by_keyword, integer_exponent_by_default,
             float_exponent_in_a_variable, exponent_in_a_helper_variable,
             broadcast_then_row_updated, rows_and_columns_updated, diagonal_updated_in_a_loop]


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("point", range(len(POINTS)))
def test_hessian_matches_differences(f, point):
    x = POINTS[point]
    with np.errstate(invalid="ignore"):  # log of a negative base, multiplied by a zero
        got = sg.hessian(f)(x.copy())
    np.testing.assert_allclose(got, hessian_by_differences(f, x), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_gradient_matches_differences(f):
    for x in POINTS:
        np.testing.assert_allclose(sg.grad(f)(x.copy()), numerical_grad(f, (x,), 0),
                                   rtol=1e-5, atol=1e-6)


def test_a_moving_exponent_keeps_its_derivative():
    """The exponent's own derivative, ``x ** p * log(x)``, is still there where it moves."""
    x = np.array([0.3, 0.5, 1.7])
    p = np.array([2.0, 1.5, 3.0])
    direction = np.array([0.2, -0.7, 1.1])
    _, tangent = sg.jvp(power_of_two_arguments, (x, p), (np.zeros(3), direction))
    np.testing.assert_allclose(tangent, np.sum(x ** p * np.log(x) * direction), rtol=1e-10)


def power_of_two_arguments(x, p):
    return np.sum(x ** p)


@pytest.mark.parametrize("f", [list_slice_written, list_slice_written_with_constants],
                         ids=lambda f: f.__name__)
def test_jvp_of_a_list_slice_written(f):
    x = POINTS[1]
    direction = np.array([0.7, -0.2, 0.4])
    value, tangent = sg.jvp(f, (x.copy(),), (direction,))
    np.testing.assert_allclose(value, f(x))
    np.testing.assert_allclose(tangent, numerical_grad(f, (x,), 0) @ direction, rtol=1e-6)
