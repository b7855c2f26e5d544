"""The specialised derivative of a constant times a square (``sourcegrad/jit/squares.py``):
``c * x * x``'s two cotangents of ``x`` become one doubled (to rounding), and ``x * x``'s
(bit for bit). Checked against the general code, finite differences, and what must not be
folded: another constant, another variable, a variable rebound in between."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg
from sourcegrad import specialisation

from .fd import assert_close, numerical_grad


def gaussian(x):
    return np.sum(np.sin(x) * np.exp(-0.5 * x * x))


def scaled_square_right(x):
    return np.sum(np.tanh(x * (3.0 * x)))


def scaled_square_left(x):
    return np.sum(np.cos(x * 1.7 * x))


def integer_scale(x):
    return np.sum(np.sin(3 * x * x))


def plain_square(x):
    return np.sum(np.sin(x) * (x * x))


def square_then_scale(x, lam):
    return np.sum(np.sin(x)) + lam * np.sum(x * x * 0.5)


def other_constant(x):
    n = 0.5 * x
    m = 3.0 * n  # n's cotangent is scaled by 0.5 here, m's by 3.0: nothing to fold
    return np.sum(np.sin(n * x) + m * x)


def other_variable(x, y):
    return np.sum(np.sin(-0.5 * x * y))


def rebound_between(x):
    n = 2.0 * x
    x = np.sin(x)
    return np.sum(np.exp(n * x))


def square_in_a_loop(x, steps):
    total = 0.0
    for _ in range(steps):
        x = np.tanh(x)
        total = total + np.sum(0.25 * x * x)
    return total


FOLDED = [gaussian, scaled_square_right, scaled_square_left, integer_scale, plain_square,
          square_then_scale]
FAMILY = [*FOLDED, other_constant, other_variable, rebound_between, square_in_a_loop]


def arguments(fn, n, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.5, 1.5, n).astype(dtype)
    if fn is other_variable:
        return x, rng.uniform(-1.5, 1.5, n).astype(dtype)
    if fn is square_then_scale:
        return x, 0.3
    if fn is square_in_a_loop:
        return x, 3
    return (x,)


def check_variant(fn, args, rtol):
    g = sg.grad(fn)
    original = args[0].copy()
    general = specialisation.general_of(g)(*args)
    first, second = g(*args), g(*args)  # the second call runs the variant
    for got in (first, second):
        assert got.dtype == general.dtype == args[0].dtype
        assert_close(got, general, rtol=rtol, atol=rtol)
    np.testing.assert_array_equal(args[0], original)
    return g, second


@pytest.mark.parametrize("fn", FAMILY, ids=[f.__name__ for f in FAMILY])
def test_the_variant_equals_the_general_code_and_finite_differences(fn):
    args = arguments(fn, 7)
    _, grad = check_variant(fn, args, rtol=1e-13)
    assert_close(grad, numerical_grad(fn, args, 0), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("fn", FOLDED, ids=[f.__name__ for f in FOLDED])
def test_the_two_cotangents_are_one_doubled(fn):
    args = arguments(fn, 5)
    g, _ = check_variant(fn, args, rtol=1e-13)
    assert "*= 2" in g.specialised_source(*args)


@pytest.mark.parametrize("fn", [other_constant, other_variable, rebound_between],
                         ids=lambda f: f.__name__)
def test_what_is_not_a_square_is_not_folded(fn):
    args = arguments(fn, 5)
    g, _ = check_variant(fn, args, rtol=1e-13)
    assert "*= 2" not in g.specialised_source(*args)


def test_the_square_of_a_value_is_doubled_bit_for_bit():
    args = arguments(plain_square, 9)
    g = sg.grad(plain_square)
    np.testing.assert_array_equal(g(*args), specialisation.general_of(g)(*args))
    assert "*= 2" in g.specialised_source(*args)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 6), seed=st.integers(0, 2**16),
       dtype=st.sampled_from([np.float64, np.float32]),
       which=st.sampled_from(range(len(FAMILY))))
def test_drawn_sizes_values_and_dtypes(n, seed, dtype, which):
    fn = FAMILY[which]
    check_variant(fn, arguments(fn, n, dtype, seed), rtol=1e-12 if dtype == np.float64 else 1e-5)
