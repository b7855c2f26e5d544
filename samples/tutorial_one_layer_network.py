"""A one-layer network with uniform random parameters: the loss's grad_fn, its gradients,
a second backward that needs retain_graph, and forward passes without tracking.

Run: python samples/tutorial_one_layer_network.py
"""

import sourcegrad as sg
from sourcegrad.nn import functional as F


def network():
    x = sg.ones(5)
    y = sg.zeros(3)
    w = sg.rand(5, 3, requires_grad=True)
    b = sg.rand(3, requires_grad=True)
    z = sg.matmul(x, w) + b
    loss = F.binary_cross_entropy_with_logits(z, y)
    print(z.grad_fn)
    print(loss.grad_fn)
    return x, y, w, b, z, loss


def backward_twice(loss, w, b):
    """Two backward calls on one graph: the first keeps it alive, the second adds the same
    gradient again."""
    loss.backward(retain_graph=True)
    once = (w.grad.numpy().copy(), b.grad.numpy().copy())
    print(w.grad)
    print(b.grad)
    loss.backward()
    print(w.grad)
    print(b.grad)
    return once, (w.grad.numpy().copy(), b.grad.numpy().copy())


def forward_only(x, w, b):
    z = sg.matmul(x, w) + b
    with sg.no_grad():
        z_eval = sg.matmul(x, w) + b
    z_detached = (sg.matmul(x, w) + b).detach()
    print(z.requires_grad, z_eval.requires_grad, z_detached.requires_grad)
    return z.requires_grad, z_eval.requires_grad, z_detached.requires_grad


def main():
    x, y, w, b, z, loss = network()
    backward_twice(loss, w, b)
    forward_only(x, w, b)


if __name__ == "__main__":
    main()
