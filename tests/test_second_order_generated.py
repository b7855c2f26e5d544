"""Derivatives of derivatives: the constructs sourcegrad's generated code is made of, each
differentiated again (issue 13, section 2), in the three combinations: reverse over reverse,
forward over reverse, reverse over forward (and forward over forward), against central
differences of the first derivative."""

import linecache

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.testing import check_grads

from .golden_functions import GOLDEN, GOLDEN_OPTIONS

rng = np.random.default_rng(13)


def check_second_order(f, args):
    """Every combination of two modes on ``f`` at ``args``: ``check_grads`` of order 2 runs
    forward and reverse mode over ``jvp_f``; forward and reverse mode over ``grad_f`` (of
    each float argument) complete the four."""
    assert check_grads(f, args, modes=("fwd", "rev"), order=2)
    for i, a in enumerate(args):
        if isinstance(a, float) or isinstance(a, np.ndarray) and a.dtype.kind == "f":
            assert check_grads(sg.grad(f, wrt=i), args, modes=("fwd", "rev"), order=1)


def fancy_rows_and_slices(x):
    return np.sum(x[[0, 1, 2], :, :] ** 3)


def repeated_fancy_index(x):
    return np.sum(x[[0, 0, 2]] ** 3)


def fancy_index_with_ellipsis(x):
    return np.sum(np.sin(x[..., [1, 1]]) * x[..., :2])


@pytest.mark.parametrize("f", [fancy_rows_and_slices, repeated_fancy_index,
                               fancy_index_with_ellipsis])
def test_fancy_indices_with_slices_differentiate_twice(f):
    """The adjoint of a fancy read is ``np.add.at(grad, index, g)``, whose index cannot spell
    ``:`` (a SyntaxError in grad_f itself); reverse mode over that ``np.add.at`` ignored it
    (a zero second derivative)."""
    check_second_order(f, [rng.standard_normal((4, 3, 2))])


# -- sequences of cotangents are added element by element -----------------------------------
def joined(a0):
    return np.concatenate(a0, axis=0)


def stacked(a0):
    return np.stack(a0)


def side_by_side(a0):
    return np.hstack(a0)


def on_top(a0):
    return np.vstack(a0)


def dotted(a0):
    return np.dot(a0[0], a0[1].T)


def outer_product(a0):
    return np.outer(a0[0], a0[1])


def contracted(a0):
    return np.tensordot(a0[0], a0[1], axes=([1], [1]))


INNER = [joined, stacked, side_by_side, on_top, dotted, outer_product, contracted]


@pytest.mark.parametrize("inner", INNER)
def test_a_tuple_argument_passed_on_differentiates_twice(inner):
    """``def outer(a0, v): return np.sum(inner(a0) * v)``: differentiating ``grad_outer``
    added the list cotangent of the tuple ``a0`` to the tuple of gradients ``backward_inner``
    returned with ``+`` (TypeError: can only concatenate list (not "tuple") to list)."""
    a0 = (rng.standard_normal((2, 3)), rng.standard_normal((2, 3)))
    v = rng.standard_normal(np.shape(inner(a0)))
    text = "def outer(a0, v):\n    return np.sum(inner(a0) * v)\n"
    filename = f"<outer of {inner.__name__}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = {"np": np, "inner": inner}
    exec(compile(text, filename, "exec"), namespace)
    outer = namespace["outer"]
    grads = sg.vjp(sg.grad(outer), a0, v)[1](a0)
    assert isinstance(grads[0], tuple) and len(grads[0]) == 2
    assert check_grads(sg.grad(outer), [a0, v], modes=("fwd", "rev"), order=1)


def array_of_numbers(x, v):
    return np.sum(np.array([[x, x * 1.0, x + 2.5], [x ** 2, x, x / 2.0]]) * v)


def test_an_array_of_numbers_differentiates_twice():
    """The cotangent of the nested list was added to a list with ``+`` (cannot reshape array
    of size 12 into shape (2, 3))."""
    check_second_order(array_of_numbers, [3.0, rng.standard_normal((2, 3))])


def power(x, p):
    return x ** p * 3.0 + np.power(x, p + 1.0)


def test_a_power_of_zero_at_zero_differentiates_to_any_order():
    """``x ** p`` at ``x == p == 0`` (Python floats): the rule computed ``0.0 ** -1`` in the
    branch it then dropped (ZeroDivisionError)."""
    assert sg.grad(power)(0.0, 0.0) == 1.0
    assert sg.grad(sg.grad(power))(0.0, 0.0) == 0.0
    check_second_order(power, [0.5, 0.7])


def swapped(x):
    a, b = x * 2.0, np.sin(x)
    a, b = b * a, np.cos(a)
    return np.sum(a * b)


def test_an_unpacking_that_overwrites_two_saved_values_restores_both():
    """Both old values were kept in one variable (``a_old = a; a_old = b``)."""
    check_second_order(swapped, [rng.standard_normal(3)])


def loop_then_divide(x, y):
    v1 = 0.0
    for row in x:
        v1 = v1 + np.sin(row)
    return np.sum(x / v1 * y)


def test_an_element_write_into_a_shared_cotangent_is_undone_for_its_derivative():
    """``grad_x = unbroadcast(t, x)`` is ``t`` itself, which the derivative of the division
    computing it reads; ``grad_x[i] = ...`` changed it. The backward sweep restored the
    elements into a private copy of ``grad_x``, not into ``t``: reverse over reverse was
    silently wrong."""
    check_second_order(loop_then_divide, [rng.standard_normal(3), rng.standard_normal(3)])


def writes_into_a_view_of_an_inverse(W):
    a = np.linalg.inv(W + 3.0 * np.eye(3))[0]
    a[1] = 3.0
    return np.sum(a * np.array([1.0, 2.0, 3.0]))


def test_the_split_backward_restores_elements_shared_with_an_intermediate():
    """``sg.vjp`` (and every derivative of a derivative) runs the split ``backward_f``, which
    works on private copies of what it restores: the write into ``a`` must reach the inverse
    it shares memory with (the gradient was wrong; ``sg.grad`` was right)."""
    W = rng.standard_normal((3, 3)) * 0.5
    pullback = sg.vjp(writes_into_a_view_of_an_inverse, W)[1]
    np.testing.assert_allclose(pullback(1.0)[0], sg.grad(writes_into_a_view_of_an_inverse)(W))
    np.testing.assert_allclose(pullback(1.0)[0], sg.grad(writes_into_a_view_of_an_inverse)(W))


# -- every golden function, differentiated twice ------------------------------------------
@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_every_golden_function_differentiates_twice(name):
    f, args, wrt = GOLDEN[name]
    options = GOLDEN_OPTIONS.get(name, {})  # has_aux: (gradient, aux), aux's derivative too
    for i in (wrt if isinstance(wrt, tuple) else (wrt,)):
        assert check_grads(sg.grad(f, wrt=i, **options), list(args), modes=("fwd", "rev"),
                           order=1)
    assert check_grads(f, list(args), modes=("fwd", "rev"), order=2)


# -- reverse over reverse of list code -------------------------------------------------------
def sliced_list(x):
    xs = [x, 2 * x, 3 * x]
    total = 0.0
    tail = xs[1:]
    for k in range(len(tail)):
        total = total + xs[k] * tail[k]
    return np.sum(total)


def slices_a_list_argument(xs):
    head = xs[:2]
    total = 0.0
    for v in xs[1:]:
        total = total + np.sum(v ** 3)
    return total + np.sum(head[0] * head[1])


def grown_by_joining(x):
    acc = []
    for i in range(len(x)):
        acc = acc + [x[i] * (i + 1)]
    return np.sum(np.array(acc[:len(acc) - 1]) ** 2)


@pytest.mark.parametrize(("f", "args"), [
    (sliced_list, [rng.standard_normal(3)]),
    (slices_a_list_argument, [[rng.standard_normal(2) for _ in range(3)]]),
    (grown_by_joining, [rng.standard_normal(3)]),
])
def test_list_slices_differentiate_twice_in_reverse_mode(f, args):
    """``grad_f`` adds a slice's cotangent into the list's with ``grad_xs[1:] =
    add_grads(grad_xs[1:], grad_tail)``, whose adjoint zeroed a list slice like an array's
    (``grad_grad_xs[1:] = 0.0``: TypeError, can only assign an iterable); and it cuts a
    joined list's cotangent with ``grad_acc = grad_acc_plus_items[:len(acc)]``, a new list
    that was refused as a possible view."""
    assert check_grads(sg.grad(f), args, modes=("fwd", "rev"), order=1)


def tanh_in_a_loop(x):
    h = x
    for _ in range(2):
        h = np.tanh(h)
    return np.sum(h ** 2)


U = rng.standard_normal(3)


def tangent_of_tanh_in_a_loop(x):
    return sg.jvp(tanh_in_a_loop, (x,), (U,))[1]


def test_a_value_assigned_twice_in_a_loop_body_is_restored_for_its_adjoint():
    """Third order, reverse over reverse over forward: in ``backward_jvp_f`` differentiated
    again, ``grad_tanh_h`` is assigned twice in the loop body (``= grad_h``, then ``+=``). The
    first assignment pushed its value for the reverse iteration to start from, the second
    pushed its old value on the same stack: the reverse iteration started from the first
    value instead of the last, and the third derivative was silently wrong (by 10%)."""
    assert check_grads(sg.grad(tangent_of_tanh_in_a_loop), [rng.standard_normal(3)],
                       modes=("fwd", "rev"), order=1)
