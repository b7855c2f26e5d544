"""Values the backward sweep reads only for their shapes (``passes/shape_only.py``).

The generated code keeps a ``ShapeOf`` of such values, so these tests check that the
gradient is still right when the kept shapes differ from iteration to iteration and from
branch to branch, that the placeholder refuses to be read as an array, and that values read
as arrays are kept whole.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg
from sourcegrad.rules.support import (
    ShapeOf,
    shape_of_elementwise,
    shape_only,
    unbroadcast,
    unreduce,
    zeros_like_grad,
)

from .fd import assert_close, numerical_grad


def growing_prefixes(x, n):
    """A shape-only value per iteration, each of another shape: ``x[:i + 1] * 2.0``."""
    total = 0.0
    for i in range(n):
        total = total + np.sum(np.sin(x[: i + 1] * 2.0))
    return total


def broadcast_partner(x, y):
    """``x * y`` broadcasts (3, 1) against (4,): its cotangent is summed back to both."""
    return np.mean(np.tanh(x * y) + x)


def one_branch_keeps_a_shape(x):
    if np.sum(x) > 0:
        y = np.exp(x) * 2.0
    else:
        y = x * x
    return np.sum(y)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 5), size=st.integers(1, 6))
def test_shapes_kept_per_iteration_may_differ(n, size):
    x = np.random.default_rng(size).standard_normal(size)
    source = sg.source(growing_prefixes, wrt="x")
    assert "append(shape_only(" in source  # the stacked product keeps only its shape
    expected = numerical_grad(growing_prefixes, (x, n), 0)
    assert_close(sg.grad(growing_prefixes, wrt="x")(x, n), expected)


def test_broadcasting_operands_keep_their_shapes():
    x = np.random.default_rng(1).standard_normal((3, 1))
    y = np.random.default_rng(2).standard_normal(4)
    dx, dy = sg.grad(broadcast_partner, wrt=("x", "y"))(x, y)
    assert_close(dx, numerical_grad(broadcast_partner, (x, y), 0))
    assert_close(dy, numerical_grad(broadcast_partner, (x, y), 1))


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_both_branches(sign):
    x = sign * (np.abs(np.random.default_rng(3).standard_normal(3)) + 0.1)
    got = sg.grad(one_branch_keeps_a_shape)(x)
    assert_close(got, numerical_grad(one_branch_keeps_a_shape, (x,), 0))


def test_values_read_as_arrays_are_kept_whole():
    source = sg.source(broadcast_partner, wrt=("x", "y"))
    # tanh's adjoint reads its output: kept whole; the sum's only reaches `unreduce`
    assert "tanh_x_times_y = shape_only(" not in source
    assert "tanh_x_times_y = np.tanh(x * y)" in source
    # the sum itself is only wanted for its shape, once the mean is not computed
    assert "tanh_x_times_y_plus_x = shape_of_elementwise(tanh_x_times_y, x)" in source
    assert "tanh_x_times_y_plus_x = shape_only(" in sg.source(
        sg.value_and_grad(broadcast_partner, wrt=("x", "y")))


def test_shape_of_answers_shape_questions():
    kept = shape_only(np.ones((3, 4), dtype=np.float32))
    assert isinstance(kept, ShapeOf)
    assert (np.shape(kept), np.ndim(kept), np.size(kept), kept.dtype) == (
        (3, 4), 2, 12, np.float32)
    g = np.arange(12.0).reshape(3, 4)
    assert unbroadcast(g, kept) is g
    assert unreduce(2.0, kept).shape == (3, 4)
    zeros = zeros_like_grad(kept)
    assert zeros.shape == (3, 4) and zeros.dtype == np.float32 and not zeros.any()


def test_shape_of_refuses_to_be_read_as_an_array():
    kept = shape_only(np.ones(3))
    with pytest.raises(TypeError, match="only the shape"):
        np.asarray(kept, dtype=float)


def test_numbers_and_lists_pass_through():
    assert shape_only(2.5) == 2.5
    items = [np.ones(2)]
    assert shape_only(items) is items


def grows_in_loop(x, y, n):
    """``x`` takes ``y``'s broadcast shape on the first iteration: not ``x``'s shape."""
    for _ in range(n):
        x = np.sin(x) * y
    return np.sum(x * x)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(0, 3), x_shape=st.sampled_from([(1,), (3, 1), (4,), (3, 4)]))
def test_a_shape_that_changes_in_a_loop_is_not_assumed(n, x_shape):
    rng = np.random.default_rng(n)
    x, y = rng.standard_normal(x_shape), rng.standard_normal((3, 4))
    dx, dy = sg.grad(grows_in_loop, wrt=("x", "y"))(x, y, n)
    assert dx.shape == x.shape
    assert_close(dx, numerical_grad(grows_in_loop, (x, y, n), 0))
    assert_close(dy, numerical_grad(grows_in_loop, (x, y, n), 1))


def test_elementwise_dataflow_from_one_parameter_needs_no_unbroadcast():
    from benchmarks.functions import reduction

    source = sg.source(reduction, wrt="x")
    assert "unbroadcast" not in source and "shape_only" not in source
    assert "unbroadcast" in sg.source(grows_in_loop, wrt=("x", "y"))


def pops_its_own_list(x):
    """The user's own list is pushed and popped in the forward sweep: never a saving stack."""
    hs = []
    for i in range(3):
        hs.append(x * (i + 1.0))
    total = 0.0
    for _ in range(3):
        h = hs.pop()
        total = total + np.sum(h * 2.0)
    return total


def test_the_users_own_lists_keep_their_values():
    x = np.random.default_rng(4).standard_normal(3)
    assert_close(sg.grad(pops_its_own_list)(x), numerical_grad(pops_its_own_list, (x,), 0))


# -- shapes worked out instead of computed (``shapes_instead_of_values``) --------------------
_OPERATORS = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide,
              "**": np.power}
_DTYPES = [np.float16, np.float32, np.float64, np.int32, np.int64, np.complex64]


def _operand(kind, shape, dtype):
    if kind == "python float":
        return 1.5
    if kind == "python int":
        return 2
    value = np.ones(shape, dtype=dtype)
    return shape_only(value) if kind == "shape" else value


@settings(max_examples=200, deadline=None)
@given(op=st.sampled_from(sorted(_OPERATORS)),
       kinds=st.tuples(*[st.sampled_from(["array", "shape", "python float", "python int"])] * 2),
       shapes=st.sampled_from([((3, 1), (4,)), ((), (2, 3)), ((2, 3), (2, 3)), ((5,), ())]),
       dtypes=st.tuples(st.sampled_from(_DTYPES), st.sampled_from(_DTYPES)))
def test_shape_of_elementwise_is_what_numpy_computes(op, kinds, shapes, dtypes):
    a, b = (_operand(k, s, d) for k, s, d in zip(kinds, shapes, dtypes, strict=True))
    actual = _OPERATORS[op](*(np.ones(x.shape, x.dtype) if type(x) is ShapeOf else x
                              for x in (a, b)))
    predicted = shape_of_elementwise(a, b)
    assert predicted.shape == np.shape(actual)
    # what the dtype decides is the gradient's dtype: the result's own if float or complex,
    # float64 otherwise (an integer division's float64 result included)
    assert _gradient_dtype(predicted.dtype) == _gradient_dtype(np.result_type(actual))


def _gradient_dtype(dtype):
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def squared_error(w, x, y):
    return np.mean((x @ w - y) ** 2)


def logistic(w, x, y):
    z = x @ w
    return np.mean(np.logaddexp(0.0, z) - y * z)


@pytest.mark.parametrize("fun", [squared_error, logistic])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_loss_read_only_for_its_shape_is_not_computed(fun, dtype):
    rng = np.random.default_rng(5)
    w, x = rng.standard_normal(3).astype(dtype), rng.standard_normal((6, 3)).astype(dtype)
    y = (rng.standard_normal(6) > 0).astype(dtype)
    source = sg.source(fun)
    forward = source.split(" = 1.0\n")[0]  # up to the seed
    if fun is squared_error:  # the square has the shape of what is squared: read that
        assert "** 2" not in forward.replace("# return np.mean((x @ w - y) ** 2)", "")
        assert ("unreduce(grad_squared_error_value / element_count(x_at_w_minus_y), "
                "x_at_w_minus_y)") in " ".join(source.split()).replace("( ", "(")  # one line
    else:  # nor is logaddexp, whose derivative needs only its arguments: its shape is z's
        assert "logaddexp_0_minus_y = shape_of_elementwise(z, y_times_z)" in forward
        assert "np.logaddexp" not in forward.replace(
            "# return np.mean(np.logaddexp(0.0, z) - y * z)", "")
    got = sg.grad(fun)(w, x, y)
    assert got.dtype == dtype
    expected = numerical_grad(fun, (w.astype(np.float64), x.astype(np.float64),
                                    y.astype(np.float64)), 0)
    if dtype == np.float64:
        assert_close(got, expected)
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


def read_again_later(x, y):
    # broadcast: no parameter has the shape of what follows
    e = x * y
    return np.mean(e * 3.0 + np.tanh(e))


def test_a_value_read_elsewhere_is_still_computed():
    source = sg.source(read_again_later, wrt=("x", "y"))
    # `e * 3.0` and the sum are only wanted for their shapes (`e * 3.0` has `e`'s); `e`
    # itself feeds the tanh
    assert "e_times_3_plus_tanh_e = shape_of_elementwise(e, tanh_e)" in source
    assert "unbroadcast(grad_e_times_3_plus_tanh_e, e)" in source
    assert "e = x * y" in source and "tanh_e = np.tanh(e)" in source
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal((3, 1)), rng.standard_normal(4)
    got = sg.grad(read_again_later, wrt=("x", "y"))(x, y)
    for i in range(2):
        assert_close(got[i], numerical_grad(read_again_later, (x, y), i))


def dead_arrays(x):
    e = (x - 1.0) * 2.0
    return np.mean(e * 3.0 + np.tanh(e))


def test_an_array_nothing_reads_is_not_computed():
    source = sg.source(dead_arrays)
    # the mean's cotangent is spread over `x`'s shape: `e * 3.0` is read by nothing
    assert not any(line.strip().startswith("e_times_3") for line in source.splitlines())
    x = np.linspace(0.5, 1.5, 4)
    assert_close(sg.grad(dead_arrays)(x), numerical_grad(dead_arrays, (x,), 0))


def squares_a_loop_variable(x, y):
    h = x * y
    for _ in range(2):
        h = h * np.sin(h)
    return np.mean(h ** 2)


def test_the_shape_of_a_square_is_read_from_what_is_squared_only_if_bound_once():
    # `h` changes shape in the loop, which the backward sweep runs again, rebinding it: the
    # square's shape is worked out where it is computed instead
    source = sg.source(squares_a_loop_variable, wrt=("x", "y"))
    assert "h = h_stack.pop()" in source
    assert "h_sq = shape_of_elementwise(h, 2)" in source
    rng = np.random.default_rng(8)
    x, y = rng.standard_normal((3, 1)), rng.standard_normal(4)
    got = sg.grad(squares_a_loop_variable, wrt=("x", "y"))(x, y)
    for i in range(2):
        assert_close(got[i], numerical_grad(squares_a_loop_variable, (x, y), i))
