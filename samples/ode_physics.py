"""Aim a projectile with air drag at a target, by gradient descent through the integrator.

The flight is integrated with explicit Euler in a ``while t < t_end:`` loop; the loss is the
squared distance between where the projectile is at ``t_end`` and the target. ``sg.grad``
differentiates through every step, giving the sensitivity of the miss to the launch velocity
and to the drag coefficient; the launch velocity is then optimised.
Run: ``python samples/ode_physics.py``.
"""

import numpy as np

import sourcegrad as sg

GRAVITY = np.array([0.0, -9.81])
TARGET = np.array([30.0, 5.0])


def simulate(velocity, drag, t_end=2.0, dt=0.01):
    """Final position of a point mass launched from the origin, with linear drag."""
    position = np.zeros(2)
    t = 0.0
    while t < t_end:
        acceleration = GRAVITY - drag * velocity
        position = position + dt * velocity
        velocity = velocity + dt * acceleration
        t = t + dt
    return position


def loss(velocity, drag, target):
    """Squared distance from the final position to the target."""
    miss = simulate(velocity, drag) - target
    return np.sum(miss * miss)


def main():
    velocity = np.array([10.0, 10.0])
    drag = 0.1
    loss_grad = sg.grad(loss, wrt=("velocity", "drag"))
    learning_rate = 0.05
    for step in range(41):
        d_velocity, d_drag = loss_grad(velocity, drag, TARGET)
        if step % 5 == 0:
            distance = np.sqrt(loss(velocity, drag, TARGET))
            print(
                f"step {step:3d}  miss {distance:8.4f} m  velocity {velocity.round(3)}"
                f"  d miss^2 / d drag {d_drag:9.3f}"
            )
        velocity = velocity - learning_rate * d_velocity


if __name__ == "__main__":
    main()
