"""``np.put_along_axis(arr, indices, values, axis)`` as the write it is (issue 13, section 1):
it changes ``arr`` in place like ``arr[index] = values``, and is differentiated as that
assignment with respect to ``arr`` and ``values``, in reverse and forward mode and in the
runtime, against central differences. A place that ``indices`` names twice keeps the last
value, as NumPy keeps it: only that value has a derivative there."""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.rules.support import along_axis_index
from sourcegrad.testing import check_grads, numerical_vjp

from .fd import assert_close

rng = np.random.default_rng(21)
WEIGHTS = rng.standard_normal((3, 4))

# (indices, axis, shape of values): repeats along the axis, negative indices, broadcast values
CASES = {
    "axis 1, repeats": (np.array([[0, 0], [3, 1], [2, 2]]), 1, (3, 2)),
    "axis 0": (np.array([[2, 0, 1, 1]]), 0, (1, 4)),
    "axis -1, negative": (np.array([[-1], [0], [-4]]), -1, (3, 1)),
    "broadcast values": (np.array([[1, 3], [0, 0], [2, 1]]), 1, (1, 2)),
    "scalar value": (np.array([[1], [2], [3]]), 1, ()),
    "axis None": (np.array([0, 5, 11, 5, -1]), None, (5,)),
}


def written(a, v, indices, axis):
    b = a * 1.0
    np.put_along_axis(b, indices, v, axis=axis)
    return np.sum(np.sin(b) * WEIGHTS)


def written_positionally(a, v):
    b = np.tanh(a)
    np.put_along_axis(b, np.array([[1, 1], [0, 2], [3, 3]]), v ** 2, 1)
    return b * WEIGHTS


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_the_index_is_the_one_numpy_writes_through(case):
    indices, axis, _ = CASES[case]
    values = np.arange(indices.size, dtype=float).reshape(indices.shape) + 100.0
    expected = np.zeros((3, 4))
    np.put_along_axis(expected, indices, values, axis)
    got = np.zeros((3, 4))
    got[along_axis_index(got.shape, indices, axis)] = values
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_both_arguments_in_both_modes_against_finite_differences(case):
    indices, axis, v_shape = CASES[case]
    a = rng.standard_normal((3, 4))
    v = rng.standard_normal(v_shape) if v_shape else 0.7
    def f(a, v):
        return written(a, v, indices, axis)
    assert check_grads(f, [a, v], modes=("fwd", "rev"), order=1)
    grad_a, grad_v = sg.grad(f, wrt=(0, 1))(a, v)
    assert_close(grad_a, numerical_vjp(f, [a, v], 0, 1.0))
    assert_close(grad_v, numerical_vjp(f, [a, v], 1, 1.0))


def test_positional_axis_and_an_array_output():
    a, v = rng.standard_normal((3, 4)), rng.standard_normal((3, 2))
    assert check_grads(written_positionally, [a, v], modes=("fwd", "rev"), order=1)


def test_a_place_written_twice_keeps_the_last_value_and_only_its_derivative():
    """Row 0 writes ``v[0, 0]`` then ``v[0, 1]`` into column 0: NumPy keeps ``v[0, 1]``."""
    a = rng.standard_normal((3, 4))
    v = rng.standard_normal((3, 2))
    indices = CASES["axis 1, repeats"][0]
    b = a.copy()
    np.put_along_axis(b, indices, v, axis=1)
    assert b[0, 0] == v[0, 1] and b[2, 2] == v[2, 1]
    def f(a, v):
        return written(a, v, indices, 1)
    grad_v = sg.grad(f, wrt=1)(a, v)
    assert grad_v[0, 0] == 0.0 and grad_v[2, 0] == 0.0
    assert_close(grad_v[0, 1], np.cos(v[0, 1]) * WEIGHTS[0, 0])
    tangent = sg.jvp(f, (a, v), (np.zeros_like(a), np.eye(3, 2)))[1]
    assert tangent == 0.0 + np.cos(v[1, 1]) * WEIGHTS[1, 1]  # v[0, 0] was overwritten


@pytest.mark.parametrize("case", ["axis 1, repeats", "axis None"])
def test_second_order_in_all_four_combinations(case):
    """Forward and reverse over ``jvp_f`` (``check_grads`` of order 2) and over ``grad_f``
    with respect to each argument: the index is computed again in the derivative code, and
    a place written twice still keeps only the last value's derivative."""
    indices, axis, v_shape = CASES[case]
    a, v = rng.standard_normal((3, 4)), rng.standard_normal(v_shape)
    def f(a, v):
        return written(a, v, indices, axis)
    assert check_grads(f, [a, v], modes=("fwd", "rev"), order=2)
    for wrt in (0, 1):
        assert check_grads(sg.grad(f, wrt=wrt), [a, v], modes=("fwd", "rev"), order=1)


def test_the_runtime_records_the_write():
    a, v = rng.standard_normal((3, 4)), rng.standard_normal((3, 2))
    indices = CASES["axis 1, repeats"][0]
    t, w = sg.tensor(a, requires_grad=True), sg.tensor(v, requires_grad=True)
    b = t * 1.0
    np.put_along_axis(b, indices, w, axis=1)
    (sg.sin(b) * sg.tensor(WEIGHTS)).sum().backward()
    def f(a, v):
        return written(a, v, indices, 1)
    assert_close(t.grad.numpy(), numerical_vjp(f, [a, v], 0, 1.0))
    assert_close(w.grad.numpy(), numerical_vjp(f, [a, v], 1, 1.0))
    assert w.grad.numpy()[0, 0] == 0.0


@pytest.mark.parametrize("write", [
    lambda b: np.copyto(b, 1.0),
    lambda b: np.fill_diagonal(b, 0.0),
    lambda b: np.put(b, [0], 0.0),
    lambda b: np.putmask(b, np.ones((3, 4), bool), 0.0),
], ids=["copyto", "fill_diagonal", "put", "putmask"])
def test_the_runtime_refuses_numpys_other_writes_into_a_tensor_that_requires_grad(write):
    """They wrote into the tensor's array behind the graph's back: the gradient was that of
    the values before the write."""
    b = sg.tensor(rng.standard_normal((3, 4)), requires_grad=True) * 1.0
    with pytest.raises(NotImplementedError, match="t\\[index\\] = value"):
        write(b)
