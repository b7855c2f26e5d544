"""Generated code is debuggable: tracebacks, ``inspect.getsource`` and ``pdb`` show its lines,
and an exception raised inside it carries a note naming the user's line it comes from."""

import inspect
import os
import pathlib
import subprocess
import sys
import textwrap
import traceback

import numpy as np
import pytest

import sourcegrad as sg

ROOT = pathlib.Path(__file__).resolve().parent.parent
THIS_FILE = pathlib.Path(__file__).resolve()


def root_sum(x):
    r = np.sqrt(x)
    return np.sum(r * 2.0)


def calls_root_sum(x):
    doubled = x * 2.0
    return root_sum(doubled) + np.sum(x)


def line_of(text):
    """The line of this file holding ``text`` (so the test does not hard-code numbers)."""
    for number, line in enumerate(THIS_FILE.read_text().splitlines(), 1):
        if line.strip() == text:
            return number
    raise AssertionError(text)


def raised_by(fn, *args):
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError) as info:
        fn(*args)
    return info.value


def test_an_error_in_the_adjoint_shows_the_generated_line_and_notes_the_users_line():
    grad = sg.grad(root_sum)
    error = raised_by(grad, np.array([0.0, 4.0]))  # sqrt's derivative divides by zero
    text = "".join(traceback.format_exception(error))
    shown = traceback.extract_tb(error.__traceback__)
    generated = [s for s in shown if s.filename.startswith("<sourcegrad grad_root_sum")]
    assert generated, text
    assert "/ (2 * r)" in generated[-1].line  # the adjoint of sqrt, shown in the traceback
    assert generated[-1].line in text
    assert f'File "{THIS_FILE}", line {line_of("r = np.sqrt(x)")}, in root_sum' in text
    assert "r = np.sqrt(x)" in "\n".join(error.__notes__)


def test_an_error_in_a_callees_adjoint_names_both_user_lines():
    error = raised_by(sg.grad(calls_root_sum), np.array([0.0, 1.0]))
    notes = "\n".join(error.__notes__)
    assert f"line {line_of('r = np.sqrt(x)')}, in root_sum" in notes
    assert f"line {line_of('return root_sum(doubled) + np.sum(x)')}, in calls_root_sum" in notes


def test_notes_survive_the_disk_cache(private_cache_dir):
    script = textwrap.dedent("""
        import numpy as np
        import sourcegrad as sg
        from sourcegrad import cache
        import tests.test_debug as t
        with np.errstate(divide="raise"):
            try:
                sg.grad(t.root_sum)(np.array([0.0]))
            except FloatingPointError as error:
                print(cache.STATS.disk_hits, error.__notes__)
    """)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SOURCEGRAD")}
    env.update(SOURCEGRAD_CACHE_DIR=str(private_cache_dir), PYTHONPATH=str(ROOT))
    outputs = [subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=60) for _ in range(2)]
    assert outputs[1].stdout.startswith("1 "), outputs[1].stderr
    assert f"line {line_of('r = np.sqrt(x)')}, in root_sum" in outputs[1].stdout


def test_inspect_getsource_shows_exactly_the_generated_code():
    grad = sg.grad(root_sum)
    assert textwrap.dedent(inspect.getsource(grad)) == grad.source  # no trace of the guard


def test_the_gradient_keeps_the_users_signature():
    def annotated(w: np.ndarray, scale: float = 2.0) -> float:
        return np.sum(w * scale)

    assert inspect.signature(sg.grad(annotated)) == inspect.signature(annotated)


def test_pdb_steps_into_generated_code():
    script = textwrap.dedent("""
        import pdb
        import numpy as np
        import sourcegrad as sg
        import tests.test_debug as t
        grad = sg.grad(t.root_sum)
        pdb.Pdb(nosigint=True).runcall(grad, np.array([1.0, 4.0]))
    """)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SOURCEGRAD")}
    env.update(SOURCEGRAD_CACHE="0", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", script], input="next\nnext\nlist\ncontinue\n",
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "<sourcegrad grad_root_sum" in done.stdout
    assert "-> r = np.sqrt(x)" in done.stdout  # stepped onto a generated line
    assert "as_gradient(grad_x, x)" in done.stdout  # `list` shows the generated lines around


def test_a_note_that_cannot_be_made_never_replaces_the_error():
    from sourcegrad import debug

    broken = debug.Provenance(root_sum, "grad_root_sum", "not python (", debug.Landmarks((), ()))
    with pytest.raises(ValueError, match="original") as info:
        try:
            raise ValueError("original")
        except ValueError as error:
            broken(error)
            raise
    assert not getattr(info.value, "__notes__", [])
