"""In-place operations as PyTorch records them, side by side with PyTorch: retained
gradients and hooks across versions of a tensor."""

import numpy as np
import pytest

import sourcegrad as sg

torch = pytest.importorskip("torch")

BOTH = pytest.mark.parametrize("m", [torch, sg], ids=["torch", "sg"])


def same(observe):
    """``observe(m)`` gives the same result (arrays compared exactly) for both libraries."""
    expected, got = observe(torch), observe(sg)
    _assert_same(got, expected)


def _assert_same(got, expected):
    if isinstance(expected, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(expected), (got, expected)
        for g, e in zip(got, expected, strict=True):
            _assert_same(g, e)
    elif isinstance(expected, torch.Tensor):
        assert isinstance(got, sg.Tensor), (got, expected)
        np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(),
                                   rtol=1e-6)
    else:
        assert got == expected


def grad_of(t):
    """``t.grad`` without PyTorch's warning about non-leaf tensors."""
    return t.grad if t.is_leaf or t.retains_grad else None


# ------------------------------------------------------------------------ retained gradients

IN_PLACE_OPS = {
    "mul_": lambda m, a, w: a.mul_(2),
    "add_ tensor": lambda m, a, w: a.add_(w),
    "*=": lambda m, a, w: a.__imul__(w),
    "+= scalar": lambda m, a, w: a.__iadd__(3.0),
    "-= tensor": lambda m, a, w: a.__isub__(w * w),
    "/=": lambda m, a, w: a.__itruediv__(4.0),
    "sub_ alpha": lambda m, a, w: a.sub_(w, alpha=0.5),
}


@pytest.mark.parametrize("op", IN_PLACE_OPS, ids=list(IN_PLACE_OPS))
def test_a_retained_gradient_follows_the_tensor_to_its_new_version(op):
    def observe(m):
        w = m.tensor([1.5, -2.0], requires_grad=True)
        a = w * 3
        a.retain_grad()
        IN_PLACE_OPS[op](m, a, w)
        (a * m.tensor([5.0, 7.0])).sum().backward()
        return a.grad, w.grad, a.retains_grad

    same(observe)


@pytest.mark.parametrize("op", IN_PLACE_OPS, ids=list(IN_PLACE_OPS))
def test_retain_grad_after_an_in_place_op_sees_the_new_version(op):
    def observe(m):
        w = m.tensor([1.5, -2.0], requires_grad=True)
        a = w * 3
        IN_PLACE_OPS[op](m, a, w)
        a.retain_grad()
        (a * a).sum().backward()
        return a.grad, w.grad

    same(observe)


def test_a_retained_gradient_through_two_in_place_ops():
    def observe(m):
        w = m.tensor([1.0, 2.0], requires_grad=True)
        a = w.sin()  # (sin saves its input, not its result: it may change in place)
        a.retain_grad()
        a.mul_(3)
        a.add_(w)
        a.pow(2).sum().backward()
        return a.grad, w.grad

    same(observe)


@pytest.mark.parametrize("op", IN_PLACE_OPS, ids=list(IN_PLACE_OPS))
def test_hooks_belong_to_the_version_they_were_registered_on(op):
    def observe(m):
        w = m.tensor([1.5, -2.0], requires_grad=True)
        a = w * 3
        seen = []
        a.register_hook(lambda g: seen.append(("before", g.clone())))
        IN_PLACE_OPS[op](m, a, w)
        a.register_hook(lambda g: seen.append(("after", g.clone())))
        (a * m.tensor([5.0, 7.0])).sum().backward()
        return sorted(seen, key=lambda item: item[0]), w.grad

    same(observe)


def test_a_hook_that_replaces_the_gradient_of_an_old_version():
    def observe(m):
        w = m.tensor([1.0, 2.0], requires_grad=True)
        a = w * 1
        a.register_hook(lambda g: g * 10)
        a.mul_(3)
        a.sum().backward()
        return w.grad

    same(observe)


def test_hooks_on_a_leaf_survive_an_update_under_no_grad():
    def observe(m):
        w = m.tensor([1.0, 2.0], requires_grad=True)
        seen = []
        w.register_hook(lambda g: seen.append(g.clone()))
        with m.no_grad():
            w.mul_(2)
        (w * w).sum().backward()
        return seen, w.grad

    same(observe)
