"""sg.grad on the corpus of supported constructs, checked against finite differences."""

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.testing import check_grads

from . import corpus
from .fd import assert_close, numerical_grad

rng = np.random.default_rng(0)


def r(*shape):
    return rng.standard_normal(shape)


# name -> list of argument tuples (several, to take both sides of branches / loop counts)
CASES = {
    "straight": [(r(3, 4), r(4, 2))],
    "reassign": [(r(5),)],
    "augmented": [(r(3), r(3))],
    "unary_and_abs": [(np.array([0.5, -1.0, 2.0]),)],
    "branch": [(np.abs(r(3)) + 0.1,), (-np.abs(r(3)) - 0.1,)],
    "elif_chain": [(r(3), -1.0), (r(3), 0.5), (r(3), 2.0)],
    "conditional_expression": [(np.abs(r(3)) + 0.1,), (-np.abs(r(3)) - 0.1,)],
    "boolean_conditions": [(r(3), 1.0), (r(3), 3.0), (r(3), -6.0)],
    "early_return": [(r(3),), (r(3) + 20.0,)],
    "for_range": [(r(3), 0), (r(3), 1), (r(3), 4)],
    "loop_carried": [(r(3), 0), (r(3), 1), (r(3), 5)],
    "for_over_array": [(r(4, 3),), (r(1, 3),)],
    "for_enumerate": [(r(4, 2),)],
    "for_zip": [(r(3, 2), r(4, 2))],
    "while_loop": [(np.full(2, 20.0),), (np.array([0.3, 0.2]),)],
    "break_and_continue": [(np.array([0.5, 0.7]),)],
    "return_in_loop": [(np.array([0.1, 0.2]),), (np.array([3.0, 2.0]),)],
    "nested_loops": [(r(3, 2),)],
    "subscript_read": [(r(4),)],
    "subscript_write": [(r(3),)],
    "subscript_augmented": [(r(3, 2), r(2))],
    "mask_and_fancy": [(r(5),)],
    "new_axis": [(r(3),)],
    "list_append_stack": [(r(3),)],
    "list_comprehension": [(r(2),)],
    "tuples": [(r(3), r(3))],
    "dict_params": [({"w": r(3, 2), "b": r(2)}, r(4, 3))],
    "calls_user_function": [(r(3),)],
    "uses_globals": [(r(3),)],
    "scalar_math": [(0.7, 0.3)],
    "methods": [(r(3, 2),)],
    "comparisons_nondiff": [(r(4),)],
    "more_methods": [(r(3, 1) + 0.1,), (r(2, 1),)],
    "append_then_array": [(r(2),)],
    "floor_div_and_mod": [(np.array([0.31, 1.05, -0.4]),)],
    "closure_function": [(r(2),)],
    "while_with_counter": [(r(2), 0), (r(2), 1), (r(2), 4)],
    "nondifferentiable_calls": [(np.array([0.3, -1.2, 2.6]),)],
    "where_broadcast": [(r(4),)],
    "nested_unpacking": [(r(3), r(3))],
    "loop_over_tuple": [(r(3), r(3))],
    "nested_def": [(r(3), r(3)), (np.abs(r(3)), np.abs(r(3))), (np.abs(r(3)), -np.abs(r(3)))],
}


def float_args(args):
    return [i for i, a in enumerate(args)
            if isinstance(a, (float, dict, list)) or (isinstance(a, np.ndarray)
                                                     and a.dtype.kind == "f")]


@pytest.mark.parametrize("name", sorted(CASES))
def test_grad_matches_finite_differences(name):
    fn = getattr(corpus, name)
    for args in CASES[name]:
        for argnum in float_args(args):
            expected = numerical_grad(fn, args, argnum)
            actual = sg.grad(fn, wrt=argnum)(*args)
            assert_close(actual, expected)


@pytest.mark.parametrize("name", sorted(CASES))
def test_value_and_grad_returns_the_value(name):
    fn = getattr(corpus, name)
    args = CASES[name][0]
    value, _ = sg.value_and_grad(fn, wrt=float_args(args)[0])(*args)
    np.testing.assert_allclose(value, fn(*args))


def test_every_corpus_function_has_a_case():
    functions = {n for n, v in vars(corpus).items()
                 if callable(v) and getattr(v, "__module__", "") == corpus.__name__}
    functions |= {"closure_function"}
    assert functions - {"helper", "returns_tuple", "make_closure"} == set(CASES)


def slices_bounded_by_calls(x, k):
    head = x[:len(x) - 1]
    tail = x[max(k, 1):len(x):int(k) + 1]
    return np.sum(head ** 2) * np.sum(np.sin(tail))


def test_slice_bounds_computed_by_calls():
    # normalize moved the whole slice `:len(x) - 1` into a variable: a SyntaxError in the
    # generated code, in both modes
    x = r(6)
    assert_close(sg.grad(slices_bounded_by_calls)(x, 1), numerical_grad(
        slices_bounded_by_calls, (x, 1), 0))
    assert check_grads(slices_bounded_by_calls, [x, 1], order=2)
