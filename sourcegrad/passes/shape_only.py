"""Saved values the backward sweep reads only for their shapes: keep the shape, free the rest.

A cotangent is summed back to an operand's shape (``unbroadcast(g, x)``) or spread over a
reduced array's shape (``unreduce(g, x)``), so the backward sweep often names a forward
value without reading a single element of it. Keeping such a value alive until the end of
the backward sweep (or one per iteration, on a stack) is what made generated gradients
need two to three times the memory of hand-written ones.

This pass finds the variables whose every read in the backward sweep is such a shape
position and keeps only a ``shape_only(...)`` of them (see ``rules/support.py``):

- at the end of the forward sweep, ``x = shape_only(x)`` for those the top level of the
  forward sweep assigns, under one comment saying why;
- inside loops, ``x_stack.append(shape_only(x))`` for the stacks whose every pop binds
  such a variable.

Parameters and the returned value are never touched (the caller holds them anyway, and the
generated code returns them). The decision is made on the generated code itself, so it holds
whatever rule or pass produced a read: a read anywhere else keeps the whole value.

Once ``sg.grad`` stops computing the loss it does not return (``unused_values.py``), the
values only that loss read may be wanted for their shapes alone: ``np.mean((p - y) ** 2)``
computed the square to spread the mean's cotangent over its shape.
``shapes_instead_of_values`` then works such a shape out from the operands
(``shape_of_elementwise(p_minus_y, 2)``) instead of computing the elements.
"""

from __future__ import annotations

import ast

from ..codegen.clone import clone
from ..codegen.printer import comment
from ..codegen.walk import fields_with_names, name_counts, names_in
from .desugar import assign, call, name
from .refold import tidy
from .release import assigned_at_top

# helper -> the positions of its arguments that it reads only the shape (and dtype) of
SHAPE_ARGUMENTS: dict[str, tuple[int, ...]] = {
    "unbroadcast": (1,),
    "unbroadcast_each": (1,),  # (a list or dict stays whole: shape_only keeps it as it is)
    "unreduce": (1,),
    "reduced_count": (0, 1),
    "element_count": (0,),
    "degrees_of_freedom": (0, 1),
    "one_if_single": (1,),
    "zeros_like_grad": (0,),
    "written_into": (1,),  # (its dtype)
}

# NumPy functions that read only the shape of their argument (``ShapeOf`` answers them)
NUMPY_SHAPE_FUNCTIONS = frozenset({"size", "shape", "ndim"})

WHY = "the backward sweep reads only the shapes of these: let their elements go"


def keep_only_shapes(forward: list[ast.stmt], adjoint: list[ast.stmt], keep: set[str],
                     saving_stacks: set[str]) -> list[ast.stmt]:
    """``forward`` with the saves of shape-only values rewritten and the freeing statements
    appended; ``keep`` are the names that must stay whole (parameters, the output);
    ``saving_stacks`` the stacks reverse mode made to save values (a list of the user's own
    may be read by the forward sweep too: it is never touched)."""
    reads = _Reads(adjoint)
    shapes = reads.shape_only() - keep
    if not shapes:
        return forward
    stacks = {stack for stack, targets in reads.pops.items()
              if targets <= shapes and stack not in reads.other_stack_reads
              and stack in saving_stacks}
    if stacks:
        forward = [_ShapeOnlyPushes(stacks).visit(stmt) for stmt in forward]
    # one branch of an `if` or a loop that may run no iteration leaves a name unbound
    bound = assigned_at_top(forward)
    left_behind = [var for var in sorted(shapes) if var in bound]
    if not left_behind:
        return forward
    like = forward[-1] if forward else adjoint[0]
    freeing = [assign(var, call("shape_only", name(var)), like) for var in left_behind]
    return [*forward, comment(WHY), *freeing]


def shapes_instead_of_values(forward: list[ast.stmt], adjoint: list[ast.stmt],
                             value_reads: set[str]) -> tuple[list[ast.stmt], list[ast.stmt]]:
    """``forward`` with elementwise arithmetic whose result is read only for its shape (by
    the backward sweep, or by other such arithmetic) rewritten as ``shape_of_elementwise``
    of its operands, and those values' ``shape_only`` lines gone; ``value_reads`` are the
    names the backward sweep reads otherwise than for their shapes.

    Where the result has the shape of its one array operand (``h ** 2``, ``-h``), reads of
    it read the operand instead (``unreduce(g, h)``), and the line goes."""
    _, stores = name_counts(forward)
    placeholders = {var: stmt for stmt in forward if (var := _placeholder(stmt)) is not None}
    definitions: dict[str, ast.Assign] = {}
    for stmt in forward:
        var = _elementwise_definition(stmt)
        if var is not None and var not in value_reads and (
                stores[var] == 1 + (var in placeholders)):
            definitions[var] = stmt
    shaped = _read_only_for_shapes(forward, definitions, placeholders)
    if not shaped:
        return forward, adjoint
    same = _same_shape_operands(definitions, shaped, stores, placeholders, adjoint)
    out: list[ast.stmt] = []
    for stmt in forward:
        var = _placeholder(stmt)
        if var in shaped and placeholders[var] is stmt:
            continue
        var = _elementwise_definition(stmt)
        if var in same:
            continue
        if var in shaped:
            stmt = assign(var, call("shape_of_elementwise", *_operands(stmt.value)), stmt)
        out.append(_renamed(stmt, same))
    return tidy(out), [_renamed(stmt, same) for stmt in adjoint]


def _same_shape_operands(definitions: dict[str, ast.Assign], shaped: set[str],
                         stores: dict[str, int], placeholders: dict[str, ast.stmt],
                         adjoint: list[ast.stmt]) -> dict[str, str]:
    """``v -> a`` for the shape-only ``v = a ** 2`` (one array operand, Python numbers):
    ``v``'s shape is ``a``'s, and so is its gradient's dtype. Only where ``a`` is bound once
    in the forward sweep, never in the backward sweep, and not released before the backward
    sweep's last read of ``v``."""
    if not any(_only_array_operand(definitions[var].value) for var in shaped):
        return {}  # (no need to read the backward sweep)
    last_read: dict[str, int] = {}
    released: dict[str, int] = {}
    rebound: set[str] = set()
    for i, stmt in enumerate(adjoint):
        for node in names_in(stmt):
            if isinstance(node.ctx, ast.Load):
                last_read[node.id] = i
            elif isinstance(node.ctx, ast.Del):
                released.setdefault(node.id, i)
            else:
                rebound.add(node.id)
    same: dict[str, str] = {}
    for var, stmt in definitions.items():  # in the forward sweep's order: chains resolve
        operand = _only_array_operand(stmt.value) if var in shaped else None
        if operand is None:
            continue
        operand = same.get(operand, operand)
        if (stores.get(operand, 0) <= 1 + (operand in placeholders) and operand not in rebound
                and released.get(operand, len(adjoint)) > last_read.get(var, -1)):
            same[var] = operand
            last_read[operand] = max(last_read.get(operand, -1), last_read.get(var, -1))
    return same


def _only_array_operand(value: ast.expr) -> str | None:
    """``a`` for ``a ** 2``, ``2.0 * a``, ``-a`` or ``np.exp(a)``: one name, and ints or
    floats."""
    operands = _operands(value)
    names = [x.id for x in operands if isinstance(x, ast.Name)]
    numbers = [x for x in operands if isinstance(x, ast.Constant)
               and type(x.value) in (int, float)]
    return names[0] if len(names) == 1 and len(names) + len(numbers) == len(operands) else None


def _renamed(stmt: ast.stmt, same: dict[str, str]) -> ast.stmt:
    """``stmt`` reading ``same[v]`` for each ``v`` (a copy, if there is any to rename)."""
    if not same or not any(node.id in same for node in names_in(stmt)):
        return stmt
    stmt = clone(stmt)
    for node in names_in(stmt):
        if node.id in same and isinstance(node.ctx, ast.Load):
            node.id = same[node.id]
    return stmt


def _read_only_for_shapes(forward: list[ast.stmt], definitions: dict[str, ast.Assign],
                          placeholders: dict[str, ast.stmt]) -> set[str]:
    """The defined variables that the forward sweep reads only in their ``shape_only``
    line and in the definitions of others of them: a greatest fixed point."""
    readers: dict[str, list[ast.stmt]] = {}
    for stmt in forward:
        for node in names_in(stmt):
            if isinstance(node.ctx, ast.Load):
                readers.setdefault(node.id, []).append(stmt)
    shaped = set(definitions)
    defining = {id(stmt): var for var, stmt in definitions.items()}
    # a work list: when a variable leaves, the operands of its definition are checked again
    # (sweeping every variable until nothing changed was quadratic in long chains)
    todo = sorted(shaped, reverse=True)
    while todo:
        var = todo.pop()
        if var not in shaped:
            continue
        placeholder = placeholders.get(var)
        if any(stmt is not placeholder and defining.get(id(stmt)) not in shaped
               for stmt in readers.get(var, [])):
            shaped.discard(var)
            todo.extend(node.id for node in names_in(definitions[var].value)
                        if node.id in shaped)
    return shaped


_ELEMENTWISE = (ast.Add, ast.Sub, ast.Mult, ast.Div)
# NumPy functions applied element by element whose result has the dtype NumPy's promotion of
# their operands gives (float for floats, complex for complex numbers)
_ELEMENTWISE_FUNCTIONS = frozenset({
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2",
    "sin", "cos", "tan", "sinh", "cosh", "tanh", "sqrt", "square"})


def _operands(value: ast.expr) -> list[ast.expr]:
    """The operands of elementwise arithmetic or of a call of an elementwise function."""
    if isinstance(value, ast.UnaryOp):
        return [value.operand]
    if isinstance(value, ast.Call):
        return list(value.args)
    return [value.left, value.right]


def _elementwise_call(value: ast.expr) -> bool:
    """``np.exp(a)``, ``np.logaddexp(0.0, z)``: an elementwise NumPy function, positional
    operands only."""
    func = value.func if isinstance(value, ast.Call) else None
    return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and (
        func.value.id == "np") and func.attr in _ELEMENTWISE_FUNCTIONS and not value.keywords


def _elementwise_definition(stmt: ast.stmt) -> str | None:
    """``v`` for ``v = a * b`` (``+ - * /``, a power with a constant exponent, a negation,
    an elementwise NumPy function, of names and numbers)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)):
        return None
    value = stmt.value
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
        operands = [value.operand]
    elif isinstance(value, ast.BinOp) and (isinstance(value.op, _ELEMENTWISE) or (
            isinstance(value.op, ast.Pow) and isinstance(value.right, ast.Constant)
            and isinstance(value.right.value, float | int) and value.right.value >= 0)):
        operands = [value.left, value.right]
    elif _elementwise_call(value):
        operands = _operands(value)
    else:
        return None
    if operands and all(isinstance(x, ast.Name) or (
            isinstance(x, ast.Constant) and type(x.value) in (float, int)) for x in operands):
        return stmt.targets[0].id
    return None


def _placeholder(stmt: ast.stmt) -> str | None:
    """``v`` for ``v = shape_only(v)``."""
    if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name) and isinstance(
            stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name) and (
            stmt.value.func.id == "shape_only") and len(stmt.value.args) == 1 and isinstance(
            stmt.value.args[0], ast.Name) and stmt.value.args[0].id == stmt.targets[0].id:
        return stmt.targets[0].id
    return None


def shape_reads(adjoint: list[ast.stmt]) -> tuple[set[str], set[str]]:
    """The names the backward sweep reads only in shape positions, and those it reads
    elsewhere."""
    reads = _Reads(adjoint)
    return reads.shape_only(), reads.value_reads


class _Reads:
    """How the backward sweep reads each name: in shape positions only, or otherwise; and
    which variables each stack is popped into."""

    def __init__(self, adjoint: list[ast.stmt]) -> None:
        self.shape_reads: set[str] = set()
        self.value_reads: set[str] = set()
        self.pops: dict[str, set[str]] = {}  # stack -> the variables `v = stack.pop()` binds
        self.other_stack_reads: set[str] = set()
        self._visit_all(adjoint)

    def shape_only(self) -> set[str]:
        return self.shape_reads - self.value_reads

    def _visit_all(self, adjoint: list[ast.stmt]) -> None:
        """One pass over every node (a work list: what is recorded does not depend on the
        order)."""
        todo: list[ast.AST] = list(adjoint)
        for node in todo:
            stack = _popped_stack(node)
            if stack is not None:
                self.pops.setdefault(stack, set()).add(node.targets[0].id)
            elif isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    self.value_reads.add(node.id)
                    self.other_stack_reads.add(node.id)
            elif positions := _shape_positions(node):
                assert isinstance(node, ast.Call)
                for i, child in enumerate(node.args):
                    if i in positions and isinstance(child, ast.Name):
                        self.shape_reads.add(child.id)
                    else:
                        todo.append(child)
                todo.append(node.func)
                todo.extend(node.keywords)
            # (below what holds no name, there is nothing to record)
            elif fields := fields_with_names(node.__class__):
                held = node.__dict__
                for part in fields:
                    value = held.get(part)
                    if value.__class__ is list:
                        todo.extend([item for item in value if isinstance(item, ast.AST)])
                    elif isinstance(value, ast.AST):
                        todo.append(value)


def _shape_positions(node: ast.AST) -> tuple[int, ...]:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return SHAPE_ARGUMENTS.get(node.func.id, ())
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(
            node.func.value, ast.Name) and node.func.value.id == "np" and (
            node.func.attr in NUMPY_SHAPE_FUNCTIONS) and not node.keywords:
        return (0,)
    return ()


def _popped_stack(node: ast.AST) -> str | None:
    """``stack`` for a statement ``v = stack.pop()``."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)):
        return None
    value = node.value
    if isinstance(value, ast.Call) and not value.args and isinstance(value.func, ast.Attribute) \
            and value.func.attr == "pop" and isinstance(value.func.value, ast.Name):
        return value.func.value.id
    return None


class _ShapeOnlyPushes(ast.NodeTransformer):
    """``stack.append(v)`` -> ``stack.append(shape_only(v))`` for the given stacks."""

    def __init__(self, stacks: set[str]) -> None:
        self.stacks = stacks

    def visit_Call(self, node: ast.Call) -> ast.Call:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "append" and isinstance(
                func.value, ast.Name) and func.value.id in self.stacks and len(node.args) == 1:
            node.args = [call("shape_only", node.args[0])]
            return node
        return self.generic_visit(node)
