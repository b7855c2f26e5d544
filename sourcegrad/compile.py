"""Turn generated source into a live function, debuggable like the user's own code.

The source is registered with ``linecache`` under a unique pseudo file name, so tracebacks,
``inspect.getsource`` and ``pdb`` show the generated lines. The function runs with the user
function's own ``__globals__`` (so globals are read live, as the user's code would), its
closure cells (same), and the helpers the generated code calls as extra closure cells, so
nothing is injected into the user's module.

Compiling is two steps, so that the on-disk cache can store the first one's result:
``compile_factory`` (source text -> a code object, the expensive part) and ``link`` (code
object + the user's globals, cells and helpers -> a function, cheap).

When a ``note`` is given, the compiled body is wrapped in ``try: ... except`` that calls it
with any exception raised inside (to add a note naming the user's line). Since Python 3.11 a
``try`` costs nothing until something is raised, so the generated code runs as fast as
without it. Such a function also starts with ``if _sourcegrad_stale(): return
_sourcegrad_stale.again(<its arguments>)``: the cache's check that what the derivative was
made from still holds (``dependencies.py``), redirecting the call to a derivative made again
if not. Both are added on the AST, not in the text: ``linecache`` (so ``inspect``,
tracebacks, ``pdb``, and sourcegrad itself when it differentiates generated code again)
sees exactly the generated source, and its line numbers are the code's.

A pseudo file stays in ``linecache`` while a code object compiled from it lives (a live
function, a traceback, a record of the cache's), and leaves it with the last one: functions
made and dropped by the thousand leave nothing behind; ``link`` registers the text again.
"""

from __future__ import annotations

import ast
import hashlib
import linecache
import re
import textwrap
import types
import weakref
from dataclasses import dataclass
from typing import Any

from .codegen.clone import clone
from .codegen.walk import walk

FACTORY = "_sourcegrad_factory"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NOTE = "_sourcegrad_note"
STALE = "_sourcegrad_stale"
_ERROR = "_sourcegrad_error"
# a line's number in the compiled text minus its number in the generated source: the
# factory's ``def`` line
BODY_SHIFT = 1


@dataclass(frozen=True)
class Compiled:
    """A generated function compiled but not yet bound to globals and helpers."""

    code: types.CodeType  # the generated function's own code
    text: str  # what linecache shows: the factory wrapping the generated function
    filename: str


def pseudo_filename(name: str, source: str) -> str:
    digest = hashlib.sha256(source.encode()).hexdigest()[:10]
    return f"<sourcegrad {name} {digest}>"


def compile_factory(source: str, name: str, free: list[str] | tuple[str, ...],
                    guarded: bool = False) -> Compiled:
    """Compile the single ``def name(...)`` in ``source`` inside a factory taking ``free``
    (which makes them the function's free variables, bound by ``link``).

    ``guarded`` wraps the body in the ``try`` that adds provenance notes (see the module
    docstring); the function then also refers to ``_sourcegrad_note``.
    """
    used = set(_IDENTIFIER.findall(source))  # keep the factory's header (seen in pdb) short
    free = tuple(sorted({n for n in free if n in used} | ({NOTE, STALE} if guarded else set())))
    body = textwrap.indent(source, "    ")
    text = f"def {FACTORY}({', '.join(free)}):\n{body}    return {name}\n"
    filename = pseudo_filename(name, text)
    register_lines(filename, text)
    tree = ast.parse(text, filename)
    if guarded:
        _guard(tree, name)
    module_code = compile(tree, filename, "exec")
    factory_code = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts
                 if isinstance(c, types.CodeType) and c.co_name == name)
    _keep_lines_while_alive(inner)
    return Compiled(inner, text, filename)


def register_lines(filename: str, text: str) -> None:
    """Let ``linecache`` (so tracebacks, ``inspect`` and ``pdb``) see generated text."""
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)


def never_stale() -> bool:
    """The staleness check of a function that is never redirected."""
    return False


# id of a live code object -> its pseudo file; pseudo file -> how many live code objects
_TRACKED: dict[int, str] = {}
_LIVE: dict[str, int] = {}


def _keep_lines_while_alive(code: types.CodeType) -> None:
    if id(code) in _TRACKED:
        return
    filename = code.co_filename
    _TRACKED[id(code)] = filename
    _LIVE[filename] = _LIVE.get(filename, 0) + 1
    weakref.finalize(code, _release_lines, id(code), filename).atexit = False


def _release_lines(code_id: int, filename: str) -> None:
    _TRACKED.pop(code_id, None)
    left = _LIVE.get(filename, 1) - 1
    if left > 0:
        _LIVE[filename] = left
        return
    _LIVE.pop(filename, None)
    linecache.cache.pop(filename, None)


_HANDLER = ast.parse(f"try:\n    pass\nexcept Exception as {_ERROR}:\n"
                     f"    {NOTE}({_ERROR})\n    raise\n").body[0]


def _guard(tree: ast.Module, name: str) -> None:
    """Put the body of the function ``name`` (inside the factory) in ``try``/``except``
    calling ``_sourcegrad_note``. The ``try`` sits on the body's first line and the handler
    on its last, so every line number of the body stays that of the text."""
    factory = tree.body[0]
    assert isinstance(factory, ast.FunctionDef)
    fdef = next(s for s in factory.body if isinstance(s, ast.FunctionDef) and s.name == name)
    guard = clone(_HANDLER)
    assert isinstance(guard, ast.Try)
    guard.body = fdef.body
    first, last = fdef.body[0].lineno, fdef.body[-1].end_lineno or fdef.body[-1].lineno
    for node in walk(guard.handlers[0]):
        if hasattr(node, "lineno"):
            node.lineno = node.end_lineno = last
            node.col_offset = node.end_col_offset = 0
    guard.lineno, guard.end_lineno = first, last
    # ends where the body ends: a one-line body must not end before it starts
    guard.col_offset = fdef.body[0].col_offset
    guard.end_col_offset = fdef.body[-1].end_col_offset or 0
    fdef.body = [_redirect_if_stale(fdef.args, first, guard.col_offset), guard]


def _redirect_if_stale(args: ast.arguments, line: int, column: int) -> ast.If:
    """``if _sourcegrad_stale(): return _sourcegrad_stale.again(<the arguments>)``, located
    on the body's first line (no line of its own, for tracebacks or ``pdb``)."""
    positional = [ast.Name(id=a.arg, ctx=ast.Load()) for a in args.posonlyargs + args.args]
    if args.vararg is not None:
        positional.append(ast.Starred(value=ast.Name(id=args.vararg.arg, ctx=ast.Load()),
                                      ctx=ast.Load()))
    keywords = [ast.keyword(arg=a.arg, value=ast.Name(id=a.arg, ctx=ast.Load()))
                for a in args.kwonlyargs]
    if args.kwarg is not None:
        keywords.append(ast.keyword(arg=None, value=ast.Name(id=args.kwarg.arg, ctx=ast.Load())))
    again = ast.Attribute(value=ast.Name(id=STALE, ctx=ast.Load()), attr="again", ctx=ast.Load())
    check = ast.If(test=ast.Call(func=ast.Name(id=STALE, ctx=ast.Load()), args=[], keywords=[]),
                   body=[ast.Return(value=ast.Call(func=again, args=positional,
                                                   keywords=keywords))], orelse=[])
    for node in walk(check):
        if isinstance(node, (ast.expr, ast.stmt, ast.keyword)):
            node.lineno = node.end_lineno = line
            node.col_offset = node.end_col_offset = column
    return check


def link(compiled: Compiled, user_globals: dict[str, Any],
         cells: dict[str, types.CellType], helpers: dict[str, Any],
         defaults: tuple | None = None,
         kwdefaults: dict[str, Any] | None = None) -> types.FunctionType:
    """Bind compiled code: ``cells`` are closure cells shared with the user's function (read
    live); ``helpers`` are values the generated code refers to by name."""
    register_lines(compiled.filename, compiled.text)  # code from the disk cache was not
    code = compiled.code                                # compiled in this process
    _keep_lines_while_alive(code)
    closure = tuple(
        cells[var] if var in cells else types.CellType(helpers[var]) for var in code.co_freevars
    )
    fn = types.FunctionType(code, user_globals, code.co_name, defaults, closure)
    if kwdefaults:
        fn.__kwdefaults__ = dict(kwdefaults)
    return fn


def compile_function(source: str, name: str, user_globals: dict[str, Any],
                     cells: dict[str, types.CellType], helpers: dict[str, Any],
                     defaults: tuple | None = None,
                     kwdefaults: dict[str, Any] | None = None,
                     note: Any = None) -> types.FunctionType:
    """Compile the single ``def name(...)`` in ``source`` and bind it (see ``link``).

    ``note``, when given, is called with any exception raised inside the function before it
    propagates (see the module docstring).
    """
    compiled = compile_factory(source, name, [*helpers, *cells], guarded=note is not None)
    if note is not None:
        helpers = {**helpers, NOTE: note, STALE: never_stale}
        # differentiating generated code again: its own note and check are not the new
        # function's
        cells = {k: v for k, v in cells.items() if k not in (NOTE, STALE)}
    return link(compiled, user_globals, cells, helpers, defaults, kwdefaults)
