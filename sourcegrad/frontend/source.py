"""Reading a user's function: its AST with real file line numbers, and its environment.

Everything downstream reports errors through ``Located.error``, so that every message points
at the user's own file and line, never at a function-relative line or ``<stdin>``.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import textwrap
from dataclasses import dataclass, field
from types import FunctionType
from typing import Any

from ..errors import NoDerivativeError, UnsupportedSyntaxError


@dataclass
class Parsed:
    """A user function as the transformer sees it."""

    fn: FunctionType
    tree: ast.FunctionDef
    filename: str
    lines: list[str]  # the whole file, so that line numbers index it directly (1-based)
    globals: dict[str, Any]
    closure: dict[str, Any]
    source: str  # the function's own source text, as the cache keys it
    nested: dict[str, ast.FunctionDef] = field(default_factory=dict)

    def line(self, lineno: int) -> str:
        if 1 <= lineno <= len(self.lines):
            return self.lines[lineno - 1].rstrip("\n")
        return ""

    def unsupported(self, node: ast.AST, construct: str, advice: str) -> UnsupportedSyntaxError:
        lineno = getattr(node, "lineno", self.tree.lineno)
        return UnsupportedSyntaxError(
            construct, advice, self.filename, lineno, getattr(node, "col_offset", 0),
            self.line(lineno),
        )

    def no_derivative(self, node: ast.AST, message: str) -> NoDerivativeError:
        lineno = getattr(node, "lineno", self.tree.lineno)
        return NoDerivativeError(message, self.filename, lineno, getattr(node, "col_offset", 0),
                                 self.line(lineno))

    def quote(self, node: ast.AST) -> str:
        """The user's text of the statement ``node`` (first line), for provenance comments."""
        text = ast.get_source_segment(self.source_for_segments, node)
        if text is None:
            return self.line(node.lineno).strip()
        return " ".join(part.strip() for part in text.splitlines())

    @property
    def source_for_segments(self) -> str:
        return "".join(self.lines)

    def lookup(self, name: str) -> Any:
        """The value ``name`` has for the function now (closure, then globals, then builtins)."""
        if name in self.closure:
            return self.closure[name]
        if name in self.globals:
            return self.globals[name]
        return getattr(builtins, name, _MISSING)


_MISSING = object()


def is_missing(value: Any) -> bool:
    return value is _MISSING


def parse_function(fn: Any) -> Parsed:
    """Parse ``fn``'s source into a ``FunctionDef`` whose line numbers are the file's own."""
    fn = inspect.unwrap(fn)
    if not isinstance(fn, FunctionType):
        raise TypeError(
            f"sourcegrad differentiates functions defined with `def`; got {type(fn).__name__} "
            f"{fn!r}"
        )
    if fn.__name__ == "<lambda>":
        raise UnsupportedSyntaxError(
            "a lambda", "Define the function with `def` so that its source can be read.",
            fn.__code__.co_filename, fn.__code__.co_firstlineno, 0,
        )
    try:
        file_lines, start = inspect.findsource(fn)
        block = inspect.getblock(file_lines[start:])
    except (OSError, TypeError) as exc:
        raise NoDerivativeError(
            f"cannot read the source of {fn.__qualname__}: {exc}. sourcegrad needs functions "
            "defined in a file (or registered with linecache), not typed at the interactive "
            "prompt."
        ) from exc
    source = "".join(block)
    module = ast.parse(textwrap.dedent(source))
    tree = module.body[0]
    if not isinstance(tree, ast.FunctionDef):
        raise UnsupportedSyntaxError(
            f"a {type(tree).__name__}", "Pass a function defined with `def`.",
            fn.__code__.co_filename, start + 1, 0, file_lines[start],
        )
    ast.increment_lineno(module, start)
    indent = len(block[0]) - len(block[0].lstrip())
    if indent:
        for node in ast.walk(module):
            if hasattr(node, "col_offset"):
                node.col_offset += indent
                if getattr(node, "end_col_offset", None) is not None:
                    node.end_col_offset += indent
    tree.decorator_list = []
    closure = {}
    if fn.__closure__:
        for name, cell in zip(fn.__code__.co_freevars, fn.__closure__, strict=True):
            try:
                closure[name] = cell.cell_contents
            except ValueError:  # an empty cell: a name bound later in the enclosing scope
                continue
    return Parsed(
        fn=fn,
        tree=tree,
        filename=fn.__code__.co_filename,
        lines=list(file_lines),
        globals=fn.__globals__,
        closure=closure,
        source=source,
    )
