"""Matrix products of a loop's steps as one product: the weight gradients after the loop,
the inputs' products before it.

The backward sweep of ``for t in range(n): h = np.tanh(xs[t] @ W + h @ U)`` adds a small
product to the weights' gradients at every step::

    for t in reversed(range(n)):
        ...
        grad_U += matmul_vjp_x2(grad_h_at_U, h, U)
        grad_W += matmul_vjp_x2(grad_xs_t_at_W, xs[t], W)

A careful person keeps each step's cotangent and left factor instead, and multiplies many
steps at once, as a person writing backpropagation through time by hand would
(``xs.reshape(-1, n_in).T @ grad_all_steps.reshape(-1, n_hidden)``), a few thousand
elements at a time so as not to keep every step's arrays alive to the end::

    grad_h_at_U_steps = []
    h_steps = []
    for t in reversed(range(n)):
        ...
        grad_h_at_U_steps.append(grad_h_at_U)
        h_steps.append(h)
        if enough_steps(grad_h_at_U_steps, h_steps):
            grad_U += matmul_vjp_x2_over_steps(grad_h_at_U_steps, h_steps, U)
            grad_h_at_U_steps = []
            h_steps = []
    grad_U += matmul_vjp_x2_over_steps(grad_h_at_U_steps, h_steps, U)

``matmul_vjp_x2_over_steps`` (``rules/support.py``) stacks the steps' rows and multiplies
once where their shapes line up, and sums step by step where they do not. The lists hold
the steps' arrays themselves, not copies. (Generated code spells ``grad_U += c`` as
``grad_U = add_into(grad_U, c)``: the pass reads it as the update in place it is.)

Invariant: the gradient is the same sum of the same products, added in another order (equal
to rounding). The pass changes a loop only where the code shows that this holds:

- the statement is in the loop's body (in a branch of it or not: each step's arrays are
  kept where the step's product was added), and the loop cannot leave early (no
  ``break``, ``continue`` or ``return`` in it; the backward sweep of a user's loop that
  breaks counts its steps instead);
- the gradient it adds to is read and written nowhere else in the loop, and the matrix is
  not rebound in it, so it is the same at every step;
- no array kept for later can change before the product reads it: the loop writes in place
  only into arrays it never reads (accumulated gradients, made fresh just before the loop)
  or into copies it has just made, and calls nothing that may write into its arguments (a
  function's derivative, a user's function), other than its own stacks' ``append`` and
  ``pop``.

The forward sweep gets the same treatment for the products of the loop's input with a
matrix: in ``for t in range(len(xs))``, ``xs_t_at_W = xs[t] @ W`` becomes ``xs_t_at_W =
xs_at_W[t]`` with ``xs_at_W = matmul_over_steps(xs, W)`` (``xs @ W``, or a list of the
steps' products where one product cannot say the same) made before the loop; where the loop
runs every step to its end, calls nothing that may write into its arguments, and leaves
``xs``, ``W``, ``t`` and the products alone.

``SOURCEGRAD_LOOP_PRODUCTS=0`` turns the pass off: the derivative is then made with one
product a step, as the tests compare.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable
from dataclasses import dataclass, field

from ..codegen import names as naming
from ..codegen.clone import clone
from ..codegen.printer import comment, is_comment
from ..codegen.walk import walk
from .desugar import call, located, name
from .purity import is_pure_call

ENVIRONMENT_VARIABLE = "SOURCEGRAD_LOOP_PRODUCTS"
ADD_INTO = "add_into"  # ``g = add_into(g, c)``: ``c`` added into the gradient ``g``
PER_STEP = "matmul_vjp_x2"  # the per-step cotangent of the matrix ``x2`` in ``x1 @ x2``
OVER_STEPS = "matmul_vjp_x2_over_steps"  # the same, summed over collected steps
ENOUGH = "enough_steps"  # have the collected steps enough elements to be multiplied?
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
    return _spelled_add_into(_block(_spelled_augmented(adjoint), namer))


# -- ``g = add_into(g, c)``, read as the update in place it is ------------------------------
class _Update(ast.AugAssign):
    """``g = add_into(g, c)`` while the pass reads it: ``g += c``, an update in place of the
    gradient ``g`` (which the generated code owns), as the pass's reasoning about writes
    wants it; spelled with ``add_into`` again when the pass is done."""

    _fields = ast.AugAssign._fields


def _to_update(node: ast.stmt) -> ast.stmt:
    value = node.value if isinstance(node, ast.Assign) else None
    if (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id == ADD_INTO and len(value.args) == 2 and not value.keywords
            and isinstance(value.args[0], ast.Name)
            and value.args[0].id == node.targets[0].id):
        update = _Update(target=node.targets[0], op=ast.Add(), value=value.args[1])
        return ast.copy_location(update, node)
    return node


def _from_update(node: ast.stmt) -> ast.stmt:
    if not isinstance(node, _Update):
        return node
    assert isinstance(node.target, ast.Name)
    total = call(ADD_INTO, name(node.target.id), node.value)
    return ast.copy_location(ast.Assign(targets=[name(node.target.id, True)], value=total),
                             node)


def _each_statement(body: list[ast.stmt], change: Callable[[ast.stmt], ast.stmt]
                    ) -> list[ast.stmt]:
    """``body`` with every statement, at any depth, replaced by ``change(stmt)`` (only
    statements: no expression holds one, and visiting every expression node was most of
    this pass's time)."""
    for stmt in body:
        for part in ("body", "orelse", "finalbody"):
            block = getattr(stmt, part, None)
            if isinstance(block, list):
                setattr(stmt, part, _each_statement(block, change))
        for holder in [*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())]:
            holder.body = _each_statement(holder.body, change)
    return [change(stmt) for stmt in body]


def _spelled_augmented(body: list[ast.stmt]) -> list[ast.stmt]:
    return _each_statement(body, _to_update)


def _spelled_add_into(body: list[ast.stmt]) -> list[ast.stmt]:
    return _each_statement(body, _from_update)


@dataclass
class _Group:
    """The statements of one loop adding products with one matrix to one gradient."""

    gradient: str
    matrix: str
    statements: list[ast.AugAssign] = field(default_factory=list)
    cotangents: str = ""  # the lists the loop fills
    factors: str = ""


def _rewrite_loops(body: list[ast.stmt],
                   rewrite: Callable[[ast.For, list[ast.stmt]], list[ast.stmt]]
                   ) -> list[ast.stmt]:
    """``body`` with each ``for`` loop (without ``else``, at any depth, inner ones first)
    replaced by ``rewrite(loop, the statements already placed before it)``."""
    out: list[ast.stmt] = []
    for stmt in body:
        for part in ("body", "orelse"):
            inner = getattr(stmt, part, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                setattr(stmt, part, _rewrite_loops(inner, rewrite))
        if isinstance(stmt, ast.For) and not stmt.orelse:
            out.extend(rewrite(stmt, out))
        else:
            out.append(stmt)
    return out


def _block(body: list[ast.stmt], namer: naming.Namer) -> list[ast.stmt]:
    return _rewrite_loops(body, lambda loop, before: _batched(loop, before, namer))


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
    loop.body = _collecting(loop.body, groups) + [_multiplied_so_far(g, loop) for g in groups]
    made = [located(comment(_why(groups)), loop)]
    for group in groups:
        made += [_empty_list(group.cotangents, loop), _empty_list(group.factors, loop)]
    products = [_product(group, loop) for group in groups]
    return [*made, loop, *products]


# -- what may be collected ------------------------------------------------------------------
def _groups(loop: ast.For) -> list[_Group]:
    """The statements ``grad_W += matmul_vjp_x2(g, x1, W)`` of ``loop``'s body (in branches
    too, not in inner loops) whose gradient and matrix the rest of the loop leaves alone, by
    gradient."""
    found: dict[str, _Group] = {}
    for stmt in _branches_of(loop.body):
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
        if isinstance(node, ast.Name) and (
                node.id == group.gradient and id(node) not in own
                or node.id == group.matrix and not isinstance(node.ctx, ast.Load)):
            return False
        if group.matrix in _bound(node):
            return False
    return True


def _safe_to_collect(loop: ast.For, groups: list[_Group], prologue: dict[str, str]) -> bool:
    """Can no array the groups collect change before the products after the loop read it?
    The loop must leave only at its end and call nothing that may write into what it is
    given (but its stacks' ``append``/``pop``); and each array it writes into in place must
    be a stack, or a copy it has just made (``grad_h = private_copy(grad_h)`` followed at
    once by ``grad_h[i] = ...``), or one made fresh just before the loop (``prologue``) that
    the loop never reads: no array the loop keeps can be any of these."""
    skip = {id(s) for g in groups for s in g.statements}
    writes: list[_Write] = []
    for node in walk(loop):
        if isinstance(node, _LEAVING):
            return False
        if isinstance(node, ast.Call) and not _harmless_call(node, writes):
            return False
        if isinstance(node, ast.stmt) and id(node) not in skip:
            found = _writes_of(node)
            if found is None:
                return False
            writes += found
    _mark_fresh_copies(loop.body, writes)
    by_array: dict[str, list[_Write]] = {}
    for write in writes:
        by_array.setdefault(write.array, []).append(write)
    kept = set().union(*[_loads(s.value) for g in groups for s in g.statements])
    kept |= {g.matrix for g in groups}
    names = _Names(loop)
    return all(_written_safely(names, array, found, prologue.get(array), kept)
               for array, found in by_array.items())


class _Names:
    """How often the loop names each variable, and which it rebinds (one walk)."""

    def __init__(self, loop: ast.For) -> None:
        self.mentions: dict[str, int] = {}
        self.rebound: set[str] = set()
        for node in walk(loop):
            if isinstance(node, ast.Name):
                self.mentions[node.id] = self.mentions.get(node.id, 0) + 1
            elif not isinstance(node, ast.AugAssign):
                self.rebound |= _bound(node)


@dataclass
class _Write:
    """An in-place write into the value of the name ``array``."""

    array: str
    kind: str  # "stack" (append/pop), "update" (a += v), "entry" (a[i] = v), "deep" (else)
    node: ast.AST  # the statement (or call) that writes
    name: ast.Name  # the name as the write mentions it
    fresh_copy: bool = False  # into a copy made just before, in the same block


def _writes_of(stmt: ast.stmt) -> list[_Write] | None:
    """The in-place writes a statement makes (a call's are found by ``_harmless_call``);
    None for a write into something other than a name's value (``a.b[i] = v``)."""
    if isinstance(stmt, ast.AugAssign):
        targets, updating = [stmt.target], True
    elif isinstance(stmt, ast.Assign | ast.Delete):
        targets, updating = [p for t in stmt.targets for p in _parts(t)], False
    else:
        return []
    found = []
    for target in targets:
        if isinstance(target, ast.Name):
            if updating:
                found.append(_Write(target.id, "update", stmt, target))
            continue
        base, depth = target, 0
        while isinstance(base, ast.Subscript):
            base, depth = base.value, depth + 1
        if not isinstance(base, ast.Name):
            return None
        kind = "entry" if depth == 1 and not updating else "deep"
        found.append(_Write(base.id, kind, stmt, base))
    return found


def _harmless_call(node: ast.Call, writes: list[_Write]) -> bool:
    """A call that writes into nothing, or a stack's ``append``/``pop`` (noted as a write
    into the stack)."""
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in _STACK_METHODS:
        if not isinstance(func.value, ast.Name):
            return False
        writes.append(_Write(func.value.id, "stack", node, func.value))
        return True
    if isinstance(func, ast.Name):
        if func.id in _WRITERS:
            return False
        if func.id in _PURE_BUILTINS:
            return True
    return is_pure_call(node)


def _mark_fresh_copies(body: list[ast.stmt], writes: list[_Write]) -> None:
    """Mark the writes that follow, in the same block, the statement making a fresh copy of
    the array they write into, with only such writes between: nothing else can hold that
    copy yet. ``private_copy`` copies a list's entries by reference: into its copies, only
    whole entries may be replaced (``a[i] = v``)."""
    by_statement: dict[int, list[_Write]] = {}
    for write in writes:
        by_statement.setdefault(id(write.node), []).append(write)
    copy: tuple[str, str] | None = None  # (array, how it was made) of the open copy
    for stmt in body:
        for part in ("body", "orelse"):
            inner = getattr(stmt, part, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                _mark_fresh_copies(inner, writes)
        if is_comment(stmt):
            continue
        made = _fresh_binding(stmt)
        found = by_statement.get(id(stmt), [])
        if made is not None:
            copy = made
        elif copy is not None and found and all(
                w.array == copy[0] and (w.kind in ("entry", "update") or w.kind == "deep"
                                        and copy[1] == "zeros_like_grad") for w in found):
            for write in found:
                write.fresh_copy = True
        else:
            copy = None


def _written_safely(names: _Names, array: str, writes: list[_Write], made: str | None,
                    kept: set[str]) -> bool:
    """Can a write into ``array`` change an array the loop keeps? Not if each write goes
    into a copy just made; not into a stack named only to push and pop; not into an array
    made before the loop (``made``) that the loop never reads, rebinds or keeps."""
    if all(w.fresh_copy for w in writes):
        return True
    if names.mentions.get(array, 0) != len(writes):
        return False  # read in the loop: it may be what was kept
    if all(w.kind == "stack" for w in writes):
        return True
    kinds_allowed = {"update", "entry"} if made == "private_copy" else {
        "update", "entry", "deep"}
    return (made is not None and array not in names.rebound and array not in kept
            and all(w.kind in kinds_allowed for w in writes))


def _fresh_binding(stmt: ast.stmt) -> tuple[str, str] | None:
    """``(name, helper)`` of ``name = zeros_like_grad(...)`` or ``private_copy(...)``."""
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id in _FRESH):
        return stmt.targets[0].id, stmt.value.func.id
    return None


def _made_fresh(before: list[ast.stmt]) -> dict[str, str]:
    """The names the statements just before a loop (its prologue) bind to fresh arrays
    (``grad_b = zeros_like_grad(b)``, ``grad_b = private_copy(grad_b)``), and how."""
    fresh: dict[str, str] = {}
    for stmt in reversed(before):
        if is_comment(stmt):
            continue
        made = _fresh_binding(stmt)
        if made is None:
            break
        fresh.setdefault(*made)
    return fresh


# -- the forward sweep: the input's products of all steps before the loop ------------------
def batch_input_products(forward: list[ast.stmt], namer: naming.Namer) -> list[ast.stmt]:
    """The forward sweep with each product of a step's input and a matrix the loop leaves
    alone (``xs_t_at_W = xs[t] @ W`` in ``for t in range(len(xs))``) taken from one product
    over all steps made before the loop (``xs_at_W = matmul_over_steps(xs, W)``, then
    ``xs_t_at_W = xs_at_W[t]``)."""
    return _spelled_add_into(_forward_block(_spelled_augmented(forward), namer))


def _forward_block(body: list[ast.stmt], namer: naming.Namer) -> list[ast.stmt]:
    return _rewrite_loops(body, lambda loop, before: _projected(loop, namer))


def _projected(loop: ast.For, namer: naming.Namer) -> list[ast.stmt]:
    steps = _steps_of(loop)
    if steps is None:
        return [loop]
    found = [s for s in _branches_of(loop.body) if _input_product(s, steps, loop.target.id)]
    if not found or not _leaves_alone(loop, found, steps):
        return [loop]
    made: dict[str, str] = {}  # matrix -> the products of all steps with it
    before: list[ast.stmt] = []
    for stmt in found:
        assert isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.BinOp)
        matrix = stmt.value.right.id  # type: ignore[attr-defined]
        if matrix not in made:
            made[matrix] = namer.fresh(f"{steps}_at_{matrix}"[:naming.MAX_LENGTH].rstrip("_"))
            before += [located(comment(f"{steps}[{loop.target.id}] @ {matrix} of every step, "
                                       "as one product"), loop),
                       located(ast.Assign(targets=[name(made[matrix], True)], value=call(
                           "matmul_over_steps", name(steps), name(matrix))), loop)]
        stmt.value = ast.Subscript(value=name(made[matrix]), slice=name(loop.target.id),
                                   ctx=ast.Load())
    done = located(ast.Delete(targets=[name(v, False) for v in made.values()]), loop)
    for target in done.targets:
        target.ctx = ast.Del()
    return [*before, loop, done]


def _steps_of(loop: ast.For) -> str | None:
    """``xs`` of ``for t in range(len(xs))`` or ``range(xs.shape[0])``."""
    it = loop.iter
    if not (isinstance(loop.target, ast.Name) and isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name) and it.func.id == "range"
            and len(it.args) == 1 and not it.keywords):
        return None
    count = it.args[0]
    if (isinstance(count, ast.Call) and isinstance(count.func, ast.Name)
            and count.func.id == "len" and len(count.args) == 1 and not count.keywords
            and isinstance(count.args[0], ast.Name)):
        return count.args[0].id
    if (isinstance(count, ast.Subscript) and isinstance(count.value, ast.Attribute)
            and count.value.attr == "shape" and isinstance(count.value.value, ast.Name)
            and isinstance(count.slice, ast.Constant) and count.slice.value == 0):
        return count.value.value.id
    return None


def _input_product(stmt: ast.stmt, steps: str, index: str) -> bool:
    """Is ``stmt`` ``v = steps[index] @ matrix``?"""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.BinOp)
            and isinstance(stmt.value.op, ast.MatMult)):
        return False
    left, right = stmt.value.left, stmt.value.right
    return (isinstance(left, ast.Subscript) and isinstance(left.value, ast.Name)
            and left.value.id == steps and isinstance(left.slice, ast.Name)
            and left.slice.id == index and isinstance(right, ast.Name)
            and right.id not in (steps, index))


def _leaves_alone(loop: ast.For, found: list[ast.stmt], steps: str) -> bool:
    """Does the loop run every step to the end (no ``break``, ``continue``, ``return``),
    call nothing that may write into what it is given, and leave the inputs, matrices and
    index alone (not rebound, not written into), and the products too (not written into:
    each is now part of one array)?"""
    targets = {s.targets[0].id for s in found}  # type: ignore[attr-defined]
    fixed = {steps, loop.target.id} | {s.value.right.id for s in found}  # type: ignore[attr-defined]
    writes: list[_Write] = []
    rebound: set[str] = set()
    for node in walk(loop):
        if isinstance(node, _LEAVING):
            return False
        if isinstance(node, ast.Call) and not _harmless_call(node, writes):
            return False
        if isinstance(node, ast.stmt) and node is not loop:
            found_writes = _writes_of(node)
            if found_writes is None:
                return False
            writes += found_writes
            rebound |= _bound(node)
    written = {w.array for w in writes if w.kind != "stack"}
    return not (rebound & fixed) and not (written & (fixed | targets))


# -- the rewrite ----------------------------------------------------------------------------
def _collecting(body: list[ast.stmt], groups: list[_Group]) -> list[ast.stmt]:
    """The loop's body with each group's statement keeping its step's arrays instead."""
    by_statement = {id(s): g for g in groups for s in g.statements}
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.If):
            stmt.body = _collecting(stmt.body, groups)
            stmt.orelse = _collecting(stmt.orelse, groups)
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
    spelling = type(group.statements[0])  # ``g += c`` or ``g = add_into(g, c)``
    return located(spelling(target=name(group.gradient, True), op=ast.Add(), value=total),
                   loop)


def _multiplied_so_far(group: _Group, loop: ast.For) -> ast.stmt:
    """``if enough_steps(gs, x1s): grad_W += matmul_vjp_x2_over_steps(gs, x1s, W); gs = [];
    x1s = []``: the steps kept so far multiplied and let go, a few thousand elements at a
    time, so that the loop does not keep every step's arrays alive to its end."""
    enough = call(ENOUGH, name(group.cotangents), name(group.factors))
    body = [_product(group, loop), _empty_list(group.cotangents, loop),
            _empty_list(group.factors, loop)]
    return located(ast.If(test=enough, body=body, orelse=[]), loop)


def _why(groups: list[_Group]) -> str:
    matrices = sorted({g.matrix for g in groups})
    listed = " and ".join(matrices) if len(matrices) <= 2 else ", ".join(matrices)
    return (f"the gradients of {listed}: the steps' factors kept, multiplied many steps at "
            "once")


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
def _branches_of(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of ``body`` and of the branches in it (not of inner loops)."""
    out: list[ast.stmt] = []
    for stmt in body:
        out.append(stmt)
        if isinstance(stmt, ast.If):
            out += _branches_of(stmt.body) + _branches_of(stmt.orelse)
    return out


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
