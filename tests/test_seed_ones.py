"""The specialised gradient of a sum does not multiply by the seed's ones
(``sourcegrad/jit/seed_ones.py``): where ``grad_a = ones * b`` is ``b`` bit for bit and ``b``
dies there, ``b`` is read instead. The variant must equal the general code bit for bit, never
write into an argument or hand one back as a gradient, and keep the argument's dtype."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg
from sourcegrad import specialisation

from .fd import assert_close, numerical_grad


def sine_window(x):
    return np.sum(np.sin(x) * np.exp(-0.5 * x * x))


def sine_cosine(x):
    return np.sum(np.sin(x) * np.cos(x))


def times_argument(x):
    return np.sum(x * np.sin(x))  # one factor is the argument itself: it must not be reused


def three_factors(x, y):
    return np.sum(np.tanh(x) * np.cos(y) * np.exp(x))


def two_sums(x):
    return np.sum(np.sin(x) * np.cos(x)) + np.sum(np.exp(x) * np.tanh(x))


def product_read_twice(x):
    s = np.sin(x)
    return np.sum(s * np.cos(x)) + np.sum(s)


def broadcast_factors(x, y):
    return np.sum(np.sin(x) * np.cos(y))


def square_of_product(x):
    p = np.sin(x) * np.cos(x)
    return np.sum(p * p)


FAMILY = [
    (sine_window, ((7,),)), (sine_cosine, ((7,),)), (times_argument, ((3, 4),)),
    (three_factors, ((5,), (5,))), (two_sums, ((6,),)), (product_read_twice, ((4,),)),
    (broadcast_factors, ((3, 1), (1, 4))), (square_of_product, ((5,),)),
]


def arguments(shapes, dtype=np.float64, seed=0):
    rng = np.random.default_rng(seed)
    return tuple(rng.uniform(-2.0, 2.0, shape).astype(dtype) for shape in shapes)


def check_variant(fn, args):
    wrt = tuple(range(len(args)))
    g = sg.grad(fn, wrt=wrt)
    originals = [a.copy() for a in args]
    general = specialisation.general_of(g)(*args)
    first, second = g(*args), g(*args)  # the second call runs the variant
    for got in (first, second):
        for mine, theirs, arg in zip(got, general, args, strict=True):
            assert mine.dtype == theirs.dtype == arg.dtype
            np.testing.assert_array_equal(mine, theirs)  # bit for bit
            assert not np.shares_memory(mine, arg)
    for arg, original in zip(args, originals, strict=True):
        np.testing.assert_array_equal(arg, original)  # no argument written into
    return g, second


@pytest.mark.parametrize("fn, shapes", FAMILY, ids=[f.__name__ for f, _ in FAMILY])
def test_the_variant_equals_the_general_code_and_finite_differences(fn, shapes):
    args = arguments(shapes)
    _, grads = check_variant(fn, args)
    for i, got in enumerate(grads):
        assert_close(got, numerical_grad(fn, args, i), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("fn, shapes", FAMILY, ids=[f.__name__ for f, _ in FAMILY])
def test_float32_arguments_keep_their_dtype(fn, shapes):
    check_variant(fn, arguments(shapes, np.float32))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_factor_that_dies_is_read_instead_of_multiplied_by_ones(dtype):
    args = arguments(((6,),), dtype)
    g, _ = check_variant(sine_window, args)
    source = g.specialised_source(*args)
    assert "broadcast_to" not in source and "grad_sine_window_value" not in source
    assert "np.multiply(sin_x, exp_neg_c_times_x_times, out=sin_x)" in source


def test_an_argument_factor_is_still_multiplied():
    """``grad_sin_x = ones * x``: ``x`` is the caller's array, so the product stays a new
    array (later added into in place)."""
    args = arguments(((3, 4),))
    g, _ = check_variant(times_argument, args)
    assert "broadcast_to" in g.specialised_source(*args)


def test_factors_of_other_shapes_are_still_multiplied():
    args = arguments(((3, 1), (1, 4)))
    g, _ = check_variant(broadcast_factors, args)
    assert "broadcast_to" in g.specialised_source(*args)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 5), seed=st.integers(0, 2**16),
       dtype=st.sampled_from([np.float64, np.float32]),
       which=st.sampled_from(range(len(FAMILY))))
def test_drawn_sizes_and_values(n, seed, dtype, which):
    fn, shapes = FAMILY[which]
    shapes = tuple(tuple(n if d > 1 else 1 for d in shape) for shape in shapes)
    check_variant(fn, arguments(shapes, dtype, seed))
