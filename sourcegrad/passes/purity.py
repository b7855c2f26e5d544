"""Which generated expressions have no side effects, so that a pass may move, drop or
reorder them: arithmetic, NumPy and ``math`` functions (not ``np.random``), and
sourcegrad's own helpers. Anything else (a stack's ``pop``, a callee's derivative, a
function of the user's) may change what it is given, and stays where it is.
"""

from __future__ import annotations

import ast
import types

from ..codegen.walk import walk
from ..rules import support

# the helpers that write into what they are given (a scatter into a gradient, a container's
# entry restored); ``add_into`` writes only into the array it returns, which the generated
# code owns and rebinds: ``g = add_into(g, c)`` is ordered by its assignment like ``g += c``
_WRITING_HELPERS = frozenset({"add_at", "put_back"})
PURE_HELPERS = frozenset(n for n in dir(support) if not n.startswith("_") and isinstance(
    getattr(support, n), types.FunctionType)) - _WRITING_HELPERS
PURE_MODULES = frozenset({"np", "math"})
# NumPy functions that write into an argument (or draw random numbers); and, in a path,
# what leads to such functions (``np.add.at``, ``np.ndarray.sort``, ``np.random``)
WRITERS = frozenset({"put", "put_along_axis", "copyto", "place", "putmask", "fill_diagonal",
                     "shuffle"})
_IMPURE_PATHS = frozenset({"random", "at", "ndarray"})


def is_pure(expr: ast.expr) -> bool:
    """No call in ``expr`` but to functions known to change nothing."""
    for node in walk(expr):
        if isinstance(node, ast.Call) and not is_pure_call(node):
            return False
        if isinstance(node, (ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.Lambda)):
            return False
    return True


def is_pure_call(call: ast.Call) -> bool:
    """A call to a helper, or a NumPy or ``math`` function that writes into nothing."""
    if any(keyword.arg == "out" for keyword in call.keywords):
        return False
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in PURE_HELPERS
    path: list[str] = []
    while isinstance(func, ast.Attribute):
        path.append(func.attr)
        func = func.value
    return (isinstance(func, ast.Name) and func.id in PURE_MODULES and bool(path)
            and path[0] not in WRITERS and not _IMPURE_PATHS & set(path))
