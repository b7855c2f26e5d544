"""Every derivative function returns its argument's floating dtype, as NumPy and JAX users
expect (JAX: float32 in, float32 out): ``grad``, ``value_and_grad``, ``jvp``, ``vjp``,
``jacobian`` in either mode, ``hessian`` and ``hvp``, on arrays, NumPy scalars and
structures. ``jacobian`` and ``hessian`` made float64 of everything. The float64 results
are checked against central differences; the float32 ones against the float64 ones."""

import numpy as np
import pytest

import sourcegrad as sg
from tests.fd import numerical_grad


def scalar_loss(x):
    return np.sum(np.sin(x) * x ** 2)


def vector_map(x):
    return np.sin(x) * x[::-1]


X = np.array([0.3, -0.7, 1.1])
V = np.array([0.5, -1.0, 2.0])

DERIVATIVES = {
    "grad": lambda x: sg.grad(scalar_loss)(x),
    "value_and_grad": lambda x: sg.value_and_grad(scalar_loss)(x)[1],
    "jvp": lambda x: sg.jvp(vector_map, (x,), (np.ones_like(x),))[1],
    "vjp": lambda x: sg.vjp(vector_map, x)[1](np.ones_like(x))[0],
    "jacobian forward": lambda x: sg.jacobian(vector_map, mode="forward")(x),
    "jacobian reverse": lambda x: sg.jacobian(vector_map, mode="reverse")(x),
    "jacobian of a scalar": lambda x: sg.jacobian(scalar_loss)(x),
    "hessian": lambda x: sg.hessian(scalar_loss)(x),
    "hessian of a vector map": lambda x: sg.hessian(vector_map)(x),
    "hvp": lambda x: sg.hvp(scalar_loss)(x, V.astype(x.dtype)),
    "jacobian of jacobian": lambda x: sg.jacobian(sg.jacobian(vector_map))(x),
}


def _by_differences(name):
    """What each derivative computes, from central differences of float64 functions."""
    def jacobian_of(fn):
        def j(x):
            return np.stack([numerical_grad(lambda y, i=i: fn(y)[i], (x,), 0)
                             for i in range(len(x))])
        return j

    grad = (lambda x: numerical_grad(scalar_loss, (x,), 0))
    jac = jacobian_of(vector_map)
    expected = {
        "grad": grad, "value_and_grad": grad,
        "jvp": lambda x: jac(x) @ np.ones_like(x),
        "vjp": lambda x: np.ones_like(x) @ jac(x),
        "jacobian forward": jac, "jacobian reverse": jac, "jacobian of a scalar": grad,
        "hessian": lambda x: np.stack([numerical_grad(
            lambda y, i=i: sg.grad(scalar_loss)(y)[i], (x,), 0) for i in range(len(x))]),
        "hessian of a vector map": second_of_vector_map,
        "jacobian of jacobian": second_of_vector_map,
        "hvp": lambda x: np.stack([numerical_grad(
            lambda y, i=i: sg.grad(scalar_loss)(y)[i], (x,), 0) for i in range(len(x))]) @ V,
    }[name]
    return expected(X.copy())


def second_of_vector_map(x):
    """Central differences of the (first-order checked) Jacobian: differences of
    differences would be noise at 1e-5."""
    return np.stack([np.stack([numerical_grad(
        lambda y, i=i, j=j: sg.jacobian(vector_map)(y)[i, j], (x,), 0)
        for j in range(len(x))]) for i in range(len(x))])


@pytest.mark.parametrize("name", DERIVATIVES)
def test_float64_in_float64_out_and_it_matches_differences(name):
    got = DERIVATIVES[name](X.copy())
    assert got.dtype == np.float64, name
    np.testing.assert_allclose(got, _by_differences(name), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", DERIVATIVES)
def test_float32_in_float32_out(name):
    got = DERIVATIVES[name](X.astype(np.float32))
    assert got.dtype == np.float32, f"{name}: {got.dtype}"
    np.testing.assert_allclose(got, DERIVATIVES[name](X.copy()), rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_numpy_scalar_keeps_its_dtype(dtype):
    x = dtype(0.7)
    assert np.asarray(sg.hessian(lambda s: s ** 3)(x)).dtype == dtype
    assert np.asarray(sg.jacobian(lambda s: s ** 3)(x)).dtype == dtype
    np.testing.assert_allclose(sg.hessian(lambda s: s ** 3)(x), 6 * 0.7, rtol=1e-6)


def test_an_integer_argument_gets_float64():
    """An integer has no float dtype of its own: its derivatives are float64, as its
    gradient is."""
    got = sg.jacobian(lambda x: x * 1.5, mode="forward")(np.array([1, 2]))
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, 1.5 * np.eye(2))


def test_structures_keep_each_leafs_dtype():
    params = {"w": X.astype(np.float32), "b": np.float64(0.5)}

    def loss(p):
        return np.sum(np.tanh(p["w"]) * p["b"]) ** 2

    hess = sg.hessian(loss)(params)
    assert hess["w"]["w"].dtype == np.float32 and hess["w"]["b"].dtype == np.float64
    assert hess["b"]["w"].dtype == np.float32 and np.asarray(hess["b"]["b"]).dtype == np.float64
    jac = sg.jacobian(lambda p: np.tanh(p["w"]) * p["b"])(params)
    assert jac["w"].dtype == np.float32 and jac["b"].dtype == np.float64
    # d/db of (sum(tanh(w)) b)^2 is 2 b sum(tanh(w))^2, and d2/db2 is 2 sum(tanh(w))^2
    t = np.sum(np.tanh(X))
    np.testing.assert_allclose(hess["b"]["b"], 2 * t ** 2, rtol=1e-5)
    np.testing.assert_allclose(jac["w"], np.diag(0.5 / np.cosh(X) ** 2), rtol=1e-5)
