"""Weight gradients summed over a loop's steps become one product after the loop.

The backward sweep of ``for t in range(n): h = np.tanh(xs[t] @ W + h @ U)`` adds a small
product to the weights' gradients at every step::

    for t in reversed(range(n)):
        ...
        grad_U += matmul_vjp_x2(grad_h_at_U, h, U)
        grad_W += matmul_vjp_x2(grad_xs_t_at_W, xs[t], W)

A careful person keeps each step's cotangent and left factor instead, and after the loop
multiplies them all at once, as a person writing backpropagation through time by hand
would (``xs.reshape(-1, n_in).T @ grad_all_steps.reshape(-1, n_hidden)``)::

    grad_h_at_U_steps = []
    h_steps = []
    for t in reversed(range(n)):
        ...
        grad_h_at_U_steps.append(grad_h_at_U)
        h_steps.append(h)
    grad_U += matmul_vjp_x2_over_steps(grad_h_at_U_steps, h_steps, U)

``matmul_vjp_x2_over_steps`` (``rules/support.py``) stacks the steps' rows and multiplies
once where their shapes line up, and sums step by step where they do not. The lists hold
the steps' arrays themselves, not copies.

Invariant: the gradient is the same sum of the same products, added in another order (equal
to rounding). The pass changes a loop only where the code shows that this holds:

- the statement runs once in each iteration (it is directly in the loop's body), and the
  loop cannot leave early (no ``break``, ``continue`` or ``return`` in it);
- the gradient it adds to is read and written nowhere else in the loop, and the matrix is
  not rebound in it, so it is the same at every step;
- no array kept for later can change before the product reads it: the loop writes in place
  only into arrays it never reads (accumulated gradients, made fresh just before the loop),
  and calls nothing that may write into its arguments (a function's derivative, a user's
  function), other than its own stacks' ``append`` and ``pop``.

``SOURCEGRAD_LOOP_PRODUCTS=0`` turns the pass off: the derivative is then made with one
product a step, as the tests compare.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field

from ..codegen import names as naming
from ..codegen.clone import clone
from ..codegen.printer import comment, is_comment
from ..codegen.walk import walk
from .desugar import call, located, name
from .purity import is_pure_call

ENVIRONMENT_VARIABLE = "SOURCEGRAD_LOOP_PRODUCTS"
PER_STEP = "matmul_vjp_x2"  # the per-step cotangent of the matrix ``x2`` in ``x1 @ x2``
OVER_STEPS = "matmul_vjp_x2_over_steps"  # the same, summed over collected steps
# the statements just before a loop that make its accumulated gradients: fresh arrays
_FRESH = frozenset({"zeros_like_grad", "private_copy"})
# helpers that write into their first argument
_WRITERS = frozenset({"add_at", "put_back"})
# methods of the sweep's own stacks (lists of saved values)
_STACK_METHODS = frozenset({"append", "pop"})
_PURE_BUILTINS = frozenset({"range", "reversed", "len", "int", "float", "complex", "bool",
                            "abs", "min", "max", "round", "isinstance", "tuple"})
_LEAVING = (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom, ast.Await,
            ast.NamedExpr, ast.Try, ast.With, ast.FunctionDef, ast.Lambda, ast.Global,
            ast.Nonlocal)


def enabled() -> bool:
    """Is the pass on? ``SOURCEGRAD_LOOP_PRODUCTS=0`` (or ``false``, ``no``, ``off``)
    turns it off."""
    setting = os.environ.get(ENVIRONMENT_VARIABLE, "1").strip().lower()
    return setting not in ("0", "false", "no", "off")


def batch_weight_gradients(adjoint: list[ast.stmt], namer: naming.Namer) -> list[ast.stmt]:
    """The backward sweep with each weight gradient that a loop accumulated from one product
    a step computed by one product after the loop, wherever that is certain to be the same
    sum (the module docstring says when)."""
    return _block(adjoint, namer)


@dataclass
class _Group:
    """The statements of one loop adding products with one matrix to one gradient."""

    gradient: str
    matrix: str
    statements: list[ast.AugAssign] = field(default_factory=list)
    cotangents: str = ""  # the lists the loop fills
    factors: str = ""


def _block(body: list[ast.stmt], namer: naming.Namer) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in body:
        for part in ("body", "orelse"):
            inner = getattr(stmt, part, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                setattr(stmt, part, _block(inner, namer))
        if isinstance(stmt, ast.For) and not stmt.orelse:
            out.extend(_batched(stmt, out, namer))
        else:
            out.append(stmt)
    return out


def _batched(loop: ast.For, before: list[ast.stmt], namer: naming.Namer) -> list[ast.stmt]:
    """``loop`` with its groups collected (lists made before it, products after), or
    ``[loop]`` unchanged."""
    groups = _groups(loop)
    if not groups or not _safe_to_collect(loop, groups, _made_fresh(before)):
        return [loop]
    for group in groups:
        first = group.statements[0].value
        assert isinstance(first, ast.Call)
        group.cotangents = _list_name(first.args[0], namer)
        group.factors = _list_name(first.args[1], namer)
    loop.body = _collecting(loop.body, groups)
    made = [located(comment(_why(groups)), loop)]
    for group in groups:
        made += [_empty_list(group.cotangents, loop), _empty_list(group.factors, loop)]
    products = [_product(group, loop) for group in groups]
    return [*made, loop, *products]


# -- what may be collected ------------------------------------------------------------------
def _groups(loop: ast.For) -> list[_Group]:
    """The statements ``grad_W += matmul_vjp_x2(g, x1, W)`` directly in ``loop``'s body whose
    gradient and matrix the rest of the loop leaves alone, by gradient."""
    found: dict[str, _Group] = {}
    for stmt in loop.body:
        parts = _accumulated_product(stmt)
        if parts is None:
            continue
        gradient, matrix = parts
        group = found.setdefault(gradient, _Group(gradient, matrix))
        if group.matrix != matrix:
            group.matrix = ""  # two matrices for one gradient: leave it as it is
        group.statements.append(stmt)  # type: ignore[arg-type]
    return [g for g in found.values() if g.matrix and _left_alone(loop, g)]


def _accumulated_product(stmt: ast.stmt) -> tuple[str, str] | None:
    """``(gradient, matrix)`` of ``gradient += matmul_vjp_x2(g, x1, matrix)``."""
    if not (isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add)
            and isinstance(stmt.target, ast.Name)):
        return None
    value = stmt.value
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id == PER_STEP and len(value.args) == 3 and not value.keywords
            and not any(isinstance(a, ast.Starred) for a in value.args)
            and isinstance(value.args[2], ast.Name)):
        return None
    gradient, matrix = stmt.target.id, value.args[2].id
    if gradient == matrix or gradient in _loads(value):
        return None
    return gradient, matrix


def _left_alone(loop: ast.For, group: _Group) -> bool:
    """Is the group's gradient named nowhere in ``loop`` but by its statements, and its
    matrix never rebound there?"""
    own = {id(s.target) for s in group.statements}
    for node in walk(loop):
        if not isinstance(node, ast.Name):
            continue
        if node.id == group.gradient and id(node) not in own:
            return False
        if node.id == group.matrix and not isinstance(node.ctx, ast.Load):
            return False
    return not any(group.matrix in _bound(node) for node in walk(loop))


def _safe_to_collect(loop: ast.For, groups: list[_Group], fresh: set[str]) -> bool:
    """Can no array the groups collect change before the products after the loop read it?
    The loop leaves only at its end, calls nothing that may write into what it is given
    (but its stacks' ``append``/``pop``), and writes in place only into arrays that it
    never reads and that were made fresh just before it."""
    collected_statements = {id(s) for g in groups for s in g.statements}
    collected = set().union(*[_loads(s.value) for g in groups for s in g.statements])
    writes = _Writes()
    for node in walk(loop):
        if isinstance(node, _LEAVING):
            return False
        if isinstance(node, ast.Call) and not _harmless_call(node, writes):
            return False
        if isinstance(node, ast.AugAssign) and id(node) not in collected_statements:
            if not writes.note(node.target):
                return False
        elif isinstance(node, ast.Assign | ast.Delete):
            for target in node.targets:
                for part in _parts(target):
                    if isinstance(part, ast.Subscript | ast.Attribute) and not writes.note(
                            part):
                        return False
    matrices = {g.matrix for g in groups}
    return all(_only_written(loop, array, writers, array in writes.stacks or array in fresh)
               and array not in collected and array not in matrices
               for array, writers in writes.arrays.items())


class _Writes:
    """The names a loop writes into in place, and the ``Name`` nodes that do."""

    def __init__(self) -> None:
        self.arrays: dict[str, list[ast.Name]] = {}
        self.stacks: set[str] = set()  # written only by ``append``/``pop``
        self.others: set[str] = set()

    def note(self, target: ast.expr, stack: bool = False) -> bool:
        """Record a write (``a += v``, ``a[i] = v``, ``a.append(v)``); False for a write into
        anything but a name's value (``a.b[i] = v``)."""
        base = target
        while isinstance(base, ast.Subscript):
            base = base.value
        if not isinstance(base, ast.Name):
            return False
        self.arrays.setdefault(base.id, []).append(base)
        (self.stacks if stack else self.others).add(base.id)
        self.stacks -= self.others
        return True


def _only_written(loop: ast.For, array: str, writers: list[ast.Name], fresh: bool) -> bool:
    """Is ``array`` named in ``loop`` only where it is written into, never rebound, and, unless
    a stack, made fresh before the loop? Then nothing the loop reads is its value."""
    mentions = sum(1 for n in walk(loop) if isinstance(n, ast.Name) and n.id == array)
    rebound = any(array in _bound(n) for n in walk(loop) if not isinstance(n, ast.AugAssign))
    return fresh and mentions == len(writers) and not rebound


def _harmless_call(node: ast.Call, writes: _Writes) -> bool:
    """A call that writes into nothing, or a stack's ``append``/``pop`` (noted as a write
    into the stack)."""
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in _STACK_METHODS:
        return writes.note(func.value, stack=True)
    if isinstance(func, ast.Name):
        if func.id in _WRITERS:
            return False
        if func.id in _PURE_BUILTINS:
            return True
    return is_pure_call(node)


def _made_fresh(before: list[ast.stmt]) -> set[str]:
    """The names the statements just before a loop bind to fresh arrays (``grad_b =
    zeros_like_grad(b)``, ``grad_b = private_copy(grad_b)``): the loop's prologue."""
    fresh: set[str] = set()
    for stmt in reversed(before):
        if is_comment(stmt):
            continue
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)
                and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id in _FRESH):
            break
        fresh.add(stmt.targets[0].id)
    return fresh


# -- the rewrite ----------------------------------------------------------------------------
def _collecting(body: list[ast.stmt], groups: list[_Group]) -> list[ast.stmt]:
    """The loop's body with each group's statement keeping its step's arrays instead."""
    by_statement = {id(s): g for g in groups for s in g.statements}
    out: list[ast.stmt] = []
    for stmt in body:
        group = by_statement.get(id(stmt))
        if group is None:
            out.append(stmt)
            continue
        assert isinstance(stmt, ast.AugAssign) and isinstance(stmt.value, ast.Call)
        cotangent, factor = stmt.value.args[0], stmt.value.args[1]
        out += [_append(group.cotangents, cotangent, stmt), _append(group.factors, factor, stmt)]
    return out


def _product(group: _Group, loop: ast.For) -> ast.stmt:
    total = call(OVER_STEPS, name(group.cotangents), name(group.factors), name(group.matrix))
    return located(ast.AugAssign(target=name(group.gradient, True), op=ast.Add(), value=total),
                   loop)


def _why(groups: list[_Group]) -> str:
    matrices = sorted({g.matrix for g in groups})
    listed = " and ".join(matrices) if len(matrices) <= 2 else ", ".join(matrices)
    return (f"the gradients of {listed}: each step's part kept, multiplied once after "
            f"the loop")


def _append(stack: str, value: ast.expr, like: ast.stmt) -> ast.stmt:
    method = ast.Attribute(value=name(stack), attr="append", ctx=ast.Load())
    return located(ast.Expr(value=ast.Call(func=method, args=[clone(value)], keywords=[])),
                   like)


def _empty_list(var: str, like: ast.stmt) -> ast.stmt:
    return located(ast.Assign(targets=[name(var, True)], value=ast.List(elts=[],
                                                                        ctx=ast.Load())), like)


def _list_name(expr: ast.expr, namer: naming.Namer) -> str:
    described = naming.describe(expr)[:naming.MAX_LENGTH].rstrip("_")
    return namer.fresh(f"{described}_steps", shorten=False)


# -- small helpers --------------------------------------------------------------------------
def _loads(node: ast.AST) -> set[str]:
    return {n.id for n in walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _parts(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, ast.Tuple | ast.List):
        return [p for t in target.elts for p in _parts(t)]
    if isinstance(target, ast.Starred):
        return _parts(target.value)
    return [target]


def _bound(node: ast.AST) -> set[str]:
    """Names a statement rebinds (not those it writes into)."""
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.For):
        targets = [node.target]
    elif isinstance(node, ast.Delete):
        targets = list(node.targets)
    return {p.id for t in targets for p in _parts(t) if isinstance(p, ast.Name)}
