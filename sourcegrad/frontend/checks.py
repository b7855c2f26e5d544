"""Reject, up front, every construct the transformer cannot differentiate.

Invariant after this pass: the function body holds only constructs that some later pass
knows how to handle. Each construct has one check and one message that says what to write
instead; nothing unsupported is ever silently treated as constant.
"""

from __future__ import annotations

import ast
import types

import numpy as np

from ..codegen.walk import walk
from ..passes.purity import WRITERS
from ..rules.support import misread_array
from .source import Parsed

# node type -> (name of the construct, what to do instead)
_REJECTED: dict[type, tuple[str, str]] = {
    ast.Try: ("`try`", "Move error handling out of the differentiated function."),
    ast.With: ("`with`", "Move the `with` block out of the differentiated function."),
    ast.AsyncWith: ("`async with`", "Differentiate synchronous code only."),
    ast.AsyncFor: ("`async for`", "Differentiate synchronous code only."),
    ast.AsyncFunctionDef: ("`async def`", "Differentiate synchronous code only."),
    ast.Await: ("`await`", "Differentiate synchronous code only."),
    ast.Yield: ("`yield`", "Return a list or an array instead of yielding values."),
    ast.YieldFrom: ("`yield from`", "Return a list or an array instead of yielding values."),
    ast.Global: (
        "a `global` declaration",
        "Differentiated functions may read globals but not assign them; return the value "
        "instead.",
    ),
    ast.Nonlocal: (
        "a `nonlocal` declaration",
        "Differentiated functions may read closure variables but not assign them; return the "
        "value instead.",
    ),
    ast.ClassDef: ("a class definition", "Define classes outside the differentiated function."),
    ast.Import: ("an `import` inside the function", "Import at module level."),
    ast.ImportFrom: ("an `import` inside the function", "Import at module level."),
    ast.NamedExpr: ("the walrus operator `:=`", "Assign the value in a statement of its own."),
    ast.SetComp: ("a set comprehension", "Use a list comprehension instead."),
    ast.Set: ("a set display", "Use a list or a tuple instead."),
    ast.Match: ("a `match` statement", "Use `if`/`elif`/`else` instead."),
}
if hasattr(ast, "TryStar"):
    _REJECTED[ast.TryStar] = _REJECTED[ast.Try]

# what a nested transformation may be called (``sg.grad(lambda y: ...)(x)``)
TRANSFORMATIONS = frozenset({"grad", "value_and_grad", "jacobian", "hessian", "hvp", "jvp",
                             "vjp"})

_FORBIDDEN_CALLS = {
    "exec": "`exec`",
    "eval": "`eval`",
    "globals": "`globals()`",
    "locals": "`locals()`",
    "setattr": "`setattr`",
    "delattr": "`delattr`",
}


# array methods that change their array in place (NumPy's functions that do: ``WRITERS``):
# the transformers differentiate values, and would not see the change
_IN_PLACE_METHODS = frozenset({"fill", "sort", "put", "resize", "itemset", "setfield",
                               "partition", "byteswap"})
# ...but ``np.put_along_axis(a, i, v, axis)`` is the assignment ``a[index] = v`` it stands
# for (``passes/desugar.py``), differentiated as such
_DIFFERENTIATED_WRITERS = frozenset({"put_along_axis"})


def reject_unsupported(parsed: Parsed) -> None:
    """Raise ``UnsupportedSyntaxError`` at the first construct the transformer cannot handle."""
    fdef = parsed.tree
    for stmt in fdef.body:
        for node in walk(stmt):
            _check_node(parsed, node)
    _check_returns_a_value(parsed, fdef)
    _check_misread_constants(parsed, fdef)


def _check_misread_constants(parsed: Parsed, fdef: ast.FunctionDef) -> None:
    """A global or closure ``np.matrix`` or masked array the function reads (``M * x``)
    makes its derivatives silently wrong (``support.misread_array``): refused at its first
    use. A name the function binds anywhere is its own, not the global. (One fast walk of
    ``codegen.walk``, and one look at each name or attribute chain: this runs on every
    function transformed.)"""
    own: set[str] = set()
    reads: list[tuple[str, ast.expr]] = []  # in the order of the statements
    for stmt in fdef.body:
        for node in walk(stmt):
            kind = node.__class__
            if kind is ast.Name or kind is ast.Attribute:
                if node.ctx.__class__ is not ast.Load:
                    if kind is ast.Name:
                        own.add(node.id)
                    continue
                key = _dotted(node)
                if key is not None:  # (not an attribute of a computed value)
                    reads.append((key, node))
            elif kind is ast.arguments:  # (a nested function's or lambda's)
                own.update(arg.arg for arg in (*node.posonlyargs, *node.args, *node.kwonlyargs,
                                               *filter(None, (node.vararg, node.kwarg))))
    arguments = fdef.args
    own.update(arg.arg for arg in (*arguments.posonlyargs, *arguments.args,
                                   *arguments.kwonlyargs,
                                   *filter(None, (arguments.vararg, arguments.kwarg))))
    judged: dict[str, tuple[str, str] | None] = {}
    for key, node in reads:
        if key not in judged:
            judged[key] = misread_array(_constant_value(parsed, node, own))
        reason = judged[key]
        if reason is not None:
            raise parsed.unsupported(
                node, f"reading `{parsed.quote(node)}`, {reason[0]},", f"{reason[1]}.")


def _dotted(node: ast.expr) -> str | None:
    """``config.M`` for that chain of names and attributes, ``None`` for another value."""
    if node.__class__ is ast.Name:
        return node.id
    if node.__class__ is ast.Attribute:
        owner = _dotted(node.value)
        return None if owner is None else f"{owner}.{node.attr}"
    return None


def _constant_value(parsed: Parsed, expr: ast.expr, own: set[str]) -> object:
    """The value of a global or closure name, or of an attribute chain from one
    (``config.M``), as the function would read it now; ``None`` for anything else."""
    if isinstance(expr, ast.Name):
        return None if expr.id in own else parsed.lookup(expr.id)
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, (ast.Name, ast.Attribute)):
        owner = _constant_value(parsed, expr.value, own)
        if owner is None or isinstance(owner, np.ndarray):
            return None  # (an array's attributes: `.T` of a misread one is refused already)
        try:
            return getattr(owner, expr.attr, None)
        except Exception:  # a property that fails: not a constant to look at
            return None
    return None


def _check_returns_a_value(parsed: Parsed, fdef: ast.FunctionDef) -> None:
    """A function that never returns a value has no output to differentiate (its generated
    code read an undefined ``result``). One that returns a value on some paths only is
    differentiated; where it returns None, ``sg.grad`` raises the ``TypeError`` of any
    output that is not a real number."""
    pending: list[ast.AST] = list(fdef.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and node.value.value is None):
            return
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                 ast.ClassDef)):
            pending.extend(ast.iter_child_nodes(node))
    raise parsed.unsupported(
        fdef, f"`{fdef.name}`, a function that returns no value,",
        f"Return the value to differentiate (`return loss`): without a `return` of a value, "
        f"{fdef.name} returns None, which has no derivative.")


def _check_node(parsed: Parsed, node: ast.AST) -> None:
    if isinstance(node, (ast.Assign, ast.Call)):
        _allow_lambdas(node)
    if isinstance(node, ast.Call):
        for arg in node.args:  # a generator handed to a call is read as a list comprehension
            if isinstance(arg, ast.GeneratorExp):
                arg.allowed = True
    if isinstance(node, ast.GeneratorExp) and not getattr(node, "allowed", False):
        raise parsed.unsupported(
            node, "a generator expression",
            "Use a list comprehension `[...]` instead (e.g. `sum([f(x) for x in xs])`).")
    if isinstance(node, ast.Lambda) and not getattr(node, "allowed", False):
        raise parsed.unsupported(
            node, "a `lambda` here",
            "Assign it to a name first (`square = lambda v: v * v`) and call that, or define "
            "the function with `def`.")
    if type(node) in _REJECTED:
        construct, advice = _REJECTED[type(node)]
        raise parsed.unsupported(node, construct, advice)
    if isinstance(node, (ast.For, ast.While)) and node.orelse:
        kind = "for" if isinstance(node, ast.For) else "while"
        raise parsed.unsupported(
            node, f"`{kind} ... else`",
            "Use a flag variable set before `break` and test it after the loop.",
        )
    if isinstance(node, ast.Delete) and not all(isinstance(t, ast.Name) for t in node.targets):
        raise parsed.unsupported(
            node, "`del` of an element or an attribute",
            "Build the array you need by indexing (e.g. `x[mask]`) instead of deleting from it.")
    if isinstance(node, ast.Call):
        _check_call(parsed, node)
    if isinstance(node, ast.Starred) and not isinstance(getattr(node, "ctx", None), ast.Store):
        raise parsed.unsupported(
            node, "star-unpacking `*x` in an expression",
            "Pass the elements explicitly, or pass the sequence itself (e.g. "
            "`np.stack(xs)` rather than `f(*xs)`).",
        )
    if isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Starred) for tgt in node.targets for t in walk(tgt)
    ):
        raise parsed.unsupported(
            node, "starred assignment `a, *rest = ...`",
            "Unpack a fixed number of elements, or index the sequence.",
        )
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for sub in walk(target):
                if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
                    raise parsed.unsupported(
                        sub, "assigning to an attribute",
                        "Keep values in local variables, a dict or a list instead of object "
                        "attributes.",
                    )
                if isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Attribute):
                    raise parsed.unsupported(
                        sub, f"writing into `{parsed.quote(sub.value)}[...]`, which changes "
                        "the array it belongs to in place",
                        "Write into the array itself (`a[i] = v`), or build a new array "
                        "(for example with `np.where`).",
                    )
    if isinstance(node, ast.FunctionDef) and (node.args.vararg or node.args.kwarg):
        raise parsed.unsupported(
            node, "a nested function with `*args`/`**kwargs`",
            "Name each parameter of the nested function explicitly.",
        )


def _allow_lambdas(node: ast.Assign | ast.Call) -> None:
    """A lambda assigned to a name (a nested function) or handed to a transformation
    (``sg.grad(lambda y: ...)``, resolved where it is called) is read; one anywhere else
    (``map(lambda v: ..., xs)``) is refused. ``walk`` reaches a node's parent first."""
    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda) and len(
            node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        node.value.allowed = True
    elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Lambda) and (
            _spelled_transformation(node.func)):
        node.args[0].allowed = True
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Call):
        for arg in node.func.args:  # my_grad(lambda y: ...)(x): a function of functions
            if isinstance(arg, ast.Lambda):
                arg.allowed = True


def _spelled_transformation(func: ast.expr) -> bool:
    """``sg.grad``, ``grad``, ``sourcegrad.hessian``...: what ``nesting`` then resolves."""
    spelled = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return spelled in TRANSFORMATIONS


def _check_call(parsed: Parsed, call: ast.Call) -> None:
    func = call.func
    if isinstance(func, ast.Name) and func.id in _FORBIDDEN_CALLS:
        raise parsed.unsupported(
            call, _FORBIDDEN_CALLS[func.id],
            "Write the computation as ordinary code in the function body.",
        )
    for keyword in call.keywords:
        if keyword.arg is None:
            raise parsed.unsupported(
                call, "`**kwargs` in a call",
                "Pass each keyword argument explicitly.",
            )
    if isinstance(func, ast.Lambda):
        raise parsed.unsupported(
            call, "calling the result of an expression",
            "Define the function with `def` and call it by name.",
        )
    _check_in_place_call(parsed, call)


def _seen(parsed: Parsed, expr: ast.expr) -> object:
    """What ``expr`` (a name or a chain of attributes) is, as the function sees it."""
    path: list[str] = []
    while isinstance(expr, ast.Attribute):
        path.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    value = parsed.closure.get(expr.id, parsed.globals.get(expr.id))
    for attr in reversed(path):
        value = getattr(value, attr, None)
    return value


def _is_module(parsed: Parsed, expr: ast.expr) -> bool:
    """Does ``expr`` name a module (``np``, ``numpy.linalg``), as the function sees it?"""
    return isinstance(_seen(parsed, expr), types.ModuleType)


def _is_users_function(parsed: Parsed, expr: ast.expr) -> bool:
    """A Python function of the user's (its parameter named ``out`` is just a name)."""
    return isinstance(_seen(parsed, expr), types.FunctionType) or (
        isinstance(expr, ast.Name) and expr.id in parsed.nested)


def _check_in_place_call(parsed: Parsed, call: ast.Call) -> None:
    """A call that changes an array in place (``a.fill(v)``, ``np.copyto(a, b)``,
    ``np.exp(a, out=a)``) would be missed by the derivative, which follows values: refused.
    ``np.add.at`` is differentiated, and ``list.append`` and friends are not arrays."""
    func = call.func
    if any(keyword.arg == "out" for keyword in call.keywords) and not _is_users_function(
            parsed, func):
        raise parsed.unsupported(
            call, "`out=`, which writes a result into an existing array",
            "Assign the result to a name instead (for example `a = np.exp(a)`).")
    if not isinstance(func, ast.Attribute):
        return
    if func.attr == "at" and not (isinstance(func.value, ast.Attribute)
                                  and func.value.attr == "add"):
        raise parsed.unsupported(
            call, f"`{parsed.quote(func)}`, which changes an array in place",
            "Use `np.add.at`, or build the result from indexed values.")
    if func.attr in WRITERS - _DIFFERENTIATED_WRITERS or (
            func.attr in _IN_PLACE_METHODS and not _is_module(parsed, func.value)
    ):  # `np.sort(a)` is a new array; `a.sort()` sorts `a`
        raise parsed.unsupported(
            call, f"`{parsed.quote(func)}(...)`, which changes an array in place",
            "Build a new array instead (for example `a = np.sort(a)`, "
            "`a = np.full_like(a, v)`, `a = np.where(mask, v, a)`), or assign into its "
            "elements (`a[i] = v`).")
