"""A comprehension's variable is its own (Python 3): ``[np.sin(x) for x in ws]`` leaves the
function's ``x`` alone. Before the fix, the comprehension became a loop in the function's
scope that overwrote ``x``, and every mode returned the derivative of other code, silently.
Each function here is checked in every mode against finite differences."""

import numpy as np
import pytest

import sourcegrad as sg

from .fd import assert_close, numerical_grad

WS = [np.array([1.0, 2.0]), np.array([0.5, 0.1])]
ws = WS  # a global a comprehension variable shadows below


def parameter_shadowed(x):
    ys = [np.sin(x) * 2 for x in WS]
    return np.sum(x * ys[0]) + np.sum(x ** 2)


def first_iter_reads_the_parameter(x):
    return np.sum(x) * sum([np.sum(x) for x in [x, x * 2]])


def nested_comprehensions_with_one_name(x):
    rows = [x, x * 3]
    t = [np.sum(x) * sum([np.sum(x ** 2) for x in [x, x + 1]]) for x in rows]
    return t[0] + t[1] * np.sum(x)


def generator_in_a_call(x):
    s = sum(np.sum(np.tanh(x)) for x in WS)
    return s * np.sum(x)


def dict_comprehension(x):
    d = {x: len(x) * 2.0 for x in ["a", "bb"]}
    e = {k: x * k for k in range(1, 3)}
    k = 5.0
    return np.sum(e[2] * x) * d["bb"] * k


def global_shadowed(x):
    t = [np.sum(ws * 2) for ws in [x, x * 2]]
    return t[0] + t[1] + np.sum(ws[0] * x)


def loop_variable_shadowed(x):
    total = 0.0
    for i in range(2):
        total = total + sum([np.sum(x * i) for i in range(3)]) * i
    return total * np.sum(x)


def inside_a_nested_function(x):
    def inner(x):
        return np.sum([np.sin(x) for x in [x, x * 2]][1])
    return inner(x * 3) * np.sum(x)


def side_by_side(x):
    a = [np.sum(r * x) for r in WS]
    b = [np.sum(np.cos(r) * x) for r in WS]
    return a[0] * b[1] + a[1]


FUNCTIONS = [parameter_shadowed, first_iter_reads_the_parameter,
             nested_comprehensions_with_one_name, generator_in_a_call, dict_comprehension,
             global_shadowed, loop_variable_shadowed, inside_a_nested_function, side_by_side]
X = np.array([0.3, -0.7])


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_reverse_and_forward_mode_see_the_functions_variable(f):
    expected = numerical_grad(f, (X,), 0)
    value, gradient = sg.value_and_grad(f)(X)
    assert_close(value, f(X))
    assert_close(gradient, expected)
    direction = np.array([0.4, 1.3])
    value, tangent = sg.jvp(f, (X,), (direction,))
    assert_close(value, f(X))
    assert_close(tangent, expected @ direction)


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
def test_second_order_and_the_runtime_see_it_too(f):
    """The generated derivative holds comprehensions of its own (``[unbroadcast(g, x) for x
    in items]``), which differentiating it again turns into loops."""
    first = sg.grad(f)
    rows = [numerical_grad(lambda z, i=i: first(z)[i], (X,), 0) for i in range(X.size)]
    assert_close(sg.hessian(f)(X), np.stack(rows))
    leaf = sg.tensor(X, requires_grad=True)
    sg.differentiable(f)(leaf).backward()
    assert_close(leaf.grad.numpy(), numerical_grad(f, (X,), 0))


def test_a_variable_no_other_code_uses_keeps_its_name():
    source = sg.source(side_by_side)
    assert "for i in range(len(WS)):\n" in source
    assert "        r = WS[i]\n" in source
    assert "r_2" not in source


def test_a_shadowing_variable_is_renamed_in_the_generated_code():
    source = sg.source(parameter_shadowed)
    assert "x_2 = WS[i]" in source
    assert "np.sin(x_2) * 2" in source
