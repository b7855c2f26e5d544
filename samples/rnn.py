"""A vanilla RNN that learns to report the running mean of its first input channel.

The hidden state is updated at each step of a ``for t in range(T)`` loop; the loss is the
squared error of a linear read-out of the final state. ``sg.grad`` differentiates the loop
with respect to the three weight matrices. Run: ``python samples/rnn.py``.
"""

import numpy as np

import sourcegrad as sg


def make_data(n_steps=50, batch=8, n_in=8, seed=0):
    """Sequences ``xs`` of shape (n_steps, batch, n_in); targets the mean of channel 0."""
    rng = np.random.default_rng(seed)
    xs = rng.standard_normal((n_steps, batch, n_in))
    ys = np.mean(xs[:, :, :1], axis=0)
    return xs, ys


def init_params(n_in=8, n_hidden=32, n_out=1, seed=1):
    """Recurrent weights scaled well below 1 so the state neither explodes nor dies at once."""
    rng = np.random.default_rng(seed)
    Wxh = rng.standard_normal((n_in, n_hidden)) / np.sqrt(n_in)
    Whh = 0.5 * rng.standard_normal((n_hidden, n_hidden)) / np.sqrt(n_hidden)
    Why = rng.standard_normal((n_hidden, n_out)) / np.sqrt(n_hidden)
    return Wxh, Whh, Why


def loss(Wxh, Whh, Why, xs, ys):
    """Mean squared error of the read-out of the last hidden state."""
    h = np.zeros((xs.shape[1], Whh.shape[0]))
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ Wxh + h @ Whh)
    prediction = h @ Why
    return np.mean((prediction - ys) ** 2)


def loss_grad_by_hand(Wxh, Whh, Why, xs, ys):
    """Backpropagation through time: keep every state, then walk the steps backwards."""
    states = [np.zeros((xs.shape[1], Whh.shape[0]))]
    for t in range(xs.shape[0]):
        states.append(np.tanh(xs[t] @ Wxh + states[-1] @ Whh))
    prediction = states[-1] @ Why
    d_prediction = 2.0 * (prediction - ys) / prediction.size
    dWhy = states[-1].T @ d_prediction
    dWxh = np.zeros_like(Wxh)
    dWhh = np.zeros_like(Whh)
    dh = d_prediction @ Why.T
    for t in range(xs.shape[0] - 1, -1, -1):
        d_pre = dh * (1.0 - states[t + 1] ** 2)
        dWxh += xs[t].T @ d_pre
        dWhh += states[t].T @ d_pre
        dh = d_pre @ Whh.T
    return dWxh, dWhh, dWhy


def loss_grad_by_hand_batched(Wxh, Whh, Why, xs, ys):
    """The careful form: the inputs' projections of all steps as one product before the
    loop, and the weight gradients as one product over all steps after it."""
    steps, batch, hidden = xs.shape[0], xs.shape[1], Whh.shape[0]
    projected = xs @ Wxh
    states = np.empty((steps + 1, batch, hidden))
    states[0] = 0.0
    for t in range(steps):
        states[t + 1] = np.tanh(projected[t] + states[t] @ Whh)
    prediction = states[-1] @ Why
    d_prediction = 2.0 * (prediction - ys) / prediction.size
    d_pre = np.empty((steps, batch, hidden))
    dh = d_prediction @ Why.T
    for t in range(steps - 1, -1, -1):
        d_pre[t] = dh * (1.0 - states[t + 1] ** 2)
        dh = d_pre[t] @ Whh.T
    d_pre_rows = d_pre.reshape(-1, hidden)
    dWxh = xs.reshape(-1, xs.shape[2]).T @ d_pre_rows
    dWhh = states[:-1].reshape(-1, hidden).T @ d_pre_rows
    return dWxh, dWhh, states[-1].T @ d_prediction


def main():
    xs, ys = make_data()
    Wxh, Whh, Why = init_params(xs.shape[2], 32, ys.shape[1])
    loss_grad = sg.grad(loss, wrt=("Wxh", "Whh", "Why"))
    learning_rate = 0.2
    for step in range(101):
        dWxh, dWhh, dWhy = loss_grad(Wxh, Whh, Why, xs, ys)
        Wxh = Wxh - learning_rate * dWxh
        Whh = Whh - learning_rate * dWhh
        Why = Why - learning_rate * dWhy
        if step % 10 == 0:
            print(f"step {step:3d}  loss {loss(Wxh, Whh, Why, xs, ys):.3e}")


if __name__ == "__main__":
    main()
