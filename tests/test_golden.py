"""Golden files of generated source: every change to the generator shows up in review.

``tests/golden/NAME.expected.py`` holds the module sourcegrad generates for a sample
function. The test regenerates it and compares; ``SOURCEGRAD_UPDATE_GOLDEN=1`` rewrites the
files. Each golden file is also *executed* (the file's text, not the generator's output) and
checked against finite differences, so a golden file can never bless a wrong gradient.
"""

import os
import pathlib

import pytest

import sourcegrad as sg
from sourcegrad import pipeline
from sourcegrad.pipeline import HELPERS, module_source

from .fd import assert_tree_close, tree_numerical_grad
from .golden_functions import GOLDEN, GOLDEN_OPTIONS

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden"


def _path(name):
    return GOLDEN_DIR / f"{name}.expected.py"


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_generated_source_matches_golden_file(name):
    fn, _, wrt = GOLDEN[name]
    text = module_source(sg.grad(fn, wrt=wrt, **GOLDEN_OPTIONS.get(name, {})))
    path = _path(name)
    if os.environ.get("SOURCEGRAD_UPDATE_GOLDEN"):
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"no golden file {path}; run with SOURCEGRAD_UPDATE_GOLDEN=1"
    assert text == path.read_text()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_file_computes_the_right_gradient(name):
    fn, args, wrt = GOLDEN[name]
    namespace = {**fn.__globals__, **HELPERS}
    exec(compile(_path(name).read_text(), str(_path(name)), "exec"), namespace)
    grad_fn = namespace[f"grad_{_name(fn)}"]
    actual, expected = gradient_and_expected(name, grad_fn)
    assert_tree_close(actual, expected)


def _name(fn):
    return pipeline.parse_function(fn).tree.name


def gradient_and_expected(name, grad_fn):
    """What ``grad_fn`` (golden or emitted) gives, and the finite differences of the loss."""
    fn, args, wrt = GOLDEN[name]
    actual = grad_fn(*args)
    loss = fn
    if GOLDEN_OPTIONS.get(name, {}).get("has_aux"):
        actual = actual[0]

        def loss(*a):
            return fn(*a)[0]
    argnums = wrt if isinstance(wrt, tuple) else (wrt,)
    expected = tuple(tree_numerical_grad(loss, args, i) for i in argnums)
    return actual, expected if isinstance(wrt, tuple) else expected[0]


def test_there_are_at_least_fifteen_golden_files():
    assert len(GOLDEN) >= 15
    assert len(list(GOLDEN_DIR.glob("*.expected.py"))) == len(GOLDEN)


def test_generation_is_deterministic():
    fn, _, wrt = GOLDEN["mlp"]
    assert module_source(sg.grad(fn, wrt=wrt)) == module_source(sg.grad(fn, wrt=wrt))
