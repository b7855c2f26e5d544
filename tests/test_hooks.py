"""``sg.stop_gradient`` in every mode, and ``sg.grad_hook`` putting user code into the
backward pass."""

import numpy as np

import sourcegrad as sg

from .fd import numerical_grad

rng = np.random.default_rng(4)


def frozen_scale(x):
    return np.sum(sg.stop_gradient(x * x) * x)


def test_stop_gradient_in_reverse_forward_and_second_order():
    x = rng.standard_normal(3)
    np.testing.assert_allclose(sg.grad(frozen_scale)(x), x * x)
    t = rng.standard_normal(3)
    np.testing.assert_allclose(sg.jvp(frozen_scale, (x,), (t,))[1], np.sum(x * x * t))
    np.testing.assert_allclose(sg.hessian(frozen_scale)(x), np.zeros((3, 3)), atol=0)
    forward = sg.source(frozen_scale, mode="forward")
    assert "tangent_x_times_x " not in forward and "tangent_stop_gradient_x_times_x_2" not in (
        forward)


def doubled(g):
    return 2.0 * g


def hooked_once(x):
    y = np.sin(x)
    y = sg.grad_hook(y, doubled)
    return np.sum(y * y)


def test_a_hook_transforms_the_cotangent_at_its_point_and_shows_in_the_source():
    x = rng.standard_normal(3)
    true = numerical_grad(lambda_free_loss, (x,), 0)
    np.testing.assert_allclose(sg.grad(hooked_once)(x), 2.0 * true, rtol=1e-6)
    assert "doubled(grad_" in sg.source(hooked_once)


def lambda_free_loss(x):
    return np.sum(np.sin(x) ** 2)


def test_tangents_pass_through_a_hook():
    x, t = rng.standard_normal(3), rng.standard_normal(3)
    _, tangent = sg.jvp(hooked_once, (x,), (t,))
    np.testing.assert_allclose(tangent, np.sum(2 * np.sin(x) * np.cos(x) * t))


SEEN = []


def clip(g):
    SEEN.append(np.abs(g).max())
    return np.clip(g, -0.05, 0.05)


def rnn(Wh, xs):
    h = np.zeros(3)
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] + h @ Wh)
        h = sg.grad_hook(h, clip)
    return np.sum(h * h)


def test_gradient_clipping_inside_an_rnn_loop():
    Wh, xs = rng.standard_normal((3, 3)), rng.standard_normal((4, 3)) * 2.0
    SEEN.clear()
    grad = sg.grad(rnn)(Wh, xs)
    assert len(SEEN) == 4  # once per iteration of the reversed loop
    assert "clip(grad_" in sg.source(rnn)
    # by hand: the same recurrence's backward sweep with the cotangent of each h clipped
    hs = [np.zeros(3)]
    for t in range(4):
        hs.append(np.tanh(xs[t] + hs[-1] @ Wh))
    expected = np.zeros((3, 3))
    g_h = 2 * hs[-1]
    for t in reversed(range(4)):
        g_h = np.clip(g_h, -0.05, 0.05)
        g_pre = g_h * (1 - hs[t + 1] ** 2)
        expected += np.outer(hs[t], g_pre)
        g_h = g_pre @ Wh.T
    np.testing.assert_allclose(grad, expected, rtol=1e-10)


def test_an_identity_hook_changes_nothing():
    def f(x):
        return np.sum(np.exp(sg.grad_hook(x * 2.0, np.positive)))

    x = rng.standard_normal(3)
    np.testing.assert_allclose(sg.grad(f)(x), 2 * np.exp(2 * x))
