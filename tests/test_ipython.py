"""sourcegrad in IPython / Jupyter: an error displayed by IPython never breaks later calls.

IPython's traceback display (``stack_data`` / ``executing``) parses the source of every
frame it shows and sets a ``parent`` link on each node, including the ``Load``, ``Store``
and operator nodes that CPython shares between every tree ``ast.parse`` returns, so
sourcegrad's own trees reach IPython's through those links. sourcegrad must copy only what
the AST defines (``_fields``, ``_attributes``) and never anything a display tool stored.
"""

import ast
import json
import os
import pathlib
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import sourcegrad as sg

from .test_reverse import CASES

ROOT = pathlib.Path(__file__).resolve().parent.parent

# each cell, and whether it must succeed; the failing ones raise a different sourcegrad
# error each (or an error inside generated code), which IPython displays
CELLS = [
    ("import numpy as np\nimport sourcegrad as sg", True),
    ("def f(x):\n    return np.sum(np.sin(x) * x)", True),
    ("first = sg.grad(f)(np.array([0.5, 1.5]))", True),
    ("def uses_try(x):\n    try:\n        y = np.log(x)\n    except ValueError:\n"
     "        y = x\n    return np.sum(y)\nsg.grad(uses_try)(np.ones(2))", False),
    ("def no_rule(x):\n    return np.sum(np.i0(x))\nsg.grad(no_rule)(np.ones(2))",
     False),
    ("def singular(a):\n    return np.sum(np.linalg.inv(a))\n"
     "sg.grad(singular)(np.zeros((2, 2)))", False),
    ("%xmode Verbose", True),
    ("sg.grad(uses_try)(np.ones(2))", False),
    # everything below transforms new functions, after the displays above
    ("def helper(a, b):\n    return np.tanh(a) * b\n"
     "def g(x, w):\n    total = 0.0\n    for i in range(2):\n"
     "        if i > 0:\n            total = total + np.sum(helper(x, w) ** 2)\n"
     "        else:\n            total = total - np.mean(x * w)\n    return total", True),
    ("grads = sg.grad(g, wrt=(0, 1))(np.array([0.3, -0.2]), np.array([1.5, 0.5]))", True),
    ("value, tangent = sg.jvp(g, (np.array([0.3, -0.2]), np.array([1.5, 0.5])),"
     " (np.array([1.0, 0.0]), np.zeros(2)))", True),
    ("hess = sg.hessian(f)(np.array([0.5, 1.5]))", True),
    ("def cube(x):\n    return x ** 3\n@sg.defvjp(cube)\ndef cube_vjp(g, ans, x):\n"
     "    return g * 3.0 * x ** 2\ndef uses_rule(x):\n    return np.sum(cube(x))\n"
     "ruled = sg.grad(uses_rule)(np.array([1.0, 2.0]))", True),
    ("import json\nprint('RESULT', json.dumps({'first': first.tolist(), "
     "'grads': [v.tolist() for v in grads], 'tangent': float(tangent), "
     "'hess': hess.tolist(), 'ruled': ruled.tolist()}))", True),
]

SCRIPT = textwrap.dedent("""
    import ast, json, sys
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    outcomes = []
    for cell in json.loads(sys.argv[1]):
        result = shell.run_cell(cell, store_history=True)  # numbered: In[1], In[2]...
        error = result.error_in_exec or result.error_before_exec
        outcomes.append(None if result.success else type(error).__name__)
    shared_load = ast.parse("a").body[0].value.ctx
    print("OUTCOMES", json.dumps({"outcomes": outcomes,
                                  "tainted": hasattr(shared_load, "parent")}))
""")


def _run_cells(tmp_path):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SOURCEGRAD")}
    environment.update(PYTHONPATH=str(ROOT), SOURCEGRAD_CACHE_DIR=str(tmp_path),
                       IPYTHONDIR=str(tmp_path / "ipython"))
    completed = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps([cell for cell, _ in CELLS])],
        env=environment, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def _line(output, tag):
    return json.loads(next(line for line in output.splitlines()
                           if line.startswith(tag + " "))[len(tag) + 1:])


def test_errors_displayed_by_ipython_leave_later_calls_working(tmp_path):
    output = _run_cells(tmp_path)
    state = _line(output, "OUTCOMES")
    # the display really ran and linked the shared nodes to IPython's trees
    assert state["tainted"]
    assert "`try` is not supported" in output and "has no derivative rule" in output
    # the cell named as IPython names it, not by the temporary file it was compiled from
    assert "Cell In[4], line 2" in output and "Cell In[5], line 2" in output
    assert 'File "<ipython-input-' not in output
    expected = [None if ok else "error" for _, ok in CELLS]
    assert [None if o is None else "error" for o in state["outcomes"]] == expected, output
    assert "RecursionError" not in output
    results = _line(output, "RESULT")

    x, w = np.array([0.3, -0.2]), np.array([1.5, 0.5])
    h = np.tanh(x) * w
    np.testing.assert_allclose(results["first"], np.cos([0.5, 1.5]) * [0.5, 1.5]
                               + np.sin([0.5, 1.5]))
    dh_dx = (1 - np.tanh(x) ** 2) * w
    np.testing.assert_allclose(results["grads"][0], 2 * h * dh_dx - w / 2)
    np.testing.assert_allclose(results["grads"][1], 2 * h * np.tanh(x) - x / 2)
    np.testing.assert_allclose(results["tangent"], 2 * h[0] * dh_dx[0] - w[0] / 2)
    x1 = np.array([0.5, 1.5])
    np.testing.assert_allclose(results["hess"], np.diag(2 * np.cos(x1) - x1 * np.sin(x1)))
    np.testing.assert_allclose(results["ruled"], [3.0, 12.0])


class _Untouchable:
    """What a display tool might hang on a shared node: sourcegrad must never copy it."""

    touched: list[str] = []

    def __deepcopy__(self, memo):
        self.touched.append("deepcopy")
        raise AssertionError("sourcegrad copied an attribute the AST does not define")

    def __reduce_ex__(self, protocol):
        self.touched.append("reduce")
        raise AssertionError("sourcegrad pickled an attribute the AST does not define")


def _shared_nodes():
    """The node instances ``ast.parse`` shares between trees (contexts and operators)."""
    tree = ast.parse("a = -b + c - d * e / f // g % h ** i @ j << k >> m | n ^ o & p\n"
                     "del a\nq = not a and b or ~c < d <= e > f >= g == h != i is j "
                     "is not k in m not in n\n+a\n")
    kinds = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
    return list({id(n): n for n in ast.walk(tree) if isinstance(n, kinds)}.values())


@pytest.fixture
def shared_nodes_carrying_foreign_state():
    nodes = _shared_nodes()
    _Untouchable.touched.clear()
    for node in nodes:
        node.parent = _Untouchable()
    try:
        yield
    finally:
        for node in nodes:
            del node.parent


def _float_positions(args):
    return tuple(i for i, a in enumerate(args)
                 if isinstance(a, float) or (isinstance(a, np.ndarray) and a.dtype.kind == "f"))


@pytest.mark.usefixtures("shared_nodes_carrying_foreign_state")
@pytest.mark.parametrize("name", sorted(CASES))
def test_transformations_copy_only_what_the_ast_defines(name):
    from . import corpus

    sg.clear_cache()
    fn = getattr(corpus, name)
    args = CASES[name][0]
    floats = _float_positions(args)
    sg.grad(fn, wrt=floats)(*args)
    tangents = [np.ones_like(a) if i in floats else None for i, a in enumerate(args)]
    try:
        sg.jvp(fn, args, tangents)
    except sg.SourcegradError:
        pass  # a construct forward mode refuses: what matters is that nothing was copied
    assert not _Untouchable.touched


def _reachable_ast_nodes(root):
    """The AST nodes reachable from ``root``, not through modules, classes, frames or module
    namespaces (what a display tool could reach from what it is shown)."""
    import gc
    import types

    seen, todo, found = set(), [root], []
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (types.ModuleType, type, types.FrameType)):
            continue
        if isinstance(obj, dict) and "__builtins__" in obj:
            continue  # a module's globals: the user's own
        seen.add(id(obj))
        if isinstance(obj, ast.AST):
            found.append(obj)
        todo.extend(gc.get_referents(obj))
    return found


def test_what_users_see_holds_no_syntax_tree():
    from . import corpus, unsupported

    x, w = np.ones((2, 3)), np.ones((3, 2))
    shown = [sg.grad(corpus.straight, wrt=(0, 1)), sg.vjp(corpus.straight, x, w)[1],
             sg.hessian(corpus.reassign)]
    with pytest.raises(sg.UnsupportedSyntaxError) as error:
        sg.grad(unsupported.uses_try)
    shown.append(error.value.with_traceback(None))
    for value in shown:
        assert not _reachable_ast_nodes(value)
