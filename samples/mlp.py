"""A 2-layer perceptron (tanh hidden layer, softmax cross-entropy) trained with ``sg.grad``.

The data are synthetic: points drawn around one random centre per class, so that the
network has something to learn without a download. Run: ``python samples/mlp.py``.
"""

import numpy as np

import sourcegrad as sg


def make_data(n=256, n_in=784, n_classes=10, seed=0):
    """Inputs near one of ``n_classes`` random centres; ``Y`` is the one-hot label matrix."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((n_classes, n_in))
    labels = rng.integers(0, n_classes, size=n)
    X = centres[labels] + 2.0 * rng.standard_normal((n, n_in))
    Y = np.eye(n_classes)[labels]
    return X, Y


def init_params(n_in=784, n_hidden=256, n_out=10, seed=1):
    """Weights scaled by 1/sqrt(fan-in) so tanh starts in its linear range."""
    rng = np.random.default_rng(seed)
    W1 = rng.standard_normal((n_in, n_hidden)) / np.sqrt(n_in)
    b1 = np.zeros(n_hidden)
    W2 = rng.standard_normal((n_hidden, n_out)) / np.sqrt(n_hidden)
    b2 = np.zeros(n_out)
    return W1, b1, W2, b2


def loss(W1, b1, W2, b2, X, Y):
    """Mean softmax cross-entropy; the max is subtracted before exp so nothing overflows."""
    hidden = np.tanh(X @ W1 + b1)
    logits = hidden @ W2 + b2
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    return -np.sum(Y * log_probs) / X.shape[0]


def loss_grad_by_hand(W1, b1, W2, b2, X, Y):
    """Backpropagation by hand: softmax minus one-hot at the logits, then the chain rule."""
    hidden = np.tanh(X @ W1 + b1)
    logits = hidden @ W2 + b2
    shifted = logits - np.max(logits, axis=1, keepdims=True)
    exp_shifted = np.exp(shifted)
    probs = exp_shifted / np.sum(exp_shifted, axis=1, keepdims=True)
    d_logits = (probs - Y) / X.shape[0]
    d_hidden = d_logits @ W2.T
    d_pre = d_hidden * (1.0 - hidden * hidden)
    return X.T @ d_pre, np.sum(d_pre, axis=0), hidden.T @ d_logits, np.sum(d_logits, axis=0)


def accuracy(W1, b1, W2, b2, X, Y):
    logits = np.tanh(X @ W1 + b1) @ W2 + b2
    return float(np.mean(np.argmax(logits, axis=1) == np.argmax(Y, axis=1)))


def main():
    X, Y = make_data()
    W1, b1, W2, b2 = init_params(X.shape[1], 256, Y.shape[1])
    loss_grad = sg.grad(loss, wrt=("W1", "b1", "W2", "b2"))
    learning_rate = 0.1
    for step in range(31):
        dW1, db1, dW2, db2 = loss_grad(W1, b1, W2, b2, X, Y)
        W1 = W1 - learning_rate * dW1
        b1 = b1 - learning_rate * db1
        W2 = W2 - learning_rate * dW2
        b2 = b2 - learning_rate * db2
        if step % 5 == 0:
            current = loss(W1, b1, W2, b2, X, Y)
            correct = accuracy(W1, b1, W2, b2, X, Y)
            print(f"step {step:3d}  loss {current:.4f}  accuracy {correct:.3f}")


if __name__ == "__main__":
    main()
