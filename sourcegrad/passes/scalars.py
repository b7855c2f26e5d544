"""Which variables always hold a scalar (a value of shape ``()``), known from the code alone.

A scalar partner in a broadcasting operation means the other operand already has the
output's shape, so its cotangent needs no ``unbroadcast`` and its tangent no
``broadcast_like``: generated code for scalar loops and after full reductions reads like
the arithmetic it is, and skips a helper call per operation.

Sources of scalars: numeric literals, ``math`` functions, ``len``/``float``/``int``, full
reductions (``np.sum(x)`` without ``axis``, ``x.mean()``...), and elementwise arithmetic on
scalars. A variable is scalar when every assignment to it gives a scalar (the greatest fixed
point, so that loop-carried accumulators such as ``total = total + np.sum(x)`` qualify).
Parameters are never assumed scalar: their type is only known at call time.
"""

from __future__ import annotations

import ast
import collections
import math
import types
from collections.abc import Callable

import numpy as np

from ..codegen.walk import names_in, statements
from ..frontend.resolve import COPY, RULE, Resolver
from .activity import target_names

_FULL_REDUCTIONS = {np.sum, np.mean, np.prod, np.max, np.min, np.amax, np.amin, np.var,
                    np.std, np.linalg.norm}
_SCALAR_FUNCTIONS = {float, len, int, abs}


def scalar_variables(body: list[ast.stmt], params: set[str], resolver: Resolver) -> set[str]:
    assignments = variable_assignments(body)
    scalars = {var for var, _ in assignments} - params

    def rule_out(index: int) -> str | None:
        var, value = assignments[index]
        if var in scalars and (value is None or not is_scalar(value, scalars, resolver)):
            scalars.discard(var)
            return var
        return None

    settle(assignments, rule_out)
    return scalars


def settle(assignments: list[tuple[str, ast.expr | None]],
           update: Callable[[int], str | None]) -> None:
    """Run ``update(i)`` on every assignment, and again on each assignment whose value reads
    a name an update changed (``update`` returns that name, or ``None``), until none changes:
    a fixed point. (Sweeping all assignments until nothing changed took a sweep per link of
    the longest chain: quadratic in the function's length.)"""
    readers: dict[str, list[int]] = {}
    for index, (_, value) in enumerate(assignments):
        if value is not None:
            for name in {node.id for node in names_in(value)}:
                readers.setdefault(name, []).append(index)
    todo = collections.deque(range(len(assignments)))  # in order, each at most once
    queued = set(todo)
    while todo:
        index = todo.popleft()
        queued.discard(index)
        changed = update(index)
        if changed is None:
            continue
        for reader in readers.get(changed, ()):
            if reader not in queued:
                queued.add(reader)
                todo.append(reader)


def variable_assignments(body: list[ast.stmt], element_writes: bool = True
                         ) -> list[tuple[str, ast.expr | None]]:
    """(variable, value) for each assignment in ``body``, ``None`` for a value not tracked
    (tuple unpacking; with ``element_writes``, ``x[i] = v`` too). A loop's target is an
    integer: every loop is over a ``range`` once desugared."""
    out: list[tuple[str, ast.expr | None]] = []
    for node in statements(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.Assign):
            target = node.targets[0]
            if isinstance(target, ast.Name):
                out.append((target.id, node.value))
            elif element_writes or not isinstance(target, ast.Subscript):
                out.extend((var, None) for var in sorted(target_names(target)))
        elif isinstance(node, ast.AugAssign):
            if isinstance(node.target, ast.Name):
                read = ast.Name(id=node.target.id, ctx=ast.Load())
                out.append((node.target.id, ast.BinOp(left=read, op=node.op, right=node.value)))
            elif element_writes:
                out.append((_base(node.target), None))
        elif isinstance(node, ast.For):
            out.extend((var, ast.Constant(0)) for var in sorted(target_names(node.target)))
    return out


def is_scalar(expr: ast.expr, scalars: set[str], resolver: Resolver) -> bool:
    if isinstance(expr, ast.Constant):
        return type(expr.value) in (int, float, bool)
    if isinstance(expr, ast.Name):
        return expr.id in scalars
    if isinstance(expr, ast.UnaryOp):
        return is_scalar(expr.operand, scalars, resolver)
    if isinstance(expr, ast.BinOp):
        return is_scalar(expr.left, scalars, resolver) and is_scalar(expr.right, scalars,
                                                                     resolver)
    if isinstance(expr, ast.Call):
        return _scalar_call(expr, scalars, resolver)
    return False


def _scalar_call(call: ast.Call, scalars: set[str], resolver: Resolver) -> bool:
    try:
        op = resolver.classify(call)
    except Exception:  # anything unusual is simply not known to be scalar
        return False
    callee = op.callee
    if callee in _SCALAR_FUNCTIONS or _is_math(callee):
        return True
    if op.kind == RULE and callee in _FULL_REDUCTIONS:
        keywords = {kw.arg for kw in call.keywords}
        positional_axis = len(call.args) > 1 and not isinstance(call.func, ast.Attribute)
        method_axis = isinstance(call.func, ast.Attribute) and bool(call.args) and (
            not resolver.value_of(call.func.value))
        return not ({"axis", "keepdims"} & keywords) and not positional_axis and not (
            method_axis)
    if op.kind in (RULE, COPY) and isinstance(callee, np.ufunc):
        return all(is_scalar(a, scalars, resolver) for a in call.args)
    return False


def _is_math(callee: object) -> bool:
    return isinstance(callee, types.BuiltinFunctionType) and getattr(
        callee, "__module__", None) == "math" and callable(getattr(math, callee.__name__, None))


def _base(target: ast.expr) -> str:
    while isinstance(target, ast.Subscript):
        target = target.value
    return target.id if isinstance(target, ast.Name) else ""
