"""Large functions: the passes stay linear in the function's size, and making them so did not
change a byte of what they generate.

``tests/golden/large/NAME.py`` holds a long program (generated once, by the makers of
``test_random_programs.py`` or ``benchmarks/sized_subject.py``, and kept as text so that a
change of those generators leaves it alone); ``NAME.expected.py`` the module sourcegrad
generated for it before the passes were made linear (with the quadratic passes: an intended
change of generated code rewrites them, as for the other golden files, with
``SOURCEGRAD_UPDATE_GOLDEN=1``, which also writes missing programs).

Growth is measured by counting, never by timing: the lines of sourcegrad's own code run in
each of its functions while one function of ``n`` lines and one of ``4 n`` lines are
transformed. A linear pass does about four times the work on the larger one; a quadratic one
sixteen.
"""

import ast
import collections
import gc
import importlib.util
import inspect
import os
import pathlib
import random
import sys
import tracemalloc

import pytest

import sourcegrad as sg
from benchmarks import sized_subject
from sourcegrad import specialisation
from sourcegrad.codegen.wrap import wrap_statement
from sourcegrad.pipeline import module_source

from . import test_random_programs as programs
from .fd import assert_close, numerical_grad
from .golden_functions import GOLDEN

LARGE_DIR = pathlib.Path(__file__).parent / "golden" / "large"
UPDATE = bool(os.environ.get("SOURCEGRAD_UPDATE_GOLDEN"))


def _random_program(seed: int, statements: int) -> str:
    """A long random program: ``statements`` statements of every family (loops, branches,
    element writes, calls of user functions), each reading any name defined before it."""
    rng = random.Random(seed)
    lines, names = ["def f(x, y):"], ["x", "y"]
    makers, weights = zip(*programs.STATEMENTS, strict=True)
    for k in range(statements):
        maker = rng.choices(makers, weights)[0]
        if maker is programs.early_return:
            maker = programs.branch  # one return: the rest of the function must run
        lines += maker(rng, names, f"v{k}")
        names.append(f"v{k}")
    lines.append(f"    return np.sum({' + '.join(names[-4:])})")
    return ("import math\n\nimport numpy as np\n\n\n" + programs.HELPER + "\n\n"
            + "\n".join(lines) + "\n")


def _sized(lines: int, seed: int) -> str:
    return sized_subject.source(lines, seed, name="f")


MAKERS = {
    "random_program_1": lambda: _random_program(1, 40),
    "random_program_2": lambda: _random_program(2, 40),
    "random_program_3": lambda: _random_program(3, 60),
    "straight_line_branches_1": lambda: _sized(150, 1),
    "straight_line_branches_2": lambda: _sized(250, 2),
}


def _load(path: pathlib.Path, module_name: str, function: str = "f"):
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return getattr(module, function)


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_large_function_generates_what_it_did_before(name):
    program = LARGE_DIR / f"{name}.py"
    expected = LARGE_DIR / f"{name}.expected.py"
    if UPDATE and not program.exists():
        LARGE_DIR.mkdir(parents=True, exist_ok=True)
        program.write_text(MAKERS[name]())
    assert program.exists(), f"no program {program}; run with SOURCEGRAD_UPDATE_GOLDEN=1"
    text = module_source(sg.grad(_load(program, f"large_{name}"), wrt=(0, 1)))
    if UPDATE:
        expected.write_text(text)
    assert text == expected.read_text()


@pytest.mark.parametrize("name", sorted(n for n in MAKERS if n.startswith("straight_line")))
def test_large_function_gradient_is_right(name):
    f = _load(LARGE_DIR / f"{name}.py", f"large_{name}")
    args = sized_subject.arguments(seed=3)
    gradients = sg.grad(f, wrt=(0, 1))(*args)
    for i, gradient in enumerate(gradients):
        assert_close(gradient, numerical_grad(f, args, i))


# -- growth, counted ------------------------------------------------------------------------
SOURCEGRAD_DIR = str(pathlib.Path(sg.__file__).parent)


def _lines_run(action) -> collections.Counter:
    """Lines of sourcegrad's own code run by ``action()``, per function (a loop's every
    iteration runs a line, so a scan inside one call counts too)."""
    counts: collections.Counter = collections.Counter()

    def count_lines(frame, event, arg):
        if event == "line":
            counts[frame.f_code] += 1
        return count_lines

    def enter(frame, event, arg):
        return count_lines if frame.f_code.co_filename.startswith(SOURCEGRAD_DIR) else None

    previous = sys.gettrace()
    sys.settrace(enter)
    try:
        action()
    finally:
        sys.settrace(previous)
    per_function: collections.Counter = collections.Counter()
    for code, lines in counts.items():
        where = code.co_filename[len(SOURCEGRAD_DIR) + 1:]
        per_function[f"{where}:{code.co_firstlineno}:{code.co_name}"] += lines
    return per_function


def _half_in_a_loop(lines: int) -> str:
    """A generated function of ``lines`` lines whose second half runs in a loop."""
    body = sized_subject.source(lines, seed=4, name="f").splitlines()
    half = next(i for i in range(len(body) // 2, len(body)) if body[i].startswith("    t"))
    return "\n".join([*body[:half], "    for k in range(3):",
                      *("    " + line for line in body[half:-1]), body[-1]]) + "\n"


def test_transformation_work_grows_linearly_with_the_function(tmp_path):
    """Four times the lines, about four times the work in every function of the
    transformer: one that scans all statements (or all readers of a variable) per statement
    does sixteen times as much. Counted on straight-line code with branches, half of it in
    a loop (so that values are saved on stacks too)."""
    small, large = 40, 160
    counts = []
    for lines in (small, large):
        path = tmp_path / f"grown_{lines}.py"
        path.write_text(_half_in_a_loop(lines))
        fn = _load(path, f"grown_{lines}")
        counts.append(_lines_run(lambda fn=fn: sg.grad(fn, wrt=(0, 1))))
    _assert_linear(counts, large / small)


def _first_calls_work(lines: int, tmp_path) -> collections.Counter:
    """Lines run by the first call of the derivative of the ``lines``-line function (the
    specialisation to its arguments' shapes: ``specialisation.py``), built beforehand."""
    path = tmp_path / f"called_{lines}.py"
    path.write_text(_half_in_a_loop(lines))
    g = sg.grad(_load(path, f"called_{lines}"), wrt=(0, 1))
    args = sized_subject.arguments()
    return _lines_run(lambda: g(*args))


def test_specialisation_work_grows_linearly_with_the_function(tmp_path):
    """The first call specialises the derivative: four times the lines, about four times
    the work in every function of the specialiser. It was quadratic twice over: each
    ``if`` joined what is known of every variable (not only of those its branches assign),
    and reading the derivative back searched the statements from the top for each comment
    (and inserted it with ``list.index``)."""
    small, large = 40, 160
    _assert_linear([_first_calls_work(n, tmp_path) for n in (small, large)], large / small)


def _many_loops(lines: int) -> str:
    """A generated function of ``lines`` lines in which an update of a state variable every
    ten lines or so runs twice, in a loop of its own."""
    out, last = [], 0
    for line in sized_subject.source(lines, seed=7, name="f").splitlines():
        if line.startswith(("    h = ", "    c = ")) and len(out) - last > 8:
            last = len(out)
            out += ["    for k in range(2):", "    " + line]
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def test_specialisation_work_grows_linearly_with_the_loops(tmp_path):
    """Four times the lines and the loops, about four times the work: each pass over a
    loop's body once joined what is known of every variable at its head (and liveness
    copied every live name into the loop and out), where only what the pass assigned can
    change."""
    counts = []
    for lines in (60, 240):
        path = tmp_path / f"loops_{lines}.py"
        path.write_text(_many_loops(lines))
        g = sg.grad(_load(path, f"loops_{lines}"), wrt=(0, 1))
        args = sized_subject.arguments()
        counts.append(_lines_run(lambda g=g, args=args: g(*args)))
    _assert_linear(counts, 4)


def _peak_memory(action) -> int:
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_specialisation_memory_grows_linearly_with_the_function(tmp_path):
    """The specialiser's liveness (``jit/cleanup.py``) once kept a copy of the set of live
    names per statement, and made a new set at each: with most names live across most of
    a long derivative, memory (and time) quadratic in its length. Counted as the peak of
    the memory the first call allocates (bytes, not time): four times the lines, about
    four times the memory; sixteen times when quadratic."""
    small, large = 60, 240
    peaks = []
    for lines in (small, large):
        path = tmp_path / f"memory_{lines}.py"
        path.write_text(sized_subject.source(lines, seed=5, name="f"))
        g = sg.grad(_load(path, f"memory_{lines}"), wrt=(0, 1))
        args = sized_subject.arguments()
        peaks.append(_peak_memory(lambda g=g, args=args: g(*args)))
    assert peaks[1] < 1.3 * (large / small) * peaks[0], peaks


def test_specialisation_runs_no_cyclic_collection(tmp_path):
    """Specialising a long derivative allocates its trees anew: with the cyclic collector
    on, its collections scanned them over and over (full collections of the whole heap
    more often, the longer the function: a quarter of the first call at 2,000 lines). It
    is off while a variant is made, as while transforming: at most the one collection
    due when it is turned on again runs (counted, where there were about a hundred)."""
    path = tmp_path / "collected.py"
    path.write_text(sized_subject.source(200, seed=6, name="f"))
    g = sg.grad(_load(path, "collected"), wrt=(0, 1))
    args = sized_subject.arguments()
    collections_run = []

    def count(phase, info):
        if phase == "start":
            collections_run.append(info["generation"])

    gc.collect()
    gc.callbacks.append(count)
    try:
        g(*args)
    finally:
        gc.callbacks.remove(count)
    assert specialisation.variants_of(g).made == 1
    assert len(collections_run) <= 1, collections_run



def _cyclic_garbage_of(action) -> list:
    """What ``action`` leaves that only the cyclic collector can free."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        action()
        gc.collect()
        return list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


@pytest.mark.parametrize("name", ["rnn", "sized"])
def test_no_syntax_tree_is_left_for_the_cyclic_collector(name, tmp_path):
    """A reference cycle among a pass's helpers (a recursive closure, an object and its
    bound method) holds a tree: the whole transformation or variant then lives until the
    cyclic collector runs, which walks all of it (0.2 s after a variant of 2,000 lines).
    Neither transforming nor making the variant at the first call leaves one."""
    path = tmp_path / f"cycles_{name}.py"  # a new function: nothing cached
    if name == "rnn":  # loops: the loop products, step arrays and aliases of the variant
        golden, args, wrt = GOLDEN["rnn"]
        path.write_text("import numpy as np\n\n\n" + inspect.getsource(golden))
        fn = _load(path, f"cycles_{name}", golden.__name__)
    else:
        path.write_text(sized_subject.source(60, seed=7, name="f"))
        fn, args, wrt = _load(path, f"cycles_{name}"), sized_subject.arguments(), (0, 1)
    made = []
    garbage = _cyclic_garbage_of(lambda: made.append(sg.grad(fn, wrt=wrt)))
    garbage += _cyclic_garbage_of(lambda: made[0](*args))
    assert specialisation.variants_of(made[0]).made == 1
    trees = collections.Counter(type(o).__name__ for o in garbage if isinstance(o, ast.AST))
    assert not trees, trees


def _assert_linear(counts: list[collections.Counter], ratio: float) -> None:
    """The work grew about ``ratio`` times, in all and in each function that ran at the
    smaller size (what runs only at the larger one, such as wrapping a line that only then
    grows past 100 columns, has nothing to compare with)."""
    assert sum(counts[1].values()) < 1.2 * ratio * sum(counts[0].values())
    superlinear = {name: (counts[0][name], runs) for name, runs in counts[1].items()
                   if counts[0][name] >= 50 and runs > 1.25 * ratio * counts[0][name] + 300}
    assert not superlinear, f"(lines run at the smaller size, at the larger): {superlinear}"


def test_wrapping_a_line_is_linear_in_its_length():
    """A long tuple or list of a long function's values is one long generated line:
    wrapping it must not scan every break for each line it makes."""
    counts = [_lines_run(lambda n=n: wrap_statement(
        "    parts = np.stack([" + ", ".join(f"tanh_value_{i} * w" for i in range(n)) + "])"))
        for n in (100, 400)]
    _assert_linear(counts, 4)
