"""A textbook network's backprop: the layers a list of dicts, column-vector activations,
sigmoid units, quadratic cost; ``backprop`` keeps every ``z`` and activation in lists and
walks them backwards. Small layers (4-8-8-3), a mini-batch of 10 columns; the input ``x`` is
not differentiated."""

import numpy as np

NAME = "MLP backprop over a list of layers, 4-8-8-3"
WRT = ("layers",)


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def sigmoid_prime(z):
    return sigmoid(z) * (1.0 - sigmoid(z))


def feedforward(layers, a):
    for layer in layers:
        a = sigmoid(layer["W"] @ a + layer["b"])
    return a


def loss(layers, x, y):
    a = feedforward(layers, x)
    return 0.5 * np.sum((a - y) ** 2)


def loss_and_grad_by_hand(layers, x, y):
    activation = x
    activations = [x]
    zs = []
    for layer in layers:
        z = layer["W"] @ activation + layer["b"]
        zs.append(z)
        activation = sigmoid(z)
        activations.append(activation)
    cost = 0.5 * np.sum((activation - y) ** 2)
    delta = (activation - y) * sigmoid_prime(zs[-1])
    grads = [None] * len(layers)
    grads[-1] = {"W": delta @ activations[-2].T, "b": np.sum(delta, axis=1, keepdims=True)}
    for back in range(2, len(layers) + 1):
        delta = (layers[-back + 1]["W"].T @ delta) * sigmoid_prime(zs[-back])
        grads[-back] = {"W": delta @ activations[-back - 1].T,
                        "b": np.sum(delta, axis=1, keepdims=True)}
    return cost, (grads,)


def make_args(small=False):
    sizes, batch = ([3, 4, 2], 2) if small else ([4, 8, 8, 3], 10)
    rng = np.random.default_rng(2)
    layers = [{"W": rng.standard_normal((m, n)), "b": rng.standard_normal((m, 1))}
              for n, m in zip(sizes[:-1], sizes[1:], strict=True)]
    x = rng.standard_normal((sizes[0], batch))
    y = rng.uniform(0.0, 1.0, (sizes[-1], batch))
    return layers, x, y
