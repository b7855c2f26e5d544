"""``sg.grad`` does not compute a known-scalar value it does not return
(``passes/unused_values.py``); ``sg.value_and_grad`` still does."""

import numpy as np
import pytest

import sourcegrad as sg

from .fd import assert_close, numerical_grad


def mean_loss(w, x):
    return np.mean((x @ w - 1.0) ** 2)


def scaled_sum(x):
    total = -np.sum(np.tanh(x))
    return total * 0.5


def accumulates(x, n):
    total = 0.0
    for i in range(n):
        total = total + np.sum(x * i)
    return total


def code(source: str) -> str:
    """The generated code without its comments (which quote the user's lines)."""
    return "\n".join(line for line in source.splitlines() if not line.strip().startswith("#"))


def test_the_loss_is_not_computed_for_its_gradient_alone():
    assert "np.mean(" not in code(sg.source(mean_loss, wrt="w"))
    assert "np.mean(" in code(sg.value_and_grad(mean_loss, wrt="w").source)


@pytest.mark.parametrize("fn, args, wrt", [
    (mean_loss, (np.array([0.5, -1.0]), np.arange(6.0).reshape(3, 2) / 4), 0),
    (scaled_sum, (np.array([0.3, -0.7, 1.2]),), 0),
    (accumulates, (np.array([0.3, -0.7]), 3), 0),
])
def test_gradients_and_values_stay_right(fn, args, wrt):
    expected = numerical_grad(fn, args, wrt)
    assert_close(sg.grad(fn, wrt=wrt)(*args), expected)
    value, grad = sg.value_and_grad(fn, wrt=wrt)(*args)
    assert_close(value, fn(*args))
    assert_close(grad, expected)


def test_scalars_that_only_the_dropped_value_reads_go_too():
    source = code(sg.source(scaled_sum))
    assert " total = " not in source and "np.sum" not in source


def test_an_accumulator_read_only_by_itself_keeps_the_value():
    # dropping `accumulates_value = total` would leave the loop summing into nothing
    assert "= total" in code(sg.source(accumulates, wrt="x"))


def test_float32_stays_float32():
    w = np.array([0.5, -1.0], dtype=np.float32)
    x = (np.arange(6.0).reshape(3, 2) / 4).astype(np.float32)
    grad = sg.grad(mean_loss, wrt="w")(w, x)
    assert grad.dtype == np.float32
    expected = numerical_grad(mean_loss, (w.astype(float), x.astype(float)), 0)
    np.testing.assert_allclose(grad, expected, rtol=1e-5)
