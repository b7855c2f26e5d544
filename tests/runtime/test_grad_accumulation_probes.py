"""Accumulation into ``.grad`` probed beside PyTorch: it modifies the gradient tensor in
place, so a graph that saved that tensor (``h = w * x.grad``, a gradient of a gradient)
must refuse to run on it afterwards rather than silently read the sum."""

import numpy as np
import pytest

import sourcegrad as sg

from .parity import same, same_error

torch = pytest.importorskip("torch")


def _x(m):
    return m.tensor(np.array([1.0, 2.0]), requires_grad=True)


def test_a_graph_that_saved_a_gradient_refuses_once_backward_added_to_it():
    def action(m):
        x, w = _x(m), m.tensor(np.array([1.0, 1.0]), requires_grad=True)
        (x ** 2).sum().backward()
        h = (w * x.grad).sum()  # MulBackward saves x.grad for w's gradient
        (x ** 3).sum().backward()  # x.grad += 3x**2, in place
        h.backward()

    same_error(action)


@pytest.mark.filterwarnings("ignore:Using backward.. with create_graph=True")  # (PyTorch's)
def test_a_gradient_with_history_saved_then_added_to_is_refused():
    def action(m):
        x = _x(m)
        (x ** 3).sum().backward(create_graph=True)
        g = x.grad
        h = (g * g).sum()
        (x ** 2).sum().backward()
        m.autograd.grad(h, x)

    for m in (torch, sg):  # (PyTorch names CopyBackwards, the node that made x.grad)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            action(m)


def test_accumulating_counts_as_a_modification_of_the_gradient():
    def observe(m):
        x = _x(m)
        versions = []
        for _ in range(3):
            (x * x).sum().backward()
            versions.append(x.grad._version)
        return x.grad, versions[1] - versions[0], versions[2] - versions[1]

    same(observe)


@pytest.mark.parametrize("clip", [
    lambda m, x: m.nn.utils.clip_grad_norm_([x], 1.0),
    lambda m, x: m.nn.utils.clip_grad_value_([x], 1.0),
])
def test_clipping_gradients_counts_as_modifying_them(clip):
    def action(m):
        x, w = _x(m), m.tensor(np.array([1.0, 1.0]), requires_grad=True)
        (x ** 2).sum().backward()
        h = (w * x.grad).sum()
        clip(m, x)
        h.backward()

    # (PyTorch's clip_grad_value_ counts two modifications, min and max: the version differs)
    for m in (torch, sg):
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            action(m)


def test_a_graph_reading_the_gradient_after_the_last_accumulation_still_runs():
    x, w = _x(sg), sg.tensor(np.array([1.0, 1.0]), requires_grad=True)
    (x ** 2).sum().backward()
    (x ** 3).sum().backward()
    (w * x.grad).sum().backward()
    np.testing.assert_array_equal(w.grad.numpy(), [5.0, 16.0])  # 2x + 3x**2
