"""Weight gradients of a loop's steps as one product after the loop
(``passes/batched_products.py``, issue 14 point 2).

Every derivative the pass changes is compared with the derivative made without it
(``SOURCEGRAD_LOOP_PRODUCTS=0``: one product a step) and with central finite differences.
Where the pass must not apply (the gradient read in the loop, the matrix or a kept array
changed in it, a call that may write into its arguments), the generated source must be the
unoptimised one, and the gradient still right.
"""

import ast
import inspect
import random
import textwrap
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg
from samples import rnn
from sourcegrad.codegen.names import Namer
from sourcegrad.codegen.printer import to_source
from sourcegrad.jit import forms
from sourcegrad.passes.batched_products import (
    OVER_STEPS,
    batch_input_products,
    batch_weight_gradients,
)
from sourcegrad.pipeline import HELPERS, module_source
from sourcegrad.rules import support
from sourcegrad.rules.support import (
    ShapeOf,
    matmul_over_steps,
    matmul_vjp_x2,
    matmul_vjp_x2_over_steps,
)
from sourcegrad.testing import check_grads

from .fd import assert_close, numerical_grad
from .golden_functions import GOLDEN, GOLDEN_OPTIONS
from .rule_specs import SPECS, Spec
from .test_random_programs import load_module
from .test_random_programs import program as random_program
from .test_rules_second_order import _check as second_order_of_jvp
from .test_rules_second_order import _check_over_reverse as second_order_of_vjp

OFF = "SOURCEGRAD_LOOP_PRODUCTS"


def both(fn, monkeypatch, **options):
    """The derivative made with the pass and the one made without it."""
    batched = sg.grad(fn, **options)
    monkeypatch.setenv(OFF, "0")
    per_step = sg.grad(fn, **options)
    monkeypatch.delenv(OFF)
    return batched, per_step


def assert_rounding(actual, expected):
    """Equal to rounding: the same products, added in another order."""
    if isinstance(expected, dict):
        assert actual.keys() == expected.keys()
        for key in expected:
            assert_rounding(actual[key], expected[key])
        return
    if isinstance(expected, (tuple, list)):
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected, strict=True):
            assert_rounding(a, e)
        return
    np.testing.assert_allclose(actual, expected, rtol=1e-12, atol=1e-14)


def assert_finite_differences(fn, args, argnums, gradients):
    for argnum, gradient in zip(argnums, gradients, strict=True):
        assert_close(gradient, numerical_grad(fn, args, argnum))


# -- the RNN sample ---------------------------------------------------------------------------
def small_rnn():
    xs, ys = rnn.make_data(n_steps=6, batch=3, n_in=4)
    return (*rnn.init_params(4, 5, 1), xs, ys)


def test_the_rnn_weight_gradients_are_one_product_each_after_the_loop(monkeypatch):
    batched, per_step = both(rnn.loss, monkeypatch, wrt=(0, 1, 2))
    loop_body = batched.source.split("for t in reversed(")[1]
    inside, after = loop_body.split(f"grad_Whh = add_into(grad_Whh, {OVER_STEPS}(")
    assert "matmul_vjp_x2(" not in inside  # no product a step for Wxh and Whh
    assert "grad_h_at_Whh_steps.append(grad_h_at_Whh)" in inside
    assert "xs_t_steps.append(xs[t])" in inside
    assert (f"grad_Wxh = add_into(grad_Wxh, {OVER_STEPS}(grad_xs_t_at_Wxh_steps, xs_t_steps, "
            "Wxh))") in after
    # and the forward sweep multiplies the inputs of all steps by Wxh at once
    assert "xs_at_Wxh = matmul_over_steps(xs, Wxh)\n    for t in range(" in batched.source
    assert "xs_t_at_Wxh = xs_at_Wxh[t]" in batched.source
    assert "xs_t_at_Wxh = xs[t] @ Wxh" in per_step.source
    assert OVER_STEPS not in per_step.source
    assert "grad_Whh = add_into(grad_Whh, matmul_vjp_x2(grad_h_at_Whh, h, Whh))" in per_step.source
    args = small_rnn()
    assert_rounding(batched(*args), per_step(*args))
    assert_finite_differences(rnn.loss, args, (0, 1, 2), batched(*args))
    full = (*rnn.init_params(), *rnn.make_data())
    assert_rounding(batched(*full), per_step(*full))
    assert_rounding(batched(*full), rnn.loss_grad_by_hand(*full))


def twice_the_loss(Wxh, Whh, Why, xs, ys):
    return rnn.loss(Wxh, Whh, Why, xs, ys) * 2.0


def test_value_and_grad_and_the_split_derivative_of_a_callee_batch_too(monkeypatch):
    batched, per_step = both(twice_the_loss, monkeypatch, wrt=(0, 1))
    assert "def backward_loss(" in module_source(batched)
    assert OVER_STEPS in module_source(batched)
    assert OVER_STEPS not in module_source(per_step)
    args = small_rnn()
    assert_rounding(batched(*args), per_step(*args))
    value, grads = sg.value_and_grad(rnn.loss, wrt=(0, 1))(*args)
    assert OVER_STEPS in sg.value_and_grad(rnn.loss, wrt=(0, 1)).source
    assert value == pytest.approx(rnn.loss(*args))
    assert_rounding(grads, tuple(g / 2.0 for g in per_step(*args)))


def test_a_loop_of_no_steps_leaves_the_gradient_zero(monkeypatch):
    Wxh, Whh, Why, xs, ys = small_rnn()
    empty = xs[:0]
    batched, per_step = both(rnn.loss, monkeypatch, wrt=(0, 1))
    got = batched(Wxh, Whh, Why, empty, ys)
    assert_rounding(got, per_step(Wxh, Whh, Why, empty, ys))
    assert not np.any(got[0]) and got[0].shape == Wxh.shape


def test_the_loop_multiplies_the_steps_kept_so_far_when_they_are_enough(monkeypatch):
    """Every few steps (``enough_steps``: a few thousand elements, here 60, two steps of the
    small RNN) the loop multiplies what it kept and lets it go; the gradient stays the sum
    of the same products, and it differentiates again through that branch."""
    monkeypatch.setattr(support, "_STEPS_PRODUCT_ELEMENTS", 60)
    made_empty = []
    enough = support.enough_steps

    def counting(gs, x1s):
        made_empty.append(enough(gs, x1s))
        return made_empty[-1]

    monkeypatch.setitem(HELPERS, "enough_steps", counting)  # (read when a derivative is made)
    batched, per_step = both(rnn_loss_of_this_test, monkeypatch, wrt=(0, 1))
    args = small_rnn()
    assert_rounding(batched(*args), per_step(*args))
    # 6 steps: Whh's 30 elements a step every 2 steps, Wxh's 27 (xs[t] is 3x4) every 3
    assert made_empty.count(True) == 5
    assert_finite_differences(rnn.loss, args, (0, 1), batched(*args))
    second = sg.grad(rnn_loss_of_this_test, wrt=1)
    assert check_grads(second, list(args), modes=("fwd", "rev"), order=1)


def rnn_loss_of_this_test(Wxh, Whh, Why, xs, ys):
    """``rnn.loss``, a function of its own: made afresh with the helper the test counts."""
    h = np.zeros((xs.shape[1], Whh.shape[0]))
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ Wxh + h @ Whh)
    prediction = h @ Why
    return np.mean((prediction - ys) ** 2)


def test_on_dask_arrays_the_kept_steps_are_multiplied_lazily(monkeypatch):
    """``enough_steps`` reads the steps' sizes from their shapes, and the products of Dask
    steps are made one a step (lazily): calling the gradient computes nothing."""
    da = pytest.importorskip("dask.array")
    from .test_dask import Computations

    monkeypatch.setattr(support, "_STEPS_PRODUCT_ELEMENTS", 60)
    args = small_rnn()
    lazy = [da.from_array(a, chunks=a.shape) for a in args]
    batched, per_step = both(rnn.loss, monkeypatch, wrt=(0, 1))
    with Computations() as computations:
        got = batched(*lazy)
    assert computations.started == 0
    assert_rounding([g.compute() for g in got], per_step(*args))


@pytest.mark.parametrize("elements", [4096, 10])  # after the loop only; every 2 steps too
def test_the_rnn_gradient_differentiates_to_third_order(elements, monkeypatch):
    """The loop-product helpers' rules close over each other: a gradient made with them,
    differentiated twice more in reverse mode, against central differences."""
    monkeypatch.setattr(support, "_STEPS_PRODUCT_ELEMENTS", elements)
    golden, args, _ = GOLDEN["rnn"]
    # a function object of its own: its derivatives (and their variants, specialised at the
    # first call for this number of elements) are made afresh
    fn = types.FunctionType(golden.__code__, golden.__globals__, golden.__name__)
    args = list(args)
    rng = np.random.default_rng(5)
    v, u = rng.standard_normal(args[0].shape), rng.standard_normal(args[1].shape)
    first = sg.grad(fn, wrt=0)
    assert OVER_STEPS in first.source

    def along_v(Wx, Wh, xs, target):
        return np.sum(first(Wx, Wh, xs, target) * v)

    second = sg.grad(along_v, wrt=1)

    def along_u(Wx, Wh, xs, target):
        return np.sum(second(Wx, Wh, xs, target) * u)

    assert_close(second(*args), numerical_grad(along_v, args, 1))
    assert_close(sg.grad(along_u, wrt=0)(*args), numerical_grad(along_u, args, 0))


OVER_STEPS_CASES = [(spec, case) for spec in SPECS if spec.primitive in (
    support.matmul_over_steps, support.matmul_vjp_x1_over_steps,
    support.matmul_vjp_x2_over_steps) for case in spec.cases]


@pytest.mark.parametrize(("spec", "case"), OVER_STEPS_CASES,
                         ids=[f"{s.name}{c.label()}" for s, c in OVER_STEPS_CASES])
def test_every_case_of_the_loop_product_rules_differentiates_twice(spec, case):
    """``test_rules_second_order`` checks the first case of each row; here every case of the
    three loop-product rows (arrays and lists of steps, chunks, the step-by-step fallback),
    in all four combinations of modes."""
    one = Spec(spec.primitive, (case,))
    assert second_order_of_jvp(one)
    assert second_order_of_vjp(one)


def test_enough_steps_counts_the_elements_of_the_kept_steps():
    assert not support.enough_steps([], [])
    g, x1 = np.zeros((8, 32)), np.zeros((8, 32))
    assert not support.enough_steps([g] * 7, [x1] * 7)
    assert support.enough_steps([g] * 8, [x1] * 8)  # 8 * 512 = 4,096 elements
    assert f"{support._STEPS_PRODUCT_ELEMENTS}" in inspect.getsource(
        forms.enough_steps_form)  # the Numba form says the same


# -- golden functions with loops --------------------------------------------------------------
LOOPS = sorted(name for name, (fn, _, _) in GOLDEN.items()
               if any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(
                   ast.parse(textwrap.dedent(inspect.getsource(fn))))))


def test_the_golden_functions_include_loops_the_pass_changes():
    assert "rnn" in LOOPS and len(LOOPS) >= 8


@pytest.mark.parametrize("name", LOOPS)
def test_golden_functions_with_loops_agree_with_the_unoptimised_derivative(name, monkeypatch):
    fn, args, wrt = GOLDEN[name]
    batched, per_step = both(fn, monkeypatch, wrt=wrt, **GOLDEN_OPTIONS.get(name, {}))
    assert (OVER_STEPS in batched.source) == (name == "rnn")
    if name != "rnn":
        assert batched.source == per_step.source
    assert_rounding(batched(*args), per_step(*args))


# -- random programs --------------------------------------------------------------------------
FACTORS = ["xs[t]", "np.tanh(h)", "h", "xs[t] * h[..., :1]", "np.sin(xs[t]) + 1.0"]
JUMPS = ["", "break", "continue"]


def loop_program(rng: random.Random) -> str:
    """An RNN-like loop: matrices multiplied at every step, with a random left factor, bias,
    branch and jump; over ``range`` or in a ``while`` loop."""
    factor = rng.choice(FACTORS)
    # the left factor must have W's row count: h has U's, xs[t] has W's
    matrix = "U" if factor in ("np.tanh(h)", "h") else "W"
    inline = rng.random() < 0.5
    body = [] if inline else [f"a = {factor}"]
    left = f"({factor})" if inline and factor not in ("h", "xs[t]") else (
        factor if inline else "a")
    body.append(f"h = np.tanh({left} @ {matrix} + h @ U{rng.choice(['', ' + b', ' * b'])})")
    if rng.random() < 0.4:
        body.append(f"if np.sum(h) > {rng.uniform(-1, 1):.2f}:\n    h = h * 0.5")
    jump = rng.choice(JUMPS)
    if jump:
        body.insert(rng.randint(0, len(body)), f"if t == {rng.randint(0, 3)}:\n    {jump}")
    if rng.random() < 0.3:
        body.append(f"h = h + {rng.choice(['0.1 * (h @ U)', 'xs[t] @ W * 0.5'])}")
    if rng.random() < 0.3:
        header = ["t = 0", "while t < xs.shape[0]:"]
        body = [*body, "t = t + 1"] if not jump else body
        if jump:
            header = ["for t in range(xs.shape[0]):"]
    else:
        header = [rng.choice(["for t in range(xs.shape[0]):", "for t in range(len(xs) - 1):"])]
    lines = ["def f(W, U, b, xs, h):", *("    " + line for line in header[:-1]),
             "    " + header[-1]]
    lines += ["        " + part for line in body for part in line.split("\n")]
    lines.append(f"    return {rng.choice(['np.sum(h ** 2)', 'np.mean(np.sin(h))'])}")
    return "import numpy as np\n\n\n" + "\n".join(lines) + "\n"


def loop_arguments(rng: random.Random):
    values = np.random.default_rng(rng.randrange(2**32))
    steps, n_in, n_hidden = rng.randint(0, 4), rng.randint(1, 3), rng.randint(1, 3)
    batch = rng.choice([(), (2,)])
    return (values.standard_normal((n_in, n_hidden)) * 0.7,
            values.standard_normal((n_hidden, n_hidden)) * 0.5,
            values.standard_normal(n_hidden) * 0.3,
            values.standard_normal((steps, *batch, n_in)),
            values.standard_normal((*batch, n_hidden)))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_loop_programs_agree_with_the_unoptimised_derivative(seed, tmp_path_factory):
    rng = random.Random(seed)
    source = loop_program(rng)
    f = load_module(source, tmp_path_factory.mktemp("loops"), seed).f
    args = loop_arguments(rng)
    with pytest.MonkeyPatch.context() as monkeypatch:
        batched, per_step = both(f, monkeypatch, wrt=(0, 1, 2))
    assert OVER_STEPS in batched.source, source
    got = batched(*args)
    assert_rounding(got, per_step(*args))
    assert_finite_differences(f, args, (0, 1, 2), got)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_programs_of_the_fuzzer_are_unchanged_in_value(seed, tmp_path_factory):
    rng = random.Random(seed)
    f = load_module(random_program(rng), tmp_path_factory.mktemp("fuzz"), seed).f
    values = np.random.default_rng(seed)
    x, y = values.standard_normal(3), values.standard_normal(3)
    try:
        f(x, y)
    except Exception:
        return  # a program NumPy does not run
    with pytest.MonkeyPatch.context() as monkeypatch:
        try:
            batched, per_step = both(f, monkeypatch, wrt=(0, 1))
        except sg.UnsupportedSyntaxError:
            return  # a write into what may be a view: refused either way
    assert_rounding(batched(x, y), per_step(x, y))


# -- where the pass must not apply ------------------------------------------------------------
def unrolled_descent(W, x, y):
    """The gradient of W is read in the loop, and W changes there."""
    for _ in range(3):
        W = W - 0.1 * (x.T @ (x @ W - y))
    return np.sum((x @ W - y) ** 2)


def element_write_into_the_state(W, U, xs):
    """The state a product reads is written into later in the step (the backward sweep
    restores its elements in place): a kept reference would change."""
    h = np.zeros((xs.shape[1], U.shape[0]))
    for t in range(xs.shape[0]):
        h = np.tanh(xs[t] @ W + h @ U)
        h[0] = h[0] * 0.5
    return np.sum(h ** 2)


def step(W, U, x, h):
    return np.tanh(x @ W + h @ U)


def calls_a_function(W, U, xs):
    """The step is a function of the user's: its derivative is called in the loop."""
    h = np.zeros((xs.shape[1], U.shape[0]))
    for t in range(xs.shape[0]):
        h = step(W, U, xs[t], h) + 0.1 * (h @ U)
    return np.sum(h ** 2)


def test_unrolled_gradient_descent_keeps_one_product_a_step(monkeypatch):
    rng = np.random.default_rng(0)
    args = (rng.standard_normal((3, 2)), rng.standard_normal((4, 3)), rng.standard_normal((4, 2)))
    batched, per_step = both(unrolled_descent, monkeypatch)
    assert batched.source == per_step.source
    assert_finite_differences(unrolled_descent, args, (0,), (batched(*args),))


@pytest.mark.parametrize("fn", [element_write_into_the_state, calls_a_function])
def test_a_loop_that_may_change_what_it_keeps_is_left_alone(fn, monkeypatch):
    rng = np.random.default_rng(1)
    args = (rng.standard_normal((2, 3)), rng.standard_normal((3, 3)) * 0.5,
            rng.standard_normal((3, 2, 2)))
    batched, per_step = both(fn, monkeypatch, wrt=(0, 1))
    assert OVER_STEPS not in batched.source
    if fn is calls_a_function:
        assert batched.source == per_step.source
    else:  # the inputs' products may still be made before the loop
        assert "grad_W = add_into(grad_W, matmul_vjp_x2(grad_xs_t_at_W, xs[t], W))" in (
            batched.source)
    assert_finite_differences(fn, args, (0, 1), batched(*args))


# the pass on backward sweeps written out: each must come back as it went in
UNCHANGED = {
    "the gradient read in the loop": """
        for t in reversed(range(n)):
            g = grad_W * 2.0
            grad_W += matmul_vjp_x2(g, xs[t], W)
    """,
    "the matrix rebound in the loop": """
        for t in reversed(range(n)):
            W = W_stack.pop()
            grad_W += matmul_vjp_x2(g, xs[t], W)
    """,
    "the matrix written into": """
        for t in reversed(range(n)):
            W[0] = 1.0
            grad_W += matmul_vjp_x2(g, xs[t], W)
    """,
    "a kept factor written into": """
        for t in reversed(range(n)):
            grad_W += matmul_vjp_x2(g, h, W)
            h[0] = h_slice_stack.pop()
    """,
    "a kept cotangent updated in place": """
        grad_b = zeros_like_grad(b)
        for t in reversed(range(n)):
            grad_W += matmul_vjp_x2(grad_b, h, W)
            grad_b += g
    """,
    "an array updated in place that was not made before the loop": """
        for t in reversed(range(n)):
            grad_W += matmul_vjp_x2(g, h, W)
            grad_c += g
    """,
    "a break": """
        for t in reversed(range(n)):
            if t == 2:
                break
            grad_W += matmul_vjp_x2(g, xs[t], W)
    """,
    "a continue": """
        for t in reversed(range(n)):
            if t == 2:
                continue
            grad_W += matmul_vjp_x2(g, xs[t], W)
    """,
    "a callee's derivative, which may write into what it is given": """
        for t in reversed(range(n)):
            grad_h = backward_step(g, saved)
            grad_W += matmul_vjp_x2(g, h, W)
    """,
    "a helper that writes into an array": """
        for t in reversed(range(n)):
            put_back(h, 0, old)
            grad_W += matmul_vjp_x2(g, h, W)
    """,
    "two matrices for one gradient": """
        for t in reversed(range(n)):
            grad_W += matmul_vjp_x2(g, xs[t], W)
            grad_W += matmul_vjp_x2(g, xs[t], V)
    """,
}


def batched_text(code: str) -> str:
    body = ast.parse(textwrap.dedent(code)).body
    return to_source(ast.Module(body=batch_weight_gradients(body, Namer(set())),
                                type_ignores=[]))


@pytest.mark.parametrize("case", sorted(UNCHANGED))
def test_the_pass_leaves_alone(case):
    code = UNCHANGED[case]
    assert batched_text(code) == to_source(ast.parse(textwrap.dedent(code)))


def test_the_pass_applies_where_the_loop_writes_only_into_fresh_gradients():
    text = batched_text("""
        grad_b = zeros_like_grad(b)
        for t in reversed(range(n)):
            h = h_stack.pop()
            grad_b += unbroadcast(g, b)
            grad_W += matmul_vjp_x2(g, h, W)
            grad_W += matmul_vjp_x2(g2, xs[t], W)
    """)
    assert text == textwrap.dedent(f"""\
        grad_b = zeros_like_grad(b)
        # the gradients of W: the steps' factors kept, multiplied many steps at once
        g_steps = []
        h_steps = []
        for t in reversed(range(n)):
            h = h_stack.pop()
            grad_b += unbroadcast(g, b)
            g_steps.append(g)
            h_steps.append(h)
            g_steps.append(g2)
            h_steps.append(xs[t])
            if enough_steps(g_steps, h_steps):
                grad_W += {OVER_STEPS}(g_steps, h_steps, W)
                g_steps = []
                h_steps = []
        grad_W += {OVER_STEPS}(g_steps, h_steps, W)
    """)


def test_gradients_added_into_with_add_into_are_collected_and_added_into_after_the_loop():
    """``g = add_into(g, c)`` (how generated code adds into a gradient it owns) is read as the
    update in place it is: collected like ``g += c``, written into like it."""
    text = batched_text("""
        grad_b = zeros_like_grad(b)
        for t in reversed(range(n)):
            h = h_stack.pop()
            grad_b = add_into(grad_b, unbroadcast(g, b))
            grad_W = add_into(grad_W, matmul_vjp_x2(g, h, W))
    """)
    assert text.endswith("    grad_b = add_into(grad_b, unbroadcast(g, b))\n"
                         "    g_steps.append(g)\n"
                         "    h_steps.append(h)\n"
                         "    if enough_steps(g_steps, h_steps):\n"
                         f"        grad_W = add_into(grad_W, {OVER_STEPS}(g_steps, h_steps, W))\n"
                         "        g_steps = []\n"
                         "        h_steps = []\n"
                         f"grad_W = add_into(grad_W, {OVER_STEPS}(g_steps, h_steps, W))\n")
    kept_then_updated = batched_text("""
        for t in reversed(range(n)):
            grad_W = add_into(grad_W, matmul_vjp_x2(g, h, W))
            h = add_into(h, g)
    """)
    assert OVER_STEPS not in kept_then_updated  # h is kept, then written into


def test_the_pass_keeps_the_steps_where_a_branch_adds_their_product():
    text = batched_text("""
        for t in reversed(range(n)):
            if t > 1:
                grad_W += matmul_vjp_x2(g, xs[t], W)
    """)
    assert "    if t > 1:\n        g_steps.append(g)\n        xs_t_steps.append(xs[t])\n" in text
    assert text.endswith(f"grad_W += {OVER_STEPS}(g_steps, xs_t_steps, W)\n")


def test_the_pass_applies_where_the_loop_writes_only_into_copies_it_just_made():
    text = batched_text("""
        for t in reversed(range(n)):
            grad_W += matmul_vjp_x2(g, h, W)
            grad_h = private_copy(grad_h)
            grad_h[0] = grad_h[0] + g
    """)
    assert f"grad_W += {OVER_STEPS}(g_steps, h_steps, W)" in text
    assert batched_text("""
        for t in reversed(range(n)):
            grad_W += matmul_vjp_x2(g, h, W)
            grad_h = private_copy(grad_h)
            grad_h[0][1] = g
    """).count(OVER_STEPS) == 0  # a list's copy shares its entries


# -- the helper -------------------------------------------------------------------------------
def per_step_sum(gs, x1s, x2):
    total = np.zeros(np.shape(x2))
    for g, x1 in zip(gs, x1s, strict=True):
        total = total + matmul_vjp_x2(g, x1, x2)
    return total


@settings(max_examples=40, deadline=None)
@given(steps=st.integers(1, 4), lead=st.sampled_from([(), (2,), (3,), (2, 2)]),
       inner=st.integers(1, 3), outer=st.integers(1, 3), ragged=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
def test_the_helper_is_the_sum_of_the_steps_products(steps, lead, inner, outer, ragged, seed):
    rng = np.random.default_rng(seed)
    x2 = rng.standard_normal((inner, outer))
    leads = [lead if not (ragged and lead and i % 2) else (lead[0] + 1, *lead[1:])
             for i in range(steps)]
    x1s = [rng.standard_normal((*shape, inner)) for shape in leads]
    gs = [rng.standard_normal((*shape, outer)) for shape in leads]
    np.testing.assert_allclose(matmul_vjp_x2_over_steps(gs, x1s, x2),
                               per_step_sum(gs, x1s, x2), rtol=1e-12, atol=1e-14)


def test_the_helper_sums_step_by_step_what_does_not_line_up():
    rng = np.random.default_rng(2)
    x2 = rng.standard_normal(3)  # a vector: x1 @ x2 reduces the last axis
    x1s = [rng.standard_normal((2, 3)) for _ in range(3)]
    gs = [rng.standard_normal(2) for _ in range(3)]
    np.testing.assert_allclose(matmul_vjp_x2_over_steps(gs, x1s, x2), per_step_sum(gs, x1s, x2))
    x2 = rng.standard_normal((3, 2)).astype(np.float32)
    x1s = [rng.standard_normal((2, 3)).astype(np.float32) for _ in range(2)]
    gs = [rng.standard_normal((2, 2)).astype(np.float32) for _ in range(2)]
    got = matmul_vjp_x2_over_steps(gs, x1s, x2)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, per_step_sum(gs, x1s, x2), rtol=1e-6)
    assert matmul_vjp_x2_over_steps([], [], x2) == 0.0


def test_the_helper_needs_only_the_shape_of_the_matrix():
    rng = np.random.default_rng(3)
    x2 = rng.standard_normal((3, 2))
    x1s, gs = [rng.standard_normal((4, 3))], [rng.standard_normal((4, 2))]
    np.testing.assert_allclose(matmul_vjp_x2_over_steps(gs, x1s, ShapeOf(x2.shape, x2.dtype)),
                               x1s[0].T @ gs[0])


def test_the_helper_multiplies_many_steps_a_few_at_a_time():
    rng = np.random.default_rng(4)
    x2 = rng.standard_normal((32, 16))
    x1s = [rng.standard_normal((8, 32)) for _ in range(50)]  # about 10 steps a product
    gs = [rng.standard_normal((8, 16)) for _ in range(50)]
    np.testing.assert_allclose(matmul_vjp_x2_over_steps(gs, x1s, x2),
                               per_step_sum(gs, x1s, x2), rtol=1e-12, atol=1e-12)
    vectors = [x[0] for x in x1s], [g[0] for g in gs]
    np.testing.assert_allclose(matmul_vjp_x2_over_steps(vectors[1], vectors[0], x2),
                               per_step_sum(vectors[1], vectors[0], x2), rtol=1e-12, atol=1e-12)


# -- the forward sweep: the inputs' products before the loop ----------------------------------
def projected_text(code: str) -> str:
    body = ast.parse(textwrap.dedent(code)).body
    return to_source(ast.Module(body=batch_input_products(body, Namer(set())),
                                type_ignores=[]))


def test_the_inputs_products_of_all_steps_are_one_product_before_the_loop():
    assert projected_text("""
        for t in range(len(xs)):
            if t > 0:
                p = xs[t] @ W
            q = xs[t] @ W
            h_stack.append(h)
            h = np.tanh(p + q)
    """) == textwrap.dedent("""\
        # xs[t] @ W of every step, as one product
        xs_at_W = matmul_over_steps(xs, W)
        for t in range(len(xs)):
            if t > 0:
                p = xs_at_W[t]
            q = xs_at_W[t]
            h_stack.append(h)
            h = np.tanh(p + q)
        del xs_at_W
    """)


NOT_PROJECTED = {
    "a range that is not the input's": """
        for t in range(n):
            p = xs[t] @ W
    """,
    "a range of part of the input": """
        for t in range(len(xs) - 1):
            p = xs[t] @ W
    """,
    "the input written into": """
        for t in range(len(xs)):
            p = xs[t] @ W
            xs[t] = p
    """,
    "the matrix rebound": """
        for t in range(xs.shape[0]):
            p = xs[t] @ W
            W = W * 0.5
    """,
    "the product written into": """
        for t in range(xs.shape[0]):
            p = xs[t] @ W
            p[0] = 0.0
    """,
    "a break": """
        for t in range(xs.shape[0]):
            p = xs[t] @ W
            if t > 2:
                break
    """,
    "a call that may write into its arguments": """
        for t in range(xs.shape[0]):
            p = xs[t] @ W
            h, saved = forward_step(p, xs)
    """,
    "the index rebound": """
        for t in range(xs.shape[0]):
            t = t + 1
            p = xs[t] @ W
    """,
}


@pytest.mark.parametrize("case", sorted(NOT_PROJECTED))
def test_the_inputs_products_stay_in_the_loop_with(case):
    code = NOT_PROJECTED[case]
    assert projected_text(code) == to_source(ast.parse(textwrap.dedent(code)))


def test_the_inputs_products_agree_with_one_product_a_step():
    rng = np.random.default_rng(5)
    for xs_shape, w_shape in [((4, 3), (3, 2)), ((4, 2, 3), (3, 2)), ((4, 2, 2, 3), (3,)),
                              ((0, 2, 3), (3, 2)), ((4, 3), (3,))]:
        xs, w = rng.standard_normal(xs_shape), rng.standard_normal(w_shape)
        steps = matmul_over_steps(xs, w)
        assert len(steps) == len(xs)
        for t in range(len(xs)):
            np.testing.assert_allclose(steps[t], xs[t] @ w, rtol=1e-14, atol=1e-15)
    stacked = rng.standard_normal((2, 3, 4))  # a batch of matrices: each step's product
    xs = rng.standard_normal((3, 5, 3))  # broadcasts over it, as one product cannot
    steps = matmul_over_steps(xs, stacked)
    assert isinstance(steps, list) and steps[1].shape == (2, 5, 4)
    np.testing.assert_allclose(steps[1], xs[1] @ stacked)
    listed = [rng.standard_normal(3) for _ in range(2)]
    np.testing.assert_allclose(matmul_over_steps(listed, w)[1], listed[1] @ w)
    assert matmul_over_steps(np.zeros((0, 2, 5)), rng.standard_normal((3, 2))) == []
