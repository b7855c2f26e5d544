"""The sample functions whose generated gradient source is kept in ``tests/golden/``.

Each entry: the function, the arguments to check the golden file at, and ``wrt``.
"""

import collections

import numpy as np

import sourcegrad as sg

from . import corpus


def logistic_loss(w, b, X, y):
    z = X @ w + b
    return np.mean(np.logaddexp(0.0, z) - y * z)


def mlp_loss(W1, b1, W2, b2, X, Y):
    h = np.tanh(X @ W1 + b1)
    logits = h @ W2 + b2
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    return -np.mean(np.sum(Y * log_probs, axis=1))


def rnn_loss(Wx, Wh, xs, target):
    h = np.zeros(Wh.shape[0])
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ Wx + h @ Wh)
    return np.sum((h - target) ** 2)


# the forms and structures of issue 12
tanh_loss = lambda w, x: np.mean(np.tanh(x @ w) ** 2)  # noqa: E731


def layers_loss(params, x, y):
    h = x
    for layer in params:
        h = np.tanh(h @ layer["w"] + layer["b"])
    return np.mean((h - y) ** 2)


Affine = collections.namedtuple("Affine", "w b")


def affine_loss(p, x, y):
    prediction = x @ p.w + p.b
    return np.mean((prediction - y) ** 2)


def loss_with_accuracy(w, x, labels):
    scores = x @ w
    accuracy = np.mean((scores > 0) == labels)
    return np.mean(np.logaddexp(0.0, -scores * (2 * labels - 1))), accuracy


def energy(w, x):
    return np.sum(np.tanh(x @ w) ** 2)


def gradient_penalty(w, x):
    return np.sum(sg.grad(energy)(w, x) ** 2)


def gaussian_window(x):
    # the seed's ones multiply nothing in the specialised gradient (issue 14)
    return np.sum(np.sin(x) * np.exp(-0.5 * x * x))


def pair_loss(v, a, b):
    return np.log1p(np.exp(-(v[a] @ v[b])))


def pairs_loss(v, pairs):
    # a loss called once per pair, reading two rows: its gradient is row-sparse (issue 14)
    total = 0.0
    for i in range(len(pairs)):
        total = total + pair_loss(v, pairs[i][0], pairs[i][1])
    return total


def step(h, x, w):
    new_h = np.tanh(h * w + x)
    cache = (h, new_h)
    return new_h, cache


def step_loop(w, xs):
    # the step's cache is never read: the backward of step is made without its cotangent
    h = np.zeros(xs.shape[1])
    for t in range(xs.shape[0]):
        h, _cache = step(h, xs[t], w)
    return np.sum(h ** 2)


rng = np.random.default_rng(1)


def r(*shape):
    return rng.standard_normal(shape)


GOLDEN = {
    "straight": (corpus.straight, (r(3, 4), r(4, 2)), 1),
    "reassign": (corpus.reassign, (r(5),), 0),
    "for_range": (corpus.for_range, (r(3), 3), 0),
    "loop_carried": (corpus.loop_carried, (r(3), 4), 0),
    "for_over_array": (corpus.for_over_array, (r(4, 3),), 0),
    "for_zip": (corpus.for_zip, (r(3, 2), r(3, 2)), (0, 1)),
    "while_loop": (corpus.while_loop, (np.array([0.3, 0.2]),), 0),
    "branch": (corpus.branch, (np.abs(r(3)),), 0),
    "elif_chain": (corpus.elif_chain, (r(3), 0.5), 0),
    "early_return": (corpus.early_return, (r(3),), 0),
    "break_and_continue": (corpus.break_and_continue, (np.array([0.5, 0.7]),), 0),
    "return_in_loop": (corpus.return_in_loop, (np.array([0.1, 0.2]),), 0),
    "subscript_write": (corpus.subscript_write, (r(3),), 0),
    "list_append_stack": (corpus.list_append_stack, (r(3),), 0),
    "calls_user_function": (corpus.calls_user_function, (r(3),), 0),
    "scalar_math": (corpus.scalar_math, (0.7, 0.3), (0, 1)),
    "logistic_regression": (logistic_loss, (r(4), 0.1, r(6, 4), (r(6) > 0).astype(float)),
                            (0, 1)),
    "mlp": (mlp_loss, (r(4, 5), r(5), r(5, 3), r(3), r(6, 4), np.eye(3)[[0, 2, 1, 1, 0, 2]]),
            (0, 1, 2, 3)),
    "rnn": (rnn_loss, (r(3, 4) * 0.5, r(4, 4) * 0.5, r(5, 3), r(4)), (0, 1)),
    "lambda": (tanh_loss, (r(3, 2), r(4, 3)), 0),
    "for_layer_in_params": (layers_loss, ([{"w": r(3, 4), "b": r(4)}, {"w": r(4, 2), "b": r(2)}],
                                          r(5, 3), r(5, 2)), 0),
    "namedtuple_parameters": (affine_loss, (Affine(r(3, 2), r(2)), r(5, 3), r(5, 2)), 0),
    "has_aux": (loss_with_accuracy, (r(3), r(6, 3), (r(6) > 0).astype(float)), 0),
    "nested_grad": (gradient_penalty, (r(3, 2), r(4, 3)), 0),
    "unread_cache": (step_loop, (r(3), r(4, 3)), 0),
    "row_sparse": (pairs_loss, (r(5, 3), [(0, 1), (2, 0), (4, 4)]), 0),
    "gaussian_window": (gaussian_window, (r(6),), 0),
}
# options of sg.grad beside wrt
GOLDEN_OPTIONS = {"has_aux": {"has_aux": True}}
