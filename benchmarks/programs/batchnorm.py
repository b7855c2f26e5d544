"""A batch-norm layer in training mode as a course assignment writes it, step by step with
a cache of intermediates, and its compact hand-written backward; the loss is a squared error
of the normalised output."""

import numpy as np

NAME = "batch norm 64x100"
WRT = ("x", "gamma", "beta")


def batchnorm_forward(x, gamma, beta, eps):
    mu = np.mean(x, axis=0)
    xmu = x - mu
    var = np.mean(xmu ** 2, axis=0)
    sqrtvar = np.sqrt(var + eps)
    ivar = 1.0 / sqrtvar
    xhat = xmu * ivar
    out = gamma * xhat + beta
    cache = (xhat, gamma, xmu, ivar, sqrtvar, var, eps)
    return out, cache


def batchnorm_backward(dout, cache):
    xhat, gamma, xmu, ivar, sqrtvar, var, eps = cache
    n = dout.shape[0]
    dbeta = np.sum(dout, axis=0)
    dgamma = np.sum(dout * xhat, axis=0)
    dxhat = dout * gamma
    dx = (ivar / n) * (n * dxhat - np.sum(dxhat, axis=0) - xhat * np.sum(dxhat * xhat, axis=0))
    return dx, dgamma, dbeta


def loss(x, gamma, beta, y):
    out, _ = batchnorm_forward(x, gamma, beta, 1e-5)
    return 0.5 * np.sum((out - y) ** 2) / x.shape[0]


def loss_and_grad_by_hand(x, gamma, beta, y):
    out, cache = batchnorm_forward(x, gamma, beta, 1e-5)
    diff = out - y
    n = x.shape[0]
    value = 0.5 * np.sum(diff ** 2) / n
    dx, dgamma, dbeta = batchnorm_backward(diff / n, cache)
    return value, (dx, dgamma, dbeta)


def make_args(small=False):
    n, d = (5, 3) if small else (64, 100)
    rng = np.random.default_rng(3)
    x = 2.0 * rng.standard_normal((n, d)) + 1.0
    gamma = rng.uniform(0.5, 1.5, d)
    beta = 0.1 * rng.standard_normal(d)
    y = rng.standard_normal((n, d))
    return x, gamma, beta, y
