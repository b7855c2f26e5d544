"""Programs a random-program fuzzer (random elementwise code with broadcasting, loops and
branches, checked against finite differences) found wrong; each is checked on every path."""

import math

import numpy as np
import pytest

import sourcegrad as sg

from .fd import assert_close, numerical_grad


def assert_second_derivative(f, x, y, rtol=1e-4):
    """``sg.grad`` of ``sg.grad(f)`` in ``x`` against central differences of the first."""
    first = sg.grad(f, wrt="x")
    second = sg.grad(first, wrt="x")(x, y)
    assert_close(second, (first(x + 1e-6, y) - first(x - 1e-6, y)) / 2e-6, rtol=rtol)


def copy_in_one_branch(x, y):
    """One branch copies `v2`'s cotangent from `v4`'s (an alias, a read-only view here), the
    other zero-fills it; the later `+=` must not count the alias as the code's own array."""
    v2 = np.max(x)
    v3 = (v2 - x) * 0.5
    if np.sum(y) > 0:
        v4 = y * 0.5 + v3
    else:
        v4 = v2
    return np.mean(v4)


def shape_changes_in_a_loop(x, y):
    """`v1` is `x`-shaped before the loop and `y`-shaped after it: the zeros for its
    cotangent at the top of each reversed iteration take the shape it had then."""
    v1 = x
    for _ in range(2):
        v1 = 0.75 + (y + x)
    return np.sum(np.tanh(0.5 * y + np.sin(v1)) + v1) * 0.5


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_copy_in_one_branch_is_not_updated_in_place(sign):
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(3), sign * (np.abs(rng.standard_normal(3)) + 0.1)
    gx, gy = sg.grad(copy_in_one_branch, wrt=("x", "y"))(x, y)
    assert_close(gx, numerical_grad(copy_in_one_branch, (x, y), 0))
    assert_close(gy, numerical_grad(copy_in_one_branch, (x, y), 1))


def test_zeros_for_a_loop_variable_take_its_shape_at_the_iteration():
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(3), rng.standard_normal((2, 3))
    gx, gy = sg.grad(shape_changes_in_a_loop, wrt=("x", "y"))(x, y)
    assert gx.shape == x.shape
    assert_close(gx, numerical_grad(shape_changes_in_a_loop, (x, y), 0))
    assert_close(gy, numerical_grad(shape_changes_in_a_loop, (x, y), 1))


def helper(a, b):
    return np.sin(a) * b + a


def calls_in_a_loop(y):
    """Each call's saved values belong to that call: the backward sweep used the last
    iteration's for every iteration (a wrong gradient, found by the fuzzer)."""
    v0 = y * 1.0
    for _ in range(2):
        v0 += helper(v0, y * 1.5)
    return np.sum(v0)


def calls_in_nested_loops_and_a_branch(y, n):
    total = 0.0
    for i in range(n):
        for _ in range(2):
            if i % 2 == 0:
                y = helper(y, 0.5)
        total = total + np.sum(helper(y, y))
    return total


def test_each_call_in_a_loop_gets_its_own_saved_values():
    y = np.array([0.99, 0.6, -1.5])
    assert_close(sg.grad(calls_in_a_loop)(y), numerical_grad(calls_in_a_loop, (y,), 0))
    leaf = sg.tensor(y, requires_grad=True)
    sg.differentiable(calls_in_a_loop)(leaf).backward()
    assert_close(leaf.grad.numpy(), numerical_grad(calls_in_a_loop, (y,), 0))


@pytest.mark.parametrize("n", [0, 1, 3])
def test_calls_in_nested_loops_and_branches(n):
    y = np.array([0.3, -0.8])
    got = sg.grad(calls_in_nested_loops_and_a_branch)(y, n)
    assert_close(got, numerical_grad(calls_in_nested_loops_and_a_branch, (y, n), 0))


def call_in_one_branch(x, y):
    """Differentiated twice, the first gradient's saved values of `helper` exist on one path
    only: their zero cotangent on the other path must not read them."""
    if np.sum(x) > 0:
        v1 = x * y
    else:
        v1 = helper(x ** 2, 0.7)
    return np.sum(np.sin(v1))


def set_in_a_loop_that_may_not_run(x, n):
    total = 0.0
    for i in range(n):
        if i > 0:
            v = helper(x, 0.5)
            total = total + v
    return total


@pytest.mark.parametrize("x", [0.7, -0.4])
def test_second_derivative_through_a_call_in_one_branch(x):
    y = np.array([0.3, -1.2])
    assert_second_derivative(call_in_one_branch, x, y, rtol=1e-5)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_second_derivative_through_a_loop_that_may_not_run(n):
    first = sg.grad(set_in_a_loop_that_may_not_run, wrt="x")
    second = sg.grad(first, wrt="x")(0.4, n)
    assert_close(second, (first(0.4 + 1e-6, n) - first(0.4 - 1e-6, n)) / 2e-6)


def make_scaled(scale):
    def scaled(a):
        return np.sin(a) * scale
    return scaled


double, triple = make_scaled(2.0), make_scaled(3.0)


def two_functions_one_name(x):
    """`double` and `triple` are both named `scaled`: each call needs its own derivative."""
    return np.sum(double(x)) + np.sum(triple(x * x))


def test_two_callees_with_the_same_name_get_their_own_derivatives():
    x = np.array([0.3, -0.9])
    got = sg.grad(two_functions_one_name)(x)
    assert_close(got, numerical_grad(two_functions_one_name, (x,), 0))


def test_second_derivative_through_variants_of_one_callee():
    first = sg.grad(calls_in_nested_loops_and_a_branch, wrt="y")
    y = np.array([0.3, -0.8])

    def along(t):
        return np.sum(first(y + t * np.array([1.0, -0.5]), 3))

    hvp_fd = (along(1e-6) - along(-1e-6)) / 2e-6
    hessian = sg.hessian(calls_in_nested_loops_and_a_branch, wrt="y")(y, 3)
    assert_close(np.sum(hessian @ np.array([1.0, -0.5])), hvp_fd)


def one_line_generated_body(x, y):
    """Differentiated twice, one generated function has a one-line body, which the
    provenance `try` wrapped with an invalid end position (compile refused it)."""
    v0 = y * 1.0
    if np.sum(x) > 0:
        v1 = -(helper(1.5, x))
    else:
        v1 = helper(np.sin(v0), np.minimum(v0, v0))
    v3 = np.max(helper(np.sqrt(np.sum(v0 ** 2) + 1.0), x))
    return np.sum(helper(v3, v3) / (v1 ** 4 + 1.0)) * 0.5


@pytest.mark.parametrize("x", [0.6, -0.6])
def test_second_derivative_with_a_one_line_generated_body(x):
    y = np.array([0.2, -0.4, 0.9])
    assert_second_derivative(one_line_generated_body, x, y)


def reduces_a_number_over_an_axis(x, y):
    """NumPy reduces a 0-d value over axis 0 to itself; `unreduce` raised here."""
    return np.sum(np.sin(x * y)) + np.sum(np.where(x > 0, x ** 2, 0.5), axis=0)


@pytest.mark.parametrize("x", [0.7, -0.7])
def test_a_number_reduced_over_an_axis(x):
    y = np.array([0.3, -1.1, 0.4])
    got = sg.grad(reduces_a_number_over_an_axis, wrt="x")(x, y)
    assert_close(got, numerical_grad(reduces_a_number_over_an_axis, (x, y), 0))


def sine_times(a, b):
    return np.sin(a) * b + a


def sums_a_number_over_an_axis(x, y):
    # what the callee returns is not known to be a number: `unreduce` meets a 0-d value,
    # with a cotangent that depends on `x`
    v = np.sum(sine_times(1.5, x ** 3), axis=0)
    return np.sum(np.sin(x * y) * v)


@pytest.mark.parametrize("x", [0.7, -0.7])
def test_second_derivative_through_a_number_reduced_over_an_axis(x):
    """The adjoint of that `unreduce` (`reduce_like`) raised on a 0-d cotangent."""
    y = np.array([0.3, -1.1, 0.4])
    assert_second_derivative(sums_a_number_over_an_axis, x, y)


def writes_through_a_view_of_a_view(x):
    """`a0[::-1][::-1]` is `a0` itself: the write changes `a0`, which the loss reads. The
    view was missed (only a view of a named array was looked for) and the gradient was
    silently wrong; now the write is refused, as a write through a one-step view is."""
    a0 = np.concatenate([x[:1], x[1:] * 2.0])
    a1 = a0[::-1][::-1]
    a1[1] = a1[0] * 2.0
    return np.sum(np.cumsum(a0) ** 2)


def writes_into_a_view_of_a_fresh_array(x):
    v = (x * 2.0)[::-1]
    v[0] = v[1] * 3.0
    return np.sum(v ** 2)


def test_a_write_through_a_view_of_a_view_is_refused():
    with pytest.raises(sg.UnsupportedSyntaxError, match="may be a view of `a0`"):
        sg.grad(writes_through_a_view_of_a_view)(np.array([0.3, -0.2, 0.5]))


def test_a_write_into_a_view_of_a_fresh_array_is_still_differentiated():
    x = np.array([0.3, -0.2, 0.5])
    assert_close(sg.grad(writes_into_a_view_of_a_fresh_array)(x),
                 numerical_grad(writes_into_a_view_of_a_fresh_array, (x,), 0))


def product_of_a_number_over_an_axis(x):
    """NumPy takes the product of a 0-d value over axis -1 as the value itself; the
    derivative's axis arithmetic divided by its zero dimensions (ZeroDivisionError)."""
    return np.sum(np.prod(np.tanh(np.sum(x)), axis=-1, keepdims=True))


def test_the_product_of_a_number_over_an_axis():
    x = np.array([0.3, -0.2, 0.5])
    assert_close(sg.grad(product_of_a_number_over_an_axis)(x),
                 numerical_grad(product_of_a_number_over_an_axis, (x,), 0))


def choice_passed_by_keyword(x, y):
    """`a if c else b` as a keyword argument stayed in the expression (only positional
    arguments were searched for it), and the gradient and tangent were silently zero."""
    return np.sum(helper(b=0.3, a=x if np.sum(x) > 0 else y))


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_conditional_expression_passed_by_keyword(sign):
    x, y = sign * np.array([0.5, 0.2, 0.4]), np.array([[0.1], [0.3]])
    dx, dy = (numerical_grad(choice_passed_by_keyword, (x, y), i) for i in (0, 1))
    gx, gy = sg.grad(choice_passed_by_keyword, wrt=("x", "y"))(x, y)
    assert_close(gx, dx)
    assert_close(gy, dy)
    tx, ty = np.array([1.0, -0.5, 0.3]), np.array([[0.7], [-0.2]])
    _, tangent = sg.jvp(choice_passed_by_keyword, (x, y), (tx, ty))
    assert_close(tangent, np.sum(dx * tx) + np.sum(dy * ty))


def shape_changes_in_one_branch(x, y):
    """`v` is `y`-shaped before the `if` and `x`-shaped after its body: the zeros for its
    cotangent above the `if` took the shape it had after it (a gradient of the wrong shape);
    break and continue in loops become such branches."""
    v = y
    if np.sum(y) < 0:
        v = x
    return np.sum(np.sin(v) * v)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_zeros_for_a_variable_set_in_one_branch_take_its_shape_before_the_branch(sign):
    x, y = np.array([0.3, -0.2, 0.5]), sign * np.array([[0.4, 0.1, 0.7], [0.2, 0.9, 0.3]])
    gx, gy = sg.grad(shape_changes_in_one_branch, wrt=("x", "y"))(x, y)
    assert gy.shape == y.shape
    assert_close(gx, numerical_grad(shape_changes_in_one_branch, (x, y), 0))
    assert_close(gy, numerical_grad(shape_changes_in_one_branch, (x, y), 1))


def writes_through_a_reshaped_view(W):
    """`W.reshape(9)[::3]` is a view of `W`: the write changes the `W` the loss reads. Only
    subscripts and `.T` were looked through, so the gradient silently missed the write."""
    a = W.reshape(9)[::3]
    a[1] = a[0] * 2.0
    return np.sum(W ** 2)


def writes_into_a_view_of_an_inverse(W):
    """The write changes the inverse that `np.linalg.inv`'s derivative reads: the gradient
    was silently wrong (with `np.min(..., keepdims=True)[0]`, NaN). The overwritten elements
    are now put back before that derivative runs."""
    a = np.linalg.inv(W + 3.0 * np.eye(3))[0]
    a[1] = 3.0
    return np.sum(a * np.array([1.0, 2.0, 3.0]))


def writes_into_a_view_of_a_minimum(W):
    a = np.min(np.sin(W), axis=0, keepdims=True)[0]
    a[1] = a[0] * 3.0
    return np.sum(a * np.array([1.0, 2.0, 3.0]))


def test_a_write_through_a_view_of_a_named_array_is_refused():
    with pytest.raises(sg.UnsupportedSyntaxError, match="may be a view of"):
        sg.grad(writes_through_a_reshaped_view)(np.eye(3) * 0.5)


@pytest.mark.parametrize("f", [writes_into_a_view_of_an_inverse, writes_into_a_view_of_a_minimum])
def test_a_write_into_a_view_of_an_intermediate_array_is_undone_for_its_derivative(f):
    W = np.random.default_rng(4).standard_normal((3, 3)) * 0.5
    assert_close(sg.grad(f)(W), numerical_grad(f, (W,), 0))


def adds_into_an_element_read_before(x):
    """`v[0] += 1.0` overwrites an element the adjoint of `np.sin(v)` reads: putting it back
    after the `+=`'s adjoint raised AttributeError (only `v[0] = ...` was expected)."""
    v = np.copy(x)
    s = np.sum(np.sin(v))
    v[0] += 1.0
    return s + np.sum(v ** 2)


def test_an_augmented_element_write_restores_the_element():
    x = np.array([0.3, -0.4, 0.8])
    assert_close(sg.grad(adds_into_an_element_read_before)(x),
                 numerical_grad(adds_into_an_element_read_before, (x,), 0))


def writes_into_a_copy_then_shape_only(x, y):
    """Differentiated twice, the first gradient's `v3[-1] -= ...` needs its element put back
    (AttributeError, as above); it also rebinds `v3` to `shape_only(v3)`, which must not
    make `v3` count as a view of an array the gradient reads."""
    v1 = np.min(1.5 / (x ** 2 + 1.0), axis=0, keepdims=True)
    v3 = np.copy(np.where(1.5 > x, x, y))
    v3[-1] -= np.tanh(v3[0])
    v3[0] += np.sum(v1)
    return np.sum(v3) * 0.5


@pytest.mark.parametrize("x", [0.3, 1.7])
def test_second_derivative_through_writes_into_a_copy(x):
    assert_second_derivative(writes_into_a_copy_then_shape_only, x, np.array([0.2, 0.5, -0.3]))


def extremes_of_a_number_over_an_axis(x, y):
    """`np.min(x, axis=-1)` of a number is the number: the weights that share the cotangent
    among ties came out shaped (1,), and the gradient of a number had shape (1,)."""
    return np.sum(np.min(x, axis=-1) * np.sin(y)) + np.max(x * x, axis=0)


@pytest.mark.parametrize("x", [0.3, -1.2])
def test_the_extreme_of_a_number_over_an_axis(x):
    y = np.array([0.5, -0.1])
    expected = numerical_grad(extremes_of_a_number_over_an_axis, (x, y), 0)
    got = sg.grad(extremes_of_a_number_over_an_axis, wrt="x")(x, y)
    assert np.shape(got) == ()
    assert_close(got, expected)
    leaf = sg.tensor(np.array(x), requires_grad=True)
    sg.differentiable(extremes_of_a_number_over_an_axis)(leaf, y).backward()
    assert leaf.grad.numpy().shape == ()
    assert_close(float(leaf.grad.numpy()), expected)


def set_on_one_path_then_zero_filled_on_another(x, y):
    """Differentiated twice: `h` of the first gradient is bound only when `x <= 0`, and its
    `None` went right before the inner `if`, so the zeros for its cotangent on the `x > 0`
    path read it unbound (UnboundLocalError)."""
    if x > 0:
        return np.sum(y)
    if np.sum(y) > 0:
        v = math.tanh(np.hypot(x, 1.5))
    else:
        v = 1.0
    return v ** 2


@pytest.mark.parametrize("x", [0.5, -0.5])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_second_derivative_of_a_value_bound_on_one_path(x, sign):
    assert_second_derivative(set_on_one_path_then_zero_filled_on_another, x,
                             sign * np.array([0.3, 0.4, 0.9]))


def nested_choice(x, y):
    """The inner `a if c else b` was moved out in front of the outer one, so its test ran
    even when NumPy's does not: `np.sort` of a number over an axis raised AxisError."""
    v = x ** 2 if np.sum(y) > 0 else (x * 1.5 if np.sum(np.sort(x, axis=-1)) > 0 else -x)
    return np.sum(v * y)


def test_a_nested_conditional_expression_runs_only_the_branch_taken():
    x, y = 0.4, np.array([0.3, 0.2])
    assert_close(sg.grad(nested_choice)(x, y), numerical_grad(nested_choice, (x, y), 0))
    assert_close(sg.jvp(nested_choice, (x, y), (1.0, np.zeros(2)))[1],
                 numerical_grad(nested_choice, (x, y), 0))


def writes_then_arctan2(x, y):
    v1 = np.copy(np.sin(y * x))
    v1[0] = v1[-1] * 2.0
    return np.sum(np.arctan2(v1, x ** 2 + 1.0))


def test_reverse_over_reverse_through_a_write_into_a_cotangent_that_aliases_a_saved_value():
    """The gradient zeroes `grad_v1[0]`, and `grad_v1 = unbroadcast(t, v1)` is `t` itself
    once the gradient is differentiated again and `t` (a quotient) gets a name; the
    quotient's derivative reads `t`, so the write changed what it read: reverse over
    reverse gave -3.32 where the second derivative is -4.17. The overwritten element is
    now put back before that derivative runs."""
    x, y = 0.4, np.array([0.3, -0.7, 1.1])
    assert_second_derivative(writes_then_arctan2, x, y)
    first = sg.grad(writes_then_arctan2, wrt="x")
    expected = (first(x + 1e-6, y) - first(x - 1e-6, y)) / 2e-6
    assert_close(float(sg.hessian(writes_then_arctan2, wrt="x")(x, y)), expected, rtol=1e-4)


def accumulates_a_zero_number(x):
    """`np.cumprod` of a number that is 0 (a norm of zeros) over axis 0: the exact-Jacobian
    branch moved an axis a number does not have (AxisError)."""
    v = np.linalg.norm(x - x)
    return np.sum(np.cumprod(np.tanh(v) + x[0], axis=0) * x)


@pytest.mark.parametrize("first", [0.0, 0.6])
def test_cumprod_of_a_number_over_an_axis(first):
    x = np.array([first, -0.3, 0.8])
    assert_close(sg.grad(accumulates_a_zero_number)(x),
                 numerical_grad(accumulates_a_zero_number, (x,), 0))
    tangent = np.array([0.2, 0.5, -0.4])
    _, got = sg.jvp(accumulates_a_zero_number, (x,), (tangent,))
    assert_close(got, np.sum(numerical_grad(accumulates_a_zero_number, (x,), 0) * tangent))


def adds_into_elements_of_a_copy(x, y):
    v1 = np.copy(y)
    v1[-1] -= np.tanh(v1[0])
    v1[0] += np.sum(np.hypot(x, 1.5))
    return -np.mean(np.maximum(1.5 * x, v1)) / 3.0


@pytest.mark.parametrize("x", [0.7, 1.2])
def test_forward_over_reverse_through_a_gradient_that_writes_into_its_cotangents(x):
    """The first gradient adds into `grad_v1[0]`, where `grad_v1 = unbroadcast(...)`:
    counting `unbroadcast` as a view maker made forward mode refuse that write (`sg.hessian`
    raised), though no value another derivative reads can change through it."""
    y = np.array([0.4, -0.9, 1.3])
    first = sg.grad(adds_into_elements_of_a_copy, wrt="x")
    expected = (first(x + 1e-6, y) - first(x - 1e-6, y)) / 2e-6
    assert_close(float(sg.hessian(adds_into_elements_of_a_copy, wrt="x")(x, y)), expected,
                 rtol=1e-4, atol=1e-6)
    assert_second_derivative(adds_into_elements_of_a_copy, x, y)


def add_itself_or_a_number(x, y):
    """Seed 17269: ``acc += (c if cond else acc)`` names ``acc``'s memory twice for a moment
    (the choice, read only by the update); forward mode refused it as an alias update."""
    acc = x * 1.0
    for _ in range(3):
        acc += 0.5 if np.sum(acc - y) > 0 else acc
    return np.sum(np.sin(acc) * y)


def alias_unread_after_the_update(x, y):
    """``c = a; c += ...`` with ``a`` never read again: NumPy changes both names, and no
    derivative reads the other one: every mode allows it, as reverse mode did."""
    a = x * 2.0
    c = a
    c += np.tanh(y)
    return np.sum(c * c)


def add_a_function_of_itself_or_another(x, y):
    """Seed 942: the choice between ``acc`` and ``y`` is read by ``np.maximum`` before the
    update (not by the update itself): reading an alias before the update sees no change."""
    acc = x * 1.0
    for _ in range(2):
        acc += np.maximum(y if np.sum(y) > 0 else acc, np.hypot(1.5, acc))
    return np.sum(np.tanh(acc) * y)


@pytest.mark.parametrize("f", [add_itself_or_a_number, alias_unread_after_the_update,
                               add_a_function_of_itself_or_another])
@pytest.mark.parametrize("ys", [np.array([-2.0, -1.0, -3.0]), np.array([0.4, -0.2, 0.1])])
def test_an_alias_not_read_after_the_update_does_not_stop_it(f, ys):
    # (with ys1, the first pass doubles acc, the others add 0.5: sums 0.1 away from the switch)
    x = np.array([0.35, -0.4, 0.25])
    dx, dy = numerical_grad(f, (x, ys), 0), numerical_grad(f, (x, ys), 1)
    gx, gy = sg.grad(f, wrt=(0, 1))(x, ys)
    assert_close(gx, dx)
    assert_close(gy, dy)
    tx, ty = np.array([0.5, -1.0, 0.25]), np.array([1.0, 0.3, -0.7])
    _, tangent = sg.jvp(f, (x, ys), (tx, ty))
    assert_close(tangent, np.sum(dx * tx) + np.sum(dy * ty))


def alias_read_after_the_update(x, y):
    a = x * 2.0
    c = a
    c += np.tanh(y)
    return np.sum(c * a)


def test_an_alias_read_after_the_update_is_still_refused():
    """NumPy changed ``a`` too, which the generated code (``c = c + ...``) would not."""
    x, y = np.array([0.3, -0.4, 0.25]), np.array([0.5, 0.1, -0.2])
    with pytest.raises(sg.UnsupportedSyntaxError, match="shares its memory"):
        sg.grad(alias_read_after_the_update)(x, y)
    with pytest.raises(sg.UnsupportedSyntaxError, match="shares its memory"):
        sg.jvp(alias_read_after_the_update, (x, y), (x, y))
