"""Reading a user's function: its AST with real file line numbers, and its environment.

Everything downstream reports errors through ``Located.error``, so that every message points
at the user's own file and line, never at a function-relative line or ``<stdin>``.
"""

from __future__ import annotations
import __future__ as future_statements

import ast
import builtins
import dis
import inspect
import linecache
import os
import sys
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import CodeType, FunctionType
from typing import Any

from ..codegen.clone import clone
from ..codegen.names import USER_MARK
from ..dependencies import code_digest
from ..errors import NoDerivativeError, UnsupportedSyntaxError
from . import forms


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
    # names the transformer binds (``grad_g`` for a nested ``sg.grad(g)``) -> their values
    extra: dict[str, Any] = field(default_factory=dict)
    # sourcegrad's helpers the transformer writes into the code before names are resolved
    # (``no_cotangent``): never the user's names, so not recorded as what those denote
    inserted: dict[str, Any] = field(default_factory=dict)

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
        """The value ``name`` has for the function now (what the transformer bound, then
        closure, then globals, then builtins); the passes mark some of the user's names
        (``codegen/names.py``)."""
        if name in self.extra:
            return self.extra[name]
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
    from ..cache import current  # generated code whose derivative was made again

    fn = current(inspect.unwrap(fn))
    if not isinstance(fn, FunctionType):
        raise TypeError(
            f"sourcegrad differentiates functions defined with `def`; got {type(fn).__name__} "
            f"{fn!r}"
        )
    made = forms.synthetic(fn)
    if made is not None:  # a function sourcegrad made from the user's code
        tree, filename, file_lines = made
        tree = clone(tree)
        block = file_lines[tree.lineno - 1:tree.end_lineno or tree.lineno]
        return _parsed(fn, tree, filename, file_lines, block)
    if forms.is_lambda(fn):
        found = forms.read_lambda(fn)
    else:
        found = _read_quickly(fn) or _read_with_inspect(fn)
    file_lines, start, block, module = found
    _check_source_is_code(fn, file_lines, start, block)
    tree = module.body[0]
    if not isinstance(tree, ast.FunctionDef):
        raise UnsupportedSyntaxError(
            f"a {type(tree).__name__}", "Pass a function defined with `def`.",
            fn.__code__.co_filename, start + 1, 0, file_lines[start],
        )
    tree.decorator_list = []
    return _parsed(fn, tree, fn.__code__.co_filename, file_lines, block)


def _parsed(fn: FunctionType, tree: ast.FunctionDef, filename: str, file_lines: list[str],
            block: list[str]) -> Parsed:
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
        filename=filename,
        lines=list(file_lines),
        globals=fn.__globals__,
        closure=closure,
        source="".join(block),
    )


class SourceChangedError(NoDerivativeError):
    """The source file no longer holds the code that runs: it was edited since the module
    was imported, and differentiating the new text would give the derivative of code that
    does not run."""


def _check_source_is_code(fn: FunctionType, file_lines: list[str], start: int,
                          block: list[str]) -> None:
    """Raise ``SourceChangedError`` unless compiling ``block`` (the function's text as read
    from its file) gives ``fn``'s own code: the same instructions, names, constants, line
    table and first line. Files sourcegrad generates, text that is not on disk (an
    interactive cell cannot be edited) and code a tool rewrote after compiling it (pytest's
    assertions) are not checked. A code object found to match the lines ``linecache``
    holds is not checked again until they change (``linecache`` reads the file anew)."""
    code = fn.__code__
    filename = code.co_filename
    if _MATCHED.get(code) is file_lines or filename.startswith("<") or not os.path.exists(
            filename) or _rewritten(code):
        return
    compiled = _compile_in_scope(fn, block, start)
    if compiled is _UNKNOWN or any(_same_code(candidate, code) for candidate in compiled):
        _MATCHED[code] = file_lines
        return
    raise _changed(fn, filename, start + 1, file_lines[start] if start < len(file_lines) else "")


def _changed(fn: FunctionType, filename: str, line: int, text: str) -> SourceChangedError:
    return SourceChangedError(
        f"{filename} has changed since the module {fn.__module__} was imported: the text of "
        f"{fn.__qualname__} there no longer compiles to the code that runs, so sourcegrad "
        "would differentiate code that does not run. Reload the module (importlib.reload("
        f"{fn.__module__.rpartition('.')[2]})) or restart Python.", filename, line, 0, text)


# code object -> the file's lines (linecache's list) it was found to match
_MATCHED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _rewritten(code: CodeType) -> bool:
    """Names no source text can hold (``@py_assert1``): the code was rewritten as a tree."""
    names = (*code.co_names, *code.co_varnames)
    if any(not name.isidentifier() for name in names):
        return True
    return any(_rewritten(c) for c in code.co_consts if isinstance(c, CodeType))


# the ``from __future__`` features that change what a function's code compiles to
_FUTURE_FLAGS = future_statements.annotations.compiler_flag


_UNKNOWN: Any = object()


def _compile_in_scope(fn: FunctionType, block: list[str], start: int) -> Any:
    """The code object compiling ``block`` gives, inside classes and functions standing for
    the scopes ``fn``'s qualified name says it was defined in (which decide name mangling,
    closures and ``super()``), its lines at their numbers in the file: each function of that
    name there (several lambdas on a line), none if ``block`` does not define it (another
    function was found where it was); ``_UNKNOWN`` when the scopes cannot be rebuilt (the
    check is then skipped)."""
    code = fn.__code__
    parts = fn.__qualname__.split(".")
    scopes = [("def" if following == "<locals>" else "class", part)
              for part, following in zip(parts[:-1], parts[1:], strict=True) if part != "<locals>"]
    indent = block[0][:len(block[0]) - len(block[0].lstrip())]
    if indent and not scopes:
        scopes = [("if", "1")]
    if len(scopes) > len(indent) or len(scopes) > start or not all(
            part.isidentifier() or kind == "if" for kind, part in scopes):
        return _UNKNOWN
    head = []
    for depth, (kind, part) in enumerate(scopes):
        header = {"def": f"def {part}():", "class": f"class {part}:", "if": "if 1:"}[kind]
        head.append(indent[:depth] + header + "\n")
    tail = []
    innermost = max((d for d, (kind, _) in enumerate(scopes) if kind == "def"), default=None)
    if innermost is not None:
        body_indent = indent[:innermost + 1] if innermost + 1 < len(scopes) else indent
        tail = [f"{body_indent}{name} = None\n" for name in code.co_freevars
                if name != "__class__"]
    text = "".join(head) + "\n" * (start - len(head)) + "".join(block)
    if not text.endswith("\n"):
        text += "\n"
    text += "".join(tail)
    # a method called on a name imported at module level compiles differently (CPython
    # 3.11+): those names, as the loaded code shows them, are imported in the copy too
    text += "".join(f"import {name}\n" for name in sorted(_imported_names(code)))
    try:
        module = compile(text, code.co_filename, "exec", flags=code.co_flags & _FUTURE_FLAGS,
                         dont_inherit=True)
    except (SyntaxError, ValueError):
        return _UNKNOWN
    return list(_find_code(module, fn.__qualname__, code.co_name))


_OP = dis.opmap
_CACHE = _OP.get("CACHE", -1)


def _imported_names(code: CodeType) -> set[str]:
    """The globals ``code`` calls methods of as names imported at module level: loaded
    with ``LOAD_GLOBAL`` pushing NULL then read with a plain ``LOAD_ATTR`` (where any other
    global gets ``LOAD_METHOD``, or a ``LOAD_ATTR`` marked as a method load)."""
    if sys.version_info < (3, 11):
        return set()
    method_bit = 1 if sys.version_info >= (3, 12) else 0
    found, raw, extended, loaded = set(), code.co_code, 0, None
    for i in range(0, len(raw), 2):
        op, arg = raw[i], raw[i + 1] | extended
        if op == _CACHE:
            continue
        if op == dis.EXTENDED_ARG:
            extended = arg << 8
            continue
        extended = 0
        if loaded is not None and op == _OP["LOAD_ATTR"] and not arg & method_bit:
            found.add(loaded)
        loaded = code.co_names[arg >> 1] if op == _OP["LOAD_GLOBAL"] and arg & 1 else None
    for const in code.co_consts:
        if isinstance(const, CodeType):
            found |= _imported_names(const)
    return found


def _find_code(code: CodeType, qualname: str, name: str) -> Iterator[CodeType]:
    for const in code.co_consts:
        if isinstance(const, CodeType):
            if getattr(const, "co_qualname", qualname) == qualname and const.co_name == name:
                yield const
            yield from _find_code(const, qualname, name)


def _same_code(a: CodeType, b: CodeType) -> bool:
    return a.co_firstlineno == b.co_firstlineno and code_digest(a) == code_digest(b)


def _read_with_inspect(fn: FunctionType) -> tuple[list[str], int, list[str], ast.Module]:
    """The file's lines, the index of the function's first line, its lines, and its module
    tree (line numbers the file's), as ``inspect`` finds them: the reference behaviour
    (and messages) for whatever ``_read_quickly`` declines."""
    try:
        file_lines, start = inspect.findsource(fn)
        block = inspect.getblock(file_lines[start:])
    except (OSError, TypeError) as exc:
        filename = fn.__code__.co_filename
        if not filename.startswith("<") and os.path.exists(filename):  # now shorter
            raise _changed(fn, filename, fn.__code__.co_firstlineno, "") from exc
        raise NoDerivativeError(
            f"cannot read the source of {fn.__qualname__}: {exc}. sourcegrad needs functions "
            "defined in a file (or registered with linecache), not typed at the interactive "
            "prompt."
        ) from exc
    return file_lines, start, block, forms.parse_block(block, start, fn.__code__.co_filename)


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
        module = forms.parse_block(block, start, filename)
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
