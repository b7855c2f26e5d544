"""The same NumPy function, run eagerly on tensors and differentiated by source
transformation (``sg.grad``), gives the same gradients (hypothesis draws the inputs)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg
from sourcegrad.nn import ops


def layer_loss(w, b, x):
    h = np.tanh(x @ w + b)
    return np.sum(h * h) / 3.0 + np.mean(np.exp(-h))


def smooth_poly(a, c):
    d = a * c - c / (a * a + 1.0)
    return np.sum(d**3 + np.sqrt(c * c + 2.0) * np.log(a * a + 1.0))


def classifier_loss(w, x, y):
    z = x @ w
    return (ops.binary_cross_entropy_with_logits(z, y) + ops.mse_loss(ops.sigmoid(z), y)
            + np.sum(ops.log_softmax(z, axis=0) * y))


def eager_gradients(fn, arrays, wrt):
    tensors = [sg.tensor(a, requires_grad=i in wrt) for i, a in enumerate(arrays)]
    fn(*tensors).backward()
    return [tensors[i].grad.numpy() for i in wrt]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16), rows=st.integers(1, 4))
def test_layer_loss(seed, rows):
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal((3, 2)), rng.standard_normal(2),
              rng.standard_normal((rows, 3))]
    transformed = sg.grad(layer_loss, wrt=(0, 1))(*arrays)
    for eager, generated in zip(eager_gradients(layer_loss, arrays, (0, 1)), transformed,
                                strict=True):
        np.testing.assert_allclose(eager, generated, rtol=1e-10, atol=1e-12)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_broadcasting_polynomial(seed):
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal((2, 3)), rng.standard_normal(3)]
    transformed = sg.grad(smooth_poly, wrt=(0, 1))(*arrays)
    for eager, generated in zip(eager_gradients(smooth_poly, arrays, (0, 1)), transformed,
                                strict=True):
        np.testing.assert_allclose(eager, generated, rtol=1e-10, atol=1e-12)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_nn_primitives_through_both_paths(seed):
    """The runtime calls ``rules/nn.py``; the transformer inlines the same rules."""
    rng = np.random.default_rng(seed)
    w, x, y = rng.standard_normal(3), rng.standard_normal((4, 3)), rng.uniform(0, 1, 4)
    transformed = sg.grad(classifier_loss)(w, x, y)
    tw = sg.tensor(w, requires_grad=True)
    z = sg.tensor(x) @ tw
    target = sg.tensor(y)
    F = sg.nn.functional
    loss = (F.binary_cross_entropy_with_logits(z, target) + F.mse_loss(z.sigmoid(), target)
            + (F.log_softmax(z, dim=0) * target).sum())
    loss.backward()
    np.testing.assert_allclose(tw.grad.numpy(), transformed, rtol=1e-10, atol=1e-12)
