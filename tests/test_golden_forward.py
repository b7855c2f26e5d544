"""Golden files of generated forward-mode source (``tests/golden/forward/NAME.expected.py``),
as ``test_golden.py`` does for reverse mode: regenerated and compared
(``SOURCEGRAD_UPDATE_GOLDEN=1`` rewrites them), and each file's own text executed and
checked against finite differences."""

import os
import pathlib

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.forward_mode import jvp_function
from sourcegrad.pipeline import HELPERS, module_source
from sourcegrad.testing import numerical_jvp

from . import corpus
from .golden_functions import GOLDEN as REVERSE_GOLDEN

GOLDEN_DIR = pathlib.Path(__file__).parent / "golden" / "forward"

GOLDEN = {
    name: REVERSE_GOLDEN[name]
    for name in ("straight", "loop_carried", "while_loop", "branch", "break_and_continue",
                 "return_in_loop", "subscript_write", "list_append_stack",
                 "calls_user_function", "scalar_math", "rnn")
}


def _wrt(wrt):
    return wrt if isinstance(wrt, tuple) else (wrt,)


def _generated(name):
    fn, _, wrt = GOLDEN[name]
    return module_source(jvp_function(fn, tuple(sg.api._wrt_names(fn, wrt)[0])))


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_forward_source_matches_golden_file(name):
    text = _generated(name)
    path = GOLDEN_DIR / f"{name}.expected.py"
    if os.environ.get("SOURCEGRAD_UPDATE_GOLDEN"):
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"no golden file {path}; run with SOURCEGRAD_UPDATE_GOLDEN=1"
    assert text == path.read_text()


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_forward_golden_file_computes_the_right_tangent(name):
    fn, args, wrt = GOLDEN[name]
    path = GOLDEN_DIR / f"{name}.expected.py"
    namespace = {**fn.__globals__, **HELPERS}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    jvp_fn = namespace[f"jvp_{fn.__name__}"]
    rng = np.random.default_rng(3)
    argnums = _wrt(wrt)
    tangents = [rng.standard_normal(np.shape(args[i])) for i in argnums]
    tangents = [float(t) if isinstance(args[i], float) else t
                for i, t in zip(argnums, tangents, strict=True)]
    value, tangent = jvp_fn(*args, *tangents)
    np.testing.assert_allclose(value, fn(*args))
    expected = sum(numerical_jvp(fn, args, i, t) for i, t in zip(argnums, tangents, strict=True))
    np.testing.assert_allclose(tangent, expected, rtol=1e-5, atol=1e-6)


def test_every_forward_golden_file_is_checked():
    assert sorted(p.name for p in GOLDEN_DIR.glob("*.expected.py")) == sorted(
        f"{n}.expected.py" for n in GOLDEN)


def test_corpus_function_in_golden_set_is_from_the_corpus():
    assert GOLDEN["straight"][0] is corpus.straight
