"""A vanilla RNN built from a step function returning ``(next_h, cache)``, as in a course
assignment: ``rnn_forward`` keeps every step's cache for ``rnn_backward``; the loss (a linear
read-out of every hidden state, squared error) reads only the hidden states."""

import numpy as np

NAME = "RNN from a step function with a cache"
WRT = ("Wx", "Wh", "b", "Wy")


def rnn_step_forward(x, prev_h, Wx, Wh, b):
    a = x @ Wx + prev_h @ Wh + b
    next_h = np.tanh(a)
    cache = (x, prev_h, Wx, Wh, next_h)
    return next_h, cache


def rnn_step_backward(dnext_h, cache):
    x, prev_h, Wx, Wh, next_h = cache
    da = dnext_h * (1.0 - next_h ** 2)
    dx = da @ Wx.T
    dprev_h = da @ Wh.T
    dWx = x.T @ da
    dWh = prev_h.T @ da
    db = np.sum(da, axis=0)
    return dx, dprev_h, dWx, dWh, db


def rnn_forward(xs, h0, Wx, Wh, b):
    h = h0
    hs = []
    caches = []
    for t in range(xs.shape[0]):
        h, cache = rnn_step_forward(xs[t], h, Wx, Wh, b)
        hs.append(h)
        caches.append(cache)
    return hs, caches


def rnn_backward(dhs, caches):
    dprev_h = np.zeros_like(dhs[0])
    dWx = dWh = db = 0.0
    for t in reversed(range(len(caches))):
        dx, dprev_h, dWx_t, dWh_t, db_t = rnn_step_backward(dhs[t] + dprev_h, caches[t])
        dWx = dWx + dWx_t
        dWh = dWh + dWh_t
        db = db + db_t
    return dWx, dWh, db


def loss(Wx, Wh, b, Wy, h0, xs, ys):
    hs, _ = rnn_forward(xs, h0, Wx, Wh, b)
    total = 0.0
    for t in range(len(hs)):
        scores = hs[t] @ Wy
        total = total + 0.5 * np.sum((scores - ys[t]) ** 2)
    return total / xs.shape[1]


def loss_and_grad_by_hand(Wx, Wh, b, Wy, h0, xs, ys):
    hs, caches = rnn_forward(xs, h0, Wx, Wh, b)
    n = xs.shape[1]
    total = 0.0
    dWy = np.zeros_like(Wy)
    dhs = []
    for t in range(len(hs)):
        diff = hs[t] @ Wy - ys[t]
        total += 0.5 * np.sum(diff ** 2)
        dscores = diff / n
        dWy += hs[t].T @ dscores
        dhs.append(dscores @ Wy.T)
    dWx, dWh, db = rnn_backward(dhs, caches)
    return total / n, (dWx, dWh, db, dWy)


def make_args(small=False):
    steps, batch, inputs, hidden, outputs = (4, 3, 2, 3, 2) if small else (30, 8, 16, 32, 8)
    rng = np.random.default_rng(0)
    Wx = rng.standard_normal((inputs, hidden)) / np.sqrt(inputs)
    Wh = rng.standard_normal((hidden, hidden)) / np.sqrt(hidden)
    b = 0.1 * rng.standard_normal(hidden)
    Wy = rng.standard_normal((hidden, outputs)) / np.sqrt(hidden)
    h0 = 0.1 * rng.standard_normal((batch, hidden))
    xs = rng.standard_normal((steps, batch, inputs))
    ys = rng.standard_normal((steps, batch, outputs))
    return Wx, Wh, b, Wy, h0, xs, ys
