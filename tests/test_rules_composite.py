"""The rule table as ``sg.grad`` uses it: functions built on the newer rules (variadic,
list-valued, tuple-returning, keyword-only parameters), differentiated by the transformer and
checked against central differences."""

import math

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.testing import numerical_jvp, tree_inner

V = np.array([0.3, -1.2, 0.8, 2.0])


def einsum_two_operands(x):
    return np.einsum("ij,ij->", x, x) + np.einsum("ij,j->i", x, V).sum()


def hypot_and_sin(x):
    return math.hypot(x, 2.0, x) * math.sin(x)


def atleast_2d_squares(x):
    return np.sum(np.atleast_2d(x[0]) ** 2)


def concatenate_and_split(x):
    a, b = np.split(np.concatenate([x, 2 * x], axis=0), 2, axis=0)
    return np.sum(a * b)


def stack_max_and_norm(x):
    return np.max(np.stack([x, x * x]), axis=0).sum() + np.linalg.norm(x, axis=1).sum()


def cholesky_upper(x):
    return np.sum(np.linalg.cholesky(x @ x.T + np.eye(3), upper=True))


def eigh_and_slogdet(x):
    w, _ = np.linalg.eigh(x @ x.T)
    _, logdet = np.linalg.slogdet(x @ x.T + np.eye(3))
    return np.sum(w ** 2) + logdet


def sort_clip_where(x):
    clipped = np.clip(x, -0.5, 0.5)
    return np.sum(np.sort(x, axis=1) * np.arange(4)) + np.sum(np.where(x > 0, clipped, x * x))


@pytest.mark.parametrize("fn", [einsum_two_operands, atleast_2d_squares, concatenate_and_split,
                                stack_max_and_norm, cholesky_upper, eigh_and_slogdet,
                                sort_clip_where])
def test_grad_of_array_functions_matches_finite_differences(fn):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 4))
    direction = rng.standard_normal((3, 4))
    assert np.isclose(tree_inner(sg.grad(fn)(x), direction),
                      numerical_jvp(fn, [x], 0, direction), rtol=1e-6, atol=1e-8)


def test_grad_through_a_variadic_math_function():
    x = 0.7
    assert np.isclose(sg.grad(hypot_and_sin)(x), numerical_jvp(hypot_and_sin, [x], 0, 1.0),
                      rtol=1e-7)


def nan_skipping_extremes(x):
    return np.sum(np.nanmax(x, axis=0) * 2.0) + np.nanmin(x) + np.sum(np.ptp(x, axis=1) ** 2)


def test_nan_skipping_extremes_ignore_the_nans():
    """A nan ties with nothing: its element gets no cotangent, the others theirs."""
    x = np.array([[0.3, np.nan, -1.0], [1.2, 0.4, np.nan], [np.nan, 2.0, 0.5]])
    gradient = sg.grad(lambda a: np.sum(np.nanmax(a, axis=0) * np.array([1.0, 2.0, 3.0]))
                       + np.nanmin(a))(x)
    expected = np.zeros_like(x)
    expected[1, 0], expected[2, 1], expected[2, 2] = 1.0, 2.0, 3.0  # the column maxima
    expected[0, 2] += 1.0  # the smallest of all
    np.testing.assert_array_equal(gradient, expected)


def test_ptp_against_differences():
    x = np.array([[0.3, -2.0, 1.1], [1.2, 0.4, -0.1]])
    direction = np.array([[0.5, -1.0, 0.2], [0.3, 0.9, -0.4]])
    gradient = sg.grad(nan_skipping_extremes)(x)
    assert np.isclose(np.sum(gradient * direction),
                      numerical_jvp(nan_skipping_extremes, (x,), 0, direction), rtol=1e-6)
