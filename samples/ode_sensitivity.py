"""Forward-mode sensitivities of an ODE solution with respect to its parameters.

The Lotka-Volterra predator-prey model, integrated with a fixed-step Runge-Kutta scheme written
in plain NumPy. ``sg.jacobian(..., mode="forward")`` differentiates the whole integration loop
in forward mode: one tangent sweep per parameter, carried along with the solution, which is
what sensitivity analysis wants when there are few parameters and many outputs.
Run: ``python samples/ode_sensitivity.py``.
"""

import numpy as np

import sourcegrad as sg


def lotka_volterra(y, params):
    alpha, beta, delta, gamma = params[0], params[1], params[2], params[3]
    prey, predator = y[0], y[1]
    return np.stack([alpha * prey - beta * prey * predator,
                     delta * prey * predator - gamma * predator])


def rk4_step(y, params, h):
    k1 = lotka_volterra(y, params)
    k2 = lotka_volterra(y + 0.5 * h * k1, params)
    k3 = lotka_volterra(y + 0.5 * h * k2, params)
    k4 = lotka_volterra(y + h * k3, params)
    return y + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)


def trajectory(params, y0, t_end, steps):
    """The populations at ``steps`` equally spaced times up to ``t_end``: shape (steps, 2)."""
    h = t_end / steps
    y = y0
    states = []
    for _ in range(steps):
        y = rk4_step(y, params, h)
        states.append(y)
    return np.stack(states)


def decay(k, y0, t_end, steps):
    """y' = -k y, whose exact sensitivity d y(T) / d k = -T y0 exp(-k T) checks the method."""
    h = t_end / steps
    y = y0
    for _ in range(steps):
        y = y + h * (-k * y)
    return y


def main() -> None:
    params = np.array([1.1, 0.4, 0.1, 0.4])
    y0 = np.array([10.0, 5.0])
    sensitivities = sg.jacobian(trajectory, wrt=0, mode="forward")(params, y0, 10.0, 200)
    print("d population(t) / d parameter at the final time:")
    for name, column in zip(["alpha", "beta", "delta", "gamma"], sensitivities[-1].T,
                            strict=True):
        print(f"  {name:5s}  prey {column[0]:+10.4f}  predator {column[1]:+10.4f}")

    eps = 1e-6
    for j in range(4):
        bump = np.eye(4)[j] * eps
        fd = (trajectory(params + bump, y0, 10.0, 200)
              - trajectory(params - bump, y0, 10.0, 200)) / (2 * eps)
        assert np.allclose(sensitivities[:, :, j], fd, rtol=1e-4, atol=1e-5), j
    print("matches central finite differences")

    k, t_end, steps = 0.7, 2.0, 20000
    _, dy_dk = sg.jvp(decay, (k, 3.0, t_end, steps), (1.0, None, None, None))
    exact = -t_end * 3.0 * np.exp(-k * t_end)
    print(f"decay: d y(T)/dk = {dy_dk:.6f}, exact {exact:.6f}")
    assert abs(dy_dk - exact) < 1e-3

    print("tangent code of the decay integrator:")
    print(sg.source(decay, wrt="k", mode="forward"))


if __name__ == "__main__":
    main()
