"""Forward mode (``sg.jvp``) on the control-flow corpus: against central finite differences,
and against reverse mode by the dot-product test ``<jvp(u), v> == <u, vjp(v)>``."""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.testing import numerical_jvp, tree_inner, tree_map

from . import corpus
from .test_reverse import CASES, float_args

rng = np.random.default_rng(5)


def random_like(x):
    return tree_map(lambda leaf: float(rng.standard_normal()) if isinstance(leaf, float)
                    else rng.standard_normal(np.shape(leaf)), x)


def tangents_for(args, argnums):
    return tuple(random_like(a) if i in argnums else None for i, a in enumerate(args))


@pytest.mark.parametrize("name", sorted(CASES))
def test_jvp_matches_finite_differences(name):
    fn = getattr(corpus, name)
    for args in CASES[name]:
        for argnum in float_args(args):
            tangents = tangents_for(args, {argnum})
            value, tangent_out = sg.jvp(fn, args, tangents)
            np.testing.assert_allclose(value, fn(*args))
            expected = numerical_jvp(fn, args, argnum, tangents[argnum])
            np.testing.assert_allclose(tangent_out, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_jvp_along_every_argument_at_once_is_the_sum(name):
    fn = getattr(corpus, name)
    args = CASES[name][-1]
    argnums = float_args(args)
    tangents = tangents_for(args, set(argnums))
    _, together = sg.jvp(fn, args, tangents)
    separately = sum(numerical_jvp(fn, args, i, tangents[i]) for i in argnums)
    np.testing.assert_allclose(together, separately, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_dot_product_of_jvp_and_vjp(name):
    fn = getattr(corpus, name)
    for args in CASES[name]:
        argnums = float_args(args)
        tangents = tangents_for(args, set(argnums))
        _, tangent_out = sg.jvp(fn, args, tangents)
        cotangent = float(rng.standard_normal())  # the corpus functions return scalars
        grads = sg.grad(fn, wrt=tuple(argnums))(*args)
        forward = tree_inner(tangent_out, cotangent)
        reverse = sum(tree_inner(tangents[i], g) * cotangent for i, g in zip(argnums, grads,
                                                                             strict=True))
        np.testing.assert_allclose(forward, reverse, rtol=1e-9, atol=1e-9)


def test_tuple_output_has_a_tuple_tangent():
    x, y = rng.standard_normal(3), rng.standard_normal(3)
    tx = rng.standard_normal(3)
    value, tangent = sg.jvp(corpus.returns_tuple, (x, y), (tx, None))
    np.testing.assert_allclose(tangent[0], tx * y)
    np.testing.assert_allclose(tangent[1], np.cos(x) * tx)


def test_source_forward_mode_shows_tangent_code_with_user_comments():
    text = sg.source(corpus.straight, wrt=(0, 1), mode="forward")
    assert text.startswith("def jvp_straight(x, w, tangent_x, tangent_w):")
    assert "# h = np.tanh(x @ w)" in text
    assert "tangent_h = " in text


def test_inactive_tangents_are_never_materialized():
    text = sg.source(corpus.straight, wrt=0, mode="forward")
    assert "tangent_w" not in text and "zeros_like_grad" not in text


def test_stop_gradient_blocks_the_tangent():
    def f(x):
        return np.sum(sg.stop_gradient(x) * x)

    x, t = rng.standard_normal(3), rng.standard_normal(3)
    _, tangent = sg.jvp(f, (x,), (t,))
    np.testing.assert_allclose(tangent, np.sum(x * t))


def test_list_pop_keeps_the_tangent_list_in_step():
    def f(x):
        items = [x * 2.0, np.sin(x), x ** 3]
        items.pop()
        last = items.pop()
        return np.sum(last * items[0])

    x, t = rng.standard_normal(3), rng.standard_normal(3)
    _, tangent = sg.jvp(f, (x,), (t,))
    np.testing.assert_allclose(tangent, numerical_jvp(f, (x,), 0, t), rtol=1e-6)
    assert "tangent_items.pop()" in sg.source(f, mode="forward")


def test_a_write_through_a_possible_view_is_refused_not_ignored():
    def f(x):
        y = x * 2.0
        v = y.T
        v[0] = x[1]
        return np.sum(y)

    with pytest.raises(sg.UnsupportedSyntaxError, match="view of another array"):
        sg.jvp(f, (rng.standard_normal(3),), (rng.standard_normal(3),))


def test_a_derivative_reaching_a_keyword_argument_without_a_rule_is_an_error():
    def f(x):
        return np.cov(np.arange(3.0), aweights=x * x)

    x = rng.standard_normal(3)
    with pytest.raises(sg.NoDerivativeError, match="cov"):
        sg.jvp(f, (x,), (x,))
    with pytest.raises(sg.NoDerivativeError, match="cov"):
        sg.grad(f)(x)


def _promote_with_a_constant(x):
    a, b = np.atleast_2d(x, np.ones(3))
    return np.sum(a * b * a)


def test_a_variadic_rule_gets_zero_tangents_for_its_constant_operands():
    # np.atleast_2d(x, constant): the constant's tangent is None, a zero, not an array of None
    x, u = np.array([0.5, -1.0, 2.0]), np.array([1.0, 2.0, -1.0])
    assert np.isclose(sg.jvp(_promote_with_a_constant, (x,), (u,))[1], 2 * x @ u)
    assert np.allclose(sg.hessian(_promote_with_a_constant)(x), 2 * np.eye(3))
