"""Let go of saved values and cotangents as soon as the backward sweep is done with them.

A Python local keeps its array alive until the function returns, so a generated backward
sweep that names every intermediate cotangent holds all of them at once: at its peak, three
times the memory of a hand-written gradient on a large elementwise function. After the last
statement of the sweep's top level that reads a variable, ``del`` it.

Only variables certainly bound there are released (assigned by a top-level statement, not in
one branch of an ``if`` or the body of a loop), and only those that may hold arrays: not the
gradients the function returns, not parameters (the caller holds them anyway), not known
scalars, stacks or loop counters, nor the ``shape_only`` placeholders and ``unreduce``
views that hold next to nothing. Nothing is released after the sweep's last statement: the
function returns right away.
"""

from __future__ import annotations

import ast

from ..codegen.printer import is_comment
from ..codegen.walk import names_in
from .desugar import located


def release_dead_values(forward: list[ast.stmt], adjoint: list[ast.stmt], keep: set[str]
                        ) -> list[ast.stmt]:
    """``adjoint`` with ``del`` statements after each variable's last use; ``keep`` are the
    names read after the sweep or never worth releasing."""
    bound = assigned_at_top(forward)
    small = views_and_shapes(forward + adjoint)
    read = [_names(stmt) for stmt in adjoint]
    last_use: dict[str, int] = {}
    for i, names in enumerate(read):
        for var in names:
            last_use[var] = i
    kept = keep | small  # (once: a union per name read made the pass quadratic)
    dying: dict[int, list[str]] = {}
    for i, stmt in enumerate(adjoint):
        bound |= assigned_at_top([stmt])
        for var in sorted(read[i]):
            if last_use[var] == i and var in bound and var not in kept:
                dying.setdefault(i, []).append(var)
    last = max((i for i, stmt in enumerate(adjoint) if not is_comment(stmt)), default=-1)
    out: list[ast.stmt] = []
    for i, stmt in enumerate(adjoint):
        out.append(stmt)
        if i in dying and i < last:
            targets = [ast.Name(id=var, ctx=ast.Del()) for var in dying[i]]
            out.append(located(ast.Delete(targets=targets), stmt))
    return out


def assigned_at_top(stmts: list[ast.stmt]) -> set[str]:
    """Names bound by the top level of ``stmts``: certainly bound after them."""
    out: set[str] = set()
    for stmt in stmts:
        if isinstance(stmt, ast.Assign):
            out |= {n.id for t in stmt.targets for n in names_in(t)
                    if isinstance(n.ctx, ast.Store)}
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
            out.add(stmt.target.id)
    return out


def _names(stmt: ast.stmt) -> set[str]:
    return {node.id for node in names_in(stmt)}


def views_and_shapes(stmts: list[ast.stmt]) -> set[str]:
    """Variables assigned a ``shape_only(...)`` or an ``unreduce(...)`` (a read-only view
    that repeats a reduced array): releasing them frees next to nothing."""
    out: set[str] = set()
    for stmt in stmts:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name) and (
                isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)
                and stmt.value.func.id in ("shape_only", "unreduce")):
            out.add(stmt.targets[0].id)
    return out
