"""Large functions: the passes stay linear in the function's size, and making them so did not
change a byte of what they generate.

``tests/golden/large/NAME.py`` holds a long program (generated once, by the makers of
``test_random_programs.py`` or ``benchmarks/sized_subject.py``, and kept as text so that a
change of those generators leaves it alone); ``NAME.expected.py`` the module sourcegrad
generated for it before the passes were made linear. ``SOURCEGRAD_UPDATE_GOLDEN=1`` writes
missing programs and rewrites the expected modules, as for the other golden files.

Growth is measured by counting, never by timing: the calls of each Python function (and the
lines run in each) while one function of ``n`` lines and one of ``4 n`` lines are transformed.
A linear pass does about four times the work on the larger one; a quadratic one sixteen.
"""

import importlib.util
import os
import pathlib
import random
import sys

import pytest

import sourcegrad as sg
from benchmarks import sized_subject
from sourcegrad.pipeline import module_source

from . import test_random_programs as programs

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


def _load(path: pathlib.Path, module_name: str):
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module.f


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


# -- growth, counted ------------------------------------------------------------------------
