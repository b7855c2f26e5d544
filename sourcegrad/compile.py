"""Turn generated source into a live function, debuggable like the user's own code.

The source is registered with ``linecache`` under a unique pseudo file name, so tracebacks,
``inspect.getsource`` and ``pdb`` show the generated lines. The function runs with the user
function's own ``__globals__`` (so globals are read live, as the user's code would), its
closure cells (same), and the helpers the generated code calls as extra closure cells, so
nothing is injected into the user's module.
"""

from __future__ import annotations

import hashlib
import linecache
import textwrap
import types
from typing import Any

FACTORY = "_sourcegrad_factory"


def pseudo_filename(name: str, source: str) -> str:
    digest = hashlib.sha256(source.encode()).hexdigest()[:10]
    return f"<sourcegrad {name} {digest}>"


def compile_function(source: str, name: str, user_globals: dict[str, Any],
                     cells: dict[str, types.CellType], helpers: dict[str, Any],
                     defaults: tuple | None = None,
                     kwdefaults: dict[str, Any] | None = None) -> types.FunctionType:
    """Compile the single ``def name(...)`` in ``source``.

    ``cells`` are closure cells to share with the user's function (read live); ``helpers``
    are values the generated code refers to by name (rule helpers, other generated
    functions).
    """
    free = sorted(set(helpers) | set(cells))
    body = textwrap.indent(source, "    ")
    text = f"def {FACTORY}({', '.join(free)}):\n{body}    return {name}\n"
    filename = pseudo_filename(name, text)
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    module_code = compile(text, filename, "exec")
    factory_code = next(c for c in module_code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts
                 if isinstance(c, types.CodeType) and c.co_name == name)
    closure = tuple(
        cells[var] if var in cells else types.CellType(helpers[var]) for var in inner.co_freevars
    )
    fn = types.FunctionType(inner, user_globals, name, defaults, closure)
    if kwdefaults:
        fn.__kwdefaults__ = dict(kwdefaults)
    return fn
