"""Parameters that take a float computed from the inputs, where the derivative was silently
dropped: a float ``ddof`` of ``np.var``/``np.std`` (it divides: ``var = s / (n - ddof)``),
the ``start`` and ``step`` of ``np.arange`` (each value is ``start + i * step``), and the
fill value of ``np.full`` when the shape is a number (its cotangent was not summed over
the filled array). A float ``ord`` of a norm has no rule: a clear error, not a zero."""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.errors import NoDerivativeError

from .fd import assert_every_mode_matches_differences


def var_with_float_ddof(x):
    return np.var(x, ddof=x[0])


def std_with_float_ddof(x):
    return np.std(x, ddof=0.5 * x[1])


def var_over_an_axis(x):
    m = np.reshape(x, (2, 3))
    return np.sum(np.var(m, axis=1, ddof=x[2], keepdims=True) ** 2)


def std_over_an_axis(x):
    m = np.reshape(x, (2, 3))
    return np.sum(np.sin(np.std(m, axis=0, ddof=x[0] / 4)))


def arange_from_a_start(x):
    return np.sum(np.arange(x[0], 5.0) * x[1])


def arange_by_a_step(x):
    return np.sum(np.sin(np.arange(0.0, 2.0, x[1])))


def arange_of_a_stop(x):
    # np.arange(stop): the values 0, 1, 2... do not move with the stop
    return np.sum(np.arange(x[2] + 2.0) * x[0])


def full_of_a_number(x):
    return np.sum(np.full(6, x[0]) * x) + np.sum(np.full(np.size(x), x[1]) * x)


def full_of_a_shape(x):
    return np.sum(np.full((2, 3), x[1]) ** 2)


def full_like_of_a_value(x):
    return np.sum(np.full_like(x, x[2]) * np.cos(x))


FAMILY = [var_with_float_ddof, std_with_float_ddof, var_over_an_axis, std_over_an_axis,
          arange_from_a_start, arange_by_a_step, arange_of_a_stop, full_of_a_number,
          full_of_a_shape, full_like_of_a_value]


@pytest.mark.parametrize("f", FAMILY, ids=lambda f: f.__name__)
def test_every_mode_matches_finite_differences(f):
    # (x[0] and x[1] keep clear of the points where a count changes: arange's length)
    x = np.array([0.35, 0.45, 1.3, -0.8, 0.6, 2.1])
    assert_every_mode_matches_differences(f, x, np.linspace(-1.0, 1.0, x.size))


@pytest.mark.parametrize("f", FAMILY, ids=lambda f: f.__name__)
def test_the_specialised_variant_agrees(f):
    x = np.array([0.35, 0.45, 1.3, -0.8, 0.6, 2.1])
    g = sg.grad(f)
    first = g(x)
    np.testing.assert_allclose(g(x), first, rtol=1e-12)


def vector_norm_of_a_float_order(x):
    return np.linalg.norm(x, ord=2.0 + x[0] ** 2)


def test_a_float_order_of_a_norm_is_refused_with_its_line():
    with pytest.raises(NoDerivativeError) as error:
        sg.grad(vector_norm_of_a_float_order)(np.array([0.5, 1.0, 2.0]))
    message = str(error.value)
    assert "ord" in message and "np.linalg.norm(x, ord=2.0 + x[0] ** 2)" in message
