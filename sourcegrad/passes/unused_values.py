"""A gradient need not compute the value it does not return.

``sg.grad`` returns the gradient alone, and a loss is usually a known scalar (a full
reduction: ``np.mean(...)``): its cotangent seed is 1 and its shape is ``()``, so the
backward sweep reads nothing of its value. The forward sweep then stops where a hand-written
gradient would, before the last reduction (on a small loss, ``np.mean`` costs as much as
the rest of the backward sweep). The same holds, in turn, for the scalars that only the
dropped statements read (``-np.sum(...)`` before a division by the batch size), and for the
arrays they read that the backward sweep does not (``e * 3.0`` in ``np.mean(e * 3.0 +
np.tanh(e))``, when the mean's cotangent is spread over the parameter's shape).

A dropped scalar read by the backward sweep for its shape (``unbroadcast(g, loss)``) is
read as ``1.0``, a stand-in of shape ``()``; ``reduced_count(x, loss)`` becomes
``np.size(x)``.
"""

from __future__ import annotations

import ast

import numpy as np

from ..codegen.clone import clone
from ..codegen.walk import names_in, nodes_with_names, walk
from ..frontend.source import Parsed
from .purity import is_pure
from .refold import tidy

STAND_IN = 1.0  # any Python scalar: only its shape, (), is read


def drop_unused_scalars(forward: list[ast.stmt], adjoint: list[ast.stmt], output: str,
                        scalars: set[str], reads: tuple[set[str], set[str]]
                        ) -> tuple[list[ast.stmt], list[ast.stmt], set[str]]:
    """``forward`` without the statements computing ``output`` (a known scalar) and the known
    scalars only those statements read, ``adjoint`` reading ``STAND_IN`` for them, and the
    names dropped; ``reads`` is ``shape_reads(adjoint)``."""
    names = [_Names(stmt) for stmt in forward]
    assigned = _assigned_once(names)
    if output not in scalars or output not in assigned:
        return forward, adjoint, set()
    shape_only, value_reads = reads
    readers: dict[str, list[_Names]] = {}  # variable -> the forward statements reading it
    for stmt in names:
        for var in stmt.loads:
            readers.setdefault(var, []).append(stmt)
    dropped: set[str] = set()
    candidates = [output]
    while candidates:
        var = candidates.pop()
        stmt = assigned.get(var)
        if var in dropped or stmt is None or var in value_reads:
            continue
        if var not in scalars and (var in shape_only or not is_pure(stmt.stmt.value)):
            continue  # an array: dropped only if nothing reads even its shape
        if any(r.target not in dropped for r in readers.get(var, []) if r is not stmt):
            continue
        dropped.add(var)
        candidates.extend(stmt.loads)
    adjoint_reads = shape_only | value_reads
    if not dropped or _orphans(names, adjoint_reads, dropped, assigned):
        return forward, adjoint, set()
    forward = tidy([s for s in forward if _target(s) not in dropped])
    adjoint = [_with_stand_ins(s, dropped) for s in adjoint]
    return forward, [s for s in adjoint if s is not None], dropped


def surely_real(parsed: Parsed, fdef: ast.FunctionDef, output: str) -> bool:
    """Can the output be dropped, unseen by ``scalar_seed``? Only if it is surely a real
    number: no variable it is copied from is ever assigned a constant that is not one
    (``result = None`` on a path that returns nothing), and nothing in the function is
    complex (a literal ``1j``, a complex global, ``complex``). A complex value from
    elsewhere (an argument) still reaches the gradient unrefused."""
    sources = {output}
    assignments = [n for n in nodes_with_names(fdef) if isinstance(n, ast.Assign)
                   and isinstance(n.targets[0], ast.Name)]
    grown = True
    while grown:
        grown = False
        for node in assignments:
            if node.targets[0].id in sources and isinstance(node.value, ast.Name) and (
                    node.value.id not in sources):
                sources.add(node.value.id)
                grown = True
    for node in assignments:
        value = node.value
        if node.targets[0].id in sources and isinstance(value, ast.Constant) and (
                type(value.value) not in (int, float)):
            return False
    return not any(_complex(parsed, node) for node in walk(parsed.tree))


def _complex(parsed: Parsed, node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, complex)
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        value = parsed.lookup(node.id)
        if value is complex or isinstance(value, type) and issubclass(value, np.complexfloating):
            return True
        return isinstance(value, (complex, np.ndarray, np.generic)) and np.iscomplexobj(value)
    return False


class _Names:
    """What one forward statement reads and assigns."""

    def __init__(self, stmt: ast.stmt) -> None:
        self.target = _target(stmt)
        self.stmt = stmt
        found = list(names_in(stmt))
        self.stores = {n.id for n in found if not isinstance(n.ctx, ast.Load)}
        self.loads = {n.id for n in found if isinstance(n.ctx, ast.Load)}
        self.store_count: dict[str, int] = {}
        for n in found:
            if isinstance(n.ctx, ast.Store):
                self.store_count[n.id] = self.store_count.get(n.id, 0) + 1


def _orphans(names: list[_Names], adjoint_reads: set[str], dropped: set[str],
             assigned: dict[str, _Names]) -> bool:
    """Would dropping leave a computed variable that nothing but its own updates reads
    (``result`` assigned in both branches of an ``if``, or ``total`` accumulated in a loop,
    read only by the dropped ``f_value = total``)? Then nothing is dropped: generated code
    computes nothing it does not use."""
    stored = set().union(*(stmt.stores for stmt in names))
    inputs = set().union(*(assigned[var].loads for var in dropped)) & stored
    read = set(adjoint_reads)
    for stmt in names:
        if stmt.target not in dropped:
            read |= stmt.loads - stmt.stores
    return any(n not in read and n not in dropped for n in inputs)


def _assigned_once(names: list[_Names]) -> dict[str, _Names]:
    """Variables the forward sweep assigns exactly once, by a top-level ``v = ...``."""
    counts: dict[str, int] = {}
    for stmt in names:
        for var, count in stmt.store_count.items():
            counts[var] = counts.get(var, 0) + count
    return {stmt.target: stmt for stmt in names
            if stmt.target is not None and counts[stmt.target] == 1}


def _target(stmt: ast.stmt) -> str | None:
    if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    return None


def _with_stand_ins(stmt: ast.stmt, dropped: set[str]) -> ast.stmt | None:
    """``stmt`` reading ``STAND_IN`` for the dropped names (which only shape positions
    read), and releasing none of them."""
    if not any(n.id in dropped for n in names_in(stmt)):
        return stmt
    stmt = clone(stmt)
    for node in ast.walk(stmt):
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.Name) and value.id in dropped:
                setattr(node, field, ast.Constant(STAND_IN))
            elif isinstance(value, list):
                value[:] = [ast.Constant(STAND_IN) if isinstance(item, ast.Name)
                            and item.id in dropped and isinstance(item.ctx, ast.Load)
                            else item for item in value
                            if not (isinstance(item, ast.Name) and item.id in dropped
                                    and isinstance(item.ctx, ast.Del))]
    if isinstance(stmt, ast.Delete) and not stmt.targets:
        return None  # it released only dropped names
    return _Counted().visit(stmt)


class _Counted(ast.NodeTransformer):
    """``reduced_count(x, 1.0)``, how many elements of ``x`` make a scalar, is
    ``element_count(x)`` (``np.size``, read from the shape: a lazy array stays lazy)."""

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "reduced_count" and len(
                node.args) == 2 and isinstance(node.args[1], ast.Constant) and (
                node.args[1].value == STAND_IN):
            return ast.Call(func=ast.Name(id="element_count", ctx=ast.Load()),
                            args=[node.args[0]], keywords=[])
        return node
