"""The user's names never change a derivative (issue 11, section 2), by renaming.

A sample function (the golden functions) gets one of its parameters or locals renamed to a
name the generated code uses for something of its own (every helper, ``np``, ``math``,
builtins the passes call, ``_``), and optionally a global function of the user's named like
a helper that it calls; its gradient (reverse and forward mode) must equal the unrenamed
function's and central finite differences.
"""

import ast
import atexit
import inspect
import itertools
import linecache
import math
import shutil
import tempfile
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import sourcegrad as sg
from sourcegrad import pipeline

from .fd import assert_close, numerical_grad
from .golden_functions import GOLDEN

# every name of sourcegrad's own that generated code may spell: the helpers, np, math, the
# builtins the passes write, and the throwaway loop variable
TARGETS = sorted({*pipeline.HELPERS, "len", "range", "reversed", "list", "min", "_"})
# what the module's NumPy and math are called when the user takes their usual names
MODULE_SPELLINGS = {"np": "numpy", "math": "pymath"}
_DIRECTORY = Path(tempfile.mkdtemp(prefix="sourcegrad-renamed-"))
atexit.register(shutil.rmtree, _DIRECTORY, ignore_errors=True)
_COUNTER = itertools.count()


def _names(fdef: ast.FunctionDef) -> set[str]:
    return {n.id for n in ast.walk(fdef) if isinstance(n, ast.Name)} | {
        a.arg for a in ast.walk(fdef) if isinstance(a, ast.arg)}


def _free_for(fdef: ast.FunctionDef, name: str) -> bool:
    """Can a variable of ``fdef`` take ``name``? (NumPy and math are renamed out of the way.)"""
    return name in MODULE_SPELLINGS or name not in _names(fdef)


def _bound(fdef: ast.FunctionDef) -> list[str]:
    """The function's parameters and locals, in a stable order."""
    params = [a.arg for a in fdef.args.args]
    stored = sorted({n.id for n in ast.walk(fdef) if isinstance(n, ast.Name)
                     and isinstance(n.ctx, ast.Store)} - set(params))
    return params + stored


def _rename(fdef: ast.FunctionDef, renames: dict[str, str]) -> None:
    for node in ast.walk(fdef):
        if isinstance(node, ast.Name) and node.id in renames:
            node.id = renames[node.id]
        elif isinstance(node, ast.arg) and node.arg in renames:
            node.arg = renames[node.arg]


def variant(fn, variable: str, new_name: str, scaled: str | None, scale_name: str):
    """``fn`` with ``variable`` called ``new_name``; with ``scaled`` (a parameter), that
    parameter multiplied first by ``scale_name(1.0)``, a global function of the user's
    returning 3.0. Compiled from a file of its own, so that sourcegrad reads its source."""
    fdef = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    assert _free_for(fdef, new_name) and _free_for(fdef, scale_name)
    _rename(fdef, {m: MODULE_SPELLINGS[m] for m in MODULE_SPELLINGS
                   if new_name == m or scale_name == m})
    _rename(fdef, {variable: new_name})
    if scaled is not None:
        scaled = new_name if scaled == variable else scaled
        fdef.body.insert(0, ast.parse(f"{scaled} = {scaled} * {scale_name}(1.0)").body[0])
    fdef.name = f"{fn.__name__}_{next(_COUNTER)}"
    path = _DIRECTORY / f"{fdef.name}.py"
    path.write_text(ast.unparse(ast.fix_missing_locations(fdef)) + "\n")
    linecache.checkcache(str(path))
    namespace = {**fn.__globals__, "numpy": np, "pymath": math,
                 scale_name: lambda v: v * 3.0}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace[fdef.name]


def assert_same_derivatives(renamed, plain, args, wrt):
    argnums = wrt if isinstance(wrt, tuple) else (wrt,)
    expected = tuple(numerical_grad(renamed, args, i) for i in argnums)
    expected = expected if isinstance(wrt, tuple) else expected[0]
    got = sg.grad(renamed, wrt=wrt)(*args)
    assert_close(got, expected)
    assert_close(got, sg.grad(plain, wrt=wrt)(*args))
    rng = np.random.default_rng(0)
    tangents = [None if i not in argnums else float(rng.standard_normal())
                if isinstance(a, float) else rng.standard_normal(np.shape(a))
                for i, a in enumerate(args)]
    value, tangent = sg.jvp(renamed, args, tangents)
    assert_close(value, renamed(*args))
    grads = expected if isinstance(wrt, tuple) else (expected,)
    assert_close(tangent, sum(np.sum(g * tangents[i]) for g, i in zip(grads, argnums,
                                                                       strict=True)))


def first_wrt(fn, wrt):
    params = list(inspect.signature(fn).parameters)
    return params[wrt[0] if isinstance(wrt, tuple) else wrt]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(GOLDEN)), target=st.sampled_from(TARGETS),
       scale=st.one_of(st.none(), st.sampled_from(TARGETS)), data=st.data())
def test_renaming_a_variable_to_a_helper_name_keeps_the_derivative(name, target, scale, data):
    fn, args, wrt = GOLDEN[name]
    fdef = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    variable = data.draw(st.sampled_from(_bound(fdef)), label="variable")
    assume(_free_for(fdef, target) and target != scale)
    assume(scale is None or _free_for(fdef, scale))
    assume(scale != "_")  # `_` names no function
    scaled = first_wrt(fn, wrt) if scale is not None else None
    renamed = variant(fn, variable, target, scaled, scale or "unused_scale")
    plain = variant(fn, variable, f"{variable}_plain", scaled, "user_scale")
    assert_same_derivatives(renamed, plain, args, wrt)


def sweep(x, w, n):
    h = np.tanh(x @ w)
    total = 0.0
    for row in h:
        total = total + np.sum(row * math.exp(0.1))
    value = total + np.mean(h ** 2)
    acc = value
    i = 0
    while i < n:
        acc = acc * 0.5 + value
        i += 1
    return acc


SWEEP_ARGS = (np.linspace(-1.0, 1.0, 6).reshape(2, 3), np.linspace(0.5, -0.5, 12).reshape(3, 4), 3)


@pytest.mark.parametrize("target", TARGETS)
def test_every_name_of_sourcegrads_as_a_local(target):
    renamed = variant(sweep, "value", target, "x", "user_scale")
    plain = variant(sweep, "value", "value_plain", "x", "user_scale")
    assert_same_derivatives(renamed, plain, SWEEP_ARGS, (0, 1))
