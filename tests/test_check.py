"""``check=True`` and ``SOURCEGRAD_CHECK=1``: the first call of each derivative is compared with
central finite differences; a wrong derivative raises ``sg.SourcegradError`` with both
numbers, a right one returns exactly what the unchecked derivative returns."""

import collections
import os
import pathlib
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sourcegrad as sg
from sourcegrad import checking, emit, testing

pytestmark = pytest.mark.usefixtures("restore_the_rule_table")

ROOT = pathlib.Path(__file__).resolve().parent.parent
rng = np.random.default_rng(31)

Pair = collections.namedtuple("Pair", "w b")


def cube(x):
    return x ** 3


def uses_cube(x, scale=2.0):
    return np.sum(cube(x) * scale)


def register_wrong_cube_rules():
    """Rules two thirds of the truth (``2 x**2`` instead of ``3 x**2``)."""
    @sg.defvjp(cube)
    def cube_vjp(g, ans, x):
        return g * 2.0 * x ** 2

    @sg.defjvp(cube)
    def cube_jvp(tangents, ans, x):
        return tangents[0] * 2.0 * x ** 2


def model(w, b, x, steps):
    h = x
    for _ in range(steps):
        h = np.tanh(h @ w + b)
    if np.sum(h) > 0:
        h = h * 2.0
    return np.mean(h ** 2)


def on_pytrees(params, layers):
    total = np.sum(np.sin(params["x"] * layers[0])) + np.sum(np.cos(params["x"] * layers[1]))
    return total + params["bias"] * np.sum(layers[0])


def with_kinks(x):
    return np.sum(np.maximum(x, 0.0) + np.abs(x - 0.5) + np.floor(x) * x)


def oscillating(x, scale):
    return np.sum(np.sin(20.0 * x) * np.exp(x / 3.0)) * scale


def large_values(x):
    return np.sum(np.log(x) * x) + np.sum(x ** 2) * 1e-3


def vector_output(x, w):
    return np.tanh(x @ w)


# -- correct derivatives pass, and return what the unchecked ones return ---------------------
CORRECT = [
    (model, (rng.standard_normal((3, 3)) * 0.5, rng.standard_normal(3), rng.standard_normal(3),
             2), (0, 1, 2)),
    (model, (rng.standard_normal((3, 3)) * 0.5, rng.standard_normal(3), -np.ones(3), 0),
     (0, 1, 2)),
    (on_pytrees, ({"x": rng.standard_normal(4), "bias": 0.3},
                  [rng.standard_normal(4), rng.standard_normal(4)]), (0, 1)),
    # about one element lies within the first step of a kink or a jump: the other steps decide
    (with_kinks, (rng.standard_normal(100_000) * 3,), 0),
    (oscillating, (rng.standard_normal(50), 1.5), (0, 1)),
    (large_values, (rng.uniform(1e5, 1e7, 20),), 0),
]


@pytest.mark.parametrize(("fn", "args", "wrt"), CORRECT,
                         ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CORRECT)])
def test_correct_gradients_pass_unchanged(fn, args, wrt):
    expected = sg.grad(fn, wrt=wrt)(*args)
    got = sg.grad(fn, wrt=wrt, check=True)(*args)
    for a, b in zip(_leaves(got), _leaves(expected), strict=True):
        np.testing.assert_array_equal(a, b)
    value, got = sg.value_and_grad(fn, wrt=wrt, check=True)(*args)
    assert value == fn(*args)


@pytest.mark.parametrize(("fn", "args", "wrt"), CORRECT,
                         ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CORRECT)])
def test_correct_vjps_and_jvps_pass(fn, args, wrt):
    value, pullback = sg.vjp(fn, *args, check=True)
    pullback(1.0)
    tangents = [_ones_like(a) if i in np.atleast_1d(wrt) else None for i, a in enumerate(args)]
    assert sg.jvp(fn, args, tangents, check=True)[0] == value


def test_array_outputs_are_checked_with_a_random_cotangent():
    x, w = rng.standard_normal((4, 3)), rng.standard_normal((3, 2))
    _, pullback = sg.vjp(vector_output, x, w, check=True)
    pullback(rng.standard_normal((4, 2)))
    sg.jvp(vector_output, (x, w), (np.ones_like(x), np.ones_like(w)), check=True)


def test_moving_a_namedtuple_keeps_its_type():
    moved = testing.tree_map(lambda leaf: leaf + 1.0, Pair(np.zeros(2), 0.5))
    assert type(moved) is Pair and moved.b == 1.5


@settings(max_examples=15, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(max_dims=2, max_side=5),
                  elements=st.floats(-3, 3)), st.floats(0.1, 10))
def test_no_false_alarm_on_smooth_functions_of_any_shape(x, scale):
    sg.grad(oscillating, wrt=(0, 1), check=True)(x, scale)
    sg.jvp(oscillating, (x, scale), (np.ones_like(x), 1.0), check=True)


# -- a wrong rule is caught in every API, with both numbers ----------------------------------
def _assert_caught(error, noun):
    message = str(error.value)
    assert isinstance(error.value, sg.SourcegradError)
    assert f"the {noun} sourcegrad made for `uses_cube`" in message
    assert f"{error.value.derivative:.12g}" in message
    assert f"{error.value.finite_difference:.12g}" in message
    # the rules give two thirds of the derivative along any direction
    np.testing.assert_allclose(error.value.derivative / error.value.finite_difference, 2 / 3,
                               rtol=1e-6)


X = np.array([0.5, -1.5, 2.0])

WRONG = {
    "gradient": lambda: sg.grad(uses_cube, check=True)(X),
    "gradient ": lambda: sg.value_and_grad(uses_cube, check=True)(X),
    "pullback (vjp)": lambda: sg.vjp(uses_cube, X, check=True)[1](1.0),
    "tangent (jvp)": lambda: sg.jvp(uses_cube, (X, 2.0), (np.ones(3), None), check=True),
}


@pytest.mark.parametrize("noun", list(WRONG))
def test_a_wrong_rule_is_caught_with_both_numbers(noun):
    register_wrong_cube_rules()
    with pytest.raises(checking.DerivativeCheckError) as error:
        WRONG[noun]()
    _assert_caught(error, noun.strip())


def test_unchecked_the_wrong_rule_goes_unnoticed():
    """What the check is for (and proof that the rules above really are wrong)."""
    register_wrong_cube_rules()
    np.testing.assert_allclose(sg.grad(uses_cube)(X), 2.0 * 2.0 * X ** 2)


def test_a_failed_check_raises_again_at_the_next_call():
    register_wrong_cube_rules()
    checked = sg.grad(uses_cube, check=True)
    for _ in range(2):
        with pytest.raises(sg.SourcegradError):
            checked(X)


def test_a_wrong_rule_inside_a_pytree_argument_is_caught():
    register_wrong_cube_rules()
    with pytest.raises(sg.SourcegradError, match="disagrees with central finite differences"):
        sg.grad(on_cube_pytree, check=True)({"a": X, "b": X * 2.0})


def on_cube_pytree(params):
    return np.sum(cube(params["a"])) + np.sum(cube(params["b"]))


def test_the_decorator_form_takes_check():
    register_wrong_cube_rules()

    @sg.grad(check=True)
    def decorated(x):
        return np.sum(cube(x))

    with pytest.raises(sg.SourcegradError):
        decorated(X)


# -- when the check runs ----------------------------------------------------------------------
@pytest.fixture
def counted(monkeypatch):
    calls = []
    real = checking._check

    def counting(comparison):
        calls.append(type(comparison).__name__)
        return real(comparison)

    monkeypatch.setattr(checking, "_check", counting)
    return calls


def test_each_derivative_is_checked_once_per_argument_signature(counted):
    checked = sg.grad(uses_cube, check=True)
    checked(X)
    checked(X * 2.0)
    sg.grad(uses_cube, check=True)(X + 1.0)  # the same derivative, asked for again
    assert len(counted) == 1
    checked(np.ones((2, 2)))  # a new shape
    checked(X, scale=3)  # a new type for `scale`
    checked(X.astype(np.float32))  # a new dtype
    assert len(counted) == 4
    sg.grad(uses_cube, wrt=(0, 1), check=True)(X)  # another derivative
    assert len(counted) == 5


def test_vjp_and_jvp_are_checked_once_per_argument_signature(counted):
    for _ in range(2):
        sg.vjp(uses_cube, X, 2.0, check=True)[1](1.0)
        sg.jvp(uses_cube, (X, 2.0), (X, None), check=True)
    assert counted == ["_Comparison", "_Tangent"]


def test_without_check_nothing_is_checked(counted, monkeypatch):
    monkeypatch.delenv("SOURCEGRAD_CHECK", raising=False)
    sg.grad(uses_cube)(X)
    sg.vjp(uses_cube, X)[1](1.0)
    sg.jvp(uses_cube, (X,), (X,))
    assert not counted


def test_integer_and_float32_values_are_not_moved(counted):
    register_wrong_cube_rules()
    sg.grad(uses_cube, check=True)(X.astype(np.float32))  # too coarse to tell: not checked
    sg.grad(uses_cube, wrt=1, check=True)(X, 3)  # an integer: not moved, so not checked
    with pytest.raises(sg.SourcegradError) as error:
        sg.grad(uses_cube, wrt=(0, 1), check=True)(X, 3)  # x moves, the integer stays 3
    _assert_caught(error, "gradient")
    assert len(counted) == 3


def test_a_checked_gradient_is_the_generated_code_to_differentiate_again():
    checked = sg.grad(uses_cube, check=True)
    assert checked.source == sg.grad(uses_cube).source
    hessian_diagonal = sg.jvp(checked, (X,), (np.ones(3),))[1]
    np.testing.assert_allclose(hessian_diagonal, 2.0 * 6.0 * X)


def test_asking_again_gives_the_same_checked_function():
    assert sg.grad(uses_cube, check=True) is sg.grad(uses_cube, check=True)
    assert sg.grad(uses_cube, check=True) is not sg.grad(uses_cube, wrt=(0,), check=True)


def test_emitting_a_checked_gradient_emits_the_generated_code():
    header = emit.Header("tests/test_check.py", "uses_cube", ("x",), "reverse", "0" * 16, "t")
    assert (emit.module_text(sg.grad(uses_cube, check=True), header)
            == emit.module_text(sg.grad(uses_cube), header))


def halves_the_gradient(g):
    return g * 0.5


def stops_a_gradient(x):
    return np.sum(sg.stop_gradient(x) * x)


def hooks_a_gradient(x):
    return np.sum(sg.grad_hook(np.sin(x), halves_the_gradient))


@pytest.mark.parametrize(("fn", "called"), [(stops_a_gradient, "stop_gradient"),
                                            (hooks_a_gradient, "grad_hook")])
def test_derivatives_that_differ_on_purpose_are_not_checked(fn, called, counted):
    with pytest.warns(RuntimeWarning, match=f"calls sg.{called}, which makes it differ"):
        got = sg.grad(fn, check=True)(X)
    assert len(counted) == 0  # the comparison never ran
    np.testing.assert_allclose(got, X if fn is stops_a_gradient else 0.5 * np.cos(X))
    with pytest.warns(RuntimeWarning, match=f"calls sg.{called}"):
        sg.vjp(fn, X, check=True)[1](1.0)  # the split forward code calls it
    assert len(counted) == 0


def eigenvalue_loss(a):
    values, vectors = np.linalg.eigh(a)
    return np.sum(values * np.arange(3.0)) + np.sum(vectors[:, 0] ** 2 * values[0])


def test_a_symmetric_matrix_moves_along_symmetric_directions():
    """eigh reads one triangle: along a direction that is not symmetric its finite
    differences are not what its rule (and the symmetric gradient) gives."""
    q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    a = (q * np.array([-1.0, 0.5, 2.0])) @ q.T  # symmetric up to rounding
    sg.grad(eigenvalue_loss, check=True)(a)
    sg.jvp(eigenvalue_loss, (a,), (np.eye(3),), check=True)


# -- the environment variable -----------------------------------------------------------------
SCRIPT = textwrap.dedent("""
    import numpy as np
    import sourcegrad as sg
    from tests.test_check import X, register_wrong_cube_rules, uses_cube

    register_wrong_cube_rules()
    for name, call in [
        ("grad", lambda: sg.grad(uses_cube)(X)),
        ("value_and_grad", lambda: sg.value_and_grad(uses_cube)(X)),
        ("vjp", lambda: sg.vjp(uses_cube, X)[1](1.0)),
        ("jvp", lambda: sg.jvp(uses_cube, (X,), (X,))),
        ("grad check=False", lambda: sg.grad(uses_cube, check=False)(X)),
    ]:
        try:
            call()
            print(name, "returned")
        except sg.SourcegradError as error:
            print(name, "raised", str(error).splitlines()[0])
""")


@pytest.mark.parametrize("setting", ["1", "0"])
def test_the_environment_variable_checks_every_derivative(setting, tmp_path):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SOURCEGRAD")}
    environment.update(PYTHONPATH=str(ROOT), SOURCEGRAD_CACHE_DIR=str(tmp_path),
                       SOURCEGRAD_CHECK=setting)
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    outcome = dict(re.match(r"(.+?) (returned|raised)", line).groups()
                   for line in done.stdout.splitlines())
    expected = "raised" if setting == "1" else "returned"
    assert outcome == {"grad": expected, "value_and_grad": expected, "vjp": expected,
                       "jvp": expected, "grad check=False": "returned"}, done.stdout
    if setting == "1":
        assert "disagrees with central finite differences" in done.stdout


def _leaves(tree):
    return testing.tree_leaves(tree)


def _ones_like(value):
    return testing.tree_map(lambda leaf: 1.0 if isinstance(leaf, float) else np.ones_like(leaf)
                    if isinstance(leaf, np.ndarray) and leaf.dtype.kind == "f" else None, value)


def jump_at_zero(x):
    return np.sum(np.where(x > 0.0, 1.0, 0.0) + x)


def test_a_jump_at_the_point_is_reported_as_unchecked_not_as_a_wrong_derivative():
    # finite differences across a jump grow like 1/h: the steps disagree among themselves,
    # which says nothing about the derivative (a random program's np.where found this)
    x = np.zeros(4)
    with pytest.warns(RuntimeWarning, match="not smooth"):
        gradient = sg.grad(jump_at_zero, check=True)(x)
    np.testing.assert_array_equal(gradient, np.ones(4))
