"""A loop's kept steps as preallocated arrays of all steps in the specialised variant
(``jit/step_arrays.py``), and no alias temporaries there (``jit/aliases.py``): issue 14
point 2.

Every variant the passes change is compared with the general derivative (the same
derivative, not specialised), with the derivative made with one product a step
(``SOURCEGRAD_LOOP_PRODUCTS=0``) and with central finite differences. Where the rewrite must
not apply (a trip count the shapes do not give, a loop that leaves early or runs in a
``while``, steps of changing shapes, a product in a branch, a state written into), the
variant's source must keep its lists, and its gradient be right all the same.
"""

import ast
import random
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg
from samples import rnn
from sourcegrad import specialisation
from sourcegrad.codegen.printer import to_source
from sourcegrad.jit.aliases import drop_aliases

from .fd import assert_close, numerical_grad
from .test_batched_products import (
    OVER_STEPS,
    assert_rounding,
    both,
    element_write_into_the_state,
    loop_arguments,
    loop_program,
)
from .test_random_programs import load_module
from .test_specialisation import variant


def specialised_and_general(g, args):
    """The variant's gradient (run directly: no fallback to the general code can hide an
    error), the general code's, and the variant's source."""
    general = specialisation.general_of(g)(*args)
    g(*args)
    return variant(g, *args)(*args), general, g.specialised_source(*args)


def assert_finite_differences(fn, args, argnums, gradients):
    for argnum, gradient in zip(argnums, gradients, strict=True):
        assert_close(gradient, numerical_grad(fn, args, argnum))


# -- the RNN ------------------------------------------------------------------------------------
def test_the_rnn_variant_keeps_its_steps_in_arrays_and_multiplies_once(monkeypatch):
    batched, per_step = both(rnn.loss, monkeypatch, wrt=(0, 1, 2))
    args = (*rnn.init_params(8, 32, 1), *rnn.make_data(50, 8, 8))
    got, general, source = specialised_and_general(batched, args)
    assert ".append(" not in source and ".pop()" not in source and OVER_STEPS not in source
    assert "h_stack = np.empty((50, 8, 32))" in source
    assert "h_stack[t] = h\n" in source and "h = h_stack[t]\n" in source
    # the step's cotangent is made in its slot, and both products read the one array
    assert "grad_h_at_Whh_steps = np.empty((50, 8, 32))" in source
    assert "out=grad_xs_t_at_Wxh_plus_h_at)" in source
    assert "grad_Whh = h_stack.reshape(-1, 32).T @ grad_h_at_Whh_steps.reshape(-1, 32)" in source
    assert "grad_Wxh = xs.reshape(-1, 8).T @ grad_h_at_Whh_steps.reshape(-1, 32)" in source
    assert "np.zeros((32, 32))" not in source  # the product is the gradient
    # no alias temporaries left in the loop
    assert "grad_h_at_Whh = " not in source and "grad_xs_t_at_Wxh = " not in source
    assert_rounding(got, general)
    assert_rounding(got, per_step(*args))
    assert_rounding(got, rnn.loss_grad_by_hand_batched(*args))
    small = (*rnn.init_params(3, 4, 1), *rnn.make_data(5, 2, 3))
    small_got, small_general, _ = specialised_and_general(batched, small)
    assert_rounding(small_got, small_general)
    assert_finite_differences(rnn.loss, small, (0, 1, 2), small_got)


def vector_rnn(Wx, Wh, xs, target):
    """Steps that are vectors: each step's product an outer product."""
    h = np.zeros_like(Wh[0])
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ Wx + h @ Wh)
    return np.sum((h - target) ** 2)


@pytest.mark.parametrize("steps", [0, 1, 7])
@pytest.mark.parametrize("batch", [(), (3,), (2, 3)])
def test_the_rnn_variant_agrees_at_every_shape(steps, batch):
    rng = np.random.default_rng(steps * 10 + len(batch))
    Wx, Wh = rng.standard_normal((4, 5)) * 0.5, rng.standard_normal((5, 5)) * 0.4
    xs = rng.standard_normal((steps, *batch, 4))
    target = rng.standard_normal((*batch, 5))

    def loss(Wx, Wh, xs, target):
        h = np.zeros(xs.shape[1:-1] + Wh.shape[:1])
        for t in range(xs.shape[0]):
            h = np.tanh(xs[t] @ Wx + h @ Wh)
        return np.sum((h - target) ** 2)

    g = sg.grad(loss, wrt=(0, 1))
    args = (Wx, Wh, xs, target)
    got, general, source = specialised_and_general(g, args)
    if steps:  # (a loop of no steps keeps its empty lists)
        assert f"np.empty(({steps}, " in source and OVER_STEPS not in source
        # a stack of matrices times a matrix: the state's cotangent is ``g @ Wh.T`` too
        assert "matmul_vjp_x1(" not in source
    assert_rounding(got, general)
    assert_finite_differences(loss, args, (0, 1), got)
    if steps == 0:
        assert not np.any(got[0]) and got[0].shape == Wx.shape


def test_float32_steps_are_kept_in_float32_arrays():
    rng = np.random.default_rng(3)
    args = (rng.standard_normal((3, 4)).astype(np.float32),
            (0.4 * rng.standard_normal((4, 4))).astype(np.float32),
            rng.standard_normal((6, 3)).astype(np.float32),
            rng.standard_normal(4).astype(np.float32))
    g = sg.grad(vector_rnn, wrt=(0, 1))
    got, general, source = specialised_and_general(g, args)
    assert "np.empty((6, 4), np.float32)" in source and OVER_STEPS not in source
    for a, e in zip(got, general, strict=True):
        assert a.dtype == e.dtype == np.float32
        np.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-6)


# -- where the rewrite must not apply -----------------------------------------------------------
def counted(W, U, xs, n):
    """The trip count is an argument's value, which the variant does not assume."""
    h = np.zeros((xs.shape[1], U.shape[0]))
    for t in range(n):
        h = np.tanh(xs[t] @ W + h @ U)
    return np.sum(h ** 2)


def breaks(W, U, xs):
    h = np.zeros((xs.shape[1], U.shape[0]))
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ W + h @ U)
        if np.sum(h) > 0.3:
            break
    return np.sum(h ** 2)


def continues(W, U, xs):
    h = np.zeros((xs.shape[1], U.shape[0]))
    for t in range(xs.shape[0]):
        if t == 2:
            continue
        h = np.tanh(xs[t] @ W + h @ U)
    return np.sum(h ** 2)


def in_a_while(W, U, xs):
    h = np.zeros((xs.shape[1], U.shape[0]))
    t = 0
    while t < xs.shape[0]:
        h = np.tanh(xs[t] @ W + h @ U)
        t = t + 1
    return np.sum(h ** 2)


def in_a_branch(W, U, xs):
    """Only every other step multiplies by ``U``: an array of all steps would hold steps
    nobody wrote."""
    h = np.zeros((xs.shape[1], U.shape[0]))
    for t in range(xs.shape[0]):
        if t % 2 == 0:
            h = np.tanh(xs[t] @ W + h @ U)
        else:
            h = h * 0.5
    return np.sum(h ** 2)


def ragged(W, U, xs):
    """Each step's input has its own number of rows: no array holds the steps."""
    total = 0.0
    for t in range(len(xs)):
        total = total + np.sum(np.tanh(xs[t] @ W) ** 2)
    return total


def growing_state(W, U, xs):
    """The state starts as one row and broadcasts to the batch at the first step: the
    states the products read change shape."""
    h = np.zeros((1, U.shape[0]))
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ W + h @ U)
    return np.sum(h ** 2)


def ragged_arguments(rng):
    return (rng.standard_normal((3, 4)) * 0.5, rng.standard_normal((4, 4)),
            [rng.standard_normal((k, 3)) for k in (1, 4, 2)])


def rnn_arguments(rng):
    return (rng.standard_normal((3, 4)) * 0.6, rng.standard_normal((4, 4)) * 0.4,
            rng.standard_normal((5, 2, 3)))


# function, its arguments, and what must stay in the variant (``None``: every list)
LEFT_ALONE = {
    "counted": (counted, lambda rng: (*rnn_arguments(rng), 5), None),
    "breaks": (breaks, rnn_arguments, None),
    "continues": (continues, rnn_arguments, None),
    "in_a_while": (in_a_while, rnn_arguments, None),
    "in_a_branch": (in_a_branch, rnn_arguments, None),
    "ragged": (ragged, ragged_arguments, None),
    # (the inputs' steps keep their shape: that product is rewritten, the states' is not)
    "growing_state": (growing_state, rnn_arguments,
                      ("h_steps.append(h)", f"grad_U += {OVER_STEPS}(grad_h_at_U_steps, ")),
}


@pytest.mark.parametrize("name", sorted(LEFT_ALONE))
def test_the_lists_stay_where_the_steps_are_not_known(name, monkeypatch):
    fn, make, kept = LEFT_ALONE[name]
    args = make(np.random.default_rng(5))
    batched, per_step = both(fn, monkeypatch, wrt=(0, 1))
    assert OVER_STEPS in batched.source  # the loop products were made...
    got, general, source = specialised_and_general(batched, args)
    if kept is None:  # ...and stay lists
        assert OVER_STEPS in source and "_steps.append(" in source
        assert "np.empty(" not in source
    else:
        assert all(line in source for line in kept)
    assert_rounding(got, general)
    assert_rounding(got, per_step(*args))
    assert_finite_differences(fn, args, (0, 1), got)


def test_a_state_written_into_stays_in_its_list():
    """``h[0] = ...`` after the step (the backward sweep restores the elements in place):
    the loop products stay one a step, and the stack of states a list."""
    rng = np.random.default_rng(6)
    args = rnn_arguments(rng)
    g = sg.grad(element_write_into_the_state, wrt=(0, 1))
    got, general, source = specialised_and_general(g, args)
    assert "h_stack[" not in source
    assert_rounding(got, general)
    assert_finite_differences(element_write_into_the_state, args, (0, 1), got)


def all_but_the_last_input(W, U, xs):
    """The loop reads ``xs[t]`` for all steps but the last: ``xs`` is not the array of the
    steps (they are copied into one)."""
    h = np.zeros((xs.shape[1], U.shape[0]))
    for t in range(xs.shape[0] - 1):
        h = np.tanh(xs[t] @ W + h @ U)
    return np.sum(h ** 2)


def test_an_argument_holds_the_steps_only_if_all_its_rows_are_steps(monkeypatch):
    args = rnn_arguments(np.random.default_rng(7))
    batched, per_step = both(all_but_the_last_input, monkeypatch, wrt=(0, 1))
    got, general, source = specialised_and_general(batched, args)
    assert "xs_t_steps[t] = xs[t]" in source and "xs.reshape(" not in source
    assert_rounding(got, general)
    assert_rounding(got, per_step(*args))
    assert_finite_differences(all_but_the_last_input, args, (0, 1), got)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_loop_programs_agree_with_the_general_code(seed, tmp_path_factory):
    """RNN-like loops with random factors, branches, ``break``/``continue`` and ``while``:
    the variant agrees with the general code, and with finite differences."""
    rng = random.Random(seed)
    source = loop_program(rng)
    f = load_module(source, tmp_path_factory.mktemp("step_arrays"), seed).f
    args = loop_arguments(rng)
    g = sg.grad(f, wrt=(0, 1, 2))
    got, general, _ = specialised_and_general(g, args)
    assert_rounding(got, general)
    assert_finite_differences(f, args, (0, 1, 2), got)


# -- alias temporaries ----------------------------------------------------------------------------
def rewritten(code):
    fdef = ast.parse(textwrap.dedent(code)).body[0]
    changed = drop_aliases(fdef)
    return changed, to_source(fdef)


def run(code, *args):
    namespace = {"np": np}
    exec(textwrap.dedent(code), namespace)
    return namespace["f"](*args)


ALIASES_DROPPED = {
    "forwards": """
        def f(x):
            g = x * 2.0
            a = g
            return a + g
        """,
    "backwards, over a del": """
        def f(x):
            b = x * 3.0
            a = b
            del b
            return a * 2.0
        """,
    "in a loop": """
        def f(x):
            total = 0.0
            for i in range(3):
                g = x * i
                a = g
                total = total + np.sum(a)
            return total
        """,
}
ALIASES_KEPT = {
    "rebound before the read": """
        def f(x):
            g = x * 2.0
            a = g
            g = x * 5.0
            return a + g
        """,
    "read before, in the loop": """
        def f(x):
            g = x
            a = x * 0.0
            for i in range(3):
                total = a
                a = g
                g = g * 2.0
            return total + a
        """,
    "read after the loop": """
        def f(x):
            g = x
            for i in range(3):
                g = g * 2.0
                a = g
            return a
        """,
    "bound twice": """
        def f(x):
            g = x * 2.0
            a = g
            a = a + 1.0
            return a * g
        """,
    "a parameter": """
        def f(x, a):
            g = x * 2.0
            a = g
            return a
        """,
}


@pytest.mark.parametrize("name", sorted(ALIASES_DROPPED))
def test_an_alias_goes_where_it_names_the_same_value(name):
    code = ALIASES_DROPPED[name]
    changed, text = rewritten(code)
    assert changed
    assert not any(isinstance(s, ast.Assign) and isinstance(s.value, ast.Name)
                   for s in ast.walk(ast.parse(text)))
    x = np.arange(3.0)
    np.testing.assert_array_equal(run(text, x), run(code, x))


@pytest.mark.parametrize("name", sorted(ALIASES_KEPT))
def test_an_alias_stays_where_it_may_differ(name):
    code = ALIASES_KEPT[name]
    changed, text = rewritten(code)
    assert not changed
    assert text == to_source(ast.parse(textwrap.dedent(code)).body[0])
