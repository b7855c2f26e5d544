"""Wrong numbers an outside suite found (issue 11, section 3), each with other members of its
family: every derivative here is checked against central finite differences in float64, and
every construct sourcegrad does not differentiate must raise, never give zero."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg
from sourcegrad.forward_mode import jvp_function
from sourcegrad.testing import check_grads

from .fd import assert_close, numerical_grad

EPS = 1e-6
X3 = np.array([0.3, -1.2, 0.7])


def jacobian_by_differences(fun, args, argnum):
    """d fun(*args) / d args[argnum] by central differences, shaped ``out + arg``."""
    x = np.asarray(args[argnum], dtype=np.float64)

    def at(value):
        moved = list(args)
        moved[argnum] = value if np.ndim(x) else float(value)
        return np.asarray(fun(*moved), dtype=np.float64)

    columns = []
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = EPS
        columns.append((at(x + step) - at(x - step)) / (2 * EPS))
    out_shape = np.shape(at(x))
    return np.moveaxis(np.array(columns), 0, -1).reshape(out_shape + x.shape)


def assert_second_order(f, args, argnum=0, rtol=1e-5):
    """The Hessian of the scalar ``f`` in ``args[argnum]`` three ways (reverse over reverse,
    forward over reverse, reverse over forward), each against differences of ``sg.grad``."""
    grad = sg.grad(f, wrt=argnum)
    expected = jacobian_by_differences(grad, args, argnum)
    x = args[argnum]
    rng = np.random.default_rng(0)
    w = rng.standard_normal(np.shape(x))
    u = rng.standard_normal(np.shape(x))
    if not np.ndim(x):
        w, u = float(w), float(u)
    flat = np.reshape(expected, (np.size(x), np.size(x)))
    expected_wt = np.reshape(np.ravel(w) @ flat, np.shape(x))
    expected_hu = np.reshape(flat @ np.ravel(u), np.shape(x))
    # reverse over reverse: the pullback of grad_f
    over_reverse = sg.vjp(grad, *args)[1](w)[argnum]
    np.testing.assert_allclose(over_reverse, expected_wt, rtol=rtol, atol=1e-6)
    # forward over reverse: sg.hessian runs jvp of grad_f
    np.testing.assert_allclose(sg.hessian(f, wrt=argnum)(*args), expected, rtol=rtol,
                               atol=1e-6)
    # reverse over forward: the pullback of jvp_f's tangent output
    params = list(sg.pipeline.parameter_names(f))
    tangent_code = jvp_function(f, (params[argnum],))
    _, pullback = sg.vjp(tangent_code, *args, u)
    over_forward = pullback((0.0, 1.0))[argnum]
    np.testing.assert_allclose(over_forward, expected_hu, rtol=rtol, atol=1e-6)


# -------------------------------------------------------------- np.r_ and np.c_ (and the hole)


def r_twice(x):
    return np.sum(np.r_[x, x] ** 2)


def r_mixed(x, y):
    return np.sum(np.r_[x, 2.0, y * x, [0.5, 1.5]] ** 3)


def r_one_item(x):
    return np.sum(np.sin(np.r_[x,]))


def c_columns(x):
    return np.sum(np.c_[x, 2 * x] ** 2)


def c_matrix_and_column(x, m):
    return np.sum(np.tanh(np.c_[m, x, np.exp(x)]))


M32 = np.array([[0.1, -0.4], [0.8, 0.2], [-0.3, 0.5]])


@pytest.mark.parametrize(("f", "args"), [
    (r_twice, [X3]), (r_mixed, [X3, 0.4]), (r_mixed, [0.6, 0.4]), (r_one_item, [X3]),
    (r_one_item, [0.7]), (c_columns, [X3]), (c_matrix_and_column, [X3, M32]),
])
def test_r_and_c_differentiate_as_concatenations(f, args):
    # on the old code the gradient and the tangent were zero
    for argnum in range(len(args)):
        assert_close(sg.grad(f, wrt=argnum)(*args), numerical_grad(f, args, argnum))
    check_grads(f, args, order=2)


def test_r_gradient_of_the_issue_is_twice_the_doubled_values():
    np.testing.assert_allclose(sg.grad(r_twice)(X3), 4 * X3)
    _, tangent = sg.jvp(r_twice, (X3,), (np.ones(3),))
    np.testing.assert_allclose(tangent, 4 * np.sum(X3))


@pytest.mark.parametrize(("f", "args"), [(r_mixed, [X3, 0.4]), (c_matrix_and_column, [X3, M32])])
def test_r_and_c_second_order(f, args):
    assert_second_order(f, args)


def test_r_and_c_generated_code_stays_a_subscript():
    forward = sg.source(c_columns, mode="forward")
    assert "np.c_[tangent_x, tangent_v2_times_x]" in forward
    assert "split_back(" in sg.source(r_twice)


def r_with_a_slice(x):
    return np.sum(np.r_[0:3, x] ** 2)


def r_with_a_directive(x):
    return np.sum(np.r_["0,2", x, x] ** 2)


def r_of_a_sequence(x):
    pieces = (x, x)
    return np.sum(np.r_[pieces] ** 2)


class Doubler:
    def __getitem__(self, key):
        return key * 2.0


DOUBLER = Doubler()


def object_subscript(x):
    return np.sum(DOUBLER[x] ** 2)


def mgrid_of_a_value(x):
    return np.sum(np.mgrid[0.0:x:3j] ** 2)


@pytest.mark.parametrize(("f", "words"), [
    (r_with_a_slice, "slice or a string directive"),
    (r_with_a_directive, "slice or a string directive"),
    (r_of_a_sequence, "np.concatenate"),
    (object_subscript, "Doubler.__getitem__"),
    (mgrid_of_a_value, "MGridClass.__getitem__"),
])
def test_a_subscript_without_a_derivative_is_refused_in_both_modes(f, words):
    # a subscript of a non-array object gave zero: its index is an argument of __getitem__
    with pytest.raises(sg.NoDerivativeError, match=words) as reverse:
        sg.grad(f)(1.5)
    assert reverse.value.lineno == f.__code__.co_firstlineno + 1 + (f is r_of_a_sequence)
    with pytest.raises(sg.NoDerivativeError, match=words):
        sg.jvp(f, (1.5,), (1.0,))


def index_helpers(x):
    head = np.s_[:2]
    return np.sum(x[head] ** 2) + np.sum(x[np.index_exp[1:]] * 3.0)


def test_index_helpers_keep_working():
    assert_close(sg.grad(index_helpers)(X3), numerical_grad(index_helpers, [X3], 0))
    check_grads(index_helpers, [X3])


def constant_concatenation(x):
    ramp = np.r_[0:3, 5.0]  # no derivative reaches it: a constant, as before
    return np.sum(ramp * x)


def test_a_constant_subscript_of_an_object_is_a_constant():
    np.testing.assert_allclose(sg.grad(constant_concatenation)(np.ones(4)), [0, 1, 2, 5])


def value_or_default(x):
    y = x or 1.0
    return y * y


def mask_and_value(x):
    y = (x > 0) and x * 3.0
    return y * 2.0


@pytest.mark.parametrize("f", [value_or_default, mask_and_value])
def test_and_or_of_values_are_refused(f):
    # `x or y` is one of its operands: its derivative was silently zero in both modes
    with pytest.raises(sg.NoDerivativeError, match="`(or|and)` has no derivative"):
        sg.grad(f)(0.7)
    with pytest.raises(sg.NoDerivativeError, match="`(or|and)` has no derivative"):
        sg.jvp(f, (0.7,), (1.0,))


def conditions_with_and(x):
    y = x * 2.0
    both = (x > 0) and (x < 5)
    if both or x > 10:
        y = y * x
    return y


def test_and_or_of_conditions_still_differentiate():
    assert sg.grad(conditions_with_and)(0.7) == pytest.approx(4 * 0.7)
    assert sg.grad(conditions_with_and)(-0.7) == pytest.approx(2.0)


def elements_as_list(x):
    v = x.tolist()
    return v[0] * v[1] ** 2


def rows_as_lists(m):
    rows = m.tolist()
    return rows[0][1] * rows[1][0] + rows[1][1] ** 3


@pytest.mark.parametrize(("f", "arg"), [(elements_as_list, X3), (rows_as_lists, M32.T)])
def test_tolist_carries_the_derivative(f, arg):
    # .tolist() was declared non-differentiable: the gradient was zero
    assert_close(sg.grad(f)(arg), numerical_grad(f, [arg], 0))
    check_grads(f, [arg], order=2)


# ------------------------------------------------- repeated and fancy indices at second order


def repeated_index_times_v(x, v):
    return np.sum(x[[0, 0]]) * v


def test_repeated_index_second_order_of_the_issue():
    # d/dv of <grad_x f, w> is the sum of w over the repeated index: 2 (old code: 0)
    grads = sg.vjp(sg.grad(repeated_index_times_v), np.ones(3), 1.0)[1](np.ones(3))
    np.testing.assert_allclose(grads[0], np.zeros(3))
    assert grads[1] == pytest.approx(2.0)


M = np.array([[0.5, -0.3, 0.8], [1.1, 0.2, -0.6], [0.4, 0.9, -1.3]])


def fancy_square(x):
    return np.sum(np.sin(x[[0, 0, 2]]) * x[np.array([2, 0, 2])] ** 2)


def fancy_mask(x):
    return np.sum(x[np.array([True, False, True])] ** 3)


def fancy_2d(m):
    return np.sum(np.tanh(m[1:, [0, 0, 2]]) * m[[2, 2], 1:].sum())


def fancy_nested(m):
    return np.sum(m[np.array([[0, 1], [1, 1]])] ** 3) + np.sum(np.exp(m[[2, 0, 2], [1, 1, 1]]))


def fancy_times_v(x, v):
    return np.sum(x[[0, 0, 2]] ** 2) * v + np.sum(x[np.array([True, True, False])]) * v * v


@pytest.mark.parametrize(("f", "arg"), [(fancy_square, X3), (fancy_mask, X3), (fancy_2d, M),
                                        (fancy_nested, M)])
def test_index_kinds_at_second_order(f, arg):
    assert_second_order(f, [arg])


def test_mixed_second_derivatives_through_repeated_indices():
    args = [X3, 0.7]
    for argnum in (0, 1):
        assert_second_order(fancy_times_v, args, argnum=argnum)
    # d/dv (d/dx f) by reverse over reverse, against differences of the gradient in v
    w = np.array([0.2, -0.5, 1.0])

    def directional(v):
        return np.sum(sg.grad(fancy_times_v)(X3, v) * w)

    expected = (directional(0.7 + EPS) - directional(0.7 - EPS)) / (2 * EPS)
    got = sg.vjp(sg.grad(fancy_times_v), X3, 0.7)[1](w)[1]
    assert got == pytest.approx(expected, rel=1e-6)


def sliced_list(x):
    xs = [x, 2 * x, 3 * x]
    total = 0.0
    tail = xs[1:]
    for k in range(len(tail)):
        total = total + xs[k] * tail[k]
    return total


def test_the_cotangent_of_a_list_slice_is_added_not_joined():
    # grad_xs[1:] + grad_xs_slice joined the two lists (old code: 5.6 instead of 11.2)
    assert sg.grad(sliced_list)(0.7) == pytest.approx(11.2)
    check_grads(sliced_list, [0.7], order=2)
    check_grads(sliced_list, [X3], order=2)


WEIGHTS = np.array([1.0, 2.0, 3.0])


def write_repeated(x):
    y = np.ones(3) * x[2]
    y[[0, 0]] = x[:2]  # NumPy keeps the last write: y[0] = x[1]
    return np.sum(y * WEIGHTS)


def increment_repeated(x):
    y = np.zeros(3)
    y[[0, 0]] += x[:2]  # buffered: y[0] = 0 + x[1]
    return np.sum(np.sin(y) * WEIGHTS)


def multiply_repeated(x):
    y = x * 1.0
    y[[0, 0]] *= x[:2]
    return np.sum(y * WEIGHTS)


def write_repeated_broadcast(x, s):
    y = x * 2.0
    y[np.array([1, 1, 2])] = s * x[0]
    return np.sum(y ** 2 * WEIGHTS)


def write_masked(x):
    y = x ** 2
    y[np.array([True, False, True])] -= x[1] * x[:2]
    return np.sum(y * WEIGHTS)


@pytest.mark.parametrize(("f", "args"), [
    (write_repeated, [X3]), (increment_repeated, [X3]), (multiply_repeated, [X3]),
    (write_repeated_broadcast, [X3, 0.6]), (write_masked, [X3]),
])
def test_writes_through_repeated_indices_keep_only_the_last(f, args):
    # the old code gave each repeated write the element's whole cotangent
    for argnum in range(len(args)):
        assert_close(sg.grad(f, wrt=argnum)(*args), numerical_grad(f, args, argnum))
    check_grads(f, args, order=2)
    assert_second_order(f, args)


def write_by_computed_index(x):
    y = np.zeros(4)
    for i in range(3):
        j = 3 - i
        y[j] = x[i] * x[j - 1]
        y[j - 1] += x[i] ** 2
    return np.sum(y * np.arange(1.0, 5.0))


def test_writes_through_computed_integer_indices():
    x = np.array([0.3, -1.2, 0.7, 0.4])
    assert_close(sg.grad(write_by_computed_index)(x),
                 numerical_grad(write_by_computed_index, [x], 0))
    check_grads(write_by_computed_index, [x], order=2)


def test_write_repeated_by_hand():
    np.testing.assert_allclose(sg.grad(write_repeated)(X3), [0.0, 1.0, 5.0])


# -------------------------------------------------- list(...), tuple(...) and what they read


def list_of_pair(x):
    t = list((x, x))
    return np.sum(t[0] * t[1])


def sum_of_list(x):
    return np.sum(list((x, 2 * x))) * x[0]


def tuple_of_list(x):
    t = tuple([x, np.sin(x)])
    return np.sum(t[0] * t[1] * t[0])


def tuple_of_rows(m):
    rows = tuple(m)
    return np.sum(rows[0] * rows[1] ** 2)


def list_of_tuple_of_list(x):
    t = list(tuple(list((x, 3.0 * x))))
    return np.sum(np.stack(t) ** 3)


@pytest.mark.parametrize(("f", "arg"), [
    (list_of_pair, 0.7), (list_of_pair, X3), (sum_of_list, X3), (tuple_of_list, 0.7),
    (tuple_of_list, X3), (tuple_of_rows, M32.T), (list_of_tuple_of_list, X3),
])
def test_list_and_tuple_at_second_order(f, arg):
    # tuple(...) had no rule; the family is checked reverse over forward (check_grads runs
    # sg.vjp over jvp_f), forward over reverse and reverse over reverse
    assert_close(sg.grad(f)(arg), numerical_grad(f, [arg], 0))
    check_grads(f, [arg], order=2)
    assert_second_order(f, [arg])


def test_list_of_a_pair_reverse_over_forward_is_two():
    tangent_code = jvp_function(list_of_pair, ("x",))
    # the tangent 2 x t: its derivative in x is 2 t
    grads = sg.vjp(tangent_code, 3.0, 1.0)[1]((0.0, 1.0))
    assert grads == pytest.approx((2.0, 6.0))


def zipped_values(x):
    pairs = list(zip((x, 2 * x), (3 * x, x), strict=True))
    return pairs[0][0] * pairs[1][1] * pairs[0][1]


def enumerated_values(x):
    items = list(enumerate((x, x)))
    return items[0][1] * items[1][1]


def sorted_values(x):
    ordered = sorted((x, 2 * x))
    return ordered[0] * ordered[1] * ordered[0]


@pytest.mark.parametrize(("f", "words"), [(zipped_values, "`for` loop"),
                                          (enumerated_values, "`for` loop")])
def test_iterating_builtins_outside_a_loop_are_refused(f, words):
    # they were declared non-differentiable: their values' derivatives were silently zero
    with pytest.raises(sg.NoDerivativeError, match=words):
        sg.grad(f)(0.7)
    with pytest.raises(sg.NoDerivativeError, match=words):
        sg.jvp(f, (0.7,), (1.0,))


@pytest.mark.parametrize("x", [0.7, -0.7])
def test_sorted_values_are_differentiated_where_they_went(x):
    # sorted was declared non-differentiable (zero derivatives), then refused; its rule
    # routes each derivative with its element: (x, 2x) sorted, then a * b * a
    expected = 6 * x ** 2 if x > 0 else 12 * x ** 2  # x * 2x * x, or 2x * x * 2x
    assert_close(sg.grad(sorted_values)(x), expected)
    assert_close(sg.jvp(sorted_values, (x,), (1.0,))[1], expected)


def looped_builtins(x, keys):
    xs = [x, 2 * x, 3 * x]
    total = 0.0
    for i, v in enumerate(xs):
        total = total + v * v * i
    for a, b in zip(xs, [x, x, x * x], strict=True):
        total = total + a * b
    for k in sorted(keys):  # keys only: no derivative flows, nothing to refuse
        total = total + xs[k] * 0.5
    return total


def test_iterating_builtins_in_loops_still_differentiate():
    check_grads(looped_builtins, [0.7, [2, 0]], order=2)


# ---------------------------------------------------------------- einsum's interleaved form

A = np.array([[1.0, 2.0], [0.5, -1.0]])
B = np.array([[0.3, 0.2, 1.0], [-0.7, 0.4, 0.1]])
A3 = np.arange(12.0).reshape(3, 2, 2) / 10 - 0.4


def interleaved(a, b):
    return np.sum(np.einsum(a, [0, 1], b, [1, 2], [0, 2]) ** 2)


def interleaved_implicit(a, b):
    return np.sum(np.cos(np.einsum(a, [0, 1], b, [1, 2])))


def interleaved_ellipsis(a, b):
    return np.sum(np.sin(np.einsum(a, [Ellipsis, 0, 1], b, [1, 2], [Ellipsis, 0, 2])))


def interleaved_trace(a):
    return np.einsum(a, [0, 0]) ** 2


def interleaved_three(a, b, c):
    return np.sum(np.einsum(a, [0, 1], b, [1, 2], c, [2], [0]) ** 3)


@pytest.mark.parametrize(("f", "args"), [
    (interleaved, [A, B]), (interleaved_implicit, [A, B]), (interleaved_ellipsis, [A3, B]),
    (interleaved_trace, [M]), (interleaved_three, [A, B, np.array([0.5, -0.2, 0.9])]),
])
def test_einsum_interleaved_form_in_both_modes(f, args):
    # sg.jvp gave the tangent of the other operands only (the first was taken for the
    # subscripts), and the gradient of the first operand was zero
    for argnum in range(len(args)):
        assert_close(sg.grad(f, wrt=argnum)(*args), numerical_grad(f, args, argnum))
    check_grads(f, args, order=2)


def test_einsum_interleaved_jvp_of_the_issue():
    def product(a, b):
        return a @ b

    da, db = np.ones((2, 2)), np.zeros((2, 3))
    value, tangent = sg.jvp(interleaved, (A, B), (da, db))
    expected = 2 * np.sum(product(A, B) * product(da, B))
    assert value == pytest.approx(np.sum(product(A, B) ** 2))
    assert tangent == pytest.approx(expected)


@pytest.mark.parametrize(("f", "args"), [(interleaved, [A, B]), (interleaved_ellipsis, [A3, B])])
def test_einsum_interleaved_second_order(f, args):
    for argnum in range(len(args)):
        assert_second_order(f, args, argnum=argnum)


def test_einsum_interleaved_generated_code_keeps_the_form():
    assert "np.einsum(tangent_a, [0, 1], b, [1, 2], [0, 2])" in sg.source(
        interleaved, mode="forward")


# ------------------------------------------------------------------- std and var at the edges


def std_of(x):
    return np.std(x)


def var_of(x):
    return np.var(x)


def std_rows(x):
    return np.sum(np.std(x, axis=1) * np.array([1.0, 2.0]))


def var_columns_kept(x):
    return np.sum(np.var(x, axis=0, keepdims=True) ** 2)


def std_ddof(x):
    return np.std(x, ddof=1)


def var_ddof(x):
    return np.var(x, ddof=1)


def var_ddof_two(x):
    return np.var(x, ddof=2)


@pytest.mark.parametrize(("f", "x"), [
    (std_of, 3.5), (var_of, 3.5), (std_of, np.array([3.5])), (var_of, np.array([[3.5]])),
    (std_rows, np.array([[3.5], [1.0]])), (var_columns_kept, np.array([[3.5, 2.0, -1.0]])),
])
def test_std_and_var_of_one_value_have_derivative_zero(f, x):
    # the value is 0 whatever x is: the derivative is 0 (std's was nan: 0/0)
    assert np.array_equal(sg.grad(f)(x), np.zeros_like(x))
    assert sg.jvp(f, (x,), (np.ones_like(x),))[1] == 0.0
    assert np.array_equal(sg.hessian(f)(x), np.zeros(np.shape(x) * 2))
    assert np.array_equal(sg.vjp(sg.grad(f), x)[1](np.ones_like(x))[0], np.zeros_like(x))


@pytest.mark.filterwarnings("ignore:Degrees of freedom")
@pytest.mark.parametrize(("f", "x"), [
    (std_ddof, np.array([3.5])), (var_ddof, np.array([3.5])),
    (var_ddof_two, np.array([3.5, 1.0])),
])
def test_std_and_var_with_no_degrees_of_freedom_are_nan(f, x):
    # NumPy divides by max(n - ddof, 0) = 0: the value is inf or nan, and so is no derivative
    # (var_ddof_two's gradient had finite, wrong numbers for ddof > n)
    with np.errstate(divide="ignore", invalid="ignore"):
        assert np.all(np.isnan(sg.grad(f)(x)))
        assert np.isnan(sg.jvp(f, (x,), (np.ones_like(x),))[1])


def var_ddof_three(x):
    return np.var(x, ddof=3)


@pytest.mark.filterwarnings("ignore:Degrees of freedom")
def test_var_with_more_ddof_than_values_is_not_a_finite_number():
    with np.errstate(divide="ignore", invalid="ignore"):
        assert np.all(np.isnan(sg.grad(var_ddof_three)(np.array([3.5, 1.0]))))


def test_std_of_equal_values_stays_nan_as_in_pytorch_and_jax():
    with np.errstate(divide="ignore", invalid="ignore"):
        assert np.all(np.isnan(sg.grad(std_of)(np.array([2.0, 2.0, 2.0]))))


def std_and_var(x, ddof, axis, keepdims):
    return np.sum(np.std(x, axis=axis, ddof=ddof, keepdims=keepdims) ** 2
                  + np.sin(np.var(x, axis=axis, ddof=ddof, keepdims=keepdims)))


@pytest.mark.filterwarnings("ignore:Degrees of freedom")
@given(shape=st.sampled_from([(3,), (2, 3), (3, 1), (1, 3), (2, 2, 2)]),
       ddof=st.integers(0, 1), data=st.data(), seed=st.integers(0, 2**16))
@settings(max_examples=25, deadline=None)
def test_std_and_var_against_finite_differences(shape, ddof, data, seed):
    axis = data.draw(st.none() | st.integers(-len(shape), len(shape) - 1))
    keepdims = data.draw(st.booleans())
    count = np.prod(shape) if axis is None else shape[axis]
    x = np.random.default_rng(seed).standard_normal(shape)
    args = [x, ddof, axis, keepdims]
    with np.errstate(divide="ignore", invalid="ignore"):
        got = sg.grad(std_and_var)(*args)
    if count - ddof <= 0:
        assert np.all(np.isnan(got))
    elif count == 1:
        assert np.array_equal(got, np.zeros(shape))
    else:
        assert_close(got, numerical_grad(std_and_var, args, 0), rtol=1e-5, atol=1e-6)


# ----------------------------------------------------- outputs that are not real numbers

COMPLEX_WEIGHTS = np.array([1.0, 2.0j, -1.0])
LABEL = "loss"


def complex_output(x):
    return x * 1j


def complex_reduction(x):
    return np.sum(x * (1.0 + 2.0j))


def complex_global(x):
    return np.sum(x * COMPLEX_WEIGHTS)


def string_output(x):
    return "loss"


def string_global(x):
    return LABEL


def bool_output(x):
    return x > 1.0


def bool_reduction(x):
    return np.sum(x) > 1.0


def none_on_one_path(x):
    if np.sum(x) > 10.0:
        return np.sum(x * x)


def vector_output(x):
    return x * 2.0


def list_output(x):
    return [np.sum(x), np.sum(x)]


@pytest.mark.parametrize(("f", "words"), [
    (complex_output, "complex"), (complex_reduction, "complex"), (complex_global, "complex"),
    (string_output, "str 'loss'"), (string_global, "str 'loss'"), (bool_output, "bool"),
    (bool_reduction, "True"), (none_on_one_path, "None"), (vector_output, r"shape \(3,\)"),
    (list_output, "list of 2"),
])
def test_grad_refuses_outputs_that_are_not_real_scalars(f, words):
    # complex, string and boolean outputs got a gradient (zero or the real part), and a
    # path returning None a zero, on the old code
    x = np.array([0.5, 1.5, -0.2])
    with pytest.raises(TypeError, match=words):
        sg.grad(f)(x)
    with pytest.raises(TypeError, match=words):
        sg.value_and_grad(f)(x)


def test_grad_of_the_path_that_returns_a_number_still_works():
    x = np.array([5.5, 7.5, -0.2])
    np.testing.assert_allclose(sg.grad(none_on_one_path)(x), 2 * x)


def integer_output(x):
    return len(x)


def test_an_integer_output_has_gradient_zero():
    np.testing.assert_array_equal(sg.grad(integer_output)(np.ones(3)), np.zeros(3))


# -------------------------------------------------------------- a function with no return


def no_return(x):
    y = np.sum(x ** 2)  # noqa: F841 - the missing return is the point


def bare_return(x):
    y = np.sum(x ** 2)  # noqa: F841
    return


def return_none(x):
    if np.sum(x) > 0:
        return None
    return None


@pytest.mark.parametrize("f", [no_return, bare_return, return_none])
def test_a_function_without_a_return_value_is_refused_in_every_mode(f):
    # the generated code read an undefined `result` (NameError), or returned zeros
    x = np.array([0.5, 1.5])
    calls = [lambda: sg.grad(f), lambda: sg.value_and_grad(f), lambda: sg.vjp(f, x),
             lambda: sg.jvp(f, (x,), (x,)), lambda: sg.jacobian(f)(x),
             lambda: sg.hessian(f), lambda: sg.source(f), lambda: sg.source(f, mode="forward")]
    for attempt in calls:
        with pytest.raises(sg.UnsupportedSyntaxError, match="returns no value") as info:
            attempt()
        assert info.value.filename == __file__
        assert info.value.lineno == f.__code__.co_firstlineno
        assert "return loss" in str(info.value)


def test_the_command_line_refuses_a_function_without_return(tmp_path, capsys):
    from sourcegrad import cli

    source = tmp_path / "procedure.py"
    source.write_text("import numpy as np\n\n\ndef loss(x):\n    y = np.sum(x ** 2)\n")
    for args in (["show", f"{source}:loss"], ["show", f"{source}:loss", "--mode", "forward"],
                 ["emit", f"{source}:loss", "-o", str(tmp_path / "out.py")]):
        assert cli.main(args) == 1
        err = capsys.readouterr().err
        assert "returns no value" in err and "line 4" in err
    assert not (tmp_path / "out.py").exists()


# ---------------------------------------- transformations of transformations (higher.py)


def outer_sine(x):
    return np.outer(x, x) * np.sin(x)


def scaled(x, w, scale=2.0, *, shift=0.5):
    return np.tanh(w @ x * scale + shift)


def quartic_mix(x):
    return np.sum(x ** 4) * x[0] + np.prod(np.cos(x))


X2 = np.array([0.3, -0.7])
W32 = np.array([[1.0, 0.5], [-0.3, 0.8], [0.2, 0.1]])


def test_jacobian_of_jacobian_of_the_issue():
    # the wrapper was unwrapped back to f: the first Jacobian, shape (2, 2, 2)
    first = sg.jacobian(outer_sine)
    second = sg.jacobian(first)
    assert second(X2).shape == (2, 2, 2, 2)
    np.testing.assert_allclose(second(X2), jacobian_by_differences(first, [X2], 0),
                               rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("mode", ["forward", "reverse", None])
@pytest.mark.parametrize("argnum", [0, 1])
def test_jacobian_of_jacobian_in_every_mode_and_argument(mode, argnum):
    first = sg.jacobian(scaled)
    second = sg.jacobian(first, wrt=argnum, mode=mode)
    args = [X2, W32]
    expected = jacobian_by_differences(first, args, argnum)
    assert second(*args).shape == (3, 2) + np.shape(args[argnum])
    np.testing.assert_allclose(second(*args), expected, rtol=1e-6, atol=1e-8)


def test_third_jacobian_and_hessian_of_a_jacobian():
    first = sg.jacobian(outer_sine)
    second = sg.jacobian(first)
    third = sg.jacobian(second)
    expected = jacobian_by_differences(second, [X2], 0)
    np.testing.assert_allclose(third(X2), expected, rtol=1e-6, atol=1e-8)
    # the Hessian of an array output is the Jacobian of its Jacobian (out + arg + arg + arg)
    hess = sg.hessian(first)
    assert hess(X2).shape == (2, 2, 2, 2, 2)
    np.testing.assert_allclose(hess(X2), expected, rtol=1e-6, atol=1e-8)


def test_jacobian_of_grad_is_the_hessian():
    for mode in ("forward", "reverse"):
        np.testing.assert_allclose(sg.jacobian(sg.grad(quartic_mix), mode=mode)(X2),
                                   sg.hessian(quartic_mix)(X2), rtol=1e-10)
    np.testing.assert_allclose(sg.hessian(quartic_mix)(X2),
                               jacobian_by_differences(sg.grad(quartic_mix), [X2], 0),
                               rtol=1e-6, atol=1e-8)


def test_jacobian_of_hessian_and_of_hvp():
    hess = sg.hessian(quartic_mix)
    third = sg.jacobian(hess)
    assert third(X2).shape == (2, 2, 2)
    np.testing.assert_allclose(third(X2), jacobian_by_differences(hess, [X2], 0),
                               rtol=1e-6, atol=1e-8)
    v = np.array([0.2, 0.9])
    product = sg.hvp(quartic_mix)
    np.testing.assert_allclose(product(X2, v), hess(X2) @ v, rtol=1e-10)
    np.testing.assert_allclose(sg.jacobian(product)(X2, v),
                               jacobian_by_differences(product, [X2, v], 0),
                               rtol=1e-6, atol=1e-8)


HESSIAN_OF_QUARTIC = sg.hessian(quartic_mix)
JACOBIAN_OF_SCALED = sg.jacobian(scaled, wrt=1)
MIXING = np.array([[1.0, -2.0], [0.5, 3.0]])


def weighted_hessian(x):
    return np.sum(HESSIAN_OF_QUARTIC(x) * MIXING)


def weighted_jacobian(x, w):
    return np.sum(np.sin(JACOBIAN_OF_SCALED(x, w)))


def test_grad_of_functions_calling_transformation_results():
    # calls of a result inside a differentiated function read its twin, not f
    assert_close(sg.grad(weighted_hessian)(X2), numerical_grad(weighted_hessian, [X2], 0))
    for argnum in (0, 1):
        assert_close(sg.grad(weighted_jacobian, wrt=argnum)(X2, W32),
                     numerical_grad(weighted_jacobian, [X2, W32], argnum))
    check_grads(weighted_hessian, [X2], order=1)


def fourth_power(x):
    return x ** 4


def test_scalar_derivatives_of_every_order():
    assert sg.grad(sg.hessian(fourth_power))(1.5) == pytest.approx(24 * 1.5)
    assert sg.grad(sg.jacobian(fourth_power))(1.5) == pytest.approx(12 * 1.5 ** 2)
    assert sg.grad(sg.grad(sg.jacobian(fourth_power)))(1.5) == pytest.approx(24 * 1.5)


def test_jvp_and_vjp_of_a_jacobian():
    first = sg.jacobian(scaled)
    expected = jacobian_by_differences(first, [X2, W32], 0)
    direction = np.array([1.0, -0.5])
    _, tangent = sg.jvp(first, (X2, W32), (direction, np.zeros_like(W32)))
    np.testing.assert_allclose(tangent, expected @ direction, rtol=1e-6, atol=1e-8)
    cotangent = np.arange(6.0).reshape(3, 2)
    grads = sg.vjp(first, X2, W32)[1](cotangent)
    np.testing.assert_allclose(grads[0], np.einsum("ijk,ij->k", expected, cotangent),
                               rtol=1e-6, atol=1e-8)


def test_a_result_reads_as_its_twin_never_as_f():
    import inspect
    import textwrap

    first = sg.jacobian(scaled, wrt=(0, 1))
    assert str(inspect.signature(first)) == str(inspect.signature(scaled))
    text = textwrap.dedent(inspect.getsource(first))
    assert text.startswith("def jacobian_scaled(x, w, scale=2.0, *, shift=0.5):")
    assert "jvp_scaled_x(x, w, scale, shift=shift, tangent_x=unit)" in text
    assert inspect.unwrap(first) is not scaled
    assert "jacobian" in repr(first) and "scaled" in repr(first)
    jx, jw = first(X2, W32)
    twin = inspect.unwrap(first)
    tx, tw = twin(X2, W32)
    np.testing.assert_allclose(tx, jx, rtol=1e-12)
    np.testing.assert_allclose(tw, jw, rtol=1e-12)
