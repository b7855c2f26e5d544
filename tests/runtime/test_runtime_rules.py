"""Conventions of the rules the runtime layer contributes (``rules/nn.py``,
``rules/indexing.py``) that finite differences do not show: repeated reads, extreme logits,
PyTorch's clamped logs. Their finite-difference checks are rows of ``tests/rule_specs.py``."""

import operator

import numpy as np
import pytest

from sourcegrad.nn import ops
from sourcegrad.rules import lookup

rng = np.random.default_rng(0)
X = rng.standard_normal((4, 3))
Y = rng.uniform(0.0, 1.0, (4, 3))


def test_getitem_scatter_adds_repeated_reads():
    g = np.ones((3, 3))
    vjp = lookup(operator.getitem).vjps["x"](g, None, X, np.array([0, 0, 3]))
    np.testing.assert_array_equal(vjp, [[2, 2, 2], [0, 0, 0], [0, 0, 0], [1, 1, 1]])


def test_extreme_logits_give_finite_values_and_derivatives():
    x = np.array([-800.0, -30.0, 0.0, 30.0, 800.0])
    y = np.array([1.0, 0.0, 1.0, 1.0, 0.0])
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        loss = ops.binary_cross_entropy_with_logits(x, y, reduction="none")
        grad = lookup(ops.binary_cross_entropy_with_logits).vjps["input"](
            np.ones(5), loss, x, y, reduction="none")
        soft = ops.softmax(x)
        log_soft = ops.log_softmax(x)
    np.testing.assert_allclose(loss, [800.0, 0.0, np.log(2), 0.0, 800.0], atol=1e-12)
    np.testing.assert_allclose(grad, [-1.0, 0.0, -0.5, 0.0, 1.0], atol=1e-12)
    assert np.all(np.isfinite(soft)) and np.all(np.isfinite(log_soft))


def test_binary_cross_entropy_clamps_its_logs_like_pytorch():
    loss = ops.binary_cross_entropy(np.array([0.0, 1.0]), np.array([1.0, 0.0]),
                                    reduction="none")
    np.testing.assert_array_equal(loss, [100.0, 100.0])


def test_a_bad_reduction_is_refused():
    with pytest.raises(ValueError, match="bogus is not a valid value for reduction"):
        ops.mse_loss(X, Y, reduction="bogus")
