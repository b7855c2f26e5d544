"""User rules (``@sg.defvjp`` / ``@sg.defjvp``): inlined as readable source when they are one
expression, called otherwise, used by both modes in place of the function's body, and refused
at registration when their signature is wrong."""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad import pipeline
from sourcegrad.rules import registry
from sourcegrad.testing import numerical_jvp

from .fd import assert_close, numerical_grad

rng = np.random.default_rng(21)


# each test registers its own rules (the fixture is conftest.py's)
pytestmark = pytest.mark.usefixtures("restore_the_rule_table")


def softplus(x):
    return np.log1p(np.exp(x))


def softplus_loss(x, w):
    return np.sum(softplus(x * w) ** 2)


def register_softplus():
    @sg.defvjp(softplus)
    def softplus_vjp(g, ans, x):
        return g / (1.0 + np.exp(-x))

    @sg.defjvp(softplus)
    def softplus_jvp(tangents, ans, x):
        return tangents[0] / (1.0 + np.exp(-x))


def test_single_expression_rules_are_inlined_in_both_modes():
    register_softplus()
    reverse = sg.source(softplus_loss, wrt=0)
    forward = sg.source(softplus_loss, wrt=0, mode="forward")
    assert "/ (1.0 + np.exp(-x_times_w))" in reverse
    assert "tangent_x_times_w / (1.0 + np.exp(-x_times_w))" in forward
    assert "softplus_vjp" not in reverse and "softplus_jvp" not in forward


def test_inlined_rules_give_the_right_derivatives():
    register_softplus()
    x, w = rng.standard_normal(3), rng.standard_normal(3)
    assert_close(sg.grad(softplus_loss, wrt=(0, 1))(x, w),
                 (numerical_grad(softplus_loss, (x, w), 0),
                  numerical_grad(softplus_loss, (x, w), 1)))
    t = rng.standard_normal(3)
    _, tangent = sg.jvp(softplus_loss, (x, w), (t, None))
    np.testing.assert_allclose(tangent, numerical_jvp(softplus_loss, (x, w), 0, t), rtol=1e-6)


def clip_unit(x):
    return np.clip(x, -1.0, 1.0)


def test_a_rule_replaces_differentiating_the_body():
    @sg.defvjp(clip_unit)
    def straight_through(g, ans, x):
        return g

    @sg.defjvp(clip_unit)
    def straight_through_jvp(tangents, ans, x):
        return tangents[0]

    def loss(x):
        return np.sum(clip_unit(x) * 3.0)

    x = np.array([-2.0, 0.5, 4.0])  # outside the clip the true derivative is 0
    np.testing.assert_allclose(sg.grad(loss)(x), [3.0, 3.0, 3.0])
    np.testing.assert_allclose(sg.jvp(loss, (x,), (np.ones(3),))[1], 9.0)


def test_a_rule_for_a_numpy_function_the_table_lacks_with_none_tangents():
    del registry.RULES[np.logaddexp2]  # the table has its own (the fixture puts it back)

    @sg.defvjp(np.logaddexp2)
    def logaddexp2_vjp(g, ans, x1, x2):
        return unbroadcast(g * 2 ** (x1 - ans), x1), unbroadcast(g * 2 ** (x2 - ans), x2)

    @sg.defjvp(np.logaddexp2)
    def logaddexp2_jvp(tangents, ans, x1, x2):
        return (0.0 if tangents[0] is None else tangents[0] * 2 ** (x1 - ans)) + (
            0.0 if tangents[1] is None else tangents[1] * 2 ** (x2 - ans))

    def f(a, b):
        return np.sum(np.logaddexp2(a, b) ** 2)

    a, b = rng.standard_normal((2, 3)), rng.standard_normal(3)
    assert_close(sg.grad(f, wrt=(0, 1))(a, b),
                 (numerical_grad(f, (a, b), 0), numerical_grad(f, (a, b), 1)))
    ta = rng.standard_normal((2, 3))
    forward = sg.source(f, wrt=0, mode="forward")
    assert "tangent_a * 2 ** (a - logaddexp2_a)" in forward  # the None branch folded away
    assert "is None" not in forward
    np.testing.assert_allclose(sg.jvp(f, (a, b), (ta, None))[1],
                               numerical_jvp(f, (a, b), 0, ta), rtol=1e-6)


unbroadcast = pipeline.HELPERS["unbroadcast"]


def two_outputs_product(a, b):
    return a * b


def test_a_rule_of_several_statements_is_called_and_none_means_no_derivative():
    @sg.defvjp(two_outputs_product)
    def product_vjp(g, ans, a, b):
        grad_a = g * b
        return grad_a, None

    @sg.defjvp(two_outputs_product)
    def product_jvp(tangents, ans, a, b):
        ta, tb = tangents
        return (0.0 if ta is None else ta * b) + (0.0 if tb is None else a * tb)

    def f(x, y):
        return np.sum(two_outputs_product(x, y))

    x, y = rng.standard_normal(3), rng.standard_normal(3)
    assert "two_outputs_product_vjp_rule(" in sg.source(f, wrt=0)
    np.testing.assert_allclose(sg.grad(f, wrt=0)(x, y), y)
    np.testing.assert_allclose(sg.grad(f, wrt=1)(x, y), np.zeros(3))  # declared: none
    tx, ty = rng.standard_normal(3), rng.standard_normal(3)
    assert "two_outputs_product_jvp_rule((tangent_x, tangent_y)" in sg.source(
        f, wrt=(0, 1), mode="forward")
    np.testing.assert_allclose(sg.jvp(f, (x, y), (tx, ty))[1], np.sum(tx * y + x * ty))


def test_a_rule_with_the_wrong_signature_is_refused_when_registered():
    with pytest.raises(TypeError, match=r"def rule\(g, ans, x\)"):
        @sg.defvjp(softplus)
        def missing_ans(g, x):
            return g

    with pytest.raises(TypeError, match=r"def rule\(tangents, ans, a, b\)"):
        @sg.defjvp(two_outputs_product)
        def too_few(tangents, ans, a):
            return tangents[0]


def test_variadic_rule_signatures_are_accepted():
    @sg.defvjp(two_outputs_product)
    def product_vjp(g, ans, *args, **kwargs):
        return g * args[1], g * args[0]

    def f(x, y):
        return np.sum(two_outputs_product(x, y) ** 2)

    x, y = rng.standard_normal(3), rng.standard_normal(3)
    assert "* y" in sg.source(f, wrt=0)  # args[1] became the call's own argument
    assert_close(sg.grad(f)(x, y), numerical_grad(f, (x, y), 0))
