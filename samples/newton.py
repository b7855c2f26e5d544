"""Newton's method with the exact Hessian: minimize the Rosenbrock function.

``sg.hessian`` is forward mode run over the gradient code that reverse mode generates, so
each step solves ``H(x) dx = -g(x)`` with both computed from source transformation.
Run: ``python samples/newton.py``.
"""

import numpy as np

import sourcegrad as sg


def rosenbrock(x):
    """The banana valley: minimum 0 at x = (1, ..., 1)."""
    total = 0.0
    for i in range(x.shape[0] - 1):
        total = total + 100.0 * (x[i + 1] - x[i] ** 2) ** 2 + (1.0 - x[i]) ** 2
    return total


def positive_definite(H):
    """``H`` plus the smallest multiple of the identity (doubling) that makes it positive
    definite: away from the minimum the Hessian may have negative curvature, and a Newton step
    would then climb."""
    shift = 0.0
    while True:
        try:
            np.linalg.cholesky(H + shift * np.eye(len(H)))
            return H + shift * np.eye(len(H))
        except np.linalg.LinAlgError:
            shift = max(2 * shift, 1e-3 * np.abs(H).max())


def newton(f, x, steps=100, tolerance=1e-10):
    """Newton's method with a modified Hessian and step halving until the value decreases."""
    gradient, hessian = sg.grad(f), sg.hessian(f)
    for step in range(steps):
        g = gradient(x)
        if np.linalg.norm(g) < tolerance:
            return x, step
        dx = np.linalg.solve(positive_definite(hessian(x)), -g)
        scale = 1.0
        while f(x + scale * dx) > f(x) and scale > 1e-6:
            scale /= 2
        x = x + scale * dx
        print(f"step {step:2d}  f = {f(x):.3e}  |grad| = {np.linalg.norm(gradient(x)):.3e}")
    return x, steps


def main() -> None:
    x0 = np.array([-1.2, 1.0, 0.8])
    print("Hessian code (forward over reverse):")
    print(sg.hessian(rosenbrock).source)
    x, steps = newton(rosenbrock, x0)
    print(f"minimum after {steps} steps: x = {x}")
    assert np.allclose(x, 1.0, atol=1e-8), x


if __name__ == "__main__":
    main()
