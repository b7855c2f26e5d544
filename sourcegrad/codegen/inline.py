"""Inline a rule's return expression into generated code, as a person would write it.

``rule.vjp_x(g, ans, x, axis=None, keepdims=False)`` returning
``unreduce(g, x, axis=axis, keepdims=keepdims)``, applied to the user's ``np.sum(h, axis=1)``
with cotangent ``grad_s``, becomes ``unreduce(grad_s, h, axis=1)``: parameters are replaced
by the call's arguments, keyword arguments the user left at their default disappear, and
trivial arithmetic on constants is folded (``x ** (2 - 1)`` -> ``x``).
"""

from __future__ import annotations

import ast
import builtins
import functools
import inspect
import operator
from types import FunctionType
from typing import Any

from ..rules.registry import rule_expression, rule_signature, shared_rule_expression
from .clone import clone, declared
from .walk import walk

_FOLDABLE = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
}


def inline(rule_fn: FunctionType, head: list[ast.expr], params: dict[str, ast.expr],
           defaults: dict[str, Any]) -> ast.expr:
    """The rule's expression with ``g``/``t``, ``ans`` and the parameters substituted.

    ``head`` holds the expressions for the rule's first two parameters; ``params`` the
    call's arguments by parameter name; unbound parameters take ``defaults``.
    """
    names = _parameter_names(rule_fn)
    bindings = dict(zip(names[:2], head, strict=True))
    left_default = set()
    for param in names[2:]:
        if param in params:
            bindings[param] = params[param]
        else:
            bindings[param] = ast.Constant(defaults.get(param))
            left_default.add(param)
    template = _template(rule_fn, frozenset(left_default))
    return _instantiate(_without_capture(template, bindings), bindings)


def _without_capture(template: ast.expr, bindings: dict[str, ast.expr]) -> ast.expr:
    """``template`` with the names its comprehensions (and lambdas) bind renamed where the
    call's arguments use them: ``[f(x, i == k) for j in ...]`` with ``k`` bound to the
    caller's ``j`` must not read the comprehension's ``j``."""
    bound = _bound_names(template)
    if not bound:
        return template
    used = {n.id for expr in bindings.values() for n in walk(expr) if isinstance(n, ast.Name)}
    clashes = bound & used
    if not clashes:
        return template
    taken = used | bound | {n.id for n in walk(template) if isinstance(n, ast.Name)}
    renames = {}
    for old in sorted(clashes):
        new = old + "_"
        while new in taken:
            new += "_"
        taken.add(new)
        renames[old] = new
    return _Rename(renames).visit(clone(template))


@functools.cache
def _bound_names(template: ast.expr) -> frozenset[str]:
    """The names a rule's expression binds itself (comprehension targets, lambda
    parameters); templates are cached, so this is worked out once for each."""
    found = set()
    for node in walk(template):
        if isinstance(node, ast.comprehension):
            found |= {n.id for n in walk(node.target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Lambda):
            found |= {a.arg for a in node.args.args + node.args.kwonlyargs}
    return frozenset(found)


class _Rename(ast.NodeTransformer):
    def __init__(self, renames: dict[str, str]) -> None:
        self.renames = renames

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self.renames.get(node.id, node.id)
        return node

    def visit_arg(self, node: ast.arg) -> ast.arg:
        node.arg = self.renames.get(node.arg, node.arg)
        return node


@functools.cache
def _template(rule_fn: FunctionType, left_default: frozenset[str]) -> ast.expr:
    """The rule's expression without the keywords the call leaves at their defaults: it
    depends only on which parameters were left out, so it is worked out once for each."""
    shared = shared_rule_expression(rule_fn)  # ``_instantiate`` copies, never changes it
    if not any(isinstance(kw.value, ast.Name) and kw.value.id in left_default
               for node in walk(shared) if isinstance(node, ast.Call) for kw in node.keywords):
        return shared
    expr = rule_expression(rule_fn)
    defaults = {name: p.default for name, p in rule_signature(rule_fn).parameters.items()
                if p.default is not inspect.Parameter.empty}
    return _DropDefaults(set(left_default), defaults, rule_fn.__globals__).visit(expr)


@functools.cache
def _parameter_names(rule_fn: FunctionType) -> list[str]:
    """All parameters, keyword-only and variadic included (a variadic one binds a tuple)."""
    return list(rule_signature(rule_fn).parameters)


class _DropDefaults(ast.NodeTransformer):
    """``f(..., axis=axis)`` loses ``axis=`` when the user did not pass ``axis`` and the
    rule's default for it is also ``f``'s own default (so dropping it changes nothing)."""

    def __init__(self, left_default: set[str], defaults: dict[str, Any],
                 namespace: dict[str, Any]) -> None:
        self.left_default = left_default
        self.defaults = defaults
        self.namespace = namespace

    def visit_Call(self, node: ast.Call) -> ast.Call:
        self.generic_visit(node)
        callee = _resolve(node.func, self.namespace)
        node.keywords = [kw for kw in node.keywords if not self._droppable(kw, callee)]
        return node

    def _droppable(self, kw: ast.keyword, callee: Any) -> bool:
        if not (isinstance(kw.value, ast.Name) and kw.value.id in self.left_default):
            return False
        try:
            default = inspect.signature(callee).parameters[kw.arg].default
        except (TypeError, ValueError, KeyError):
            return False
        mine = self.defaults.get(kw.value.id)
        return type(default) is type(mine) and default == mine


def _resolve(func: ast.expr, namespace: dict[str, Any]) -> Any:
    """The object a rule's callee expression (``np.sum``, ``unreduce``) names."""
    if isinstance(func, ast.Name):
        return namespace.get(func.id, getattr(builtins, func.id, None))
    if isinstance(func, ast.Attribute):
        base = _resolve(func.value, namespace)
        return getattr(base, func.attr, None) if base is not None else None
    return None


def _instantiate(node: Any, bindings: dict[str, ast.expr]) -> Any:
    """A copy of the template ``node`` with the rule's parameters replaced by the call's
    expressions, folded bottom-up as it is built (one pass, no visitor machinery)."""
    if isinstance(node, ast.Name):
        if node.id in bindings and isinstance(node.ctx, ast.Load):
            return clone(bindings[node.id])
        return ast.Name(id=node.id, ctx=type(node.ctx)())
    if isinstance(node, ast.AST):
        keep = declared(node.__class__)  # not what a display tool hung on the node
        new = node.__class__.__new__(node.__class__)
        new.__dict__.update({k: _instantiate(v, bindings) for k, v in node.__dict__.items()
                             if k in keep})
        return _fold_node(new)
    if isinstance(node, list):
        return [_instantiate(item, bindings) for item in node]
    return node


def fold(expr: ast.expr) -> ast.expr:
    """Fold constant arithmetic and identities that substitution leaves behind."""
    return _instantiate(expr, {})


def _fold_node(node: ast.AST) -> ast.AST:
    """One node whose children are already folded."""
    if isinstance(node, ast.BinOp):
        return _fold_binop(node)
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        if len(node.ops) == 1 and all(_is_number(o) for o in operands) and (
            type(node.ops[0]) in _COMPARISONS
        ):
            return ast.Constant(_COMPARISONS[type(node.ops[0])](operands[0].value,
                                                                 operands[1].value))
        return node
    if isinstance(node, ast.Call):
        node.args = _unstarred(node.args)
        return _fold_where(node)
    if isinstance(node, (ast.Tuple, ast.List)):
        node.elts = _unstarred(node.elts)
        return node
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(
            node.operand, ast.UnaryOp) and isinstance(node.operand.op, ast.USub):
        return node.operand.operand
    return node


def _unstarred(items: list[ast.expr]) -> list[ast.expr]:
    """``f(t, *(a, b))`` -> ``f(t, a, b)``: a variadic parameter substituted by the display
    of the call's arguments is spread out again, as the user wrote it."""
    if not any(isinstance(i, ast.Starred) and isinstance(i.value, (ast.Tuple, ast.List))
               for i in items):
        return items
    out: list[ast.expr] = []
    for item in items:
        if isinstance(item, ast.Starred) and isinstance(item.value, (ast.Tuple, ast.List)):
            out.extend(item.value.elts)
        else:
            out.append(item)
    return out


def _fold_binop(node: ast.BinOp) -> ast.expr:
    left, right, op = node.left, node.right, node.op
    if _is_number(left) and _is_number(right) and type(op) in _FOLDABLE:
        return ast.Constant(_FOLDABLE[type(op)](left.value, right.value))
    if isinstance(op, (ast.Pow, ast.Mult, ast.Div)) and _is_number(right, 1):
        return left
    if isinstance(op, ast.Mult) and _is_number(left, 1):
        return right
    if isinstance(op, (ast.Add, ast.Sub)) and _is_number(right, 0):
        return left
    return node


def _fold_where(node: ast.Call) -> ast.expr:
    """``np.where(False, a, b)`` -> ``b``: a rule's guard that the call makes moot."""
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr == "where" and isinstance(
        func.value, ast.Name) and func.value.id == "np" and len(node.args) == 3 and (
        not node.keywords and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, bool)
    ):
        return node.args[1] if node.args[0].value else node.args[2]
    return node


_COMPARISONS = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def _is_number(node: ast.expr, value: float | None = None) -> bool:
    if not isinstance(node, ast.Constant) or isinstance(node.value, bool):
        return False
    if not isinstance(node.value, (int, float)):
        return False
    return value is None or node.value == value


def without_unbroadcast(expr: ast.expr, operand: ast.expr) -> ast.expr:
    """``unbroadcast(E, x)`` -> ``E``, for an operand known to have the output's shape (its
    partners in the operation are Python scalars)."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and (
        expr.func.id == "unbroadcast" and len(expr.args) == 2
        and ast.dump(expr.args[1]) == ast.dump(operand)
    ):
        return expr.args[0]
    return expr


def is_scalar_literal(expr: ast.expr) -> bool:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        expr = expr.operand
    return isinstance(expr, ast.Constant) and type(expr.value) in (int, float)
