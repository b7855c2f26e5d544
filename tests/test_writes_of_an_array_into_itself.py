"""An array written with itself as the value (``a[::-1] = a``, ``a[:] = a``): found by
probes. The adjoint added the written part's cotangent into the array's own and then
zeroed the part written, wiping what it had just added: a zero gradient in reverse mode
(grad, vjp), where jvp was right. Checked in every mode against central differences."""

import numpy as np
import pytest

import sourcegrad as sg
from tests.fd import assert_close, assert_every_mode_matches_differences, numerical_grad

W = np.arange(12.0).reshape(3, 4)


def reversed_into_itself(x):
    a = x.copy()
    a[::-1] = a
    return np.sum(a * W)


def whole_into_itself(x):
    a = x.copy()
    a[:] = a
    return np.sum(a ** 2 * W)


def columns_reversed_then_rows(x):
    a = x.copy()
    a[:, ::-1] = a
    a[::-1] = a * 2
    return np.sum(a ** 2 * W)


def in_a_loop(x):
    a = x.copy()
    for _ in range(2):
        a[::-1] = a
        a = a * np.cos(a)
    return np.sum(a * W)


def through_another_name_of_the_same_array(x):
    a = x.copy()
    b = a
    a[::-1] = b
    return np.sum(a * W)


PROGRAMS = [reversed_into_itself, whole_into_itself, columns_reversed_then_rows, in_a_loop,
            through_another_name_of_the_same_array]
X = np.random.default_rng(3).standard_normal((3, 4))


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_every_mode_matches_differences(f):
    assert_every_mode_matches_differences(f, X.copy(), np.linspace(-1.0, 1.0, 12).reshape(3, 4))


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_vjp_matches_differences(f):
    value, pullback = sg.vjp(f, X.copy())
    assert_close(pullback(1.0)[0], numerical_grad(f, (X.copy(),), 0))


def test_hessian_matches_differences_of_the_gradient():
    f = columns_reversed_then_rows
    expected = np.zeros((3, 4, 3, 4))
    for i, j in np.ndindex(3, 4):
        expected[i, j] = numerical_grad(lambda v, i=i, j=j: sg.grad(f)(v)[i, j], (X.copy(),), 0)
    assert_close(sg.hessian(f)(X.copy()), expected, rtol=1e-4, atol=1e-5)
