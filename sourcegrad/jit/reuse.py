"""In a specialised variant (NumPy path): results written into memory that nothing else will
read, as a careful person writes a memory-bound gradient.

Generated code deletes each intermediate right after its last use (``del sin_x``). Where
that last use is an elementwise operation with an array of the result's own shape and
dtype, the result goes into that array; and a ufunc of a temporary (``np.exp(a * x)``)
works in the temporary::

    grad_exp = np.multiply(grad_value, sin_x, out=sin_x)
    del sin_x
    ...
    exp_a_times_x = a * x
    np.exp(exp_a_times_x, out=exp_a_times_x)

A 1e6-element reduction's gradient then peaks at the hand-written gradient's memory (three
arrays), where it held four, and allocates less. Shapes and dtypes come from the
specialiser (``Facts.known``): nothing is rewritten where they were not worked out.

An operand's memory is reused only where nothing else can see it: the array is one the
function made itself (each assignment to its name is arithmetic or a ufunc call, never a
parameter, another name, an index or an attribute), it is read only as an operand of
arithmetic or of a ufunc (no view of it, no list holding it, never returned), and the
statement that ends it reads it once (no other part of the statement reads what is
overwritten).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

import numpy as np

from ..codegen import printer
from ..codegen.walk import blocks, names_in, nodes_with_names, walk
from .abstract import Abstract, Array

Known = dict[int, tuple[ast.AST, Abstract]]
IsUfuncCall = Callable[[ast.Call], bool]

# the ufunc each arithmetic operator calls
_UFUNCS: dict[type, str] = {
    ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply", ast.Div: "true_divide",
    ast.Pow: "power", ast.FloorDiv: "floor_divide", ast.Mod: "remainder",
}
_UNARY_UFUNCS: dict[type, str] = {ast.USub: "negative", ast.UAdd: "positive"}


def reuse_memory(fdef: ast.FunctionDef, known: Known, ufunc_call: IsUfuncCall,
                 np_name: str) -> None:
    """Rewrite ``fdef`` in place (see the module docstring). ``known``: what the specialiser
    worked out of each expression node (by id, with the node, so that an id reused by a
    later node is not mistaken for it); ``ufunc_call``: is a call one of NumPy's ufuncs,
    given its inputs by position?"""
    private = private_arrays(fdef, known, ufunc_call)
    for block in blocks(fdef):
        if private:
            for stmt, following in zip(block, _next_statements(block), strict=True):
                if isinstance(following, ast.Delete):
                    dying = {t.id for t in following.targets if isinstance(t, ast.Name)}
                    _into_dying_operand(stmt, dying & private, known, ufunc_call, np_name)
        block[:] = [new for stmt in block
                    for new in _in_own_temporary(stmt, known, ufunc_call, np_name)]


# -- where --------------------------------------------------------------------------------
def _next_statements(block: list[ast.stmt]) -> list[ast.stmt | None]:
    """For each statement, the next one that is not a comment."""
    out: list[ast.stmt | None] = []
    following: ast.stmt | None = None
    for stmt in reversed(block):
        out.append(following)
        if not printer.is_comment(stmt):
            following = stmt
    return out[::-1]


def _known(node: ast.AST, known: Known) -> Abstract | None:
    entry = known.get(id(node))
    return entry[1] if entry is not None and entry[0] is node else None


def array_of(node: ast.AST, known: Known) -> Array | None:
    """What is known of ``node``'s value, if it is an array the code made, of known shape
    and dtype."""
    return _array(_known(node, known))


def _array(value: Abstract | None) -> Array | None:
    """``value`` if it is an array the code made, of known shape and dtype."""
    if isinstance(value, Array) and value.fresh and not value.scalar and (
            value.shape and value.dtype is not None):  # (a 0-d result is a NumPy scalar)
        return value
    return None


def _same_layout(one: Array, other: Array) -> bool:
    return one.shape == other.shape and np.dtype(one.dtype) == np.dtype(other.dtype)


def _makes_array(value: ast.expr, known: Known, ufunc_call: IsUfuncCall) -> bool:
    """Is ``value`` an operation that makes a new array (arithmetic, a ufunc)?"""
    new = (isinstance(value, ast.BinOp) and not isinstance(value.op, ast.MatMult)) or (
        isinstance(value, ast.UnaryOp) and not isinstance(value.op, ast.Not)) or (
        isinstance(value, ast.Call) and ufunc_call(value) and not value.keywords)
    return new and _array(_known(value, known)) is not None


# -- who else sees an array ----------------------------------------------------------------
def private_arrays(fdef: ast.FunctionDef, known: Known, ufunc_call: IsUfuncCall
                    ) -> set[str]:
    """Names whose every value is an array the function made and nothing else sees: never
    bound otherwise, and never read but as an operand of arithmetic, a comparison or a
    ufunc (or as the target of an augmented assignment, which updates the name's own
    array). One walk: the names are judged once all is seen."""
    args = fdef.args
    spoilt = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg,
                              args.kwarg] if a is not None}
    made: set[str] = set()
    harmless: set[int] = set()
    loads: list[ast.Name] = []
    for node in nodes_with_names(fdef):  # (what holds no name is neither made nor read)
        kind = node.__class__  # (compared as it is: the walk's innermost loop)
        if kind is ast.Name:
            if node.ctx.__class__ is ast.Load:
                loads.append(node)
        elif kind is ast.Assign:
            fresh = len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and (
                _makes_array(node.value, known, ufunc_call))
            for target in node.targets:
                if target.__class__ is ast.Name:  # (most: its name, without a walk)
                    if target.ctx.__class__ is ast.Store:
                        (made if fresh else spoilt).add(target.id)
                else:
                    (made if fresh else spoilt).update(_stored(target))
        elif kind in _BINDING:
            spoilt |= _stored(node)
        elif kind is ast.BinOp:
            if node.op.__class__ is not ast.MatMult:
                harmless |= {id(node.left), id(node.right)}
        elif kind is ast.UnaryOp:
            harmless.add(id(node.operand))
        elif kind is ast.Compare:
            harmless |= {id(n) for n in [node.left, *node.comparators]}
        elif kind is ast.Call:
            if ufunc_call(node) and not node.keywords:
                harmless |= {id(n) for n in node.args}
        elif kind is ast.AugAssign:
            harmless.add(id(node.target))
    read_otherwise = {n.id for n in loads if id(n) not in harmless}
    return made - spoilt - read_otherwise


# what else binds names (its targets are never the array an operation made)
_BINDING = frozenset({ast.For, ast.comprehension, ast.With, ast.NamedExpr, ast.AnnAssign})


def _stored(node: ast.AST) -> set[str]:
    return {n.id for n in names_in(node) if isinstance(n.ctx, ast.Store)}


# -- the rewrites -----------------------------------------------------------------------------
def _ufunc(np_name: str, name: str) -> ast.Attribute:
    return ast.Attribute(value=ast.Name(id=np_name, ctx=ast.Load()), attr=name, ctx=ast.Load())


def _into_dying_operand(stmt: ast.stmt, dying: set[str], known: Known,
                        ufunc_call: IsUfuncCall, np_name: str) -> None:
    """The operation that is ``stmt``'s whole value, with an operand in ``dying`` read once
    in ``stmt``, writes its result into that operand (an operation inside a larger
    expression is left alone: ``np.tanh(np.multiply(0.5, z, out=z))`` reads badly, and
    NumPy already reuses the temporaries of an expression)."""
    if not dying or not isinstance(stmt, ast.Assign | ast.AugAssign):
        return
    reads: dict[str, int] = {}
    for node in walk(stmt):
        if isinstance(node, ast.Name):
            reads[node.id] = reads.get(node.id, 0) + 1
    dying = {name for name in dying if reads.get(name) == 1}
    replacement = _operation_into(stmt.value, dying, known, ufunc_call, np_name)
    if replacement is not None:
        stmt.value = replacement


def _operation_into(node: ast.expr, dying: set[str], known: Known, ufunc_call: IsUfuncCall,
                    np_name: str) -> ast.Call | None:
    """``node`` as a ufunc call whose ``out`` is its dying operand, or ``None``."""
    func: ast.expr
    if isinstance(node, ast.BinOp) and type(node.op) in _UFUNCS:
        func, operands = _ufunc(np_name, _UFUNCS[type(node.op)]), [node.left, node.right]
    elif isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY_UFUNCS:
        func, operands = _ufunc(np_name, _UNARY_UFUNCS[type(node.op)]), [node.operand]
    elif isinstance(node, ast.Call) and ufunc_call(node) and not node.keywords:
        func, operands = node.func, list(node.args)
    else:
        return None
    result = _array(_known(node, known))
    if result is None:
        return None
    for operand in operands:
        if isinstance(operand, ast.Name) and operand.id in dying:
            it = _array(_known(operand, known))
            if it is not None and _same_layout(it, result):
                out = ast.keyword(arg="out", value=ast.Name(id=operand.id, ctx=ast.Load()))
                return ast.Call(func=func, args=operands, keywords=[out])
    return None


def _in_own_temporary(stmt: ast.stmt, known: Known, ufunc_call: IsUfuncCall, np_name: str
                      ) -> list[ast.stmt]:
    """``v = np.f(<arithmetic>)`` as ``v = <arithmetic>`` and ``np.f(v, out=v)``: the
    temporary that only ``np.f`` reads holds its result."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
            stmt.targets[0], ast.Name) and isinstance(stmt.value, ast.Call)):
        return [stmt]
    call = stmt.value
    if not (ufunc_call(call) and not call.keywords and len(call.args) == 1):
        return [stmt]
    result, operand = _array(_known(call, known)), call.args[0]
    temporary = _array(_known(operand, known))
    if result is None or temporary is None or not _same_layout(temporary, result) or not (
            _makes_array(operand, known, ufunc_call)):
        return [stmt]
    name = stmt.targets[0].id
    made = ast.copy_location(ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())],
                                        value=operand), stmt)
    applied = ast.Call(func=call.func,
                       args=[ast.Name(id=name, ctx=ast.Load())],
                       keywords=[ast.keyword(arg="out", value=ast.Name(id=name, ctx=ast.Load()))])
    return [made, ast.copy_location(ast.Expr(value=applied), stmt)]
