"""sg.autograd.grad and backward(inputs=...) probed beside PyTorch where the requested
tensors are unusual: one tensor asked for twice, among others."""

import numpy as np
import pytest

from .parity import same

torch = pytest.importorskip("torch")


def _x(m, dtype):
    return m.tensor(np.array([1.0, 2.0, -0.5], dtype), requires_grad=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_grad_of_a_tensor_asked_for_twice(dtype):
    def observe(m):
        x = _x(m, dtype)
        h = x.exp()
        y = (h * h).sum()
        return m.autograd.grad(y, [h, x, h])

    same(observe)


def test_grad_of_a_leaf_asked_for_twice_with_create_graph():
    def observe(m):
        x = _x(m, np.float64)
        g1, g2 = m.autograd.grad((x ** 3).sum(), [x, x], create_graph=True)
        return g1, g2, m.autograd.grad((g1 * g2).sum(), x)

    same(observe)


def test_backward_into_a_non_leaf_given_twice_accumulates_once():
    def observe(m):
        x = _x(m, np.float64)
        h = x * 2.0
        (h * h).sum().backward(inputs=[h, h])
        return h.grad, x.grad

    same(observe)


def test_backward_into_a_leaf_given_twice_accumulates_once():
    def observe(m):
        x = _x(m, np.float64)
        (x * x).sum().backward(inputs=[x, x])
        return x.grad

    same(observe)
