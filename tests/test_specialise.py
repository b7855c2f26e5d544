"""The specialisation pass (``sourcegrad/jit/specialise.py``) on the NumPy path, without
Numba: the specialised derivative computes what the general one computes, on every golden
function and on random programs, and reads as the general one does minus the helpers the
shapes settle."""

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg
from sourcegrad.jit.errors import CannotCompile
from sourcegrad.jit.specialise import specialise

from .fd import assert_close
from .golden_functions import GOLDEN, GOLDEN_OPTIONS
from .test_random_programs import examples, run_program


def specialised(fn, args, numba=False):
    """The specialised derivative of ``fn`` at ``args``, as a callable, and its text."""
    program = specialise(fn, args, numba=numba)
    root, _ = program.build()
    return root, program.text


def assert_same(actual, expected):
    actual = actual if isinstance(actual, tuple) else (actual,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected, strict=True):
        assert type(a) is type(e) or isinstance(a, float | np.floating) and isinstance(
            e, float | np.floating)
        assert np.shape(a) == np.shape(e)
        assert_close(a, e, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", sorted(GOLDEN))
@pytest.mark.parametrize("numba_spelling", [False, True])
def test_specialised_golden_derivatives_agree_with_the_general_ones(name, numba_spelling):
    fn, args, wrt = GOLDEN[name]
    general = sg.grad(fn, wrt=wrt, **GOLDEN_OPTIONS.get(name, {}))
    if numba_spelling and name == "return_in_loop":  # refused for Numba: see test_jit.py
        with pytest.raises(CannotCompile, match="`result` is None on one path"):
            specialised(general, args, numba=True)
        return
    run, _ = specialised(general, args, numba=numba_spelling)
    assert_same(run(*args), general(*args))


def test_helpers_whose_meaning_the_shapes_settle_disappear():
    fn, args, wrt = GOLDEN["rnn"]
    general = sg.grad(fn, wrt=wrt)
    _, text = specialised(general, args)
    assert "unbroadcast(" in general.source and "shape_only(" in general.source
    for helper in ("unbroadcast(", "shape_only(", "matmul_vjp_x1(", "matmul_vjp_x2(",
                   "zeros_like_grad(", "as_gradient(", "unreduce(", "xs_t_at_Wx_stack",
                   "h_at_Wh_stack"):
        assert helper not in text
    # the loop runs a known number of steps of known shapes: the weight gradients are one
    # product of arrays of all steps after the loop (jit/step_arrays.py)
    assert "grad_Wh = h_stack.T @ grad_h_at_Wh_steps" in text
    assert "matmul_vjp_x2_over_steps(" not in text
    # the one stack the backward sweep reads is an array of all steps
    assert "h_stack[t] = h" in text and "h = h_stack[t]" in text
    # the user's lines are still quoted over each block
    assert "# h = np.tanh(xs[t] @ Wx + h @ Wh)" in text


def test_broadcasting_becomes_explicit_sums():
    def f(x, b, c):
        return np.sum(np.tanh(x * b + c))

    x, b, c = np.ones((4, 3)), np.ones((1, 3)), 0.5
    general = sg.grad(f, wrt=(0, 1, 2))
    run, text = specialised(general, (x, b, c))
    assert "grad_b = np.sum(grad_x_times_b * x, axis=0).reshape((1, 3))" in text
    assert "unbroadcast" not in text
    assert_same(run(x, b, c), general(x, b, c))


def test_a_scalar_loop_is_scalar_code_with_a_preallocated_stack():
    from benchmarks.functions import scalar_loop

    general = sg.grad(scalar_loop)
    _, text = specialised(general, (0.7,), numba=True)
    assert "x_stack = np.empty(SCALAR_STEPS)" in text
    assert "scalar_seed" not in text and "as_gradient" not in text
    assert "sin_x_times_c_stack" not in text  # read only for its shape: gone


def loop_of_n(x, n):
    for _ in range(n):
        x = math.sin(x) * x + 0.5
    return x


def test_a_loop_over_an_argument_count_keeps_its_stack_as_long_as_the_count():
    general = sg.grad(loop_of_n)
    run, text = specialised(general, (0.7, 4), numba=True)
    assert "x_stack = np.empty(n)" in text
    # the count is not specialised on: the same code serves another count
    for n in (4, 9, 0):
        assert_same(run(0.7, n), general(0.7, n))
    # in the NumPy path a list is the faster stack
    _, text = specialised(general, (0.7, 4))
    assert "x_stack = []" in text


def test_a_callee_called_with_two_shapes_is_specialised_twice():
    def inner(a):
        return np.sin(a) * 2.0

    def outer(x, y):
        return np.sum(inner(x)) + np.sum(inner(y))

    general = sg.grad(outer, wrt=(0, 1))
    args = (np.linspace(0, 1, 3), np.linspace(0, 1, 4).reshape(2, 2))
    run, text = specialised(general, args)
    assert "def forward_inner(" in text and "def forward_inner_2(" in text
    assert_same(run(*args), general(*args))


@examples(10)
@given(seed=st.integers(0, 2**32 - 1), numba_spelling=st.booleans())
def test_random_programs_specialised(seed, numba_spelling, tmp_path_factory):
    """Both spellings run on NumPy: Numba's (stacks preallocated, expressions folded,
    reductions over an axis as ``reduce_along``) must compute the same."""
    run = run_program(seed, tmp_path_factory.mktemp("programs"))
    if run is None:
        return
    f, x, y, value, _ = run
    if np.ndim(value) != 0 or not np.isfinite(value):
        return
    general = sg.value_and_grad(f, wrt=(0, 1))
    with np.errstate(all="ignore"):
        expected = general(x, y)
        try:
            program, _ = specialised(general, (x, y), numba=numba_spelling)
        except CannotCompile:
            assert numba_spelling  # Numba's one type per variable; NumPy takes anything
            return
        got = program(x, y)
    assert_close(got[0], expected[0], rtol=1e-10, atol=1e-12)
    for g, e in zip(got[1], expected[1], strict=True):
        assert np.shape(g) == np.shape(e)
        assert_close(g, e, rtol=1e-10, atol=1e-12)


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_broadcast_shapes_specialised(data):
    """Every way two shapes broadcast: the sums that replace ``unbroadcast`` are right."""
    ndim = data.draw(st.integers(1, 3))
    full = data.draw(st.lists(st.integers(1, 3), min_size=ndim, max_size=ndim))
    shapes = []
    for _ in range(2):
        drop = data.draw(st.integers(0, ndim))
        shape = [1 if data.draw(st.booleans()) else n for n in full[drop:]]
        shapes.append(tuple(shape))

    def f(a, b):
        return np.sum(np.sin(a * b) + a)

    rng = random.Random(0)
    a = np.array([rng.uniform(-1, 1) for _ in range(int(np.prod(shapes[0])))]).reshape(
        shapes[0])
    b = np.array([rng.uniform(-1, 1) for _ in range(int(np.prod(shapes[1])))]).reshape(
        shapes[1])
    general = sg.grad(f, wrt=(0, 1))
    run, text = specialised(general, (a, b))
    assert "unbroadcast" not in text
    assert_same(run(a, b), general(a, b))


def test_comments_are_read_back_but_not_lines_of_a_string():
    from sourcegrad.codegen import printer
    from sourcegrad.jit.source import parse_with_comments

    text = ('def f(x):\n    # a comment\n    y = """\n# inside a string\n"""\n'
            '    # another\n    return x\n')
    fdef = parse_with_comments(text)
    comments = [s for s in fdef.body if printer.is_comment(s)]
    assert len(comments) == 2
    assert "# inside a string" in printer.to_source(fdef)
    assert printer.to_source(fdef).count("# a comment") == 1


def _many(a, b=1, *rest, c, d=2, **more):
    return a


@pytest.mark.parametrize("fn, args, kwargs", [
    (_many, (1,), {"c": 3}),
    (_many, (1, 2, 3, 4), {"c": 5, "e": 6}),
    (_many, (1, 2), {"d": 4, "c": 3}),
    (_many, (1,), {}),  # c missing: does not bind
    (_many, (), {"a": 1, "c": 2}),
    (np.sum, ("x",), {"axis": 0, "keepdims": True}),
    (np.sum, ("x", 0), {"axis": 1}),  # axis twice: does not bind
])
def test_arguments_bound_through_a_plan_are_those_inspect_binds(fn, args, kwargs):
    import inspect

    from sourcegrad.jit import helpers

    try:
        expected = dict(inspect.signature(fn).bind(*args, **kwargs).arguments)
    except TypeError:
        expected = None
    for _ in range(2):  # the plan worked out, then the plan remembered
        assert helpers.bound_arguments(fn, args, kwargs) == expected
