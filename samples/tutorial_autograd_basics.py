"""Automatic differentiation with sourcegrad's runtime, following PyTorch's autograd
tutorial: a one-layer network, its gradients, turning tracking off, and
Jacobian-vector products with accumulation.

Run: python samples/tutorial_autograd_basics.py
"""

import sourcegrad as sg
from sourcegrad.nn import functional as F


def one_layer_network():
    """Input x, parameters w and b, a logistic loss against the target y."""
    x = sg.ones(5)  # the input
    y = sg.zeros(3)  # the expected output
    w = sg.randn(5, 3, requires_grad=True)
    b = sg.randn(3, requires_grad=True)
    z = sg.matmul(x, w) + b
    loss = F.binary_cross_entropy_with_logits(z, y)
    return x, y, w, b, z, loss


def gradients():
    """loss.backward() fills w.grad and b.grad, the leaves that require grad."""
    x, y, w, b, z, loss = one_layer_network()
    print("Gradient function for z =", z.grad_fn)
    print("Gradient function for loss =", loss.grad_fn)
    loss.backward()
    print(w.grad)
    print(b.grad)
    return x, y, w, b, z


def tracking_off(x, w, b):
    """Inside no_grad, or after detach(), results do not require grad."""
    z = sg.matmul(x, w) + b
    tracked = z.requires_grad
    with sg.no_grad():
        z = sg.matmul(x, w) + b
    untracked = z.requires_grad
    detached = (sg.matmul(x, w) + b).detach().requires_grad
    print(tracked, untracked, detached)
    return tracked, untracked, detached


def jacobian_products():
    """backward with a gradient for a matrix output; calls accumulate until zero_()."""
    inp = sg.eye(5, requires_grad=True)
    out = (inp + 1).pow(2)
    out.backward(sg.ones_like(inp), retain_graph=True)
    first = inp.grad.numpy().copy()
    print("First call\n", inp.grad)
    out.backward(sg.ones_like(inp), retain_graph=True)
    second = inp.grad.numpy().copy()
    print("\nSecond call\n", inp.grad)
    inp.grad.zero_()
    out.backward(sg.ones_like(inp), retain_graph=True)
    print("\nCall after zeroing gradients\n", inp.grad)
    return first, second, inp.grad.numpy().copy()


def main():
    x, y, w, b, z = gradients()
    tracking_off(x, w, b)
    jacobian_products()


if __name__ == "__main__":
    main()
