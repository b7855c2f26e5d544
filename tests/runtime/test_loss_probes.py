"""sg.nn's losses probed beside torch.nn.functional where NumPy would give a silently wrong
loss: a class index -1 (NumPy's last element), probabilities outside [0, 1]."""

import numpy as np
import pytest

import sourcegrad as sg

from .parity import same, same_error

torch = pytest.importorskip("torch")

LOGITS = [[0.5, -1.0, 2.0], [0.1, 0.2, -0.3]]


def _logits(m, dtype=np.float64):
    return m.tensor(np.array(LOGITS, dtype), requires_grad=True)


@pytest.mark.parametrize("target", [[-1, 0], [0, 3], [2, -2]])
def test_cross_entropy_refuses_a_class_outside_the_logits(target):
    same_error(lambda m: m.nn.functional.cross_entropy(_logits(m), m.tensor(np.array(target))))


def test_cross_entropy_module_refuses_a_class_outside_the_logits():
    same_error(lambda m: m.nn.CrossEntropyLoss()(_logits(m)[0], m.tensor(-1)))


def test_cross_entropy_refuses_pytorchs_ignore_index_rather_than_reading_it_as_a_class():
    with pytest.raises(IndexError, match="Target -100 is out of bounds.*ignore_index"):
        sg.nn.functional.cross_entropy(_logits(sg), sg.tensor(np.array([-100, 0])))


@pytest.mark.parametrize("target", [[0, 1, 2], [[0], [1]]])
def test_cross_entropy_refuses_targets_of_the_wrong_shape(target):
    same_error(lambda m: m.nn.functional.cross_entropy(_logits(m), m.tensor(np.array(target))))


def test_cross_entropy_refuses_float_class_indices():
    same_error(lambda m: m.nn.functional.cross_entropy(_logits(m), m.tensor([2.0, 0.0])))


def test_cross_entropy_says_class_probabilities_are_not_supported():
    with pytest.raises(NotImplementedError, match="class probabilities"):
        sg.nn.functional.cross_entropy(_logits(sg), sg.tensor(np.full((2, 3), 1 / 3)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_in_bounds_still_matches(dtype, reduction):
    def observe(m):
        x = _logits(m, dtype)
        loss = m.nn.functional.cross_entropy(x, m.tensor(np.array([2, 0])), reduction=reduction)
        loss.sum().backward()
        return loss, x.grad

    same(observe, atol=1e-7)


@pytest.mark.parametrize("probabilities", [[1.5, 0.2], [-0.1, 0.5]])
def test_binary_cross_entropy_refuses_probabilities_outside_zero_one(probabilities):
    same_error(lambda m: m.nn.functional.binary_cross_entropy(
        m.tensor(probabilities, requires_grad=True), m.tensor([1.0, 0.0])))
