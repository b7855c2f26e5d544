"""A generated derivative as a standalone module: NumPy and the standard library only.

``module_text`` writes the generated function, the generated functions it calls (the
``forward_``/``backward_`` pairs of differentiated callees), and everything they read that
is not defined there: the helpers of ``sourcegrad.rules.support`` copied by their source
(only those used, with what they use in turn), the modules NumPy / ``math`` / other
standard-library modules imported under the names the code uses, and the user's global or
closure constants copied by value when they are plain literals or NumPy arrays of numbers
(exactly: a small array as a literal, a larger one as its bytes). Anything else (an
object, a module outside the standard library) is refused with ``EmitError``: the module
would not run without the user's code.

The text depends only on its inputs (no time, path of the machine, or Python version), so
the same input always gives byte-identical output.
"""

from __future__ import annotations

import ast
import base64
import builtins
import hashlib
import inspect
import math
import re
import sys
import textwrap
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .codegen.walk import walk
from .codegen.wrap import wrap_statement
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
    jit: bool = False  # the functions carry @numba.njit (sourcegrad/jit/emit.py)


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
    module = _Module(functions)
    module.fill()
    head = [_docstring(header), _imports(module.imports)]
    generated, user = (lambda text: text), (lambda text: text)
    if header.jit:  # Numba is imported only here
        from .jit import emit as jit_emit

        jit_emit.check_names(module.bound)
        head.append(jit_emit.IMPORTS)
        generated, user = jit_emit.generated, jit_emit.user
    if module.constants:
        head.append("".join(_constant(n, v) for n, v in sorted(module.constants.items())))
    blocks = [generated(d.text()) for d in module.definitions if d.section == _GENERATED]
    blocks += [user(d.text()) for d in module.definitions if d.section == _USER]
    helpers = [d for d in module.definitions if d.section == _HELPER]
    if helpers:
        blocks.append("# -- helpers copied from sourcegrad/rules/support.py " + "-" * 38 + "\n")
        ordered = sorted(helpers, key=lambda d: inspect.getsourcelines(d.value)[1])
        blocks.extend(d.text() for d in ordered)
        if header.jit:
            called = {d.renames.get(n.id, n.id) for d in module.definitions
                      if d.section == _GENERATED for n in d.references}
            blocks.append(jit_emit.helper_forms(
                {d.value.__name__: d.module_name for d in helpers}, called))
    if module.aliases:
        blocks.append("".join(f"{n} = {v}\n" for n, v in module.aliases.items()))
    # one blank line between the head's sections, two around top-level definitions
    return "\n".join(head) + "\n\n" + "\n\n".join(b.rstrip("\n") + "\n" for b in blocks)


# -- one namespace for everything the module holds ----------------------------------------------
# Each copied definition (a generated function, a function of the user's, a helper) reads
# global names, and two of them may read one name with different meanings: a callee's
# `backward_helper` is not its caller's; a user's function `unbroadcast` is not the helper,
# which the generated code then calls `unbroadcast_2`. Every global name a definition reads
# is placed in the module's one namespace: under its own name when that is free or already
# means the same, else under the name the same thing already has there, else a fresh one;
# the definition's text is then renamed to match (its code only: comments quote the user).
_GENERATED, _USER, _HELPER = 0, 1, 2


@dataclass(frozen=True)
class _Literal:
    """A constant copied by value: two are the same if their text is."""

    text: str


@dataclass(eq=False)
class _Definition:
    """A ``def`` (or ``class``) copied into the module."""

    value: Any
    source: str  # as found: defining ``name``
    name: str
    section: int
    reader: str  # how messages call it
    namespace: Any  # global name of its code -> what it denotes
    module_name: str = ""
    renames: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.tree = ast.parse(self.source)
        self.references = _module_references(self.tree)
        self.identifiers = {n.id for n in walk(self.tree) if isinstance(n, ast.Name)} | {
            n.arg for n in walk(self.tree) if isinstance(n, ast.arg)}

    def text(self) -> str:
        """The source, defining ``module_name`` and reading its globals by their names in
        the module."""
        edits = [(n.lineno, n.col_offset, n.end_col_offset, self.renames[n.id])
                 for n in self.references if n.id in self.renames]
        lines = self.source.split("\n")
        for lineno, start, end, new in sorted(edits, reverse=True):
            line = lines[lineno - 1].encode()
            lines[lineno - 1] = (line[:start] + new.encode() + line[end:]).decode()
        if self.module_name != self.name:
            first = self.tree.body[0].lineno - 1
            lines[first] = re.sub(rf"\b(def|class)(\s+){re.escape(self.name)}\b",
                                  rf"\g<1>\g<2>{self.module_name}", lines[first], count=1)
        return "\n".join(lines)


_FREE = object()


class _Module:
    """The emitted module's namespace, filled from the generated functions."""

    def __init__(self, functions: list[Any]) -> None:
        self.functions = functions
        self.bound: dict[str, Any] = {}  # module name -> what it denotes
        self.definitions: list[_Definition] = []
        self.imports: dict[str, str] = {}  # name -> module name
        self.constants: dict[str, str] = {}  # name -> literal text
        self.aliases: dict[str, str] = {}  # a second module name of a definition -> its name

    def fill(self) -> None:
        first = self.functions[0]
        self._define(first, first.__name__, generated=True)
        done: set[int] = set()
        while len(done) < len(self.definitions):
            # the generated code first, then the user's functions: their names stay theirs
            definition = min((d for d in self.definitions if id(d) not in done),
                             key=lambda d: d.section)
            done.add(id(definition))
            for name in sorted({n.id for n in definition.references}):
                placed = self._place(name, definition.namespace(name), definition)
                if placed != name:
                    definition.renames[name] = placed
        order = {id(f): i for i, f in enumerate(self.functions)}
        self.definitions.sort(key=lambda d: (d.section, order.get(id(d.value), 0)))

    # -- where a global name a definition reads goes ----------------------------------------
    def _place(self, name: str, value: Any, reader: _Definition) -> str:
        """The module name under which ``reader`` reaches ``value``, which it calls ``name``."""
        if value is _MISSING:
            raise EmitError(f"{reader.reader} reads `{name}`, which is not defined")
        key = self._key(name, value, reader.reader)
        if self._same(self.bound.get(name, _FREE), key):
            return name
        defined = self._definition_of(key)
        if defined is not None and defined.module_name not in reader.identifiers:
            return defined.module_name
        if name not in self.bound:
            self._bind(name, key, reader.reader)
            return name
        n = 2
        while f"{name}_{n}" in self.bound or f"{name}_{n}" in reader.identifiers:
            n += 1
        self._bind(f"{name}_{n}", key, reader.reader)
        return f"{name}_{n}"

    def _key(self, name: str, value: Any, reader: str) -> Any:
        """What ``value`` is in the module (refusing what cannot be written there)."""
        if isinstance(value, types.ModuleType):
            top = value.__name__
            if top != "numpy" and top not in sys.stdlib_module_names:
                raise EmitError(f"{reader} uses the module `{top}` (as `{name}`); an emitted "
                                "module may import only NumPy and the standard library")
            return value
        if _is_builtin(value) or _is_support_helper(value) or self._generated(value) or (
                _is_user_function(value)):
            return value
        literal = _literal(value, lambda array: _array_literal(
            array, self._module_name(np), lambda: self._module_name(base64)))
        if literal is None:
            raise EmitError(
                f"{reader} reads `{name}`, a {type(value).__name__} that cannot be written into "
                "a standalone module (only numbers, strings, None, NumPy arrays of numbers "
                "and tuples/lists/dicts of them are copied by value). Pass it as an argument, "
                "or make it a literal constant.")
        return _Literal(literal)

    @staticmethod
    def _same(bound: Any, key: Any) -> bool:
        return bound is key or isinstance(key, _Literal) and bound == key

    def _definition_of(self, key: Any) -> _Definition | None:
        return next((d for d in self.definitions if d.value is key), None)

    def _bind(self, name: str, key: Any, reader: str = "") -> None:
        self.bound[name] = key
        if isinstance(key, _Literal):
            self.constants[name] = key.text
        elif isinstance(key, types.ModuleType):
            self.imports[name] = key.__name__
        elif _is_builtin(key):
            if name != key.__name__:  # a builtin under another name: ``len_2 = builtins.len``
                self.constants[name] = f"{self._builtins()}.{key.__name__}"
        elif self._definition_of(key) is not None:
            self.aliases[name] = self._definition_of(key).module_name
        else:
            self._define(key, name, generated=self._generated(key), reader=reader)

    def _builtins(self) -> str:
        """The module name of the ``builtins`` module, imported on first need."""
        return self._module_name(builtins)

    def _module_name(self, module: types.ModuleType) -> str:
        """The name ``module`` has in the module, imported on first need (as ``np`` for
        NumPy, as itself otherwise)."""
        taken = [n for n, v in self.bound.items() if v is module]
        if taken:
            return taken[0]
        base = "np" if module is np else module.__name__
        name, n = base, 2
        while name in self.bound:
            name, n = f"{base}_{n}", n + 1
        self._bind(name, module)
        return name

    def _define(self, value: Any, module_name: str, generated: bool, reader: str = ""
                ) -> None:
        if generated:
            definition = _Definition(value, value.source, value.__name__, _GENERATED,
                                     value.__name__,
                                     lambda n, fn=value: _value_seen_by(fn, n))
        elif _is_support_helper(value):
            definition = _Definition(value, inspect.getsource(value), value.__name__, _HELPER,
                                     f"the helper {value.__name__}",
                                     lambda n: vars(support).get(n, _builtin(n)))
        else:
            definition = _user_definition(value, module_name, reader)
        definition.module_name = module_name
        self.bound[module_name] = value
        self.definitions.append(definition)

    def _generated(self, value: Any) -> bool:
        return any(value is fn for fn in self.functions)


def _user_definition(fn: Any, name: str, reader: str) -> _Definition:
    """A user function the derivative calls as it is (its result needs no derivative):
    copied by its source, without decorators, with what it reads in turn."""
    try:
        text = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError) as error:
        raise EmitError(f"{reader} calls `{name}`, whose source cannot be read") from error
    tree = ast.parse(text).body[0]
    if not isinstance(tree, ast.FunctionDef) or fn.__code__.co_freevars:
        raise EmitError(f"{reader} calls `{name}`, which is not a module-level function")
    text = "".join(text.splitlines(True)[tree.lineno - 1:])  # without its decorators
    return _Definition(fn, text, tree.name, _USER, f"the function {name}",
                       lambda n: fn.__globals__.get(n, _builtin(n)))


def _builtin(name: str) -> Any:
    return getattr(builtins, name, _MISSING)


def _is_builtin(value: Any) -> bool:
    name = getattr(value, "__name__", None)
    return isinstance(name, str) and getattr(builtins, name, _MISSING) is value


def _is_support_helper(value: Any) -> bool:
    """A function (or a class, such as ``ShapeOf``) of ``rules/support.py``."""
    return isinstance(value, (types.FunctionType, type)) and (
        value.__module__ == support.__name__
        and getattr(support, value.__name__, None) is value)


def _is_user_function(value: Any) -> bool:
    return isinstance(value, types.FunctionType) and not value.__module__.startswith(
        ("sourcegrad", "numpy"))


# -- which names of a text are the module's ---------------------------------------------------
def _module_references(tree: ast.Module) -> list[ast.Name]:
    """The ``Name`` nodes of ``tree`` that denote module-level names (globals or builtins):
    not a parameter or local of the function they are in, nor of a function around it."""
    found: list[ast.Name] = []
    for stmt in tree.body:
        _references(stmt, frozenset(), found)
    return found


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _references(node: ast.AST, local: frozenset[str], found: list[ast.Name]) -> None:
    """Add to ``found`` the module names read or written in ``node``, evaluated where the
    names in ``local`` are local (to the function it is in or one around it)."""
    if isinstance(node, ast.Name):
        if node.id not in local:
            found.append(node)
    elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        # decorators, defaults and annotations are evaluated where the function is defined
        outside = [*getattr(node, "decorator_list", []), *node.args.defaults,
                   *[d for d in node.args.kw_defaults if d is not None],
                   *[a.annotation for a in _parameters(node.args) if a.annotation],
                   *([node.returns] if getattr(node, "returns", None) else [])]
        for part in outside:
            _references(part, local, found)
        body = node.body if isinstance(node.body, list) else [node.body]
        inner = local | {a.arg for a in _parameters(node.args)} | _bound_in(body)
        for stmt in body:
            _references(stmt, inner, found)
    elif isinstance(node, ast.ClassDef):
        for part in [*node.decorator_list, *node.bases, *node.keywords]:
            _references(part, local, found)
        class_local = local | _bound_in(node.body)  # seen by the class body, not its methods
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                _references(stmt, local, found)
            else:
                _references(stmt, class_local, found)
    elif isinstance(node, _COMPREHENSIONS):
        first, *_ = node.generators
        _references(first.iter, local, found)  # evaluated outside the comprehension
        inner = local | {n.id for g in node.generators for n in walk(g.target)
                         if isinstance(n, ast.Name)}
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        for g in node.generators:
            parts.extend([g.target, *g.ifs] + ([g.iter] if g is not first else []))
        for part in parts:
            _references(part, inner, found)
    else:
        for child in ast.iter_child_nodes(node):
            _references(child, local, found)


def _parameters(args: ast.arguments) -> list[ast.arg]:
    return [*args.posonlyargs, *args.args, *args.kwonlyargs,
            *([args.vararg] if args.vararg else []), *([args.kwarg] if args.kwarg else [])]


def _bound_in(body: list[ast.stmt]) -> frozenset[str]:
    """The names a function (or class) body binds itself (not in the scopes nested in it),
    less those it declares ``global``."""
    bound: set[str] = set()
    declared: set[str] = set()
    pending: list[ast.AST] = list(body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
            continue
        elif isinstance(node, (ast.Lambda, *_COMPREHENSIONS)):
            continue
        elif isinstance(node, ast.Global):
            declared.update(node.names)
        elif isinstance(node, ast.alias):
            bound.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        pending.extend(ast.iter_child_nodes(node))
    return frozenset(bound - declared)


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
        *(["compiled:    numba.njit (its helpers: Numba overloads)"] if header.jit else []),
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


def _constant(name: str, text: str) -> str:
    line = f"{name} = {text}"
    return ("\n".join(wrap_statement(line)) if "\n" not in line else line) + "\n"


# arrays of up to this many elements are written as literals, larger ones as their bytes
INLINE_ELEMENTS = 256
_BASE64_LINE = 76


def _array_literal(value: np.ndarray | np.generic, numpy: str,
                   base64_name: Callable[[], str]) -> str | None:
    """Python source that makes ``value`` again, exactly (dtype, shape, every bit of every
    element): a NumPy scalar or a small array of numbers as a literal, a larger (or empty)
    array as its bytes in base64. ``None`` for arrays of anything but numbers."""
    if value.dtype.kind not in "biufc":
        return None
    if isinstance(value, np.generic):
        item = _literal(value.item())
        return None if item is None else f"{numpy}.{value.dtype.name}({item})"
    items = _literal(value.tolist()) if 0 < value.size <= INLINE_ELEMENTS else None
    if items is not None:
        same = np.array(value.tolist()).dtype == value.dtype
        dtype = "" if same else f", dtype={numpy}.{value.dtype.name}"
        return f"{numpy}.array({items}{dtype})"
    data = base64.b64encode(np.ascontiguousarray(value).tobytes()).decode()
    chunks = [data[i:i + _BASE64_LINE] for i in range(0, len(data), _BASE64_LINE)] or [""]
    body = "".join(f'    "{chunk}"\n' for chunk in chunks)
    return (f"{numpy}.frombuffer({base64_name()}.b64decode(\n{body}), "
            f"dtype={value.dtype.str!r}).reshape({value.shape!r}).copy()")


def _literal(value: Any, array: Callable[[Any], str | None] | None = None) -> str | None:
    """Python source for a plain literal value, or ``None``; with ``array``, NumPy arrays and
    scalars too, wherever they are (a global list of weight arrays)."""
    if array is not None and isinstance(value, (np.ndarray, np.generic)):
        return array(value)
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else f"float({str(value)!r})"
    if isinstance(value, complex):  # repr would lose the sign of a zero part
        return f"complex({_literal(value.real)}, {_literal(value.imag)})"
    if isinstance(value, (tuple, list)):
        items = [_literal(v, array) for v in value]
        if any(i is None for i in items):
            return None
        if isinstance(value, tuple):
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        pairs = [(_literal(k), _literal(v, array)) for k, v in value.items()]
        if any(k is None or v is None for k, v in pairs):
            return None
        return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
    return None
