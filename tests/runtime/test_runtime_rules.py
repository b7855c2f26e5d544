"""The rules the runtime layer contributes (``rules/nn.py``, ``rules/indexing.py``)
against central finite differences in float64, VJP and JVP, with the project's checker."""

import operator

import numpy as np
import pytest

from sourcegrad.nn import ops
from sourcegrad.rules import lookup
from sourcegrad.testing import check_rule

rng = np.random.default_rng(0)
X = rng.standard_normal((4, 3))
P = rng.uniform(0.05, 0.95, (4, 3))
Y = rng.uniform(0.0, 1.0, (4, 3))

CASES = [
    (ops.sigmoid, [X], {}),
    (ops.relu, [X + np.sign(X) * 0.1], {}),  # away from the kink
    (ops.softmax, [X], {}),
    (ops.softmax, [X], {"axis": 0}),
    (ops.log_softmax, [X], {"axis": 1}),
    (ops.log_softmax, [rng.standard_normal(5)], {}),
    *[(ops.binary_cross_entropy_with_logits, [X, Y], {"reduction": r})
      for r in ("mean", "sum", "none")],
    *[(ops.binary_cross_entropy, [P, Y], {"reduction": r}) for r in ("mean", "sum", "none")],
    *[(ops.mse_loss, [X, Y], {"reduction": r}) for r in ("mean", "sum", "none")],
    (ops.mse_loss, [X, Y[0]], {}),  # broadcast target
    *[(ops.cross_entropy, [X, np.array([0, 2, 1, 1])], {"reduction": r})
      for r in ("mean", "sum", "none")],
    (ops.cross_entropy, [X[0], np.array(2)], {}),
]


@pytest.mark.parametrize(("primitive", "args", "kwargs"), CASES,
                         ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)])
def test_nn_rule_matches_finite_differences(primitive, args, kwargs):
    checked = check_rule(primitive, args, kwargs)
    assert checked


def test_cross_entropy_differentiates_only_the_logits():
    assert check_rule(ops.cross_entropy, [X, np.array([0, 2, 1, 1])]) == ["input"]


INDICES = [
    1,
    (slice(1, None), 0),
    (Ellipsis, 2),
    np.array([0, 0, 3]),  # a row read twice: its cotangent adds up
    (np.array([0, 1, 1]), np.array([2, 2, 0])),
    X > 0,
    (None, slice(None), 1),
]


@pytest.mark.parametrize("index", INDICES, ids=[f"index{i}" for i in range(len(INDICES))])
def test_getitem_rule_matches_finite_differences(index):
    assert check_rule(operator.getitem, [X, index]) == ["x"]


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
