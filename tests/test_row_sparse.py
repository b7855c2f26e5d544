"""Row-sparse gradients (issue 14): a function that reads a few rows of a large array, called
once per word, gives that array a ``RowSparse`` gradient (its rows and where they go), made
dense once at the end, instead of a dense zero per call (``passes/row_sparse.py``)."""

import ast

import numpy as np
import pytest

import sourcegrad as sg
from benchmarks.programs import word2vec
from sourcegrad.passes.row_sparse import row_sparse_accumulators
from sourcegrad.rules.support import (
    RowSparse,
    add_at,
    add_grads,
    as_gradient,
    row_sparse_zeros,
    zeros_like_grad,
)

from .fd import EPS

LARGE = (100, 50)  # 5000 elements: above row_sparse_zeros' threshold


def scattered(shape=LARGE):
    rows = row_sparse_zeros(np.zeros(shape))
    assert type(rows) is RowSparse
    return rows


def test_rows_added_at_repeated_indices_add_up():
    rows = scattered()
    values = np.arange(100.0).reshape(2, 50)
    add_at(rows, np.array([3, 3]), values)
    add_at(rows, 7, np.ones(50))
    np.add.at(rows, [7], np.ones((1, 50)))
    expected = np.zeros(LARGE)
    expected[3] = values[0] + values[1]
    expected[7] = 2.0
    np.testing.assert_array_equal(rows.dense(), expected)


def test_values_changed_after_the_scatter_are_not_seen():
    rows, values = scattered(), np.ones(50)
    add_at(rows, 1, values)
    values += 5.0
    assert rows.dense()[1, 0] == 1.0


def test_sums_with_sparse_dense_and_zero_gradients():
    a, b = scattered(), scattered()
    add_at(a, 0, np.ones(50))
    add_at(b, 0, np.full(50, 2.0))
    dense = np.full(LARGE, 0.5)
    total = add_grads(a, b)
    assert type(total) is RowSparse
    np.testing.assert_array_equal(as_gradient(total, dense)[0], 3.0)
    for mixed in (add_grads(dense, a), add_grads(a, dense)):
        assert type(mixed) is np.ndarray
        np.testing.assert_array_equal(mixed[0], 1.5)
        np.testing.assert_array_equal(mixed[1], 0.5)
    assert add_grads(None, a) is a


def test_a_long_chain_of_sums_is_made_dense_without_recursion():
    total = scattered()
    for i in range(20_000):
        part = scattered()
        add_at(part, i % 100, np.ones(50))
        total = add_grads(total, part)
    np.testing.assert_array_equal(total.dense(), np.full(LARGE, 200.0))


def test_numpy_sees_the_dense_array():
    rows = scattered()
    add_at(rows, 2, np.arange(50.0))
    assert np.sum(rows) == np.sum(np.arange(50.0))
    np.testing.assert_array_equal(rows * 2.0, 2.0 * rows.dense())
    np.testing.assert_array_equal(rows[2], np.arange(50.0))
    gradient = as_gradient(rows, np.zeros(LARGE))
    assert type(gradient) is np.ndarray and gradient.flags.writeable


@pytest.mark.parametrize("x", [np.zeros((10, 3)), np.zeros(LARGE, complex), 2.0,
                               np.zeros(LARGE, int)])
def test_small_complex_or_non_array_values_get_a_dense_zero(x):
    got = row_sparse_zeros(x)
    assert type(got) is not RowSparse
    np.testing.assert_array_equal(got, zeros_like_grad(x))


def rewritten(source):
    fdef = ast.parse(source).body[0]
    row_sparse_accumulators(fdef)
    return ast.unparse(fdef)


def test_only_accumulators_nothing_else_reads_are_rewritten():
    source = """
def backward(g, saved):
    grad_a = zeros_like_grad(a)
    add_at(grad_a, i, g)
    grad_a = add_grads(grad_a, h)
    grad_b = zeros_like_grad(b)
    add_at(grad_b, i, g)
    grad_c = grad_b * 2
    grad_d = zeros_like_grad(d)
    grad_d = add_grads(grad_d, grad_d)
    return (grad_a, grad_c, as_gradient(grad_d, d))
"""
    text = rewritten(source)
    assert "grad_a = row_sparse_zeros(a)" in text
    assert "grad_b = zeros_like_grad(b)" in text  # read by `grad_b * 2`
    assert "grad_d = zeros_like_grad(d)" in text  # added to itself


def test_an_accumulator_initialised_twice_is_left_dense():
    text = rewritten("""
def backward(g):
    grad_a = zeros_like_grad(a)
    add_at(grad_a, i, g)
    grad_a = zeros_like_grad(a)
    return grad_a
""")
    assert "row_sparse_zeros" not in text


def medium_word2vec():
    """Sizes where the embedding gradients are RowSparse, repeated negative samples."""
    rng = np.random.default_rng(7)
    center_vectors = 0.3 * rng.standard_normal(LARGE)
    outside_vectors = 0.3 * rng.standard_normal(LARGE)
    centers = [3, 3, 50]
    contexts = [[1, 2, 3], [4, 4, 99], [0, 50, 2]]
    negatives = [[np.array([5, 5, 6]), np.array([1, 2, 2]), np.array([9, 3, 9])]
                 for _ in centers]
    return center_vectors, outside_vectors, centers, contexts, negatives


def test_word2vec_with_row_sparse_gradients_matches_the_hand_written_backward():
    args = medium_word2vec()
    grad = sg.grad(word2vec.loss, wrt=word2vec.WRT)
    assert "row_sparse_zeros(outside_vectors)" in grad.source
    got = grad(*args)
    _, expected = word2vec.loss_and_grad_by_hand(*args)
    for mine, theirs in zip(got, expected, strict=True):
        assert type(mine) is np.ndarray
        np.testing.assert_allclose(mine, theirs, rtol=1e-10, atol=1e-12)


def directional_difference(fun, args, position, direction):
    plus, minus = list(args), list(args)
    plus[position] = args[position] + EPS * direction
    minus[position] = args[position] - EPS * direction
    return (fun(*plus) - fun(*minus)) / (2 * EPS)


def test_word2vec_with_row_sparse_gradients_matches_central_differences():
    args = medium_word2vec()
    got = sg.grad(word2vec.loss, wrt=word2vec.WRT)(*args)
    rng = np.random.default_rng(0)
    for position in (0, 1):
        direction = rng.standard_normal(LARGE)
        expected = directional_difference(word2vec.loss, args, position, direction)
        assert np.isclose(np.sum(got[position] * direction), expected, rtol=1e-6, atol=1e-8)


def pair_loss(vectors, a, b):
    return np.log1p(np.exp(-(vectors[a] @ vectors[b])))


def pairs_loss(vectors, pairs):
    total = 0.0
    for i in range(len(pairs)):
        total = total + pair_loss(vectors, pairs[i][0], pairs[i][1])
    return total


PAIRS = [(0, 1), (2, 0), (4, 4), (99, 0)]


def test_vjp_and_the_runtime_hand_back_dense_gradients():
    vectors = np.random.default_rng(2).standard_normal(LARGE)
    _, pullback = sg.vjp(pair_loss, vectors, 1, 2)
    (by_vjp, _, _) = pullback(1.0)
    assert type(by_vjp) is np.ndarray
    leaf = sg.tensor(vectors, requires_grad=True)
    sg.differentiable(pair_loss)(leaf, 1, 2).backward()
    assert type(leaf.grad.numpy()) is np.ndarray
    np.testing.assert_allclose(leaf.grad.numpy(), by_vjp)
    assert np.count_nonzero(np.any(by_vjp != 0, axis=1)) == 2


def test_a_row_sparse_gradient_differentiated_again():
    def penalty(vectors):
        return np.sum(sg.grad(pairs_loss)(vectors, PAIRS) ** 2)

    vectors = 0.3 * np.random.default_rng(3).standard_normal(LARGE)
    got = sg.grad(penalty)(vectors)
    direction = np.random.default_rng(4).standard_normal(LARGE)
    expected = directional_difference(penalty, (vectors,), 0, direction)
    assert np.isclose(np.sum(got * direction), expected, rtol=1e-6, atol=1e-8)


def test_rows_at_arrays_of_indices_add_up_as_numpy_adds_them():
    """Several parts at arrays of rows (gathered into one scatter): repeats within and
    across parts, negative rows, an index of two axes, values broadcast along the index."""
    rng = np.random.default_rng(4)
    rows, expected = scattered(), np.zeros(LARGE)
    parts = [(np.array([3, 3, -1]), rng.standard_normal((3, 50))),
             (np.array([[99, 3], [0, 0]]), rng.standard_normal((2, 2, 50))),
             (np.array([5, 99]), rng.standard_normal(50)),  # broadcast to both rows
             (7, rng.standard_normal(50)),
             (np.array([-100, 7]), rng.standard_normal((2, 50)))]
    for index, values in parts:
        add_at(rows, index, values)
        np.add.at(expected, index, values)
    np.testing.assert_allclose(rows.dense(), expected, rtol=1e-15, atol=1e-15)


def test_a_row_out_of_range_raises_numpys_index_error():
    rows = scattered()
    add_at(rows, np.array([1, 2]), np.ones((2, 50)))
    add_at(rows, np.array([100]), np.ones((1, 50)))
    with pytest.raises(IndexError):
        rows.dense()


@pytest.mark.parametrize("shape", [(5000,), (100, 5, 10)])
def test_rows_of_vectors_and_of_matrices_add_up_as_numpy_adds_them(shape):
    rng = np.random.default_rng(5)
    rows = row_sparse_zeros(np.zeros(shape))
    expected = np.zeros(shape)
    for index in (np.array([1, -1, 1]), np.array([[4, 1]]), np.array([99])):
        values = rng.standard_normal(index.shape + shape[1:])
        add_at(rows, index, values)
        np.add.at(expected, index, values)
    np.testing.assert_allclose(rows.dense(), expected, rtol=1e-15, atol=1e-15)
