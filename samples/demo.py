"""Differentiate a small NumPy function and print the gradient code sourcegrad writes for it."""

import numpy as np

import sourcegrad as sg


def loss(w, b, x, y):
    """Mean squared error of a one-layer tanh network."""
    prediction = np.tanh(x @ w + b)
    return np.mean((prediction - y) ** 2)


def main() -> None:
    rng = np.random.default_rng(0)
    w, b = rng.standard_normal((3, 2)), np.zeros(2)
    x, y = rng.standard_normal((5, 3)), rng.standard_normal((5, 2))
    grad_loss = sg.grad(loss, wrt=("w", "b"))
    print(grad_loss.source)
    grad_w, grad_b = grad_loss(w, b, x, y)
    print("grad_w =\n", grad_w)
    print("grad_b =", grad_b)


if __name__ == "__main__":
    main()
