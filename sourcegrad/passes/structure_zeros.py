"""A structure's cotangent built without zeros made only to be added to.

The reverse pass gives a dict's cotangent the zeros of the dict and adds the cotangent of
each entry read into them, and a list's cotangent the zeros of all its elements, into which
the backward loop over the list adds each element's::

    grad_layers = zeros_like_grad(layers)
    for i in reversed(range(len(layers))):
        ...
        grad_layer = zeros_like_grad(layer)
        grad_layer['b'] = grad_layer['b'] + grad_layer_b
        ...
        grad_layer['W'] = grad_layer['W'] + grad_layer_W
        grad_layers[i] = add_grads(grad_layers[i], grad_layer)

A small network's gradient spent a third of its time making those zeros and adding to
them. Here the dict's cotangent is built at once where its last entry is known, and the
list's slots start empty (``None``, the zero ``add_grads`` takes as such) where the loop
after them adds into every one::

    grad_layers = zero_slots(layers)
    for i in reversed(range(len(layers))):
        ...
        grad_layer = zeros_like_grad_with(layer, {'W': grad_layer_W, 'b': grad_layer_b})
        grad_layers[i] = add_grads(grad_layers[i], grad_layer)

Both keep the cotangent whole: the dict has every key of the value (zeros where nothing
was read), every slot holds a cotangent once the loop is done; what reads them reads what
it read before. An entry's cotangent goes into the dict (and an element's into its slot)
as it is, not as a new sum: the rewrite is made only for names that no statement of the
sweep writes into in place (``+=``, an element write, ``add_into``, ``add_at``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ..codegen.walk import blocks, names_in, statements, walk
from .desugar import call, name
from .purity import is_pure

ZEROS = "zeros_like_grad"
# helpers that write into their first argument
_WRITING_HELPERS = frozenset({"add_into", "add_at", "put_back"})


def build_structure_cotangents(adjoint: list[ast.stmt]) -> list[ast.stmt]:
    """``adjoint`` with its dicts' cotangents built at once and its lists' slots left
    empty where a loop writes each (see the module docstring). Rewritten in place; a sweep
    with neither kind of write is only looked at statement by statement (a long function's
    sweep is walked node by node only if it has them)."""
    holder = ast.Module(body=adjoint, type_ignores=[])
    keyed, slotted = _written_by_key_or_slot(holder)
    if keyed:
        written = written_in_place(adjoint)
        for block in blocks(holder):  # type: ignore[arg-type]
            _dicts_at_once(block, written, keyed)
    if slotted:
        written = written_in_place(adjoint)  # (after the above: fewer element writes)
        for block in blocks(holder):  # type: ignore[arg-type]
            _empty_slots(block, written, slotted)
    return holder.body


def _written_by_key_or_slot(holder: ast.Module) -> tuple[set[str], set[str]]:
    """The names ``grad`` of ``grad[key] = grad[key] + v`` (a string ``key``) and of
    ``grad[i] = add_grads(grad[i], v)``: the only ones either rewrite may concern."""
    keyed: set[str] = set()
    slotted: set[str] = set()
    for stmt in statements(holder):
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], ast.Subscript) and isinstance(stmt.targets[0].value, ast.Name)):
            continue
        target = stmt.targets[0]
        if isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
            keyed.add(target.value.id)
        elif isinstance(target.slice, ast.Name) and _is_call_of(stmt.value, "add_grads", 2):
            slotted.add(target.value.id)
    return keyed, slotted


def written_in_place(stmts: list[ast.stmt]) -> set[str]:
    """The names whose value some statement changes in place: the target of ``+=``, the
    container of an element or attribute write, the first argument of a helper that writes
    into it, the ``out=`` of a call."""
    written: set[str] = set()
    for stmt in stmts:
        for node in walk(stmt):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                written.add(node.target.id)
            elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(
                    node.ctx, (ast.Store, ast.Del)):
                written |= {n.id for n in names_in(node.value)}
            elif isinstance(node, ast.Call):
                if isinstance(node.func, ast.Name) and node.func.id in _WRITING_HELPERS and (
                        node.args):
                    written |= {n.id for n in names_in(node.args[0])}
                for keyword in node.keywords:
                    if keyword.arg == "out":
                        written |= {n.id for n in names_in(keyword.value)}
    return written


# -- a dict's cotangent at once ---------------------------------------------------------------
@dataclass
class _EntryWrite:
    """``grad_d[key] = grad_d[key] + value`` at ``position`` in its block."""

    position: int
    key: str
    value: ast.expr


def _dicts_at_once(block: list[ast.stmt], written: set[str], keyed: set[str]) -> None:
    position = 0
    while position < len(block):
        zeros = _zeros_of(block[position])
        if zeros is not None and zeros[0] in keyed:
            _dict_at_once(block, position, *zeros, written)
        position += 1


def _zeros_of(stmt: ast.stmt) -> tuple[str, str] | None:
    """``(grad, value)`` of ``grad = zeros_like_grad(value)``, two names."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], ast.Name) and _is_call_of(stmt.value, ZEROS, 1) and isinstance(
            stmt.value.args[0], ast.Name):
        return stmt.targets[0].id, stmt.value.args[0].id
    return None


def _dict_at_once(block: list[ast.stmt], start: int, grad: str, value: str,
                  written: set[str]) -> None:
    """``grad = zeros_like_grad(value)`` at ``start``, then writes of distinct string keys
    (``grad[key] = grad[key] + v``) and nothing else that reads ``grad``, become one
    ``grad = zeros_like_grad_with(value, {...})`` where the last write was. ``value`` is read
    there, later than it was: nothing between may mention it, nor leave the block early
    (``grad`` would keep its old value); each ``v`` too: nothing between may bind the names
    it reads; and it goes into the dict unsummed: no statement may write into it."""
    writes: list[_EntryWrite] = []
    for position in range(start + 1, len(block)):
        stmt = block[position]
        if not any(n.id == grad for n in names_in(stmt)):
            continue
        write = _entry_write(stmt, grad, position)
        if write is None or write.key in {w.key for w in writes}:
            break
        writes.append(write)
    end = writes[-1].position if writes else start
    bound_later = [_bound_in(block[w.position + 1:end]) for w in writes]
    between = block[start + 1:end]
    if not writes or _mentions(between, value) or _may_leave(between) or any(
            _names(w.value) & (bound | written) or not is_pure(w.value)
            for w, bound in zip(writes, bound_later, strict=True)):
        return
    parts = ast.Dict(keys=[ast.Constant(w.key) for w in reversed(writes)],
                     values=[w.value for w in reversed(writes)])
    built = ast.Assign(targets=[name(grad, True)],
                       value=call("zeros_like_grad_with", name(value), parts))
    block[end] = ast.copy_location(built, block[end])
    for position in sorted([start, *(w.position for w in writes[:-1])], reverse=True):
        del block[position]


def _entry_write(stmt: ast.stmt, grad: str, position: int) -> _EntryWrite | None:
    """``grad[key] = grad[key] + v`` (``key`` a string, ``v`` not reading ``grad``)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
        return None
    target, value = stmt.targets[0], stmt.value
    key = _string_entry(target, grad)
    if key is None or not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add)
                           and _string_entry(value.left, grad) == key):
        return None
    if grad in _names(value.right):
        return None
    return _EntryWrite(position, key, value.right)


def _string_entry(node: ast.expr, grad: str) -> str | None:
    """``key`` of ``grad[key]`` with a string ``key``."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and (
            node.value.id == grad) and isinstance(node.slice, ast.Constant) and isinstance(
            node.slice.value, str):
        return node.slice.value
    return None


# -- a list's slots left empty ------------------------------------------------------------------
def _empty_slots(block: list[ast.stmt], written: set[str], slotted: set[str]) -> None:
    for position, stmt in enumerate(block):
        zeros = _zeros_of(stmt)
        if zeros is None or zeros[0] not in slotted:
            continue
        grad, value = zeros
        loop = _next_reader(block, position, grad)
        if loop is not None and not _mentions(block[position + 1:loop], value) and (
                _fills_every_slot(block[loop], grad, value, written)):
            stmt.value.func.id = "zero_slots"  # type: ignore[attr-defined]


def _next_reader(block: list[ast.stmt], start: int, grad: str) -> int | None:
    """The position of the first statement after ``start`` that reads ``grad``."""
    for position in range(start + 1, len(block)):
        if any(n.id == grad for n in names_in(block[position])):
            return position
    return None


def _fills_every_slot(loop: ast.stmt, grad: str, value: str, written: set[str]) -> bool:
    """Is ``loop`` ``for i in range(len(value))`` (or ``reversed(...)``) whose every turn
    runs to its end (no ``break``, ``continue`` or ``return``) and adds into ``grad[i]``
    (``grad[i] = add_grads(grad[i], v)``, unconditionally: in the body itself), binding
    neither ``i`` nor ``value``, and reading ``grad`` nowhere else?"""
    if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
            and _counts_over(loop.iter, value)) or loop.orelse:
        return False
    index = loop.target.id
    if {index, value} & _bound_in(loop.body) or _may_leave(loop.body):
        return False
    adds = 0
    for stmt in loop.body:
        if not any(n.id == grad for n in names_in(stmt)):
            continue
        added = _slot_addition(stmt, grad, index)
        if added is None or _names(added) & written:
            return False
        adds += 1
    return adds > 0


def _counts_over(iterable: ast.expr, value: str) -> bool:
    """Is ``iterable`` ``range(len(value))`` or ``reversed(range(len(value)))``?"""
    if _is_call_of(iterable, "reversed", 1):
        iterable = iterable.args[0]  # type: ignore[attr-defined]
    if not _is_call_of(iterable, "range", 1):
        return False
    length = iterable.args[0]  # type: ignore[attr-defined]
    return _is_call_of(length, "len", 1) and isinstance(length.args[0], ast.Name) and (
        length.args[0].id == value)


def _slot_addition(stmt: ast.stmt, grad: str, index: str) -> ast.expr | None:
    """``v`` of ``grad[index] = add_grads(grad[index], v)`` (``v`` not reading ``grad``)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and _is_slot(stmt.targets[0], grad, index) and _is_call_of(stmt.value, "add_grads", 2)
            and _is_slot(stmt.value.args[0], grad, index)):
        return None
    added = stmt.value.args[1]
    return None if grad in _names(added) else added


def _is_slot(node: ast.expr, grad: str, index: str) -> bool:
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and (
        node.value.id == grad) and isinstance(node.slice, ast.Name) and node.slice.id == index


# -- small questions ----------------------------------------------------------------------------
def _is_call_of(expr: ast.expr, function: str, arity: int) -> bool:
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and (
        expr.func.id == function) and len(expr.args) == arity and not expr.keywords


def _names(expr: ast.AST) -> set[str]:
    return {n.id for n in names_in(expr)}


def _bound_in(stmts: list[ast.stmt]) -> set[str]:
    """The names a statement of ``stmts`` binds or deletes (anywhere inside it)."""
    return {n.id for stmt in stmts for n in names_in(stmt)
            if not isinstance(n.ctx, ast.Load)}


def _mentions(stmts: list[ast.stmt], var: str) -> bool:
    return any(n.id == var for stmt in stmts for n in names_in(stmt))


def _may_leave(stmts: list[ast.stmt]) -> bool:
    """Does a ``break``, ``continue`` or ``return`` in ``stmts`` (at any depth) leave them
    before their end? (One of a loop inside them may not, but that is rare enough.)"""
    return any(isinstance(node, (ast.Break, ast.Continue, ast.Return))
               for stmt in stmts for node in walk(stmt))


