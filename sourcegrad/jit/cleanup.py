"""After specialisation: drop what the specialised code no longer reads, turn stacks of
known shape into preallocated arrays, and spell what Numba does not compile as it does.

- A value kept only for its shape (``x = shape_only(x)``, pushed on a stack, popped in the
  backward sweep) is read by nothing once the helpers that asked for its shape are gone:
  liveness (``_Liveness``, over the structured code, loops to a fixed point) finds the
  assignments nobody reads, and a stack that is only made, pushed and popped goes with its
  pushes and pops.
- For Numba, a stack of numbers (or of arrays a ufunc computes) pushed once per iteration
  of a ``for`` loop over ``range(n)`` and popped once per iteration of the ``reversed``
  loop over the same range becomes an array made before the loop and indexed by the loop
  variable (other stacks of arrays stay lists: Numba keeps those at no cost).
- On the NumPy path, the steps a backward loop keeps for its weight products become
  arrays of all steps, multiplied once after the loop, where the trip count and the steps'
  shapes are known (``step_arrays.py``); a second name for one value goes (``aliases.py``);
  results go into memory nothing else reads (``reuse.py``).
- For Numba: no ``del`` (it refuses the statement; it frees arrays when their last
  reference goes), and ``reversed(range(...))`` becomes a decreasing ``range``.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..codegen import printer
from ..codegen.clone import clone
from ..codegen.walk import blocks, names_in, statements, walk
from ..passes.shape_only import WHY as SHAPE_ONLY_NOTE
from . import abstract as a
from .abstract import Abstract, Array, Number
from .aliases import drop_aliases
from .reuse import reuse_memory
from .seed_ones import drop_products_with_ones
from .squares import fold_squares
from .step_arrays import Context as StepsContext
from .step_arrays import emptied_list, preallocate_steps

TRIP_COUNT = "sourcegrad_trip_count"  # on a specialised ``for``: its length, if known


@dataclass
class Facts:
    """What the specialiser learnt that the tidying needs."""

    stack_items: dict[str, Abstract] = field(default_factory=dict)  # what each list holds
    pure_calls: Callable[[ast.Call], bool] = lambda call: False
    elementwise_calls: Callable[[ast.Call], bool] = lambda call: False  # ufuncs, math
    ufunc_calls: Callable[[ast.Call], bool] = lambda call: False  # one output, all inputs
    resolve: Callable[[str], object] = lambda name: None  # what a name the code reads denotes
    # what is known of each expression the specialiser wrote (by id, with the node itself)
    known: dict[int, tuple[ast.AST, Abstract]] = field(default_factory=dict)


def tidy(fdef: ast.FunctionDef, facts: Facts, numba: bool, np_name: str) -> None:
    # one liveness pass finds every dead assignment (a dead one's reads make nothing live),
    # unless dropping them emptied a loop (whose range was read) or a stack went: then again
    again = True
    while again:
        again = _remove_dead(fdef, facts, numba) == _LOOP_DROPPED
        again |= _remove_dead_stacks(fdef, facts)
    if numba:
        _preallocate_stacks(fdef, facts, np_name)
        numba_spelling(fdef)
        while _substitute_single_uses(fdef, facts):
            pass
    else:
        changed = preallocate_steps(fdef, steps_context(facts, np_name))
        changed |= drop_products_with_ones(fdef, facts.known, facts.ufunc_calls, np_name)
        changed |= fold_squares(fdef)
        # a second name gone makes no assignment dead (the value is read as before, under
        # the other name), but a stack that was read only through an alias may be just
        # made, pushed and popped now: the liveness pass runs again only if that happened
        # (or steps were rewritten), it being the longest part of the tidying
        if drop_aliases(fdef) and not changed:
            changed = _remove_dead_stacks(fdef, facts)
        if changed:
            while _remove_dead(fdef, facts) | _remove_dead_stacks(fdef, facts):
                pass
        _release_last_steps(fdef, facts)
    _edit(fdef, lambda stmt: None if _keeps_own_shape(stmt) and not _keeps_shape(stmt)
          else stmt)  # ``x = x``, what ``x = shape_only(x)`` became where ``x`` is still read
    fdef.body = _joined_deletes(_without_stray_comments(fdef.body))
    if not numba:
        reuse_memory(fdef, facts.known, facts.ufunc_calls, np_name)


def steps_context(facts: Facts, np_name: str) -> StepsContext:
    return StepsContext(facts.known, facts.stack_items, facts.resolve, facts.ufunc_calls,
                        np_name)


def _joined_deletes(body: list[ast.stmt]) -> list[ast.stmt]:
    """``del a`` then ``del b`` as ``del a, b``, in every block."""
    out: list[ast.stmt] = []
    for stmt in body:
        _rewrite_blocks(stmt, _joined_deletes)
        if isinstance(stmt, ast.Delete) and out and isinstance(out[-1], ast.Delete):
            out[-1].targets += stmt.targets
            continue
        out.append(stmt)
    return out


def _without_stray_comments(body: list[ast.stmt]) -> list[ast.stmt]:
    """Comments left with nothing to introduce: followed by another comment or by the end
    of their block, and the note on ``shape_only`` once no value is kept for its shape."""
    out: list[ast.stmt] = []
    for i, stmt in enumerate(body):
        for name in ("body", "orelse"):
            block = getattr(stmt, name, None)
            if isinstance(block, list) and block:
                setattr(stmt, name, _without_stray_comments(block) or [ast.Pass()])
        if printer.is_comment(stmt):
            following = body[i + 1] if i + 1 < len(body) else None
            if following is None or printer.is_comment(following):
                continue
            if stmt.value.value.endswith(SHAPE_ONLY_NOTE) and not _keeps_shape(  # type: ignore[attr-defined]
                    following):
                continue
        out.append(stmt)
    return out


def _keeps_shape(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and isinstance(
        stmt.value.func, ast.Name) and stmt.value.func.id.startswith("shape_only")


# -- liveness --------------------------------------------------------------------------------
def _loads(node: ast.AST | None) -> set[str]:
    if node is None:
        return set()
    return {n.id for n in names_in(node) if isinstance(n.ctx, ast.Load)}


def _stores(target: ast.expr) -> set[str]:
    """Names a target binds (not those it indexes into)."""
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Tuple | ast.List):
        return set().union(*[_stores(t) for t in target.elts]) if target.elts else set()
    if isinstance(target, ast.Starred):
        return _stores(target.value)
    return set()


def _target_loads(target: ast.expr) -> set[str]:
    """Names a target reads (an indexed array, its index)."""
    if isinstance(target, ast.Subscript | ast.Attribute):
        return _loads(target.value) | _loads(getattr(target, "slice", None)) | (
            {target.value.id} if isinstance(target.value, ast.Name) else set())
    if isinstance(target, ast.Tuple | ast.List):
        return set().union(*[_target_loads(t) for t in target.elts]) if target.elts else set()
    return set()


@dataclass
class _Frame:
    after: int  # the mark at which live is what is live after the loop (``break``)
    head: int  # the mark at which live is what is live at the loop's head (``continue``)


class _Live:
    """The set of live names, changed in place statement by statement, with a journal of
    the changes so that both branches of an ``if`` start from what is live after it at the
    cost of what they change (copying the set for each branch made liveness quadratic in a
    long function: most names are live across most branches)."""

    def __init__(self, names: set[str] | None = None) -> None:
        self.names: set[str] = set(names or ())
        self._journal: list[tuple[str, bool]] = []  # (name, was it live before)

    def add(self, name: str) -> None:
        if name not in self.names:
            self._journal.append((name, False))
            self.names.add(name)

    def discard(self, name: str) -> None:
        if name in self.names:
            self._journal.append((name, True))
            self.names.discard(name)

    def update(self, names: set[str]) -> None:
        for name in names:
            self.add(name)

    def replace(self, names: set[str]) -> None:
        """Live: exactly ``names`` (before a ``return``)."""
        for name in [n for n in self.names if n not in names]:
            self.discard(name)
        self.update(names)

    def mark(self) -> int:
        return len(self._journal)

    def changes_since(self, mark: int) -> dict[str, bool]:
        """Each name changed since ``mark``: is it live now?"""
        return {name: name in self.names for name, _ in self._journal[mark:]}

    def live_at(self, mark: int) -> dict[str, bool]:
        """Each name changed since ``mark``: was it live at ``mark``?"""
        first: dict[str, bool] = {}
        for name, was in self._journal[mark:]:
            first.setdefault(name, was)
        return first

    def restore(self, mark: int) -> None:
        """Live: what was live at ``mark`` (where a ``break`` or ``continue`` goes), by
        changes of its own (which an enclosing ``if`` undoes as it does any other)."""
        for name, was in self.live_at(mark).items():
            if was:
                self.add(name)
            else:
                self.discard(name)

    def undo(self, mark: int) -> None:
        """Back to what was live at ``mark``."""
        for name, was in reversed(self._journal[mark:]):
            if was:
                self.names.add(name)
            else:
                self.names.discard(name)
        del self._journal[mark:]


class _Liveness:
    """Which variables are live where; records the assignments nobody reads (and, with
    ``keep_live_after``, what is live after each statement)."""

    def __init__(self, facts: Facts, keep_live_after: bool | set[int] = False) -> None:
        self.facts = facts
        self.recording = True
        # what is live after every statement (``True``), or after those of these ids only:
        # a copy of the live set a statement is quadratic in a long function
        self.keep_live_after = keep_live_after
        self.dead: set[int] = set()  # assignments to drop
        self.unread_pops: set[int] = set()  # ``y = s.pop()`` with ``y`` unread: ``s.pop()``
        self.frames: list[_Frame] = []
        self.live_after: dict[int, set[str]] = {}  # statement -> live just after it

    def block(self, body: list[ast.stmt], live: _Live) -> None:
        """Changes ``live`` (live after ``body``) into what is live before it."""
        for stmt in reversed(body):
            self.statement(stmt, live)

    def statement(self, stmt: ast.stmt, live: _Live) -> None:
        if printer.is_comment(stmt):
            return
        if self.recording and self.keep_live_after and (
                self.keep_live_after is True or id(stmt) in self.keep_live_after):
            self.live_after[id(stmt)] = set(live.names)
        if isinstance(stmt, ast.Assign):
            self.assignment(stmt, live)
        elif isinstance(stmt, ast.AugAssign):
            live.update(_loads(stmt.value) | _loads(stmt.target) | _stores(stmt.target)
                        | _target_loads(stmt.target))
        elif isinstance(stmt, ast.Return):
            live.replace(_loads(stmt.value))
        elif isinstance(stmt, ast.Break):
            if self.frames:
                live.restore(self.frames[-1].after)
        elif isinstance(stmt, ast.Continue):
            if self.frames:
                live.restore(self.frames[-1].head)
        elif isinstance(stmt, ast.If):
            self.branches(stmt, live)
        elif isinstance(stmt, ast.For | ast.While):
            self.loop(stmt, live)
        elif not isinstance(stmt, ast.Delete):
            live.update(_loads(stmt))

    def branches(self, stmt: ast.If, live: _Live) -> None:
        """Live before the ``if``: its test's reads, and what is live before either branch
        (each walked from what is live after the ``if``, then undone)."""
        mark = live.mark()
        self.block(stmt.body, live)
        body = live.changes_since(mark)
        live.undo(mark)
        self.block(stmt.orelse, live)
        orelse = live.changes_since(mark)
        live.undo(mark)
        for name in body.keys() | orelse.keys():
            after = name in live.names
            if body.get(name, after) or orelse.get(name, after):
                live.add(name)
            else:
                live.discard(name)
        live.update(_loads(stmt.test))

    def assignment(self, stmt: ast.Assign, live: _Live) -> None:
        stored = set().union(*[_stores(t) for t in stmt.targets])
        only_names = all(isinstance(t, ast.Name) for t in stmt.targets)
        if only_names and stored.isdisjoint(live.names):
            if self._removable(stmt.value):
                if self.recording:
                    self.dead.add(id(stmt))
                return
            if _is_pop(stmt.value):
                if self.recording:
                    self.unread_pops.add(id(stmt))
                live.update(_loads(stmt.value))
                return
        reads = _loads(stmt.value) | set().union(*[_target_loads(t) for t in stmt.targets])
        for name in stored:
            live.discard(name)
        live.update(reads)

    def _removable(self, value: ast.expr) -> bool:
        if isinstance(value, ast.Name | ast.Constant):
            return True
        if isinstance(value, ast.Attribute):
            return self._removable(value.value)
        if isinstance(value, ast.Tuple):
            return all(self._removable(e) for e in value.elts)
        # arithmetic on values the code made: what it could raise was raised when they were
        if isinstance(value, ast.BinOp):
            return self._removable(value.left) and self._removable(value.right)
        if isinstance(value, ast.UnaryOp):
            return self._removable(value.operand)
        if isinstance(value, ast.Compare):
            return all(self._removable(e) for e in [value.left, *value.comparators])
        if isinstance(value, ast.List):
            return not value.elts
        if isinstance(value, ast.Call):
            return self.facts.pure_calls(value) and all(
                self._removable(x) for x in [*value.args, *[k.value for k in value.keywords]])
        return False

    def loop(self, stmt: ast.For | ast.While, live: _Live) -> None:
        """Live at the loop's head, to a fixed point: each pass walks the body in place from
        the head, and is undone; the head changes only for the names a pass changed (and
        the loop's variable), so that a loop costs what its body does, not a copy of
        everything live around it."""
        after = live.mark()
        if stmt.orelse:
            self.block(stmt.orelse, live)
        bound = _stores(stmt.target) if isinstance(stmt, ast.For) else set()
        live.update(_loads(stmt.test) if isinstance(stmt, ast.While) else set())
        first = live.mark()  # live: what is live at the loop's exit, and its test's reads
        recording, self.recording = self.recording, False
        while self.head_changed(stmt, live, after, first, bound):
            pass
        self.recording = recording
        if recording:
            head = live.mark()
            self.loop_body(stmt, live, after, head)
            live.undo(head)
        live.update(_loads(stmt.iter) if isinstance(stmt, ast.For) else set())

    def head_changed(self, stmt: ast.For | ast.While, live: _Live, after: int, first: int,
                     bound: set[str]) -> bool:
        """One pass: live at the head becomes what is live at the exit, the test's reads,
        and what is live at the body's top but the loop's variable. Did it change?"""
        head = live.mark()
        self.loop_body(stmt, live, after, head)
        body = live.changes_since(head)
        live.undo(head)
        at_first = live.live_at(first)
        changed = False
        for name in body.keys() | bound:
            now = name in live.names
            live_at_exit = at_first.get(name, now)
            if live_at_exit or (body.get(name, now) and name not in bound):
                changed |= not now
                live.add(name)
            else:
                changed |= now
                live.discard(name)
        return changed

    def loop_body(self, stmt: ast.For | ast.While, live: _Live, after: int, head: int) -> None:
        self.frames.append(_Frame(after, head))
        self.block(stmt.body, live)
        self.frames.pop()


def _is_pop(value: ast.expr) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and (
        value.func.attr == "pop" and isinstance(value.func.value, ast.Name)
        and not value.args and not value.keywords)


_LOOP_DROPPED = "a loop went"


def _remove_dead(fdef: ast.FunctionDef, facts: Facts, numba: bool = False) -> bool | str:
    """Drop the assignments nobody reads: ``False`` if there were none, ``_LOOP_DROPPED``
    if a loop left with nothing to do went too (what it read may be dead now)."""
    liveness = _Liveness(facts)
    liveness.block(fdef.body, _Live())
    if not liveness.dead and not liveness.unread_pops:
        return False

    # a ``del`` of a name whose assignment goes would fail on the path that made it: the
    # name leaves the ``del`` (at worst, a value kept elsewhere is freed later)
    unbound = {name for stmt in statements(fdef) if id(stmt) in liveness.dead
               and isinstance(stmt, ast.Assign) for t in stmt.targets for name in _stores(t)}
    released = set() if numba else _releases(fdef, liveness.dead)

    def edit(stmt: ast.stmt) -> ast.stmt | None:
        if id(stmt) in released:
            assert isinstance(stmt, ast.Assign)
            return ast.copy_location(ast.Delete(targets=[ast.Name(
                id=stmt.targets[0].id, ctx=ast.Del())]), stmt)  # type: ignore[attr-defined]
        if id(stmt) in liveness.dead:
            return None
        if id(stmt) in liveness.unread_pops:
            assert isinstance(stmt, ast.Assign)
            return ast.copy_location(ast.Expr(value=stmt.value), stmt)
        if isinstance(stmt, ast.Delete) and unbound:
            kept = [t for t in stmt.targets if not (isinstance(t, ast.Name) and t.id in unbound)]
            if not kept:
                return None
            stmt.targets = kept
        return stmt

    return _LOOP_DROPPED if _edit(fdef, edit) else True


def _releases(fdef: ast.FunctionDef, dead: set[int]) -> set[int]:
    """The dead ``x = shape_only(x)`` of the function's own body that become ``del x``:
    the general code let the elements of ``x`` go there, and the specialised code, which
    no longer reads even its shape, should not keep them longer (only where no other
    statement binds or deletes ``x``, so that the ``del`` cannot fail)."""
    releases = {id(s): s.targets[0].id for s in fdef.body  # type: ignore[attr-defined]
                if id(s) in dead and _keeps_own_shape(s)}
    if not releases:
        return set()
    counts: dict[str, int] = {}
    for node in names_in(fdef):
        if not isinstance(node.ctx, ast.Load):
            counts[node.id] = counts.get(node.id, 0) + 1
    made_by_dead = {name for stmt in statements(fdef) if id(stmt) in dead
                    and id(stmt) not in releases
                    and isinstance(stmt, ast.Assign) for t in stmt.targets
                    for name in _stores(t)}
    # bound once where it is made (a statement that stays), and once by the release itself
    return {i for i, name in releases.items()
            if counts.get(name, 0) == 2 and name not in made_by_dead}


def _keeps_own_shape(stmt: ast.stmt) -> bool:
    """``x = shape_only(x)``, or ``x = x`` as the specialiser leaves it."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)):
        return False
    name, value = stmt.targets[0].id, stmt.value
    if _keeps_shape(stmt):
        assert isinstance(value, ast.Call)
        value = value.args[0] if len(value.args) == 1 and not value.keywords else None
    return isinstance(value, ast.Name) and value.id == name


def _edit(fdef: ast.FunctionDef, edit: Callable[[ast.stmt], ast.stmt | None]) -> bool:
    """Each statement of ``fdef`` replaced by ``edit(stmt)`` (``None``: dropped), then its
    blocks in turn; a loop whose work is all dropped goes too. Did one?"""
    dropped = []

    def rewrite(body: list[ast.stmt]) -> list[ast.stmt]:
        out = []
        for stmt in body:
            new = edit(stmt)
            if new is not None:
                _rewrite_blocks(new, rewrite)
                out.append(new)
        kept = _drop_idle_loops(out)
        if len(kept) < len(out):
            dropped.append(True)
        return kept

    fdef.body = rewrite(fdef.body)
    rewrite = None  # type: ignore[assignment]  # (it refers to itself: a cycle holding
    # ``edit``'s world, which only the cyclic collector would free)
    return bool(dropped)


def _rewrite_blocks(stmt: ast.stmt, rewrite: Callable[[list[ast.stmt]], list[ast.stmt]]
                    ) -> None:
    for name in ("body", "orelse"):
        block = getattr(stmt, name, None)
        if isinstance(block, list) and block:
            setattr(stmt, name, rewrite(block) or [ast.Pass()])


def _drop_idle_loops(body: list[ast.stmt]) -> list[ast.stmt]:
    """A ``for`` over a range whose body does nothing (all its work was dropped) goes too,
    with the comments that introduced it."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.For) and not stmt.orelse and _idle(stmt.body) and (
                _is_range(stmt.iter)):
            while out and printer.is_comment(out[-1]):
                out.pop()
            continue
        out.append(stmt)
    return out


def _idle(body: list[ast.stmt]) -> bool:
    return all(isinstance(s, ast.Pass) or printer.is_comment(s) for s in body)


def _is_range(node: ast.expr) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
            node.func.id == "reversed" and len(node.args) == 1):
        node = node.args[0]
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
        node.func.id == "range")


# -- the last step's slice of an array of all steps ----------------------------------------
def _release_last_steps(fdef: ast.FunctionDef, facts: Facts) -> None:
    """``del steps`` right after ``for t in ...: v = steps[t] ...`` frees nothing while the
    last step's ``v``, a view of ``steps``, lives on (``passes/batched_products.py`` makes
    such arrays of all steps' products; in the general code the backward sweep rebinds
    ``v`` at once, in the specialised code it may not): where the loop surely ran (its trip
    count is known and not zero) and nothing reads ``v`` after it, ``del steps, v``."""
    loops = [(loop, done) for block in blocks(fdef)
             for loop, done in itertools.pairwise(block)
             if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
             and getattr(loop, TRIP_COUNT, None) and isinstance(done, ast.Delete)]
    if not loops:
        return
    liveness = _Liveness(facts, keep_live_after={id(done) for _, done in loops})
    liveness.block(fdef.body, _Live())
    for loop, done in loops:
        deleted = {t.id for t in done.targets if isinstance(t, ast.Name)}
        live = liveness.live_after.get(id(done), set())
        for stmt in loop.body:
            if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name)
                    and isinstance(stmt.value, ast.Subscript)
                    and isinstance(stmt.value.value, ast.Name)
                    and stmt.value.value.id in deleted
                    and isinstance(stmt.value.slice, ast.Name)
                    and stmt.value.slice.id == loop.target.id
                    and stmt.targets[0].id not in live | deleted):
                done.targets.append(ast.Name(id=stmt.targets[0].id, ctx=ast.Del()))
                deleted.add(stmt.targets[0].id)


# -- one expression instead of a chain of statements, for Numba ---------------------------
def _substitute_single_uses(fdef: ast.FunctionDef, facts: Facts) -> bool:
    """``v = e`` followed (in the same block) by the one statement that reads this ``v``
    becomes that statement with ``e`` in place of ``v``, where ``e`` is elementwise arithmetic
    nothing in between changes: Numba compiles an elementwise expression into one loop with
    no temporaries (``grad_x = grad_x * exp_x`` then ``grad_x = grad_x * 1.5`` allocate one
    array instead of two). One substitution per call (liveness changes with it)."""
    liveness = _Liveness(facts, keep_live_after=True)
    liveness.block(fdef.body, _Live())
    return _substitute_in(fdef.body, liveness.live_after, facts)


_SIMPLE = (ast.Assign, ast.AugAssign, ast.Expr, ast.Return)


def _substitute_in(body: list[ast.stmt], live_after: dict[int, set[str]], facts: Facts) -> bool:
    for i, stmt in enumerate(body):
        for name in ("body", "orelse"):
            block = getattr(stmt, name, None)
            if isinstance(block, list) and _substitute_in(block, live_after, facts):
                return True
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], ast.Name) and _elementwise(stmt.value, facts)):
            continue
        var, reads = stmt.targets[0].id, _loads(stmt.value)
        for later in body[i + 1:]:
            if printer.is_comment(later):
                continue
            if not isinstance(later, _SIMPLE):
                break
            uses = [n for n in walk(later) if isinstance(n, ast.Name) and n.id == var
                    and isinstance(n.ctx, ast.Load)]
            if uses:
                killed = isinstance(later, ast.Assign) and var in set().union(
                    *[_stores(t) for t in later.targets])
                if len(uses) == 1 and (killed or var not in live_after.get(id(later), {var})) and (
                        not any(isinstance(n, ast.BoolOp | ast.IfExp | ast.Lambda)
                                for n in walk(later))):
                    _replace(later, uses[0], stmt.value)
                    body.remove(stmt)
                    return True
                break
            changed = _changes(later, facts)
            if "*" in changed or changed & (reads | {var}):
                break
    return False


def _elementwise(expr: ast.expr, facts: Facts) -> bool:
    """Arithmetic, comparisons and elementwise functions of names, numbers and ``x.T``."""
    for node in walk(expr):
        if isinstance(node, ast.Call):
            if not facts.elementwise_calls(node) or node.keywords:
                return False
        elif isinstance(node, ast.Attribute):
            if node.attr != "T" and not isinstance(node.value, ast.Name):
                return False
        elif not isinstance(node, ast.Name | ast.Constant | ast.BinOp | ast.UnaryOp
                            | ast.Compare | ast.expr_context | ast.operator | ast.unaryop
                            | ast.cmpop):
            return False
    return True


def _changes(stmt: ast.stmt, facts: Facts) -> set[str]:
    """Names whose value (or elements) a simple statement may change; ``"*"`` among them
    for a call that may change anything (a function of the user's)."""
    if isinstance(stmt, ast.Assign | ast.AugAssign):
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        changed = set().union(*[_stores(t) | _target_loads(t) for t in targets])
        value = stmt.value
    else:
        changed, value = set(), getattr(stmt, "value", None)
    for node in walk(value) if value is not None else []:
        if not isinstance(node, ast.Call) or facts.elementwise_calls(node) or (
                facts.pure_calls(node)):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and (
                func.attr in ("append", "pop", "copy")):
            changed.add(func.value.id)  # a stack's own methods change the stack only
        else:
            changed.add("*")
    return changed


def _replace(stmt: ast.stmt, old: ast.Name, new: ast.expr) -> None:
    for node in walk(stmt):
        for field_name, value in ast.iter_fields(node):
            if value is old:
                setattr(node, field_name, clone(new))
            elif isinstance(value, list) and any(v is old for v in value):
                setattr(node, field_name, [clone(new) if v is old else v
                                           for v in value])


# -- stacks --------------------------------------------------------------------------------------
def _stack_uses(fdef: ast.FunctionDef) -> dict[str, list[tuple[ast.stmt, list[ast.stmt]]]]:
    """For each name made as ``[]``: the statements reading or writing it, with their
    blocks."""
    made = {t.id for s in statements(fdef) if isinstance(s, ast.Assign) and isinstance(
        s.value, ast.List) and not s.value.elts for t in s.targets if isinstance(t, ast.Name)}
    uses: dict[str, list[tuple[ast.stmt, list[ast.stmt]]]] = {n: [] for n in made}
    if not made:
        return uses

    _collect_stack_uses(fdef.body, made, uses)
    return uses


def _collect_stack_uses(body: list[ast.stmt], made: set[str],
                        uses: dict[str, list[tuple[ast.stmt, list[ast.stmt]]]]) -> None:
    """``_stack_uses``'s walk (a function of its own: a recursive closure is a reference
    cycle, which would keep the tree alive until the cyclic collector runs)."""
    for stmt in body:
        if printer.is_comment(stmt):
            continue
        own = [getattr(stmt, f) for f in ("test", "iter", "target", "value", "targets")
               if hasattr(stmt, f)]
        names = set()
        for part in own:
            for node in (part if isinstance(part, list) else [part]):
                if isinstance(node, ast.AST):
                    names |= {n.id for n in names_in(node)}
        if not isinstance(stmt, ast.If | ast.For | ast.While):
            names |= {n.id for n in names_in(stmt)}
        for name in names & made:
            uses[name].append((stmt, body))
        for field_name in ("body", "orelse"):
            _collect_stack_uses(getattr(stmt, field_name, []), made, uses)


def _stack_statement(stmt: ast.stmt, stack: str) -> str | None:
    """``"make"``, ``"push"`` or ``"pop"`` for ``stack = []``, ``stack.append(x)`` and
    ``stack.pop()`` as statements (``"assign_pop"`` for ``y = stack.pop()``)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], ast.Name) and stmt.targets[0].id == stack:
        return "make" if isinstance(stmt.value, ast.List) and not stmt.value.elts else None
    value = stmt.value if isinstance(stmt, ast.Expr | ast.Assign) else None
    if not isinstance(value, ast.Call) or not isinstance(value.func, ast.Attribute) or not (
            isinstance(value.func.value, ast.Name) and value.func.value.id == stack):
        return None
    if isinstance(stmt, ast.Expr):
        if value.func.attr == "append" and len(value.args) == 1 and not value.keywords:
            if stack not in {n.id for n in walk(value.args[0]) if isinstance(n, ast.Name)}:
                return "push"
        return "pop" if _is_pop(value) else None
    if _is_pop(value) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return "assign_pop"
    return None


def _remove_dead_stacks(fdef: ast.FunctionDef, facts: Facts) -> bool:
    """Stacks that are only made, pushed (with values nothing else needs) and popped."""
    liveness = _Liveness(facts)
    dropped: set[int] = set()
    for stack, uses in _stack_uses(fdef).items():
        kinds = [_stack_statement(s, stack) for s, _ in uses]
        if all(k in ("make", "push", "pop") for k in kinds) and all(
                liveness._removable(s.value.args[0])  # type: ignore[attr-defined]
                for (s, _), k in zip(uses, kinds, strict=True) if k == "push"):
            dropped |= {id(s) for s, _ in uses}
    if not dropped:
        return False

    _edit(fdef, lambda stmt: None if id(stmt) in dropped else stmt)
    return True


def _preallocate_stacks(fdef: ast.FunctionDef, facts: Facts, np_name: str) -> None:
    """A stack pushed once per iteration of ``for i in range(n)`` and popped once per
    iteration of ``for i in reversed(range(n))`` (same ``n``) becomes an array of ``n``
    items, written at ``i`` and read at ``i``: for numbers; and for arrays of a known shape
    that a ufunc computes just before the push, which then writes into the slot itself
    (``tanh_x = tanh_x_stack[step]`` and ``np.tanh(x, tanh_x)``: no array is allocated, and
    Numba compiles a ufunc's output argument quickly, where copying an array into a slot
    costs it seconds)."""
    taken = {n.id for n in walk(fdef) if isinstance(n, ast.Name)}
    for stack, uses in _stack_uses(fdef).items():
        item = facts.stack_items.get(stack)
        if len(uses) != 3:
            continue
        kinds = [_stack_statement(s, stack) for s, _ in uses]
        if kinds[:2] != ["make", "push"] or kinds[2] not in ("pop", "assign_pop"):
            continue
        (make, block), (push, push_block), (pop, pop_block) = uses
        computed = None if _fixed_item(item) else _computed_by_ufunc(push, push_block, item,
                                                                     facts)
        if not _fixed_item(item) and computed is None:
            continue
        forward = _loop_owning(block, push_block)
        backward = _loop_owning(block, pop_block)
        if forward is None or backward is None or not _plain_range_loops(forward, backward,
                                                                          fdef):
            continue
        if block.index(make) > block.index(forward) or block.index(forward) > block.index(
                backward) or _assigned_between(block, make, forward, forward.iter):
            continue
        index = _loop_index(forward, backward, taken)
        count = forward.iter.args[0]  # type: ignore[attr-defined]
        assert isinstance(make, ast.Assign)
        make.value = _empty(np_name, count, item)  # type: ignore[arg-type]
        assert isinstance(push, ast.Expr) and isinstance(push.value, ast.Call)
        read = ast.Subscript(value=ast.Name(id=stack, ctx=ast.Load()),
                             slice=ast.Name(id=index, ctx=ast.Load()), ctx=ast.Load())
        if computed is not None:  # v = slot; ufunc(..., v)
            assert isinstance(computed.value, ast.Call)
            call = computed.value
            call.args.append(ast.Name(id=computed.targets[0].id, ctx=ast.Load()))  # type: ignore[attr-defined]
            at = push_block.index(computed)
            push_block[at:at + 1] = [
                ast.copy_location(ast.Assign(targets=computed.targets, value=clone(
                    read)), computed),
                ast.copy_location(ast.Expr(value=call), computed)]
            push_block.remove(push)
        else:
            slot = ast.Subscript(value=ast.Name(id=stack, ctx=ast.Load()),
                                 slice=ast.Name(id=index, ctx=ast.Load()), ctx=ast.Store())
            push_block[push_block.index(push)] = ast.copy_location(
                ast.Assign(targets=[slot], value=push.value.args[0]), push)
        if isinstance(pop, ast.Assign):
            pop.value = read
        else:
            pop_block.remove(pop)


def _fixed_item(item: Abstract | None) -> bool:
    """Numbers: an array holds them better than a list does, in compiled code."""
    if isinstance(item, Number):
        return item.kind in (bool, int, float, complex)
    return isinstance(item, Array) and item.shape == () and item.dtype is not None


def _computed_by_ufunc(push: ast.stmt, block: list[ast.stmt], item: Abstract | None,
                       facts: Facts) -> ast.Assign | None:
    """The statement ``v = np.ufunc(...)`` just before ``stack.append(v)``, for an array
    ``v`` of a known shape, if that is how the pushed value is made."""
    if not (isinstance(item, Array) and item.shape and item.dtype is not None):
        return None
    assert isinstance(push, ast.Expr) and isinstance(push.value, ast.Call)
    pushed = push.value.args[0]
    before = [s for s in block[:block.index(push)] if not printer.is_comment(s)]
    if not isinstance(pushed, ast.Name) or not before:
        return None
    made = before[-1]
    if not (isinstance(made, ast.Assign) and len(made.targets) == 1 and isinstance(
            made.targets[0], ast.Name) and made.targets[0].id == pushed.id
            and isinstance(made.value, ast.Call) and not made.value.keywords
            and facts.ufunc_calls(made.value)):
        return None
    return made


def _loop_owning(block: list[ast.stmt], inner: list[ast.stmt]) -> ast.For | None:
    """The ``for`` of ``block`` whose body is ``inner``."""
    return next((s for s in block if isinstance(s, ast.For) and s.body is inner), None)


def _plain_range_loops(forward: ast.For, backward: ast.For, function: ast.FunctionDef
                       ) -> bool:
    """``for i in range(n)`` then ``for j in reversed(range(n))``, ``n`` the same length
    (known, or read from names the function never rebinds), neither leaving early nor
    rebinding its variable."""
    if not (isinstance(forward.target, ast.Name) and isinstance(backward.target, ast.Name)):
        return False
    it, back = forward.iter, backward.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
            and len(it.args) == 1 and not it.keywords):
        return False
    if not (isinstance(back, ast.Call) and isinstance(back.func, ast.Name)
            and back.func.id == "reversed" and len(back.args) == 1
            and ast.dump(back.args[0]) == ast.dump(it)):
        return False
    count = getattr(forward, TRIP_COUNT, None)
    if count != getattr(backward, TRIP_COUNT, None) or count is None and not _never_rebound(
            it, function):
        return False
    for loop in (forward, backward):
        assert isinstance(loop.target, ast.Name)
        for node in walk(ast.Module(body=loop.body, type_ignores=[])):
            if isinstance(node, ast.Break | ast.Continue | ast.Return):
                return False
            if isinstance(node, ast.Name) and node.id == loop.target.id and not isinstance(
                    node.ctx, ast.Load):
                return False
    return True


def _never_rebound(expr: ast.expr, function: ast.FunctionDef) -> bool:
    """Does ``expr`` give the same value wherever it is evaluated in ``function``: it reads
    names the function never assigns (its parameters, globals), through attributes,
    subscripts, arithmetic and ``len``/``min``/``max``?"""
    stored = {n.id for n in walk(function) if isinstance(n, ast.Name) and not isinstance(
        n.ctx, ast.Load)}
    for node in walk(expr):
        if isinstance(node, ast.Name) and node.id in stored:
            return False
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and (
                node.func.id in ("range", "len", "min", "max"))):
            return False
        if not isinstance(node, ast.Name | ast.Constant | ast.Attribute | ast.Subscript
                          | ast.BinOp | ast.Call | ast.expr_context | ast.operator):
            return False
    return True


def _assigned_between(block: list[ast.stmt], first: ast.stmt, last: ast.stmt,
                      expr: ast.expr) -> bool:
    """Is a name ``expr`` reads assigned by a statement of ``block`` after ``first`` and
    before ``last``?"""
    reads = _loads(expr)
    between = block[block.index(first) + 1:block.index(last)]
    return any(isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and n.id in reads
               for s in between for n in walk(s))


def _loop_index(forward: ast.For, backward: ast.For, taken: set[str]) -> str:
    """The loop variable that indexes the array: the loops' own (``step`` for ``_``)."""
    assert isinstance(forward.target, ast.Name) and isinstance(backward.target, ast.Name)
    if forward.target.id == backward.target.id != "_":
        return forward.target.id
    name, n = "step", 2
    while name in taken:
        name, n = f"step_{n}", n + 1
    taken.add(name)
    for loop in (forward, backward):
        old = loop.target.id  # type: ignore[union-attr]
        loop.target = ast.Name(id=name, ctx=ast.Store())
        if old != "_":
            loop.body.insert(0, ast.copy_location(
                ast.Assign(targets=[ast.Name(id=old, ctx=ast.Store())],
                           value=ast.Name(id=name, ctx=ast.Load())), loop))
    return name


def _empty(np_name: str, count: ast.expr, item: Array | Number) -> ast.expr:
    shape: ast.expr = clone(count)
    dtype = a.dtype_of(item)
    if isinstance(item, Array) and item.shape:
        shape = ast.Tuple(elts=[shape, *[ast.Constant(n) for n in item.shape]], ctx=ast.Load())
    args: list[ast.expr] = [shape]
    if dtype is not None and dtype != np.float64:
        name = "bool_" if dtype == np.bool_ else dtype.name
        args.append(ast.Attribute(value=ast.Name(id=np_name, ctx=ast.Load()), attr=name,
                                  ctx=ast.Load()))
    return ast.Call(func=ast.Attribute(value=ast.Name(id=np_name, ctx=ast.Load()), attr="empty",
                                       ctx=ast.Load()), args=args, keywords=[])


# -- Numba's spelling ----------------------------------------------------------------------------
def numba_spelling(fdef: ast.FunctionDef) -> None:
    def rewrite(body: list[ast.stmt], emptied: frozenset[str] = frozenset(),
                in_loop: bool = False) -> list[ast.stmt]:
        """``emptied``: the lists made empty (``xs = []``) before the loops around ``body``;
        made empty again in such a loop, Numba cannot type the new list: ``xs.clear()``."""
        out = []
        for stmt in body:
            if isinstance(stmt, ast.Delete) or _never_taken(stmt):
                continue
            name = emptied_list(stmt)
            if name is not None and in_loop and name in emptied:
                stmt = _cleared(name, stmt)
            elif name is not None:
                emptied |= {name}
            if isinstance(stmt, ast.For):
                stmt.iter = _forwards(stmt.iter)
            loop = in_loop or isinstance(stmt, ast.For | ast.While)
            _rewrite_blocks(stmt, lambda block, e=emptied, loop=loop: rewrite(block, e, loop))
            out.append(stmt)
        return out

    fdef.body = rewrite(fdef.body) or [ast.Pass()]


def _never_taken(stmt: ast.stmt) -> bool:
    """``if False: ...`` (with no ``else``), as a helper the shapes settle may leave."""
    return isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Constant) and (
        stmt.test.value is False and not stmt.orelse)


def _cleared(name: str, like: ast.stmt) -> ast.stmt:
    method = ast.Attribute(value=ast.Name(id=name, ctx=ast.Load()), attr="clear",
                           ctx=ast.Load())
    return ast.copy_location(ast.Expr(value=ast.Call(func=method, args=[], keywords=[])), like)


def _forwards(iterable: ast.expr) -> ast.expr:
    """``reversed(range(...))`` as a ``range`` that counts down; ``reversed(xs)`` as
    ``xs[::-1]``."""
    if not (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name)
            and iterable.func.id == "reversed" and len(iterable.args) == 1):
        return iterable
    inner = iterable.args[0]
    if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)
            and inner.func.id == "range" and 1 <= len(inner.args) <= 3 and not inner.keywords):
        return ast.Subscript(value=inner, slice=ast.Slice(step=ast.Constant(-1)),
                             ctx=ast.Load())
    minus_one = ast.UnaryOp(op=ast.USub(), operand=ast.Constant(1))
    if len(inner.args) == 1:
        stop = inner.args[0]
        return _range(_minus(stop, 1), minus_one, minus_one)
    if len(inner.args) == 2:
        start, stop = inner.args
        return _range(_minus(stop, 1), _minus(start, 1), minus_one)
    # reversed(range(a, b, s)): from the last value reached, down to before a
    start, stop, step = inner.args
    count = ast.Call(func=ast.Name(id="len", ctx=ast.Load()), args=[inner], keywords=[])
    last = ast.BinOp(left=start, op=ast.Add(),
                     right=ast.BinOp(left=_minus(count, 1), op=ast.Mult(), right=step))
    return _range(last, ast.BinOp(left=start, op=ast.Sub(), right=step),
                  ast.UnaryOp(op=ast.USub(), operand=step))


def _minus(expr: ast.expr, n: int) -> ast.expr:
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return ast.Constant(expr.value - n)
    return ast.BinOp(left=expr, op=ast.Sub(), right=ast.Constant(n))


def _range(*args: ast.expr) -> ast.expr:
    return ast.Call(func=ast.Name(id="range", ctx=ast.Load()), args=list(args), keywords=[])
