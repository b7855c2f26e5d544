"""Logistic regression trained by plain gradient descent, the gradient from ``sg.grad``.

Run: ``python samples/logistic_regression.py``.
"""

import numpy as np

import sourcegrad as sg


def make_data(n=1000, d=100, seed=0):
    """A linearly separable-ish problem: labels from a hidden weight vector plus noise."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w_true = rng.standard_normal(d) / np.sqrt(d)
    noise = 0.3 * rng.standard_normal(n)
    y = (X @ w_true + noise > 0).astype(float)
    return X, y


def init_params(d=100, seed=1):
    rng = np.random.default_rng(seed)
    w = 0.01 * rng.standard_normal(d)
    b = 0.0
    return w, b


def loss(w, b, X, y):
    """Mean binary cross-entropy of sigmoid(X @ w + b).

    With z the logit, -log(sigmoid(z)) = log(1 + exp(-z)), so the cross-entropy is
    log(1 + exp(z)) - y * z, written with logaddexp so that large |z| cannot overflow.
    """
    z = X @ w + b
    return np.mean(np.logaddexp(0.0, z) - y * z)


def loss_grad_by_hand(w, b, X, y):
    """The gradient a careful person writes by hand: (sigmoid(z) - y) / n, pulled back."""
    z = X @ w + b
    probability = np.exp(z - np.logaddexp(0.0, z))
    dz = (probability - y) / X.shape[0]
    return X.T @ dz, float(np.sum(dz))


def accuracy(w, b, X, y):
    return float(np.mean((X @ w + b > 0) == (y > 0.5)))


def main():
    X, y = make_data()
    w, b = init_params(X.shape[1])
    loss_grad = sg.grad(loss, wrt=("w", "b"))
    learning_rate = 0.5
    for step in range(201):
        dw, db = loss_grad(w, b, X, y)
        w = w - learning_rate * dw
        b = b - learning_rate * db
        if step % 20 == 0:
            current, correct = loss(w, b, X, y), accuracy(w, b, X, y)
            print(f"step {step:3d}  loss {current:.4f}  accuracy {correct:.3f}")


if __name__ == "__main__":
    main()
