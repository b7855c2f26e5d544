"""Compute each cotangent just before the statement that needs it.

The reverse sweep writes a rule's cotangents where the rule is reached: both halves of the
product rule at once, though one may only be read at the end of the line's adjoint. Held
until then, it is one more array alive at the sweep's peak (a Gaussian-windowed sum's
gradient held five arrays where a hand-written one holds three). A careful person computes
each cotangent where it is used, after the values that die first have been released.

A definition moves down, within the block of its provenance comment, to just before its
only reader, when:

- it is a pure expression (arithmetic, NumPy and ``math`` functions, sourcegrad's helpers)
  assigned once to a name read once;
- nothing it crosses rebinds, writes into or updates any name it reads, and it crosses no
  compound statement and no statement that is a bare call (such as ``np.add.at``);
- moving it keeps no more memory alive: it may keep at most one operand alive for longer,
  and then only if it is elementwise arithmetic, whose result is at least that operand's
  size (it is that operand's place the result takes).

Parameters, returned gradients, scalars and stacks are never released, and ``unreduce`` views
and ``shape_only`` placeholders hold next to nothing: keeping them alive longer costs
nothing.
"""

from __future__ import annotations

import ast

from ..codegen.printer import is_comment
from ..codegen.walk import name_counts, names_in, walk
from .purity import PURE_HELPERS, PURE_MODULES, is_pure, is_pure_call


def sink_definitions(stmts: list[ast.stmt], small: set[str]) -> tuple[list[ast.stmt], bool]:
    """``stmts`` (a backward sweep) with single-use definitions moved down to their use, and
    whether any moved; ``small`` are the names whose values are never released or hold next
    to nothing."""
    nodes = [list(names_in(stmt)) for stmt in stmts]  # (walked once for both uses)
    loads, stores = name_counts(stmts, in_place_reads=2, names=nodes)
    once = {var for var, count in stores.items() if count == 1 and loads.get(var) == 1}
    moved: list[bool] = []
    return _sink_block(stmts, once, small, moved, nodes), bool(moved)


def _sink_block(stmts: list[ast.stmt], once: set[str], small: set[str], moved: list[bool],
                nodes: list[list[ast.Name]] | None = None) -> list[ast.stmt]:
    """``nodes``: the ``Name`` nodes of each statement, if listed already."""
    for stmt in stmts:
        if isinstance(stmt, (ast.If, ast.For, ast.While)):
            stmt.body = _sink_block(stmt.body, once, small, moved)
            stmt.orelse = _sink_block(stmt.orelse, once, small, moved)
    # nothing moves past a comment: each comment's part of the block is scheduled on its own,
    # knowing only which names the parts after it read (scanning the whole block for each
    # definition made the pass quadratic in the function's length)
    parts: list[list[ast.stmt]] = [[]]
    names: list[list[set[str]]] = [[]]
    for i, stmt in enumerate(stmts):
        if is_comment(stmt) and parts[-1]:
            parts.append([])
            names.append([])
        parts[-1].append(stmt)
        names[-1].append({node.id for node in (nodes[i] if nodes is not None
                                               else names_in(stmt))})
    last_part: dict[str, int] = {}
    for index, part_names in enumerate(names):
        for read in part_names:
            last_part.update(dict.fromkeys(read, index))
    out: list[ast.stmt] = []
    for index, part in enumerate(parts):
        read_after = {var for read in names[index] for var in read if last_part[var] > index}
        out += _sink_part(part, names[index], once, small, read_after, moved)
    return out


def _sink_part(stmts: list[ast.stmt], names: list[set[str]], once: set[str], small: set[str],
               read_after: set[str], moved: list[bool]) -> list[ast.stmt]:
    """One comment's part of a block; ``read_after`` are the names read after it (moving a
    definition within it cannot make them live longer)."""
    out = list(stmts)
    for i in reversed(range(len(out))):
        target = _defined(out[i], once)
        if target is None or target in small:
            continue  # (a scalar's cotangent: nothing to gain)
        use = _reader(out, names, i, target)
        if use is not None and use > i + 1 and _worth_moving(out[i], names, i, use,
                                                             small, read_after):
            out.insert(use - 1, out.pop(i))
            names.insert(use - 1, names.pop(i))
            moved.append(True)
    return out


def _defined(stmt: ast.stmt, once: set[str]) -> str | None:
    """The name ``stmt`` defines, if it is a pure single-use definition."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id in once):
        return None
    return stmt.targets[0].id if is_pure(stmt.value) else None


def _reader(stmts: list[ast.stmt], names: list[set[str]], i: int, var: str) -> int | None:
    """Where ``var``, defined at ``i``, is read: a later statement of the same comment's
    block, with nothing in between that the definition cannot cross."""
    operands = _operands(stmts[i])
    for j in range(i + 1, len(stmts)):
        stmt = stmts[j]
        if is_comment(stmt):
            return None
        if var in names[j]:
            return j
        if _is_barrier(stmt, operands):
            return None
    return None


def _operands(stmt: ast.Assign) -> set[str]:
    return {node.id for node in names_in(stmt.value)} - PURE_MODULES - PURE_HELPERS


def _is_barrier(stmt: ast.stmt, operands: set[str]) -> bool:
    if not isinstance(stmt, (ast.Assign, ast.AugAssign)):
        return True  # compound statements, bare calls, deletions, returns
    if any(not is_pure_call(node) for node in walk(stmt) if isinstance(node, ast.Call)):
        return True  # a call that may change what it is given (or a stack)
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    written = {node.id for target in targets for node in names_in(target)}
    return bool(written & operands)


def _worth_moving(stmt: ast.Assign, names: list[set[str]], i: int, use: int, small: set[str],
                  read_after: set[str]) -> bool:
    """Moving ``stmt``, at ``i``, to just before ``use`` keeps no more memory alive."""
    longer = [var for var in _operands(stmt) - small - read_after
              if _last_read(names, var, i) < use]
    if not longer:
        return True
    return len(longer) == 1 and _is_elementwise_arithmetic(stmt.value)


def _last_read(names: list[set[str]], var: str, start: int) -> int:
    return max((j for j in range(start + 1, len(names)) if var in names[j]), default=start)


def _is_elementwise_arithmetic(expr: ast.expr) -> bool:
    """Operators on names and numbers only, no ``@``: the result broadcasts its operands."""
    return all(isinstance(node, _ARITHMETIC) and not isinstance(node, ast.MatMult)
               for node in walk(expr))


_ARITHMETIC = (ast.BinOp, ast.UnaryOp, ast.Name, ast.Constant, ast.operator, ast.unaryop,
               ast.expr_context)
