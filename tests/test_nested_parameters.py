"""A nested function's call binds its arguments as Python binds them: keyword-only
parameters (given or left at their defaults), positional-only ones, defaults computed when
the ``def`` runs. Inlining once bound only the plain positional parameters: a keyword-only
argument was dropped (its default used instead, or the name left unbound). Each function is
checked in every mode against central finite differences in float64."""

import numpy as np
import pytest

import sourcegrad as sg

from .fd import assert_close, assert_every_mode_matches_differences, numerical_grad

POINTS = [np.array([0.3, -0.4, 0.8]), np.array([-0.9, 0.2, -0.5])]
DIRECTION = np.array([0.7, -0.2, 0.4])


def keyword_only_given(x):
    def g(v, *, w=None):
        if w is None:
            w = v
        return np.sum(v * w)
    return g(x, w=np.sin(x))


def keyword_only_left_at_its_default(x):
    def g(v, *, w=None):
        if w is None:
            w = v
        return np.sum(v * w)
    return g(x)


def keyword_only_both_ways(x):
    def g(v, *, w=None):
        if w is None:
            w = v
        return np.sum(v * w)
    return g(x) + g(x, w=np.sin(x))


def keyword_only_without_a_default(x):
    def g(v, *, w):
        return np.sum(v * w)
    return g(x, w=x ** 2)


def keyword_only_default_computed_at_the_def(x):
    a = x * 2
    def g(v, *, s=a):
        return np.sum(v * s)
    a = np.sin(x)
    return g(x) * np.sum(a)


def positional_only(x):
    def g(v, /, w=2.0):
        return np.sum(v * w)
    return g(x, w=np.cos(x)) + g(x)


def lambda_with_a_keyword_only_parameter(x):
    scaled = lambda v, *, s=3.0: v * s  # noqa: E731
    return np.sum(scaled(x, s=x) + scaled(x))


FUNCTIONS = [keyword_only_given, keyword_only_left_at_its_default, keyword_only_both_ways,
             keyword_only_without_a_default, keyword_only_default_computed_at_the_def,
             positional_only, lambda_with_a_keyword_only_parameter]


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("point", range(len(POINTS)))
def test_every_mode_matches_differences(f, point):
    assert_every_mode_matches_differences(f, POINTS[point].copy(), DIRECTION.copy())


def test_second_derivative_of_a_keyword_only_argument():
    f = keyword_only_given
    x = POINTS[0]
    rows = []
    for i in range(x.size):
        step = np.zeros_like(x)
        step[i] = 1e-4
        rows.append((numerical_grad(f, (x + step,), 0) - numerical_grad(f, (x - step,), 0))
                    / 2e-4)
    np.testing.assert_allclose(sg.hessian(f)(x.copy()), np.array(rows), rtol=1e-4, atol=1e-4)


def unknown_keyword(x):
    def g(v, w=1.0):
        return np.sum(v * w)
    return g(x, ww=3.0)


def keyword_given_twice(x):
    def g(v, w=1.0):
        return np.sum(v * w)
    return g(x, 2.0, w=3.0)


def positional_only_by_keyword(x):
    def g(v, /):
        return np.sum(v)
    return g(v=x)


@pytest.mark.parametrize("f", [unknown_keyword, keyword_given_twice,
                               positional_only_by_keyword], ids=lambda f: f.__name__)
def test_a_call_python_rejects_is_refused(f):
    with pytest.raises(TypeError):
        f(POINTS[0])
    with pytest.raises(sg.UnsupportedSyntaxError, match="call of the nested function `g`"):
        sg.grad(f)(POINTS[0])


# -- which definition a call runs, and a nested function used as a value -----------------
def defined_in_both_branches(x):
    if x[0] > 0:
        def g(v):
            return v * 2
    else:
        def g(v):
            return v * 3
    return np.sum(g(x) * x)


def redefined_in_a_branch(x):
    g = lambda v: v * 2  # noqa: E731
    if x[0] > 0:
        g = lambda v: v * 3  # noqa: E731
    return np.sum(g(x) * x)


def stored_in_a_loop(x):
    fs = []
    for i in range(3):
        def g(v):
            return v * i  # noqa: B023 (late binding is the point)
        fs.append(g)
    return np.sum(fs[0](x) + fs[1](x) * x)


def passed_as_a_key(x):
    def negated(v):
        return -v
    values = sorted([x[0] * 2, x[1], x[2] ** 2], key=negated)
    return values[0] * 3 + values[1] * 2 + values[2]


@pytest.mark.parametrize("f, what", [
    (defined_in_both_branches, "defining the nested function `g` in two places"),
    (redefined_in_a_branch, "defining the nested function `g` in two places"),
    (stored_in_a_loop, "using the nested function `g` as a value"),
    (passed_as_a_key, "using the nested function `negated` as a value"),
], ids=lambda v: getattr(v, "__name__", ""))
@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_a_nested_function_that_inlining_cannot_follow_is_refused(f, what, mode):
    with pytest.raises(sg.UnsupportedSyntaxError, match=what) as error:
        sg.source(f, mode=mode)
    assert error.value.filename == __file__


def redefined_in_sequence(x):
    def g(v):
        return v * 2
    a = g(x)
    def g(v):  # noqa: F811
        return v * np.sin(v)
    return np.sum(a * g(x))


def defined_in_a_loop_and_called_there(x):
    t = 0.0
    for i in range(3):
        def g(v):
            return v * i  # noqa: B023
        t = t + np.sum(g(x) * x)
    return t


@pytest.mark.parametrize("f", [redefined_in_sequence, defined_in_a_loop_and_called_there],
                         ids=lambda f: f.__name__)
def test_a_definition_in_one_place_is_still_differentiated(f):
    x = POINTS[0]
    assert_close(sg.grad(f)(x.copy()), numerical_grad(f, (x,), 0))
