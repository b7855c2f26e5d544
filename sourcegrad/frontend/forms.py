"""Reading the functions that are not a plain module-level ``def``: lambdas, and functions
sourcegrad makes itself from the user's code (a lambda lifted out of the function that
defines it, for a nested ``sg.grad``).

A lambda has no block of its own: its syntax tree is found in the tree of the file it comes
from, by the position of its body, which the code object records (``co_positions``), so
that one of several lambdas on one line is told from the others. It is then read as the
``def`` it stands for: ``f = lambda x: np.sum(x ** 2)`` is ``def f(x): return np.sum(x **
2)``, with the file's own line and column numbers, so that messages and provenance comments
quote the user's line.
"""

from __future__ import annotations

import ast
import hashlib
import keyword
import linecache
import textwrap
from types import CodeType, FunctionType
from typing import Any

from ..codegen.walk import walk
from ..errors import NoDerivativeError, location

LAMBDA = "<lambda>"


def is_lambda(fn: Any) -> bool:
    return isinstance(fn, FunctionType) and fn.__name__ == LAMBDA


def identifier(fn: Any) -> str:
    """A name generated code can use for ``fn``: its own; for a lambda, the name it is
    assigned to (``lambda`` if none)."""
    given = getattr(fn, "__name__", "") or ""
    if given.isidentifier() and not keyword.iskeyword(given):
        return given
    if is_lambda(fn):
        try:
            return read_lambda(fn)[3].body[0].name
        except (NoDerivativeError, SyntaxError, OSError):
            pass
    return "lambda"


def parameters_of(args: ast.arguments) -> list[str]:
    """Every parameter's name, ``*args`` and ``**kwargs`` included, in the order declared."""
    names = [a.arg for a in args.posonlyargs + args.args]
    if args.vararg is not None:
        names.append(args.vararg.arg)
    names += [a.arg for a in args.kwonlyargs]
    if args.kwarg is not None:
        names.append(args.kwarg.arg)
    return names


# -- functions sourcegrad made, with the syntax tree they were made from -------------------
# code object -> (function definition, file name, the file's lines)
_SYNTHETIC: dict[CodeType, tuple[ast.FunctionDef, str, list[str]]] = {}


def register_synthetic(code: CodeType, tree: ast.FunctionDef, filename: str,
                       lines: list[str]) -> None:
    _SYNTHETIC[code] = (tree, filename, lines)


def synthetic(fn: FunctionType) -> tuple[ast.FunctionDef, str, list[str]] | None:
    return _SYNTHETIC.get(fn.__code__)


def is_synthetic(fn: Any) -> bool:
    return isinstance(fn, FunctionType) and fn.__code__ in _SYNTHETIC


# -- lambdas --------------------------------------------------------------------------------
def read_lambda(fn: FunctionType) -> tuple[list[str], int, list[str], ast.Module]:
    """``(file lines, index of the first line, the lambda's lines, a module holding the
    equivalent def)``, as ``source._read_quickly`` returns for a ``def``."""
    code = fn.__code__
    lines = linecache.getlines(code.co_filename, fn.__globals__)
    if not lines:
        raise NoDerivativeError(
            f"cannot read the source of this lambda "
            f"({location(code.co_filename, code.co_firstlineno)}). sourcegrad needs "
            "functions defined in a file (or registered with linecache), not typed at the "
            "interactive prompt.")
    node, name = _find_lambda(code, lines)
    fdef = lambda_as_def(node, name)
    start = node.lineno - 1
    end = node.end_lineno or node.lineno
    return lines, start, lines[start:end], ast.Module(body=[fdef], type_ignores=[])


def _find_lambda(code: CodeType, lines: list[str]) -> tuple[ast.Lambda, str]:
    tree = _tree_around(code, lines)
    spans = {(a, b, c, d) for a, b, c, d in code.co_positions() if a is not None}
    candidates: list[tuple[ast.Lambda, str]] = []
    for node, bound_to in _lambdas(tree):
        if node.lineno != code.co_firstlineno:
            continue
        body = node.body
        if (body.lineno, body.end_lineno, body.col_offset, body.end_col_offset) in spans:
            return node, bound_to
        if [a.arg for a in node.args.args] == list(code.co_varnames[:code.co_argcount]):
            candidates.append((node, bound_to))
    if len(candidates) == 1:
        return candidates[0]
    raise NoDerivativeError(
        f"cannot tell which lambda this is on one line "
        f"({location(code.co_filename, code.co_firstlineno)}). Define the function with "
        "`def`, or put the lambda on a line of its own.")


def _lambdas(tree: ast.AST) -> list[tuple[ast.Lambda, str]]:
    """Every lambda in ``tree``, with the name it is assigned to (``lambda`` if none)."""
    named: dict[int, str] = {}
    for node in walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            _name_targets(node.targets[0], node.value, named)
        elif isinstance(node, ast.keyword) and node.arg and isinstance(node.value, ast.Lambda):
            named[id(node.value)] = node.arg
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and (
                        isinstance(value, ast.Lambda)):
                    named[id(value)] = key.value
    found = []
    for node in walk(tree):
        if isinstance(node, ast.Lambda):
            given = named.get(id(node), "lambda")
            found.append((node, given if given.isidentifier() and not keyword.iskeyword(given)
                          else "lambda"))
    return found


def _name_targets(target: ast.expr, value: ast.expr, named: dict[int, str]) -> None:
    while isinstance(value, ast.Call) and value.args and isinstance(
            value.func, ast.Attribute) and value.func.attr == "jit":
        value = value.args[0]  # f = sg.jit(lambda ...): still f
    if isinstance(target, ast.Name) and isinstance(value, ast.Lambda):
        named[id(value)] = target.id
    elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)):
        for t, v in zip(target.elts, value.elts, strict=False):
            _name_targets(t, v, named)


def lambda_as_def(node: ast.Lambda, fname: str) -> ast.FunctionDef:
    """``lambda v: v * v`` as ``def fname(v): return v * v``, at the lambda's place."""
    ret = ast.copy_location(ast.Return(value=node.body), node.body)
    fdef = ast.FunctionDef(name=fname, args=node.args, body=[ret], decorator_list=[],
                           returns=None, type_comment=None)
    ast.copy_location(fdef, node)
    fdef.end_lineno, fdef.end_col_offset = node.end_lineno, node.end_col_offset
    return fdef


# filename -> (digest of the text, its tree): a file holding many lambdas is parsed once
_TREES: dict[str, tuple[str, ast.Module]] = {}


def _tree_around(code: CodeType, lines: list[str]) -> ast.AST:
    """The tree of the whole file (line numbers the file's), or, when the file does not
    parse as a whole (a notebook cell with magics), of the smallest run of lines around the
    lambda that does."""
    text = "".join(lines)
    digest = hashlib.sha256(text.encode()).hexdigest()
    known = _TREES.get(code.co_filename)
    if known is not None and known[0] == digest:
        return known[1]
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return _window(code, lines)
    _TREES[code.co_filename] = (digest, tree)
    return tree


def _window(code: CodeType, lines: list[str]) -> ast.AST:
    first = code.co_firstlineno - 1
    last = max((b for _, b, _, _ in code.co_positions() if b is not None), default=first + 1)
    for start in range(first, max(-1, first - 40), -1):
        for end in range(last, min(len(lines), last + 20) + 1):
            try:
                return parse_block(lines[start:end], start, code.co_filename)
            except SyntaxError:
                continue
    raise NoDerivativeError(
        f"cannot parse the source around this lambda "
        f"({location(code.co_filename, code.co_firstlineno)}) to find it. Define the "
        "function with `def`.")


def parse_block(block: list[str], start: int, filename: str = "<unknown>") -> ast.Module:
    """The block's syntax tree, with the file's line and column numbers (the empty lines in
    front put every line at its own number without a pass over the tree). An indented block
    (a method) is parsed as it stands, inside an ``if 1:`` on the line above it: removing
    its indentation would change its multi-line strings, and cannot be done at all when
    one continues at column 0. A ``SyntaxError`` names ``filename`` and the file's line."""
    indent = len(block[0]) - len(block[0].lstrip())
    if indent and start > 0:
        wrapped = ast.parse("\n" * (start - 1) + "if 1:\n" + "".join(block), filename)
        body = wrapped.body[0]
        assert isinstance(body, ast.If)
        return ast.Module(body=body.body, type_ignores=[])
    module = ast.parse("\n" * start + textwrap.dedent("".join(block)), filename)
    if indent:
        for node in walk(module):
            if hasattr(node, "col_offset"):
                node.col_offset += indent
                if getattr(node, "end_col_offset", None) is not None:
                    node.end_col_offset += indent
    return module
