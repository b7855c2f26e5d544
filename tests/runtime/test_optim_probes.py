"""sg.optim probed beside torch.optim where PyTorch refuses what would otherwise run
silently (a parameter updated twice a step, Nesterov without momentum, negative
hyper-parameters), and zero_grad of a gradient that has a history."""

import warnings

import numpy as np
import pytest

from .parity import same, same_error

torch = pytest.importorskip("torch")


def _w(m):
    return m.tensor(np.array([1.0, -2.0]), requires_grad=True)


def test_a_parameter_in_two_groups_is_refused():
    def action(m):
        w = _w(m)
        m.optim.SGD([{"params": [w]}, {"params": [w], "lr": 0.5}], lr=0.1)

    same_error(action)


def test_a_parameter_added_again_in_a_new_group_is_refused():
    def action(m):
        w = _w(m)
        m.optim.Adam([w]).add_param_group({"params": [m.tensor([0.0], requires_grad=True), w]})

    same_error(action)


def test_a_parameter_given_twice_in_one_group_is_warned_about_and_stepped_as_pytorch_does():
    def observe(m):
        w = _w(m)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            opt = m.optim.SGD([w, w], lr=0.1)
        (w * w).sum().backward()
        opt.step()
        return w, [str(c.message)[:60] for c in caught]

    same(observe)


@pytest.mark.parametrize("options", [
    {"lr": 0.1, "nesterov": True},
    {"lr": 0.1, "momentum": 0.9, "dampening": 0.5, "nesterov": True},
    {"lr": -0.1},
    {"lr": 0.1, "momentum": -0.9},
    {"lr": 0.1, "weight_decay": -0.01},
])
def test_sgd_refuses_what_pytorch_refuses(options):
    same_error(lambda m: m.optim.SGD([_w(m)], **options))


@pytest.mark.parametrize("options", [
    {"lr": -1e-3},
    {"eps": -1e-8},
    {"betas": (1.0, 0.999)},
    {"betas": (0.9, -0.1)},
    {"weight_decay": -0.01},
])
def test_adam_refuses_what_pytorch_refuses(options):
    same_error(lambda m: m.optim.Adam([_w(m)], **options))


@pytest.mark.filterwarnings("ignore:Using backward.. with create_graph=True")  # (PyTorch's)
@pytest.mark.parametrize("optimizer", ["SGD", "Adam"])
def test_zero_grad_keeping_zeros_drops_the_gradients_history(optimizer):
    def observe(m):
        w = _w(m)
        opt = getattr(m.optim, optimizer)([w], lr=0.1)
        (w ** 3).sum().backward(create_graph=True)
        opt.zero_grad(set_to_none=False)
        return w.grad, w.grad.requires_grad, w.grad.grad_fn is None

    same(observe)


@pytest.mark.parametrize("options", [{}, {"lr": 0.01, "weight_decay": 0.1},
                                     {"lr": 0.05, "betas": (0.5, 0.9), "eps": 1e-3}])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_adamw_takes_pytorchs_steps(options, dtype):
    def observe(m):
        rng = np.random.default_rng(0)
        w = m.tensor(rng.standard_normal((3, 2)).astype(dtype), requires_grad=True)
        b = m.tensor(rng.standard_normal(2).astype(dtype), requires_grad=True)
        x = m.tensor(rng.standard_normal((4, 3)).astype(dtype))
        opt = m.optim.AdamW([{"params": [w]}, {"params": [b], "weight_decay": 0.0}], **options)
        for _ in range(5):
            opt.zero_grad()
            ((x @ w + b).tanh() ** 2).mean().backward()
            opt.step()
        return w, b

    same(observe, atol=1e-6 if dtype == np.float32 else 0.0)


def test_adamw_refuses_what_pytorch_refuses():
    same_error(lambda m: m.optim.AdamW([_w(m)], weight_decay=-1.0))
