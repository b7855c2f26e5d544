"""dtypes probed beside PyTorch: a NumPy scalar is a number, not a float64 tensor (a float32
model scaled by ``np.sqrt(d)`` stays float32)."""

import numpy as np
import pytest

import sourcegrad as sg

from .parity import same

torch = pytest.importorskip("torch")

SCALARS = [np.float64(1.1), np.sqrt(2.0), np.float32(0.5), np.int64(3)]


@pytest.mark.parametrize("scalar", SCALARS, ids=repr)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_numpy_scalar_keeps_the_tensors_dtype(scalar, dtype):
    def observe(m):
        x = m.tensor(np.array([1.0, 2.0], dtype), requires_grad=True)
        results = [x * scalar, x + scalar, x - scalar, x / scalar, x ** scalar,
                   scalar * x, scalar - x, scalar / x]
        sum(r.sum() for r in results).backward()
        return results, x.grad

    same(observe, atol=1e-6)


def test_a_numpy_scalar_times_an_integer_tensor_is_float32():
    same(lambda m: (m.tensor([1, 2]) * np.float64(1.5), np.float64(0.5) + m.tensor([1, 2])))


def test_numpy_functions_of_a_float32_tensor_and_a_numpy_scalar_stay_float32():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    y = np.multiply(x, np.float64(3.0)) + np.add(np.float64(1.0), x)
    assert y.dtype == np.float32
    y.sum().backward()
    assert x.grad.dtype == np.float32
    np.testing.assert_array_equal(x.grad.numpy(), [4.0, 4.0])
