"""Jacobians with an empty output or an empty argument (found by probes): a Jacobian of
shape ``(0, 3)`` or ``(3, 0)`` is a valid, empty answer, where sg.jacobian raised
``ValueError: need at least one array to stack`` (reverse mode, empty output) or
``TypeError: ... missing 1 required positional argument: 'tangent_x'`` (forward mode,
empty argument)."""

import numpy as np

import sourcegrad as sg
from tests.fd import assert_close


def first_none(x):
    return x[:0] * 2.0


def scaled_by_the_sum(x):
    return np.sum(x ** 2) * x


def test_an_empty_output_has_an_empty_jacobian():
    assert_close(sg.jacobian(first_none)(np.ones(3)), np.zeros((0, 3)))
    assert_close(sg.jacobian(first_none)(np.ones((2, 3))), np.zeros((0, 3, 2, 3)))


def test_an_empty_argument_has_an_empty_jacobian():
    assert_close(sg.jacobian(scaled_by_the_sum)(np.ones(0)), np.zeros((0, 0)))
    assert_close(sg.jacobian(lambda x: np.sum(x ** 2))(np.ones(0)), np.zeros((0,)))
    assert_close(sg.hessian(lambda x: np.sum(x ** 3))(np.ones((0, 2))), np.zeros((0, 2, 0, 2)))


def test_a_jacobian_after_an_empty_one_is_right():
    jac = sg.jacobian(scaled_by_the_sum)
    jac(np.ones(0))
    x = np.array([0.5, -1.0])
    expected = 2 * np.outer(x, x) + np.sum(x ** 2) * np.eye(2)
    assert_close(jac(x), expected)
