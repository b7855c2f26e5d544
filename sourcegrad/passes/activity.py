"""Activity analysis: which variables need a derivative at all.

A variable is *varied* if its value depends, through differentiable operations, on an
argument we differentiate with respect to, and *useful* if the output depends on it the same
way. Only variables that are both (*active*) get an adjoint or a tangent; everything else is
a constant for differentiation and costs nothing in the generated code.

The analysis is flow-insensitive (a variable active anywhere is active everywhere), which can
only err on the side of computing a derivative that turns out to be zero.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..frontend.forms import parameters_of
from ..frontend.resolve import DISPLAY, NONDIFF, Resolver
from ..frontend.source import Parsed


@dataclass
class Effect:
    """What one statement does to values: names it (re)defines and names its value reads
    through differentiable positions."""

    stmt: ast.stmt
    defines: set[str]
    reads: set[str]


@dataclass
class Activity:
    varied: set[str]
    useful: set[str]

    def is_active(self, name: str) -> bool:
        return name in self.varied and name in self.useful

    @property
    def active(self) -> set[str]:
        return self.varied & self.useful


def analyse(body: list[ast.stmt], wrt: list[str], outputs: set[str],
            resolver: Resolver) -> Activity:
    effects = list(statement_effects(body, resolver))
    # flow-insensitive: a statement reading a varied name varies every name it defines, one
    # defining a useful name makes every name it reads useful. Followed name by name, each
    # statement once per name (sweeping all statements until nothing changed took a sweep
    # per link of the longest chain: quadratic in the function's length)
    return Activity(varied=_closure(wrt, [(e.reads, e.defines) for e in effects]),
                    useful=_closure(outputs, [(e.defines, e.reads) for e in effects]))


def _closure(start: Iterable[str], links: list[tuple[set[str], set[str]]]) -> set[str]:
    """The names reached from ``start``: a link ``(sources, targets)`` reaches all its
    targets once any of its sources is reached."""
    by_source: dict[str, list[set[str]]] = {}
    for sources, targets in links:
        for source in sources:
            by_source.setdefault(source, []).append(targets)
    reached = set(start)
    todo = list(reached)
    while todo:
        for targets in by_source.pop(todo.pop(), ()):
            new = targets - reached
            reached |= new
            todo.extend(new)
    return reached


def statement_effects(body: list[ast.stmt], resolver: Resolver) -> Iterator[Effect]:
    for stmt in body:
        if isinstance(stmt, ast.Assign):
            reads = diff_reads(stmt.value, resolver)
            for target in stmt.targets:
                base = stored_base(target)
                if isinstance(target, ast.Subscript):
                    reads = reads | {base}
                yield Effect(stmt, target_names(target), reads)
        elif isinstance(stmt, ast.AugAssign):
            base = stored_base(stmt.target)
            yield Effect(stmt, {base}, diff_reads(stmt.value, resolver) | {base})
        elif isinstance(stmt, ast.Expr) and is_append(stmt):
            call = stmt.value
            owner = call.func.value.id
            yield Effect(stmt, {owner}, diff_reads(call.args[0], resolver) | {owner})
        elif isinstance(stmt, ast.Expr) and writes_in_place(stmt.value):
            target = stored_base(stmt.value.args[0])
            yield Effect(stmt, {target}, diff_reads(stmt.value.args[2], resolver) | {target})
        elif isinstance(stmt, ast.Return) and stmt.value is not None:
            yield Effect(stmt, set(), diff_reads(stmt.value, resolver))
        elif isinstance(stmt, (ast.If, ast.While)):
            yield from statement_effects(stmt.body, resolver)
            yield from statement_effects(stmt.orelse, resolver)
        elif isinstance(stmt, ast.For):
            yield Effect(stmt, target_names(stmt.target), set())
            yield from statement_effects(stmt.body, resolver)


def diff_reads(expr: ast.expr, resolver: Resolver) -> set[str]:
    """Names whose derivative can flow into the value of ``expr``."""
    if isinstance(expr, ast.Name):
        return {expr.id}
    if isinstance(expr, ast.Constant):
        return set()
    op = resolver.classify(expr)
    if op.kind == NONDIFF:
        return set()
    reads: set[str] = set()
    args = list(op.differentiable_args().values()) + list(op.varargs)
    if op.kind == DISPLAY and isinstance(expr, ast.Call):  # list.append: not a value
        return set()
    for arg in args:
        reads |= diff_reads(arg, resolver)
    return reads


def target_names(target: ast.expr) -> set[str]:
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, (ast.Tuple, ast.List)):
        names: set[str] = set()
        for elt in target.elts:
            names |= target_names(elt)
        return names
    if isinstance(target, ast.Subscript):
        return {stored_base(target)}
    return set()


def stored_base(target: ast.expr) -> str:
    """``x`` for ``x``, ``x[i]``, ``x[i][j]``."""
    while isinstance(target, ast.Subscript):
        target = target.value
    return target.id if isinstance(target, ast.Name) else ""


def is_append(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Attribute)
        and stmt.value.func.attr == "append"
        and isinstance(stmt.value.func.value, ast.Name)
        and len(stmt.value.args) == 1
    )


def is_add_at(expr: ast.expr) -> bool:
    """``np.add.at(a, index, b)``: an in-place update of ``a`` (generated backward sweeps)."""
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    if isinstance(func, ast.Name) and func.id == "add_at" and len(expr.args) == 3:
        return True  # the helper that does the same for an array, a list or a dict
    return isinstance(func, ast.Attribute) and func.attr == "at" and isinstance(
        func.value, ast.Attribute) and func.value.attr == "add" and len(expr.args) == 3 and (
        not expr.keywords)


def is_put_back(expr: ast.expr) -> bool:
    """``put_back(c, key, old)``: the entry ``c[key]`` a write replaced, put back
    (``old == (value,)``) or removed (``old == ()``) by a generated backward sweep
    (``rules.support.put_back``)."""
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and (
        expr.func.id == "put_back") and len(expr.args) == 3 and not expr.keywords


def writes_in_place(expr: ast.expr) -> bool:
    """A helper call that writes its third argument into its first at the index or key its
    second names: ``add_at`` / ``np.add.at`` (adding) and ``put_back`` (replacing). Every
    pass that asks what a statement writes and reads asks this; each is linear in the
    container and the value, so forward mode's tangent is the same call on their tangents.
    (Reverse mode differentiates ``add_at`` only: ``is_add_at``.)"""
    return is_add_at(expr) or is_put_back(expr)


def local_names(fdef: ast.FunctionDef) -> set[str]:
    """Parameters and every name the body assigns: these shadow globals."""
    names = set(parameters_of(fdef.args))
    pending = list(fdef.body)
    while pending:  # statements only: names are bound by targets, never inside expressions
        stmt = pending.pop()
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                names |= target_names(target) if not isinstance(target, ast.Subscript) else set()
        elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) and isinstance(stmt.target,
                                                                             ast.Name):
            names.add(stmt.target.id)
        elif isinstance(stmt, ast.For):
            names |= target_names(stmt.target)
            pending.extend(stmt.body + stmt.orelse)
        elif isinstance(stmt, (ast.If, ast.While)):
            pending.extend(stmt.body + stmt.orelse)
        elif isinstance(stmt, ast.FunctionDef):
            names.add(stmt.name)
    return names


def call_for_effect(parsed: Parsed, stmt: ast.stmt, var: str) -> Exception:
    """The refusal of a call made for its effect on ``var``, which carries a derivative (a
    user function writing into its argument, say): ignoring it would be silently wrong."""
    return parsed.unsupported(
        stmt, f"a call for its side effect on `{var}`, which carries a derivative",
        "Assign the call's result to a variable instead of modifying its argument.")
