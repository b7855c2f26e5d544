"""To-be-recorded analysis: which overwritten values the backward sweep needs back, and how
to keep them.

The backward sweep reads primal values (a rule's inputs and output). A statement that
overwrites a value some *earlier* statement's adjoint still needs must save it first. How:

- ``None``: nothing to save (the value is never read by an adjoint that runs later, or the
  variable was unbound before the statement);
- ``"slot"``: outside loops, keep the old value in one variable (``x_old = x``) and put it
  back after the statement's adjoint;
- ``"block"``: a value assigned once, inside a loop, read only by the statements after it
  in its block: push it right after it is computed, pop it when the backward sweep enters
  the block;
- ``"snapshot"``: a loop-local variable assigned first thing in the loop body: push it
  after the assignment, pop it when the reverse iteration starts;
- ``"stack"``: anything else inside a loop: push the old value before the statement, pop it
  back after the statement's adjoint.

Statements are located by *paths*: the indices leading to them through nested blocks, with
a marker before the branch index of an ``if`` so that the two branches never "run before"
each other.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..codegen.walk import names_in
from .activity import is_add_at, is_append, stored_base, target_names

BRANCH = -1  # path marker: the next index chooses the body (0) or the else (1) of an `if`

NONE, SLOT, BLOCK, SNAPSHOT, STACK = None, "slot", "block", "snapshot", "stack"


@dataclass
class Place:
    """Where a statement sits: its path, its enclosing loops, whether it is directly in a
    loop's body (not nested in an ``if`` there)."""

    path: tuple[int, ...]
    loops: tuple[ast.stmt, ...]
    direct_in_loop: bool


class Placement:
    """Where every statement of a function body is, and which statements assign or read
    each variable in the forward sweep."""

    def __init__(self, body: list[ast.stmt], params: list[str]) -> None:
        self.params = set(params)
        self.places: dict[int, Place] = {}
        self.blocks: dict[int, list[ast.stmt]] = {}  # statement -> the block holding it
        self.statements: dict[int, ast.stmt] = {}
        self.assignments: dict[str, list[ast.stmt]] = {}
        self.forward_readers: dict[str, list[ast.stmt]] = {}
        self.body = body
        self._index(body, (), ())

    def _index(self, stmts: list[ast.stmt], path: tuple[int, ...],
               loops: tuple[ast.stmt, ...], direct: bool = False) -> None:
        for i, stmt in enumerate(stmts):
            here = (*path, i)
            self.places[id(stmt)] = Place(here, loops, direct)
            self.blocks[id(stmt)] = stmts
            self.statements[id(stmt)] = stmt
            for var in forward_reads(stmt):
                self.forward_readers.setdefault(var, []).append(stmt)
            for var in assigned_names(stmt):
                self.assignments.setdefault(var, []).append(stmt)
            if isinstance(stmt, ast.If):
                self._index(stmt.body, (*here, BRANCH, 0), loops)
                self._index(stmt.orelse, (*here, BRANCH, 1), loops)
            elif isinstance(stmt, (ast.For, ast.While)):
                self._index(stmt.body, (*here, 0), (*loops, stmt), direct=True)

    def loops(self, stmt: ast.stmt) -> tuple[ast.stmt, ...]:
        place = self.places.get(id(stmt))
        return place.loops if place else ()

    # -- the decision ---------------------------------------------------------------------
    def save_kind(self, stmt: ast.stmt, var: str, is_slice: bool,
                  readers: list[int]) -> str | None:
        """How ``stmt`` must save the value of ``var`` it overwrites; ``readers`` are the
        ids of the statements whose adjoint reads ``var``."""
        place = self.places[id(stmt)]
        read_later = any(self.read_before(reader, stmt) for reader in readers)
        if not read_later:
            return NONE  # every adjoint that reads `var` runs before this overwrite is undone
        if not place.loops:
            return SLOT if self.maybe_bound_before(stmt, var) else NONE
        loop = place.loops[-1]
        if not is_slice and self.used_only_later_in_block(stmt, var, readers):
            return BLOCK
        if not is_slice and place.direct_in_loop and self.body_local(var, loop) and (
            self.first_in_body(stmt, var, loop)
        ):
            return SNAPSHOT
        return STACK

    # -- the facts it rests on --------------------------------------------------------------
    def read_before(self, reader: int, stmt: ast.stmt) -> bool:
        """Can the statement ``reader`` run before ``stmt`` (so that its adjoint runs after
        ``stmt``'s)? Always, if they share a loop."""
        place = self.places.get(reader)
        here = self.places[id(stmt)]
        if place is None:
            return False
        if set(map(id, place.loops)) & set(map(id, here.loops)):
            return True
        if isinstance(self.statements[reader], ast.If) and encloses(place.path, here.path):
            return True  # the zeros an `if`'s adjoint fills in come after its branches'
        return runs_before(place.path, here.path)

    def maybe_bound_before(self, stmt: ast.stmt, var: str) -> bool:
        if var in self.params:
            return True
        here = self.places[id(stmt)].path
        return any(runs_before(self.places[id(s)].path, here)
                   for s in self.assignments.get(var, []) if s is not stmt)

    def surely_bound_before(self, stmt: ast.stmt, var: str) -> bool:
        """Is ``var`` bound whenever ``stmt`` runs: a parameter, or assigned by a simple
        statement that runs before it in a block enclosing it (not in an ``if`` or a loop
        of that block)?"""
        if var in self.params:
            return True
        here = self.places[id(stmt)].path
        for s in self.assignments.get(var, []):
            path = self.places[id(s)].path
            if not isinstance(s, ast.For) and len(path) <= len(here) and (
                path[:-1] == here[: len(path) - 1] and path[-1] < here[len(path) - 1]
            ):
                return True
        return False

    def first_assigned_in(self, var: str) -> ast.stmt | None:
        """The top-level statement holding the first assignment of ``var``."""
        paths = [self.places[id(s)].path for s in self.assignments.get(var, [])]
        return self.body[min(paths)[0]] if paths else None

    def body_local(self, var: str, loop: ast.stmt) -> bool:
        """Is every assignment of ``var`` inside ``loop``'s body?"""
        if var in self.params:
            return False
        loop_path = self.places[id(loop)].path
        return all(self.places[id(s)].path[: len(loop_path)] == loop_path and s is not loop
                   for s in self.assignments.get(var, []))

    def first_in_body(self, stmt: ast.stmt, var: str, loop: ast.stmt) -> bool:
        loop_path = self.places[id(loop)].path
        here = self.places[id(stmt)].path
        return not any(
            runs_before(self.places[id(s)].path, here)
            and self.places[id(s)].path[: len(loop_path)] == loop_path
            for s in self.assignments.get(var, []) if s is not stmt
        )

    def used_only_later_in_block(self, stmt: ast.stmt, var: str, readers: list[int]) -> bool:
        """Is ``stmt`` the only assignment of ``var``, and is ``var`` read (forward or
        backward) only by the statements after it in the same block?"""
        if var in self.params or self.assignments.get(var, []) != [stmt]:
            return False
        here = self.places[id(stmt)].path
        block, index = here[:-1], here[-1]
        statements = [*self.forward_readers.get(var, []),
                      *(self.statements.get(sid) for sid in readers)]
        for reader in statements:
            if reader is None:
                return False
            path = self.places[id(reader)].path
            if path[: len(block)] != block or len(path) <= len(block) or (
                path[len(block)] <= index
            ):
                return False
        return True


def encloses(outer: tuple[int, ...], inner: tuple[int, ...]) -> bool:
    return len(inner) > len(outer) and inner[: len(outer)] == outer


def runs_before(first: tuple[int, ...], second: tuple[int, ...]) -> bool:
    """Can the statement at ``first`` run before the one at ``second`` in one pass through
    the code (ignoring loops)? Not if they sit in the two branches of one ``if``, nor if
    ``first`` encloses ``second``."""
    for k, (a, b) in enumerate(zip(first, second, strict=False)):
        if a != b:
            if k > 0 and first[k - 1] == BRANCH:
                return False
            return a < b
    return False


def overwrites(stmt: ast.stmt) -> list[tuple[str, bool]]:
    """The variables ``stmt`` overwrites, each with whether only a slice of it changes."""
    if isinstance(stmt, ast.Assign):
        target = stmt.targets[0]
        if isinstance(target, ast.Subscript):
            return [(stored_base(target), True)]
        return [(v, False) for v in sorted(target_names(target))]
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Subscript):
        return [(stored_base(stmt.target), True)]
    if isinstance(stmt, ast.Expr) and is_add_at(stmt.value) and isinstance(
            stmt.value.args[0], ast.Name):
        return [(stmt.value.args[0].id, True)]
    return []


def assigned_names(stmt: ast.AST) -> set[str]:
    if isinstance(stmt, ast.Assign):
        out: set[str] = set()
        for t in stmt.targets:
            out |= target_names(t)
        return out
    if isinstance(stmt, ast.AugAssign):
        return {stored_base(stmt.target)}
    if isinstance(stmt, ast.For):
        return target_names(stmt.target)
    if is_append(stmt):
        return set()
    return set()


def forward_reads(stmt: ast.stmt) -> set[str]:
    """Names a statement reads in the forward sweep (a compound statement: its header)."""
    if isinstance(stmt, ast.If):
        roots: list[ast.AST] = [stmt.test]
    elif isinstance(stmt, ast.While):
        roots = [stmt.test]
    elif isinstance(stmt, ast.For):
        roots = [stmt.iter]
    else:
        roots = [stmt]
    return {n.id for root in roots for n in names_in(root) if isinstance(n.ctx, ast.Load)}
