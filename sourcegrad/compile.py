"""Turn generated source into a live function, debuggable like the user's own code.

The source is registered with ``linecache`` under a unique pseudo file name, so tracebacks,
``inspect.getsource`` and ``pdb`` show the generated lines. The function runs with the user
function's own ``__globals__`` (so globals are read live, as the user's code would), its
closure cells (same), and the helpers the generated code calls as extra closure cells, so
nothing is injected into the user's module.

Compiling is two steps, so that the on-disk cache can store the first one's result:
``compile_factory`` (source text -> a code object, the expensive part) and ``link`` (code
object + the user's globals, cells and helpers -> a function, cheap).

When a ``Provenance`` is given, the body is wrapped in ``try: ... except`` that adds a note
naming the user's line to any exception raised inside. Since Python 3.11 a ``try`` costs
nothing until something is raised, so the generated code runs as fast as without it.
"""

from __future__ import annotations

import hashlib
import linecache
import re
import textwrap
import types
from dataclasses import dataclass
from typing import Any

FACTORY = "_sourcegrad_factory"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NOTE = "_sourcegrad_note"
_ERROR = "_sourcegrad_error"
# a body line's line in the compiled text minus its line in the source: the factory's
# ``def`` line and the ``try:`` line
GUARDED_BODY_SHIFT = 2


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
    free = tuple(sorted({n for n in free if n in used} | ({NOTE} if guarded else set())))
    body = textwrap.indent(_guard(source) if guarded else source, "    ")
    text = f"def {FACTORY}({', '.join(free)}):\n{body}    return {name}\n"
    filename = pseudo_filename(name, text)
    register_lines(filename, text)
    module_code = compile(text, filename, "exec")
    factory_code = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts
                 if isinstance(c, types.CodeType) and c.co_name == name)
    return Compiled(inner, text, filename)


def register_lines(filename: str, text: str) -> None:
    """Let ``linecache`` (so tracebacks, ``inspect`` and ``pdb``) see generated text."""
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)


def _guard(source: str) -> str:
    """``source`` with its body inside ``try``/``except`` adding a note. A line of the body
    lands at ``GUARDED_BODY_SHIFT`` lines below its line in ``source``."""
    lines = source.splitlines(True)
    header = _header_length(lines)
    body = "".join(lines[header:])
    handler = (f"    except Exception as {_ERROR}:\n"
               f"        {NOTE}({_ERROR})\n"
               "        raise\n")
    guarded = "".join(lines[:header]) + "    try:\n" + textwrap.indent(body, "    ") + handler
    return guarded


def _header_length(lines: list[str]) -> int:
    """How many lines the ``def`` header takes (generated headers end with ``):``)."""
    for i, line in enumerate(lines):
        if line.rstrip().endswith(":"):
            return i + 1
    raise ValueError("generated source has no function header")


def link(compiled: Compiled, user_globals: dict[str, Any],
         cells: dict[str, types.CellType], helpers: dict[str, Any],
         defaults: tuple | None = None,
         kwdefaults: dict[str, Any] | None = None) -> types.FunctionType:
    """Bind compiled code: ``cells`` are closure cells shared with the user's function (read
    live); ``helpers`` are values the generated code refers to by name."""
    register_lines(compiled.filename, compiled.text)  # code from the disk cache was not
    code = compiled.code                                # compiled in this process
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
        helpers = {**helpers, NOTE: note}
    return link(compiled, user_globals, cells, helpers, defaults, kwdefaults)
