"""Which variables may hold structures (lists, tuples, dicts, namedtuples, dataclasses) and
which surely hold arrays or numbers: what decides how cotangents are added up.

Two cotangents of an array add with ``+``; two of a list would concatenate, two of a dict
would not add at all, so they go through ``add_grads``. Generated code stays readable where
the code says what a value is: ``+`` for a value some NumPy operation computed or takes
as an array, ``add_grads`` where the code treats it as a structure (indexes it with a
string, reads a field, unpacks it, appends to it, builds it as a display...) or where it
says nothing (a value only copied, returned, or handed to another function).

Flow-insensitive, like activity analysis: a name that may hold a structure anywhere is
treated so everywhere.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..frontend.resolve import (
    COPY,
    DISPLAY,
    FIELD,
    POP,
    RECORD,
    RULE,
    SUBSCRIPT,
    Op,
    Resolver,
)
from ..rules import support
from ..rules.registry import Rule, shared_rule_expression
from .activity import diff_reads, is_append, stored_base

# calls whose result is a structure
_BUILDERS = frozenset({"dict", "list", "tuple"})
# helpers of generated code that take and give back structures as they are (a gradient of a
# list, say): what they take is no more an array than what they give
PASS_STRUCTURES = frozenset({support.as_gradient, support.private_copy, support.add_grads,
                              support.unbroadcast, support.broadcast_like,
                              support.unbroadcast_each, support.broadcast_each})
# helpers whose result is a list of cotangents (one per element of a sequence argument)
_SEQUENCE_HELPERS = frozenset({"list", "tuple", "split_back", "reshape_each", "add_grads",
                               "summed_repeats"})
# ... and those that give back a list for a list, an array for an array (np.copy's, np.array's)
_STRUCTURE_KEEPING = frozenset({"unstack_like"})


@dataclass
class Structures:
    structured: set[str] = field(default_factory=set)  # may hold a structure
    arrays: set[str] = field(default_factory=set)  # computed or used as arrays/numbers
    displays: dict[str, ast.expr] = field(default_factory=dict)  # var -> the display it holds

    def surely_array(self, var: str) -> bool:
        return var in self.arrays and var not in self.structured

    def one_element(self, index: ast.expr) -> bool:
        """Does ``index`` select one element of a list or dict if it indexes one: a constant
        or a name, not a display or a name holding an array (of indices, or a mask)?"""
        return isinstance(index, ast.Constant) or isinstance(index, ast.Name) and (
            index.id not in self.arrays)


def infer(statements: list[ast.stmt], resolver: Resolver, generated: bool = False
          ) -> Structures:
    """``statements``: every statement of the body, compound ones' insides included.
    ``generated``: the code is sourcegrad's own (a gradient differentiated again), where
    an element written at a runtime index (``grad_d[k] = ...``) is one of a list or dict:
    an array's would have been ``np.add.at``."""
    found = Structures()
    copies: list[tuple[str, str]] = []  # (target, source): y = x
    elements: list[tuple[str, str]] = []  # (element, container): y = x[i], y = x.f
    pops: list[tuple[str, str]] = []  # (value, stack): y = stack.pop()
    counters = _range_variables(statements)  # index arrays as well as lists
    counters |= _fancy_indices(statements, resolver)
    for stmt in statements:
        if isinstance(stmt, ast.Assign):
            _assignment(stmt, resolver, found, copies, elements, pops)
            target = stmt.targets[0]
            if generated and isinstance(target, ast.Subscript) and (
                    isinstance(target.slice, ast.Name) and target.slice.id not in counters
                    or _sums_structures(stmt.value, statements)):
                found.structured.add(stored_base(target))
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Subscript):
            if _string_index(stmt.target.slice):
                found.structured.add(stored_base(stmt.target))
            if isinstance(stmt.value, ast.Name):  # x[i] += v: v is added as an array
                found.arrays.add(stmt.value.id)
        elif is_append(stmt):
            found.structured.add(stmt.value.func.value.id)
    _keyed_by_keys(statements, resolver, found)
    copies.extend(_through_stacks(statements, pops))
    changed = True
    while changed:  # structures flow through copies, and up from their elements
        changed = False
        for target, source in copies:
            if (target in found.structured) != (source in found.structured):
                found.structured |= {target, source}
                changed = True
        for element, container in elements:
            if element in found.structured and container not in found.structured:
                found.structured.add(container)
                changed = True
    return found


def _fancy_indices(statements: list[ast.stmt], resolver: Resolver) -> set[str]:
    """Names holding an array's index that sourcegrad computed (``np.put_along_axis``'s,
    ``index = along_axis_index(...)``): a write at them is into an array."""
    return {stmt.targets[0].id for stmt in statements if isinstance(stmt, ast.Assign)
            and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)
            and resolver.value_of(stmt.value.func) is support.along_axis_index}


def _assignment(stmt: ast.Assign, resolver: Resolver, found: Structures,
                copies: list[tuple[str, str]], elements: list[tuple[str, str]],
                pops: list[tuple[str, str]]) -> None:
    target, value = stmt.targets[0], stmt.value
    if isinstance(target, ast.Subscript):
        if _string_index(target.slice):
            found.structured.add(stored_base(target))
        return
    if isinstance(target, (ast.Tuple, ast.List)):
        if isinstance(value, ast.Name):
            found.structured.add(value.id)  # a, b = pair
            value = found.displays.get(value.id, value)
        if isinstance(value, (ast.Tuple, ast.List)):  # xs, hs = {}, {}
            for t, v in zip(target.elts, value.elts, strict=False):
                if isinstance(t, ast.Name) and (isinstance(v, (ast.List, ast.Tuple, ast.Dict))
                                                or _builds(v)):
                    found.structured.add(t.id)
        return
    if not isinstance(target, ast.Name):
        return
    var = target.id
    if isinstance(value, ast.Compare):  # mask = x > 0
        found.arrays.add(var)
        return
    op = resolver.classify(value)
    if op.kind == POP and isinstance(op.args["items"], ast.Name):
        # y = stack.pop(): what was appended to the stack (see ``_through_stacks``)
        pops.append((var, op.args["items"].id))
        return
    if isinstance(value, (ast.List, ast.Tuple, ast.Dict)) or _builds(value):
        found.structured.add(var)
        if isinstance(value, (ast.List, ast.Tuple)):
            found.displays[var] = value
    elif op.kind == RULE:
        if op.callee in PASS_STRUCTURES:  # (their rules say they may return lists: if given)
            copies.extend((var, a.id) for a in op.differentiable_args().values()
                          if isinstance(a, ast.Name))
            return
        if op.rule.sequence_output:
            found.structured.add(var)
        else:
            found.arrays.add(var)
        _rule_arguments(op, found)
    elif op.kind == COPY and isinstance(op.args["x"], ast.Name):
        copies.append((var, op.args["x"].id))
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and (
            value.func.id in ("zeros_like_grad", "private_copy") and value.args
            and isinstance(value.args[0], ast.Name)):
        copies.append((var, value.args[0].id))  # a gradient has its value's structure
    elif op.kind in (SUBSCRIPT, FIELD) and isinstance(op.args["x"], ast.Name):
        container = op.args["x"].id
        elements.append((var, container))
        if op.kind == FIELD or _string_index(value.slice):
            found.structured.add(container)
    elif op.kind in (DISPLAY, RECORD):
        found.structured.add(var)


def _keyed_by_keys(statements: list[ast.stmt], resolver: Resolver, found: Structures) -> None:
    """``keys = sorted(d)`` (or ``list(d.keys())``...), ``k = keys[i]``, ``d[k]``: ``d`` is a
    dict indexed by its own keys, each read one element (never an index array)."""
    keys_of: dict[str, set[str]] = {}  # variable -> the dicts whose keys it holds
    key_of: dict[str, set[str]] = {}  # variable -> the dicts it is a key of
    for stmt in statements:
        if not (isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name)):
            continue
        var, value = stmt.targets[0].id, stmt.value
        if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and (
                value.value.id in keys_of):
            key_of[var] = keys_of[value.value.id]
        elif isinstance(value, ast.Call) and not diff_reads(value, resolver):
            sources = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)
                       and n is not value.func}
            if sources:
                keys_of[var] = sources
    if not key_of:  # (no key read: nothing below to find, in every node of the body)
        return
    for stmt in statements:  # indexed by a dict's key: a dict too (a gradient or tangent of it)
        for node in ast.walk(stmt):
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and (
                    isinstance(node.slice, ast.Name) and node.slice.id in key_of
                    and key_of[node.slice.id] & _dicts_indexed(statements, node.slice.id)):
                found.structured.add(node.value.id)


def _through_stacks(statements: list[ast.stmt], popped: list[tuple[str, str]]
                    ) -> list[tuple[str, str]]:
    """``(y, v)`` for each ``y = stack.pop()`` and ``stack.append(v)``: ``y`` is one of the
    values appended (a structure if one of them is), not a structure because it comes from
    a list (generated code keeps arrays on stacks)."""
    pushed = [(stmt.value.func.value.id, stmt.value.args[0].id) for stmt in statements
              if is_append(stmt) and isinstance(stmt.value.args[0], ast.Name)]
    return [(y, v) for y, stack in popped for owner, v in pushed if owner == stack]


def _range_variables(statements: list[ast.stmt]) -> set[str]:
    """The variables of ``for v in range(...)`` loops: such an index selects one element of
    an array as well as of a list (``grad_xs[i] = ...`` says nothing of ``grad_xs``)."""
    def counts(iterable: ast.expr) -> bool:
        if not (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name)):
            return False
        if iterable.func.id == "reversed" and len(iterable.args) == 1:
            return counts(iterable.args[0])
        return iterable.func.id == "range"

    return {stmt.target.id for stmt in statements if isinstance(stmt, ast.For)
            and isinstance(stmt.target, ast.Name) and counts(stmt.iter)}


def _sums_structures(value: ast.expr, statements: list[ast.stmt]) -> bool:
    """Is ``value`` what ``add_grads`` gave (generated code adds structures with it)?"""
    def is_sum(expr: ast.expr) -> bool:
        return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and (
            expr.func.id == "add_grads")

    if is_sum(value):
        return True
    return isinstance(value, ast.Name) and any(
        isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name)
        and s.targets[0].id == value.id and is_sum(s.value) for s in statements)


def _dicts_indexed(statements: list[ast.stmt], key: str) -> set[str]:
    """The names indexed by ``key`` somewhere in ``statements``."""
    return {node.value.id for stmt in statements for node in ast.walk(stmt)
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
            and isinstance(node.slice, ast.Name) and node.slice.id == key}


def _rule_arguments(op: Op, found: Structures) -> None:
    """An argument a rule takes as an array is one; one whose cotangent the rule gives as a
    list (``np.stack(xs)``) is a sequence."""
    rule = op.rule
    assert rule is not None
    for param, arg in op.differentiable_args().items():
        if isinstance(arg, ast.Name) and returns_sequence(rule, param):
            found.structured.add(arg.id)
        elif param in rule.sequence_params or returns_sequence(rule, param,
                                                               or_keeps_structure=True):
            continue  # (max(xs), np.array(x), np.copy(x): x may be a list still)
        elif param == rule.varargs and isinstance(arg, ast.Tuple):  # np.einsum(s, a, b)
            found.arrays.update(e.id for e in arg.elts if isinstance(e, ast.Name))
        elif isinstance(arg, ast.Name):
            found.arrays.add(arg.id)


def returns_sequence(rule: Rule, param: str, or_keeps_structure: bool = False) -> bool:
    """Is the rule's cotangent for ``param`` a list or tuple (one per element)? With
    ``or_keeps_structure``: or a list when ``param`` is one (``np.array``'s)."""
    vjp = rule.vjps.get(param)
    if vjp is None:
        return False
    expr = shared_rule_expression(vjp)
    if isinstance(expr, (ast.List, ast.Tuple, ast.ListComp)):
        return True
    if rule.sequence_output and isinstance(expr, ast.Subscript) and isinstance(
            expr.slice, ast.Slice):  # a slice of a list cotangent (``joined``'s)
        return True
    helpers = _SEQUENCE_HELPERS | (_STRUCTURE_KEEPING if or_keeps_structure else frozenset())
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and (
        expr.func.id in helpers)


def _builds(value: ast.expr) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and (
        value.func.id in _BUILDERS)


def _string_index(index: ast.expr) -> bool:
    return isinstance(index, ast.Constant) and isinstance(index.value, str)
