"""Reads that are views of an array written later, and in-place updates of arrays that have
other names: NumPy shares memory in both, and a derivative that treats the names as separate
values is silently wrong. Each function here either differentiates right (checked against
central finite differences, in reverse and forward mode) or is refused, never wrong."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg

from .fd import numerical_grad

X = np.array([[0.3, -1.2, 0.7, 0.5], [1.1, 0.4, -0.6, 0.9], [-0.8, 0.2, 1.3, -0.4]])
DIRECTION = np.array([[0.5, 0.1, -0.3, 0.2], [-0.7, 0.6, 0.4, -0.1], [0.3, -0.2, 0.8, 0.9]])


def row_read_then_row_written(x):
    a = x * 1.0
    b = a[2] * x[0]
    a[2] = x[1] ** 2
    return np.sum(a * b)


def negative_index_read_then_written(x):
    a = x * 1.0
    b = a[-1] * x[0]
    a[2] = x[1] ** 2
    return np.sum(a * b)


def next_row_read_in_loop(x):
    a = x * 1.0
    for i in range(2):
        a[i] = x[i] * a[i + 1]
    return np.sum(a ** 2)


def wrapped_previous_row_in_loop(x):
    a = np.zeros_like(x)
    for i in range(3):
        a[i] = x[i] * a[i - 1] + x[i]
    return np.sum(a ** 2)


def element_read_then_added_at(x):
    a = x * 2.0
    b = np.sin(a[1])
    np.add.at(a, (np.array([1, 1]),), x[0])
    return np.sum(a * b)


def row_named_then_written_in_loop(x, w):
    a = x * 1.0
    for i in range(3):
        row = a[i]
        a[i] = row * w
    return np.sum(a ** 2)


def offset_read_in_loop(x, k):
    a = x * 1.0
    n = a.shape[0]
    for i in range(n):
        a[i] = np.tanh(x[i] * a[(i + k) % n])
    return np.sum(a * x)


def fresh_array_updated_in_place(x):
    c = x * 2
    c += x
    c *= x
    return np.sum(c ** 2)


def number_updated_after_copying_its_name(x):
    t = 0.5
    s = t
    s += np.sum(x)
    return s * t + s ** 2


def assert_right_both_modes(f, args, argnum=0):
    expected = numerical_grad(f, args, argnum)
    np.testing.assert_allclose(sg.grad(f, wrt=argnum)(*args), expected, rtol=1e-6,
                               atol=1e-8)
    direction = np.resize(DIRECTION, np.shape(args[argnum])) if np.ndim(args[argnum]) == 2 else (
        np.ones_like(args[argnum]))
    tangents = tuple(direction if i == argnum else np.zeros_like(a) if isinstance(
        a, np.ndarray) else 0 for i, a in enumerate(args))
    value, tangent = sg.jvp(f, args, tangents)
    np.testing.assert_allclose(value, f(*args), rtol=1e-12)
    np.testing.assert_allclose(tangent, np.sum(expected * direction), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("f", [row_read_then_row_written, negative_index_read_then_written,
                               next_row_read_in_loop, wrapped_previous_row_in_loop,
                               element_read_then_added_at, fresh_array_updated_in_place,
                               number_updated_after_copying_its_name])
def test_reads_that_a_later_write_changes_keep_their_values_for_the_derivative(f):
    assert_right_both_modes(f, (X,))


def test_a_named_row_read_before_its_write_in_each_iteration():
    assert_right_both_modes(row_named_then_written_in_loop, (X, np.array([0.5, -1.5, 2.0, 1.0])))
    assert_right_both_modes(row_named_then_written_in_loop, (X, np.array([0.5, -1.5, 2.0, 1.0])),
                            argnum=1)


@settings(max_examples=15, deadline=None)
@given(k=st.integers(-4, 4), rows=st.integers(1, 4))
def test_reads_at_any_offset_of_rows_written_in_the_same_loop(k, rows):
    x = np.resize(X, (rows, 4)) * (1.0 + 0.1 * np.arange(rows))[:, None]
    assert_right_both_modes(offset_read_in_loop, (x, k))


def view_read_after_its_base_is_written(x):
    a = x * 1.0
    v = a[2]
    a[2] = x[1] ** 2
    return np.sum(v * x[0])


def test_a_named_view_read_after_its_base_is_written_is_refused():
    with pytest.raises(sg.UnsupportedSyntaxError) as caught:
        sg.grad(view_read_after_its_base_is_written)(X)
    message = str(caught.value)
    assert "`v`, which may be a view of `a`, is read afterwards" in message
    assert "a[2] = x[1] ** 2" in message  # the user's line
    assert "v = np.copy(...)" in message


def update_of_a_copied_name(x):
    a = x * 2
    c = a
    c *= x
    return np.sum(a)


def update_of_an_argument_through_another_name(x):
    y = x
    y += 1.0
    return np.sum(x * y)


def update_of_a_row_view(x):
    a = x * 2
    v = a[0]
    v += x[1]
    return np.sum(a ** 2)


def update_of_a_reshaped_view(x):
    a = x * 2
    v = a.reshape(-1)
    v += 1
    return np.sum(a ** 2)


@pytest.mark.parametrize("f, var, alias", [
    (update_of_a_copied_name, "c", "a"),
    (update_of_an_argument_through_another_name, "y", "x"),
    (update_of_a_row_view, "v", "a"),
    (update_of_a_reshaped_view, "v", "a"),
])
def test_an_in_place_update_of_an_array_with_another_name_is_refused_in_both_modes(
        f, var, alias):
    for transform in (lambda: sg.grad(f)(X), lambda: sg.jvp(f, (X,), (DIRECTION,))):
        with pytest.raises(sg.UnsupportedSyntaxError) as caught:
            transform()
        message = str(caught.value)
        assert f"updating `{var}` in place while `{alias}` shares its memory" in message
        assert f"{var} = {var} + ..." in message


def scatter_of_an_expression(x):
    a = x * 2.0
    np.add.at(a, (np.array([1, 1, 2]),), x[0] * x[2])
    return np.sum(a * a)


def scatter_of_a_row(x):
    a = x * 2.0
    np.add.at(a, np.array([1, 1]), x[0])
    return np.sum(np.sin(a))


@pytest.mark.parametrize("f", [scatter_of_an_expression, scatter_of_a_row])
def test_a_scattered_value_that_is_an_expression_gets_its_gradient(f):
    """It was left out of the normal form, and its cotangent silently dropped."""
    assert_right_both_modes(f, (X,))


def fill_of_a_row(x):
    a = x * 2.0
    a[0].fill(np.sum(x[1]))
    return np.sum(a * a)


def copy_into(x):
    a = x * 2.0
    np.copyto(a[0], x[1])
    return np.sum(a * a)


def put_into(x):
    a = x * 2.0
    np.put(a, [0, 5], x[1, :2])
    return np.sum(a * a)


def sort_in_place(x):
    a = x * 2.0
    a.sort(axis=0)
    return np.sum(a * np.arange(4.0))


def fill_the_diagonal(x):
    a = x * 2.0
    np.fill_diagonal(a, x[0, 0] * 3)
    return np.sum(a * a)


def exp_into_itself(x):
    a = x * 2.0
    np.exp(a, out=a)
    return np.sum(a * x)


def write_through_real(x):
    a = x * 2.0
    a.real[0] = x[1]
    return np.sum(a * a)


def shuffle_rows(x):
    a = x * 2.0
    np.random.default_rng(0).shuffle(a)
    return np.sum(a * x)


def multiply_at(x):
    a = x * 2.0
    np.multiply.at(a, [0, 0], 3.0)
    return np.sum(a * x)


@pytest.mark.parametrize("f, quoted", [
    (fill_of_a_row, "`a[0].fill(...)`, which changes an array in place"),
    (copy_into, "`np.copyto(...)`, which changes an array in place"),
    (put_into, "`np.put(...)`, which changes an array in place"),
    (sort_in_place, "`a.sort(...)`, which changes an array in place"),
    (fill_the_diagonal, "`np.fill_diagonal(...)`, which changes an array in place"),
    (exp_into_itself, "`out=`, which writes a result into an existing array"),
    (write_through_real, "writing into `a.real[...]`"),
    (multiply_at, "`np.multiply.at`, which changes an array in place"),
    (shuffle_rows, "`np.random.default_rng(0).shuffle(...)`, which changes an array in place"),
])
def test_calls_that_change_an_array_in_place_are_refused_in_both_modes(f, quoted):
    """Each was differentiated as if the call had not happened: silently wrong."""
    for transform in (lambda: sg.grad(f)(X), lambda: sg.jvp(f, (X,), (DIRECTION,))):
        with pytest.raises(sg.UnsupportedSyntaxError) as caught:
            transform()
        assert quoted in str(caught.value)


def mask_then_constant_written(x, t):
    a = x * 1.0
    a[a > t] = 0.25
    return np.sum(a ** 2)


def mask_then_expression_written(x, t):
    a = x * 1.0
    a[a > t] = 0.5 * x[a > t] ** 2
    return np.sum(a ** 2)


def mask_read_then_written(x, t):
    a = x * 1.0
    b = x[a > t]
    a[a > t] = 0.25
    return np.sum(a ** 2) + np.sum(b ** 3)


@settings(max_examples=10, deadline=None)
@given(t=st.sampled_from([-1.0, -0.5, 0.0, 0.35, 0.6, 1.0, 1.2]))
@pytest.mark.parametrize("f", [mask_then_constant_written, mask_then_expression_written,
                               mask_read_then_written])
def test_a_mask_of_the_array_written_is_the_one_from_before_the_write(f, t):
    """The backward sweep evaluated `a > t` again, after the write had changed `a`:
    silently wrong (or a shape error). The thresholds stay clear of X's values, where the
    function is smooth."""
    assert_right_both_modes(f, (X, t))


def zero_first_row(a):
    a[0] = 0.0
    return a * 2


def add_into(a, v):
    a += v
    return 1.0


def set_second_row(a, v):
    a[1] = v


def calls_a_function_that_writes_into_its_argument(x):
    b = x * 1.0
    c = zero_first_row(b)
    return np.sum(b * x) + np.sum(c)


def calls_a_function_that_adds_into_its_argument(x):
    b = x * 1.0
    c = add_into(b, x)
    return np.sum(b * x) * c


def calls_a_function_for_its_effect(x):
    b = x * 1.0
    set_second_row(b, x[0] * 2)
    return np.sum(b * x)


@pytest.mark.parametrize("f, refusal", [
    (calls_a_function_that_writes_into_its_argument,
     "writing into `a`, an array `zero_first_row` was given by the function that calls it"),
    (calls_a_function_that_adds_into_its_argument,
     "writing into `a`, an array `add_into` was given by the function that calls it"),
    (calls_a_function_for_its_effect, "a call for its side effect on `b`"),
])
def test_a_function_that_writes_into_what_its_caller_gave_it_is_refused(f, refusal):
    """The caller's array changed under the derivative, which treated it as the callee's
    own: silently wrong in reverse mode."""
    for transform in (lambda: sg.grad(f)(X), lambda: sg.jvp(f, (X,), (DIRECTION,))):
        with pytest.raises(sg.UnsupportedSyntaxError) as caught:
            transform()
        assert refusal in str(caught.value)


def writes_into_its_own_argument(x):
    x[0] = x[1] ** 2
    return np.sum(x * x[2])


def test_a_function_may_still_write_into_its_own_argument():
    """Differentiated on its own, the write is part of the function of the values it was
    given (the caller is the user, who sees the array change as NumPy changes it)."""
    expected = numerical_grad(lambda v: writes_into_its_own_argument(np.copy(v)), (X,), 0)
    np.testing.assert_allclose(sg.grad(writes_into_its_own_argument)(np.copy(X)), expected,
                               rtol=1e-6, atol=1e-8)


def add_into_an_array_a_list_holds(x):
    a = x * 1.0
    held = [a, x]
    held[0] += x
    return np.sum(a * x)


def add_into_an_array_a_dict_holds(x):
    a = x * 1.0
    held = {"k": a}
    held["k"] -= x ** 2
    return np.sum(a * x)


def in_place_product_of_an_array_a_list_holds(x):
    a = x * 1.0
    held = []
    held.append(a)
    held[0] *= x
    return np.sum(a)


def write_into_a_name_unpacked_from_another(x):
    a = x * 1.0
    b, c = a, x
    b[0] = 3.0
    return np.sum(a * c)


@pytest.mark.parametrize("f, refusal", [
    (add_into_an_array_a_list_holds, "writing into an array that `held` holds"),
    (add_into_an_array_a_dict_holds, "writing into an array that `held` holds"),
    (in_place_product_of_an_array_a_list_holds, "writing into an array that `held` holds"),
    (write_into_a_name_unpacked_from_another, "writing into `b`, which is `a` itself"),
])
def test_writes_into_arrays_shared_through_containers_are_refused_in_both_modes(f, refusal):
    for transform in (lambda: sg.grad(f)(X), lambda: sg.jvp(f, (X,), (DIRECTION,))):
        with pytest.raises(sg.UnsupportedSyntaxError) as caught:
            transform()
        assert refusal in str(caught.value)


def rows_of_fresh_arrays_in_a_list(x):
    held = [x * 1.0, x * 2.0]
    held[0] = held[0] * x
    held[1] = np.sin(held[1])
    return np.sum(held[0] + held[1])


def test_fresh_arrays_a_list_holds_are_replaced_and_differentiated():
    assert_right_both_modes(rows_of_fresh_arrays_in_a_list, (X,))


def chained_write_into_an_array(x):
    a = x * 1.0
    a[1][0] = x[0, 1] ** 2
    return np.sum(a * x)


def chained_write_into_a_dict_of_dicts(x):
    d = {"a": {"w": x * 1.0}}
    d["a"]["w"] = x ** 2
    return np.sum(d["a"]["w"])


@pytest.mark.parametrize("f, quoted", [(chained_write_into_an_array, "`a[1][0]`"),
                                       (chained_write_into_a_dict_of_dicts, '`d["a"]["w"]`')])
def test_a_write_through_a_chained_index_is_refused(f, quoted):
    """Silently wrong for arrays, a crash for containers, before."""
    with pytest.raises(sg.UnsupportedSyntaxError) as caught:
        sg.grad(f)(X)
    assert f"writing through a chained index {quoted}" in str(caught.value)


def diagonal_read_after_a_write(x):
    a = x[:, :3] * 1.0
    d = np.diagonal(a)
    a[0, 0] = 2.0
    return np.sum(d * x[0, :3])


def test_a_view_read_after_its_base_is_written_is_refused_in_forward_mode_too():
    with pytest.raises(sg.UnsupportedSyntaxError) as caught:
        sg.jvp(diagonal_read_after_a_write, (X,), (DIRECTION,))
    assert "reading `d`, a view of `a`, after a write into `a`" in str(caught.value)
    with pytest.raises(sg.UnsupportedSyntaxError) as caught:
        sg.grad(diagonal_read_after_a_write)(X)
    assert "`d`, which may be a view of `a`, is read afterwards" in str(caught.value)


def numpy_functions_named_like_in_place_methods(x):
    return np.sum(np.sort(x, axis=0)[0] * np.partition(x, 1, axis=1)[:, 0]) + np.sum(
        np.resize(x[0], (2, 4)) ** 2)


def test_numpy_functions_named_like_in_place_methods_are_differentiated():
    """`np.sort(a)` makes a new array; only the method `a.sort()` changes `a`."""
    assert_right_both_modes(numpy_functions_named_like_in_place_methods, (X[:, :3],))
