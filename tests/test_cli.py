"""The command line, run as users run it: ``python -m sourcegrad`` in a subprocess.

Covers ``show`` (plain when piped, highlighted on request), ``emit`` (a module that runs with
NumPy alone, passes ruff, is byte-identical from run to run, and matches the checked-in
sample), ``emit --check``, and the exit status and message of each kind of failure.
"""

import ast
import importlib.util
import inspect
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad import cli, emit
from sourcegrad.highlight import highlight, strip
from sourcegrad.rules import support

from .fd import assert_tree_close
from .golden_functions import GOLDEN, GOLDEN_OPTIONS
from .test_golden import gradient_and_expected

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEMO = "samples/demo.py:loss"
SAMPLE = ROOT / "samples" / "emitted" / "grad_loss.py"
FORWARD_AVAILABLE = importlib.util.find_spec("sourcegrad.forward_mode") is not None


def sourcegrad(*args, cache_dir, cwd=ROOT, **env):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SOURCEGRAD")}
    environment.update(PYTHONPATH=str(ROOT), SOURCEGRAD_CACHE_DIR=str(cache_dir), **env)
    return subprocess.run([sys.executable, "-m", "sourcegrad", *args], cwd=cwd,
                          env=environment, capture_output=True, text=True, timeout=120)


@pytest.fixture
def user_file(tmp_path):
    path = tmp_path / "model.py"
    path.write_text(textwrap.dedent("""
        import numpy as np

        SCALE = 3.0
        WEIGHTS = np.ones(2)


        def part(a):
            return np.sin(a) * SCALE


        def loss(x, w=2.0):
            return np.sum(part(x) * w)


        def uses_array(x):
            return np.sum(x * WEIGHTS)


        def scaled(a, b):
            return np.sin(a) * b


        def part_twice(x, w):  # `scaled` differentiated for `a`, then for `a` and `b`
            return np.sum(scaled(x, 2.0)) + np.sum(scaled(x, w))


        def inner_scaled(x, w):
            return scaled(x, 2.0) * w


        def outer_scaled(x, w):  # each calls its own `backward_scaled`: two functions
            return np.sum(inner_scaled(x, w)) + np.sum(scaled(x, w))


        def keyword_only(x, w=2.0, *, scale=0.5):
            return np.sum(np.sin(x) * w * scale ** 2)


        def uses_try(x):
            try:
                y = np.log(x)
            except ValueError:
                y = x
            return np.sum(y)
    """))
    return path


def demo_gradient(w, b, x, y):
    """The gradient of samples/demo.py's loss, written out by hand."""
    prediction = np.tanh(x @ w + b)
    d = 2 * (prediction - y) / prediction.size * (1 - prediction ** 2)
    return x.T @ d, d.sum(axis=0)


# -- show -------------------------------------------------------------------------------------
def test_show_prints_the_generated_source_without_colour_when_piped(private_cache_dir):
    done = sourcegrad("show", DEMO, "--wrt", "w,b", cache_dir=private_cache_dir)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("def grad_loss(w, b, x, y):\n")
    assert "return as_gradient(grad_w, w), as_gradient(grad_b, b)" in done.stdout
    assert "\x1b[" not in done.stdout


def test_show_with_shapes_prints_the_specialised_derivative(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert cli.main(["show", DEMO, "--wrt", "w,b", "--shapes", "w=3,2", "b=2", "x=5,3",
                     "y=5,2"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("def grad_loss(w, b, x, y):\n")
    assert "unbroadcast" not in text and "as_gradient" not in text
    assert "grad_b = np.sum(" in text and "axis=0" in text  # b's broadcast summed out
    namespace = {"np": np}
    exec(text, namespace)  # it runs, and gives the hand-written gradient at those shapes
    rng = np.random.default_rng(1)
    w, b, x, y = (rng.standard_normal(s) for s in [(3, 2), (2,), (5, 3), (5, 2)])
    assert_tree_close(namespace["grad_loss"](w, b, x, y), demo_gradient(w, b, x, y))


def test_show_with_shapes_of_forward_mode_is_a_usage_error(private_cache_dir):
    done = sourcegrad("show", DEMO, "--mode", "forward", "--shapes", "w=3,2",
                      cache_dir=private_cache_dir)
    assert done.returncode == 2 and "--shapes shows the reverse-mode" in done.stderr


def test_show_highlights_on_request_and_only_adds_colour(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    cli.main(["show", DEMO])
    plain = capsys.readouterr().out
    cli.main(["show", DEMO, "--color", "always"])
    coloured = capsys.readouterr().out
    assert "\x1b[1;35mdef\x1b[0m" in coloured
    assert strip(coloured) == plain


def test_highlight_colours_tokens_and_keeps_the_text():
    text = 'def f(x):\n    # a comment\n    return len("s") + 1.5  # tail\n'
    coloured = highlight(text)
    assert strip(coloured) == text
    for token in ("def", "return", '"s"', "1.5", "# a comment", "len", "f"):
        assert f"m{token}\x1b[0m" in coloured


def test_forward_mode(private_cache_dir):
    done = sourcegrad("show", DEMO, "--mode", "forward", cache_dir=private_cache_dir)
    if FORWARD_AVAILABLE:
        assert done.returncode == 0, done.stderr
        assert "def jvp_loss(" in done.stdout
    else:
        assert done.returncode == 2
        assert done.stderr.strip() == "sourcegrad: forward mode is not implemented yet"


# -- emit -------------------------------------------------------------------------------------
def test_the_checked_in_sample_is_what_emit_writes(tmp_path, private_cache_dir):
    out = tmp_path / "grad_loss.py"
    done = sourcegrad("emit", DEMO, "--wrt", "w,b", "-o", str(out), cache_dir=private_cache_dir)
    assert done.returncode == 0, done.stderr
    if os.environ.get("SOURCEGRAD_UPDATE_GOLDEN"):  # as for the golden files
        SAMPLE.write_bytes(out.read_bytes())
    assert out.read_bytes() == SAMPLE.read_bytes(), (
        "samples/emitted/grad_loss.py is stale: run the tests with SOURCEGRAD_UPDATE_GOLDEN=1")


def test_emit_is_byte_identical_with_and_without_the_disk_cache(tmp_path, private_cache_dir,
                                                                user_file):
    outputs = []
    for run, env in enumerate([{"SOURCEGRAD_CACHE": "0"}, {}, {}]):
        out = tmp_path / f"out{run}.py"
        done = sourcegrad("emit", f"{user_file}:loss", "--wrt", "x,w", "-o", str(out),
                          cache_dir=private_cache_dir, **env)
        assert done.returncode == 0, done.stderr
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]


def test_the_docstring_says_what_the_module_was_generated_from():
    text = SAMPLE.read_text()
    docstring = text.split('"""')[1]
    for line in ("source file: samples/demo.py", "function:    loss", "wrt:         w, b",
                 "mode:        reverse", "source hash: sha256:", "sourcegrad:  0.1.0"):
        assert line in docstring


def test_the_emitted_module_runs_with_numpy_alone(tmp_path):
    isolated = tmp_path / "elsewhere"
    isolated.mkdir()
    shutil.copy(SAMPLE, isolated / "grad_loss.py")
    script = textwrap.dedent("""
        import json
        import sys
        import numpy as np
        # sourcegrad may be installed here (the test environment): make importing it fail,
        # so the emitted module must get by with NumPy and the standard library
        sys.modules["sourcegrad"] = None
        import grad_loss
        rng = np.random.default_rng(5)
        w, b = rng.standard_normal((3, 2)), rng.standard_normal(2)
        x, y = rng.standard_normal((4, 3)), rng.standard_normal((4, 2))
        gw, gb = grad_loss.grad_loss(w, b, x, y)
        modules = sorted(m.split(".")[0] for m, mod in sys.modules.items() if mod is not None)
        print(json.dumps({"gw": gw.tolist(), "gb": gb.tolist(), "modules": modules}))
    """)
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    done = subprocess.run([sys.executable, "-I", "-c",
                           f"import sys; sys.path.insert(0, {str(isolated)!r})\n" + script],
                          cwd=isolated, env=environment, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    rng = np.random.default_rng(5)
    w, b = rng.standard_normal((3, 2)), rng.standard_normal(2)
    x, y = rng.standard_normal((4, 3)), rng.standard_normal((4, 2))
    expected_w, expected_b = demo_gradient(w, b, x, y)
    np.testing.assert_allclose(result["gw"], expected_w, rtol=1e-12)
    np.testing.assert_allclose(result["gb"], expected_b, rtol=1e-12)
    assert "sourcegrad" not in result["modules"]


def test_emitted_modules_pass_ruff(tmp_path, private_cache_dir, user_file):
    out = tmp_path / "grad_model.py"
    done = sourcegrad("emit", f"{user_file}:loss", "-o", str(out), cache_dir=private_cache_dir)
    assert done.returncode == 0, done.stderr
    for path in (out, SAMPLE):
        lint = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated",
                               "--no-cache", str(path)], capture_output=True, text=True, timeout=60)
        assert lint.returncode == 0, lint.stdout


def test_an_emitted_callee_and_constant_give_the_right_gradient(tmp_path, private_cache_dir,
                                                                 user_file):
    out = tmp_path / "grad_model.py"
    sourcegrad("emit", f"{user_file}:loss", "--wrt", "x,w", "-o", str(out),
               cache_dir=private_cache_dir)
    text = out.read_text()
    assert "SCALE = 3.0\n" in text
    assert "def forward_part(" in text and "def backward_part(" in text
    namespace = {}
    exec(compile(text, str(out), "exec"), namespace)
    x = np.array([0.3, -1.2, 2.0])
    gx, gw = namespace["grad_loss"](x, 0.5)
    np.testing.assert_allclose(gx, 3.0 * np.cos(x) * 0.5)
    np.testing.assert_allclose(gw, np.sum(3.0 * np.sin(x)))
    assert isinstance(gw, float)


def test_emit_check_reports_the_largest_relative_error(private_cache_dir):
    done = sourcegrad("emit", DEMO, "--wrt", "w,b", "--check", "--shapes", "w=3,2", "b=2",
                      "x=5,3", "y=5,2", cache_dir=private_cache_dir)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""  # without -o, a check reports its result only
    (report,) = done.stderr.splitlines()
    assert report.startswith("check: largest relative error")
    assert float(report.split(": ")[-1].split()[0]) < 1e-6


@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_emit_check_with_defaults_and_keyword_only_parameters(mode, capsys, user_file,
                                                              tmp_path):
    out = tmp_path / "emitted.py"
    status = cli.main(["emit", f"{user_file}:keyword_only", "--wrt", "x,scale", "--mode", mode,
                       "--check", "--shapes", "x=4", "-o", str(out)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    error = float(captured.err.split("differences: ")[1].split()[0])
    assert error < 1e-6
    signature = "def grad_keyword_only(x, w=2.0, *, scale=0.5):" if mode == "reverse" else (
        "def jvp_keyword_only(x, w=2.0, *, scale=0.5, tangent_x, tangent_scale):")
    assert signature in out.read_text() and captured.out == ""


@pytest.mark.parametrize(("wrt", "names"), [("0", "w"), ("1", "b"), ("-1", "y"),
                                            ("w,1", "w, b"), ("b,-4", "b, w")])
def test_wrt_takes_positions_as_the_api_does(wrt, names, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert cli.main(["emit", DEMO, "--wrt", wrt]) == 0
    assert f"wrt:         {names}\n" in capsys.readouterr().out


def test_a_position_out_of_range_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert cli.main(["emit", DEMO, "--wrt", "4"]) == 2
    assert "--wrt 4 is out of range for loss(w, b, x, y)" in capsys.readouterr().err


def test_every_option_has_help(capsys):
    for command in ("show", "emit"):
        with pytest.raises(SystemExit):
            cli.main([command, "--help"])
        text = capsys.readouterr().out
        options = text.split("options:")[1]
        for option in ("--wrt", "--mode") + (("--output", "--check", "--shapes")
                                             if command == "emit" else ("--color",)):
            described = options.split(option, 1)[1].split("\n  -")[0]
            assert len(described.split()) > 3, (command, option)


def test_emit_check_needs_every_shape(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert cli.main(["emit", DEMO, "--check", "--shapes", "w=3,2"]) == 2
    assert "needs a shape for 'b'" in capsys.readouterr().err


# -- failures ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("arguments", "message"), [
    (["show", "missing.py:loss"], "sourcegrad: no such file: missing.py\n"),
    (["show", "samples/demo.py:nothing"],
     "sourcegrad: samples/demo.py has no function named 'nothing'\n"),
    (["show", DEMO, "--wrt", "w,q"],
     "sourcegrad: loss has no parameter named 'q'; its parameters are w, b, x, y\n"),
    (["show", "samples/demo.py"], "sourcegrad: expected FILE.py:FUNC, got 'samples/demo.py'\n"),
])
def test_usage_problems_get_one_line_and_status_2(arguments, message, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert cli.main(arguments) == 2
    assert capsys.readouterr().err == message


@pytest.mark.parametrize("arguments", [[], ["show"], ["show", DEMO, "--mode", "sideways"],
                                       ["frobnicate", DEMO]])
def test_argparse_usage_errors_exit_2(arguments, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(arguments)
    assert exit_.value.code == 2
    assert "usage: sourcegrad" in capsys.readouterr().err


def test_usage_errors_exit_2_through_the_real_command(private_cache_dir):
    done = sourcegrad("show", "missing.py:loss", cache_dir=private_cache_dir)
    assert (done.returncode, done.stderr) == (2, "sourcegrad: no such file: missing.py\n")


def test_a_function_that_cannot_be_differentiated_exits_1_with_file_and_line(
        private_cache_dir, user_file):
    done = sourcegrad("show", f"{user_file}:uses_try", cache_dir=private_cache_dir)
    assert done.returncode == 1
    assert done.stdout == ""
    assert "is not supported" in done.stderr
    try_line = user_file.read_text().splitlines().index("    try:") + 1
    assert f'File "{user_file}", line {try_line}' in done.stderr
    assert "try:" in done.stderr


def test_a_callee_differentiated_two_ways_is_emitted_under_both_names(tmp_path,
                                                                      private_cache_dir,
                                                                      user_file):
    out = tmp_path / "grad_twice.py"
    done = sourcegrad("emit", f"{user_file}:part_twice", "--wrt", "x,w", "-o", str(out),
                      cache_dir=private_cache_dir)
    assert done.returncode == 0, done.stderr
    namespace = {}
    exec(compile(out.read_text(), str(out), "exec"), namespace)
    x, w = np.array([0.3, -1.2]), np.array([0.5, 2.0])
    gx, gw = namespace["grad_part_twice"](x, w)
    assert "def backward_scaled_2(" in out.read_text()
    np.testing.assert_allclose(gx, np.cos(x) * (2.0 + w))
    np.testing.assert_allclose(gw, np.sin(x))


def test_two_callers_naming_different_derivatives_alike_get_distinct_names(
        tmp_path, private_cache_dir, user_file):
    out = tmp_path / "grad_outer.py"
    done = sourcegrad("emit", f"{user_file}:outer_scaled", "--wrt", "x,w", "-o", str(out),
                      cache_dir=private_cache_dir)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "def backward_scaled(" in text and "def backward_scaled_2(" in text
    namespace = {}
    exec(compile(text, str(out), "exec"), namespace)
    x, w = np.array([0.3, -1.2]), np.array([0.5, 2.0])
    gx, gw = namespace["grad_outer_scaled"](x, w)
    np.testing.assert_allclose(gx, np.cos(x) * (2.0 * w + w))
    np.testing.assert_allclose(gw, np.sin(x) * 2.0 + np.sin(x))


def test_emit_refuses_a_global_it_cannot_write(capsys, tmp_path):
    path = tmp_path / "objects.py"
    path.write_text("import numpy as np\n\nclass Box:\n    scale = 2.0\n\n\nBOX = Box()\n"
                    "NAMES = np.array(['a', 'b'])\n\n\ndef loss(x):\n"
                    "    return np.sum(x * BOX.scale)\n\n\ndef labels(x):\n"
                    "    return np.sum(x * len(NAMES))\n")
    for function, message in (("loss", "`BOX`, a Box that cannot be written"),
                              ("labels", "`NAMES`, a ndarray that cannot be written")):
        assert cli.main(["emit", f"{path}:{function}"]) == 1
        captured = capsys.readouterr()
        assert message in captured.err
        assert captured.out == ""


ARRAYS = {
    "SMALL": "np.array([1.5, -0.0, np.nan, np.inf, -np.inf, 1e-310, 0.1])",
    "SINGLE": "np.linspace(0, 1, 7, dtype=np.float32).reshape(7, 1)",
    "LARGE": "np.random.default_rng(0).standard_normal((40, 30))",
    "INTEGERS": "np.arange(-3, 3, dtype=np.int16)",
    "BYTES": "np.arange(5, dtype=np.uint8)",
    "FLAGS": "np.array([True, False, True])",
    "COMPLEX": "np.array([1 + 2j, -0.5j])",
    "ZERO_D": "np.array(2.25)",
    "SCALAR": "np.float32(2.5)",
    "EMPTY": "np.zeros((0, 3))",
    "WIDE": "np.arange(300.0).reshape(3, 100) / 7",
}


def test_module_level_arrays_are_written_into_the_module_exactly(tmp_path, private_cache_dir):
    reads = " + ".join(f"np.sum(np.abs({name}))" for name in ARRAYS)
    path = tmp_path / "constants.py"
    path.write_text("import numpy as np\n\n"
                    + "".join(f"{name} = {text}\n" for name, text in ARRAYS.items())
                    + f"\n\ndef loss(x):\n    return np.sum(x ** 2) * ({reads})\n")
    out = tmp_path / "grad_constants.py"
    done = sourcegrad("emit", f"{path}:loss", "-o", str(out), cache_dir=private_cache_dir)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert all(len(line) <= 100 for line in text.splitlines())
    assert "base64" in text and "np.array([1.5, -0.0, float('nan')" in text
    emitted, original = {}, {"np": np}
    exec(compile(text, str(out), "exec"), emitted)
    exec(compile(path.read_text(), str(path), "exec"), original)
    for name in ARRAYS:
        mine, theirs = emitted[name], original[name]
        assert type(mine) is type(theirs) and mine.dtype == theirs.dtype, name
        assert np.shape(mine) == np.shape(theirs), name
        assert np.asarray(mine).tobytes() == np.asarray(theirs).tobytes(), name  # every bit
    x = np.array([0.5, -1.0])
    np.testing.assert_allclose(emitted["grad_loss"](x), 2 * x * original["loss"](np.ones(1)))


def test_module_level_lists_and_dicts_of_arrays_are_written_exactly(tmp_path, private_cache_dir):
    """A global list of weight arrays (and a dict holding one too wide to inline) is copied
    by value, every bit, as the arrays themselves are."""
    path = tmp_path / "layers.py"
    path.write_text("import numpy as np\n\n"
                    "WS = [np.array([1.0, 2.0]), np.float32(0.5), (np.arange(3.0) / 7, 2)]\n"
                    "BIG = {'w': np.arange(300.0).reshape(3, 100) / 7, 'n': 3}\n\n\n"
                    "def loss(x):\n"
                    "    return np.sum(x * WS[0]) * WS[1] + np.sum(WS[2][0]) * np.sum(x ** 2)"
                    " + np.sum(BIG['w']) * x[0]\n")
    out = tmp_path / "grad_layers.py"
    done = sourcegrad("emit", f"{path}:loss", "-o", str(out), cache_dir=private_cache_dir)
    assert done.returncode == 0, done.stderr
    emitted, original = {}, {}
    exec(compile(out.read_text(), str(out), "exec"), emitted)
    exec(compile(path.read_text(), str(path), "exec"), original)
    for mine, theirs in [(emitted["WS"][0], original["WS"][0]),
                         (emitted["WS"][1], original["WS"][1]),
                         (emitted["WS"][2][0], original["WS"][2][0]),
                         (emitted["BIG"]["w"], original["BIG"]["w"])]:
        assert type(mine) is type(theirs) and mine.dtype == theirs.dtype
        assert np.asarray(mine).tobytes() == np.asarray(theirs).tobytes()
    assert emitted["WS"][2][1] == 2 and emitted["BIG"]["n"] == 3
    x = np.array([0.5, -1.0])
    expected = [(original["loss"](x + e * 1e-6) - original["loss"](x - e * 1e-6)) / 2e-6
                for e in np.eye(2)]
    np.testing.assert_allclose(emitted["grad_loss"](x), expected, rtol=1e-6)


@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_emitted_modules_keep_to_100_columns_and_name_only_what_they_hold(mode):
    helpers = {name for name in dir(support) if callable(getattr(support, name))}
    for name in sorted(GOLDEN):
        fn, _, wrt = GOLDEN[name]
        header = emit.Header("tests/golden_functions.py", fn.__name__, ("-",), mode,
                             "0" * 16, "test")
        params = list(inspect.signature(fn).parameters)
        names = tuple(params[w] if isinstance(w, int) else w
                      for w in (wrt if isinstance(wrt, tuple) else (wrt,)))
        text = emit.module_text(cli.derivative(fn, names, mode), header)
        long = [line for line in text.splitlines() if len(line) > 100]
        assert not long, (name, long)
        tree = ast.parse(text)
        defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef,
                                                                         ast.ClassDef))}
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                named = set(re.findall(r"``(\w+)", ast.get_docstring(node) or ""))
                assert not named & helpers - defined, (name, node.name)


# -- every golden function, emitted -------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_every_golden_function_emits_a_module_that_computes_its_gradient(name, tmp_path):
    fn, args, wrt = GOLDEN[name]
    header = emit.Header("tests/golden_functions.py", fn.__name__, ("-",), "reverse",
                         "0" * 16, "test")
    generated = sg.grad(fn, wrt=wrt, **GOLDEN_OPTIONS.get(name, {}))
    text = emit.module_text(generated, header)
    namespace = {"__name__": "emitted"}  # nothing of the user's module, nor of sourcegrad
    exec(compile(text, f"<emitted {name}>", "exec"), namespace)
    actual, expected = gradient_and_expected(name, namespace[generated.__name__])
    assert_tree_close(actual, expected)
    path = tmp_path / f"grad_{name}.py"
    path.write_text(text)
    lint = subprocess.run([sys.executable, "-m", "ruff", "check", "--isolated", "--no-cache",
                           str(path)], capture_output=True, text=True, timeout=60)
    assert lint.returncode == 0, lint.stdout


# -- emit never writes over the user's code ---------------------------------------------------
EMITTED_BEFORE = '"""The gradient of `old`, generated by sourcegrad.\n"""\n'


@pytest.fixture
def project(tmp_path):
    """A model importing a callee's module, a constants module and a module sourcegrad
    emitted earlier; importing it prints, through Python and through file descriptor 1."""
    root = tmp_path / "project"
    (root / "sub").mkdir(parents=True)
    (root / "parts.py").write_text("import numpy as np\n\n\ndef part(a):\n"
                                   "    return np.sin(a) * 2.0\n")
    (root / "config.py").write_text("SCALE = 3.0\n")
    (root / "grad_old.py").write_text(EMITTED_BEFORE)
    (root / "model.py").write_text(textwrap.dedent("""
        import os

        import numpy as np
        from config import SCALE
        from parts import part

        import grad_old  # noqa: F401

        print("printed while importing model")
        os.write(1, b"written to file descriptor 1 while importing model\\n")


        def loss(x):
            print("printed by loss")
            return np.sum(part(x) * SCALE)
    """))
    return root


def _refused(done, protected, before, what):
    assert done.returncode == 2, done.stderr
    assert f"refusing to write over {what}" in done.stderr
    assert protected.read_bytes() == before
    assert "def grad_loss" not in done.stdout


@pytest.mark.parametrize("spelling", ["model.py", "./model.py", "sub/../model.py", "absolute",
                                      "symbolic link", "hard link"])
def test_emit_never_writes_over_the_file_it_reads(spelling, project, private_cache_dir):
    model = project / "model.py"
    before = model.read_bytes()
    if spelling == "absolute":
        spelling = str(model)
    elif spelling == "symbolic link":
        (project / "link.py").symlink_to(model)
        spelling = "link.py"
    elif spelling == "hard link":
        os.link(model, project / "hard.py")
        spelling = "hard.py"
    done = sourcegrad("emit", "model.py:loss", "-o", spelling, cache_dir=private_cache_dir,
                      cwd=project)
    _refused(done, model, before, spelling)
    assert "the source of the function `loss`" in done.stderr


@pytest.mark.parametrize(("output", "says"), [
    ("parts.py", "the source of its callee `part`"),
    ("config.py", "the source of the module `config`"),
])
def test_emit_never_writes_over_a_module_the_function_uses(output, says, project,
                                                           private_cache_dir):
    before = (project / output).read_bytes()
    done = sourcegrad("emit", f"{project / 'model.py'}:loss", "-o", output,
                      cache_dir=private_cache_dir, cwd=project)
    _refused(done, project / output, before, output)
    assert says in done.stderr


def test_emit_may_make_an_emitted_module_again(project, private_cache_dir):
    done = sourcegrad("emit", "model.py:loss", "-o", "grad_old.py", cache_dir=private_cache_dir,
                      cwd=project)
    assert done.returncode == 0, done.stderr
    assert (project / "grad_old.py").read_text().startswith('"""The gradient of `loss`')


def test_what_the_user_code_prints_never_reaches_the_emitted_source(project, private_cache_dir):
    done = sourcegrad("emit", "model.py:loss", cache_dir=private_cache_dir, cwd=project)
    checked = sourcegrad("emit", "model.py:loss", "--check", "--shapes", "x=3",
                         cache_dir=private_cache_dir, cwd=project)
    assert done.returncode == 0 == checked.returncode, done.stderr + checked.stderr
    written = sourcegrad("emit", "model.py:loss", "-o", "grad_loss.py",
                         cache_dir=private_cache_dir, cwd=project)
    assert written.returncode == 0, written.stderr
    assert done.stdout == (project / "grad_loss.py").read_text()
    assert checked.stdout == ""  # a check without -o reports its result only (on stderr)
    for printed in ("printed while importing model", "written to file descriptor 1"):
        assert printed in done.stderr
        assert printed not in done.stdout
    assert "printed by loss" in checked.stderr  # by --check, running loss
    shown = sourcegrad("show", "model.py:loss", cache_dir=private_cache_dir, cwd=project)
    assert shown.stdout.startswith("def grad_loss(x):\n"), shown.stdout
