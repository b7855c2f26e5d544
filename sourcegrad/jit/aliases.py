"""In a specialised variant (NumPy path): no second name for one value where a careful person
would not write one.

The reverse pass names each operand's cotangent, and where the shapes settle that it is the
cotangent of the whole expression (``unbroadcast(g, x)`` is ``g``), the specialised code
holds ``grad_a = grad_b``: one array under two names. Where that is certain to change
nothing, the second name goes:

- forwards, ``grad_a = grad_b`` then reads of ``grad_a`` become reads of ``grad_b``, where
  ``grad_a`` is bound by that statement only, read only after it in its block, and
  ``grad_b`` is neither rebound nor deleted before the last of those reads;
- backwards, ``grad_b = <value>`` ... ``grad_a = grad_b`` ... ``del grad_b`` becomes
  ``grad_a = <value>`` ..., where ``grad_b`` is bound by its statement only (in the same
  block), read only up to the alias, and deleted only after it.

Neither applies to parameters. A ``del`` of the name that goes is dropped: the value lives
as long as the other name does, as it did. One walk of the function finds where each name
is bound and read; the rewrite runs a few rounds (an alias of an alias).
"""

from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass, field

from ..codegen import printer
from ..codegen.walk import walk

_ROUNDS = 3


def drop_aliases(fdef: ast.FunctionDef) -> bool:
    """Rewrite ``fdef`` in place; did anything change?"""
    changed = False
    for _ in range(_ROUNDS):
        if not _one_round(fdef):
            break
        changed = True
    return changed


@dataclass
class _Block:
    statements: list[ast.stmt]
    bound: dict[str, list[int]] = field(default_factory=dict)  # name -> positions (sorted)
    read: dict[str, list[int]] = field(default_factory=dict)


@dataclass
class _Index:
    """Where each name is bound, deleted and read, by block and position."""

    blocks: list[_Block] = field(default_factory=list)
    stores: dict[str, int] = field(default_factory=dict)  # bindings in the whole function
    loads: dict[str, int] = field(default_factory=dict)
    deletes: dict[str, list[ast.Delete]] = field(default_factory=dict)


def _index(fdef: ast.FunctionDef) -> _Index:
    index = _Index()
    for node in walk(fdef):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                index.loads[node.id] = index.loads.get(node.id, 0) + 1
            elif isinstance(node.ctx, ast.Store):
                index.stores[node.id] = index.stores.get(node.id, 0) + 1
        elif isinstance(node, ast.Delete):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    index.deletes.setdefault(target.id, []).append(node)

    def visit(body: list[ast.stmt]) -> None:
        """Each block's names, by the position of the statement of the block (at any
        depth in it) that binds or reads them."""
        block = _Block(body)
        index.blocks.append(block)
        for at, stmt in enumerate(body):
            if printer.is_comment(stmt):
                continue
            for node in walk(stmt):
                if isinstance(node, ast.Name):
                    where = block.read if isinstance(node.ctx, ast.Load) else block.bound
                    where.setdefault(node.id, []).append(at)
            for name in ("body", "orelse"):
                inner = getattr(stmt, name, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    visit(inner)

    visit(fdef.body)
    return index


def _alias(stmt: ast.stmt) -> tuple[str, str] | None:
    """``(a, b)`` of ``a = b``."""
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Name)
            and stmt.targets[0].id != stmt.value.id):
        return stmt.targets[0].id, stmt.value.id
    return None


def _one_round(fdef: ast.FunctionDef) -> bool:
    index = _index(fdef)
    parameters = {a.arg for a in [*fdef.args.posonlyargs, *fdef.args.args,
                                  *fdef.args.kwonlyargs, fdef.args.vararg, fdef.args.kwarg]
                  if a is not None}
    touched: set[str] = set()  # names a rewrite of this round changed: judged next round
    dropped: set[int] = set()
    for block in index.blocks:
        for at, stmt in enumerate(block.statements):
            pair = _alias(stmt)
            if pair is None or set(pair) & (parameters | touched):
                continue
            a, b = pair
            if index.stores.get(a) != 1:
                continue
            reads = block.read.get(a, [])
            if not reads or reads[0] <= at or len(reads) != index.loads.get(a, 0):
                continue  # read before it, or in another block
            last = reads[-1]
            if not _bound_within(block, b, at, last):
                _rename(block.statements[at + 1:last + 1], a, b)
                _undelete(index, a)
            elif not _backwards(index, block, at, a, b, parameters):
                continue
            dropped.add(id(stmt))
            touched |= {a, b}
    if not dropped:
        return False
    for block in index.blocks:
        block.statements[:] = [s for s in block.statements if id(s) not in dropped and not (
            isinstance(s, ast.Delete) and not s.targets)] or [ast.Pass()]
    return True


def _bound_within(block: _Block, name: str, start: int, end: int) -> bool:
    """Is ``name`` bound or deleted by a statement of the block after ``start``, up to
    ``end`` (a plain assignment at ``end`` itself reads before it binds)?"""
    positions = block.bound.get(name, [])
    i = bisect.bisect_right(positions, start)
    while i < len(positions) and positions[i] <= end:
        if positions[i] < end:
            return True
        last = block.statements[end]
        if not isinstance(last, ast.Assign) or any(
                isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
                for n in walk(last.value)):
            return True
        i += 1
    return False


def _backwards(index: _Index, block: _Block, at: int, a: str, b: str,
               parameters: set[str]) -> bool:
    """``b = value`` ... ``a = b`` ... ``del b`` as ``a = value`` ...: renames ``b`` in
    the statements from its binding up to the alias; did it?"""
    if b in parameters or index.stores.get(b) != 1:
        return False
    bound = block.bound.get(b, [])
    deletes = index.deletes.get(b, [])
    if len(bound) != 1 + len(deletes) or bound[0] >= at:
        return False
    made = block.statements[bound[0]]
    if not (isinstance(made, ast.Assign) and len(made.targets) == 1
            and isinstance(made.targets[0], ast.Name) and made.targets[0].id == b):
        return False
    if any(p <= at for p in bound[1:]):
        return False  # deleted before the alias
    reads = block.read.get(b, [])
    if len(reads) != index.loads.get(b, 0) or not reads or reads[0] <= bound[0] or (
            reads[-1] != at):
        return False
    if block.bound.get(a, []) != [at] and not _only_deletes_after(block, a, at, index):
        return False
    _rename(block.statements[bound[0]:at], b, a)
    _undelete(index, b)
    return True


def _only_deletes_after(block: _Block, name: str, at: int, index: _Index) -> bool:
    positions = block.bound.get(name, [])
    return positions[0] == at and len(positions) == 1 + len(index.deletes.get(name, []))


def _rename(statements: list[ast.stmt], old: str, new: str) -> None:
    for stmt in statements:
        for node in walk(stmt):
            if isinstance(node, ast.Name) and node.id == old and not isinstance(
                    node.ctx, ast.Del):
                node.id = new


def _undelete(index: _Index, name: str) -> None:
    """``name`` leaves each ``del`` (an empty ``del`` becomes ``pass``, which the tidying
    drops)."""
    for stmt in index.deletes.get(name, []):
        stmt.targets = [t for t in stmt.targets if not (isinstance(t, ast.Name)
                                                        and t.id == name)]
