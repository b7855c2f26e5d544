"""@sg.differentiable: one graph node whose backward is the generated adjoint; the same
gradients as eager tensor code and as sg.grad."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg


@sg.differentiable
def predict(w, b, x):
    return np.tanh(x @ w + b)


@sg.differentiable
def loss(w, b, x, y):
    error = predict(w, b, x) - y
    total = 0.0
    for row in error:
        total = total + np.sum(row * row)
    return total / x.shape[0]


def loss_eager(w, b, x, y):
    error = sg.tanh(x @ w + b) - y
    return (error * error).sum() / x.shape[0]


def undecorated(w, b, x, y):
    return np.sum((np.tanh(x @ w + b) - y) ** 2) / x.shape[0]


def _data(seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    w, b = rng.standard_normal((3, 2)), rng.standard_normal(2)
    x, y = rng.standard_normal((4, 3)), rng.standard_normal((4, 2))
    return [a.astype(dtype) for a in (w, b, x, y)]


def test_plain_arrays_give_exactly_what_the_function_gives():
    w, b, x, _ = _data(0)
    out = predict(w, b, x)
    assert type(out) is np.ndarray
    np.testing.assert_array_equal(out, np.tanh(x @ w + b))
    assert predict.source(wrt="w") == sg.source(predict.__wrapped__, wrt="w")


def test_one_node_named_after_the_function():
    w, b, x, _ = _data(1)
    tw = sg.tensor(w, requires_grad=True)
    out = predict(tw, sg.tensor(b), sg.tensor(x))
    assert isinstance(out, sg.Tensor) and out.requires_grad
    assert type(out.grad_fn).__name__ == "PredictBackward"
    assert out.grad_fn.next_functions[0][0] is not None


def test_under_no_grad_nothing_is_recorded():
    w, b, x, _ = _data(2)
    with sg.no_grad():
        out = predict(sg.tensor(w, requires_grad=True), sg.tensor(b), sg.tensor(x))
    assert out.grad_fn is None and not out.requires_grad


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_decorated_eager_and_sg_grad_agree(seed):
    w, b, x, y = _data(seed)
    tensors = [sg.tensor(a, requires_grad=True) for a in (w, b)]
    loss(*tensors, sg.tensor(x), sg.tensor(y)).backward()
    decorated = [t.grad for t in tensors]
    eager_tensors = [sg.tensor(a, requires_grad=True) for a in (w, b)]
    loss_eager(*eager_tensors, sg.tensor(x), sg.tensor(y)).backward()
    eager = [t.grad for t in eager_tensors]
    transformed = sg.grad(undecorated, wrt=(0, 1))(w, b, x, y)
    for d, e, t in zip(decorated, eager, transformed, strict=True):
        np.testing.assert_allclose(d, e, rtol=1e-10)
        np.testing.assert_allclose(d, t, rtol=1e-10)


def test_mixed_with_eager_code_and_accumulation():
    w, b, x, y = _data(5, np.float32)
    tw = sg.tensor(w, requires_grad=True)
    tb = sg.tensor(b, requires_grad=True)
    hidden = predict(tw, tb, sg.tensor(x))          # decorated node
    total = ((hidden - sg.tensor(y)) ** 2).mean()   # eager nodes on top
    total.backward()
    first = tw.grad.numpy().copy()
    assert tw.grad.dtype == np.float32
    expected = sg.grad(lambda_free_mean, wrt=0)(w.astype(np.float64), b, x, y)
    np.testing.assert_allclose(first, expected, rtol=1e-4)
    total2 = ((predict(tw, tb, sg.tensor(x)) - sg.tensor(y)) ** 2).mean()
    total2.backward()
    np.testing.assert_allclose(tw.grad.numpy(), 2 * first, rtol=1e-5)


def lambda_free_mean(w, b, x, y):
    return np.mean((np.tanh(x @ w + b) - y) ** 2)


def test_second_backward_needs_retain_graph():
    w, b, x, y = _data(6)
    tw = sg.tensor(w, requires_grad=True)
    out = loss(tw, sg.tensor(b), sg.tensor(x), sg.tensor(y))
    out.backward(retain_graph=True)
    out.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        out.backward()
