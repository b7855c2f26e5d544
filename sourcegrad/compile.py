"""Turn generated source into a live function, debuggable like the user's own code.

The source is written to a real file (``generated/`` in the cache directory, or a private
temporary directory when the disk cache is off), named after the function and a digest of
its text, and compiled under that name: tracebacks (the default ``python script.py`` one
included, which reads files, not ``linecache``), ``inspect.getsource``, ``pdb``, coverage and
profilers all show the generated lines, numbered as in ``.source``. The text is also kept in
``linecache`` while code compiled from it lives, so nothing depends on the file staying. The
function runs with the user function's own ``__globals__`` (so globals are read live, as the
user's code would), its closure cells (same), and the helpers the generated code calls as
extra closure cells, so nothing is injected into the user's module: the factory that makes
them closure cells is built around the function on the AST, adding no line to the file.

Compiling is two steps, so that the on-disk cache can store the first one's result:
``compile_factory`` (source text -> a code object, the expensive part) and ``link`` (code
object + the user's globals, cells and helpers -> a function, cheap).

When a ``note`` is given, the function's body runs inside one ``with _sourcegrad_note:``
whose ``__exit__`` is called with any exception raised there (to add a note naming the user's
line, read from the exception's traceback) and lets it go on. A ``with`` rather than a
``try`` per statement: CPython's compiler takes time growing faster than the function with
thousands of ``try`` blocks, and a ``with`` re-raises from the failing instruction (an
``except`` clause's ``raise`` would re-raise from its own line), so the frame's current line,
which ``pdb`` marks, stays the failing one. ``if`` and ``while`` tests go through
``_sourcegrad_branch`` (``branch_test``), which refuses a lazy array (a Dask array: telling
its truth would compute the graph in the middle of the derivative) with an error noting the
user's line. Such a function also starts
with ``if _sourcegrad_stale(): return _sourcegrad_stale.again(<its arguments>)``: the
cache's check that what the derivative was made from still holds (``dependencies.py``),
redirecting the call to a derivative made again if not; then with ``if _sourcegrad_special
is not None and (... := _sourcegrad_special(<its arguments>)) is not _sourcegrad_special:
return ...``: the way to a variant of the code specialised to the arguments' shapes
(``specialisation.py``; with ``None`` in the cell, or when the dispatcher answers itself,
the general code runs, in the same frame). All of this is added on the AST, not in the text.

A file's text stays in ``linecache`` while a code object compiled from it lives (a live
function, a traceback, a record of the cache's), and leaves it with the last one: functions
made and dropped by the thousand leave nothing behind; ``link`` registers the text again.
"""

from __future__ import annotations

import ast
import atexit
import hashlib
import linecache
import os
import shutil
import sys
import tempfile
import types
import weakref
from dataclasses import dataclass
from typing import Any

from .codegen.walk import walk
from .errors import LazyBranchError

FACTORY = "_sourcegrad_factory"
NOTE = "_sourcegrad_note"
STALE = "_sourcegrad_stale"
SPECIAL = "_sourcegrad_special"
BRANCH = "_sourcegrad_branch"
RESULT = "_sourcegrad_result"
# what sourcegrad gives a function for itself
OWN_CELLS = frozenset({NOTE, STALE, SPECIAL, BRANCH})
# a line's number in the compiled code minus its number in the generated source
BODY_SHIFT = 0


@dataclass(frozen=True)
class Compiled:
    """A generated function compiled but not yet bound to globals and helpers."""

    code: types.CodeType  # the generated function's own code
    text: str  # the generated function's source: what its file holds
    filename: str


def pseudo_filename(name: str, source: str) -> str:
    digest = hashlib.sha256(source.encode()).hexdigest()[:10]
    return f"<sourcegrad {name} {digest}>"


def compile_factory(source: str, name: str, free: list[str] | tuple[str, ...],
                    guarded: bool = False, columns: bool = True) -> Compiled:
    """Compile the single ``def name(...)`` in ``source`` inside a factory taking ``free``
    (which makes them the function's free variables, bound by ``link``).

    ``guarded`` adds the ``with`` that adds provenance notes, the staleness check and the
    way to specialised variants (see the module docstring); the function then also refers
    to ``_sourcegrad_note``, ``_sourcegrad_stale`` and ``_sourcegrad_special``. Without
    ``columns`` (code whose errors no one sees, as a specialised variant's: its caller runs
    the general code instead), the factory is written around the text, which is compiled
    as it is parsed, its lines moved back where they are in ``source`` but its columns 4
    to the right: a long function's syntax tree is not built, nor read back, in Python.
    """
    # (each is a parameter of the factory, the text's function's free variable if it reads
    # it: a name it does not read is an unused parameter, nothing more; finding which names
    # a long text holds, searching it for each of the hundreds of helpers' names, took as
    # long as compiling it)
    free = tuple(sorted({*free, *(OWN_CELLS if guarded else ())}))
    filename = generated_file(name, source)
    register_lines(filename, source)
    if not guarded and not columns and '"""' not in source and "'''" not in source:
        inner = _compiled_in_text_factory(source, name, free, filename)
    else:
        fdef = ast.parse(source, filename).body[0]
        assert isinstance(fdef, ast.FunctionDef) and fdef.name == name
        if guarded:
            _guard(fdef)
        tree = ast.Module(body=[_factory(fdef, free)], type_ignores=[])
        inner = _function_code(compile(tree, filename, "exec"), name)
    _keep_lines_while_alive(inner)
    return Compiled(inner, source, filename)


def _function_code(module_code: types.CodeType, name: str) -> types.CodeType:
    factory_code = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    return next(c for c in factory_code.co_consts
                if isinstance(c, types.CodeType) and c.co_name == name)


def _compiled_in_text_factory(source: str, name: str, free: tuple[str, ...], filename: str
                              ) -> types.CodeType:
    """``def _sourcegrad_factory(<free>):`` written above ``source`` indented (a string
    spanning lines would change: the caller sees there is none), compiled; the function's
    code (and that of what it nests) then numbered as ``source`` is."""
    indented = "".join("    " + line if line.strip() else line
                       for line in source.splitlines(keepends=True))
    text = f"def {FACTORY}({', '.join(free)}):\n{indented}\n    return {name}\n"
    return _lines_up(_function_code(compile(text, filename, "exec"), name), 1)


def _lines_up(code: types.CodeType, by: int) -> types.CodeType:
    consts = tuple(_lines_up(c, by) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_firstlineno=code.co_firstlineno - by, co_consts=consts)


def _factory(fdef: ast.FunctionDef, free: tuple[str, ...]) -> ast.FunctionDef:
    """``def _sourcegrad_factory(<free>): <fdef>; return <its name>``, located on the
    function's own first line."""
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in free], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    back = ast.Return(value=ast.Name(id=fdef.name, ctx=ast.Load()))
    factory = ast.FunctionDef(name=FACTORY, args=args, body=[fdef, back], decorator_list=[],
                              returns=None, type_comment=None)
    for node in (factory, back, back.value, *args.args):
        node.lineno = node.end_lineno = fdef.lineno
        node.col_offset = node.end_col_offset = 0
    return factory


# -- where generated files live ----------------------------------------------------------------
_PRIVATE: list[str] = []  # the temporary directory used when the disk cache is off


_DIRECTORIES: set[str] = set()  # the directories generated files were put in


def generated_file(name: str, source: str) -> str:
    """The path of a file holding ``source``, written if it is not there yet; a pseudo file
    name (``linecache`` only) if no directory can take it."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    directory = _generated_directory()
    if directory is None:
        return pseudo_filename(name, source)
    _DIRECTORIES.add(directory)
    path = os.path.join(directory, f"{name}-{digest}.py")
    if _holds(path, source) or _write(directory, path, source):
        return path
    return pseudo_filename(name, source)


def is_generated(filename: str) -> bool:
    """Is ``filename`` one of sourcegrad's own generated files (a derivative, a twin), not
    the user's code?"""
    return filename.startswith("<sourcegrad") or os.path.dirname(filename) in _DIRECTORIES


def _generated_directory() -> str | None:
    from .cache import cache_dir  # (cache.py imports this module)

    directory = cache_dir()
    if directory is not None:
        path = os.path.join(directory, "generated")
    else:
        if not _PRIVATE:
            _PRIVATE.append(tempfile.mkdtemp(prefix="sourcegrad-generated-"))
            atexit.register(shutil.rmtree, _PRIVATE[0], True)
        path = _PRIVATE[0]
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return path


def _holds(path: str, source: str) -> bool:
    try:
        with open(path, encoding="utf-8", newline="") as file:
            return file.read() == source
    except (OSError, UnicodeDecodeError):
        return False


def _write(directory: str, path: str, source: str) -> bool:
    try:
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".py")
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
            file.write(source)
        os.replace(temporary, path)
    except OSError:
        return False
    return True


def register_lines(filename: str, text: str) -> None:
    """Let ``linecache`` (so tracebacks, ``inspect`` and ``pdb``) see generated text."""
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)


def branch_test(value: Any) -> Any:
    """``value``, the test of an ``if`` in generated code, unless it is a lazy array (a Dask
    collection), whose truth only computing its graph can tell: refused, so that a derivative
    of lazy arrays never computes behind the caller's back (the note added to the error names
    the user's ``if``)."""
    if type(value) is bool or not hasattr(value, "__dask_graph__"):
        return value
    kind = f"{type(value).__module__}.{type(value).__name__}"
    error = LazyBranchError(
        f"A Python `if` or `while` asks whether a lazy {kind} is true, which only computing "
        "it can tell: the derivative would compute the data "
        "in the middle of building its graph. Keep the choice lazy with np.where(condition, "
        "a, b), or compute the condition first (dask.compute) and pass it in as an argument.")
    caller = sys._getframe(1)  # the generated function: its provenance names the user's line
    provenance = caller.f_locals.get(NOTE)
    note = provenance.note_at(caller.f_lineno - BODY_SHIFT) if provenance is not None else None
    if note is not None:
        error.add_note(note)
    raise error


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


def _guard(fdef: ast.FunctionDef) -> None:
    """Run the body of ``fdef`` inside ``with _sourcegrad_note:`` (see the module docstring),
    its ``if`` and ``while`` tests through ``_sourcegrad_branch``, after the staleness check
    and the way to specialised variants."""
    first = fdef.body[0]
    line, column = first.lineno, first.col_offset
    _branch_tests(fdef.body)
    noting = ast.With(items=[ast.withitem(context_expr=ast.Name(id=NOTE, ctx=ast.Load()),
                                          optional_vars=None)],
                      body=fdef.body, type_comment=None)
    fdef.body = [_redirect_if_stale(fdef.args, line, column),
                 _redirect_if_specialised(fdef.args, line, column),
                 _located_at(noting, line, column, into_body=False)]


def _branch_tests(body: list[ast.stmt]) -> None:
    """``if test:`` becomes ``if _sourcegrad_branch(test):``, and so does a ``while``'s
    (not inside nested ``def``s or classes: those are not guarded)."""
    for stmt in body:
        if isinstance(stmt, (ast.If, ast.While)):
            stmt.test = _located(ast.Call(func=ast.Name(id=BRANCH, ctx=ast.Load()),
                                          args=[stmt.test], keywords=[]), stmt.test)
        if not isinstance(stmt, _HOLDING):  # (a simple statement, a nested def or class)
            continue
        for part in ("body", "orelse", "finalbody"):
            _branch_tests(getattr(stmt, part, None) or [])
        for handler in getattr(stmt, "handlers", None) or []:
            _branch_tests(handler.body)


# the statements holding others that are guarded (not nested ``def``s and classes)
_HOLDING = (ast.If, ast.While, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Try,
            ast.TryStar)


def _located(node: Any, at: ast.AST) -> Any:
    for part in walk(node):
        if hasattr(part, "ctx") or isinstance(part, (ast.stmt, ast.expr)):
            if not hasattr(part, "lineno"):
                part.lineno, part.end_lineno = at.lineno, at.lineno
                part.col_offset, part.end_col_offset = at.col_offset, at.col_offset
    return node


def _redirect_if_stale(args: ast.arguments, line: int, column: int) -> ast.If:
    """``if _sourcegrad_stale(): return _sourcegrad_stale.again(<the arguments>)``, located
    on the body's first line (no line of its own, for tracebacks or ``pdb``)."""
    again = ast.Attribute(value=ast.Name(id=STALE, ctx=ast.Load()), attr="again", ctx=ast.Load())
    test = ast.Call(func=ast.Name(id=STALE, ctx=ast.Load()), args=[], keywords=[])
    return _located_at(ast.If(test=test, body=[ast.Return(value=_forwarded(again, args))],
                              orelse=[]), line, column)


def _redirect_if_specialised(args: ast.arguments, line: int, column: int) -> ast.If:
    """``if _sourcegrad_special is not None and (_sourcegrad_result := _sourcegrad_special(<the
    arguments>)) is not _sourcegrad_special: return _sourcegrad_result``, located on the
    body's first line: the dispatcher returns the result of a specialised variant, or itself
    to have the general code run here, in this frame."""
    special = ast.Name(id=SPECIAL, ctx=ast.Load())
    result = ast.NamedExpr(target=ast.Name(id=RESULT, ctx=ast.Store()),
                           value=_forwarded(special, args))
    test = ast.BoolOp(op=ast.And(), values=[
        ast.Compare(left=ast.Name(id=SPECIAL, ctx=ast.Load()), ops=[ast.IsNot()],
                    comparators=[ast.Constant(None)]),
        ast.Compare(left=result, ops=[ast.IsNot()],
                    comparators=[ast.Name(id=SPECIAL, ctx=ast.Load())])])
    return _located_at(ast.If(test=test, body=[ast.Return(value=ast.Name(id=RESULT,
                                                                         ctx=ast.Load()))],
                              orelse=[]), line, column)


def _forwarded(func: ast.expr, args: ast.arguments) -> ast.Call:
    """``func`` called with the function's own parameters, each as it was passed."""
    positional: list[ast.expr] = [ast.Name(id=a.arg, ctx=ast.Load())
                                  for a in args.posonlyargs + args.args]
    if args.vararg is not None:
        positional.append(ast.Starred(value=ast.Name(id=args.vararg.arg, ctx=ast.Load()),
                                      ctx=ast.Load()))
    keywords = [ast.keyword(arg=a.arg, value=ast.Name(id=a.arg, ctx=ast.Load()))
                for a in args.kwonlyargs]
    if args.kwarg is not None:
        keywords.append(ast.keyword(arg=None, value=ast.Name(id=args.kwarg.arg, ctx=ast.Load())))
    return ast.Call(func=func, args=positional, keywords=keywords)


def _located_at(stmt: ast.If | ast.With, line: int, column: int, into_body: bool = True
                ) -> ast.If | ast.With:
    """``stmt`` and its parts on ``line``; without ``into_body``, its ``body`` keeps its
    own lines."""
    body = stmt.body
    if not into_body:
        stmt.body = []
    for node in walk(stmt):
        if isinstance(node, (ast.expr, ast.stmt, ast.keyword)):
            node.lineno = node.end_lineno = line
            node.col_offset = node.end_col_offset = column
    stmt.body = body
    if body and not into_body:
        stmt.end_lineno = max(s.end_lineno or s.lineno for s in body)
    return stmt


def link(compiled: Compiled, user_globals: dict[str, Any],
         cells: dict[str, types.CellType], helpers: dict[str, Any],
         defaults: tuple | None = None,
         kwdefaults: dict[str, Any] | None = None) -> types.FunctionType:
    """Bind compiled code: ``cells`` are closure cells shared with the user's function (read
    live); ``helpers`` are values the generated code refers to by name."""
    code = _with_file(compiled)  # code from the disk cache was not compiled in this process
    register_lines(code.co_filename, compiled.text)
    _keep_lines_while_alive(code)
    closure = tuple(
        cells[var] if var in cells else types.CellType(helpers[var]) for var in code.co_freevars
    )
    fn = types.FunctionType(code, user_globals, code.co_name, defaults, closure)
    if kwdefaults:
        fn.__kwdefaults__ = dict(kwdefaults)
    return fn


def _with_file(compiled: Compiled) -> types.CodeType:
    """``compiled``'s code, naming a file that holds its text: the one it was compiled
    under if it still does, else one written now (a cache directory moved or cleaned)."""
    filename = compiled.filename
    if filename.startswith("<") or _holds(filename, compiled.text):
        return compiled.code
    return _renamed(compiled.code, generated_file(compiled.code.co_name, compiled.text))


def _renamed(code: types.CodeType, filename: str) -> types.CodeType:
    consts = tuple(_renamed(c, filename) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def compile_function(source: str, name: str, user_globals: dict[str, Any],
                     cells: dict[str, types.CellType], helpers: dict[str, Any],
                     defaults: tuple | None = None,
                     kwdefaults: dict[str, Any] | None = None,
                     note: Any = None, columns: bool = True) -> types.FunctionType:
    """Compile the single ``def name(...)`` in ``source`` and bind it (see ``link``).

    ``note``, when given, is a context manager (a ``debug.Provenance``) around the body,
    whose ``__exit__`` sees any exception raised inside the function before it propagates
    (see the module docstring). ``columns``: see ``compile_factory``.
    """
    compiled = compile_factory(source, name, [*helpers, *cells], guarded=note is not None,
                               columns=columns)
    if note is not None:
        helpers = {**helpers, NOTE: note, STALE: never_stale, SPECIAL: None,
                   BRANCH: branch_test}
        # differentiating generated code again: its own note, check and variants are not
        # the new function's
        cells = {k: v for k, v in cells.items() if k not in OWN_CELLS}
    return link(compiled, user_globals, cells, helpers, defaults, kwdefaults)
