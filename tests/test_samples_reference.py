"""The hand-written gradients of the samples and benchmarks are checked against central
finite differences, since benchmarks and transformer tests use them as the reference; then
``sg.grad`` is checked against them, and each sample's training is checked to make progress."""

import numpy as np
import pytest

import sourcegrad as sg
from benchmarks import functions
from samples import logistic_regression, mlp, ode_physics, rnn

from .fd import EPS, assert_close, numerical_grad


def directional_difference(fun, args, positions, rng):
    """(f(x + h v) - f(x - h v)) / 2h along one random direction in all ``positions``."""
    directions = {p: rng.standard_normal(np.shape(args[p])) for p in positions}
    shifted = []
    for sign in (1.0, -1.0):
        call_args = list(args)
        for p in positions:
            call_args[p] = args[p] + sign * EPS * directions[p]
        shifted.append(fun(*call_args))
    return (shifted[0] - shifted[1]) / (2 * EPS), directions


def assert_matches_central_differences(fun, grad_by_hand, args, positions):
    by_hand = grad_by_hand(*args)
    by_hand = by_hand if isinstance(by_hand, tuple) else (by_hand,)
    assert len(by_hand) == len(positions)
    for gradient, position in zip(by_hand, positions, strict=True):
        expected = numerical_grad(fun, args, position)
        assert_close(gradient, expected, rtol=1e-6, atol=1e-8)


SMALL_CASES = {
    "logistic_regression": (
        logistic_regression,
        lambda: (*logistic_regression.init_params(5), *logistic_regression.make_data(12, 5)),
        (0, 1),
    ),
    "mlp": (
        mlp,
        lambda: (*mlp.init_params(6, 5, 3), *mlp.make_data(7, 6, 3)),
        (0, 1, 2, 3),
    ),
    "rnn": (
        rnn,
        lambda: (*rnn.init_params(3, 4, 2), *rnn.make_data(5, 2, 3)),
        (0, 1, 2),
    ),
}


@pytest.mark.parametrize("name", sorted(SMALL_CASES))
def test_sample_gradient_by_hand_matches_central_differences(name):
    module, make_args, positions = SMALL_CASES[name]
    args = make_args()
    assert_matches_central_differences(module.loss, module.loss_grad_by_hand, args, positions)


def test_rnn_careful_gradient_by_hand_matches_central_differences():
    """The benchmarks' careful RNN gradient (one product per weight over all steps)."""
    args = SMALL_CASES["rnn"][1]()
    assert_matches_central_differences(rnn.loss, rnn.loss_grad_by_hand_batched, args, (0, 1, 2))


def test_logistic_regression_gradient_with_a_nonzero_bias():
    w, _, X, y = SMALL_CASES["logistic_regression"][1]()
    args = (w * 50.0, -0.7, X, y)  # large logits: exercises the overflow-safe form
    assert_matches_central_differences(
        logistic_regression.loss, logistic_regression.loss_grad_by_hand, args, (0, 1)
    )


def test_logistic_regression_loss_is_the_cross_entropy_of_the_sigmoid():
    w, b, X, y = SMALL_CASES["logistic_regression"][1]()
    p = 1.0 / (1.0 + np.exp(-(X @ w + 0.3)))
    expected = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    assert logistic_regression.loss(w, 0.3, X, y) == pytest.approx(expected, rel=1e-12)


BENCHMARK_SIZE_CASES = {
    "logistic_regression": (
        logistic_regression,
        lambda: (*logistic_regression.init_params(), *logistic_regression.make_data()),
        (0,),
    ),
    "mlp": (mlp, lambda: (*mlp.init_params(), *mlp.make_data()), (0, 1, 2, 3)),
    "rnn": (rnn, lambda: (*rnn.init_params(), *rnn.make_data()), (0, 1, 2)),
}


@pytest.mark.parametrize("name", sorted(BENCHMARK_SIZE_CASES))
def test_gradient_by_hand_at_benchmark_size_along_a_random_direction(name):
    module, make_args, positions = BENCHMARK_SIZE_CASES[name]
    args = make_args()
    slope, directions = directional_difference(
        module.loss, args, positions, np.random.default_rng(3)
    )
    by_hand = module.loss_grad_by_hand(*args)
    predicted = sum(np.sum(by_hand[p] * directions[p]) for p in positions)
    assert predicted == pytest.approx(slope, rel=1e-5)


@pytest.mark.parametrize(
    "fun, grad_by_hand, arg",
    [
        (functions.chain, functions.chain_grad_by_hand, np.linspace(-1.0, 1.0, 10)),
        (functions.scalar_loop, functions.scalar_loop_grad_by_hand, 0.7),
        (functions.reduction, functions.reduction_grad_by_hand, np.linspace(-3.0, 3.0, 40)),
    ],
    ids=["chain", "scalar_loop", "reduction"],
)
def test_benchmark_gradient_by_hand_matches_central_differences(fun, grad_by_hand, arg):
    assert_matches_central_differences(fun, grad_by_hand, (arg,), (0,))


def test_projectile_without_drag_follows_the_euler_closed_form():
    """With no drag, n Euler steps give x = v t and y = vy t - g dt^2 n (n - 1) / 2."""
    velocity = np.array([12.0, 7.0])
    dt, t_end = 1 / 16, 2.0  # a power of two: t reaches t_end exactly after 32 steps
    position = ode_physics.simulate(velocity, 0.0, t_end=t_end, dt=dt)
    n = 32
    expected = np.array([12.0 * n * dt, 7.0 * n * dt - 9.81 * dt * dt * n * (n - 1) / 2])
    np.testing.assert_allclose(position, expected, rtol=1e-12)


def test_drag_shortens_the_flight():
    velocity = np.array([12.0, 7.0])
    free = ode_physics.simulate(velocity, 0.0)
    dragged = ode_physics.simulate(velocity, 0.3)
    assert dragged[0] < free[0]


# sg.grad against the references above.

WRT_NAMES = {
    "logistic_regression": ("w", "b"),
    "mlp": ("W1", "b1", "W2", "b2"),
    "rnn": ("Wxh", "Whh", "Why"),
}


@pytest.mark.parametrize("name", sorted(SMALL_CASES))
def test_sg_grad_of_a_sample_matches_its_gradient_by_hand(name):
    module, make_args, _ = SMALL_CASES[name]
    args = make_args()
    gradient = sg.grad(module.loss, wrt=WRT_NAMES[name])
    assert_close(gradient(*args), module.loss_grad_by_hand(*args), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(
    "fun, grad_by_hand, arg",
    [
        (functions.chain, functions.chain_grad_by_hand, np.linspace(-1.0, 1.0, 10)),
        (functions.scalar_loop, functions.scalar_loop_grad_by_hand, 0.7),
        (functions.reduction, functions.reduction_grad_by_hand, np.linspace(-3.0, 3.0, 40)),
    ],
    ids=["chain", "scalar_loop", "reduction"],
)
def test_sg_grad_of_a_benchmark_function_matches_its_gradient_by_hand(fun, grad_by_hand, arg):
    assert_close(sg.grad(fun)(arg), grad_by_hand(arg), rtol=1e-9, atol=1e-12)


def test_sg_grad_through_the_projectile_while_loop_matches_central_differences():
    args = (np.array([10.0, 10.0]), 0.1, ode_physics.TARGET)
    d_velocity, d_drag = sg.grad(ode_physics.loss, wrt=("velocity", "drag"))(*args)
    assert_close(d_velocity, numerical_grad(ode_physics.loss, args, 0), rtol=1e-6, atol=1e-6)
    assert_close(d_drag, numerical_grad(ode_physics.loss, args, 1), rtol=1e-6, atol=1e-6)


def printed_numbers(text, label):
    """The number after ``label`` on each line of a sample's output."""
    return [float(line.split(label)[1].split()[0]) for line in text.splitlines() if label in line]


@pytest.mark.parametrize(
    "module, label",
    [(logistic_regression, "loss"), (mlp, "loss"), (rnn, "loss"), (ode_physics, "miss")],
    ids=["logistic_regression", "mlp", "rnn", "ode_physics"],
)
def test_sample_training_with_sg_grad_reduces_the_loss(module, label, capsys):
    module.main()
    values = printed_numbers(capsys.readouterr().out, label)
    assert len(values) >= 5
    assert values[-1] < 0.5 * values[0]
    assert all(later <= earlier for earlier, later in zip(values, values[1:], strict=False))
