"""In a specialised variant (NumPy path): the steps a loop's weight products keep, as one
array of all steps, multiplied once after the loop, as a careful person writes
backpropagation through time.

``passes/batched_products.py`` makes the backward sweep keep each step's cotangent and left
factor in lists, multiplied a few thousand elements at a time (``matmul_vjp_x2_over_steps``
stacks each batch: copies). Once the trip count and every step's shapes are known, a
careful person preallocates instead::

    h_stack = np.empty((50, 8, 32))             # was []
    for t in range(xs.shape[0]):
        h_stack[t] = h                          # was h_stack.append(h)
        ...
    grad_h_at_Whh_steps = np.empty((50, 8, 32))
    for t in reversed(range(xs.shape[0])):
        grad_pre = grad_h_at_Whh_steps[t]       # the step's cotangent made in its slot
        np.multiply(grad_h, 1 - h ** 2, out=grad_pre)
        h = h_stack[t]                          # was h_stack.pop()
        ...
    grad_Whh = h_stack.reshape(-1, 32).T @ grad_h_at_Whh_steps.reshape(-1, 32)
    grad_Wxh = xs.reshape(-1, 8).T @ grad_h_at_Whh_steps.reshape(-1, 32)

Each list of the steps' factors becomes the array that already holds them all where there
is one (the argument ``xs`` for the steps ``xs[t]``; the saved states ``h_stack`` for the
steps ``h = h_stack.pop()``, which becomes an array too), else an array of all steps made
before the loop and written at ``t`` (the step's value made in its slot where it is a ufunc
or arithmetic, else copied in). Two lists of the same value share one array.

Invariant: the product after the loop is the sum, over the same steps, of the same products
the lists gave, in another order (equal to rounding). Where the pass applies:

- the backward loop is ``for t in reversed(range(n))`` with ``n`` known, never leaves early
  (no ``break``, ``continue``, ``return``) nor rebinds ``t``: each step runs once;
- each list is made empty before the loop, appended to once per step at the top level of
  its body, multiplied (with the partial products in the loop, which go) after it, and
  named nowhere else; the steps' shapes and dtypes are known, the same at every step, and
  line up with the matrix (``x1 @ W`` gives the cotangent's shape);
- a step read from an argument is ``xs[t]`` of a parameter the function never rebinds, all
  of whose ``n`` rows are the steps; a step popped from a stack is so at the top level of
  the loop, and the stack is made before a ``for t in range(n)`` loop (the same range, run
  to its end) that pushes it once per step at its top level, and is named nowhere else;
- a value copied into a slot (a state pushed, a step the loop computes otherwise) is not
  written in place anywhere in the function (no ``+=``, item assignment or ``out=`` into
  it): the copy holds what the list would have held.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..codegen import printer
from ..codegen.walk import blocks, walk
from ..passes.purity import PURE_HELPERS
from ..rules import support
from .abstract import Abstract, Array

TRIP_COUNT = "sourcegrad_trip_count"  # (cleanup.TRIP_COUNT: a ``for``'s length, if known)
_UFUNCS: dict[type, str] = {
    ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply", ast.Div: "true_divide",
}
_UNARY_UFUNCS: dict[type, str] = {ast.USub: "negative"}
_SIZES = (len, support.enough_steps)  # what the test of the partial products may call
_LEAVING = (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom, ast.Await)


@dataclass
class Context:
    """What the pass needs of the specialiser."""

    known: dict[int, tuple[ast.AST, Abstract]]  # what is known of each expression written
    stack_items: dict[str, Abstract]  # what each list holds
    resolve: Callable[[str], Any]  # the object a global or helper name denotes
    ufunc_call: Callable[[ast.Call], bool]  # a ufunc of one output given its inputs
    np_name: str


def preallocate_steps(fdef: ast.FunctionDef, context: Context) -> bool:
    """Rewrite ``fdef`` in place (see the module docstring); did anything change? One walk
    finds the loops followed by products of kept steps; what the function-wide checks read
    (names, writes) is gathered once, and again only after a loop was rewritten."""
    changed = False
    facts: _Facts | None = None
    for block in blocks(fdef):
        for loop, products in _loops_with_products(block, context.resolve):
            if not _backward_loop(loop):
                continue
            if facts is None:
                facts = _Facts.of(fdef, context.resolve)
            if _Rewrite(fdef, block, loop, context, facts, products).run():
                changed, facts = True, None
    return changed


@dataclass
class _Facts:
    """What the checks read of the whole function."""

    mentions: dict[str, int]
    written: set[str]
    stores: set[str]
    parameters: set[str]

    @classmethod
    def of(cls, fdef: ast.FunctionDef, resolve: Callable[[str], Any]) -> _Facts:
        parameters = {a.arg for a in [*fdef.args.posonlyargs, *fdef.args.args,
                                      *fdef.args.kwonlyargs]}
        return cls(_mentions(fdef), _written_in_place(fdef, resolve), _stored(fdef),
                   parameters)


def _loops_with_products(block: list[ast.stmt], resolve: Callable[[str], Any]
                         ) -> list[tuple[ast.For, list[ast.AugAssign]]]:
    """Each ``for`` of the block with the products of kept steps that follow it (before
    the next ``for``)."""
    found: list[tuple[ast.For, list[ast.AugAssign]]] = []
    loop: ast.For | None = None
    for stmt in block:
        if isinstance(stmt, ast.For):
            loop = stmt
        elif loop is not None and _product_parts(stmt, resolve) is not None:
            assert isinstance(stmt, ast.AugAssign)
            if not found or found[-1][0] is not loop:
                found.append((loop, []))
            found[-1][1].append(stmt)
    return found


def _product_parts(stmt: ast.stmt, resolve: Callable[[str], Any]
                   ) -> tuple[str, str, str] | None:
    """``(cotangents, factors, matrix)`` of ``g += matmul_vjp_x2_over_steps(gs, x1s, W)``."""
    if not (isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add)
            and isinstance(stmt.target, ast.Name)):
        return None
    value = stmt.value
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and resolve(value.func.id) is support.matmul_vjp_x2_over_steps
            and len(value.args) == 3 and not value.keywords
            and all(isinstance(a, ast.Name) for a in value.args)):
        return None
    names = [a.id for a in value.args]  # type: ignore[attr-defined]
    if len(set(names) | {stmt.target.id}) != 4:
        return None
    return names[0], names[1], names[2]


# -- the loops ------------------------------------------------------------------------------
def _backward_loop(stmt: ast.stmt) -> bool:
    """``for t in reversed(range(n))``, ``n`` known, each step run once to its end."""
    if not (isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name)
            and not stmt.orelse and isinstance(getattr(stmt, TRIP_COUNT, None), int)):
        return False
    it = stmt.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name)
            and it.func.id == "reversed" and len(it.args) == 1 and not it.keywords
            and _is_range(it.args[0])):
        return False
    return _runs_each_step(stmt)


def _forward_loop(stmt: ast.stmt, backward: ast.For) -> bool:
    """``for i in range(n)`` over the backward loop's range, each step run once to its end."""
    if not (isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name)
            and not stmt.orelse and _is_range(stmt.iter)):
        return False
    count = getattr(stmt, TRIP_COUNT, None)
    return isinstance(count, int) and count == getattr(backward, TRIP_COUNT, None) and (
        ast.dump(stmt.iter) == ast.dump(backward.iter.args[0])  # type: ignore[attr-defined]
    ) and _runs_each_step(stmt)


def _is_range(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
        node.func.id == "range" and len(node.args) == 1 and not node.keywords)


def _runs_each_step(loop: ast.For) -> bool:
    assert isinstance(loop.target, ast.Name)
    for node in walk(ast.Module(body=loop.body, type_ignores=[])):
        if isinstance(node, _LEAVING):
            return False
        if isinstance(node, ast.Name) and node.id == loop.target.id and not isinstance(
                node.ctx, ast.Load):
            return False
    return True


# -- one backward loop ----------------------------------------------------------------------
@dataclass
class _Group:
    """``gradient += matmul_vjp_x2_over_steps(cotangents, factors, matrix)`` after the loop."""

    product: ast.AugAssign
    gradient: str
    cotangents: str
    factors: str
    matrix: Array
    partial: ast.If | None = None  # the partial products in the loop


@dataclass
class _Steps:
    """Where the array of all of a list's steps comes from."""

    how: str  # "argument", "stack", "computed", "copied"
    array: str  # its name
    made: ast.stmt | None = None  # for "computed": the statement that makes the step
    value: ast.expr | None = None  # for "copied": what is copied into the slot
    item: Array | None = None


class _Rewrite:
    def __init__(self, fdef: ast.FunctionDef, block: list[ast.stmt], loop: ast.For,
                 context: Context, facts: _Facts, products: list[ast.AugAssign]) -> None:
        self.fdef, self.block, self.loop, self.context = fdef, block, loop, context
        assert isinstance(loop.target, ast.Name)
        self.index = loop.target.id
        self.count: int = getattr(loop, TRIP_COUNT)
        self.products = products
        self.mentions = facts.mentions
        self.written = facts.written
        self.parameters = facts.parameters
        self.stores = facts.stores
        self.body_bindings = _bindings(loop.body)
        self.steps: dict[str, _Steps] = {}  # list -> its steps
        self.by_value: dict[tuple, _Steps] = {}  # what a step is -> the array holding it
        self.stacks: dict[str, tuple[ast.Assign, ast.For, ast.Expr, ast.Assign]] = {}

    def run(self) -> bool:
        groups = [g for g in self.groups() if self.settle(g)]
        if not groups:
            return False
        self.name_the_steps()
        for stack in self.stacks.values():
            self.preallocate_stack(*stack)
        removed = {id(g.partial) for g in groups if g.partial is not None}
        lists = {g.cotangents for g in groups} | {g.factors for g in groups}
        made_here: set[str] = set()
        new_body: list[ast.stmt] = []
        for stmt in self.loop.body:
            if id(stmt) in removed:
                continue
            appended = _appended(stmt)
            if appended is not None and appended[0] in lists:
                steps = self.steps[appended[0]]
                if steps.how == "copied" and steps.array not in made_here:
                    made_here.add(steps.array)
                    new_body.append(self.slot_copy(steps, stmt))
                continue
            computed = [s for s in self.steps.values() if s.how == "computed"
                        and s.made is stmt]
            if computed and computed[0].array not in made_here:
                made_here.add(computed[0].array)
                new_body += self.made_in_slot(computed[0], stmt)
                continue
            new_body.append(stmt)
        self.loop.body = new_body or [ast.Pass()]
        self.make_arrays(groups, lists)
        for group in groups:
            self.multiply_once(group)
        return True

    def name_the_steps(self) -> None:
        """``step`` for a loop variable ``_`` that will index the arrays."""
        loops = [self.loop, *[forward for _, forward, _, _ in self.stacks.values()]]
        if all(loop.target.id != "_" for loop in loops):  # type: ignore[attr-defined]
            return
        taken = _names(self.fdef)
        name, n = "step", 2
        while name in taken:
            name, n = f"step_{n}", n + 1
        for loop in loops:
            if loop.target.id == "_":  # type: ignore[attr-defined]
                loop.target = ast.Name(id=name, ctx=ast.Store())
        self.index = self.loop.target.id  # type: ignore[attr-defined]

    # -- what the loop's lists are -------------------------------------------------------------
    def groups(self) -> list[_Group]:
        found = []
        for stmt in self.products:
            parts = self.product_of(stmt)
            if parts is None:
                continue
            cotangents, factors, _ = parts
            matrix_known = self.known(stmt.value.args[2])  # type: ignore[attr-defined]
            if isinstance(matrix_known, Array) and matrix_known.shape is not None and len(
                    matrix_known.shape) == 2 and not matrix_known.scalar:
                assert isinstance(stmt.target, ast.Name)
                found.append(_Group(stmt, stmt.target.id, cotangents, factors, matrix_known))
        return found

    def product_of(self, stmt: ast.stmt) -> tuple[str, str, str] | None:
        return _product_parts(stmt, self.context.resolve)

    def settle(self, group: _Group) -> bool:
        """Can the group's lists be arrays of all steps? Works out where each one's steps
        come from (``self.steps``)."""
        if group.gradient in self.body_bindings or group.matrix is None:
            return False
        mentioned = 1  # the product after the loop
        made = [s for s in self.block[:self.block.index(self.loop)]
                if emptied_list(s) in (group.cotangents, group.factors)]
        if len(made) != 2 or {emptied_list(s) for s in made} != {group.cotangents, group.factors}:
            return False
        mentioned += 1
        appends: dict[str, tuple[ast.expr, int]] = {}
        for at, stmt in enumerate(self.loop.body):
            appended = _appended(stmt)
            if appended is not None and appended[0] in (group.cotangents, group.factors):
                if appended[0] in appends:
                    return False
                appends[appended[0]] = (appended[1], at)
            elif isinstance(stmt, ast.If) and self.partial_product(stmt, group):
                if group.partial is not None:
                    return False
                group.partial = stmt
        if set(appends) != {group.cotangents, group.factors}:
            return False
        # the gradient is added to in the loop by its partial products alone: it is read
        # only after the loop, where the product of all steps has been added
        in_loop = sum(1 for stmt in self.loop.body for n in walk(stmt)
                      if isinstance(n, ast.Name) and n.id == group.gradient)
        in_partial = sum(1 for n in walk(group.partial) if isinstance(n, ast.Name)
                         and n.id == group.gradient) if group.partial is not None else 0
        if in_loop != in_partial:
            return False
        for name in (group.cotangents, group.factors):
            inside = sum(1 for n in walk(group.partial) if isinstance(n, ast.Name)
                         and n.id == name) if group.partial is not None else 0
            if self.mentions.get(name, 0) != mentioned + 1 + inside:
                return False  # named somewhere else too
        g_item, x1_item = (self.item(group.cotangents), self.item(group.factors))
        if g_item is None or x1_item is None or not _lines_up(g_item, x1_item, group.matrix):
            return False
        by_value, stacks = dict(self.by_value), dict(self.stacks)
        g_steps = self.steps_of(*appends[group.cotangents], g_item, group.cotangents)
        x1_steps = self.steps_of(*appends[group.factors], x1_item, group.factors)
        if g_steps is None or x1_steps is None:  # what this group found goes with it
            self.by_value, self.stacks = by_value, stacks
            return False
        self.steps[group.cotangents], self.steps[group.factors] = g_steps, x1_steps
        return True

    def partial_product(self, stmt: ast.If, group: _Group) -> bool:
        """``if len(gs) >= k: g += matmul_vjp_x2_over_steps(gs, x1s, W); gs = []; x1s = []``
        (or ``enough_steps(gs, x1s)``)."""
        lists = {group.cotangents, group.factors}
        if stmt.orelse or len(stmt.body) != 3:
            return False
        for node in walk(stmt.test):
            if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and (
                    _is_one_of(self.context.resolve(node.func.id), _SIZES))):
                return False
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and (
                    node.id not in lists) and not _is_one_of(self.context.resolve(node.id),
                                                             _SIZES):
                return False
        product, *empties = stmt.body
        parts = self.product_of(product)
        return parts is not None and parts[:2] == (group.cotangents, group.factors) and (
            ast.dump(product) == ast.dump(group.product)) and (
            {emptied_list(s) for s in empties} == lists)

    def item(self, name: str) -> Array | None:
        item = self.context.stack_items.get(name)
        if isinstance(item, Array) and item.shape and item.dtype is not None and (
                not item.scalar) and np.issubdtype(item.dtype, np.number):
            return item
        return None

    def steps_of(self, value: ast.expr, at: int, item: Array, name: str) -> _Steps | None:
        """Where the array of the steps ``value`` (appended at every step, by the loop's
        statement ``at``) comes from."""
        value = self.root(value, at)
        if isinstance(value, ast.Subscript):
            steps = self.argument_steps(value, item)
            if steps is not None:
                return steps
        if isinstance(value, ast.Name) and value.id in self.body_bindings and (
                self.loop.body.index(self.body_bindings[value.id]) < at):
            made = self.body_bindings[value.id]
            if isinstance(made, ast.Assign) and _is_pop(made.value):
                steps = self.stack_steps(made, item)
                if steps is not None:
                    return steps
            key = ("computed", value.id)
            if key in self.by_value:
                return self.by_value[key]
            if isinstance(made, ast.Assign) and self.in_slot(made, item):
                steps = _Steps("computed", name, made=made, item=item)
                self.by_value[key] = steps
                return steps
        if any(n.id in self.written for n in walk(value) if isinstance(n, ast.Name)):
            return None  # a copy could miss what is written into it later
        if self.known_array(value) != (item.shape, item.dtype):
            return None
        return _Steps("copied", name, value=value, item=item)

    def root(self, value: ast.expr, at: int) -> ast.expr:
        """``w`` for ``v`` where the loop binds ``v = w`` before its statement ``at`` and
        ``w`` before that (names the loop binds once, at its top level)."""
        body = self.loop.body
        while isinstance(value, ast.Name):
            made = self.body_bindings.get(value.id)
            if not (isinstance(made, ast.Assign) and isinstance(made.value, ast.Name)) or (
                    body.index(made) >= at):
                break
            source = made.value.id
            if source not in self.body_bindings or body.index(
                    self.body_bindings[source]) >= body.index(made):
                break
            value, at = made.value, body.index(made)
        return value

    def argument_steps(self, value: ast.Subscript, item: Array) -> _Steps | None:
        """``xs[t]`` of a parameter ``xs`` the function never rebinds, of ``n`` steps."""
        if not (isinstance(value.value, ast.Name) and isinstance(value.slice, ast.Name)
                and value.slice.id == self.index):
            return None
        array = value.value.id
        known = self.known(value.value)
        if array not in self.parameters or array in self.stores or not isinstance(
                known, Array) or known.scalar or known.shape is None or known.shape != (
                self.count, *item.shape) or known.dtype != item.dtype:
            return None
        return self.by_value.setdefault(("argument", array), _Steps("argument", array))

    def stack_steps(self, pop: ast.Assign, item: Array) -> _Steps | None:
        """The steps ``v = stack.pop()``, when ``stack`` can be an array of all steps."""
        stack = pop.value.func.value.id  # type: ignore[attr-defined]
        key = ("stack", stack)
        if key in self.by_value:
            return self.by_value[key]
        if self.mentions.get(stack) != 3:
            return None
        made = next((s for s in self.block[:self.block.index(self.loop)]
                     if emptied_list(s) == stack), None)
        forward = next((s for s in self.block[:self.block.index(self.loop)]
                        if _forward_loop(s, self.loop) and any(
                            _appended(p) is not None and _appended(p)[0] == stack  # type: ignore[index]
                            for p in s.body)), None)  # type: ignore[attr-defined]
        if made is None or forward is None or self.block.index(made) > self.block.index(
                forward):
            return None
        assert isinstance(forward, ast.For) and isinstance(made, ast.Assign)
        push = next(p for p in forward.body if _appended(p) is not None
                    and _appended(p)[0] == stack)  # type: ignore[index]
        pushed = _appended(push)[1]  # type: ignore[index]
        stack_item = self.item(stack)
        if stack_item is None or (stack_item.shape, stack_item.dtype) != (
                item.shape, item.dtype) or self.known_array(pushed) != (item.shape, item.dtype):
            return None
        if any(n.id in self.written for n in walk(pushed) if isinstance(n, ast.Name)):
            return None  # the copy pushed could miss what is written into it later
        if _assigned_between(self.block, made, forward, forward.iter):
            return None
        assert isinstance(push, ast.Expr)
        self.stacks[stack] = (made, forward, push, pop)
        steps = _Steps("stack", stack, item=item)
        self.by_value[key] = steps
        return steps

    def in_slot(self, made: ast.Assign, item: Array) -> bool:
        """Can ``v = <ufunc or arithmetic>`` write its result into the step's slot?"""
        if len(made.targets) != 1 or not isinstance(made.targets[0], ast.Name):
            return False
        if made.targets[0].id in {n.id for n in walk(made.value) if isinstance(n, ast.Name)}:
            return False
        if _operation(made.value, self.context) is None:
            return False
        return self.known_array(made.value) == (item.shape, item.dtype)

    def known(self, node: ast.AST) -> Abstract | None:
        entry = self.context.known.get(id(node))
        return entry[1] if entry is not None and entry[0] is node else None

    def known_array(self, node: ast.AST) -> tuple | None:
        known = self.known(node)
        if isinstance(known, Array) and not known.scalar and known.shape:
            return (known.shape, known.dtype)
        return None

    # -- the rewrite ----------------------------------------------------------------------------
    def preallocate_stack(self, made: ast.Assign, forward: ast.For, push: ast.Expr,
                          pop: ast.Assign) -> None:
        stack = _appended(push)[0]  # type: ignore[index]
        steps = self.by_value[("stack", stack)]
        assert steps.item is not None and isinstance(forward.target, ast.Name)
        made.value = self.empty(steps.item)
        slot = _at(stack, forward.target.id, ast.Store())
        forward.body[forward.body.index(push)] = ast.copy_location(
            ast.Assign(targets=[slot], value=_appended(push)[1]), push)  # type: ignore[index]
        pop.value = _at(stack, self.index, ast.Load())

    def slot_copy(self, steps: _Steps, like: ast.stmt) -> ast.stmt:
        assert steps.value is not None
        return ast.copy_location(ast.Assign(targets=[_at(steps.array, self.index, ast.Store())],
                                            value=steps.value), like)

    def made_in_slot(self, steps: _Steps, made: ast.stmt) -> list[ast.stmt]:
        """``v = arrays[t]`` then ``np.ufunc(..., out=v)``."""
        assert isinstance(made, ast.Assign) and isinstance(made.targets[0], ast.Name)
        name = made.targets[0].id
        func, operands = _operation(made.value, self.context)  # type: ignore[misc]
        view = ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())],
                          value=_at(steps.array, self.index, ast.Load()))
        out = ast.keyword(arg="out", value=ast.Name(id=name, ctx=ast.Load()))
        applied = ast.Expr(value=ast.Call(func=func, args=operands, keywords=[out]))
        return [ast.copy_location(view, made), ast.copy_location(applied, made)]

    def make_arrays(self, groups: list[_Group], lists: set[str]) -> None:
        """The lists' ``[]`` before the loop: an array of all steps for those the loop
        fills, nothing for the others; the note says what the loop now keeps."""
        filled = {s.array for s in self.steps.values() if s.how in ("computed", "copied")}
        out: list[ast.stmt] = []
        for stmt in self.block[:self.block.index(self.loop)]:
            emptied = emptied_list(stmt)
            if emptied in lists:
                if emptied in filled:
                    assert isinstance(stmt, ast.Assign)
                    item = self.steps[emptied].item
                    assert item is not None
                    stmt.value = self.empty(item)
                    filled.discard(emptied)
                    out.append(stmt)
                continue
            if printer.is_comment(stmt) and stmt.value.value.endswith(  # type: ignore[attr-defined]
                    "multiplied many steps at once"):
                stmt.value.value = stmt.value.value.replace(  # type: ignore[attr-defined]
                    "the steps' factors kept, multiplied many steps at once",
                    "the steps' factors kept in arrays, multiplied at once")
            out.append(stmt)
        at = self.block.index(self.loop)
        self.block[:at] = out

    def multiply_once(self, group: _Group) -> None:
        """``g += x1s.reshape(-1, k).T @ gs.reshape(-1, m)``, or ``g = ...`` where ``g`` was
        made zero for it."""
        g_steps, x1_steps = self.steps[group.cotangents], self.steps[group.factors]
        g_item, x1_item = self.item(group.cotangents), self.item(group.factors)
        assert g_item is not None and x1_item is not None and g_item.shape and x1_item.shape
        left = _rows(x1_steps.array, x1_item)
        right = _rows(g_steps.array, g_item)
        product = ast.BinOp(left=ast.Attribute(value=left, attr="T", ctx=ast.Load()),
                            op=ast.MatMult(), right=right)
        group.product.value = product
        zero = self.made_zero(group)
        if zero is not None:
            self.block.remove(zero)
            at = self.block.index(group.product)
            self.block[at] = ast.copy_location(ast.Assign(
                targets=[ast.Name(id=group.gradient, ctx=ast.Store())], value=product),
                group.product)

    def made_zero(self, group: _Group) -> ast.stmt | None:
        """``g = np.zeros(shape)`` before the loop, ``g`` named nowhere else until the
        product, of the product's shape and dtype."""
        before = self.block[:self.block.index(self.loop)]
        zero = next((s for s in reversed(before) if isinstance(s, ast.Assign)
                     and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                     and s.targets[0].id == group.gradient), None)
        if zero is None or not _is_zeros(zero.value, self.context):
            return None
        between = self.block[self.block.index(zero) + 1:self.block.index(group.product)]
        if any(isinstance(n, ast.Name) and n.id == group.gradient
               for s in between for n in walk(s)):
            return None
        known = self.known(zero.value)
        g_item, x1_item = self.item(group.cotangents), self.item(group.factors)
        assert g_item is not None and x1_item is not None
        result = np.result_type(g_item.dtype, x1_item.dtype)  # type: ignore[arg-type]
        expected = (x1_item.shape[-1], g_item.shape[-1])  # type: ignore[index]
        if not (isinstance(known, Array) and known.shape == expected and known.dtype == result):
            return None
        return zero

    def empty(self, item: Array) -> ast.expr:
        shape = ast.Tuple(elts=[ast.Constant(self.count), *[ast.Constant(n) for n in
                                                             item.shape or ()]],
                          ctx=ast.Load())
        args: list[ast.expr] = [shape]
        if item.dtype != np.float64:
            args.append(ast.Attribute(value=ast.Name(id=self.context.np_name, ctx=ast.Load()),
                                      attr=np.dtype(item.dtype).name, ctx=ast.Load()))
        return ast.Call(func=ast.Attribute(value=ast.Name(id=self.context.np_name,
                                                          ctx=ast.Load()),
                                           attr="empty", ctx=ast.Load()),
                        args=args, keywords=[])


# -- small helpers --------------------------------------------------------------------------
def _lines_up(g: Array, x1: Array, matrix: Array) -> bool:
    """Is each step's ``g`` shaped as its ``x1 @ matrix``, ``x1`` a vector or more?"""
    assert g.shape is not None and x1.shape is not None and matrix.shape is not None
    return len(x1.shape) >= 1 and x1.shape[-1] == matrix.shape[0] and (
        g.shape == (*x1.shape[:-1], matrix.shape[1]))


def _rows(array: str, item: Array) -> ast.expr:
    """All steps' rows: ``array.reshape(-1, k)``, or ``array`` for steps that are vectors."""
    assert item.shape is not None
    name = ast.Name(id=array, ctx=ast.Load())
    if len(item.shape) == 1:
        return name
    return ast.Call(func=ast.Attribute(value=name, attr="reshape", ctx=ast.Load()),
                    args=[ast.UnaryOp(op=ast.USub(), operand=ast.Constant(1)),
                          ast.Constant(item.shape[-1])], keywords=[])


def _operation(value: ast.expr, context: Context) -> tuple[ast.expr, list[ast.expr]] | None:
    """``value`` (arithmetic, a ufunc) as a ufunc and its operands."""
    np_name = context.np_name
    if isinstance(value, ast.BinOp) and type(value.op) in _UFUNCS:
        return _ufunc(np_name, _UFUNCS[type(value.op)]), [value.left, value.right]
    if isinstance(value, ast.UnaryOp) and type(value.op) in _UNARY_UFUNCS:
        return _ufunc(np_name, _UNARY_UFUNCS[type(value.op)]), [value.operand]
    if isinstance(value, ast.Call) and context.ufunc_call(value) and not value.keywords:
        return value.func, list(value.args)
    return None


def _ufunc(np_name: str, name: str) -> ast.expr:
    return ast.Attribute(value=ast.Name(id=np_name, ctx=ast.Load()), attr=name, ctx=ast.Load())


def _is_zeros(value: ast.expr, context: Context) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and (
        value.func.attr == "zeros" and isinstance(value.func.value, ast.Name)
        and context.resolve(value.func.value.id) is np and len(value.args) == 1
        and not value.keywords)


def _at(array: str, index: str, ctx: ast.expr_context) -> ast.Subscript:
    return ast.Subscript(value=ast.Name(id=array, ctx=ast.Load()),
                         slice=ast.Name(id=index, ctx=ast.Load()), ctx=ctx)


def emptied_list(stmt: ast.stmt) -> str | None:
    """``xs`` of ``xs = []``."""
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.List)
            and not stmt.value.elts):
        return stmt.targets[0].id
    return None


def _appended(stmt: ast.stmt) -> tuple[str, ast.expr] | None:
    """``(xs, v)`` of the statement ``xs.append(v)``."""
    if not isinstance(stmt, ast.Expr):
        return None
    call = stmt.value
    if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "append" and isinstance(call.func.value, ast.Name)
            and len(call.args) == 1 and not call.keywords
            and not isinstance(call.args[0], ast.Starred)):
        return call.func.value.id, call.args[0]
    return None


def _is_pop(value: ast.expr) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and (
        value.func.attr == "pop" and isinstance(value.func.value, ast.Name)
        and not value.args and not value.keywords)


def _bindings(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    """Names the block binds exactly once, at its top level (a plain ``name = value``), and
    nowhere deeper: name -> that statement."""
    count: dict[str, int] = {}
    top: dict[str, ast.stmt] = {}
    for stmt in body:
        for node in walk(stmt):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                count[node.id] = count.get(node.id, 0) + 1
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], ast.Name):
            top.setdefault(stmt.targets[0].id, stmt)
    return {name: stmt for name, stmt in top.items() if count[name] == 1}


def _mentions(fdef: ast.FunctionDef) -> dict[str, int]:
    found: dict[str, int] = {}
    for node in walk(fdef):
        if isinstance(node, ast.Name):
            found[node.id] = found.get(node.id, 0) + 1
    return found


def _stored(fdef: ast.FunctionDef) -> set[str]:
    return {n.id for n in walk(fdef) if isinstance(n, ast.Name)
            and not isinstance(n.ctx, ast.Load)}


def _written_in_place(fdef: ast.FunctionDef, resolve: Callable[[str], Any]) -> set[str]:
    """Names whose arrays the function may write into: ``x += v``, ``x[i] = v``, ``out=x``,
    a method's receiver and a call's arguments (but those of a NumPy function without
    ``out=``, of a list's ``append``/``pop`` and of the few builtins generated code calls)."""
    written: set[str] = set()
    for node in walk(fdef):
        if isinstance(node, ast.AugAssign):
            written |= _names(node.target)
        elif isinstance(node, ast.Assign | ast.Delete):
            for target in node.targets:
                for part in walk(target):
                    if isinstance(part, ast.Subscript | ast.Attribute):
                        written |= _names(part.value)
        elif isinstance(node, ast.keyword) and node.arg == "out":
            written |= _names(node.value)
        elif isinstance(node, ast.Call) and not _reads_only(node, resolve):
            written |= {n for arg in [*node.args, *[k.value for k in node.keywords]]
                        for n in _names(arg)}
            if isinstance(node.func, ast.Attribute):
                written |= _names(node.func.value)
    return written


_NUMPY_WRITERS = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal"})
_READING_METHODS = frozenset({"append", "pop", "reshape", "copy", "transpose", "sum",
                              "ravel", "astype"})
_READING_BUILTINS = frozenset({len, range, reversed, float, int, list, tuple})


def _reads_only(call: ast.Call, resolve: Callable[[str], Any]) -> bool:
    """A call that writes into none of its arguments (nor into its receiver)."""
    func = call.func
    if isinstance(func, ast.Attribute):
        if isinstance(func.value, ast.Name) and resolve(func.value.id) is np:
            return func.attr not in _NUMPY_WRITERS
        return func.attr in _READING_METHODS
    if not isinstance(func, ast.Name):
        return False
    called = resolve(func.id)
    if _is_one_of(called, _READING_BUILTINS):
        return True
    name = getattr(called, "__name__", "")
    return name in _READING_HELPERS and getattr(support, name, None) is called


# sourcegrad's helpers that write into nothing they are given (``add_into`` writes into its
# first argument)
_READING_HELPERS = PURE_HELPERS - {"add_into"}


def _is_one_of(value: Any, objects: frozenset | tuple) -> bool:
    return any(value is o for o in objects)


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in walk(node) if isinstance(n, ast.Name)}


def _assigned_between(block: list[ast.stmt], first: ast.stmt, last: ast.stmt,
                      expr: ast.expr) -> bool:
    reads = {n.id for n in walk(expr) if isinstance(n, ast.Name)}
    between = block[block.index(first) + 1:block.index(last)]
    return any(isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and n.id in reads
               for s in between for n in walk(s))


__all__ = ["Context", "preallocate_steps"]
