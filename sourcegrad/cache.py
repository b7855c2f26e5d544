"""Generated derivatives are made once: kept in memory, and on disk for the next process.

``derivative(fun, request, variant, ...)`` returns the compiled generated function(s) for one
derivative of ``fun``: ``grad`` / ``value_and_grad`` (api.py) or ``split`` (the forward and
backward functions of ``sg.vjp`` and of differentiated callees, pipeline.py).

In memory, an entry is kept on the function object, found by the request as the caller
spelled it, and stays valid while these are unchanged: the function's code object; what its
global and closure names denote (``bindings``: the same function, module or class, a value
of the same type); the code of every user function it differentiated and what that callee's
module now holds under its name; and the rule table (``registry.generation``).

On disk, an entry is keyed by a hash of the function's source text, what its names denote
(as text), the parameter names differentiated, the variant, the rule table's version,
sourcegrad's and Python's versions, and the sizes and times of the transformer's own files
(so editing sourcegrad invalidates too).
It holds each generated function's source, its compiled code (``marshal``) and what to
re-link it with: helper names, the user's closure names, and for each differentiated callee
its module, qualified name, the hash of its source (checked on load) and its own entry. So a
new process loads a derivative without transforming anything. Files are written to a
temporary name and renamed into place; a header with a checksum exposes a truncated or
corrupted file, which is then ignored and rewritten.

``SOURCEGRAD_CACHE=0`` turns the disk cache off; ``SOURCEGRAD_CACHE_DIR`` moves it (default
``$XDG_CACHE_HOME/sourcegrad``, else ``~/.cache/sourcegrad``). A directory that cannot be
written falls back to memory with one warning; one that other users can write is refused,
since loading from it would run their code.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import hashlib
import inspect
import linecache
import marshal
import os
import stat
import sys
import tempfile
import types
import warnings
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .compile import NOTE, Compiled, link
from .debug import Landmarks, Provenance
from .rules import registry

FORMAT = b"sourcegrad-cache 3"


@dataclass
class Stats:
    """Counters the tests read to tell a cache hit from a transformation."""

    transformations: int = 0
    memory_hits: int = 0
    record_hits: int = 0  # made again from a record kept in memory (same source)
    disk_hits: int = 0
    disk_writes: int = 0


STATS = Stats()


class CacheWarning(UserWarning):
    """The disk cache cannot be used; derivatives are kept in memory only."""


# -- in memory ------------------------------------------------------------------------------
@dataclass(eq=False)
class Entry:
    """The compiled functions of one derivative, and what they were made from."""

    fun: Any  # the user function (unwrapped)
    names: tuple[str, ...]  # the parameters differentiated
    variant: str
    functions: tuple[Any, ...]
    code: types.CodeType
    generation: int
    epoch: int
    bindings: list[tuple] = field(default_factory=list)  # see ``bindings``
    callees: list[Entry] = field(default_factory=list)  # entries of differentiated callees
    guards: list[tuple[Callable[[], Any], Any]] = field(default_factory=list)

    def valid(self) -> bool:
        return (self.fun.__code__ is self.code and registry.generation() == self.generation
                and self.epoch == _EPOCH[0] and unchanged(self.bindings)
                and all(getter() is seen for getter, seen in self.guards)
                and all(callee.valid() for callee in self.callees))


# An entry is kept in the user function's own ``__dict__``, so that it lives and dies with
# the function (a function defined and differentiated in a loop leaves nothing behind).
_ATTRIBUTE = "_sourcegrad_derivatives"
_EPOCH = [0]  # bumped by clear_memory: entries of earlier epochs are ignored
# disk key -> record (what the disk stores): a function made again from the same source,
# such as a nested function defined anew in a loop, is re-linked instead of transformed
_RECORDS: collections.OrderedDict[str, dict] = collections.OrderedDict()
_RECORDS_KEPT = 256


def derivative(fun: Any, request: Hashable, variant: str,
               names: Callable[[], tuple[str, ...]],
               build: Callable[[tuple[str, ...]], tuple[Any, ...]],
               finish: Callable[[Any], None] | None = None) -> tuple[Any, ...]:
    """The functions ``build(names())`` makes, from memory, disk, or ``build`` itself.

    ``request`` is the caller's own spelling of what it asks for (e.g. ``wrt`` as given), so
    that a memory hit needs no work; ``names`` turns it into parameter names, only on a miss.
    ``finish`` is applied once to each function made or loaded.
    """
    memo = _memo(fun)
    key = (request, variant)
    try:
        entry = memo.get(key) if memo is not None else None
    except TypeError:  # an unhashable request
        entry = memo = None
    if entry is not None and entry.valid():
        STATS.memory_hits += 1
        return entry.functions
    target = inspect.unwrap(fun)
    resolved = names()
    generation = registry.generation()
    functions = _reuse(target, resolved, variant)
    if functions is None:
        STATS.transformations += 1
        with _no_cyclic_collection():
            functions = build(resolved)
        _keep(target, resolved, variant, functions)
    if finish is not None:
        for fn in functions:
            finish(fn)
    entry = Entry(target, resolved, variant, tuple(functions), target.__code__, generation,
                  _EPOCH[0], bindings(target))
    entry.callees = _callee_entries(functions)
    entry.guards = [_resolution_guard(callee.fun) for callee in entry.callees]
    for index, fn in enumerate(functions):
        fn._sourcegrad_entry = (entry, index)
    if memo is not None:
        memo[key] = entry
    return entry.functions


@contextlib.contextmanager
def _no_cyclic_collection() -> Iterator[None]:
    """Transforming allocates tens of thousands of short-lived AST nodes, freed by reference
    counting, which the cyclic collector would scan over and over while they live: a tenth
    of the time of a transformation, plus a full collection of the process's heap (10 ms and
    more once NumPy is loaded) every few transformations. It runs again once the outermost
    transformation is done; a caller that turned it off keeps it off."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _memo(fun: Any) -> dict | None:
    try:
        return fun.__dict__.setdefault(_ATTRIBUTE, {})
    except AttributeError:  # no __dict__ (a bound method...): nothing to keep it in
        return None


def clear_memory() -> None:
    _EPOCH[0] += 1
    _RECORDS.clear()


def clear(disk: bool = True) -> None:
    """Forget every derivative made: in memory, and (``disk``) the entries of the cache
    directory, so that the next request transforms from scratch."""
    clear_memory()
    directory = cache_dir() if disk else None
    if directory is not None:
        for path in directory.glob("*.sgc"):
            try:
                path.unlink()
            except OSError:
                continue


def _callee_entries(functions: tuple[Any, ...]) -> list[Entry]:
    """The entries of the callees' generated functions that ``functions`` call."""
    found: list[Entry] = []
    for fn in functions:
        for value in _closure_values(fn).values():
            tag = getattr(value, "_sourcegrad_entry", None)
            if tag is not None and not any(tag[0] is e for e in found):
                found.append(tag[0])
    return found


def _closure_values(fn: Any) -> dict[str, Any]:
    values = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True):
        try:
            values[name] = cell.cell_contents
        except ValueError:
            continue
    return values


def _resolution_guard(callee: Any) -> tuple[Callable[[], Any], Any]:
    """A check that the callee's module still holds what it held when the caller was made
    (a reloaded module holds a new function: the caller's derivative must be made again)."""
    module, qualname = callee.__module__, callee.__qualname__

    def current() -> Any:
        return _lookup(module, qualname)

    return current, current()


def _lookup(module: str, qualname: str) -> Any:
    value: Any = sys.modules.get(module)
    for part in qualname.split("."):
        value = getattr(value, part, None)
    return value


# -- what the function's names denote --------------------------------------------------------
# The generated code depends on what the function's global and closure names denote: which
# function a call reaches (``np.sin`` or ``np.cos`` through the same name), whether a name is
# a module or a value. Their values as data (arrays, numbers) are read live and do not
# matter; their types do. A binding is (cell, namespace, name, by_identity, seen).
_ABSENT = object()


def bindings(fn: Any) -> list[tuple]:
    """Every global and closure name ``fn``'s code reads, with what decides the code."""
    names, free = _names_read(fn.__code__)
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or (), strict=True))
    found = []
    for name in sorted(free & set(cells)):
        found.append((cells[name], None, name, *_seen(_cell_value(cells[name]))))
    for name in sorted(names):
        found.append((None, fn.__globals__, name, *_seen(fn.__globals__.get(name, _ABSENT))))
    return found


def unchanged(found: list[tuple]) -> bool:
    for cell, namespace, name, by_identity, seen in found:
        value = _cell_value(cell) if cell is not None else namespace.get(name, _ABSENT)
        if (value if by_identity else type(value)) is not seen:
            return False
    return True


def _names_read(code: types.CodeType) -> tuple[set[str], set[str]]:
    """Global or attribute names and free names, in ``code`` and the code nested in it."""
    names, free = set(code.co_names), set(code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            inner_names, inner_free = _names_read(const)
            names |= inner_names
            free |= inner_free
    return names, free


def _cell_value(cell: types.CellType) -> Any:
    try:
        return cell.cell_contents
    except ValueError:
        return _ABSENT


def _seen(value: Any) -> tuple[bool, Any]:
    """Modules and callables decide the code by identity; other values by their type."""
    if value is _ABSENT or isinstance(value, types.ModuleType) or callable(value):
        return True, value
    return False, type(value)


def _describe(binding: tuple) -> str:
    """A binding as text that means the same in another process."""
    _, _, name, by_identity, seen = binding
    if seen is _ABSENT:
        return f"{name}: absent"
    if isinstance(seen, types.ModuleType):
        return f"{name}: module {seen.__name__}"
    if by_identity:
        module = getattr(seen, "__module__", None) or type(seen).__module__
        return f"{name}: {type(seen).__name__} {module}.{_name(seen)}"
    return f"{name}: a {seen.__module__}.{seen.__qualname__}"


# -- keys -----------------------------------------------------------------------------------
def source_text(fn: Any) -> str | None:
    """The lines of ``fn``'s source, from its first line (decorators included) to the last
    line any of its code comes from; ``None`` when the source cannot be read. Cheaper than
    ``inspect.getsource``, which tokenizes the file to find the end of the block."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    linecache.checkcache(code.co_filename)  # the file may have been edited (and reloaded)
    lines = linecache.getlines(code.co_filename, fn.__globals__)
    last = _last_line(code)
    if not lines or last > len(lines):
        return None
    return "".join(lines[code.co_firstlineno - 1:last])


def _last_line(code: types.CodeType) -> int:
    last = code.co_firstlineno
    for _, _, line in code.co_lines():
        if line is not None and line > last:
            last = line
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            last = max(last, _last_line(const))
    return last


def _digest(*parts: Any) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(repr(part).encode())
        hasher.update(b"\0")
    return hasher.hexdigest()


_TABLE_VERSION: list[Any] = [None, None]


def _table_version() -> str:
    """``registry.table_version()`` and the functions declared non-differentiable,
    recomputed only when the table changed."""
    if _TABLE_VERSION[0] != registry.generation():
        nondiff = sorted(f"{getattr(f, '__module__', '')}.{_name(f)}" for f in registry.NONDIFF)
        _TABLE_VERSION[:] = [registry.generation(),
                             _digest(registry.table_version(), nondiff)]
    return _TABLE_VERSION[1]


def _name(fn: Any) -> str:
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__


# The modules whose code decides what is generated: an edit to any of them (while developing
# sourcegrad, or by installing another build of the same version) must not load stale code.
_TRANSFORMER_DIRECTORIES = ("passes", "codegen", "frontend")
_TRANSFORMER_FILES = ("pipeline.py", "compile.py", "debug.py", "cache.py", "api.py",
                      "forward_mode.py", "rules/registry.py", "rules/methods.py")
_FINGERPRINT: list[str] = []


def _implementation_fingerprint() -> str:
    """Names, sizes and modification times of the transformer's own files (plain ``os``
    calls: ``pathlib`` objects for the two dozen files cost more than the stats)."""
    if not _FINGERPRINT:
        package = os.path.dirname(__file__)
        names = list(_TRANSFORMER_FILES)
        for directory in _TRANSFORMER_DIRECTORIES:
            names.extend(f"{directory}/{n}" for n in os.listdir(os.path.join(package, directory))
                         if n.endswith(".py"))
        stamps = []
        for relative in sorted(names):
            try:
                info = os.stat(os.path.join(package, relative))
            except OSError:
                continue
            stamps.append((relative, info.st_size, info.st_mtime_ns))
        _FINGERPRINT.append(_digest(*stamps))
    return _FINGERPRINT[0]


def disk_key(fn: Any, names: tuple[str, ...], variant: str) -> str | None:
    text = source_text(fn)
    if text is None:
        return None
    from . import __version__

    environment = [_describe(b) for b in bindings(fn)]
    return _digest(FORMAT, __version__, _implementation_fingerprint(), sys.version,
                   sys.implementation.cache_tag, fn.__module__, fn.__qualname__, text, names,
                   variant, _table_version(), environment)


# -- on disk --------------------------------------------------------------------------------
_WARNED: set[str] = set()


def cache_dir() -> Path | None:
    """Where entries are kept, or ``None`` when the disk cache is off or unusable."""
    if os.environ.get("SOURCEGRAD_CACHE", "1").strip().lower() in ("0", "false", "no", "off"):
        return None
    if os.environ.get("SOURCEGRAD_CACHE_DIR"):
        path = Path(os.environ["SOURCEGRAD_CACHE_DIR"])
    elif os.environ.get("XDG_CACHE_HOME"):
        path = Path(os.environ["XDG_CACHE_HOME"]) / "sourcegrad"
    else:
        path = Path.home() / ".cache" / "sourcegrad"
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.stat()
    except OSError as exc:
        _warn_once(path, f"sourcegrad cannot use the cache directory {path} ({exc}); "
                         "derivatives are kept in memory only. Set SOURCEGRAD_CACHE_DIR to a "
                         "writable directory, or SOURCEGRAD_CACHE=0 to silence this.")
        return None
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) or (
            hasattr(os, "getuid") and info.st_uid != os.getuid()):
        _warn_once(path, f"sourcegrad refuses the cache directory {path}: other users can "
                         "write to it, and loading a derivative from it would run their code. "
                         f"Run `chmod go-w {path}` if it is yours, or set SOURCEGRAD_CACHE_DIR "
                         "to a private directory; derivatives are kept in memory only.")
        return None
    return path


def _warn_once(path: Path, message: str) -> None:
    if str(path) not in _WARNED:
        _WARNED.add(str(path))
        warnings.warn(message, CacheWarning, stacklevel=4)


def _entry_path(directory: Path, key: str) -> Path:
    return directory / f"{key}.sgc"


def _read(path: Path, key: str) -> dict | None:
    """The record stored at ``path``, or ``None`` if it is missing, damaged or another's."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header, _, payload = data.partition(b"\n")
    expected = FORMAT + b" " + hashlib.sha256(payload).hexdigest().encode()
    if header != expected:
        return None
    try:
        record = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(record, dict) or record.get("key") != key:
        return None
    return record


def _write(directory: Path, key: str, record: dict) -> None:
    payload = marshal.dumps(record)
    data = FORMAT + b" " + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
    try:
        handle, temp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".sgc")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temp, _entry_path(directory, key))
        except BaseException:
            os.unlink(temp)
            raise
    except OSError as exc:
        _warn_once(directory, f"sourcegrad cannot write to the cache directory {directory} "
                              f"({exc}); derivatives are kept in memory only.")
        return
    STATS.disk_writes += 1


def _keep(fn: Any, names: tuple[str, ...], variant: str, functions: tuple[Any, ...]) -> None:
    """Remember what re-links ``functions``: in memory, and on disk when it is on."""
    key = disk_key(fn, names, variant)
    record = _record(fn, functions) if key is not None else None
    if record is None:
        return
    record["key"] = key
    _RECORDS[key] = record
    while len(_RECORDS) > _RECORDS_KEPT:
        _RECORDS.popitem(last=False)
    directory = cache_dir()
    if directory is not None:
        _write(directory, key, record)


def _reuse(fn: Any, names: tuple[str, ...], variant: str) -> tuple[Any, ...] | None:
    """``fn``'s functions re-linked from a record kept in memory or on disk, if any."""
    key = disk_key(fn, names, variant)
    if key is None:
        return None
    record = _RECORDS.get(key)
    counter = "record_hits"
    if record is None:
        directory = cache_dir()
        record = _read(_entry_path(directory, key), key) if directory is not None else None
        counter = "disk_hits"
    if record is None:
        return None
    try:
        functions = _relink(fn, record)
    except _Stale:
        return None
    setattr(STATS, counter, getattr(STATS, counter) + 1)
    _RECORDS[key] = record
    return functions


class _Stale(Exception):
    """A disk entry made from callees whose source has changed since."""


# -- what an entry stores, and re-linking it ------------------------------------------------
def _helpers() -> dict[str, Any]:
    from .pipeline import references

    return references()


def _record(fn: Any, functions: tuple[Any, ...]) -> dict | None:
    """What re-links ``functions`` in another process, or ``None`` if something they refer
    to cannot be found again by name (a nested callee, an unknown object)."""
    callees: list[tuple] = []
    parts = []
    helpers = _helpers()
    user_cells = set(fn.__code__.co_freevars)
    for generated in functions:
        part = _part(generated, fn, helpers, user_cells, callees)
        if part is None:
            return None
        parts.append(part)
    return {"parts": parts, "callees": callees}


def _part(generated: Any, fn: Any, helpers: dict[str, Any], user_cells: set[str],
          callees: list[tuple]) -> dict | None:
    links: list[tuple] = []  # (free name, callee index, which of the callee's functions)
    marks: tuple = ((), ())
    values = _closure_values(generated)
    for name in generated.__code__.co_freevars:
        value = values.get(name)
        if name == NOTE and isinstance(value, Provenance):
            marks = (value.marks.comments, value.marks.statements)
        elif name in helpers and value is helpers[name] or name in user_cells:
            continue
        elif value is helpers.get(getattr(generated, "helper_names", {}).get(name)):
            continue  # a helper under another name (the user's function took its own)
        elif getattr(value, "_sourcegrad_entry", None) is not None:
            entry, which = value._sourcegrad_entry
            index = _callee_index(entry, callees)
            if index is None:
                return None
            links.append((name, index, which))
        else:
            return None
    text, filename = _linecache_text(generated.__code__.co_filename)
    if text is None:
        return None
    dependencies = []
    for dep in getattr(generated, "dependencies", []):
        entry, which = dep._sourcegrad_entry
        dependencies.append((_callee_index(entry, callees), which))
    return {"source": generated.source, "code": generated.__code__, "text": text,
            "filename": filename, "links": tuple(links), "marks": marks,
            "dependencies": tuple(dependencies), "attributes": _plain_attributes(generated)}


def _plain_attributes(generated: Any) -> dict[str, Any]:
    """The attributes a transformation gave the function (``tangent_params``...) that are
    plain data, kept so that a re-linked function has them too."""
    kept = {}
    for name, value in vars(generated).items():
        if name.startswith("_") or name in ("source", "dependencies"):
            continue
        try:
            marshal.dumps(value)
        except ValueError:
            continue
        kept[name] = value
    return kept


def _callee_index(entry: Entry, callees: list[tuple]) -> int | None:
    callee = entry.fun
    if "<locals>" in callee.__qualname__ or _lookup(callee.__module__, callee.__qualname__) \
            is not callee:
        return None
    text = source_text(callee)
    if text is None:
        return None
    ref = (callee.__module__, callee.__qualname__, entry.names, entry.variant, _digest(text))
    if ref not in callees:
        callees.append(ref)
    return callees.index(ref)


def _linecache_text(filename: str) -> tuple[str | None, str]:
    entry = linecache.cache.get(filename)
    if entry is None or len(entry) != 4:
        return None, filename
    return "".join(entry[2]), filename


def _relink(fn: Any, record: dict) -> tuple[Any, ...]:
    callee_functions = [_callee_functions(ref) for ref in record["callees"]]
    helpers = _helpers()
    cells = {}
    if fn.__closure__:
        cells = dict(zip(fn.__code__.co_freevars, fn.__closure__, strict=True))
    functions = []
    for part in record["parts"]:
        own = {**helpers}
        for name, usual in part["attributes"].get("helper_names", {}).items():
            if usual not in helpers:  # a user rule's helper, not registered in this process
                raise _Stale(usual)
            own[name] = helpers[usual]
        for name, index, which in part["links"]:
            own[name] = callee_functions[index][which]
        compiled = Compiled(part["code"], part["text"], part["filename"])
        if NOTE in part["code"].co_freevars:
            own[NOTE] = Provenance(fn, part["code"].co_name, part["source"],
                                   Landmarks(*part["marks"]))
        generated = link(compiled, fn.__globals__, cells, own, fn.__defaults__,
                         fn.__kwdefaults__)
        generated.source = part["source"]
        generated.dependencies = [callee_functions[i][which]
                                  for i, which in part["dependencies"]]
        for name, value in part["attributes"].items():
            setattr(generated, name, value)
        functions.append(generated)
    return tuple(functions)


# variant -> the function that gives a callee's generated functions of that variant (through
# this cache): how a disk entry re-links the callees its code calls
_CALLEE_VARIANTS: dict[str, Callable[[Any, tuple[str, ...]], Any]] = {}


def callee_variant(variant: str) -> Callable[[Callable], Callable]:
    """Register the function that makes callees' derivatives of ``variant`` (``split`` for
    reverse mode), so that entries calling them can be loaded from disk."""
    def register(fetch: Callable) -> Callable:
        _CALLEE_VARIANTS[variant] = fetch
        return fetch
    return register


def _callee_functions(ref: tuple) -> tuple[Any, ...]:
    module, qualname, names, variant, digest = ref
    callee = _lookup(module, qualname)
    if callee is None or variant not in _CALLEE_VARIANTS:
        raise _Stale(qualname)
    text = source_text(callee)
    if text is None or _digest(text) != digest:
        raise _Stale(qualname)
    functions = _CALLEE_VARIANTS[variant](callee, names)
    return functions if isinstance(functions, tuple) else (functions,)
