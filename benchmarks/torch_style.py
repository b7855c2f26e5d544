"""The workloads as a PyTorch user writes them, with the library passed in as ``lib``.

``lib`` is ``torch`` or ``sourcegrad``: sourcegrad's runtime promises that PyTorch code
runs with ``sg`` in place of ``torch``, so both eager runtimes execute the very same lines.
Fused library functions are used where a PyTorch user would reach for them.
"""

import numpy as np

from benchmarks.functions import CHAIN_ROUNDS, SCALAR_STEPS


def logistic_regression(lib, w, b, X, y):
    return lib.nn.functional.binary_cross_entropy_with_logits(X @ w + b, y)


def mlp(lib, W1, b1, W2, b2, X, labels):
    hidden = lib.tanh(X @ W1 + b1)
    return lib.nn.functional.cross_entropy(hidden @ W2 + b2, labels)


def mlp_args(W1, b1, W2, b2, X, Y):
    """PyTorch users pass class indices to ``cross_entropy``, not a one-hot matrix."""
    return W1, b1, W2, b2, X, np.argmax(Y, axis=1)


def rnn(lib, Wxh, Whh, Why, xs, ys):
    h = lib.tanh(xs[0] @ Wxh)  # the initial state is zero, so step 0 has no recurrent term
    for t in range(1, xs.shape[0]):
        h = lib.tanh(xs[t] @ Wxh + h @ Whh)
    return lib.nn.functional.mse_loss(h @ Why, ys)


def chain(lib, x):
    for _ in range(CHAIN_ROUNDS):
        x = lib.tanh(x)
        x = x * 1.5
        x = lib.exp(x)
        x = x - 1.0
    return x.sum()


def scalar_loop(lib, x):
    for _ in range(SCALAR_STEPS):
        x = x * 0.99 + lib.sin(x) * 0.01
    return x


def reduction(lib, x):
    return (lib.sin(x) * lib.exp(-0.5 * x * x)).sum()
