"""The benchmark workloads that are not samples: plain NumPy / ``math`` code and its
hand-written gradient.

They are written the way the samples are (``def``, loops, ``np.*``/``math.*`` calls) so that
``sg.grad``, tangent-ad, autograd and JAX can all be handed the same source.
"""

import math

import numpy as np

CHAIN_ROUNDS = 25  # four elementwise ops per round: a chain of 100
SCALAR_STEPS = 1000


def chain(x):
    """A hundred elementwise ops on a small array: the cost is per-op overhead, not FLOPs."""
    for _ in range(CHAIN_ROUNDS):
        x = np.tanh(x)
        x = x * 1.5
        x = np.exp(x)
        x = x - 1.0
    return np.sum(x)


def chain_grad_by_hand(x):
    """Keep each round's exp and tanh outputs, then apply their derivatives in reverse."""
    saved = []
    for _ in range(CHAIN_ROUNDS):
        tanh_x = np.tanh(x)
        exp_x = np.exp(tanh_x * 1.5)
        saved.append((tanh_x, exp_x))
        x = exp_x - 1.0
    dx = np.ones_like(x)
    for tanh_x, exp_x in reversed(saved):
        dx = dx * exp_x * 1.5 * (1.0 - tanh_x * tanh_x)
    return dx


def scalar_loop(x):
    """A thousand steps of scalar arithmetic on a Python float."""
    for _ in range(SCALAR_STEPS):
        x = x * 0.99 + math.sin(x) * 0.01
    return x


def scalar_loop_grad_by_hand(x):
    """The derivative of each step is 0.99 + 0.01 cos(x); multiply them along the way."""
    dx = 1.0
    for _ in range(SCALAR_STEPS):
        dx = dx * (0.99 + math.cos(x) * 0.01)
        x = x * 0.99 + math.sin(x) * 0.01
    return dx


def reduction(x):
    """A Gaussian-windowed sine summed over a large array: memory-bound elementwise work."""
    return np.sum(np.sin(x) * np.exp(-0.5 * x * x))


def reduction_grad_by_hand(x):
    window = np.exp(-0.5 * x * x)
    return window * (np.cos(x) - x * np.sin(x))
