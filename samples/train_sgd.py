"""Logistic regression trained with sg.optim.SGD on a synthetic, linearly separable
dataset: the training loop a PyTorch user writes, with sourcegrad in place of torch.

Run: python samples/train_sgd.py
"""

import numpy as np

import sourcegrad as sg
from sourcegrad.nn import functional as F


def make_dataset(n=200, seed=0):
    rng = np.random.default_rng(seed)
    features = rng.standard_normal((n, 2)).astype(np.float32)
    true_w = np.array([2.0, -3.0], dtype=np.float32)
    labels = (features @ true_w + 0.5 > 0).astype(np.float32)
    return sg.from_numpy(features), sg.from_numpy(labels)


def accuracy(w, b, x, y):
    with sg.no_grad():
        predicted = (x @ w + b > 0).numpy()
    return float(np.mean(predicted == y.numpy()))


def train(epochs=100, lr=0.5, momentum=0.9, weight_decay=1e-4):
    x, y = make_dataset()
    w = sg.zeros(2, requires_grad=True)
    b = sg.zeros(1, requires_grad=True)
    optimizer = sg.optim.SGD([w, b], lr=lr, momentum=momentum, weight_decay=weight_decay)
    losses = []
    for _ in range(epochs):
        optimizer.zero_grad()
        loss = F.binary_cross_entropy_with_logits(x @ w + b, y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, accuracy(w, b, x, y), w


def main():
    losses, acc, w = train()
    print(f"loss {losses[0]:.4f} -> {losses[-1]:.4f}, accuracy {acc:.3f}, w = {w}")


if __name__ == "__main__":
    main()
