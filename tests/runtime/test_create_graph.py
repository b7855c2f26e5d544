"""``create_graph=True``: the backward pass records its own graph through the rule table,
side by side with PyTorch (gradients of gradients, Hessian-vector products, gradient
penalties, third derivatives) and against central differences of the runtime's own first
derivatives."""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.runtime import graph

from .parity import error_of, same

torch = pytest.importorskip("torch")

# f(m, x, y): a tensor built from two (2, 3) float64 leaves
OPS = {
    "mul": lambda m, x, y: x * y * x,
    "div": lambda m, x, y: x / (y * y + 1),
    "pow": lambda m, x, y: (x * x + 1) ** y,
    "pow by a number": lambda m, x, y: x**3,
    "number to a power": lambda m, x, y: 2**x,
    "exp": lambda m, x, y: x.exp() * y,
    "log": lambda m, x, y: (x * x + 1).log(),
    "sqrt": lambda m, x, y: (x * x + 1).sqrt(),
    "tanh": lambda m, x, y: x.tanh() * y,
    "sigmoid": lambda m, x, y: (x * y).sigmoid(),
    "relu": lambda m, x, y: (x * y).relu() * x,
    "abs": lambda m, x, y: x.abs() * x,
    "sin cos": lambda m, x, y: x.sin() * y.cos(),
    "sum over a dim": lambda m, x, y: (x * x).sum(0) * y[0],
    "mean keepdim": lambda m, x, y: (x * y).mean(1, keepdim=True) * x,
    "matmul": lambda m, x, y: (x @ y.T) * (x @ y.T),
    "max over a dim": lambda m, x, y: (x * y).max(1).values * x[:, 0],
    "clamp": lambda m, x, y: (x * y).clamp(-0.5, 0.5) * x,
    "advanced index": lambda m, x, y: x[[0, 1, 1]] * y[0],
    "slices": lambda m, x, y: x[:, 1:] * x[:, :2],
    "select": lambda m, x, y: x[0] * x[1] * y[1],
    "reshape and T": lambda m, x, y: x.reshape(3, 2).T * y,
    "unsqueeze": lambda m, x, y: x.unsqueeze(0) * x.unsqueeze(1),
    "expand": lambda m, x, y: x[:, :1].expand(2, 3) * x,
    "softmax": lambda m, x, y: m.nn.functional.softmax(x * y, dim=1) * x,
    "log_softmax": lambda m, x, y: m.nn.functional.log_softmax(x, dim=0) * y,
    "mse_loss": lambda m, x, y: m.nn.functional.mse_loss(x * x, y),
    "bce with logits": lambda m, x, y: m.nn.functional.binary_cross_entropy_with_logits(
        x * y, y.detach().sigmoid()),
    "cross_entropy": lambda m, x, y: m.nn.functional.cross_entropy(x * x, m.tensor([0, 2])),
    "cast": lambda m, x, y: x.float().double() * x,
    "clone": lambda m, x, y: x.clone() * x,
    "repeat": lambda m, x, y: x.repeat(2, 1) * x.repeat(2, 1),
    "in-place ops": lambda m, x, y: _in_place(x * 1, y),
    "in-place on a view": lambda m, x, y: _in_place_on_view(x * x, x),
    "assignment": lambda m, x, y: _assigned(x * y, x, y),
    "split": lambda m, x, y: x.split([1, 2], dim=1)[1] * x[:, 1:],
    "unbind": lambda m, x, y: x.unbind(0)[0] * x[1],
    "maximum": lambda m, x, y: m.maximum(x, y) * x,
    "neg and sub": lambda m, x, y: -(x - y) * x,
    "rsub": lambda m, x, y: (1 - x) * x,
}


def _in_place(t, y):
    t.mul_(y)
    t.exp_()
    return t


def _in_place_on_view(t, x):
    t[:, 1:].mul_(x[:, :2])
    return t


def _assigned(t, x, y):
    t[0, 1] = x[1, 2] * y[0, 0]
    return t


DATA = [np.random.default_rng(k).standard_normal((2, 3)) for k in range(3)]


def _second_order(m, op):
    x, y = (m.tensor(d, requires_grad=True) for d in DATA[:2])
    gx, gy = m.autograd.grad(OPS[op](m, x, y).sum(), [x, y], create_graph=True,
                             allow_unused=True)
    penalty = (gx * m.tensor(DATA[2])).sum()
    if gy is not None:
        penalty = penalty + (gy * gy).sum()
    hx, hy = m.autograd.grad(penalty, [x, y], allow_unused=True)
    return gx, gy, hx, hy, gx.requires_grad


@pytest.mark.parametrize("op", OPS, ids=list(OPS))
def test_gradients_of_gradients_match(op):
    same(lambda m: _second_order(m, op))


# (a cast to float32 and back: central differences drown in its rounding)
FINITE_DIFFERENCES = [op for op in OPS if op != "cast"]


@pytest.mark.parametrize("op", FINITE_DIFFERENCES, ids=FINITE_DIFFERENCES)
def test_hessian_vector_products_match_finite_differences_of_the_gradient(op):
    """H v by create_graph against (grad(x + eps v) - grad(x - eps v)) / 2 eps, each
    gradient the runtime's own first-order one."""
    v = DATA[2]

    def gradient(x_data):
        x, y = sg.tensor(x_data, requires_grad=True), sg.tensor(DATA[1])
        (gx,) = sg.autograd.grad(OPS[op](sg, x, y).sum(), x)
        return gx.numpy()

    x, y = sg.tensor(DATA[0], requires_grad=True), sg.tensor(DATA[1])
    (gx,) = sg.autograd.grad(OPS[op](sg, x, y).sum(), x, create_graph=True)
    if not gx.requires_grad:  # a gradient constant in x: H = 0
        np.testing.assert_allclose(gradient(DATA[0] + 1e-3 * v), gx.numpy(), atol=1e-9)
        return
    (hv,) = sg.autograd.grad((gx * sg.tensor(v)).sum(), x, allow_unused=True)
    eps = 1e-6
    expected = (gradient(DATA[0] + eps * v) - gradient(DATA[0] - eps * v)) / (2 * eps)
    got = np.zeros_like(expected) if hv is None else hv.numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn", [
    lambda m, x: x**4, lambda m, x: x.tanh(), lambda m, x: x.sigmoid() * x.exp(),
    lambda m, x: (x * x).sum() * x.sin(),
], ids=["x^4", "tanh", "sigmoid exp", "sum times sin"])
def test_third_derivatives_match(fn):
    def observe(m):
        x = m.tensor(DATA[0][0], requires_grad=True)
        (g,) = m.autograd.grad(fn(m, x).sum(), x, create_graph=True)
        (h,) = m.autograd.grad(g.sum(), x, create_graph=True)
        (t,) = m.autograd.grad(h.sum(), x)
        return g, h, t

    same(observe)


# PyTorch warns about a reference cycle between a parameter and its gradient's history
NO_CYCLE_WARNING = pytest.mark.filterwarnings("ignore:Using backward.. with create_graph=True")


@NO_CYCLE_WARNING
def test_backward_with_create_graph_gives_grads_with_history_and_keeps_the_graph():
    def observe(m):
        x = m.tensor([0.5, 1.5, -2.0], dtype=m.float64, requires_grad=True)
        y = (x**3).sum()
        y.backward(create_graph=True)
        first = (x.grad.detach().clone(), x.grad.requires_grad, type(x.grad.grad_fn).__name__)
        y.backward(create_graph=True)  # the graph was kept: retain_graph defaults to True
        second = x.grad.detach().clone()
        x.grad.sum().backward()  # d/dx of (2 * 3x^2), accumulated into x.grad
        return first, second, x.grad

    same(observe)


def test_a_gradient_penalty_training_step_matches():
    rng = np.random.default_rng(5)
    w1, w2, data = rng.standard_normal((3, 4)), rng.standard_normal((4, 1)), rng.standard_normal(
        (5, 3))

    def observe(m):
        a, b = m.tensor(w1, requires_grad=True), m.tensor(w2, requires_grad=True)
        x = m.tensor(data, requires_grad=True)
        critic = ((x @ a).tanh() @ b).sum()
        (gx,) = m.autograd.grad(critic, x, create_graph=True)
        penalty = ((gx * gx).sum(1).sqrt() - 1) ** 2
        loss = critic + 10 * penalty.mean()
        loss.backward()
        return loss, a.grad, b.grad, x.grad

    same(observe)


def test_the_gradient_of_a_gradient_with_respect_to_its_grad_outputs():
    """The double-backward trick: a JVP from two VJPs."""
    def observe(m):
        x = m.tensor(DATA[0], requires_grad=True)
        v = m.zeros(2, 3, dtype=m.float64, requires_grad=True)
        y = (x * x).tanh()
        (vjp,) = m.autograd.grad(y, x, grad_outputs=v, create_graph=True)
        (jvp,) = m.autograd.grad(vjp, v, grad_outputs=m.tensor(DATA[1]))
        return vjp, jvp

    same(observe)


def test_hooks_see_gradients_with_history_under_create_graph():
    def observe(m):
        x = m.tensor(DATA[0], requires_grad=True)
        y = x * x
        seen = []
        y.register_hook(lambda g: seen.append(g.requires_grad) or g * x)
        (gx,) = m.autograd.grad((y * 3).sum(), x, create_graph=True)
        (hx,) = m.autograd.grad(gx.sum(), x)
        return seen, gx, hx

    same(observe)


@NO_CYCLE_WARNING
def test_retained_gradients_under_create_graph_have_history():
    def observe(m):
        x = m.tensor(DATA[0], requires_grad=True)
        y = x.sin()
        y.retain_grad()
        (y * y).sum().backward(create_graph=True)
        return y.grad, y.grad.requires_grad, x.grad

    same(observe)


# ------------------------------------------------------------------------ decorated functions


@sg.differentiable
def predict(w, b, x):
    return np.tanh(x @ w + b)


@sg.differentiable
def pair(w, x):
    hidden = x @ w
    return np.sin(hidden), hidden * hidden


def test_a_decorated_function_under_create_graph_matches_pytorch():
    rng = np.random.default_rng(1)
    wd, bd, xd, vd = (rng.standard_normal(s) for s in ((3, 2), (2,), (4, 3), (3, 2)))

    def observe(m):
        w, b = m.tensor(wd, requires_grad=True), m.tensor(bd, requires_grad=True)
        x = m.tensor(xd)
        out = predict(w, b, x) if m is sg else (x @ w + b).tanh()
        gw, gb = m.autograd.grad((out**2).sum(), [w, b], create_graph=True)
        hw, hb = m.autograd.grad((gw * m.tensor(vd)).sum() + (gb * gb).sum(), [w, b])
        return gw, gb, hw, hb

    same(observe)


def test_a_decorated_function_with_two_outputs_at_second_order():
    rng = np.random.default_rng(2)
    wd, xd = rng.standard_normal((2, 2)), rng.standard_normal((3, 2))

    def observe(m):
        w = m.tensor(wd, requires_grad=True)
        x = m.tensor(xd)
        if m is sg:
            first, second = pair(w, x)
        else:
            first, second = (x @ w).sin(), (x @ w) * (x @ w)
        loss = (first * 2).sum() + second.mean()
        (g,) = m.autograd.grad(loss, w, create_graph=True)
        (h,) = m.autograd.grad((g * g).sum(), w)
        return g, h

    same(observe)
    w = sg.tensor(wd, requires_grad=True)
    (g,) = sg.autograd.grad(pair(w, sg.tensor(xd))[0].sum(), w, create_graph=True)
    assert type(g.grad_fn).__name__ == "PairBackwardBackward"


def test_a_third_derivative_through_a_decorated_function_is_refused_not_wrong():
    """(The transformer's third derivative through a call of a user function is not
    reliable yet: the runtime refuses it rather than risk a wrong number.)"""
    w = sg.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=sg.float64, requires_grad=True)
    x = sg.tensor([[1.0, 2.0]], dtype=sg.float64)
    (g,) = sg.autograd.grad(pair(w, x)[0].sum(), w, create_graph=True)
    (h,) = sg.autograd.grad((g * g).sum(), w, create_graph=True)
    assert h.requires_grad
    error = error_of(lambda: h.sum().backward())
    assert error[0] is RuntimeError and "differentiate twice through PairBackwardBackward" in (
        error[1])


# ------------------------------------------------------------------------ NumPy backward code


def test_a_backward_written_in_numpy_differentiates_once_and_refuses_twice():
    x = sg.tensor([1.0, 2.0], dtype=sg.float64, requires_grad=True)
    out = graph.record("SquareBackward", [x], x.data**2, lambda grads: (2 * x.data * grads[0],))
    (g,) = sg.autograd.grad(out.sum(), x, create_graph=True)
    assert g.tolist() == [2.0, 4.0] and g.requires_grad  # (it depends on x: never a constant)
    error = error_of(lambda: g.sum().backward())
    assert error[0] is RuntimeError and "trying to differentiate twice through SquareBackward" \
        in error[1]
