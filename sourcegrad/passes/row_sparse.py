"""Row-sparse gradient accumulators: ``grad_p = row_sparse_zeros(p)`` in place of
``zeros_like_grad(p)`` where the generated function only scatters into ``grad_p`` and adds
other gradients to it, then returns it.

This is the gradient of an argument the function only indexes (``u = vectors[idx]``), and
the accumulator a loop adds a callee's gradients into. A loss called once per word of a
2000x50 embedding otherwise allocates a dense 2000x50 zero per call, and its caller adds
each one up (issue 14). ``support.RowSparse`` keeps the ``(index, values)`` pairs and makes
the array dense once, when something reads it as an array (``as_gradient`` at the end).

The rewrite is safe because nothing else sees the accumulator: every occurrence of its name
is its one initialisation, a scatter into it (``add_at(grad_p, i, v)``, ``np.add.at``), an
addition into it (``grad_p = add_grads(grad_p, v)``), ``del``, or the returned value
(``as_gradient(grad_p, p)``, or an item of the tuple of gradients a backward returns). It is
made only where rows arrive: a scatter, or a callee's gradient that is itself row-sparse
(``sparse_gradients`` reads that off the callee's backward), so that a weight matrix
updated densely keeps its plain ``zeros_like_grad``.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable

from ..codegen.walk import names_in, statements

ZEROS = "zeros_like_grad"
SPARSE_ZEROS = "row_sparse_zeros"

# (name of a generated backward function, position of a gradient it returns) -> may that
# gradient be row-sparse?
SparseCallee = Callable[[str, int], bool]


def row_sparse_accumulators(fdef: ast.FunctionDef,
                            sparse_callee: SparseCallee = lambda name, i: False) -> None:
    """Rewrite, in place, the initialisation of each accumulator that qualifies."""
    inits: dict[str, list[ast.Call]] = {}
    allowed: Counter[str] = Counter()
    rows_arrive: set[str] = set()
    results = _callee_results(fdef)
    for node in statements(fdef):  # (what is looked at is statements, and the names)
        if isinstance(node, ast.Assign):
            _note_assign(node, inits, allowed)
            if _sparse_addend(node, results, sparse_callee):
                rows_arrive.add(node.targets[0].id)
        elif isinstance(node, ast.Expr) and _scatter_target(node.value):
            allowed[_scatter_target(node.value)] += 1
            rows_arrive.add(_scatter_target(node.value))
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    allowed[target.id] += 1
        elif isinstance(node, ast.Return) and node.value is not None:
            for item in _returned_items(node.value):
                allowed[item] += 1
    candidates = {var for var, calls in inits.items() if len(calls) == 1} & rows_arrive
    if not candidates:  # (counting every name is most of the work: only when needed)
        return
    occurrences = Counter(node.id for node in names_in(fdef) if node.id in candidates)
    for var in candidates:
        if allowed[var] == occurrences[var]:
            inits[var][0].func = ast.Name(id=SPARSE_ZEROS, ctx=ast.Load())


def sparse_gradients(backward: ast.FunctionDef) -> set[int]:
    """The positions of the gradients a generated backward returns that start as
    ``row_sparse_zeros``."""
    sparse = {stmt.targets[0].id for stmt in statements(backward) if isinstance(stmt, ast.Assign)
              and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)
              and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == SPARSE_ZEROS}
    last = backward.body[-1] if backward.body else None
    if not isinstance(last, ast.Return) or not isinstance(last.value, ast.Tuple):
        return set()
    return {i for i, item in enumerate(last.value.elts)
            if isinstance(item, ast.Name) and item.id in sparse}


def _callee_results(fdef: ast.FunctionDef) -> dict[str, str]:
    """``grads = backward_f(...)``: ``grads -> backward_f`` (a name bound to the results of
    different callees is left out: its gradients are not known to be row-sparse)."""
    found: dict[str, str | None] = {}
    for node in statements(fdef):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and (
                isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)):
            callee = node.value.func.id
            name = node.targets[0].id
            found[name] = callee if found.get(name, callee) == callee else None
    return {name: callee for name, callee in found.items() if callee is not None}


def _sparse_addend(node: ast.Assign, results: dict[str, str], sparse_callee: SparseCallee
                   ) -> bool:
    """``g = add_grads(g, backward_f(...)[i])`` or ``add_grads(g, grads[i])`` (``grads`` a
    callee's result), the callee's gradient ``i`` row-sparse."""
    value = node.value
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id == "add_grads" and len(value.args) == 2):
        return False
    addend = value.args[1]
    if not isinstance(addend, ast.Subscript) or not isinstance(addend.slice, ast.Constant):
        return False
    position, base = addend.slice.value, addend.value
    if isinstance(base, ast.Call) and isinstance(base.func, ast.Name):
        return isinstance(position, int) and sparse_callee(base.func.id, position)
    if isinstance(base, ast.Name) and base.id in results:
        return isinstance(position, int) and sparse_callee(results[base.id], position)
    return False


def _note_assign(node: ast.Assign, inits: dict[str, list[ast.Call]], allowed: Counter[str]
                 ) -> None:
    if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
        return
    var, value = node.targets[0].id, node.value
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Name):
        return
    if value.func.id == ZEROS and len(value.args) == 1 and isinstance(value.args[0], ast.Name):
        inits.setdefault(var, []).append(value)
        allowed[var] += 1
    elif value.func.id == "add_grads" and len(value.args) == 2 and _is_name(value.args[0], var):
        allowed[var] += 2  # the target and the first operand; the other must not read it


def _scatter_target(expr: ast.expr) -> str | None:
    """``add_at(a, i, v)`` or ``np.add.at(a, i, v)``: the name ``a``."""
    if not isinstance(expr, ast.Call) or len(expr.args) != 3 or expr.keywords:
        return None
    func = expr.func
    scatter = (isinstance(func, ast.Name) and func.id == "add_at") or (
        isinstance(func, ast.Attribute) and func.attr == "at"
        and isinstance(func.value, ast.Attribute) and func.value.attr == "add"
        and isinstance(func.value.value, ast.Name) and func.value.value.id == "np")
    target = expr.args[0]
    return target.id if scatter and isinstance(target, ast.Name) else None


def _returned_items(value: ast.expr) -> list[str]:
    """The gradients returned as they are, or through ``as_gradient(g, p)``."""
    items = value.elts if isinstance(value, ast.Tuple) else [value]
    names = []
    for item in items:
        if isinstance(item, ast.Tuple):  # value_and_grad: (value, (gradients...))
            names += _returned_items(item)
            continue
        if isinstance(item, ast.Call) and isinstance(item.func, ast.Name) and (
                item.func.id == "as_gradient") and len(item.args) == 2:
            item = item.args[0]
        if isinstance(item, ast.Name):
            names.append(item.id)
    return names


def _is_name(expr: ast.expr, var: str) -> bool:
    return isinstance(expr, ast.Name) and expr.id == var
