"""Real-valued functions of real inputs through complex intermediates (issue 13): the FFT
family, ``np.real``/``imag``/``conj``/``angle``/``abs`` and complex arithmetic, with JAX's
convention (``rules/complex.py``); checked against central differences in every mode, to
second order, and against JAX where it is installed. Derivatives whose formulas hold for
real values only refuse complex ones."""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.testing import check_grads, numerical_jacobian

rng = np.random.default_rng(5)
KERNEL = rng.standard_normal(8) + 1j * rng.standard_normal(8)
HALF_KERNEL = rng.standard_normal(5) + 1j * rng.standard_normal(5)


def magnitude_spectrum(x):
    return np.sum(np.abs(np.fft.fft(x)))


def power_spectrum(x):
    return np.sum(np.abs(np.fft.rfft(x)) ** 2 * np.arange(5.0))


def circular_filter(x):
    return np.sum(np.real(np.fft.ifft(np.fft.fft(x) * KERNEL)) ** 2)


def real_filter(x):
    return np.sum(np.fft.irfft(np.fft.rfft(x) * HALF_KERNEL, n=8) * np.cos(x))


def phases(x):
    spectrum = np.fft.fft(x, norm="ortho")
    return np.sum(np.angle(spectrum[1:4]) * np.imag(spectrum[1:4]))


def conjugate_product(x):
    z = x * np.exp(1j * x)
    return np.sum(np.real(z * np.conj(z[::-1])))


def image_spectrum(x):
    return np.sum(np.abs(np.fft.fft2(np.reshape(x, (2, 4)), s=(3, 4))) ** 1.5)


def hermitian_pair(x):
    return np.sum(np.fft.hfft(np.fft.ihfft(x) * HALF_KERNEL) ** 2)


def complex_attributes(x):
    z = np.fft.fft(x)
    return np.sum(z.real * z.imag) + np.sum(np.abs(z.conj() - z))


FUNCTIONS = [magnitude_spectrum, power_spectrum, circular_filter, real_filter, phases,
             conjugate_product, image_spectrum, hermitian_pair, complex_attributes]


@pytest.mark.parametrize("f", FUNCTIONS)
def test_real_functions_through_complex_values_in_every_mode(f):
    x = rng.standard_normal(8)
    grad = sg.grad(f)(x)
    assert grad.dtype == np.float64
    np.testing.assert_allclose(grad, numerical_jacobian(f, [x], 0), rtol=1e-6, atol=1e-8)
    assert check_grads(f, [x], modes=("fwd", "rev"), order=2)
    assert check_grads(sg.grad(f), [x], modes=("fwd", "rev"), order=1)


@pytest.mark.parametrize("f", FUNCTIONS)
def test_the_runtime_agrees(f):
    x = rng.standard_normal(8)
    t = sg.tensor(x, requires_grad=True)
    f(t).backward()
    np.testing.assert_allclose(t.grad.data, sg.grad(f)(x), rtol=1e-10, atol=1e-12)


def cast_to_complex(x):
    z = x.astype(np.complex128) * KERNEL
    return np.sum(np.real(z * z)) + np.sum(np.imag(z) * x)


@pytest.mark.filterwarnings("error")  # (casting the cotangent back discarded an imaginary part)
def test_a_real_value_cast_to_complex_takes_the_real_part_of_its_cotangent():
    x = rng.standard_normal(8)
    grad = sg.grad(cast_to_complex)(x)
    assert grad.dtype == np.float64
    np.testing.assert_allclose(grad, numerical_jacobian(cast_to_complex, [x], 0), rtol=1e-6,
                               atol=1e-8)
    assert check_grads(cast_to_complex, [x], modes=("fwd", "rev"), order=2)


@pytest.mark.filterwarnings("error")
def test_the_runtime_differentiates_through_complex_values_twice_without_warnings():
    x = sg.tensor(rng.standard_normal((3, 4)), requires_grad=True)
    spectrum = np.real(np.fft.rfft2(x))
    (g,) = sg.autograd.grad((spectrum * spectrum).sum(), x, create_graph=True)
    (h,) = sg.autograd.grad((g * g).sum(), x)
    assert h.dtype == sg.float64


@pytest.mark.parametrize("f", FUNCTIONS)
def test_jax_agrees(f):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    jnp = jax.numpy
    import types

    jax_np = types.SimpleNamespace(**{name: getattr(jnp, name) for name in dir(jnp)
                                      if not name.startswith("_")})
    jax_np.fft = jnp.fft
    x = rng.standard_normal(8)
    namespace = dict(f.__globals__, np=jax_np, KERNEL=jnp.asarray(KERNEL),
                     HALF_KERNEL=jnp.asarray(HALF_KERNEL))
    jax_f = types.FunctionType(f.__code__, namespace)
    np.testing.assert_allclose(sg.grad(f)(x), np.asarray(jax.grad(jax_f)(x)), rtol=1e-9,
                               atol=1e-12)


def test_the_gradient_of_a_complex_argument_follows_jax():
    """``f(z) = |z|**2`` has PyTorch's gradient ``2z``; JAX's (and ours) is its conjugate."""
    def squared_modulus(z):
        return np.sum(np.abs(z) ** 2)

    z = np.array([1.0 + 2.0j, -0.5 + 0.25j])
    np.testing.assert_allclose(sg.grad(squared_modulus)(z), 2 * np.conj(z))


@pytest.mark.parametrize(("f", "message"), [
    (lambda z: np.sum(np.linalg.norm(z)), "np.linalg.norm"),
    (lambda z: np.var(z).real, "np.var"),
    (lambda z: np.sum(np.abs(np.linalg.eigh(np.outer(z, np.conj(z)))[0])), "np.linalg.eigh"),
])
def test_real_only_derivatives_refuse_complex_values(f, message):
    t = sg.tensor(rng.standard_normal(4), requires_grad=True)
    with pytest.raises(NotImplementedError, match=message):
        f(np.fft.fft(t)).backward()
