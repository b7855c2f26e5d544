"""Arrays shared through containers and unpacking, which the per-name view tracking of the
transformers does not follow: ``l = [a, b]; l[0][1] = v`` and ``p, q = a, b; p[0] = v``
change ``a``, and ``l[0] *= v`` does too (NumPy updates the array in place). A derivative
that took ``l``'s element or ``p`` for a value of its own would be silently wrong, so such
a write is refused where a derivative flows through it (both modes share this check: it
runs on the normal form).

``b = a`` makes one list (or dict) with two names: ``b.append(v)``, ``b.pop()`` or
``b[0] = v`` changes what ``a`` reads too, where the transformers see two values with a
derivative each. Such a change is refused when the other name is read anywhere
(flow-insensitively; the desugarer's ``result = a`` of an early ``return`` is no alias: the
function ends there).
"""

from __future__ import annotations

import ast

from ..codegen.walk import names_in, statements
from ..compile import is_generated
from ..frontend.source import Parsed
from .activity import Activity, is_append, stored_base


def refuse_writes_through_shared_arrays(parsed: Parsed, fdef: ast.FunctionDef,
                                        activity: Activity, temporaries: set[str]) -> None:
    if is_generated(parsed.filename):
        return  # generated code shares memory only where its author meant to
    _refuse_changes_under_another_name(parsed, fdef, activity, temporaries)
    held = _held_arrays(fdef, temporaries)
    unpacked = _unpacked_aliases(fdef, temporaries)
    for stmt in statements(fdef):
        target = _element_target(stmt)
        if target is None:
            continue
        base = stored_base(target)
        if isinstance(target.value, ast.Subscript) and base in activity.varied:
            raise parsed.unsupported(
                stmt, f"writing through a chained index `{parsed.quote(target)}`",
                "Index an array once (`a[i, j] = v`); for a list or dict, put a new element "
                "in its place (`held[i] = np.where(...)`, or a copy written into).")
        through_element = isinstance(target.value, ast.Subscript) or isinstance(
            stmt, ast.AugAssign) or getattr(stmt, "in_place_of", None) is not None
        if base in held and through_element:
            others = held[base]
            what = f"an array that `{base}` holds"
        elif base in unpacked:
            others = {unpacked[base]}
            what = f"`{base}`, which is `{unpacked[base]}` itself (unpacked from it)"
        else:
            continue
        if ({base} | others) & activity.varied:
            raise parsed.unsupported(
                stmt, f"writing into {what} (the write changes "
                f"`{sorted(others)[0]}` as well, and the derivative cannot follow it)",
                "Build the container from copies (`np.copy(a)`), or write into the array by "
                "its own name.")


def _element_target(stmt: ast.AST) -> ast.Subscript | None:
    """The element a statement writes into: ``l[0][1] = v``, ``l[0] += v``, and the
    ``l[0] = l[0] * v`` that ``l[0] *= v`` became."""
    if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Subscript):
        return stmt.targets[0]
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Subscript):
        return stmt.target
    return None


def _held_arrays(fdef: ast.FunctionDef, temporaries: set[str]) -> dict[str, set[str]]:
    """Containers -> the variables they were built from (displays and appends)."""
    held: dict[str, set[str]] = {}
    for stmt in statements(fdef):
        if is_append(stmt):
            owner, item = stmt.value.func.value.id, stmt.value.args[0]
            if isinstance(item, ast.Name) and item.id not in temporaries:
                held.setdefault(owner, set()).add(item.id)
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name) and (
                isinstance(stmt.value, (ast.List, ast.Tuple, ast.Dict))):
            items = stmt.value.values if isinstance(stmt.value, ast.Dict) else stmt.value.elts
            names = {e.id for e in items if isinstance(e, ast.Name)} - temporaries
            if names:
                held.setdefault(stmt.targets[0].id, set()).update(names)
    return held


def _unpacked_aliases(fdef: ast.FunctionDef, temporaries: set[str]) -> dict[str, str]:
    """``p, q = a, b`` (or ``pair = (a, b); p, q = pair``, as the normal form writes it):
    ``p`` is ``a`` and ``q`` is ``b``."""
    displays: dict[str, list[ast.expr]] = {}
    aliases: dict[str, str] = {}
    for stmt in statements(fdef):
        if not isinstance(stmt, ast.Assign):
            continue
        target, value = stmt.targets[0], stmt.value
        if isinstance(target, ast.Name) and isinstance(value, (ast.Tuple, ast.List)):
            displays[target.id] = value.elts
        if isinstance(value, ast.Name) and value.id in displays:
            value = ast.Tuple(elts=displays[value.id], ctx=ast.Load())
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(
                value, (ast.Tuple, ast.List)) and len(target.elts) == len(value.elts):
            for t, v in zip(target.elts, value.elts, strict=True):
                if isinstance(t, ast.Name) and isinstance(v, ast.Name) and (
                        v.id not in temporaries):
                    aliases[t.id] = v.id
    return aliases


def _refuse_changes_under_another_name(parsed: Parsed, fdef: ast.FunctionDef,
                                       activity: Activity, temporaries: set[str]) -> None:
    same, aliasing = _names_of_one_object(fdef, temporaries)
    if not aliasing:
        return
    order = _Order(fdef)
    containers = _containers(fdef)
    for stmt in order.statements:
        owner, how = change_in_place(stmt)
        others = same.get(owner, set()) - {owner} if owner is not None else set()
        if not others or not ({owner} | others) & activity.varied:
            continue
        if how == "a write into an element" and not ({owner} | others) & containers:
            continue  # arrays: the transformers follow views (and say so in their terms)
        if not any(order.may_follow(stmt, a) for a in aliasing.values()
                   if owner in (a.targets[0].id, a.value.id)):
            continue  # changed only before it had another name
        read = sorted(o for o in others if _is_read_after(o, stmt, aliasing, order))
        if read:
            raise parsed.unsupported(
                stmt, f"changing `{owner}` in place ({how}) while `{read[0]}` names the same "
                "list or dict (one was assigned from the other; the derivative would take "
                "them for two values)",
                "Make a copy where one is assigned from the other: `list(...)` or "
                "`dict(...)`.")


class _Order:
    """Which statement may run after which: later in the source, or in a loop with it."""

    def __init__(self, fdef: ast.FunctionDef) -> None:
        self.position: dict[int, int] = {}
        self.statements: list[ast.stmt] = []  # the body's, nested ones included, in order
        self.loops: dict[int, frozenset[int]] = {}
        self._index(fdef.body, frozenset())

    def _index(self, body: list[ast.stmt], loops: frozenset[int]) -> None:
        for stmt in body:
            self.position[id(stmt)] = len(self.position)
            self.statements.append(stmt)
            self.loops[id(stmt)] = loops
            inner = loops | {id(stmt)} if isinstance(stmt, (ast.For, ast.While)) else loops
            for block in (getattr(stmt, "body", None), getattr(stmt, "orelse", None)):
                if isinstance(block, list):
                    self._index(block, inner)

    def may_follow(self, later: ast.stmt, earlier: ast.stmt) -> bool:
        return self.position[id(later)] > self.position[id(earlier)] or bool(
            self.loops[id(later)] & self.loops[id(earlier)])


def _names_of_one_object(fdef: ast.FunctionDef, temporaries: set[str]
                         ) -> tuple[dict[str, set[str]], dict[int, ast.Assign]]:
    """Names joined by ``b = a`` (transitively), and those assignments."""
    same: dict[str, set[str]] = {}
    aliasing: dict[int, ast.Assign] = {}
    for stmt in statements(fdef):
        if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name) and (
                isinstance(stmt.value, ast.Name)) and not getattr(stmt, "returns", False):
            a, b = stmt.targets[0].id, stmt.value.id
            if a in temporaries or b in temporaries:
                continue
            aliasing[id(stmt)] = stmt
            group = same.get(a, {a}) | same.get(b, {b})
            for member in group:
                same[member] = group
    return same, aliasing


def _containers(fdef: ast.FunctionDef) -> set[str]:
    """Names assigned a list, tuple or dict display, or appended to."""
    found = set()
    for stmt in statements(fdef):
        if is_append(stmt):
            found.add(stmt.value.func.value.id)
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name) and (
                isinstance(stmt.value, (ast.List, ast.Tuple, ast.Dict))):
            found.add(stmt.targets[0].id)
    return found


def change_in_place(stmt: ast.stmt) -> tuple[str | None, str]:
    """The name a statement changes in place, and how."""
    if is_append(stmt):
        return stmt.value.func.value.id, "`.append`"
    value = getattr(stmt, "value", None)
    if isinstance(stmt, (ast.Assign, ast.Expr)) and isinstance(value, ast.Call) and (
            isinstance(value.func, ast.Attribute) and value.func.attr == "pop"
            and isinstance(value.func.value, ast.Name)):
        return value.func.value.id, "`.pop`"
    target = _element_target(stmt)
    if target is not None and isinstance(target.value, ast.Name):
        return target.value.id, "a write into an element"
    return None, ""


def _is_read_after(var: str, change: ast.stmt, aliasing: dict[int, ast.Assign],
                   order: _Order) -> bool:
    """Is ``var`` read, after ``change`` may have run, by a statement other than an aliasing
    ``b = a`` (and not merely as the list its own ``.append``/``.pop`` or write changes)?"""
    for stmt in order.statements:
        if id(stmt) in aliasing or not order.may_follow(stmt, change):
            continue
        if isinstance(stmt, (ast.For, ast.While, ast.If)):
            parts: list[ast.AST] = [stmt.iter if isinstance(stmt, ast.For) else stmt.test]
        elif change_in_place(stmt)[0] == var:
            parts = _read_besides_change(stmt)
        else:
            parts = [stmt]
        if any(n.id == var and isinstance(n.ctx, ast.Load) for p in parts for n in names_in(p)):
            return True
    return False


def _read_besides_change(stmt: ast.stmt) -> list[ast.AST]:
    """What ``b[0] = b[1] * 2`` or ``b.append(b[0])`` read besides changing ``b``."""
    if is_append(stmt):
        return list(stmt.value.args)
    if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Subscript):
        return [stmt.targets[0].slice, stmt.value]
    if isinstance(stmt, ast.AugAssign):
        return [stmt.target]  # ``b[i] += v`` reads ``b[i]``
    return []
