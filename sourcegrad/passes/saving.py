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
- ``"snapshot"``: a loop-local variable assigned once, first thing in the loop body: push
  it after the assignment, pop it when the reverse iteration starts (with another
  assignment later in the body, the value popped there would not be the one the iteration
  ended with);
- ``"stack"``: anything else inside a loop: push the old value before the statement, pop it
  back after the statement's adjoint.

Statements are located by *paths*: the indices leading to them through nested blocks, with
a marker before the branch index of an ``if`` so that the two branches never "run before"
each other.

Every question is asked of each overwrite, and a long function overwrites a variable many
times, each read by many statements: scanning them all per question made the pass
quadratic. The paths of the statements that assign or read each variable are kept sorted
instead (``Paths``), so that each question costs a few binary searches per level of
nesting.
"""

from __future__ import annotations

import ast
import bisect
import math
from collections.abc import Iterable
from dataclasses import dataclass

from ..codegen.walk import names_in
from .activity import is_append, stored_base, target_names, writes_in_place

BRANCH = -1  # path marker: the next index chooses the body (0) or the else (1) of an `if`

NONE, SLOT, BLOCK, SNAPSHOT, STACK = None, "slot", "block", "snapshot", "stack"

Path = tuple[int, ...]


@dataclass
class Place:
    """Where a statement sits: its path, its enclosing loops, whether it is directly in a
    loop's body (not nested in an ``if`` there)."""

    path: Path
    loops: tuple[ast.stmt, ...]
    direct_in_loop: bool


class Paths:
    """A set of statement paths, sorted: the paths inside a statement, or those that can run
    before one, form a few contiguous runs of it, found by binary search."""

    def __init__(self, paths: Iterable[Path] = ()) -> None:
        self.sorted = sorted(paths)
        self.members = set(self.sorted)

    def inside(self, outer: Path) -> int:
        """How many paths ``outer`` encloses (not counting ``outer`` itself)."""
        return (bisect.bisect_left(self.sorted, (*outer, math.inf))
                - bisect.bisect_right(self.sorted, outer))

    def any_runs_before(self, here: Path, within: int = 0) -> bool:
        """Does some path run before ``here`` (``runs_before``)? With ``within``, only
        paths sharing ``here``'s first ``within`` indices count.

        ``first`` runs before ``here`` when, at the first index where they differ, ``first``
        is smaller and the index before is not a branch marker: for each prefix of ``here``,
        the paths extending it with a smaller next index are one contiguous run."""
        for k in range(within, len(here)):
            if k > 0 and here[k - 1] == BRANCH:
                continue
            prefix = here[:k]
            if (bisect.bisect_left(self.sorted, (*prefix, here[k]))
                    > bisect.bisect_right(self.sorted, prefix)):
                return True
        return False

    def __iter__(self):
        return iter(self.sorted)


class Placement:
    """Where every statement of a function body is, and which statements assign or read
    each variable in the forward sweep (and, once ``note_adjoint_reads`` has told it, in
    the backward sweep)."""

    def __init__(self, body: list[ast.stmt], params: list[str]) -> None:
        self.params = set(params)
        self.places: dict[int, Place] = {}
        self.blocks: dict[int, list[ast.stmt]] = {}  # statement -> the block holding it
        self.statements: dict[int, ast.stmt] = {}
        self.at: dict[Path, ast.stmt] = {}  # path -> statement
        self.assignments: dict[str, list[ast.stmt]] = {}
        self.forward_readers: dict[str, list[ast.stmt]] = {}
        self.body = body
        self._index(body, (), ())
        self.assigned_at = {var: Paths(self.places[id(s)].path for s in stmts)
                            for var, stmts in self.assignments.items()}
        # per variable: each block holding a simple assignment of it -> the first such index
        self.first_simple: dict[str, dict[Path, int]] = {}
        for var, stmts in self.assignments.items():
            firsts = self.first_simple[var] = {}
            for s in stmts:
                if not isinstance(s, ast.For):
                    path = self.places[id(s)].path
                    firsts[path[:-1]] = min(firsts.get(path[:-1], path[-1]), path[-1])
        self.adjoint_readers: dict[str, Paths] = {}
        self.unplaced_readers: set[str] = set()  # read by an adjoint of no statement here

    def _index(self, stmts: list[ast.stmt], path: Path,
               loops: tuple[ast.stmt, ...], direct: bool = False) -> None:
        for i, stmt in enumerate(stmts):
            here = (*path, i)
            self.places[id(stmt)] = Place(here, loops, direct)
            self.blocks[id(stmt)] = stmts
            self.statements[id(stmt)] = stmt
            self.at[here] = stmt
            for var in forward_reads(stmt):
                self.forward_readers.setdefault(var, []).append(stmt)
            for var in assigned_names(stmt):
                self.assignments.setdefault(var, []).append(stmt)
            if isinstance(stmt, ast.If):
                self._index(stmt.body, (*here, BRANCH, 0), loops)
                self._index(stmt.orelse, (*here, BRANCH, 1), loops)
            elif isinstance(stmt, (ast.For, ast.While)):
                self._index(stmt.body, (*here, 0), (*loops, stmt), direct=True)

    def note_adjoint_reads(self, reads: dict[int, set[str]]) -> None:
        """What each statement's adjoint reads (statement id -> names), indexed by name."""
        by_var: dict[str, list[Path]] = {}
        self.unplaced_readers = set()
        for sid, names in reads.items():
            place = self.places.get(sid)
            for var in names:
                if place is None:
                    self.unplaced_readers.add(var)
                else:
                    by_var.setdefault(var, []).append(place.path)
        self.adjoint_readers = {var: Paths(paths) for var, paths in by_var.items()}

    def loops(self, stmt: ast.stmt) -> tuple[ast.stmt, ...]:
        place = self.places.get(id(stmt))
        return place.loops if place else ()

    # -- the decision ---------------------------------------------------------------------
    def save_kind(self, stmt: ast.stmt, var: str, is_slice: bool,
                  read_as: tuple[str, ...]) -> str | None:
        """How ``stmt`` must save the value of ``var`` it overwrites; ``read_as`` are the
        variables through which adjoints read that value (``var``, and for a write into
        elements, the arrays ``var`` may share memory with)."""
        place = self.places[id(stmt)]
        read_later = any(self.read_before(reader, stmt) for reader in read_as)
        if not read_later:
            return NONE  # every adjoint that reads `var` runs before this overwrite is undone
        if not place.loops:
            return SLOT if self.maybe_bound_before(stmt, var) else NONE
        loop = place.loops[-1]
        if not is_slice and self.used_only_later_in_block(stmt, var, read_as):
            return BLOCK
        if not is_slice and place.direct_in_loop and self.body_local(var, loop) and (
            self.first_in_body(stmt, var, loop) and self.assignments.get(var, []) == [stmt]
        ):
            return SNAPSHOT
        return STACK

    # -- the facts it rests on --------------------------------------------------------------
    def read_before(self, var: str, stmt: ast.stmt) -> bool:
        """Can a statement whose adjoint reads ``var`` run before ``stmt`` (so that its
        adjoint runs after ``stmt``'s)? Always, if they share a loop."""
        readers = self.adjoint_readers.get(var)
        if readers is None:
            return False
        here = self.places[id(stmt)]
        if here.loops and readers.inside(self.places[id(here.loops[0])].path):
            return True  # a reader inside the outermost loop around `stmt` shares it
        for depth in range(1, len(here.path)):
            outer = here.path[:depth]
            if outer in readers.members and isinstance(self.at.get(outer), ast.If):
                return True  # the zeros an `if`'s adjoint fills in come after its branches'
        return readers.any_runs_before(here.path)

    def may_be_made_before(self, var: str, stmt: ast.stmt) -> bool:
        """Can an assignment of ``var`` run before ``stmt``, in one pass or in an earlier
        iteration of a loop around both?"""
        here = self.places[id(stmt)]
        for made in self.assignments.get(var, []):
            there = self.places[id(made)]
            if runs_before(there.path, here.path) or set(there.loops) & set(here.loops):
                return True
        return var in self.params

    def read_after(self, var: str, stmt: ast.stmt) -> bool:
        """Can a forward read of ``var`` see what ``stmt`` did: run after it in one pass, or
        in a later iteration of a loop around both without ``var`` assigned anew first?"""
        here = self.places[id(stmt)]
        assigned = self.assigned_at.get(var)
        for reader in self.forward_readers.get(var, []):
            there = self.places[id(reader)]
            if runs_before(here.path, there.path):
                return True
            common = [loop for loop in there.loops if loop in here.loops]
            if common and not (assigned and assigned.any_runs_before(
                    there.path, within=len(self.places[id(common[-1])].path))):
                return True
        return False

    def maybe_bound_before(self, stmt: ast.stmt, var: str) -> bool:
        if var in self.params:
            return True
        assigned = self.assigned_at.get(var)
        return assigned is not None and assigned.any_runs_before(self.places[id(stmt)].path)

    def surely_bound_before(self, stmt: ast.stmt, var: str) -> bool:
        """Is ``var`` bound whenever ``stmt`` runs: a parameter, or assigned by a simple
        statement that runs before it in a block enclosing it (not in an ``if`` or a loop
        of that block)?"""
        if var in self.params:
            return True
        here = self.places[id(stmt)].path
        firsts = self.first_simple.get(var, {})
        return any(firsts.get(here[:k], math.inf) < here[k] for k in range(len(here)))

    def first_assigned_in(self, var: str) -> ast.stmt | None:
        """The top-level statement holding the first assignment of ``var``."""
        assigned = self.assigned_at.get(var)
        return self.body[assigned.sorted[0][0]] if assigned else None

    def body_local(self, var: str, loop: ast.stmt) -> bool:
        """Is every assignment of ``var`` inside ``loop``'s body?"""
        if var in self.params:
            return False
        assigned = self.assigned_at.get(var)
        return assigned is None or (
            assigned.inside(self.places[id(loop)].path) == len(assigned.sorted))

    def first_in_body(self, stmt: ast.stmt, var: str, loop: ast.stmt) -> bool:
        assigned = self.assigned_at.get(var)
        return assigned is None or not assigned.any_runs_before(
            self.places[id(stmt)].path, within=len(self.places[id(loop)].path))

    def used_only_later_in_block(self, stmt: ast.stmt, var: str,
                                 read_as: tuple[str, ...]) -> bool:
        """Is ``stmt`` the only assignment of ``var``, and is ``var`` read (forward or
        backward) only by the statements after it in the same block?"""
        if var in self.params or self.assignments.get(var, []) != [stmt]:
            return False
        if any(r in self.unplaced_readers for r in read_as):
            return False
        here = self.places[id(stmt)].path
        block, index = here[:-1], here[-1]
        paths = [*(self.places[id(s)].path for s in self.forward_readers.get(var, [])),
                 *(p for r in read_as for p in self.adjoint_readers.get(r, ()))]
        for path in paths:
            if path[: len(block)] != block or len(path) <= len(block) or (
                path[len(block)] <= index
            ):
                return False
        return True


def encloses(outer: Path, inner: Path) -> bool:
    return len(inner) > len(outer) and inner[: len(outer)] == outer


def runs_before(first: Path, second: Path) -> bool:
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
    if isinstance(stmt, ast.Expr) and writes_in_place(stmt.value):  # np.add.at(a, i, b)
        base = stored_base(stmt.value.args[0])
        return [(base, True)] if base else []
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
