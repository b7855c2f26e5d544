"""Shape and type specialisation at the first call (the NumPy path; ``sg.jit`` shares it).

The derivative ``sg.grad`` and ``sg.value_and_grad`` return is general: it serves every
argument shape, so it calls ``unbroadcast``, ``unreduce`` and ``np.size`` and keeps
``shape_only`` placeholders for shapes it cannot know when it is generated. At its first
call with given argument shapes and dtypes, the specialisation pass
(``jit/specialise.py``, the one ``sg.jit`` uses) rewrites it for them: helpers whose meaning
the shapes settle disappear (``unbroadcast(g, x)`` where the shapes match is ``g``), values
kept only for their shape are neither kept nor stacked, known sizes are numbers. That
variant runs; later calls with the same ``signature`` run it again.

The guard is ``signature`` of the arguments: each array's shape and dtype, each number's
type, the length and items of a tuple or list, the fields of a namedtuple or dataclass, the
keys and entries of a dict (of up to 16), a string's value; the specialised code
assumes nothing else of them. Arrays of other types (subclasses of ``np.ndarray``, Dask
arrays, tensors) and objects the pass knows nothing of run the general code. Which
functions a global or closure name denotes is guarded by the staleness check every
generated function makes (``cache.py``); the data such a name holds (a global array, whose
shape the variant assumed; an integer, whose value it may have folded) is read live by the
general code and is guarded here: a variant that read any checks it at each call, and is
made again when it changed (counting towards the bound).

How it is wired: every generated function starts (on the AST, not in its text), after the
staleness check, with a call of what its cell ``_sourcegrad_special`` holds, if anything
(``compile.py``). For the functions ``sg.grad`` returns, ``install`` puts a dispatcher
there: it computes the signature, finds the variant (or makes it) and returns what the
variant returns; or it returns itself, and the general code runs on in the generated
function's frame (see ``_dispatcher`` for when). ``.source``, ``inspect`` and
differentiating the derivative again see the general derivative, unchanged.

Bounds: ``MAX_VARIANTS`` specialised variants per derivative; a signature after those runs
the general code (as does every call when ``SOURCEGRAD_SPECIALISE=0``, read at the first
call of each signature). If the pass fails on a function (a bug of sourcegrad's), one
``RuntimeWarning`` says so and the general code runs.

The specialised text is kept under a file name of its own (so profilers show its lines);
an exception raised in it is raised again by the general code, with the general code's
traceback and the note naming the user's line. ``g.specialised_source(*args)`` shows it.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
import types
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .cache import no_cyclic_collection
from .compile import OWN_CELLS, SPECIAL, compile_function
from .jit.abstract import MAX_DESCRIBED_ENTRIES
from .jit.specialise import Specialised, specialise

ENVIRONMENT = "SOURCEGRAD_SPECIALISE"
MAX_VARIANTS = 8  # specialised variants of one derivative; later signatures run it general
_MAX_SIGNATURES = 64  # signatures remembered (those past MAX_VARIANTS map to the general code)


def enabled() -> bool:
    """Is specialisation on (``SOURCEGRAD_SPECIALISE`` is not ``0``, ``false``, ``no``,
    ``off``)?"""
    return os.environ.get(ENVIRONMENT, "1").strip().lower() not in ("0", "false", "no", "off")


# -- the guard --------------------------------------------------------------------------------
GENERAL = ("general",)  # in a signature: a value the specialised code may not assume about
_NUMBERS = (float, int, bool, complex, type(None))
_BY_IDENTITY = (types.FunctionType, types.BuiltinFunctionType, types.ModuleType, type,
                np.ufunc, np.dtype)


def signature(args: tuple) -> tuple:
    """What a specialised variant is kept under: one ``describe`` per argument. Computed at
    every call: about 0.2 µs an array."""
    return tuple([(a.shape, a.dtype) if type(a) is np.ndarray else describe(a) for a in args])


def describe(value: Any) -> Any:
    """What the specialisation pass may assume of ``value`` (``abstract.of_value`` with
    ``numbers=False`` knows no more), hashable: an array's shape and dtype, a number's or
    NumPy scalar's type, a tuple's, list's or namedtuple's items, a dataclass's fields, a
    dict's keys and entries (up to ``MAX_DESCRIBED_ENTRIES`` of them), a string's value; a
    function, module or class itself; ``(GENERAL, its type)`` for what it may not assume
    anything of (the type keeps ``sg.jit``'s compiled versions of different types apart).
    Structures are described leaf by leaf so that the variant knows which leaves are
    integers, whose gradients are ``None``: it computes no cotangent for them."""
    kind = type(value)
    if kind is np.ndarray:
        return (value.shape, value.dtype)
    if kind is dict:
        if len(value) > MAX_DESCRIBED_ENTRIES:
            return kind  # a vocabulary: read as unknown (the code stays general where it
            # reads one), not walked at every call
        return (kind, *[(k, v.shape, v.dtype) if type(v) is np.ndarray else (k, describe(v))
                        for k, v in value.items()])
    if kind in _NUMBERS or isinstance(value, np.generic):
        return kind
    if kind is tuple or kind is list:
        return (kind, *[describe(v) for v in value])
    if kind is str or kind is bytes:
        return (kind, value)
    if isinstance(value, tuple) and hasattr(kind, "_fields"):  # a namedtuple
        return (kind, *[describe(v) for v in value])
    if isinstance(value, _BY_IDENTITY):
        return (kind, value)
    if dataclasses.is_dataclass(value):  # an instance: a class is _BY_IDENTITY
        return (kind, *[describe(getattr(value, f.name)) for f in dataclasses.fields(value)])
    return (GENERAL, kind)


def _assumes_nothing(key: Any) -> bool:
    """Does ``key`` hold ``GENERAL`` anywhere?"""
    if key is GENERAL:
        return True
    return isinstance(key, tuple) and any(_assumes_nothing(k) for k in key)


# -- the variants of one derivative -------------------------------------------------------------
@dataclass
class Variants:
    """The specialised variants of one generated function, by signature; ``GENERAL_HERE``
    where the general code runs."""

    name: str
    make: Callable[[tuple, dict], Variant]  # a variant for these arguments
    runs: dict[tuple, Any] = field(default_factory=dict)
    # signature -> what the variant assumed of globals and closure variables, when anything
    assumptions: dict[tuple, tuple[Assumption, ...]] = field(default_factory=dict)
    made: int = 0  # specialised variants made (at most MAX_VARIANTS)
    failure: str | None = None  # why the pass failed, if it did: the general code runs

    def missing(self, key: tuple, args: tuple, kwargs: dict) -> Any:
        """What runs for a signature not seen yet, or whose variant's assumptions about
        globals no longer hold (a variant made now, if it is to be specialised), remembered
        under it."""
        run: Any = GENERAL_HERE
        self.assumptions.pop(key, None)
        if self.made < MAX_VARIANTS and self.failure is None and enabled() and (
                not _assumes_nothing(key)):
            try:
                made = self.make(args, kwargs)
            except NotSpecialisable:
                made = None
            except Exception as error:  # a bug of the pass must not cost the user a result
                made = None
                self.failure = f"{type(error).__name__}: {error}"
                warnings.warn(
                    f"sourcegrad could not specialise {self.name} to the shapes of its "
                    f"arguments ({self.failure}); the general derivative runs. Please report "
                    "this.", RuntimeWarning, stacklevel=4)
            if made is not None:
                self.made += 1
                run = made.run
                if made.assumptions:
                    self.assumptions[key] = made.assumptions
        if len(self.runs) < _MAX_SIGNATURES or key in self.runs:
            self.runs[key] = run
        return run


@dataclass(frozen=True)
class Assumption:
    """A global or closure variable the variant read, and what it assumed of its value."""

    read: Callable[[], Any]
    expected: Any

    def holds(self) -> bool:
        try:
            return _assumed(self.read()) == self.expected
        except (NameError, ValueError):  # gone (an empty cell, a deleted global)
            return False


@dataclass(frozen=True)
class Variant:
    run: Callable[..., Any]
    assumptions: tuple[Assumption, ...]


class NotSpecialisable(Exception):
    """The arguments or globals hold nothing the pass may assume anything of."""


def _assumed(value: Any) -> Any:
    """What the pass may assume of a global's value: as of an argument's, and an integer's
    value too (a global count may be folded)."""
    kind = type(value)
    if kind is int or kind is bool:
        return (kind, value)
    if kind is tuple or kind is list:
        return (kind, *[_assumed(v) for v in value])
    return describe(value)


GENERAL_HERE = object()  # in ``Variants.runs``: the general code runs for that signature


def _dispatcher(variants: Variants) -> Callable[..., Any]:
    """What the generated function's ``_sourcegrad_special`` cell holds: the guard. It
    returns the variant's result, or itself to have the general code run in the generated
    function's own frame: for a signature not specialised; under a debugger, coverage or
    any other tracer (``sys.settrace``), so that they step through the lines of
    ``.source``; and when the variant raises, so that the error is raised again by the
    general code, with its traceback (and a wrong variant cannot hide behind it)."""
    runs, missing, assumptions = variants.runs, variants.missing, variants.assumptions
    tracer = sys.gettrace

    def dispatch(*args: Any, **kwargs: Any) -> Any:
        key = tuple([(a.shape, a.dtype) if type(a) is np.ndarray else describe(a)
                     for a in args])  # ``signature``, inlined: this runs at every call
        if kwargs:
            key += tuple([(k, describe(v)) for k, v in kwargs.items()])
        try:
            run = runs.get(key)
        except TypeError:  # an unhashable item somewhere
            return dispatch
        if run is None or assumptions and key in assumptions and not all(
                a.holds() for a in assumptions[key]):
            run = missing(key, args, kwargs)
        if run is GENERAL_HERE or tracer() is not None:
            return dispatch
        try:
            return run(*args, **kwargs)
        except Exception:
            return dispatch

    return dispatch


_VARIANTS = "_sourcegrad_variants"  # on a generated function: its Variants


def install(generated: types.FunctionType) -> None:
    """Give ``generated`` (a function ``sg.grad`` or ``sg.value_and_grad`` returns) its
    specialised variants, made at the first call of each signature, and
    ``generated.specialised_source(*args, **kwargs)``."""
    if SPECIAL not in generated.__code__.co_freevars or _VARIANTS in generated.__dict__:
        return
    variants = Variants(generated.__name__,
                        lambda args, kwargs: build(generated, args, kwargs))
    generated.__dict__[_VARIANTS] = variants
    generated.specialised_source = functools.partial(specialised_source, generated)
    _cell(generated, SPECIAL).cell_contents = _dispatcher(variants)


def general_of(generated: Any) -> Callable[..., Any]:
    """The general code of a derivative ``sg.grad`` returned, never specialised (what the
    tests and benchmarks compare the variants with): the same code, without variants
    (through the ``presentation.Presented`` that shows it)."""
    generated = getattr(generated, "__wrapped__", generated)
    if _VARIANTS not in getattr(generated, "__dict__", {}):
        return generated
    closure = tuple(types.CellType(None) if name == SPECIAL else cell
                    for name, cell in zip(generated.__code__.co_freevars,
                                          generated.__closure__ or (), strict=True))
    twin = types.FunctionType(generated.__code__, generated.__globals__, generated.__name__,
                              generated.__defaults__, closure)
    twin.__kwdefaults__ = generated.__kwdefaults__
    twin.__dict__.update({k: v for k, v in generated.__dict__.items() if k != _VARIANTS})
    return twin


def variants_of(generated: Any) -> Variants | None:
    """The variants made of a derivative ``sg.grad`` returned, if it has them (through
    the ``presentation.Presented`` that shows it)."""
    generated = getattr(generated, "__wrapped__", generated)
    return getattr(generated, "__dict__", {}).get(_VARIANTS)


def _cell(fn: types.FunctionType, name: str) -> types.CellType:
    assert fn.__closure__ is not None
    return fn.__closure__[fn.__code__.co_freevars.index(name)]


# -- making a variant ---------------------------------------------------------------------------
def specialised_source(generated: Any, *args: Any, **kwargs: Any) -> str:
    """The derivative specialised to these arguments' shapes and dtypes, as text: the
    function and the generated callees it calls (each variant of one)."""
    return specialise(generated, args, kwargs).text


def build(generated: types.FunctionType, args: tuple, kwargs: dict) -> Variant:
    """The variant of ``generated`` for these arguments, compiled: each function of the
    specialised program linked as generated code is (``compile.compile_function``: the
    user's globals read live, the same closure cells), the specialised callees it calls
    through cells filled once all are made; and what it assumed of the globals and closure
    variables it read. Made with the cyclic collector off, as a transformation is:
    specialising a long derivative allocates its tree anew, and full collections scanning
    the heap again and again took a quarter of the time (more, the longer the function)."""
    with no_cyclic_collection():
        program = specialise(generated, args, kwargs)
        assumptions = tuple(a for f in program.functions for a in _assumptions(f))
        cells = {id(f): types.CellType() for f in program.functions}
        for function in program.functions:
            cells[id(function)].cell_contents = _link(function, cells)
        root = cells[id(program.root)].cell_contents
        # the trees go before the collector is back: its first pass walks what is still
        # alive of all that was made while it was off
        del program, function, cells
    return Variant(root, assumptions)


def _assumptions(function: Any) -> list[Assumption]:
    """What ``function`` (specialised) assumed of the data its generated function reads
    from its closure cells and globals."""
    general = function.generated.function
    cells = dict(zip(general.__code__.co_freevars, general.__closure__ or (), strict=True))
    found = []
    for name, value in function.assumed.items():
        expected = _assumed(value)
        if _assumes_nothing(expected):
            raise NotSpecialisable(name)
        if name in cells:
            read = functools.partial(getattr, cells[name], "cell_contents")
        else:
            read = functools.partial(_global, general.__globals__, name)
        found.append(Assumption(read, expected))
    return found


def _global(namespace: dict[str, Any], name: str) -> Any:
    try:
        return namespace[name]
    except KeyError:
        raise NameError(name) from None


def _link(function: Specialised, cells: dict[int, types.CellType]) -> types.FunctionType:
    general = function.generated.function
    text = function.text
    own = {name: cell for name, cell in zip(general.__code__.co_freevars,
                                            general.__closure__ or (), strict=True)
           if name not in OWN_CELLS}
    helpers = {}
    for name, value in function.bindings.items():
        if isinstance(value, Specialised):
            own[name] = cells[id(value)]
        else:
            helpers[name] = value
    # no notes, no prologue: an exception raised in a variant is raised again by the general
    # code, with its own (see ``_dispatcher``)
    compiled = compile_function(text, function.name, general.__globals__, own, helpers,
                                general.__defaults__, general.__kwdefaults__,
                                columns=False)  # (its errors are the general code's)
    compiled.source = text
    return compiled
