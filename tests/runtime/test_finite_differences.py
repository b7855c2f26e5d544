"""Composite expressions through the runtime (float64) against central differences, with
hypothesis drawing broadcasting shapes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

import sourcegrad as sg
from sourcegrad.nn import functional as F


def runtime_gradients(fn, arrays):
    tensors = [sg.tensor(a, requires_grad=True) for a in arrays]
    fn(*tensors).backward()
    return [t.grad.numpy() for t in tensors]


def central_differences(fn, arrays, eps=1e-6):
    """d fn / d arrays[k], entry by entry, evaluated through the runtime without grad."""
    def value(*xs):
        with sg.no_grad():
            return fn(*[sg.tensor(x) for x in xs]).item()

    grads = []
    for k, a in enumerate(arrays):
        grad = np.zeros_like(a)
        for i in np.ndindex(a.shape):
            up, down = [x.copy() for x in arrays], [x.copy() for x in arrays]
            up[k][i] += eps
            down[k][i] -= eps
            grad[i] = (value(*up) - value(*down)) / (2 * eps)
        grads.append(grad)
    return grads


def assert_matches_finite_differences(fn, arrays):
    for got, expected in zip(runtime_gradients(fn, arrays), central_differences(fn, arrays),
                             strict=True):
        # central differences lose about 1e-16 * |f| / eps to rounding: scale the tolerance
        scale = max(1.0, float(np.max(np.abs(expected), initial=0.0)))
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-8 * scale)


COMPOSITES = {
    "logistic loss": lambda w, b, x: F.binary_cross_entropy_with_logits(
        x @ w + b, sg.tensor([[1.0], [0.0], [1.0]], dtype=sg.float64)),
    "two-layer tanh net": lambda w, b, x: ((x @ w + b).tanh() ** 2).mean() * (w * w).sum(),
    "softmax cross entropy": lambda w, b, x: F.cross_entropy(
        sg.matmul(x, w).reshape(3, 1) * b + x, sg.tensor([0, 1, 1])),
    "normalised": lambda w, b, x: ((x - x.mean(0)) / ((x * x).sum() + 1).sqrt()).max()
    + (w.exp() / w.exp().sum()).log().min() + b.abs().sum(),
    "indexing and clamp": lambda w, b, x: (x[:, 0] * w[1, 0]).clamp(-0.3, 0.3).sum()
    + (x[[0, 2, 2]] ** 3).sum() + F.log_softmax(x, dim=1)[1, 1] * b.sum(),
}


@pytest.mark.parametrize("name", COMPOSITES, ids=list(COMPOSITES))
def test_composite_matches_finite_differences(name):
    rng = np.random.default_rng(7)
    arrays = [rng.standard_normal((2, 1)), rng.standard_normal((1,)),
              rng.standard_normal((3, 2))]
    assert_matches_finite_differences(COMPOSITES[name], arrays)


@settings(max_examples=15, deadline=None)
@given(shapes=mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3),
       seed=st.integers(0, 2**16))
def test_broadcast_operands_get_gradients_of_their_own_shape(shapes, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shapes.input_shapes[0])
    b = rng.uniform(0.5, 2.0, shapes.input_shapes[1])

    def fn(x, y):
        return ((x * y + x / y - y) ** 2).sum() + (x - y).exp().mean()

    grads = runtime_gradients(fn, [a, b])
    assert grads[0].shape == a.shape and grads[1].shape == b.shape
    assert_matches_finite_differences(fn, [a, b])
