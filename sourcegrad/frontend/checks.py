"""Reject, up front, every construct the transformer cannot differentiate.

Invariant after this pass: the function body holds only constructs that some later pass
knows how to handle. Each construct has one check and one message that says what to write
instead; nothing unsupported is ever silently treated as constant.
"""

from __future__ import annotations

import ast

from ..codegen.walk import walk
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
    ast.Lambda: (
        "a `lambda`",
        "Define the function with `def` at module level and call it by name.",
    ),
    ast.ClassDef: ("a class definition", "Define classes outside the differentiated function."),
    ast.Import: ("an `import` inside the function", "Import at module level."),
    ast.ImportFrom: ("an `import` inside the function", "Import at module level."),
    ast.NamedExpr: ("the walrus operator `:=`", "Assign the value in a statement of its own."),
    ast.GeneratorExp: (
        "a generator expression",
        "Use a list comprehension `[...]` instead (e.g. `sum([f(x) for x in xs])`).",
    ),
    ast.SetComp: ("a set comprehension", "Use a list comprehension instead."),
    ast.DictComp: ("a dict comprehension", "Build the dict with a `for` loop instead."),
    ast.Set: ("a set display", "Use a list or a tuple instead."),
    ast.Match: ("a `match` statement", "Use `if`/`elif`/`else` instead."),
}
if hasattr(ast, "TryStar"):
    _REJECTED[ast.TryStar] = _REJECTED[ast.Try]

_FORBIDDEN_CALLS = {
    "exec": "`exec`",
    "eval": "`eval`",
    "globals": "`globals()`",
    "locals": "`locals()`",
    "setattr": "`setattr`",
    "delattr": "`delattr`",
}


def reject_unsupported(parsed: Parsed) -> None:
    """Raise ``UnsupportedSyntaxError`` at the first construct the transformer cannot handle."""
    fdef = parsed.tree
    _check_signature(parsed, fdef)
    for stmt in fdef.body:
        for node in walk(stmt):
            _check_node(parsed, node)
    _check_returns_a_value(parsed, fdef)


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


def _check_signature(parsed: Parsed, fdef: ast.FunctionDef) -> None:
    args = fdef.args
    if args.vararg is not None or args.kwarg is not None:
        star = args.vararg or args.kwarg
        raise parsed.unsupported(
            star, "a `*args`/`**kwargs` parameter",
            "Name each parameter explicitly, or pass a list/tuple/dict as one parameter.",
        )


def _check_node(parsed: Parsed, node: ast.AST) -> None:
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
    if isinstance(node, ast.FunctionDef) and (node.args.vararg or node.args.kwarg):
        raise parsed.unsupported(
            node, "a nested function with `*args`/`**kwargs`",
            "Name each parameter of the nested function explicitly.",
        )


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
    if isinstance(func, ast.Lambda) or isinstance(func, ast.Call):
        raise parsed.unsupported(
            call, "calling the result of an expression",
            "Define the function with `def` and call it by name.",
        )
