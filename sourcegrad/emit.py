"""A generated derivative as a standalone module: NumPy and the standard library only.

``module_text`` writes the generated function, the generated functions it calls (the
``forward_``/``backward_`` pairs of differentiated callees), and everything they read that
is not defined there: the helpers of ``sourcegrad.rules.support`` copied by their source
(only those used, with what they use in turn), the modules NumPy / ``math`` / other
standard-library modules imported under the names the code uses, and the user's global or
closure constants copied by value when they are plain literals. Anything else (an array, an
object, a module outside the standard library) is refused with ``EmitError``: the module
would not run without the user's code.

The text depends only on its inputs (no time, path of the machine, or Python version), so
the same input always gives byte-identical output.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import inspect
import math
import re
import symtable
import sys
import textwrap
import types
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .rules import support


class EmitError(Exception):
    """The derivative reads something that cannot be written into a standalone module."""


@dataclass
class Header:
    """What the module's docstring says it was generated from."""

    source_file: str
    function: str
    wrt: tuple[str, ...]
    mode: str
    source_hash: str
    version: str


@dataclass
class _Needs:
    imports: dict[str, str] = field(default_factory=dict)  # name -> module name
    constants: dict[str, str] = field(default_factory=dict)  # name -> literal text
    helpers: dict[str, Any] = field(default_factory=dict)  # name -> support function
    user_functions: dict[str, str] = field(default_factory=dict)  # name -> source text


def generated_functions(compiled: Any) -> list[Any]:
    """The generated function followed by every generated function it calls, in the order
    first reached."""
    seen: list[Any] = []
    pending = [compiled]
    while pending:
        fn = pending.pop(0)
        if not any(fn is s for s in seen):
            seen.append(fn)
            pending.extend(getattr(fn, "dependencies", []))
    return seen


def source_hash(texts: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def module_text(compiled: Any, header: Header) -> str:
    functions = generated_functions(inspect.unwrap(compiled))  # the code, not a check wrapper
    names, renames = _emitted_names(functions)
    needs = _Needs()
    for fn in functions:
        for name in sorted(_free_names(fn.source) - set(renames[id(fn)])):
            _provide(name, _value_seen_by(fn, name), fn.__name__, needs)
    head = [_docstring(header), _imports(needs.imports)]
    if needs.constants:
        head.append("".join(f"{n} = {v}\n" for n, v in sorted(needs.constants.items())))
    blocks = [_renamed(fn, names[id(fn)], renames[id(fn)]) for fn in functions]
    blocks += list(needs.user_functions.values())
    if needs.helpers:
        blocks.append("# -- helpers copied from sourcegrad/rules/support.py " + "-" * 38 + "\n")
        ordered = sorted(needs.helpers.values(), key=lambda f: inspect.getsourcelines(f)[1])
        blocks.extend(inspect.getsource(f) for f in ordered)
    # one blank line between the head's sections, two around top-level definitions
    return "\n".join(head) + "\n\n" + "\n\n".join(b.rstrip("\n") + "\n" for b in blocks)


def _emitted_names(functions: list[Any]) -> tuple[dict[int, str], dict[int, dict[str, str]]]:
    """One module-level name per generated function, and for each function, the names it
    calls generated functions by -> their names in the module.

    Each caller binds its callees' derivatives under names of its own (``backward_helper``,
    ``backward_helper_2`` when ``helper`` is differentiated for two sets of arguments), so
    two callers may give one name to different functions: the later one gets a fresh name,
    in its ``def`` and in its callers."""
    names: dict[int, str] = {id(functions[0]): functions[0].__name__}
    taken = {functions[0].__name__}
    renames: dict[int, dict[str, str]] = {}
    for fn in functions:
        calls = renames.setdefault(id(fn), {})
        for name in sorted(_free_names(fn.source)):
            value = _value_seen_by(fn, name)
            if not any(value is other for other in functions):
                continue
            if id(value) not in names:
                fresh, k = name, 2
                while fresh in taken:
                    fresh, k = f"{name}_{k}", k + 1
                names[id(value)] = fresh
                taken.add(fresh)
            calls[name] = names[id(value)]
    return names, renames


def _renamed(fn: Any, name: str, calls: dict[str, str]) -> str:
    """``fn``'s source defining ``name`` and calling generated functions by their module
    names (code lines only: the comments quote the user's code)."""
    lines = fn.source.replace(f"def {fn.__name__}(", f"def {name}(", 1).split("\n")
    changed = {old: new for old, new in calls.items() if old != new}
    if changed:
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, changed)) + r")\b")
        lines = [line if line.lstrip().startswith("#")
                 else pattern.sub(lambda m: changed[m.group(1)], line) for line in lines]
    return "\n".join(lines)


_MARK = ", generated by sourcegrad."


def is_emitted(first_line: str) -> bool:
    """Is ``first_line`` the first line of a module ``module_text`` wrote?"""
    return first_line.startswith('"""The ') and first_line.rstrip().endswith(_MARK)


def _docstring(header: Header) -> str:
    noun = "gradient" if header.mode == "reverse" else "Jacobian-vector product"
    return "\n".join([
        f'"""The {noun} of `{header.function}`{_MARK}',
        "",
        "Edit the source function and regenerate this file rather than editing it.",
        "",
        f"source file: {header.source_file}",
        f"function:    {header.function}",
        f"wrt:         {', '.join(header.wrt)}",
        f"mode:        {header.mode}",
        f"source hash: sha256:{header.source_hash}",
        f"sourcegrad:  {header.version}",
        '"""',
    ]) + "\n"


def _imports(imports: dict[str, str]) -> str:
    def line(name: str, module: str) -> str:
        return f"import {module}" if name == module else f"import {module} as {name}"

    stdlib = sorted(line(n, m) for n, m in imports.items() if m != "numpy")
    numpy = sorted(line(n, m) for n, m in imports.items() if m == "numpy")
    return "\n\n".join("\n".join(group) for group in (stdlib, numpy) if group) + "\n"


# -- what the code reads, and how to provide it ---------------------------------------------
def _free_names(source: str) -> set[str]:
    """Global names the code reads: in every function and nested scope, and at module level
    (default values)."""
    table = symtable.symtable(source, "<generated>", "exec")
    found: set[str] = set()
    defined_here = {s.get_name() for s in table.get_symbols() if s.is_assigned()
                    or s.is_imported() or s.is_namespace()}
    found |= {s.get_name() for s in table.get_symbols() if s.is_referenced()} - defined_here
    pending = list(table.get_children())
    while pending:
        scope = pending.pop()
        pending.extend(scope.get_children())
        found |= {s.get_name() for s in scope.get_symbols() if s.is_global()}
    return found


_MISSING = object()


def _value_seen_by(fn: Any, name: str) -> Any:
    """What ``name`` denotes for the compiled function ``fn``: a closure cell, a global of
    the user's module, or a builtin."""
    if name in fn.__code__.co_freevars:
        cell = fn.__closure__[fn.__code__.co_freevars.index(name)]
        try:
            return cell.cell_contents
        except ValueError:
            return _MISSING
    if name in fn.__globals__:
        return fn.__globals__[name]
    return getattr(builtins, name, _MISSING)


def _provide(name: str, value: Any, reader: str, needs: _Needs) -> None:
    if value is _MISSING:
        raise EmitError(f"{reader} reads `{name}`, which is not defined")
    if name in dir(builtins) and value is getattr(builtins, name):
        return
    if isinstance(value, types.ModuleType):
        _provide_module(name, value, reader, needs)
    elif _is_support_helper(name, value):
        _provide_helper(name, value, needs)
    elif isinstance(value, types.FunctionType) and not value.__module__.startswith(
            ("sourcegrad", "numpy")):
        _provide_user_function(name, value, reader, needs)
    else:
        literal = _literal(value)
        if literal is None:
            raise EmitError(
                f"{reader} reads `{name}`, a {type(value).__name__} that cannot be written into "
                "a standalone module (only numbers, strings, None and tuples/lists/dicts of "
                "them are copied by value). Pass it as an argument, or make it a literal "
                "constant.")
        _record(needs.constants, name, literal, reader)


def _provide_module(name: str, module: types.ModuleType, reader: str, needs: _Needs) -> None:
    top = module.__name__
    if top != "numpy" and top not in sys.stdlib_module_names:
        raise EmitError(f"{reader} uses the module `{top}` (as `{name}`); an emitted module "
                        "may import only NumPy and the standard library")
    _record(needs.imports, name, top, reader)


def _is_support_helper(name: str, value: Any) -> bool:
    """A function (or a class, such as ``ShapeOf``) of ``rules/support.py``."""
    return isinstance(value, (types.FunctionType, type)) and (
        value.__module__ == support.__name__ and getattr(support, name, None) is value)


def _provide_helper(name: str, helper: Any, needs: _Needs) -> None:
    if name in needs.helpers:
        return
    needs.helpers[name] = helper
    text = inspect.getsource(helper)
    for free in sorted(_free_names(text) - {name}):
        _provide(free, vars(support).get(free, getattr(builtins, free, _MISSING)),
                 f"the helper {name}", needs)


def _provide_user_function(name: str, fn: Any, reader: str, needs: _Needs) -> None:
    """A user function the derivative calls as it is (its result needs no derivative):
    copied by its source, without decorators, with what it reads in turn."""
    if name in needs.user_functions:
        return
    try:
        text = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError) as error:
        raise EmitError(f"{reader} calls `{name}`, whose source cannot be read") from error
    tree = ast.parse(text).body[0]
    if not isinstance(tree, ast.FunctionDef) or fn.__code__.co_freevars:
        raise EmitError(f"{reader} calls `{name}`, which is not a module-level function")
    text = "".join(text.splitlines(True)[tree.lineno - 1:])  # without its decorators
    if tree.name != name:
        raise EmitError(f"{reader} calls `{name}`, defined as `{tree.name}`: import it under "
                        "its own name")
    needs.user_functions[name] = text
    for free in sorted(_free_names(text) - {name}):
        _provide(free, fn.__globals__.get(free, getattr(builtins, free, _MISSING)),
                 f"the function {name}", needs)


def _record(table: dict[str, str], name: str, value: str, reader: str) -> None:
    if table.get(name, value) != value:
        raise EmitError(f"{reader} reads `{name}`, which other code of this derivative reads "
                        "with a different value")
    table[name] = value


def _literal(value: Any) -> str | None:
    """Python source for a plain literal value, or ``None``."""
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else f"float({str(value)!r})"
    if isinstance(value, complex):
        return repr(value) if math.isfinite(abs(value)) else None
    if isinstance(value, (tuple, list)):
        items = [_literal(v) for v in value]
        if any(i is None for i in items):
            return None
        if isinstance(value, tuple):
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        pairs = [(_literal(k), _literal(v)) for k, v in value.items()]
        if any(k is None or v is None for k, v in pairs):
            return None
        return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
    return None
