"""What a derivative depends on besides its own source, checked cheaply on every call.

Generated code is the derivative of the code that ran when it was made: the function's code
object, and what each name and attribute chain it reads denoted then (``cfg.act`` being
``np.sin`` or ``np.cos`` decides the generated code; an array read live does not, only its
type does). A ``Dependency`` is one such reading: where to read it again (a global of the
function's module, a closure cell, an attribute of an object) and what it gave.

``compile_check`` turns a derivative's dependencies into one small compiled function,
``stale()``, that reads each again and compares by identity (a bound method: its function
and object; a plain value: its type): well under a microsecond for a handful of names, cheap
enough to run on every call of a generated function. ``describe`` gives the same facts as
text that means the same in another process, for the disk cache's keys.
"""

from __future__ import annotations

import builtins
import dis
import hashlib
import opcode
import sys
import types
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .compile import OWN_CELLS, never_stale
from .rules import registry

ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "<absent>"})()

# how a reading is compared
IDENTITY = "is"  # the same object
TYPE = "type"  # a value of the same type (data read live by the generated code)
METHOD = "method"  # a bound method: the same function bound to the same object
BUILTIN_METHOD = "builtin method"  # a C method: the same name bound to the same object
EQUAL = "=="  # a counter (the rule table's generation)


@dataclass(frozen=True, eq=False)
class Dependency:
    """One value a derivative relied on: ``root`` (read as ``kind`` says: ``"global"``, the
    entry ``name`` of the dict ``root``; ``"cell"``, a closure cell's contents; ``"object"``,
    ``root`` itself; ``"counter"``, ``root[0]``), then the attributes ``attributes``, gave
    ``seen``; ``how`` it is compared, ``token`` what it is compared with."""

    kind: str
    root: Any
    name: str
    attributes: tuple[str, ...]
    seen: Any
    how: str
    token: tuple

    def key(self) -> tuple:
        return self.kind, id(self.root), self.name, self.attributes

    def spelling(self) -> str:
        if self.kind == "object":
            head = getattr(self.root, "__qualname__", None) or type(self.root).__name__
            return ".".join([head, *self.attributes])
        return ".".join([self.name, *self.attributes])


def reading(kind: str, root: Any, name: str, attributes: tuple[str, ...], seen: Any,
            how: str | None = None) -> Dependency:
    """The dependency on what ``root``/``name``/``attributes`` gave (``seen``), compared
    the way that value decides generated code unless ``how`` says otherwise."""
    how = how or _comparison(seen)
    if how == METHOD:
        token: tuple = (seen.__func__, seen.__self__)
    elif how == BUILTIN_METHOD:
        token = (seen.__self__, seen.__name__)
    elif how == TYPE:
        token = (type(seen),)
    else:
        token = (seen,)
    return Dependency(kind, root, name, attributes, seen, how, token)


def _comparison(value: Any) -> str:
    """Modules, classes and callables decide the code by identity (which function a call
    reaches); other values are data that generated code reads live, by their type."""
    if isinstance(value, types.MethodType):
        return METHOD
    if isinstance(value, types.BuiltinMethodType) and not (
            value.__self__ is None or isinstance(value.__self__, types.ModuleType)):
        return BUILTIN_METHOD  # a new object on each attribute access (rng.normal)
    if value is ABSENT or value is None or isinstance(value, types.ModuleType) or callable(
            value):
        return IDENTITY
    return TYPE


# -- where a function's names lead -----------------------------------------------------------
def root_of(fn: types.FunctionType, name: str) -> tuple[str, Any, Any]:
    """Where ``fn`` finds ``name`` now, the way Python (and the resolver) looks it up:
    (kind, root, value) for a closure cell, a global, or a builtin (a builtin is a global
    that must stay absent; its value is the builtin's)."""
    if fn.__closure__ and name in fn.__code__.co_freevars:
        cell = fn.__closure__[fn.__code__.co_freevars.index(name)]
        value = _cell_value(cell)
        if value is not ABSENT:
            return "cell", cell, value
    if name in fn.__globals__:
        return "global", fn.__globals__, fn.__globals__[name]
    return "builtin", fn.__globals__, getattr(builtins, name, None)


def follow(value: Any, attributes: Iterable[str]) -> Any:
    """The end of an attribute chain as the resolver follows it (``None`` once missing)."""
    for attribute in attributes:
        if value is None:
            return None
        value = getattr(value, attribute, None)
    return value


def chain_dependencies(fn: types.FunctionType, chain: tuple[str, ...], seen: Any
                       ) -> list[Dependency]:
    """The dependencies of a resolution ``chain`` (a name and attributes) of ``fn``'s that
    gave ``seen``."""
    kind, root, value = root_of(fn, chain[0])
    if kind == "builtin":  # stays a builtin while no global of that name appears
        found = [reading("global", root, chain[0], (), ABSENT)]
        if len(chain) > 1:
            found.append(reading("object", value, chain[0], chain[1:], seen))
        return found
    return [reading(kind, root, chain[0], chain[1:], seen)]


def name_dependencies(fn: types.FunctionType) -> list[Dependency]:
    """What each global and closure name ``fn``'s code reads denotes (absent included: a
    global defined later hides a builtin)."""
    found = []
    cells = zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True)
    for name, cell in cells:
        if name not in _OWN_CELLS:
            found.append(reading("cell", cell, name, (), _cell_value(cell)))
    for name in sorted(global_reads(fn.__code__)):
        found.append(reading("global", fn.__globals__, name, (),
                             fn.__globals__.get(name, ABSENT)))
    return found


# the cells sourcegrad gives a generated function (differentiated again) for itself
_OWN_CELLS = OWN_CELLS


def _cell_value(cell: types.CellType) -> Any:
    try:
        return cell.cell_contents
    except ValueError:
        return ABSENT


_GLOBAL_READS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_LOAD_GLOBAL, _LOAD_NAME = opcode.opmap["LOAD_GLOBAL"], opcode.opmap["LOAD_NAME"]
_GLOBAL_SHIFT = 1 if sys.version_info >= (3, 11) else 0  # 3.11+: the low bit means push NULL


def global_reads(code: types.CodeType) -> frozenset[str]:
    """The names ``code`` (and the code nested in it) reads as globals: ``np`` in
    ``np.sum``, not ``sum``. Read off the bytecode, remembered per code object."""
    found = _GLOBAL_READS.get(code)
    if found is None:
        found = _GLOBAL_READS[code] = frozenset(_scan(code))
    return found


def _scan(code: types.CodeType) -> set[str]:
    raw, names, extended = code.co_code, set(), 0
    for i in range(0, len(raw), 2):
        op, arg = raw[i], raw[i + 1] | extended
        if op == dis.EXTENDED_ARG:
            extended = arg << 8
            continue
        extended = 0
        if op == _LOAD_GLOBAL:
            names.add(code.co_names[arg >> _GLOBAL_SHIFT])
        elif op == _LOAD_NAME:
            names.add(code.co_names[arg])
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _scan(const)
    return names


# -- the per-call check ------------------------------------------------------------------------
def compile_check(dependencies: Iterable[Dependency]) -> Callable[[], bool]:
    """``stale()``: whether any dependency now reads differently (or cannot be read)."""
    env: dict[str, Any] = {"type": type, "_empty": _is_empty}
    constants: dict[int, str] = {}

    def constant(value: Any) -> str:
        name = constants.get(id(value))
        if name is None:
            name = constants[id(value)] = f"_k{len(constants)}"
            env[name] = value
        return name

    terms = [_term(dep, constant) for dep in dependencies]
    if not terms:
        return never_stale
    body = "\n            and ".join(terms)
    text = (f"def stale():\n    try:\n        return not (\n            {body})\n"
            f"    except Exception:\n        return True\n")
    exec(compile(text, "<sourcegrad check>", "exec"), env)
    return env["stale"]


def _is_empty(cell: types.CellType) -> bool:
    return _cell_value(cell) is ABSENT


def _term(dep: Dependency, constant: Callable[[Any], str]) -> str:
    root = constant(dep.root)
    if dep.kind == "counter":
        return f"{root}[0] == {dep.seen!r}"
    if dep.seen is ABSENT and not dep.attributes:
        return f"_empty({root})" if dep.kind == "cell" else f"{dep.name!r} not in {root}"
    expr = {"global": f"{root}[{dep.name!r}]", "cell": f"{root}.cell_contents",
            "object": root}[dep.kind]
    for attribute in dep.attributes[:-1]:
        expr = f"{expr}.{attribute}"
    if dep.attributes:
        last = dep.attributes[-1]
        # the resolver reads a missing attribute as None
        expr = (f"getattr({expr}, {last!r}, None)" if dep.seen is None else f"{expr}.{last}")
    if dep.how == TYPE:
        return f"type({expr}) is {constant(dep.token[0])}"
    if dep.how == METHOD:
        return (f"((_m := {expr}).__func__ is {constant(dep.token[0])} "
                f"and _m.__self__ is {constant(dep.token[1])})")
    if dep.how == BUILTIN_METHOD:
        return (f"((_m := {expr}).__self__ is {constant(dep.token[0])} "
                f"and _m.__name__ == {dep.token[1]!r})")
    return f"{expr} is {constant(dep.token[0])}"


def first_change(dependencies: Iterable[Dependency]) -> str | None:
    """What no longer reads as it did, in words (for messages); ``None`` if nothing."""
    for dep in dependencies:
        if compile_check([dep])():
            try:
                now = describe(_read(dep))
            except Exception as exc:  # noqa: BLE001 - reported, not handled
                now = f"an error ({type(exc).__name__}: {exc})"
            was = describe(dep.seen)
            if now == was:  # the same kind of object, but another one
                return f"`{dep.spelling()}` gives a new object ({was}) each time it is read"
            return f"`{dep.spelling()}` was {was}, now {now}"
    return None


def _read(dep: Dependency) -> Any:
    if dep.kind == "counter":
        return dep.root[0]
    if dep.kind == "global":
        value = dep.root.get(dep.name, ABSENT)
    elif dep.kind == "cell":
        value = _cell_value(dep.root)
    else:
        value = dep.root
    return follow(value, dep.attributes) if dep.attributes else value


# -- descriptions that mean the same in another process ---------------------------------------
def describe(value: Any) -> str:
    """What ``value`` is, as far as generated code is concerned, in words that mean the same
    in another process: a module or a function by name (a Python function also by a digest
    of its code), a bound method by its function and its object's type, anything else by
    its type; with the rule the table has for it."""
    if value is ABSENT:
        return "absent"
    if value is None or isinstance(value, (bool, int, float, complex, str)):
        return f"a {type(value).__name__}"
    if isinstance(value, types.ModuleType):
        return f"module {value.__name__}"
    if isinstance(value, types.MethodType):
        owner = value.__self__
        bound = describe(owner) if isinstance(owner, type) else f"a {_type_name(type(owner))}"
        return f"method {describe(value.__func__)} of {bound}"
    if isinstance(value, types.BuiltinMethodType) and not (
            value.__self__ is None or isinstance(value.__self__, types.ModuleType)):
        return (f"builtin method {value.__name__} of a {_type_name(type(value.__self__))}"
                f"{_role(value)}")
    if isinstance(value, type):
        return f"class {_type_name(value)}{_role(value)}"
    if isinstance(value, types.FunctionType):
        return (f"function {value.__module__}.{value.__qualname__} "
                f"{code_digest(value.__code__)}{_role(value)}")
    if callable(value):
        named = _findable_name(value)
        if named is not None:
            return f"{type(value).__name__} {named}{_role(value)}"
        return f"a callable {_type_name(type(value))}{_role(value)}"
    return f"a {_type_name(type(value))}"


def _role(value: Any) -> str:
    """The rule (or the non-differentiable mark) the table has for ``value``."""
    rule = registry.lookup(value)
    if rule is not None:
        return f" [rule {rule.name} {rule.fingerprint}]"
    inner = getattr(value, "__sourcegrad_function__", None)
    if inner is not None and inner is not value:
        return f" [differentiable {describe(inner)}]"
    return " [no derivative]" if registry.is_nondifferentiable(value) else ""


def _type_name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _findable_name(value: Any) -> str | None:
    """``module.name`` if that is where ``value`` is found again (a NumPy function, a ufunc,
    a builtin), else ``None``."""
    module = getattr(value, "__module__", None)
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    if not isinstance(module, str) or not isinstance(name, str):
        return None
    found: Any = sys.modules.get(module)
    for part in name.split("."):
        found = getattr(found, part, None)
    return f"{module}.{name}" if found is value else None


_DIGESTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def code_digest(code: types.CodeType) -> str:
    """A digest of what ``code`` does, the same in every process that compiled the same
    text: its instructions, names, constants (nested code included) and line table
    relative to its first line (not its file name or first line number)."""
    found = _DIGESTS.get(code)
    if found is None:
        hasher = hashlib.sha256()
        _feed(hasher, code)
        found = _DIGESTS[code] = hasher.hexdigest()[:24]
    return found


def _feed(hasher: Any, code: types.CodeType) -> None:
    for part in (code.co_code, code.co_linetable, getattr(code, "co_exceptiontable", b"")):
        hasher.update(len(part).to_bytes(8, "little"))
        hasher.update(part)
    fields = (code.co_name, code.co_names, code.co_varnames, code.co_freevars,
              code.co_cellvars, code.co_argcount, code.co_posonlyargcount,
              code.co_kwonlyargcount, code.co_flags)
    hasher.update(repr(fields).encode())
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            hasher.update(b"<code>")
            _feed(hasher, const)
        else:
            hasher.update(_constant_text(const).encode())
        hasher.update(b"\0")


def _constant_text(value: Any) -> str:
    """A constant as text that does not depend on the process (a frozenset's order does)."""
    if isinstance(value, frozenset):
        return "frozenset(" + ",".join(sorted(map(_constant_text, value))) + ")"
    if isinstance(value, tuple):
        return "(" + ",".join(map(_constant_text, value)) + ")"
    return f"{type(value).__name__}:{value!r}"


__all__ = ["ABSENT", "Dependency", "chain_dependencies", "code_digest", "compile_check",
           "describe", "first_change", "follow", "global_reads", "name_dependencies",
           "reading", "root_of"]
