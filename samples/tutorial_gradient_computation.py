"""Gradient computation step by step: grad_fn, backward on scalars and non-scalars,
three ways to stop tracking, and gradients accumulating across backward calls.

Run: python samples/tutorial_gradient_computation.py
"""

import sourcegrad as sg


def scalar_output():
    """z = mean(2 (x + 2)^2), so dz/dx = 4 (x + 2) / 3."""
    x = sg.randn(3, requires_grad=True)
    print(x)
    y = x + 2
    print(y)
    z = y * y * 2
    print(z)
    z = z.mean()
    print(z)
    z.backward()
    print(x.grad)
    return x, z


def non_scalar_output():
    """A vector output needs a gradient argument: the vector of the vector-Jacobian
    product."""
    x = sg.randn(3, requires_grad=True)
    y = x + 2
    z = y * y * 2
    print(z)
    try:
        z.backward()
        message = None
    except RuntimeError as error:
        message = str(error)
        print("Error: ", error)
    v = sg.tensor([0.1, 1.0, 0.001], dtype=sg.float)
    z.backward(v)
    print(x.grad)
    return x, v, message


def stop_tracking():
    """requires_grad_(False), detach() and no_grad each give results without history."""
    x = sg.randn(3, requires_grad=True)
    print(x)
    x.requires_grad_(False)
    print(x)
    flag_off = x.requires_grad

    x = sg.randn(3, requires_grad=True)
    detached = x.detach()
    print(detached)

    x = sg.randn(3, requires_grad=True)
    with sg.no_grad():
        y = x * 2
        print(y)
    return flag_off, detached.requires_grad, y.requires_grad


def accumulation(zero_each_time):
    """backward() adds into .grad: 3, 6, 9 unless the gradient is zeroed in between."""
    weights = sg.ones(3, requires_grad=True)
    seen = []
    for _ in range(3):
        model_output = (weights * 3).sum()
        model_output.backward()
        print(weights.grad)
        seen.append(weights.grad.tolist())
        if zero_each_time:
            weights.grad.zero_()
    return seen


def main():
    scalar_output()
    non_scalar_output()
    stop_tracking()
    accumulation(zero_each_time=False)
    accumulation(zero_each_time=True)


if __name__ == "__main__":
    main()
