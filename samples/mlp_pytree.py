"""A small MLP whose parameters are a list of dicts, one per layer, as JAX and autograd
users keep them, trained with ``sg.value_and_grad(..., has_aux=True)``: the loss is
differentiated, the accuracy computed beside it comes back as it is.

The gradient has the parameters' structure (a list of dicts of arrays), so the update is
one ``sg.tree_map`` over both. The data are synthetic: two interleaved half-moons.
Run: ``python samples/mlp_pytree.py``.
"""

import numpy as np

import sourcegrad as sg


def make_moons(n=200, noise=0.15, seed=0):
    """Two interleaved half circles in the plane; labels 0 and 1."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0.0, np.pi, n)
    labels = rng.integers(0, 2, n)
    x = np.where(labels == 0, np.cos(angle), 1.0 - np.cos(angle))
    y = np.where(labels == 0, np.sin(angle), 0.5 - np.sin(angle))
    points = np.stack([x, y], axis=1) + noise * rng.standard_normal((n, 2))
    return points, labels.astype(float)


def init_params(sizes=(2, 16, 16, 1), seed=1):
    """One dict per layer, weights scaled by 1/sqrt(fan-in)."""
    rng = np.random.default_rng(seed)
    return [{"w": rng.standard_normal((n_in, n_out)) / np.sqrt(n_in), "b": np.zeros(n_out)}
            for n_in, n_out in zip(sizes[:-1], sizes[1:], strict=True)]


def loss(params, points, labels):
    """Mean logistic loss of the network's score; the accuracy rides along as aux."""
    h = points
    for layer in params[:-1]:
        h = np.tanh(h @ layer["w"] + layer["b"])
    scores = (h @ params[-1]["w"] + params[-1]["b"])[:, 0]
    signs = 2.0 * labels - 1.0
    accuracy = np.mean((scores > 0) == (labels > 0.5))
    return np.mean(np.logaddexp(0.0, -signs * scores)), accuracy


def train(steps=300, learning_rate=0.5):
    points, labels = make_moons()
    params = init_params()
    step = sg.value_and_grad(loss, has_aux=True)
    history = []
    for _ in range(steps):
        (value, accuracy), grads = step(params, points, labels)
        params = sg.tree_map(lambda p, g: p - learning_rate * g, params, grads)
        history.append((value, accuracy))
    return params, history


def main():
    points, labels = make_moons()
    params = init_params()
    # the gradient against central finite differences, on the first layer's bias
    (value, accuracy), grads = sg.value_and_grad(loss, has_aux=True)(params, points, labels)
    eps, k = 1e-6, 3
    plus, minus = [dict(layer) for layer in params], [dict(layer) for layer in params]
    plus[0]["b"] = params[0]["b"] + eps * np.eye(16)[k]
    minus[0]["b"] = params[0]["b"] - eps * np.eye(16)[k]
    numeric = (loss(plus, points, labels)[0] - loss(minus, points, labels)[0]) / (2 * eps)
    assert abs(grads[0]["b"][k] - numeric) < 1e-6 * max(1.0, abs(numeric)), (grads, numeric)
    print(f"gradient checked: d loss / d params[0]['b'][{k}] = {grads[0]['b'][k]:.6f} "
          f"(finite differences {numeric:.6f})")
    print(f"gradient structure: list of {len(grads)} dicts with keys {sorted(grads[0])}")

    _, history = train()
    (first_loss, first_accuracy), (last_loss, last_accuracy) = history[0], history[-1]
    print(f"loss {first_loss:.3f} -> {last_loss:.3f}, "
          f"accuracy {first_accuracy:.2f} -> {last_accuracy:.2f}")
    assert last_loss < 0.5 * first_loss and last_accuracy > 0.9
    print("trained: a list of dicts differentiated, accuracy returned beside the loss")
    print()
    print(sg.value_and_grad(loss, has_aux=True).source)


if __name__ == "__main__":
    main()
