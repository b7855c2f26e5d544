"""Jacobians (both modes), Hessians and Hessian-vector products (forward over reverse), and
derivatives of derivatives, against central finite differences."""

import math

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.testing import numerical_jacobian

from . import corpus
from .golden_functions import mlp_loss, rnn_loss
from .test_reverse import CASES as CORPUS_CASES

rng = np.random.default_rng(11)


def r(*shape):
    return rng.standard_normal(shape)


# -- vector-valued functions for Jacobians ----------------------------------------------------
def affine_tanh(x, W):
    return np.tanh(W @ x + 0.5)


def expand(x):
    return np.concatenate([np.sin(x), x ** 2, np.exp(x)])


def cumulative(x):
    return np.cumsum(x * x)


def softmax(x):
    e = np.exp(x - np.max(x))
    return e / np.sum(e)


def recurrence(x, n):
    h = x
    for _ in range(n):
        h = np.tanh(h * 1.3 + np.sum(h))
    return h


def piecewise(x):
    if np.sum(x) > 0:
        y = x * np.sum(x ** 2)
    else:
        y = np.sin(x) * 2.0
    return y


JACOBIAN_CASES = {
    "affine_tanh": (affine_tanh, (r(3), r(4, 3))),
    "expand": (expand, (r(2),)),
    "cumulative": (cumulative, (r(4),)),
    "softmax": (softmax, (r(5),)),
    "recurrence": (recurrence, (r(3) * 0.3, 3)),
    "piecewise_positive": (piecewise, (np.abs(r(3)) + 0.1,)),
    "piecewise_negative": (piecewise, (-np.abs(r(3)) - 0.1,)),
    "scalar_output": (corpus.straight, (r(3, 4), r(4, 2))),
}


def row_norms(X):
    return np.sqrt(np.sum(X * X, axis=1))


def outer_square(x):
    return np.outer(x, x) * np.sin(x)


def while_scaled(x):
    y = x * 1.0
    while np.sum(y * y) < 10.0:
        y = y * 1.5 + 0.1
    return y


def weighted_sort(x):
    return np.sort(x) * np.arange(1.0, 4.0)


JACOBIAN_CASES["matrix_input"] = (row_norms, (r(3, 2),))
JACOBIAN_CASES["matrix_output"] = (outer_square, (r(3),))
JACOBIAN_CASES["while_loop"] = (while_scaled, (np.array([0.4, -0.3]),))
JACOBIAN_CASES["sort"] = (weighted_sort, (np.array([0.3, -1.2, 0.7]),))


@pytest.mark.parametrize("mode", ["forward", "reverse", None])
@pytest.mark.parametrize("name", sorted(JACOBIAN_CASES))
def test_jacobian_matches_finite_differences(name, mode):
    fn, args = JACOBIAN_CASES[name]
    jac = sg.jacobian(fn, wrt=0, mode=mode)(*args)
    expected = numerical_jacobian(fn, args, 0)
    assert isinstance(jac, np.ndarray)
    assert jac.shape == np.shape(fn(*args)) + np.shape(args[0])
    np.testing.assert_allclose(jac, expected, rtol=1e-5, atol=1e-6)


def test_jacobian_with_respect_to_several_arguments():
    x, W = r(3), r(4, 3)
    jx, jW = sg.jacobian(affine_tanh, wrt=(0, 1))(x, W)
    np.testing.assert_allclose(jx, numerical_jacobian(affine_tanh, (x, W), 0), atol=1e-6)
    np.testing.assert_allclose(jW, numerical_jacobian(affine_tanh, (x, W), 1), atol=1e-6)


def test_jacobian_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="mode"):
        sg.jacobian(expand, mode="sideways")


# -- scalar functions for Hessians --------------------------------------------------------------
def quartic(x):
    return np.sum(x ** 4) + np.prod(x[:2]) * x[2]


def log_sum_exp(x):
    m = np.max(x)
    return m + np.log(np.sum(np.exp(x - m)))


def quadratic_form(x, A):
    return 0.5 * x @ A @ x + np.sum(np.sin(x))


def logistic(w, X, y):
    z = X @ w
    return np.mean(np.logaddexp(0.0, z) - y * z)


def looped(x, n):
    acc = 0.0
    for i in range(n):
        acc = acc + np.sum(np.tanh(x * (i + 1)) ** 2)
    return acc


def carried(x):
    h = x
    for _ in range(3):
        h = np.sin(h) * h
    return np.sum(h)


def branched(x):
    if np.sum(x) > 0:
        y = np.exp(x) * x
    else:
        y = x ** 3
    return np.sum(y * y)


def with_while(x):
    y = x
    while np.sum(y * y) < 50.0:
        y = y * 1.5 + np.sin(y)
    return np.sum(y ** 2)


def stacked(x):
    hs = []
    h = x
    for _ in range(3):
        h = np.tanh(h) + 0.1 * x
        hs.append(h)
    return np.sum(np.stack(hs) ** 2)


def stacked_twice(x):
    """The list's gradient arrives from two uses: reverse mode adds lists with add_grads."""
    hs = []
    h = x
    for _ in range(2):
        h = np.tanh(h)
        hs.append(h)
    return np.sum(np.stack(hs) ** 2) + np.sum(np.concatenate(hs) ** 3)


def calls_helper(x):
    return np.sum(corpus.helper(x) * x)


HESSIAN_CASES = {
    "quartic": (quartic, (r(4),)),
    "log_sum_exp": (log_sum_exp, (r(4),)),
    "quadratic_form": (quadratic_form, (r(3), r(3, 3))),
    "logistic": (logistic, (r(3), r(5, 3), (r(5) > 0).astype(float))),
    "looped": (looped, (r(3), 3)),
    "carried": (carried, (r(3),)),
    "branched_positive": (branched, (np.abs(r(3)) * 0.5 + 0.1,)),
    "branched_negative": (branched, (-np.abs(r(3)) - 0.1,)),
    "with_while": (with_while, (np.array([0.5, 0.3]),)),
    "stacked": (stacked, (r(3),)),
    "stacked_twice": (stacked_twice, (r(2),)),
    "calls_helper": (calls_helper, (r(3),)),
}


@pytest.mark.parametrize("name", sorted(HESSIAN_CASES))
def test_hessian_matches_finite_differences_of_the_gradient(name):
    fn, args = HESSIAN_CASES[name]
    hess = sg.hessian(fn)(*args)
    # finite differences of the *numerical* gradient would be too noisy: difference the
    # reverse-mode gradient, which test_reverse checks against finite differences
    expected = numerical_jacobian(sg.grad(fn), args, 0)
    assert hess.shape == np.shape(args[0]) * 2
    np.testing.assert_allclose(hess, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(hess, np.swapaxes(hess, 0, -1) if hess.ndim == 2 else hess,
                               rtol=1e-8, atol=1e-9)


def test_hessian_of_a_matrix_argument_has_the_shape_of_arg_twice():
    args = (r(3, 4) * 0.5, r(4, 4) * 0.5, r(3, 3), r(4))
    hess = sg.hessian(rnn_loss, wrt=0)(*args)
    assert hess.shape == (3, 4, 3, 4)
    expected = numerical_jacobian(sg.grad(rnn_loss), args, 0)
    np.testing.assert_allclose(hess, expected, rtol=1e-5, atol=1e-6)


def test_hessian_of_the_mlp_loss():
    args = (r(4, 3) * 0.5, r(3), r(3, 2), r(2), r(5, 4), np.eye(2)[[0, 1, 1, 0, 1]])
    hess = sg.hessian(mlp_loss, wrt=2)(*args)
    expected = numerical_jacobian(sg.grad(mlp_loss, wrt=2), args, 2)
    np.testing.assert_allclose(hess, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["quartic", "looped", "branched_positive", "stacked"])
def test_hvp_is_the_hessian_times_v(name):
    fn, args = HESSIAN_CASES[name]
    v = r(*np.shape(args[0]))
    product = sg.hvp(fn)(*args, v)
    np.testing.assert_allclose(product, sg.hessian(fn)(*args) @ v, rtol=1e-10, atol=1e-12)


def test_hvp_never_forms_the_hessian():
    text = sg.hvp(quartic).source
    assert "tangent_x" in text and "for " not in text


def polynomial(x):
    return 3.0 * x ** 4 - 2.0 * x ** 3 + x * x - 5.0 * x + 7.0


def test_third_derivative_of_a_polynomial_is_exact():
    third = sg.grad(sg.grad(sg.grad(polynomial)))
    for x in (0.0, 0.5, -1.25, 3.0):
        assert third(x) == pytest.approx(72.0 * x - 12.0, rel=1e-12, abs=1e-12)
        assert isinstance(third(x), float)


def test_second_derivative_of_scalar_math():
    def f(x):
        return math.sin(x) * math.exp(x)

    second = sg.grad(sg.grad(f))
    x = 0.3
    assert second(x) == pytest.approx(2 * math.cos(x) * math.exp(x), rel=1e-12)


def test_jvp_of_a_gradient_is_a_hessian_column():
    x = r(4)
    _, column = sg.jvp(sg.grad(quartic), (x,), (np.eye(4)[1],))
    np.testing.assert_allclose(column, sg.hessian(quartic)(x)[:, 1], rtol=1e-12)


def test_hessian_through_fancy_indexing_and_masks():
    x = r(5)
    hess = sg.hessian(corpus.mask_and_fancy)(x)
    np.testing.assert_allclose(hess, numerical_jacobian(sg.grad(corpus.mask_and_fancy), (x,), 0),
                               rtol=1e-5, atol=1e-6)
    assert "add_at(tangent_" in sg.hessian(corpus.mask_and_fancy).source


def test_forward_mode_refuses_an_unknown_call_that_may_modify_a_value():
    def f(x):
        y = x * 2.0
        np.random.shuffle(y)  # NumPy's random functions are otherwise not differentiated
        return np.sum(y)

    with pytest.raises(sg.UnsupportedSyntaxError, match="changes an array in place"):
        sg.jvp(f, (r(3),), (r(3),))


def test_hessian_takes_one_argument():
    with pytest.raises(TypeError, match="one argument"):
        sg.hessian(quadratic_form, wrt=(0, 1))


def test_jacobian_of_a_float_argument_and_a_float_output():
    def f(a, x):
        return np.sin(a * x)

    x = r(3)
    jac = sg.jacobian(f, wrt=0)(0.3, x)
    np.testing.assert_allclose(jac, np.cos(0.3 * x) * x)
    assert jac.shape == (3,)
    assert sg.jacobian(polynomial)(0.5) == pytest.approx(12 * 0.125 - 6 * 0.25 + 1.0 - 5.0)


@pytest.mark.parametrize("name", sorted(CORPUS_CASES))
def test_hessian_of_every_corpus_function(name):
    """Forward mode over the generated gradient of every construct reverse mode supports."""
    fn = getattr(corpus, name)
    for args in CORPUS_CASES[name]:
        for i, a in enumerate(args):
            if isinstance(a, float) or isinstance(a, np.ndarray) and a.dtype.kind == "f":
                hess = sg.hessian(fn, wrt=i)(*args)
                expected = numerical_jacobian(sg.grad(fn, wrt=i), args, i)
                np.testing.assert_allclose(hess, expected, rtol=1e-4, atol=1e-5)
