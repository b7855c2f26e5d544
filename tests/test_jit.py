"""``sg.jit`` (CONTRACT section 1b): Numba-compiled derivatives agree with the uncompiled ones,
compile again for new shapes, and fall back (with one ``sg.JitWarning`` naming the user's
line and the reason) where Numba cannot compile; ``fallback=False`` raises; without Numba,
``sg.jit`` says which extra to install; ``sourcegrad emit --jit`` writes a module of
``@numba.njit`` functions that agrees.

Numba's compile time counts against the suite: each test compiles as little as it can, and
compiled functions are shared through module-scoped fixtures.
"""

import inspect
import json
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad import cli
from sourcegrad.jit import JitError

from . import corpus
from .golden_functions import GOLDEN, GOLDEN_OPTIONS
from .test_specialise import assert_same

# (the compiler imports Numba: without the optional extra `jit` these tests are skipped)
compiler = pytest.importorskip("sourcegrad.jit.compiler", reason="sg.jit needs Numba")

# the golden functions Numba cannot compile, why, and the user's line that says so
FALLBACKS = {
    "list_append_stack": ("Numba has no implementation of stack(list(array(float64",
                          "return np.sum(np.stack(hs) ** 2)"),
    "return_in_loop": ("`result` is None on one path and a value on another",
                       "for _ in range(10):"),
    # structures (issue 12) Numba does not take: a list of dicts, a namedtuple's gradient
    "for_layer_in_params": ("argument `params` is a list, which Numba does not take",
                            "def layers_loss(params, x, y):"),
    "namedtuple_parameters": ("the helper `zeros_like_grad_with` has no compiled form",
                              "prediction = x @ p.w + p.b"),
    # a scatter into a row-sparse gradient (issue 14): `add_at` has no compiled form (in the
    # callee's backward, called from the adjoint of this statement of the loop's body)
    "row_sparse": ("Untyped global name 'add_at'",
                   "total = total + pair_loss(v, pairs[i][0], pairs[i][1])"),
}


def line_of(fn, text):
    """The line of ``fn``'s file holding ``text`` (within ``fn``)."""
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def call_recording(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    return result, [w.message for w in caught if issubclass(w.category, sg.JitWarning)]


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_compiled_golden_derivatives_agree_with_the_uncompiled_ones(name):
    fn, args, wrt = GOLDEN[name]
    general = sg.grad(fn, wrt=wrt, **GOLDEN_OPTIONS.get(name, {}))
    compiled = sg.jit(general)
    result, warned = call_recording(compiled, *args)
    assert_same(result, general(*args))
    if name not in FALLBACKS:
        assert warned == []
        assert compiler.key(args) in compiled._compiled
        assert compiled._compiled[compiler.key(args)] is not compiled.fn  # it did compile
        return
    reason, line = FALLBACKS[name]
    (warning,) = warned
    assert reason in warning.reason
    assert warning.filename == fn.__code__.co_filename
    assert warning.lineno == line_of(fn, line)
    assert line in str(warning) and "It runs uncompiled." in str(warning)


@pytest.fixture(scope="module")
def scalar_loop():
    """The benchmark's 1000-step scalar loop, its gradient, and the gradient compiled."""
    from benchmarks.functions import scalar_loop

    general = sg.grad(scalar_loop)
    return general, sg.jit(general)


def test_the_scalar_loop_compiles_to_scalar_code(scalar_loop):
    general, compiled = scalar_loop
    value = compiled(0.7)
    assert type(value) is float
    assert value == pytest.approx(general(0.7), rel=1e-12)
    text = compiled.specialised_source(0.7)
    assert "x_stack = np.empty(SCALAR_STEPS)" in text
    for gone in ("scalar_seed", "as_gradient", "unbroadcast", "append", "pop()", "del "):
        assert gone not in text


def test_a_new_shape_compiles_again():
    def f(x, w):
        return np.sum(np.tanh(x @ w) ** 2)

    general = sg.grad(f, wrt=(0, 1))
    compiled = sg.jit(general)
    rng = np.random.default_rng(0)
    for shapes in (((3, 4), (4, 2)), ((5, 4), (4, 3)), ((3, 4), (4, 2))):
        args = tuple(rng.standard_normal(s) for s in shapes)
        result, warned = call_recording(compiled, *args)
        assert warned == []
        # the code of the first shapes (np.full((3, 2), ...)) is wrong for the second
        assert_same(result, general(*args))
    assert len(compiled._compiled) == 2


def test_value_and_grad_forward_mode_and_the_users_own_function_compile():
    def f(x, y):
        return np.sum(np.sin(x) * y) + 0.5 * np.sum(x * x)

    rng = np.random.default_rng(1)
    x, y = rng.standard_normal(4), rng.standard_normal(4)
    value_and_grad = sg.value_and_grad(f, wrt=(0, 1))
    result, warned = call_recording(sg.jit(value_and_grad), x, y)
    assert warned == []
    assert result[0] == pytest.approx(value_and_grad(x, y)[0], rel=1e-12)
    assert_same(result[1], value_and_grad(x, y)[1])

    from sourcegrad.forward_mode import jvp_function

    jvp = jvp_function(f, ("x",))
    tangent = rng.standard_normal(4)
    tangent_name = jvp.tangent_params["x"]
    expected = jvp(x, y, **{tangent_name: tangent})
    result, warned = call_recording(sg.jit(jvp), x, y, **{tangent_name: tangent})
    assert warned == []
    assert_same(tuple(result), tuple(expected))

    result, warned = call_recording(sg.jit(f), x, y)
    assert warned == [] and result == pytest.approx(f(x, y), rel=1e-12)


def test_keyword_arguments_and_defaults_reach_the_compiled_code():
    def f(x, y=2.0, *, scale=3.0):
        return np.sum(np.sin(x * y)) * scale

    general = sg.grad(f)
    compiled = sg.jit(general)
    x = np.linspace(0.1, 1.0, 4)
    for kwargs in ({}, {"scale": 0.5}, {"y": 0.25, "scale": 2.0}):
        result, warned = call_recording(compiled, x, **kwargs)
        assert warned == []
        assert_same(result, general(x, **kwargs))


# -- each reason for falling back, with its warning --------------------------------------
def test_a_helper_without_a_compiled_form_is_named():
    def f(x):
        return np.linalg.norm(x) * 2.0

    general = sg.grad(f)
    x = np.array([0.3, -1.2, 2.0])
    result, (warning,) = call_recording(sg.jit(general), x)
    assert_same(result, general(x))
    assert "the helper `norm_derivative` has no compiled form" in warning.reason
    assert warning.lineno == line_of(f, "return np.linalg.norm(x) * 2.0")


def test_an_argument_numba_does_not_take_is_named():
    def f(x, options):
        return np.sum(x) * options["scale"]

    compiled = sg.jit(f)
    x = np.ones(3)
    result, (warning,) = call_recording(compiled, x, {"scale": 2.0})
    assert result == 6.0
    assert "argument `options` is a dict, which Numba does not take" in warning.reason
    assert warning.lineno == line_of(f, "def f(x, options):")


def test_a_user_function_numba_cannot_compile_is_named_at_its_line():
    compiled = sg.jit(corpus_caller)
    result, (warning,) = call_recording(compiled, np.ones(2))
    assert result == corpus_caller(np.ones(2))
    assert "einsum" in warning.reason
    assert warning.filename == __file__
    assert warning.lineno == line_of(corpus_callee, "np.einsum(")


def corpus_callee(x):
    return x * np.einsum("i,i->", x, x)


def corpus_caller(x):
    return np.sum(corpus_callee(x))


def test_what_is_not_a_python_function_runs_as_it_is():
    result, (warning,) = call_recording(sg.jit(np.sin), 0.5)
    assert result == np.sin(0.5)
    assert "is not a Python function" in warning.reason


def test_a_bug_of_the_specialiser_costs_a_warning_not_a_result(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("no such luck")

    monkeypatch.setattr(compiler, "specialise", broken)
    general = sg.grad(corpus.straight, wrt=1)
    args = GOLDEN["straight"][1]
    result, (warning,) = call_recording(sg.jit(general), *args)
    assert_same(result, general(*args))
    assert "sourcegrad could not specialise it (RuntimeError: no such luck)" in warning.reason


def test_it_warns_once_per_reason():
    compiled = sg.jit(np.cos)
    _, first = call_recording(compiled, 0.5)
    _, second = call_recording(compiled, np.ones(2))
    assert len(first) == 1 and second == []


def test_fallback_false_raises_naming_the_line():
    fn, args, wrt = GOLDEN["list_append_stack"]
    compiled = sg.jit(sg.grad(fn, wrt=wrt), fallback=False)
    with pytest.raises(JitError) as raised:
        compiled(*args)
    assert isinstance(raised.value, sg.SourcegradError)
    assert raised.value.lineno == line_of(fn, "np.stack(hs)")
    assert "Numba has no implementation of stack" in str(raised.value)
    assert f'File "{fn.__code__.co_filename}"' in str(raised.value)


def test_reductions_over_an_axis_numba_lacks_are_compiled():
    def f(x, w):
        top = np.max(x, axis=1, keepdims=True)
        low = np.min(x * w, axis=-1)
        spread = np.mean(np.exp(x - top), axis=0)
        total = np.sum(x * x, axis=2, keepdims=True)
        return np.sum(top) + np.sum(low * low) + np.sum(spread) + np.sum(total * 0.1)

    rng = np.random.default_rng(3)
    x, w = rng.standard_normal((3, 4, 2)), rng.standard_normal(2)
    general = sg.value_and_grad(f, wrt=(0, 1))
    compiled = sg.jit(general)
    assert "reduce_along(x, 1, True, 'max')" in compiled.specialised_source(x, w)
    result, warned = call_recording(compiled, x, w)
    assert warned == []
    expected = general(x, w)
    assert result[0] == pytest.approx(expected[0], rel=1e-12)
    assert_same(result[1], expected[1])


def test_without_numba_it_says_which_extra_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba now raises ImportError
    with pytest.raises(ImportError, match=r"pip install 'sourcegrad\[jit\]'"):
        sg.jit(sg.grad(corpus.straight, wrt=1))


# -- the runtime ---------------------------------------------------------------------------
def test_a_differentiable_function_runs_its_adjoint_compiled():
    def predict(w, b, x):
        return np.tanh(x @ w + b)

    compiled = sg.jit(sg.differentiable(predict))
    rng = np.random.default_rng(2)
    w, b, x = rng.standard_normal((3, 2)), rng.standard_normal(2), rng.standard_normal((4, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error", sg.JitWarning)
        assert_same(compiled(w, b, x), predict(w, b, x))
        leaves = [sg.tensor(v, requires_grad=True) for v in (w, b)]
        out = compiled(*leaves, sg.tensor(x))
        (out * out).sum().backward()
    reference = [sg.tensor(v, requires_grad=True) for v in (w, b)]
    plain = sg.differentiable(predict)(*reference, sg.tensor(x))
    (plain * plain).sum().backward()
    assert "PredictBackward" in repr(out.grad_fn)
    for leaf, expected in zip(leaves, reference, strict=True):
        np.testing.assert_allclose(leaf.grad.numpy(), expected.grad.numpy(), rtol=1e-12)
    forward, backward = compiled._split[("w", "b")]
    assert isinstance(forward, compiler.JitFunction) and backward._compiled


# -- sourcegrad emit --jit -----------------------------------------------------------------
def test_emit_jit_writes_a_numba_module_that_agrees(tmp_path, capsys):
    fn, args, wrt = GOLDEN["rnn"]
    user_file = tmp_path / "rnn_model.py"
    user_file.write_text("import numpy as np\n\n\n" + inspect.getsource(fn))
    out = tmp_path / "grad_rnn_jit.py"
    assert cli.main(["emit", f"{user_file}:rnn_loss", "--wrt", "Wx,Wh", "--jit", "-o",
                     str(out)]) == 0
    text = out.read_text()
    assert "@numba.njit\ndef grad_rnn_loss(" in text
    assert "reversed(" not in text and "\n    del " not in text
    assert "overload(unbroadcast, prefer_literal=True)(unbroadcast_form)" in text
    script = textwrap.dedent(f"""
        import json, sys
        import numpy as np
        sys.modules["sourcegrad"] = None  # the module must get by without sourcegrad
        sys.path.insert(0, {str(tmp_path)!r})
        import grad_rnn_jit
        args = [np.array(a) for a in json.loads(sys.stdin.read())]
        gradients = grad_rnn_jit.grad_rnn_loss(*args)
        modules = sorted({{m.split(".")[0] for m, v in sys.modules.items() if v is not None}})
        print(json.dumps({{"gradients": [g.tolist() for g in gradients], "modules": modules}}))
    """)
    done = subprocess.run([sys.executable, "-c", script], input=json.dumps(
        [a.tolist() for a in args]), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    expected = sg.grad(fn, wrt=wrt)(*args)
    for got, want in zip(result["gradients"], expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    assert "sourcegrad" not in result["modules"] and "numba" in result["modules"]


def test_emit_jit_refuses_a_helper_without_a_compiled_form(tmp_path, capsys):
    source = tmp_path / "norm_loss.py"
    source.write_text("import numpy as np\n\n\ndef loss(x):\n    return np.linalg.norm(x)\n")
    assert cli.main(["emit", f"{source}:loss", "--jit"]) == 1
    assert "the helper `norm_derivative` has no form Numba compiles" in capsys.readouterr().err


def test_weight_gradients_over_a_loops_steps_compile_as_one_product():
    """The batched weight gradients of an RNN on a batch (matrices a step; the golden ``rnn``
    has vectors) compile, and agree with the uncompiled derivative and the one made with a
    product a step."""
    from samples import rnn

    xs, ys = rnn.make_data(n_steps=4, batch=3, n_in=2)
    args = (*rnn.init_params(2, 3, 1), xs, ys)
    general = sg.grad(rnn.loss, wrt=(0, 1))
    assert "matmul_vjp_x2_over_steps(" in general.source
    compiled = sg.jit(general)
    result, warned = call_recording(compiled, *args)
    assert warned == []
    text = compiled.specialised_source(*args)
    assert "matmul_vjp_x2_over_steps(" in text
    # compiled, the steps are multiplied after the loop only (faster; sg.grad's code also
    # multiplies them in the loop, every few thousand elements, to keep less memory)
    assert "enough_steps(" in general.source and "enough_steps(" not in text
    assert "if " not in text.split("for t in range(xs.shape[0] - 1")[1]
    assert_same(result, general(*args))
    by_hand = rnn.loss_grad_by_hand(*args)[:2]
    for got, want in zip(result, by_hand, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12)


def _labelled(x):
    label = f"total {np.sum(x)}"
    return label


def _as_text(x):
    return str(np.max(x)) + "/" + repr(np.min(x))


def _formatted(x):
    return format(np.sum(x), ".2f") + " and {}".format(np.max(x))  # noqa: UP032


def _calls_labelled(x):
    return _labelled(x) + "!"


def _loss_that_prints(x):
    print(f"loss so far {np.sum(x ** 2)}")
    return np.sum(x ** 2)


@pytest.mark.parametrize("fn, line", [(_labelled, 'f"total'), (_as_text, "str(np.max"),
                                      (_formatted, "format(np.sum"), (_calls_labelled, 'f"total')])
def test_text_made_of_numbers_runs_uncompiled(fn, line):
    """Numba writes a float into text as '<object type:float64>', with no error: a function
    (or a function it calls) that makes text of a value runs uncompiled, and says why."""
    x = np.array([0.5, 1.25, 2.0])
    result, (warning,) = call_recording(sg.jit(fn), x)
    assert result == fn(x) and "<object type" not in result
    assert "makes text of a value" in warning.reason
    called = _labelled if fn is _calls_labelled else fn
    assert (warning.filename, warning.lineno) == (called.__code__.co_filename,
                                                  line_of(called, line))
    with pytest.raises(JitError):
        sg.jit(fn, fallback=False)(x)


def test_a_derivative_of_a_function_that_prints_a_number_runs_uncompiled(capsys):
    x = np.array([0.5, 1.25, 2.0])
    result, (warning,) = call_recording(sg.jit(sg.grad(_loss_that_prints)), x)
    assert_same(result, 2 * x)
    assert f"loss so far {np.sum(x ** 2)}" in capsys.readouterr().out
    assert warning.lineno == line_of(_loss_that_prints, "print(")
