"""Give each straight-line reassignment of a variable a name of its own.

Invariant after this pass: a variable assigned more than once, only by top-level
statements of the function body (never inside ``if``/``for``/``while``, never by subscript),
is renamed ``x``, ``x_2``, ``x_3``... at each assignment, and every read uses the version
live at that point. The backward pass then never has to restore an overwritten value for
such variables: ``x = x - x.mean(); x = x / x.std()`` keeps both versions by name.
"""

from __future__ import annotations

import ast
from collections import Counter

from ..codegen.names import Namer
from ..codegen.walk import walk
from .activity import target_names


def run(body: list[ast.stmt], params: set[str], namer: Namer) -> list[ast.stmt]:
    renamable = _renamable(body, params)
    current = {name: name for name in renamable}
    assigned = Counter({name: 1 for name in renamable & params})
    for stmt in body:
        _rename_reads(stmt, current)
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                _rename_reads(target, current)  # the index of `a[i] = v` reads `i`
                for node in walk(target):
                    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and (
                            node.id in renamable):
                        original = node.id
                        if assigned[original]:
                            node.id = namer.fresh(f"{original}_{assigned[original] + 1}")
                        assigned[original] += 1
                        current[original] = node.id
    return body


def _renamable(body: list[ast.stmt], params: set[str]) -> set[str]:
    top_level: Counter[str] = Counter()
    for name in params:
        top_level[name] += 1
    nested: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.Assign) and all(
            isinstance(t, (ast.Name, ast.Tuple)) for t in stmt.targets
        ):
            for target in stmt.targets:
                for name in target_names(target):
                    top_level[name] += 1
        else:
            for node in walk(stmt):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    nested.add(node.id)
                if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(
                    node.ctx, ast.Store
                ):
                    nested.add(_base(node))
    return {name for name, count in top_level.items() if count > 1 and name not in nested}


def _base(node: ast.expr) -> str:
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _rename_reads(stmt: ast.AST, current: dict[str, str]) -> None:
    value_nodes = [stmt.value] if isinstance(stmt, ast.Assign) else [stmt]
    for root in value_nodes:
        for node in walk(root):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and (
                node.id in current
            ):
                node.id = current[node.id]
