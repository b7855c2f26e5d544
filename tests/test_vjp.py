"""sg.vjp: value and pullback, tuple outputs, non-float and unused arguments."""

import numpy as np

import sourcegrad as sg

from . import corpus
from .fd import numerical_grad


def test_vjp_of_a_tuple_output_matches_finite_differences():
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal(3), rng.standard_normal(3)
    value, pullback = sg.vjp(corpus.returns_tuple, x, y)
    np.testing.assert_allclose(value[0], x * y)
    np.testing.assert_allclose(value[1], np.sin(x))
    ct = (rng.standard_normal(3), rng.standard_normal(3))
    gx, gy = pullback(ct)

    def projected(a, b):
        first, second = corpus.returns_tuple(a, b)
        return np.sum(first * ct[0]) + np.sum(second * ct[1])

    np.testing.assert_allclose(gx, numerical_grad(projected, (x, y), 0), rtol=1e-6)
    np.testing.assert_allclose(gy, numerical_grad(projected, (x, y), 1), rtol=1e-6)


def scaled(x, n, unused):
    return x * n


def test_vjp_gives_none_for_non_float_and_zeros_for_unused_arguments():
    x = np.array([1.0, 2.0])
    value, pullback = sg.vjp(scaled, x, 3, 0.5)
    np.testing.assert_allclose(value, [3.0, 6.0])
    gx, gn, gunused = pullback(np.array([1.0, -1.0]))
    np.testing.assert_allclose(gx, [3.0, -3.0])
    assert gn is None
    assert gunused == 0.0 and isinstance(gunused, float)


def test_pullback_can_be_called_twice():
    x = np.array([0.5, 1.5])
    _, pullback = sg.vjp(corpus.loop_carried, x, 3)
    first = pullback(1.0)[0]
    second = pullback(1.0)[0]
    np.testing.assert_allclose(first, second)
    np.testing.assert_allclose(first, numerical_grad(corpus.loop_carried, (x, 3), 0), rtol=1e-6)


def test_grad_of_float_argument_is_a_python_float():
    g = sg.grad(corpus.scalar_math)(0.7, 0.3)
    assert type(g) is float


def test_grad_keeps_float32():
    x = np.array([1.0, 2.0], dtype=np.float32)
    g = sg.grad(corpus.straight, wrt=0)(x.reshape(1, 2), np.ones((2, 3), dtype=np.float32))
    assert g.dtype == np.float32


def test_grad_as_decorator_and_source_attribute():
    @sg.grad
    def squared_norm(x):
        return np.sum(x * x)

    np.testing.assert_allclose(squared_norm(np.array([1.0, 2.0])), [2.0, 4.0])
    assert squared_norm.source.startswith("def grad_squared_norm(x):")
    assert squared_norm.source == sg.source(squared_norm.__wrapped_fun__)


def test_wrt_by_name_and_tuple_order():
    def f(a, b):
        return np.sum(a * b * b)

    a, b = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    gb, ga = sg.grad(f, wrt=("b", "a"))(a, b)
    np.testing.assert_allclose(ga, b * b)
    np.testing.assert_allclose(gb, 2 * a * b)
