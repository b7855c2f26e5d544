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
is bound and read; the rewrite runs a few rounds (an alias of an alias), each rename and
each alias dropped updating what the walk found of the names it touched (walking the
function again for the next round was a third of the pass).
"""

from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass, field

from ..codegen import printer
from ..codegen.walk import names_in, walk

_ROUNDS = 2


def drop_aliases(fdef: ast.FunctionDef) -> bool:
    """Rewrite ``fdef`` in place; did anything change?"""
    index = _index(fdef)
    parameters = {a.arg for a in [*fdef.args.posonlyargs, *fdef.args.args,
                                  *fdef.args.kwonlyargs, fdef.args.vararg, fdef.args.kwarg]
                  if a is not None}
    changed = False
    for _ in range(_ROUNDS):
        done, deferred = _one_round(index, parameters)
        changed |= done
        if not deferred:
            break
    if changed:
        for block in index.blocks:
            block.statements[:] = [s for s in block.statements
                                   if id(s) not in index.dropped and not (
                                       isinstance(s, ast.Delete) and not s.targets)] or [
                ast.Pass()]
    return changed


@dataclass(eq=False)
class _Block:
    """A block's statements and, for each (but comments), its position and the range of
    serial numbers of the statements it holds (itself first)."""

    statements: list[ast.stmt]
    ats: list[int] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)

    def position(self, serial: int) -> int | None:
        """The position of the statement of this block that holds statement ``serial``."""
        i = bisect.bisect_right(self.starts, serial) - 1
        if i >= 0 and serial < self.ends[i]:
            return self.ats[i]
        return None


@dataclass
class _Index:
    """Each name's nodes, with the serial number of the statement holding them (statements
    numbered in source order, outer ones first), and what they tell of the name, kept up to
    date as names are renamed and aliases dropped (the statements dropped stay in their
    blocks, and numbered, until the pass is done: positions stay comparable)."""

    blocks: list[_Block] = field(default_factory=list)
    nodes: dict[str, list[tuple[ast.Name, int]]] = field(default_factory=dict)
    bindings: dict[str, list[int]] = field(default_factory=dict)  # stores and ``del``s
    reads: dict[str, list[int]] = field(default_factory=dict)
    stores: dict[str, int] = field(default_factory=dict)  # bindings in the whole function
    deletes: dict[str, list[ast.Delete]] = field(default_factory=dict)
    dropped: set[int] = field(default_factory=set)  # ids of the aliases dropped
    count: int = 0  # statements numbered so far

    def positions(self, name: str, block: _Block, load: bool) -> list[int]:
        """The positions in ``block`` of the statements holding (at any depth) a read of
        ``name`` (``load``), or a binding or ``del`` of it; one per node, in order."""
        found = []
        for serial in (self.reads if load else self.bindings).get(name, ()):
            at = block.position(serial)
            if at is not None:
                found.append(at)
        return sorted(found)

    def loads(self, name: str) -> int:
        return len(self.reads.get(name, ()))

    def recount(self, name: str) -> None:
        """What the nodes of ``name`` tell of it, again."""
        reads, bindings, stores = [], [], 0
        for node, serial in self.nodes.get(name, ()):
            if isinstance(node.ctx, ast.Load):
                reads.append(serial)
            else:
                bindings.append(serial)
                stores += isinstance(node.ctx, ast.Store)
        bindings.sort()
        self.reads[name], self.bindings[name], self.stores[name] = reads, bindings, stores


def _index(fdef: ast.FunctionDef) -> _Index:
    """One walk: each name node, with its statement's serial number. (Module-level helpers,
    not closures: a recursive closure is a reference cycle, which would keep the whole tree
    alive until the cyclic collector runs.)"""
    index = _Index()
    _visit(index, fdef.body)
    for name in index.nodes:
        index.recount(name)
    return index


def _visit(index: _Index, body: list[ast.stmt]) -> None:
    """Number the statements of ``body`` (nested ones after their holder) and record their
    names."""
    block = _Block(body)
    index.blocks.append(block)
    for at, stmt in enumerate(body):
        if printer.is_comment(stmt):
            continue
        serial = index.count
        index.count += 1
        if isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    index.deletes.setdefault(target.id, []).append(stmt)
        for part in stmt._fields:
            value = getattr(stmt, part, None)
            if part in ("body", "orelse") and isinstance(value, list) and value and (
                    isinstance(value[0], ast.stmt)):
                _visit(index, value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        _record(index, item, serial)
            elif isinstance(value, ast.AST):
                _record(index, value, serial)
        block.ats.append(at)
        block.starts.append(serial)
        block.ends.append(index.count)


def _record(index: _Index, node: ast.AST, serial: int) -> None:
    nodes = index.nodes
    for name in names_in(node):
        found = nodes.get(name.id)
        if found is None:
            nodes[name.id] = [(name, serial)]
        else:
            found.append((name, serial))


def _alias(stmt: ast.stmt) -> tuple[str, str] | None:
    """``(a, b)`` of ``a = b``."""
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Name)
            and stmt.targets[0].id != stmt.value.id):
        return stmt.targets[0].id, stmt.value.id
    return None


def _one_round(index: _Index, parameters: set[str]) -> tuple[bool, bool]:
    """Drop the aliases the index shows; did it, and did it leave some (an alias of a name
    it just changed) for another round?"""
    deferred = False
    touched: set[str] = set()  # names a rewrite of this round changed: judged next round
    dropped = len(index.dropped)
    for block in index.blocks:
        for at, serial in zip(block.ats, block.starts, strict=True):
            stmt = block.statements[at]
            pair = _alias(stmt)
            if pair is None or set(pair) & parameters:
                continue
            if set(pair) & touched:
                deferred = True
                continue
            a, b = pair
            if index.stores.get(a) != 1:
                continue
            reads = index.positions(a, block, load=True)
            if not reads or reads[0] <= at or len(reads) != index.loads(a):
                continue  # read before it, or in another block
            if not _bound_within(index, block, b, at, reads[-1]):
                _rename(index, a, b)
                _undelete(index, a)
            elif not _backwards(index, block, at, a, b, parameters):
                continue
            _forget(index, stmt, serial)
            touched |= {a, b}
    return len(index.dropped) > dropped, deferred


def _forget(index: _Index, alias: ast.Assign, serial: int) -> None:
    """The alias (now ``x = x``) goes: its nodes leave the index."""
    index.dropped.add(id(alias))
    name = alias.value.id  # type: ignore[attr-defined]
    index.nodes[name] = [(n, s) for n, s in index.nodes[name] if s != serial]
    index.recount(name)


def _bound_within(index: _Index, block: _Block, name: str, start: int, end: int) -> bool:
    """Is ``name`` bound or deleted by a statement of the block after ``start``, up to
    ``end`` (a plain assignment at ``end`` itself reads before it binds)? The statements
    after ``start`` and before ``end`` hold a range of serial numbers: bisected."""
    bindings = index.bindings.get(name, [])
    first = bisect.bisect_left(block.ats, start + 1)
    last = bisect.bisect_left(block.ats, end)  # (``end`` holds a read: it is in ``ats``)
    if first < last and _any_in(bindings, block.starts[first], block.starts[last]):
        return True
    if not _any_in(bindings, block.starts[last], block.ends[last]):
        return False
    made = block.statements[end]
    return not isinstance(made, ast.Assign) or any(
        isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
        for n in walk(made.value))


def _any_in(serials: list[int], low: int, high: int) -> bool:
    """Does the sorted ``serials`` hold one in ``[low, high)``?"""
    i = bisect.bisect_left(serials, low)
    return i < len(serials) and serials[i] < high


def _backwards(index: _Index, block: _Block, at: int, a: str, b: str,
               parameters: set[str]) -> bool:
    """``b = value`` ... ``a = b`` ... ``del b`` as ``a = value`` ...: renames ``b`` in
    the statements from its binding up to the alias; did it?"""
    if b in parameters or index.stores.get(b) != 1:
        return False
    bound = index.positions(b, block, load=False)
    deletes = index.deletes.get(b, [])
    if len(bound) != 1 + len(deletes) or bound[0] >= at:
        return False
    made = block.statements[bound[0]]
    if not (isinstance(made, ast.Assign) and len(made.targets) == 1
            and isinstance(made.targets[0], ast.Name) and made.targets[0].id == b):
        return False
    if any(p <= at for p in bound[1:]):
        return False  # deleted before the alias
    reads = index.positions(b, block, load=True)
    if len(reads) != index.loads(b) or not reads or reads[0] <= bound[0] or (
            reads[-1] != at):
        return False
    bound_a = index.positions(a, block, load=False)
    if bound_a[0] != at or len(bound_a) != 1 + len(index.deletes.get(a, [])):
        return False
    _rename(index, b, a)
    _undelete(index, b)
    return True


def _rename(index: _Index, old: str, new: str) -> None:
    """Every read and binding of ``old`` names ``new`` (its ``del``s: ``_undelete``)."""
    kept, moved = [], []
    for node, serial in index.nodes.get(old, ()):
        if isinstance(node.ctx, ast.Del):
            kept.append((node, serial))
        else:
            node.id = new
            moved.append((node, serial))
    index.nodes[old] = kept
    index.nodes.setdefault(new, []).extend(moved)
    index.recount(old)
    index.recount(new)


def _undelete(index: _Index, name: str) -> None:
    """``name`` leaves each ``del`` (an empty ``del`` becomes ``pass``, which the tidying
    drops)."""
    gone = set()
    for stmt in index.deletes.pop(name, []):
        gone |= {id(t) for t in stmt.targets if isinstance(t, ast.Name) and t.id == name}
        stmt.targets = [t for t in stmt.targets if not (isinstance(t, ast.Name)
                                                        and t.id == name)]
    if gone:
        index.nodes[name] = [(n, s) for n, s in index.nodes.get(name, ()) if id(n) not in gone]
        index.recount(name)
