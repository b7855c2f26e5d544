"""max/min along a dimension probed beside PyTorch where elements tie: the values are the
elements the returned indices name, so the gradient goes to those (PyTorch's rule; a
reduction over everything shares it evenly, in both)."""

import numpy as np
import pytest

from .parity import same

torch = pytest.importorskip("torch")

TIED = [[1.0, 5.0, 5.0], [4.0, 4.0, 4.0], [0.0, 0.0, -1.0]]


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_tie_along_a_dim_sends_the_gradient_to_the_indexed_element(name, dim, keepdim, dtype):
    def observe(m):
        x = m.tensor(np.array(TIED, dtype), requires_grad=True)
        values, indices = getattr(x, name)(dim, keepdim=keepdim)
        weights = m.tensor(np.arange(1.0, values.numel() + 1, dtype=dtype).reshape(values.shape))
        (values * weights).sum().backward()
        return values, indices, x.grad, type(values.grad_fn).__name__

    same(observe)


def test_module_functions_and_second_order_agree():
    def observe(m):
        x = m.tensor(np.array(TIED), requires_grad=True)
        values = m.max(x * x, dim=1).values + m.min(x, 0, keepdim=True).values[0]
        (g,) = m.autograd.grad((values ** 2).sum(), x, create_graph=True)
        return g, m.autograd.grad(g.sum(), x)

    same(observe)


def test_over_everything_a_tie_is_still_shared_evenly():
    def observe(m):
        x = m.tensor(np.array(TIED), requires_grad=True)
        (x.max() + x.min()).backward()
        return x.grad

    same(observe)
