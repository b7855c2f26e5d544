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
import builtins
import functools
import inspect
import linecache
import textwrap
import types
from dataclasses import dataclass
from typing import Any

from .codegen.printer import is_comment
from .compile import BODY_SHIFT
from .errors import location


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


def line_map(source: str, marks: Landmarks, rendered: ast.FunctionDef | None = None
             ) -> dict[int, int]:
    """Line of ``source`` -> user line, relative to the function's first line.

    Each provenance comment (a ``# ...`` line of ``source``) carries the user line it
    quotes, and so does each statement the passes located at a user statement (the source
    parses back to the generated statements minus the comments, in the same order). A line
    takes the line of the last landmark at or above it. ``rendered``: ``source`` parsed
    already, if it was (parsing a long function again costs as much as the rest).
    """
    if rendered is None:
        rendered = ast.parse(source).body[0]  # type: ignore[assignment]
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


def _in_source_order(body: list[ast.stmt], found: list[ast.stmt] | None = None
                     ) -> list[ast.stmt]:
    """The statements of ``body`` at any depth, in source order (a list, not a generator:
    one generator a statement and block was most of the time it took)."""
    found = [] if found is None else found
    for stmt in body:
        found.append(stmt)
        if "body" not in stmt._fields:  # (what holds no block)
            continue
        for field in ("body", "orelse", "finalbody"):
            _in_source_order(getattr(stmt, field, []), found)
        for handler in getattr(stmt, "handlers", []):
            _in_source_order(handler.body, found)
    return found


@dataclass
class Provenance:
    """Called with an exception raised inside a generated function, or (as a context
    manager around the function's body) seeing it leave: adds a note naming the user's line
    the failing generated line comes from."""

    user_function: types.FunctionType
    generated_name: str
    source: str  # the generated function's source
    marks: Landmarks

    @functools.cached_property
    def lines(self) -> dict[int, int]:
        """Generated source line -> user line - the function's first line."""
        return line_map(self.source, self.marks)

    def read_lines_from(self, source: str, rendered: ast.FunctionDef) -> None:
        """Work ``lines`` out from ``rendered`` (``source`` parsed, untouched) if ``source``
        is this function's and they are not known yet: whoever parsed the source anyway
        saves a parse."""
        if source == self.source and "lines" not in self.__dict__:
            self.__dict__["lines"] = line_map(source, self.marks, rendered)

    def __call__(self, error: BaseException) -> None:
        add_note = getattr(error, "add_note", None)  # Python 3.11+
        if add_note is None:
            return
        try:
            note = self.note(error)
        except Exception:  # never let the note replace the user's exception
            return
        if note is not None and note not in getattr(error, "__notes__", ()):
            add_note(note)

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, error: BaseException | None, traceback: Any) -> bool:
        """The end of the generated function's body (``with`` it: see ``compile.py``): an
        exception leaving it gets its note, and goes on."""
        if isinstance(error, Exception):
            self(error)
        return False

    def note(self, error: BaseException) -> str | None:
        traceback = error.__traceback__
        if traceback is None:
            return None
        return self.note_at(traceback.tb_lineno - BODY_SHIFT)  # this frame's failing line

    def note_at(self, source_line: int) -> str | None:
        """The note for an error at ``source_line`` of the generated source."""
        relative = self.lines.get(source_line)
        if relative is None:
            return None
        code = self.user_function.__code__
        user_line = code.co_firstlineno + relative
        text = linecache.getline(code.co_filename, user_line).strip()
        kind = "jvp" if self.generated_name.startswith("jvp_") else "vjp"
        rules = "".join(f"\nsourcegrad: that line calls {primal}, whose derivative there is "
                        f"your @sg.def{kind} rule {_where(rule)}."
                        for primal, rule in _user_rules_called(self.user_function, user_line,
                                                               kind))
        return (f"sourcegrad: line {source_line} of the generated {self.generated_name} comes "
                f"from {location(code.co_filename, user_line)}, in "
                f"{self.user_function.__name__}" + (f": {text}" if text else "") + rules)


def _user_rules_called(fn: types.FunctionType, line: int, kind: str
                       ) -> list[tuple[str, types.FunctionType]]:
    """``(how the user spelled the callee, the user's rule of ``kind`` for it)`` for each call
    on the statement at ``line`` of ``fn`` of a function with a rule registered by the user."""
    from .rules.registry import lookup  # (the rule table imports this module's users)

    try:
        lines, first = inspect.getsourcelines(fn)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError):
        return []
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.stmt) and not isinstance(node, ast.FunctionDef)
                and first + node.lineno - 1 <= line <= first + (node.end_lineno or 0) - 1):
            continue
        for call in ast.walk(node):
            if not isinstance(call, ast.Call):
                continue
            rule = lookup(_value_of(fn, call.func))
            user_rule = getattr(rule, "functions", {}).get(kind)
            if user_rule is not None and (ast.unparse(call.func), user_rule) not in found:
                found.append((ast.unparse(call.func), user_rule))
    return found


def _value_of(fn: types.FunctionType, expr: ast.expr) -> Any:
    """What a callee expression (a name, or attributes of one) denotes for ``fn``."""
    if isinstance(expr, ast.Attribute):
        return getattr(_value_of(fn, expr.value), expr.attr, None)
    if not isinstance(expr, ast.Name):
        return None
    if expr.id in fn.__code__.co_freevars and fn.__closure__:
        try:
            return fn.__closure__[fn.__code__.co_freevars.index(expr.id)].cell_contents
        except ValueError:
            return None
    return fn.__globals__.get(expr.id, getattr(builtins, expr.id, None))


def _where(rule: types.FunctionType) -> str:
    code = rule.__code__
    return f"{rule.__qualname__} ({location(code.co_filename, code.co_firstlineno)})"
