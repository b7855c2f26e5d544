"""Reading a user's function: its AST with real file line numbers, and its environment.

Everything downstream reports errors through ``Located.error``, so that every message points
at the user's own file and line, never at a function-relative line or ``<stdin>``.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import linecache
import textwrap
from dataclasses import dataclass, field
from types import CodeType, FunctionType
from typing import Any

from ..codegen.names import USER_MARK
from ..codegen.walk import walk
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
            _users(construct), _users(advice), self.filename, lineno,
            getattr(node, "col_offset", 0), self.line(lineno),
        )

    def no_derivative(self, node: ast.AST, message: str) -> NoDerivativeError:
        lineno = getattr(node, "lineno", self.tree.lineno)
        return NoDerivativeError(_users(message), self.filename, lineno,
                                 getattr(node, "col_offset", 0), self.line(lineno))

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
        """The value ``name`` has for the function now (closure, then globals, then builtins);
        the passes mark some of the user's names (``codegen/names.py``)."""
        name = name.removesuffix(USER_MARK)
        if name in self.closure:
            return self.closure[name]
        if name in self.globals:
            return self.globals[name]
        return getattr(builtins, name, _MISSING)


_MISSING = object()


def _users(text: str) -> str:
    """A message naming the user's variables as the user spells them (the passes mark some
    of them: ``codegen/names.py``)."""
    return text.replace(USER_MARK, "")


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
    found = _read_quickly(fn)
    if found is None:
        found = _read_with_inspect(fn)
    file_lines, start, block, module = found
    tree = module.body[0]
    if not isinstance(tree, ast.FunctionDef):
        raise UnsupportedSyntaxError(
            f"a {type(tree).__name__}", "Pass a function defined with `def`.",
            fn.__code__.co_filename, start + 1, 0, file_lines[start],
        )
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
        source="".join(block),
    )


def _read_with_inspect(fn: FunctionType) -> tuple[list[str], int, list[str], ast.Module]:
    """The file's lines, the index of the function's first line, its lines, and its module
    tree (line numbers the file's), as ``inspect`` finds them: the reference behaviour
    (and messages) for whatever ``_read_quickly`` declines."""
    try:
        file_lines, start = inspect.findsource(fn)
        block = inspect.getblock(file_lines[start:])
    except (OSError, TypeError) as exc:
        raise NoDerivativeError(
            f"cannot read the source of {fn.__qualname__}: {exc}. sourcegrad needs functions "
            "defined in a file (or registered with linecache), not typed at the interactive "
            "prompt."
        ) from exc
    return file_lines, start, block, _parse_block(block, start)


def _read_quickly(fn: FunctionType) -> tuple[list[str], int, list[str], ast.Module] | None:
    """What ``_read_with_inspect`` returns, without tokenizing the file: ``inspect.getblock``
    runs the tokenizer over the function (and compiles its big regex on first use), which
    was most of the cost of reading a function. The block runs from the ``def`` (or first
    decorator) to the last line any of its code comes from, then on over the lines that
    cannot end it (blank, comment, deeper indented). ``None`` when in doubt: the source is
    not in ``linecache``, or the lines do not parse (the end fell inside a bracket or a
    string that a later line closes), and ``inspect`` decides."""
    code = fn.__code__
    filename = code.co_filename
    if not (filename.startswith("<") and filename.endswith(">")):
        linecache.checkcache(filename)  # as inspect.findsource does
    file_lines = linecache.getlines(filename, fn.__globals__)
    start = code.co_firstlineno - 1
    if not 0 <= start < len(file_lines) or not file_lines[start].lstrip().startswith(
            ("def ", "@")):
        return None
    end = _block_end(file_lines, start, _last_code_line(code))
    block = file_lines[start:end]
    try:
        module = _parse_block(block, start)
    except SyntaxError:
        return None
    return file_lines, start, block, module


def _last_code_line(code: CodeType) -> int:
    """The last line (1-based) that any instruction of ``code`` or its nested code spans."""
    last = code.co_firstlineno
    for _, end, _, _ in code.co_positions():
        if end is not None and end > last:
            last = end
    for const in code.co_consts:
        if isinstance(const, CodeType):
            last = max(last, _last_code_line(const))
    return last


def _block_end(lines: list[str], start: int, last_code_line: int) -> int:
    """The index after the block's last line: past ``last_code_line``, the block goes on
    until a line of code indented no deeper than its first line (where the tokenizer would
    close it), without the blank and comment lines before that line."""
    indent = _indentation(lines[start])
    end = stop = min(last_code_line, len(lines))
    while stop < len(lines):
        text = lines[stop].strip()
        if text and not text.startswith("#") and _indentation(lines[stop]) <= indent:
            break
        stop += 1
        if text and not text.startswith("#"):
            end = stop
    return end


def _indentation(line: str) -> int:
    expanded = line.expandtabs()
    return len(expanded) - len(expanded.lstrip())


def _parse_block(block: list[str], start: int) -> ast.Module:
    """The block's syntax tree, with the file's line and column numbers (the empty lines in
    front put every line at its own number without a pass over the tree)."""
    module = ast.parse("\n" * start + textwrap.dedent("".join(block)))
    indent = len(block[0]) - len(block[0].lstrip())
    if indent:
        for node in walk(module):
            if hasattr(node, "col_offset"):
                node.col_offset += indent
                if getattr(node, "end_col_offset", None) is not None:
                    node.end_col_offset += indent
    return module
