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
import linecache
import types
from collections.abc import Iterator
from dataclasses import dataclass

from .codegen.printer import is_comment
from .compile import GUARDED_BODY_SHIFT


def line_map(fdef: ast.FunctionDef, source: str, first: int, last: int) -> dict[int, int]:
    """Line of ``source`` (the rendering of ``fdef``) -> user line, relative to ``first``.

    Two kinds of landmarks, both in source order: each provenance comment (a statement in
    ``fdef``, a ``# ...`` line in ``source``) carries the user line it quotes, and so does
    each statement the passes located at a user statement (the rendering parses back to the
    same statements minus the comments, so the two trees correspond one to one). A line
    takes the line of the last landmark at or above it.
    """
    ordered = list(_in_source_order(fdef.body))
    comments = [s for s in ordered if is_comment(s)]
    statements = [s for s in ordered if not is_comment(s)]
    rendered = ast.parse(source).body[0]
    assert isinstance(rendered, ast.FunctionDef)
    rendered_statements = list(_in_source_order(rendered.body))
    comment_lines = [n for n, text in enumerate(source.splitlines(), 1)
                     if text.lstrip().startswith("#")]
    if len(statements) != len(rendered_statements) or len(comments) != len(comment_lines):
        return {}
    landmarks = dict(zip(comment_lines, (c.lineno for c in comments), strict=True))
    for gen, out in zip(statements, rendered_statements, strict=True):
        user = getattr(gen, "lineno", 0)
        if first < user <= last:
            landmarks[out.lineno] = user
    mapped: dict[int, int] = {}
    current = None
    for line in range(1, len(source.splitlines()) + 1):
        current = landmarks.get(line, current)
        if current is not None:
            mapped[line] = current - first
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
    lines: dict[int, int]  # generated source line -> user line - first line of the function

    def __call__(self, error: BaseException) -> None:
        traceback = error.__traceback__
        if traceback is None:
            return
        source_line = traceback.tb_lineno - GUARDED_BODY_SHIFT  # this frame's failing line
        relative = self.lines.get(source_line)
        if relative is None:
            return
        code = self.user_function.__code__
        user_line = code.co_firstlineno + relative
        text = linecache.getline(code.co_filename, user_line).strip()
        error.add_note(
            f"sourcegrad: line {source_line} of the generated {self.generated_name} comes from "
            f'File "{code.co_filename}", line {user_line}, in {self.user_function.__name__}'
            + (f": {text}" if text else ""))
