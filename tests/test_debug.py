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
    generated = [s for s in shown
                 if os.path.basename(s.filename).startswith("grad_root_sum-")]
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


def root_in_a_branch(x):
    if np.sum(x) > 0:
        rooted = np.sqrt(x) * 1.5
    else:
        rooted = x * 3.0
    return np.sum(rooted)


def root_in_a_loop(x):
    total = 0.0
    for _ in range(2):
        total = total + np.sum(np.sqrt(x))
    return total


@pytest.mark.parametrize(("fn", "statement"), [
    (root_in_a_branch, "rooted = np.sqrt(x) * 1.5"),
    (root_in_a_loop, "total = total + np.sum(np.sqrt(x))")])
def test_an_error_inside_a_branch_or_a_loop_gets_one_note_naming_the_failing_line(fn, statement):
    error = raised_by(sg.grad(fn), np.array([0.0, 4.0]))
    notes = [note for note in error.__notes__ if note.startswith("sourcegrad: line")]
    assert len(notes) == 1, error.__notes__  # one frame, one note
    # the user's statement whose adjoint failed, not the `if` or `for` around it
    assert f"line {line_of(statement)}, in {fn.__name__}: {statement}" in notes[0], notes
    # the generated line the note names is the one the traceback shows failing
    generated_line = int(notes[0].split("sourcegrad: line ")[1].split()[0])
    frames = [s for s in traceback.extract_tb(error.__traceback__)
              if os.path.basename(s.filename).startswith(f"grad_{fn.__name__}-")]
    assert frames and frames[-1].lineno == generated_line, (frames, notes)


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
    assert "/grad_root_sum-" in done.stdout  # the generated file
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


# -- every tool shows the generated line, numbered as in .source (issue 16, point 2) ----------
SCRIPT = """\
import numpy as np
import sourcegrad as sg


def loss(x):
    y = np.log(x)
    if np.sum(y) > 0:
        z = y @ np.ones((2, 2))
    return np.sum(z)


sg.grad(loss)(np.ones(3) * 3)
"""


def run_script(tmp_path, *args, stdin=None, cache="0"):
    path = tmp_path / "script.py"
    path.write_text(SCRIPT)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SOURCEGRAD")}
    env.update(SOURCEGRAD_CACHE=cache, PYTHONPATH=str(ROOT),
               SOURCEGRAD_CACHE_DIR=str(tmp_path / "cache"))
    return subprocess.run([sys.executable, *args, str(path)], env=env, cwd=tmp_path,
                          input=stdin, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("cache", ["0", "1"])
def test_plain_python_shows_the_generated_line_and_the_note_agrees(tmp_path, cache):
    for attempt in range(2 if cache == "1" else 1):  # the second one loads from disk
        done = run_script(tmp_path, cache=cache)
        lines = done.stderr.splitlines()
        (where,) = [i for i, text in enumerate(lines) if "/grad_loss-" in text]
        number = int(lines[where].split(", line ")[1].split(",")[0])
        assert lines[where + 1].strip() == "z = y @ ones_pair", (attempt, done.stderr)
        assert (f"sourcegrad: line {number} of the generated grad_loss comes from File "
                f'"{tmp_path / "script.py"}", line 8, in loss: z = y @ np.ones((2, 2))'
                in done.stderr), done.stderr
        if cache == "1":  # (the private directory of a run without the cache goes with it)
            generated = lines[where].split('"')[1]
            assert pathlib.Path(generated).read_text().splitlines()[number - 1].strip() == \
                "z = y @ ones_pair"


def test_pdb_post_mortem_marks_the_failing_line(tmp_path):
    done = run_script(tmp_path, "-m", "pdb", stdin="continue\nlist\nquit\nquit\n")
    listed = done.stdout.split("Entering post mortem debugging")[1]
    arrow = [text for text in listed.splitlines() if "->" in text]
    assert arrow and arrow[0].split("->", 1)[1].strip() == "z = y @ ones_pair", listed


def test_the_generated_file_holds_exactly_the_source():
    grad = sg.grad(root_sum)
    assert pathlib.Path(grad.__code__.co_filename).read_text() == grad.source


# -- an error in a user's rule names the rule too ------------------------------------------------
def tripled(x):
    return x * 3.0


def uses_tripled(x):
    return np.sum(tripled(x))


@pytest.mark.parametrize("inlined", [True, False])
def test_an_error_in_a_users_rule_names_the_users_line_and_the_rule(inlined,
                                                                    restore_the_rule_table):
    if inlined:
        def tripled_vjp(g, ans, x):
            return g @ np.ones((5, 5))
    else:
        def tripled_vjp(g, ans, x):  # two statements: called, not inlined
            doubled = g * 2
            return doubled @ np.ones((5, 5))

    def tripled_jvp(tangents, ans, x):
        return tangents[0] @ np.ones((5, 5))

    sg.defvjp(tripled)(tripled_vjp)
    sg.defjvp(tripled)(tripled_jvp)
    with pytest.raises(ValueError) as reverse:
        sg.grad(uses_tripled)(np.ones(3))
    notes = "\n".join(reverse.value.__notes__)
    assert f"line {line_of('return np.sum(tripled(x))')}, in uses_tripled" in notes
    assert (f"that line calls tripled, whose derivative there is your @sg.defvjp rule "
            f'{tripled_vjp.__qualname__} (File "{THIS_FILE}", line '
            f"{tripled_vjp.__code__.co_firstlineno})") in notes
    with pytest.raises(ValueError) as forward:
        sg.jvp(uses_tripled, (np.ones(3),), (np.ones(3),))
    notes = "\n".join(forward.value.__notes__)
    assert f"your @sg.defjvp rule {tripled_jvp.__qualname__}" in notes
