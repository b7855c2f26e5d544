"""A gradient need not compute the value it does not return.

``sg.grad`` returns the gradient alone, and a loss is usually a known scalar (a full
reduction: ``np.mean(...)``): its cotangent seed is 1 and its shape is ``()``, so the
backward sweep reads nothing of its value. The forward sweep then stops where a hand-written
gradient would, before the last reduction (on a small loss, ``np.mean`` costs as much as
the rest of the backward sweep). The same holds, in turn, for the scalars that only the
dropped statements read (``-np.sum(...)`` before a division by the batch size).

A dropped scalar read by the backward sweep for its shape (``reduced_count(x, loss)``,
``unbroadcast(g, loss)``) is read as ``1.0``, a stand-in of shape ``()``.
"""

from __future__ import annotations

import ast

from ..codegen.clone import clone
from ..codegen.walk import names_in
from .refold import tidy
from .shape_only import shape_reads

STAND_IN = 1.0  # any Python scalar: only its shape, (), is read


def drop_unused_scalars(forward: list[ast.stmt], adjoint: list[ast.stmt], output: str,
                        scalars: set[str]) -> tuple[list[ast.stmt], list[ast.stmt], set[str]]:
    """``forward`` without the statements computing ``output`` (a known scalar) and the known
    scalars only those statements read, ``adjoint`` reading ``STAND_IN`` for them, and the
    names dropped."""
    _, value_reads = shape_reads(adjoint)
    assigned = _assignments(forward)
    dropped: set[str] = set()
    candidates = [output]
    while candidates:
        var = candidates.pop()
        stmt = assigned.get(var)
        if var in dropped or var not in scalars or stmt is None or var in value_reads:
            continue
        readers = [s for s in forward if s is not stmt and _reads(s, var)]
        if any(_target(s) not in dropped for s in readers):
            continue
        dropped.add(var)
        candidates.extend(n.id for n in names_in(stmt.value) if isinstance(n, ast.Name))
    if not dropped or _orphans(forward, adjoint, dropped, assigned):
        return forward, adjoint, set()
    forward = tidy([s for s in forward if _target(s) not in dropped])
    adjoint = [_with_stand_ins(s, dropped) for s in adjoint]
    return forward, [s for s in adjoint if s is not None], dropped


def _orphans(forward: list[ast.stmt], adjoint: list[ast.stmt], dropped: set[str],
             assigned: dict[str, ast.Assign]) -> bool:
    """Would dropping leave a computed variable that nothing but its own updates reads
    (``result`` assigned in both branches of an ``if``, or ``total`` accumulated in a loop,
    read only by the dropped ``f_value = total``)? Then nothing is dropped: generated code
    computes nothing it does not use."""
    kept = [s for s in forward if _target(s) not in dropped]
    stored = {n.id for s in forward for n in names_in(s) if isinstance(n.ctx, ast.Store)}
    inputs = {n.id for var in dropped for n in names_in(assigned[var].value)} & stored
    read = {n.id for s in adjoint for n in names_in(s) if isinstance(n.ctx, ast.Load)}
    for stmt in kept:
        names = list(names_in(stmt))
        updated = {n.id for n in names if isinstance(n.ctx, ast.Store)}
        read |= {n.id for n in names if isinstance(n.ctx, ast.Load) and n.id not in updated}
    return any(n not in read and n not in dropped for n in inputs)


def _assignments(forward: list[ast.stmt]) -> dict[str, ast.Assign]:
    """Variables the forward sweep assigns exactly once, at its top level, to that
    statement."""
    counts: dict[str, int] = {}
    for stmt in forward:
        for node in names_in(stmt):
            if isinstance(node.ctx, ast.Store):
                counts[node.id] = counts.get(node.id, 0) + 1
    return {stmt.targets[0].id: stmt for stmt in forward
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and counts[stmt.targets[0].id] == 1}


def _target(stmt: ast.stmt) -> str | None:
    if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id
    return None


def _reads(stmt: ast.stmt, var: str) -> bool:
    return any(n.id == var and isinstance(n.ctx, ast.Load) for n in names_in(stmt))


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
    return stmt
