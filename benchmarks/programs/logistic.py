"""A library's L2-regularised logistic loss with an optional intercept, labels in {-1, 1}:
the intercept is the last weight when ``w`` has one more entry than ``X`` has columns (both
branches are differentiated); the hand-written gradient is the library's."""

import numpy as np

NAME = "logistic loss 1000x20, intercept"
WRT = ("w",)


def intercept_dot(w, X, y):
    c = 0.0
    if w.size == X.shape[1] + 1:
        c = w[-1]
        w = w[:-1]
    z = X @ w + c
    yz = y * z
    return w, c, yz


def log_logistic(x):
    return -np.logaddexp(0.0, -x)


def expit(x):
    return 1.0 / (1.0 + np.exp(-x))


def loss(w, X, y, alpha):
    w0, c, yz = intercept_dot(w, X, y)
    return -np.sum(log_logistic(yz)) + 0.5 * alpha * (w0 @ w0)


def loss_and_grad_by_hand(w, X, y, alpha):
    n_features = X.shape[1]
    grad = np.empty_like(w)
    w0, c, yz = intercept_dot(w, X, y)
    out = -np.sum(log_logistic(yz)) + 0.5 * alpha * (w0 @ w0)
    z = expit(yz)
    z0 = (z - 1.0) * y
    grad[:n_features] = X.T @ z0 + alpha * w0
    if grad.shape[0] > n_features:
        grad[-1] = z0.sum()
    return out, (grad,)


def make_args(small=False, intercept=True):
    n, d = (6, 3) if small else (1000, 20)
    rng = np.random.default_rng(5)
    X = rng.standard_normal((n, d))
    y = np.where(rng.uniform(size=n) < 0.5, -1.0, 1.0)
    w = 0.3 * rng.standard_normal(d + 1 if intercept else d)
    return w, X, y, 1.0
