"""Generated derivatives are made once: kept in memory, and on disk for the next process.

``derivative(fun, request, variant, ...)`` returns the compiled generated function(s) for one
derivative of ``fun``: ``grad`` / ``value_and_grad`` (api.py) or ``split`` (the forward and
backward functions of ``sg.vjp`` and of differentiated callees, pipeline.py).

A derivative is always that of the code that runs. In memory, an entry is kept on the
function object, found by the request as the caller spelled it, and holds while everything
it depends on reads as it did (``dependencies.py``): the function's code object and
defaults; what each global and closure name it reads denotes; every name and attribute
chain the resolver followed (``cfg.act``) and what it denoted; the same for every user
function it differentiated; and the rule table (``registry.generation``). Generated
functions check this on every call too (a few hundred nanoseconds) and redirect the call to
the derivative made again when something changed (a helper redefined after
``g = sg.grad(f)``).

On disk, an entry is keyed by a hash of the function's source text and of its code object,
what its names denote (as text), the parameter names differentiated, the variant, the rule
table's version, sourcegrad's and Python's versions, and the sizes and times of the
transformer's own files (so editing sourcegrad invalidates too). A file holds a few records
for one key, each made under different resolutions of the attribute chains (described as
text meaning the same in every process, checked on loading). A record holds each generated
function's source, its compiled code (``marshal``) and what to re-link it with: helper names,
the user's closure names, and for each differentiated callee its module, qualified name, the
hash of its source (checked on load) and its own entry. So a new process loads a derivative
without transforming anything. Files are written to a temporary name and renamed into place;
a header with a checksum exposes a truncated or corrupted file, which is then ignored and
rewritten; only regular files of the user's are read, up to a size bound.

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
import itertools
import linecache
import marshal
import os
import stat
import sys
import tempfile
import types
import warnings
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .compile import (
    BRANCH,
    NOTE,
    OWN_CELLS,
    SPECIAL,
    STALE,
    Compiled,
    branch_test,
    link,
    never_stale,
)
from .debug import Landmarks, Provenance
from .dependencies import (
    EQUAL,
    IDENTITY,
    Dependency,
    chain_dependencies,
    code_digest,
    compile_check,
    describe,
    first_change,
    follow,
    name_dependencies,
    reading,
    root_of,
)
from .errors import SourcegradError
from .frontend.resolve import Resolutions, recording
from .rules import registry

FORMAT = b"sourcegrad-cache 4"


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
    """The compiled functions of one derivative, and what they were made from.

    ``dependencies`` are everything the functions relied on, the callees' included (see
    ``dependencies.py``): the function's code, what each name and attribute chain it resolved
    denoted, the rule table's generation. ``stale()`` reads them all again. ``remake()``
    asks for the same derivative again (through this cache)."""

    fun: Any  # the user function (unwrapped)
    names: tuple[str, ...]  # the parameters differentiated
    variant: str
    functions: tuple[Any, ...]
    dependencies: list[Dependency]
    callees: list[Entry]  # entries of differentiated callees
    remake: Callable[[], tuple[Any, ...]]
    _check: Callable[[], bool] | None = None
    _successor: Entry | None = None  # made again in this one's place

    def stale(self) -> bool:
        return self.check()()

    def check(self) -> Callable[[], bool]:
        """The compiled check, made on first use (a callee's entry is mostly checked as part
        of its callers')."""
        if self._check is None:
            self._check = compile_check(self.dependencies)
        return self._check

    def valid(self) -> bool:
        return not self.check()()

    def made_again(self) -> tuple[Any, ...]:
        """The functions made in this entry's place, the same ones for as long as they hold
        (so that every reader of a stale generated function reads the same new one)."""
        successor = self._successor
        if successor is None or successor.stale():
            functions = self.remake()
            successor = self._successor = functions[0]._sourcegrad_entry[0]
        return successor.functions


# An entry is kept in the user function's own ``__dict__``, so that it lives and dies with
# the function (a function defined and differentiated in a loop leaves nothing behind).
_ATTRIBUTE = "_sourcegrad_derivatives"
_EPOCH = [0]  # bumped by clear_memory: entries of earlier epochs are ignored
# disk key -> records (what the disk stores, one per set of resolutions): a function made
# again from the same source, such as a nested function defined anew in a loop, is
# re-linked instead of transformed. The records also keep their code's lines in linecache.
_RECORDS: collections.OrderedDict[str, list[dict]] = collections.OrderedDict()
_RECORDS_KEPT = 256  # records in all
_RECORDS_PER_KEY = 4
# The split functions of ``sg.vjp`` are a pair sharing saved values: never redirected one
# without the other; their callers ask the cache for the pair on each use.
_UNCHECKED_VARIANTS = frozenset({"split"})


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
    key = (request, variant, generation_settings())
    try:
        entry = memo.get(key) if memo is not None else None
    except TypeError:  # an unhashable request
        entry = memo = None
    if entry is not None and not entry.check()():
        STATS.memory_hits += 1
        return entry.functions
    target = current(inspect.unwrap(fun))
    resolved = names()
    on_disk = disk_key(target, resolved, variant)
    reused = _reuse(target, resolved, variant, on_disk)
    if reused is None:
        STATS.transformations += 1
        with no_cyclic_collection(), recording() as resolutions:
            functions = build(resolved)
        _keep(target, resolved, variant, functions, resolutions, on_disk)
    else:
        functions, resolutions = reused
    if finish is not None:
        for fn in functions:
            finish(fn)

    def remake() -> tuple[Any, ...]:
        return derivative(fun, request, variant, names, build, finish)

    entry = _entry(target, resolved, variant, tuple(functions), resolutions, remake)
    if memo is not None:
        memo[key] = entry
    return entry.functions


def current(fn: Any) -> Any:
    """``fn``, or if it is a generated function whose derivative no longer holds, the one
    made again in its place (what differentiating generated code again must read)."""
    tag = getattr(fn, "_sourcegrad_entry", None)
    if not isinstance(tag, tuple) or not tag[0].stale():
        return fn
    return tag[0].made_again()[tag[1]]


def _entry(target: Any, names: tuple[str, ...], variant: str, functions: tuple[Any, ...],
           resolutions: Resolutions, remake: Callable[[], tuple[Any, ...]]) -> Entry:
    callees = _callee_entries(functions)
    made_from = getattr(target, "_sourcegrad_entry", None)  # generated code, again
    if isinstance(made_from, tuple) and not any(made_from[0] is c for c in callees):
        callees.append(made_from[0])
    found = _own_dependencies(target, resolutions)
    for callee in callees:
        found.extend(callee.dependencies)
    unique = list({dep.key(): dep for dep in found}.values())
    entry = Entry(target, names, variant, functions, unique, callees, remake)
    for index, fn in enumerate(functions):
        fn._sourcegrad_entry = (entry, index)
        if variant.partition("/")[0] not in _UNCHECKED_VARIANTS:
            _install_check(fn, entry, index)
    return entry


def _own_dependencies(fn: Any, resolutions: Resolutions) -> list[Dependency]:
    found = [reading("object", fn, "", (attribute,), getattr(fn, attribute), IDENTITY)
             for attribute in ("__code__", "__defaults__", "__kwdefaults__")]
    found.append(reading("counter", registry._GENERATION, "the rule table", (),
                         registry.generation(), EQUAL))
    found.append(reading("counter", _EPOCH, "the cache", (), _EPOCH[0], EQUAL))
    found.extend(name_dependencies(fn))
    for chain, value in resolutions.items():
        found.extend(chain_dependencies(fn, chain, value))
    return found


def _install_check(fn: Any, entry: Entry, index: int) -> None:
    """Give the generated function ``fn`` the check of its entry (compiled at its first
    call), and the way to the derivative made again when the check fails (see
    ``compile.py``)."""
    if STALE not in fn.__code__.co_freevars:
        return
    cell = fn.__closure__[fn.__code__.co_freevars.index(STALE)]

    def again(*args: Any, **kwargs: Any) -> Any:
        fresh = entry.made_again()[index]
        made = fresh._sourcegrad_entry[0]
        if made.stale():
            raise SourcegradError(
                f"sourcegrad cannot keep the derivative of {_name(entry.fun)} current: "
                f"{first_change(made.dependencies)}, so no derivative made from it stays "
                "the derivative of the code that runs. Read it once into a name (a global "
                "or a closure variable) and call that name.")
        return fresh(*args, **kwargs)

    def first_call() -> bool:
        compiled = entry.check()
        check = types.FunctionType(compiled.__code__, compiled.__globals__, "stale")
        check.again = again
        cell.cell_contents = check
        return check()

    first_call.again = again
    cell.cell_contents = first_call


def why_stale(fn: Any) -> str | None:
    """What changed since the generated function ``fn`` was made, in words; ``None`` if
    nothing did."""
    tag = getattr(fn, "_sourcegrad_entry", None)
    if not isinstance(tag, tuple):
        return None
    return first_change(tag[0].dependencies)


@contextlib.contextmanager
def no_cyclic_collection() -> Iterator[None]:
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
    directory, so that the next request transforms from scratch.

    >>> def cube(x):
    ...     return x ** 3
    >>> sg.grad(cube)(2.0)
    12.0
    >>> sg.clear_cache(disk=False)  # keep the cache directory's entries
    >>> sg.grad(cube)(2.0)  # made again
    12.0
    """
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
            if isinstance(tag, tuple) and not any(tag[0] is e for e in found):
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


def _lookup(module: str, qualname: str) -> Any:
    value: Any = sys.modules.get(module)
    for part in qualname.split("."):
        value = getattr(value, part, None)
    return value


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


# Every module of the package can decide what is generated or how it runs (the passes, the
# rule table and its helpers, the specialiser, the pytree handling): an edit to any of them
# (while developing sourcegrad, or by installing another build of the same version) must not
# load stale code.
_FINGERPRINT: list[str] = []


def _implementation_fingerprint() -> str:
    """Names, sizes and modification times of the package's files (plain ``os`` calls:
    ``pathlib`` objects for a hundred files cost more than the stats), taken once."""
    if not _FINGERPRINT:
        package = os.path.dirname(__file__)
        stamps = []
        for relative in implementation_files():
            try:
                info = os.stat(os.path.join(package, relative))
            except OSError:
                continue
            stamps.append((relative, info.st_size, info.st_mtime_ns))
        _FINGERPRINT.append(_digest(*stamps))
    return _FINGERPRINT[0]


def implementation_files() -> list[str]:
    """Every Python file of the package, relative to it, in a fixed order."""
    package = os.path.dirname(__file__)
    found = []
    for directory, subdirectories, files in os.walk(package):
        subdirectories[:] = sorted(d for d in subdirectories if d != "__pycache__")
        found.extend(os.path.relpath(os.path.join(directory, name), package)
                     for name in sorted(files) if name.endswith(".py"))
    return found


def disk_key(fn: Any, names: tuple[str, ...], variant: str) -> str | None:
    """The key of ``fn``'s derivative on disk: its source text and code (so that a module
    edited on disk but not reloaded, whose text is no longer its code's, matches nothing; the
    code's line table holds columns, which tell apart two lambdas on one line), what its
    names denote, and what the derivative was asked for. What the attribute chains
    it reads denote is only known once transformed: each record holds those, checked on
    loading (``_matching``)."""
    if getattr(fn, "__sourcegrad_made__", False):
        return None  # made by sourcegrad from another function: its text does not say which
    text = source_text(fn)
    if text is None:
        return None
    from . import __version__

    environment = [f"{dep.spelling()}: {describe(dep.seen)}" for dep in name_dependencies(fn)]
    return _digest(FORMAT, __version__, _implementation_fingerprint(), sys.version,
                   sys.implementation.cache_tag, fn.__module__, fn.__qualname__, text,
                   code_digest(fn.__code__), names, variant, _table_version(), environment,
                   generation_settings())


# environment variables that change what is generated (``SOURCEGRAD_LOOP_PRODUCTS=0`` turns a
# pass off): a derivative made under one setting is not reused under another
GENERATION_VARIABLES = ("SOURCEGRAD_LOOP_PRODUCTS",)


def generation_settings() -> tuple[str, ...]:
    return tuple(os.environ.get(variable, "") for variable in GENERATION_VARIABLES)


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


_MAX_FILE_BYTES = 64 << 20
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def _read_bytes(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of this user's (not a symbolic link, a
    FIFO or a device, which could be read without end) of a sane size; else ``None``."""
    try:
        handle = os.open(path, _OPEN_FLAGS)
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_FILE_BYTES or (
                hasattr(os, "getuid") and info.st_uid != os.getuid()):
            return None
        chunks, left = [], info.st_size
        while left > 0:
            chunk = os.read(handle, left)
            if not chunk:
                return None  # shorter than it said: being replaced, not ours to read
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(handle)


def _read(path: Path, key: str) -> list[dict]:
    """The records stored at ``path`` (none if it is missing, damaged or not a file of
    ours)."""
    data = _read_bytes(path)
    if data is None:
        return []
    header, _, payload = data.partition(b"\n")
    expected = FORMAT + b" " + hashlib.sha256(payload).hexdigest().encode()
    if header != expected:
        return []
    try:
        stored = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return []
    if not isinstance(stored, dict) or stored.get("key") != key:
        return []
    records = stored.get("records")
    return [r for r in records if isinstance(r, dict)] if isinstance(records, list) else []


def _write(directory: Path, key: str, records: list[dict]) -> None:
    payload = marshal.dumps({"key": key, "records": records})
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


_UNKNOWN_KEY = ""


def _keep(fn: Any, names: tuple[str, ...], variant: str, functions: tuple[Any, ...],
          resolutions: Resolutions | None = None, key: str | None = _UNKNOWN_KEY) -> None:
    """Remember what re-links ``functions``: in memory, and on disk when it is on
    (``key``: ``disk_key``'s, if the caller has it)."""
    if key == _UNKNOWN_KEY:
        key = disk_key(fn, names, variant)
    chains = _described(resolutions or {})
    record = _record(fn, functions) if key is not None and chains is not None else None
    if record is None:
        return
    record["chains"] = chains
    _remember(key, record)
    directory = cache_dir()
    if directory is not None:
        others = [r for r in _disk_records(key) if r.get("chains") != chains]
        _write(directory, key, [record, *others][:_RECORDS_PER_KEY])


def _remember(key: str, record: dict) -> None:
    """Keep ``record`` in memory, first of its key's, within the bound."""
    kept = [record, *(r for r in _RECORDS.pop(key, []) if r.get("chains") != record["chains"])]
    _RECORDS[key] = kept[:_RECORDS_PER_KEY]
    while sum(map(len, _RECORDS.values())) > _RECORDS_KEPT:
        oldest = next(iter(_RECORDS))
        _RECORDS[oldest].pop()
        if not _RECORDS[oldest]:
            del _RECORDS[oldest]


def _described(resolutions: Resolutions) -> list[tuple[tuple[str, ...], str]] | None:
    """Each resolution's chain with a description of what it denoted, valid in another
    process; ``None`` if one cannot be described."""
    try:
        return sorted((chain, describe(value)) for chain, value in resolutions.items())
    except Exception:  # noqa: BLE001 - an object that cannot be looked at: no disk
        return None


def _matching(fn: Any, record: dict) -> Resolutions | None:
    """What the record's chains denote for ``fn`` now, if each is what it was when the
    record was made; else ``None``."""
    chains = record.get("chains")
    if not isinstance(chains, list):
        return None
    found: Resolutions = {}
    for chain, description in chains:
        chain = tuple(chain)
        value = follow(root_of(fn, chain[0])[2], chain[1:])
        if describe(value) != description:
            return None
        found[chain] = value
    return found


def _reuse(fn: Any, names: tuple[str, ...], variant: str, key: str | None = _UNKNOWN_KEY
           ) -> tuple[tuple[Any, ...], Resolutions] | None:
    """``fn``'s functions re-linked from a record kept in memory or on disk whose chains
    denote what they denote now, with what they denote; ``None`` if there is none."""
    if key == _UNKNOWN_KEY:
        key = disk_key(fn, names, variant)
    if key is None:
        return None
    candidates = itertools.chain(((r, "record_hits") for r in _RECORDS.get(key, [])),
                                 ((r, "disk_hits") for r in _disk_records(key)))
    for record, counter in candidates:
        resolutions = _matching(fn, record)
        if resolutions is None:
            continue
        try:
            functions = _relink(fn, record)
        except _Stale:
            continue
        setattr(STATS, counter, getattr(STATS, counter) + 1)
        _remember(key, record)
        return functions, resolutions
    return None


def _disk_records(key: str) -> list[dict]:
    directory = cache_dir()
    return _read(_entry_path(directory, key), key) if directory is not None else []


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
        elif name in (STALE, SPECIAL, BRANCH):
            continue
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
    if fn.__closure__:  # not those of generated code differentiated again: its own
        cells = {name: cell for name, cell in zip(fn.__code__.co_freevars, fn.__closure__,
                                                  strict=True) if name not in OWN_CELLS}
    functions = []
    for part in record["parts"]:
        own = {**helpers, STALE: never_stale, SPECIAL: None, BRANCH: branch_test}
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
    base, _, option = variant.partition("/")  # "split/zero=1": a variant with an option
    if callee is None or base not in _CALLEE_VARIANTS:
        raise _Stale(qualname)
    text = source_text(callee)
    if text is None or _digest(text) != digest:
        raise _Stale(qualname)
    fetch = _CALLEE_VARIANTS[base]
    functions = fetch(callee, names, option=option) if option else fetch(callee, names)
    return functions if isinstance(functions, tuple) else (functions,)
