"""Reading a generated derivative back: its syntax tree with the provenance comments, the
values its names denote, and the user's line each statement comes from.

A function sourcegrad generated keeps its text (``.source``) and is linked with the helpers,
NumPy and the callee derivatives it calls through closure cells (``compile.link``); the
user's globals are its globals. The tree ``read`` returns has its comments back as comment
statements (``codegen.printer``), so that specialised code prints as readably as the
original, and each statement carries ``user_line`` (the line of the user's file it comes
from, or ``None``), so that a compiler's error on the specialised code can name the user's
line.
"""

from __future__ import annotations

import ast
import inspect
import types
from dataclasses import dataclass
from typing import Any

from ..codegen import printer
from ..compile import NOTE
from ..debug import Provenance

USER_LINE = "sourcegrad_user_line"  # the attribute statements carry their user line in


@dataclass
class Generated:
    """One generated function, read back."""

    function: types.FunctionType  # the compiled generated function
    fdef: ast.FunctionDef  # its tree, comments included
    namespace: dict[str, Any]  # what each name it reads denotes (closure, globals)
    user_function: Any  # the user's function it derives from (``None``: unknown)

    @property
    def name(self) -> str:
        return self.fdef.name


def is_generated(fn: Any) -> bool:
    """Is ``fn`` a function sourcegrad generated (a derivative, or a callee's half)?"""
    return isinstance(fn, types.FunctionType) and isinstance(getattr(fn, "source", None), str)


def unwrapped(fn: Any) -> Any:
    """The generated function behind a checking wrapper (``check=True``)."""
    return inspect.unwrap(fn, stop=is_generated) if callable(fn) else fn


def read(fn: types.FunctionType) -> Generated:
    """``fn`` (a generated function) read back; see the module docstring."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True))
    provenance = cells.pop(NOTE).cell_contents if NOTE in cells else None
    namespace = dict(fn.__globals__)
    namespace.update({n: c.cell_contents for n, c in cells.items()})
    fdef = _parse_function(fn.source)
    if isinstance(provenance, Provenance):
        provenance.read_lines_from(fn.source, fdef)  # before the comments go in
    _put_back_comments(fdef, fn.source)
    user = provenance.user_function if isinstance(provenance, Provenance) else None
    for stmt in statements(fdef.body):
        setattr(stmt, USER_LINE, _user_line(provenance, stmt.lineno))
    return Generated(fn, fdef, namespace, user)


def _user_line(provenance: Any, line: int) -> int | None:
    if not isinstance(provenance, Provenance):
        return None
    relative = provenance.lines.get(line)
    if relative is None:
        return None
    return provenance.user_function.__code__.co_firstlineno + relative


def parse_with_comments(text: str) -> ast.FunctionDef:
    """The single function of ``text``, each full-line comment put back as a comment
    statement before the statement that follows it."""
    fdef = _parse_function(text)
    _put_back_comments(fdef, text)
    return fdef


def _parse_function(text: str) -> ast.FunctionDef:
    fdef = ast.parse(text).body[0]
    assert isinstance(fdef, ast.FunctionDef)
    return fdef


def _put_back_comments(fdef: ast.FunctionDef, text: str) -> None:
    """Each full-line comment of ``text`` (``fdef``'s source) as a comment statement before
    the statement that follows it."""
    located = _with_parents(fdef.body)  # in source order: their lines never decrease
    pending: dict[int, list[ast.stmt]] = {}
    following = 0
    for line, comment in _full_line_comments(text, fdef):  # in order of lines too
        while following < len(located) and located[following][0].lineno <= line:
            following += 1
        if following < len(located):
            stmt = located[following][0]
            pending.setdefault(id(stmt), []).append(printer.comment(comment))
    # each block rebuilt once, with its comments (not one insertion, and search, a comment)
    for block in {id(parent): parent for _, parent in located}.values():
        if any(id(stmt) in pending for stmt in block):
            block[:] = [new for stmt in block
                        for new in [*pending.get(id(stmt), ()), stmt]]


def _full_line_comments(text: str, fdef: ast.FunctionDef) -> list[tuple[int, str]]:
    """``(line, comment text)`` of each comment alone on its line, read off the lines
    (``tokenize`` took most of the time of reading a function back, compiling its patterns
    in a fresh process): a line starting with ``#`` is one unless a string spanning several
    lines holds it."""
    found = [(number, line.lstrip()[1:].removeprefix(" "))
             for number, line in enumerate(text.splitlines(), 1)
             if line.lstrip()[:1] == "#"]
    if not found or '"""' not in text and "'''" not in text:
        return found
    inside = {line for node in ast.walk(fdef) if (isinstance(node, ast.JoinedStr) or isinstance(
              node, ast.Constant) and isinstance(node.value, str | bytes))
              and node.end_lineno != node.lineno
              for line in range(node.lineno + 1, (node.end_lineno or node.lineno) + 1)}
    return [(number, comment) for number, comment in found if number not in inside]


def _with_parents(body: list[ast.stmt], found: list[tuple[ast.stmt, list[ast.stmt]]] | None
                  = None) -> list[tuple[ast.stmt, list[ast.stmt]]]:
    """Every statement under ``body`` with the list it is in, in source order."""
    found = [] if found is None else found
    for stmt in body:
        found.append((stmt, body))
        if "body" not in stmt._fields:  # (what holds no block)
            continue
        for field in ("body", "orelse", "finalbody"):
            _with_parents(getattr(stmt, field, []), found)
    return found


def statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """Every statement under ``body`` but comments, in source order."""
    return [s for s, _ in _with_parents(body) if not printer.is_comment(s)]


def printed_user_lines(fdef: ast.FunctionDef, text: str) -> dict[int, int]:
    """Line of ``text`` (``fdef`` printed) -> the user line it comes from: the statements of
    the printed text, in source order, are ``fdef``'s; a line takes the user line of the last
    statement at or above it that has one."""
    printed = statements(ast.parse(text).body[0].body)  # type: ignore[attr-defined]
    found = {}
    for out, stmt in zip(printed, statements(fdef.body), strict=False):
        user = getattr(stmt, USER_LINE, None)
        if user is not None:
            found[out.lineno] = user
    mapped, current = {}, None
    for line in range(1, len(text.splitlines()) + 1):
        current = found.get(line, current)
        if current is not None:
            mapped[line] = current
    return mapped
