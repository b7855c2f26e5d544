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

from .fd import _parts, assert_tree_close, tree_numerical_grad
from .golden_functions import GOLDEN, GOLDEN_OPTIONS

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


def definition(fn) -> ast.FunctionDef:
    """``fn``'s ``def``; a lambda assigned to a name (``f = lambda x: ...``) as the ``def`` it
    stands for."""
    node = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
        lam = node.value
        node = ast.parse(f"def {node.targets[0].id}({ast.unparse(lam.args)}):\n"
                         f"    return {ast.unparse(lam.body)}\n").body[0]
    return node


def variant(fn, variable: str, new_name: str, scaled: str | None, scale_name: str):
    """``fn`` with ``variable`` called ``new_name``; with ``scaled`` (a parameter), that
    parameter multiplied first by ``scale_name(1.0)``, a global function of the user's
    returning 3.0. Compiled from a file of its own, so that sourcegrad reads its source."""
    fdef = definition(fn)
    assert _free_for(fdef, new_name) and _free_for(fdef, scale_name)
    _rename(fdef, {m: MODULE_SPELLINGS[m] for m in MODULE_SPELLINGS
                   if new_name == m or scale_name == m})
    _rename(fdef, {variable: new_name})
    if scaled is not None:
        scaled = new_name if scaled == variable else scaled
        fdef.body.insert(0, ast.parse(f"{scaled} = {scaled} * {scale_name}(1.0)").body[0])
    fdef.name = f"{fdef.name}_{next(_COUNTER)}"
    path = _DIRECTORY / f"{fdef.name}.py"
    path.write_text(ast.unparse(ast.fix_missing_locations(fdef)) + "\n")
    linecache.checkcache(str(path))
    namespace = {**fn.__globals__, "numpy": np, "pymath": math,
                 scale_name: lambda v: v * 3.0}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace[fdef.name]


def assert_same_derivatives(renamed, plain, args, wrt, has_aux=False):
    """Gradients (pytrees: the argument's structure) against finite differences and the
    unrenamed function's, and a tangent against them; with ``has_aux`` the first output."""
    def output(f):
        return (lambda *a: f(*a)[0]) if has_aux else f

    def first(result):
        return result[0] if has_aux else result

    argnums = wrt if isinstance(wrt, tuple) else (wrt,)
    expected = tuple(tree_numerical_grad(output(renamed), args, i) for i in argnums)
    expected = expected if isinstance(wrt, tuple) else expected[0]
    got = first(sg.grad(renamed, wrt=wrt, has_aux=has_aux)(*args))
    assert_tree_close(got, expected)
    assert_tree_close(got, first(sg.grad(plain, wrt=wrt, has_aux=has_aux)(*args)))
    rng = np.random.default_rng(0)
    tangents = [_random_like(rng, a) if i in argnums else None for i, a in enumerate(args)]
    value, tangent = sg.jvp(renamed, args, tangents)
    assert_tree_close(first(value), first(renamed(*args)))
    grads = expected if isinstance(wrt, tuple) else (expected,)
    assert_tree_close(first(tangent), sum(_paired(grads[k], tangents[i])
                                          for k, i in enumerate(argnums)))


def _random_like(rng, x):
    """Random values in ``x``'s structure, ``None`` at leaves that are not floats."""
    parts = _parts(x)
    if parts is not None:
        rebuild, children = parts
        return rebuild([_random_like(rng, child) for _, child in children])
    if isinstance(x, (bool, int, str)) or x is None or np.asarray(x).dtype.kind != "f":
        return None
    return float(rng.standard_normal()) if isinstance(x, float) else rng.standard_normal(
        np.shape(x))


def _paired(g, t):
    """The sum over leaves of ``sum(g * t)``, skipping ``None``."""
    g_parts, t_parts = _parts(g), _parts(t)
    if g_parts is not None:
        return sum(_paired(a, b) for (_, a), (_, b) in zip(g_parts[1], t_parts[1], strict=True))
    return 0.0 if g is None or t is None else float(np.sum(g * t))


def first_wrt(fn, wrt):
    params = list(inspect.signature(fn).parameters)
    return params[wrt[0] if isinstance(wrt, tuple) else wrt]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(GOLDEN)), target=st.sampled_from(TARGETS),
       scale=st.one_of(st.none(), st.sampled_from(TARGETS)), data=st.data())
def test_renaming_a_variable_to_a_helper_name_keeps_the_derivative(name, target, scale, data):
    fn, args, wrt = GOLDEN[name]
    fdef = definition(fn)
    variable = data.draw(st.sampled_from(_bound(fdef)), label="variable")
    assume(_free_for(fdef, target) and target != scale)
    assume(scale is None or _free_for(fdef, scale))
    assume(scale != "_")  # `_` names no function
    first = wrt[0] if isinstance(wrt, tuple) else wrt
    assume(scale is None or _parts(args[first]) is None)  # (scaling multiplies an array)
    scaled = first_wrt(fn, wrt) if scale is not None else None
    renamed = variant(fn, variable, target, scaled, scale or "unused_scale")
    plain = variant(fn, variable, f"{variable}_plain", scaled, "user_scale")
    assert_same_derivatives(renamed, plain, args, wrt,
                            GOLDEN_OPTIONS.get(name, {}).get("has_aux", False))


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
