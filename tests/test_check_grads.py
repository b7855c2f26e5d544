"""``sourcegrad.testing.check_grads``: passes on what sourcegrad differentiates correctly, and
catches a wrong user rule in the mode that uses it, at first and second order."""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.testing import check_grads

from . import corpus
from .test_higher import affine_tanh, branched, recurrence, stacked

rng = np.random.default_rng(8)


@pytest.mark.parametrize(("fn", "args"), [
    (corpus.straight, [rng.standard_normal((3, 4)), rng.standard_normal((4, 2))]),
    (affine_tanh, [rng.standard_normal(3), rng.standard_normal((4, 3))]),
    (recurrence, [rng.standard_normal(3) * 0.3, 3]),
    (branched, [rng.standard_normal(3)]),
    (corpus.scalar_math, [0.7, 0.3]),
])
def test_correct_derivatives_pass_to_second_order(fn, args):
    assert check_grads(fn, args, order=2)


def test_third_order_through_a_loop_and_a_list():
    assert check_grads(stacked, [rng.standard_normal(3)], order=3)


def cube(x):
    return x * x * x


def uses_cube(x):
    return np.sum(cube(x) + x)


def test_a_wrong_vjp_fails_the_reverse_check(restore_the_rule_table):
    @sg.defvjp(cube)
    def wrong_vjp(g, ans, x):
        return g * 2.0 * x * x  # should be 3 x**2

    @sg.defjvp(cube)
    def right_jvp(tangents, ans, x):
        return tangents[0] * 3.0 * x * x

    x = rng.standard_normal(3)
    assert check_grads(uses_cube, [x], modes=("fwd",), order=1)
    with pytest.raises(AssertionError, match="sg.vjp of uses_cube"):
        check_grads(uses_cube, [x], modes=("rev",), order=1)


def test_a_wrong_jvp_fails_the_forward_check(restore_the_rule_table):
    @sg.defjvp(cube)
    def wrong_jvp(tangents, ans, x):
        return tangents[0] * 3.0 * x

    with pytest.raises(AssertionError, match="sg.jvp of uses_cube"):
        check_grads(uses_cube, [rng.standard_normal(3)], modes=("fwd",), order=1)


def test_a_rule_right_to_first_order_only_fails_at_second_order(restore_the_rule_table):
    @sg.defjvp(cube)
    def frozen_slope(tangents, ans, x):
        # the right value at this x, but its derivative in x is wrong: a constant slope
        return tangents[0] * 3.0 * sg.stop_gradient(x) ** 2

    x = rng.standard_normal(3)
    assert check_grads(uses_cube, [x], modes=("fwd",), order=1)
    with pytest.raises(AssertionError, match="order 1"):
        check_grads(uses_cube, [x], modes=("fwd",), order=2)


def test_modes_are_checked():
    with pytest.raises(ValueError, match="modes"):
        check_grads(uses_cube, [rng.standard_normal(3)], modes=("sideways",))


def softened(x, y, temperature=2.0, *, power=3.0):
    return np.sum(np.tanh(x / temperature) * y ** power)


def test_second_order_of_a_function_with_defaults_through_the_public_api():
    """Order 2 differentiates ``lambda a0, a1: sg.jvp(f, (a0, a1), (u0, u1))[1]``, which any
    signature allows (the generated ``jvp_f`` of a function with defaults takes its tangents
    by keyword only: checking it directly was refused with a ValueError)."""
    assert check_grads(softened, [rng.standard_normal(3), rng.standard_normal(3)], order=2)
