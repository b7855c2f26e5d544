"""A naive convolution (loops over output positions, ``np.tensordot`` over each window) and
a naive 2x2 max-pool, as course assignments write them, with their naive hand-written
backward passes; the loss is a squared error of the pooled maps."""

import numpy as np

NAME = "naive conv 3x3 + 2x2 max-pool"
WRT = ("w", "b")


def conv_forward_naive(x, w, b, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    h_out = H + 2 * pad - HH + 1
    w_out = W + 2 * pad - WW + 1
    out = np.zeros((N, F, h_out, w_out))
    for i in range(h_out):
        for j in range(w_out):
            window = xp[:, :, i:i + HH, j:j + WW]
            out[:, :, i, j] = np.tensordot(window, w, axes=([1, 2, 3], [1, 2, 3])) + b
    cache = (xp, w, pad)
    return out, cache


def conv_backward_naive(dout, cache):
    xp, w, pad = cache
    F, _, HH, WW = w.shape
    dxp = np.zeros_like(xp)
    dw = np.zeros_like(w)
    db = np.sum(dout, axis=(0, 2, 3))
    for i in range(dout.shape[2]):
        for j in range(dout.shape[3]):
            window = xp[:, :, i:i + HH, j:j + WW]
            dw += np.tensordot(dout[:, :, i, j], window, axes=([0], [0]))
            dxp[:, :, i:i + HH, j:j + WW] += np.tensordot(dout[:, :, i, j], w, axes=([1], [0]))
    dx = dxp[:, :, pad:dxp.shape[2] - pad, pad:dxp.shape[3] - pad]
    return dx, dw, db


def max_pool_forward_naive(x, size):
    N, C, H, W = x.shape
    out = np.zeros((N, C, H // size, W // size))
    for i in range(H // size):
        for j in range(W // size):
            window = x[:, :, i * size:(i + 1) * size, j * size:(j + 1) * size]
            out[:, :, i, j] = np.max(window, axis=(2, 3))
    cache = (x, size)
    return out, cache


def max_pool_backward_naive(dout, cache):
    x, size = cache
    dx = np.zeros_like(x)
    for i in range(dout.shape[2]):
        for j in range(dout.shape[3]):
            rows = slice(i * size, (i + 1) * size)
            cols = slice(j * size, (j + 1) * size)
            window = x[:, :, rows, cols]
            mask = window == np.max(window, axis=(2, 3), keepdims=True)
            dx[:, :, rows, cols] += mask * dout[:, :, i, j][:, :, None, None]
    return dx


def loss(w, b, x, y):
    conv, _ = conv_forward_naive(x, w, b, 1)
    pooled, _ = max_pool_forward_naive(conv, 2)
    return 0.5 * np.sum((pooled - y) ** 2)


def loss_and_grad_by_hand(w, b, x, y):
    conv, conv_cache = conv_forward_naive(x, w, b, 1)
    pooled, pool_cache = max_pool_forward_naive(conv, 2)
    diff = pooled - y
    value = 0.5 * np.sum(diff ** 2)
    dconv = max_pool_backward_naive(diff, pool_cache)
    _, dw, db = conv_backward_naive(dconv, conv_cache)
    return value, (dw, db)


def make_args(small=False):
    n, c, size, f = (2, 2, 4, 3) if small else (4, 3, 8, 6)
    rng = np.random.default_rng(4)
    w = rng.standard_normal((f, c, 3, 3)) / 3.0
    b = 0.1 * rng.standard_normal(f)
    x = rng.standard_normal((n, c, size, size))
    y = rng.standard_normal((n, f, size // 2, size // 2))
    return w, b, x, y
