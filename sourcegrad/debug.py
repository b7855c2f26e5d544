"""Where each generated line comes from, and the note an exception gets about it.

Generated statements carry the user's line numbers in their AST (the passes locate each
statement at the user statement it derives from). ``line_map`` recovers, for each line of the
rendered source, the user line it comes from; ``Provenance`` turns an exception raised on a
generated line into a note that names the user's file and line, so that a failing adjoint
points the user at their own code. Lines are kept relative to the user function's first
line, so a cached map stays right when the function moves within its file.
"""

from __future__ import annotations

import ast
import functools
import linecache
import types
from collections.abc import Iterator
from dataclasses import dataclass

from .codegen.printer import is_comment
from .compile import BODY_SHIFT


@dataclass(frozen=True)
class Landmarks:
    """The user lines (relative to the function's first line) of a generated function's
    provenance comments and of its other statements (``None``: not located at a user
    statement), each in source order: what ``line_map`` needs besides the source text.
    Cheap to collect when compiling; the map itself is only worked out if an exception
    needs it."""

    comments: tuple[int, ...]
    statements: tuple[int | None, ...]


def landmarks(fdef: ast.FunctionDef, first: int, last: int) -> Landmarks:
    comments: list[int] = []
    statements: list[int | None] = []
    for stmt in _in_source_order(fdef.body):
        user = getattr(stmt, "lineno", 0)
        if is_comment(stmt):
            comments.append(user - first)
        else:
            statements.append(user - first if first < user <= last else None)
    return Landmarks(tuple(comments), tuple(statements))


def line_map(source: str, marks: Landmarks) -> dict[int, int]:
    """Line of ``source`` -> user line, relative to the function's first line.

    Each provenance comment (a ``# ...`` line of ``source``) carries the user line it
    quotes, and so does each statement the passes located at a user statement (the source
    parses back to the generated statements minus the comments, in the same order). A line
    takes the line of the last landmark at or above it.
    """
    rendered = ast.parse(source).body[0]
    assert isinstance(rendered, ast.FunctionDef)
    rendered_statements = list(_in_source_order(rendered.body))
    comment_lines = [n for n, text in enumerate(source.splitlines(), 1)
                     if text.lstrip().startswith("#")]
    if len(marks.statements) != len(rendered_statements) or len(marks.comments) != len(
            comment_lines):
        return {}
    found = dict(zip(comment_lines, marks.comments, strict=True))
    for user, out in zip(marks.statements, rendered_statements, strict=True):
        if user is not None:
            found[out.lineno] = user
    mapped: dict[int, int] = {}
    current = None
    for line in range(1, len(source.splitlines()) + 1):
        current = found.get(line, current)
        if current is not None:
            mapped[line] = current
    return mapped


def _in_source_order(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for stmt in body:
        yield stmt
        for field in ("body", "orelse", "finalbody"):
            yield from _in_source_order(getattr(stmt, field, []))
        for handler in getattr(stmt, "handlers", []):
            yield from _in_source_order(handler.body)


@dataclass
class Provenance:
    """Called with an exception raised inside a generated function: adds a note naming the
    user's line the failing generated line comes from."""

    user_function: types.FunctionType
    generated_name: str
    source: str  # the generated function's source
    marks: Landmarks

    @functools.cached_property
    def lines(self) -> dict[int, int]:
        """Generated source line -> user line - the function's first line."""
        return line_map(self.source, self.marks)

    def __call__(self, error: BaseException) -> None:
        add_note = getattr(error, "add_note", None)  # Python 3.11+
        if add_note is None:
            return
        try:
            note = self.note(error)
        except Exception:  # never let the note replace the user's exception
            return
        if note is not None:
            add_note(note)

    def note(self, error: BaseException) -> str | None:
        traceback = error.__traceback__
        if traceback is None:
            return None
        source_line = traceback.tb_lineno - BODY_SHIFT  # this frame's failing line
        relative = self.lines.get(source_line)
        if relative is None:
            return None
        code = self.user_function.__code__
        user_line = code.co_firstlineno + relative
        text = linecache.getline(code.co_filename, user_line).strip()
        return (f"sourcegrad: line {source_line} of the generated {self.generated_name} comes "
                f'from File "{code.co_filename}", line {user_line}, in '
                f"{self.user_function.__name__}" + (f": {text}" if text else ""))
