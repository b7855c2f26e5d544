"""dtypes probed beside PyTorch: a NumPy scalar is a number, not a float64 tensor (a float32
model scaled by ``np.sqrt(d)`` stays float32), and a gradient assigned to ``.grad`` must
have its tensor's dtype (backward accumulates into it, rounded to its dtype)."""

import numpy as np
import pytest

import sourcegrad as sg

from .parity import error_of, same

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


@pytest.mark.parametrize("own, given", [(np.float64, np.float32), (np.float32, np.float64),
                                        (np.float32, np.int64)])
def test_assigning_a_gradient_of_another_dtype_is_refused(own, given):
    def action(m):
        w = m.tensor(np.array([1.0, 2.0], own), requires_grad=True)
        w.grad = m.tensor(np.array([1, 2], given))

    # PyTorch's message, up to where it goes on about its ``grad_dtype`` (sg has none)
    expected_type, expected = error_of(lambda: action(torch))
    got = error_of(lambda: action(sg))
    assert got is not None and got[0] is expected_type
    assert got[1] == expected[:len(got[1])]
    assert got[1].endswith("(defaults to the tensor's dtype).")


def test_a_gradient_assigned_as_an_array_takes_the_tensors_dtype():
    w = sg.tensor([1.0, 2.0], requires_grad=True)
    w.grad = np.array([0.5, 0.25])
    (w * 3.0).sum().backward()
    assert w.grad.dtype == np.float32
    np.testing.assert_array_equal(w.grad.numpy(), [3.5, 3.25])


@pytest.mark.parametrize("dim", [None, 0])
def test_sum_heeds_a_float64_dtype(dim):
    def observe(m):
        x = m.tensor([[1.0, 2.0], [3.0, 4.5]], requires_grad=True)
        total = x.sum(dtype=m.float64) if dim is None else x.sum(dim, dtype=m.float64)
        (total * total).sum().backward()
        return total, x.grad

    same(observe)


def test_numpy_reductions_of_a_float32_tensor_heed_a_float64_dtype():
    x = sg.tensor([1.0, 2.0], requires_grad=True)
    for total in (np.sum(x, dtype=np.float64), np.mean(x, dtype=np.float64),
                  np.cumsum(x, dtype=np.float64)):
        assert total.dtype == np.float64
        total.sum().backward()
    assert x.grad.dtype == np.float32


KINDS = {"vector32": (np.float32, (2,)), "vector64": (np.float64, (2,)),
         "scalar32": (np.float32, ()), "scalar64": (np.float64, ()),
         "integers": (np.int64, (2,)), "integer": (np.int64, ())}


@pytest.mark.parametrize("first", list(KINDS))
@pytest.mark.parametrize("second", list(KINDS))
def test_a_0d_tensor_does_not_widen_a_dimensioned_ones_dtype(first, second):
    def tensor(m, kind):
        dtype, shape = KINDS[kind]
        floating = np.dtype(dtype).kind == "f"
        return m.tensor(np.full(shape, 1.5 if floating else 2, dtype), requires_grad=floating)

    def observe(m):
        x, y = tensor(m, first), tensor(m, second)
        results = [x * y, x + y, y - x, x / y, m.maximum(x, y), m.where(x > 0, x, y)]
        total = sum(r.sum() for r in results)
        if total.requires_grad:
            total.backward()
        return results, [t.grad for t in (x, y) if t.requires_grad]

    same(observe, atol=1e-6)  # (a float64 gradient summed from float32 terms, in its order)
