"""Each sample runs, and its numbers obey the relations the tutorials show (random draws
differ from PyTorch's, so relations rather than printed digits)."""

import runpy
from pathlib import Path

import numpy as np
import pytest

import sourcegrad as sg

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
# the Dask sample fits 3.2 GB by default: tests/test_samples.py runs it at a tiny size
SCRIPTS = sorted(p.name for p in SAMPLES.glob("*.py")
                 if p.name not in ("__init__.py", "dask_logistic_regression.py"))


def load(name):
    return runpy.run_path(str(SAMPLES / name))


def sigmoid(z):
    return 1 / (1 + np.exp(-z))


@pytest.mark.parametrize("script", SCRIPTS)
def test_sample_runs_as_a_script(script, capsys):
    runpy.run_path(str(SAMPLES / script), run_name="__main__")
    assert capsys.readouterr().out


def test_every_tutorial_has_a_sample():
    tutorials = [s for s in SCRIPTS if s.startswith("tutorial_")]
    assert len(tutorials) == 5
    assert "train_sgd.py" in SCRIPTS


class TestAutogradBasics:
    def test_gradients_of_the_logistic_loss(self):
        x, y, w, b, z = load("tutorial_autograd_basics.py")["gradients"]()
        expected_b = (sigmoid(z.detach().numpy().astype(np.float64)) - y.numpy()) / 3
        np.testing.assert_allclose(b.grad.numpy(), expected_b, rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(w.grad.numpy(), np.outer(x.numpy(), expected_b),
                                   rtol=1e-5, atol=1e-7)
        assert type(z.grad_fn).__name__ == "AddBackward0"

    def test_tracking_off(self):
        module = load("tutorial_autograd_basics.py")
        x, _, w, b, _ = module["gradients"]()
        assert module["tracking_off"](x, w, b) == (True, False, False)

    def test_jacobian_products_accumulate(self):
        first, second, after_zero = load("tutorial_autograd_basics.py")["jacobian_products"]()
        expected = 2 * (np.eye(5) + 1)  # d/dinp of sum((inp + 1)^2)
        np.testing.assert_array_equal(first, expected)
        np.testing.assert_array_equal(second, 2 * expected)
        np.testing.assert_array_equal(after_zero, expected)
        assert first[0, 0] == 4 and first[0, 1] == 2 and second[0, 0] == 8 and second[0, 1] == 4


class TestGradientComputation:
    def test_scalar_output(self):
        x, z = load("tutorial_gradient_computation.py")["scalar_output"]()
        xs = x.detach().numpy()
        np.testing.assert_allclose(x.grad.numpy(), 4 * (xs + 2) / 3, rtol=1e-6)
        np.testing.assert_allclose(z.item(), np.mean(2 * (xs + 2) ** 2), rtol=1e-6)
        assert repr(z).endswith("grad_fn=<MeanBackward0>)")

    def test_non_scalar_output(self):
        x, v, message = load("tutorial_gradient_computation.py")["non_scalar_output"]()
        assert message == "grad can be implicitly created only for scalar outputs"
        expected = v.numpy() * 4 * (x.detach().numpy() + 2)
        np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-6)

    def test_stop_tracking(self):
        assert load("tutorial_gradient_computation.py")["stop_tracking"]() == (False,) * 3

    def test_accumulation(self):
        accumulate = load("tutorial_gradient_computation.py")["accumulation"]
        assert accumulate(zero_each_time=False) == [[3.0] * 3, [6.0] * 3, [9.0] * 3]
        assert accumulate(zero_each_time=True) == [[3.0] * 3] * 3


class TestDynamicGraph:
    def test_backward_with_a_vector_from_numpy(self):
        array, x = load("tutorial_dynamic_graph.py")["from_numpy_array"]()
        assert x.data is array and x.dtype == sg.float64
        np.testing.assert_array_equal(x.grad.numpy(), 2 * array * array)

    def test_no_grad_on_a_scalar(self):
        assert load("tutorial_dynamic_graph.py")["scalar_no_grad"]() is False


class TestBlitz:
    def test_gradients_of_q(self):
        a, b, Q = load("tutorial_blitz.py")["gradients_of_q"]()
        np.testing.assert_array_equal(Q.detach().numpy(), [-12.0, 65.0])
        np.testing.assert_array_equal(a.grad.numpy(), 9 * a.detach().numpy() ** 2)
        np.testing.assert_array_equal(b.grad.numpy(), -2 * b.detach().numpy())

    def test_second_backward_is_refused(self):
        module = load("tutorial_blitz.py")
        _, _, Q = module["gradients_of_q"]()
        message = module["second_backward"](Q)
        assert message.startswith("Trying to backward through the graph a second time")

    def test_frozen_parameters(self):
        assert load("tutorial_blitz.py")["frozen_parameters"]() == (False, True)


class TestOneLayerNetwork:
    def test_retained_graph_doubles_the_gradient(self):
        module = load("tutorial_one_layer_network.py")
        x, y, w, b, z, loss = module["network"]()
        assert type(loss.grad_fn).__name__ == "BinaryCrossEntropyWithLogitsBackward0"
        (w1, b1), (w2, b2) = module["backward_twice"](loss, w, b)
        expected_b = (sigmoid(z.detach().numpy().astype(np.float64)) - 0.0) / 3
        np.testing.assert_allclose(b1, expected_b, rtol=1e-5)
        np.testing.assert_allclose(w1, np.tile(expected_b, (5, 1)), rtol=1e-5)
        np.testing.assert_allclose(b2, 2 * b1, rtol=1e-6)
        np.testing.assert_allclose(w2, 2 * w1, rtol=1e-6)

    def test_forward_only(self):
        module = load("tutorial_one_layer_network.py")
        x, _, w, b, _, _ = module["network"]()
        assert module["forward_only"](x, w, b) == (True, False, False)


def test_sgd_training_learns_the_separable_dataset():
    losses, acc, _ = load("train_sgd.py")["train"]()
    assert losses[0] == pytest.approx(np.log(2), rel=1e-6)  # zero weights: p = 1/2
    assert losses[-1] < 0.2 * losses[0]
    assert acc > 0.95
