"""The 30-line function whose transformation is timed (its own module: the child process
imports only this and the library under test)."""

import numpy as np

HIDDEN = 5


def subject(W1, b1, W2, x, y):
    z1 = x @ W1
    z1 = z1 + b1
    mean1 = np.sum(z1, axis=1, keepdims=True) / HIDDEN
    centred1 = z1 - mean1
    var1 = np.sum(centred1 * centred1, axis=1, keepdims=True) / HIDDEN
    normed1 = centred1 / np.sqrt(var1 + 1e-5)
    h1 = np.tanh(normed1)
    gate = 1.0 / (1.0 + np.exp(-z1))
    h1 = h1 * gate
    z2 = h1 @ W2
    scale = np.sum(W2 * W2)
    z2 = z2 / (1.0 + scale)
    peak = np.max(z2, axis=1, keepdims=True)
    shifted = z2 - peak
    exp_z = np.exp(shifted)
    total = np.sum(exp_z, axis=1, keepdims=True)
    log_probs = shifted - np.log(total)
    picked = np.sum(y * log_probs, axis=1)
    data_term = -np.mean(picked)
    weight_term = 0.5 * (np.sum(W1 * W1) + scale)
    bias_term = 0.1 * np.sum(b1 * b1)
    spread = np.mean(h1 * h1) - np.mean(h1) ** 2
    activity = np.mean(np.abs(h1))
    sparsity = 0.01 * activity
    balance = 0.01 * (spread - 0.25) ** 2
    regulariser = 1e-3 * weight_term + bias_term
    penalty = sparsity + balance
    total_loss = data_term + regulariser
    total_loss = total_loss + penalty
    return total_loss


def subject_args():
    rng = np.random.default_rng(0)
    W1 = rng.standard_normal((6, HIDDEN)) / 3.0
    b1 = 0.1 * rng.standard_normal(HIDDEN)
    W2 = rng.standard_normal((HIDDEN, 3)) / 3.0
    x = rng.standard_normal((4, 6))
    y = np.eye(3)[rng.integers(0, 3, size=4)]
    return W1, b1, W2, x, y


WRT = (0, 1, 2)
