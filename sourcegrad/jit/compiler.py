"""``sg.jit``: compile a generated derivative (or the user's own NumPy function) with Numba.

At the first call with given argument types and shapes, a generated function is specialised
to them (``specialise.py``: the helpers whose meaning the shapes settle disappear, stacks of
known shape become arrays, what Numba does not compile is spelt as it does), its text
compiled as a Python function under a pseudo file name ``linecache`` knows, and that function
compiled by ``numba.njit``; the generated callees it calls likewise, and the user's own
functions it calls from their bytecode. The helpers left run their Numba forms
(``forms.py``). A user's function is compiled from its bytecode, the functions it calls too.

The compiled function is kept per argument signature (``specialisation.signature``, the
guard the NumPy path's specialised variants share: types, shapes and dtypes of arrays, what
else the specialisation pass may assume): a call with a new one compiles again. Where
something cannot be compiled, the function runs uncompiled after one ``JitWarning`` per
reason (``fallback=False``: a ``JitError``), naming the user's line.
"""

from __future__ import annotations

import dis
import functools
import inspect
import re
import types
import warnings
from collections.abc import Callable
from typing import Any

import numba
import numpy as np

from ..presentation import Presentable, describe
from ..rules import support
from ..runtime.decorated import Differentiable
from ..runtime.tensor import Tensor
from ..specialisation import describe as assumed_of
from ..specialisation import signature
from . import forms, source
from .errors import CannotCompile, JitError, JitWarning, numba_reason
from .specialise import Program, Specialised, is_user_function, specialise

forms.install()

_ARRAY = np.ndarray
# what a compiled version is kept under: the guard of the NumPy path's specialised variants
key = signature


class JitFunction(Presentable):
    """What ``sg.jit(fn)`` returns: ``fn`` compiled at the first call of each argument
    signature (see the module docstring); shown as ``jit of`` what ``fn`` is."""

    def __init__(self, fn: Callable, fallback: bool = True) -> None:
        functools.update_wrapper(self, fn)
        self._describe = lambda: describe("jit", fn)
        # the NumPy path's own (``specialisation.install``): this one's method shows Numba's
        self.__dict__.pop("specialised_source", None)
        self.fn = fn
        self.fallback = fallback
        self._target = source.unwrapped(fn)
        self._compiled: dict[tuple, Callable] = {}
        self._warned: set[str] = set()
        # a Python function is given every argument (Numba fills in no defaults)
        self._signature = inspect.signature(self._target) if isinstance(
            self._target, types.FunctionType) else None
        self._arity = len(self._signature.parameters) if self._signature else -1

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs or len(args) != self._arity:
            if self._signature is None:  # not a Python function: it runs as it is
                if not self._compiled:
                    self._compile((), args)  # which says why, once
                return self.fn(*args, **kwargs)
            args = self._positional(args, kwargs)
        signature = tuple([(a.shape, a.dtype) if type(a) is _ARRAY else assumed_of(a)
                           for a in args])  # ``specialisation.signature``, inlined
        run = self._compiled.get(signature)
        if run is None:
            run = self._compile(signature, args)
        return run(*args)

    def _positional(self, args: tuple, kwargs: dict[str, Any]) -> tuple:
        """All arguments by position, defaults filled in (Numba is given every one)."""
        assert self._signature is not None
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return tuple(bound.arguments.values())

    def _compile(self, signature: tuple, args: tuple) -> Callable:
        try:
            run = compile_for(self._target, args)
        except CannotCompile as failure:
            run = self._fail(failure, args)
        self._compiled[signature] = run
        return run

    def _fail(self, failure: CannotCompile, args: tuple) -> Callable:
        message = failure.message(f"{self.__name__}{_describe(args)}")
        if not self.fallback:
            raise JitError(message, failure.reason, failure.filename, failure.lineno)
        if failure.reason not in self._warned:
            self._warned.add(failure.reason)
            warning = JitWarning(message + "\nIt runs uncompiled.", failure.reason,
                                 failure.filename, failure.lineno)
            warnings.warn(warning, stacklevel=4)
        return self.fn

    def specialised_source(self, *args: Any, **kwargs: Any) -> str:
        """The code compiled for these arguments (a generated function's, specialised)."""
        if not source.is_generated(self._target):
            return inspect.getsource(self._target)
        if kwargs or len(args) != self._arity:
            args = self._positional(args, kwargs)
        return specialise(self._target, args, numba=True).text

    def presented_source(self) -> str | None:
        """The code it compiles (before it is specialised to the arguments' shapes)."""
        if source.is_generated(self._target):
            return self._target.source
        return inspect.getsource(self._target)


def _describe(args: tuple) -> str:
    return "(" + ", ".join(_describe_one(a) for a in args) + ")"


def _describe_one(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"{value.dtype} array of shape {value.shape}"
    if isinstance(value, tuple):
        return "tuple" + _describe(value)
    return type(value).__name__


# -- compiling ---------------------------------------------------------------------------------
def compile_for(fn: Any, args: tuple) -> Callable:
    """``fn`` compiled for ``args``, or ``CannotCompile``."""
    _check_arguments(fn, args)
    if source.is_generated(fn):
        program = _specialised(fn, args)
        for function in program.functions:
            _refuse_text_of_numbers(function.generated.user_function)
        dispatcher, files = _compile_program(program)
    elif isinstance(fn, types.FunctionType):
        dispatcher, files = _user_dispatcher(fn, {}), {}
    else:
        raise CannotCompile(f"{fn!r} is not a Python function: Numba compiles functions "
                            "written in Python (def or lambda)")
    try:
        dispatcher.compile(tuple(numba.typeof(a) for a in args))
    except numba.core.errors.NumbaError as error:
        raise _located(error, files, fn) from None
    return dispatcher


def _specialised(fn: types.FunctionType, args: tuple) -> Program:
    try:
        return specialise(fn, args, numba=True)
    except CannotCompile:
        raise
    except Exception as error:  # a bug of the specialiser must not cost the user a result
        raise CannotCompile(f"sourcegrad could not specialise it ({type(error).__name__}: "
                            f"{error}); please report this") from error


def _check_arguments(fn: Any, args: tuple) -> None:
    """Every argument is of a type Numba takes (else, say which one is not)."""
    try:
        names = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        names = []
    for position, value in enumerate(args):
        try:
            numba.typeof(value)
        except (ValueError, TypeError, NotImplementedError):
            name = names[position] if position < len(names) else f"#{position}"
            filename, line = _definition(fn)
            raise CannotCompile(
                f"argument `{name}` is a {type(value).__name__}, which Numba does not take "
                "(it takes numbers, NumPy arrays, and tuples of them)", filename, line
            ) from None


def _definition(fn: Any) -> tuple[str, int]:
    """The user's ``def`` line of ``fn`` (of the function a generated one derives from)."""
    user = source.read(fn).user_function if source.is_generated(fn) else fn
    code = getattr(user, "__code__", None)
    return (code.co_filename, code.co_firstlineno) if code is not None else ("", 0)


def _compile_program(program: Program) -> tuple[Any, dict[str, tuple[Specialised, dict]]]:
    """The specialised functions wrapped by ``numba.njit`` (lazily: Numba compiles each, and
    what it calls, at ``dispatcher.compile``); the user's functions they call, from their
    bytecode."""
    user_jitted: dict[int, Any] = {}
    return program.build(numba.njit, lambda fn: _user_dispatcher(fn, user_jitted))


def _user_dispatcher(fn: types.FunctionType, done: dict[int, Any]) -> Any:
    """``fn`` for Numba: its globals that are the user's functions jitted in turn."""
    if id(fn) in done:
        return done[id(fn)]
    _refuse_text_of_numbers(fn)
    namespace = dict(fn.__globals__)
    rebound = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__,
                                 fn.__closure__)
    rebound.__kwdefaults__ = fn.__kwdefaults__
    dispatcher = numba.njit(rebound)
    done[id(fn)] = dispatcher
    for name in fn.__code__.co_names:
        value = namespace.get(name)
        if is_user_function(value):
            namespace[name] = _user_dispatcher(value, done)
    return dispatcher


# what makes text of a value: Numba writes a float (any number but an integer) into it as
# "<object type:float64>", with no error
_FORMATTING_NAMES = frozenset({"str", "repr", "format", "ascii"})


def _refuse_text_of_numbers(fn: Any) -> None:
    """``CannotCompile`` naming the line where ``fn`` turns a value into text (an f-string's
    field, ``str``, ``repr``, ``format``, ``.format``): compiled, it would give wrong text."""
    code = getattr(fn, "__code__", None)
    pending = [code] if code is not None else []
    while pending:
        code = pending.pop()
        pending += [c for c in code.co_consts if isinstance(c, types.CodeType)]
        for instruction in dis.get_instructions(code):
            if instruction.opname in ("FORMAT_VALUE", "FORMAT_SIMPLE", "FORMAT_WITH_SPEC") or (
                    instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_METHOD",
                                           "LOAD_ATTR") and instruction.argval in
                    _FORMATTING_NAMES):
                line = instruction.positions.lineno if instruction.positions else None
                raise CannotCompile(
                    "it makes text of a value (an f-string, str(), repr() or format()): "
                    "Numba writes numbers other than integers as '<object type:float64>'; "
                    "make the text outside the compiled function",
                    code.co_filename, line or code.co_firstlineno)


def _located(error: Exception, files: dict[str, tuple[Specialised, dict]], fn: Any
             ) -> CannotCompile:
    """Numba's error as a reason and the user's line it is about."""
    reason = numba_reason(str(error))
    filename, line = _innermost(error)
    if filename in files:
        function, lines = files[filename]
        user = function.generated.user_function
        helper = _helper_named(reason, function)
        if helper is not None and reason.startswith("Untyped"):
            reason = f"the helper `{helper}` has no compiled form"
        elif helper is not None:
            reason = (f"the helper `{helper}` has no compiled form for these types "
                      f"({reason.removeprefix('Numba has no implementation of ')})")
        user_line = lines.get(line)
        if user is not None and user_line is not None:
            return CannotCompile(reason, user.__code__.co_filename, user_line)
        return CannotCompile(reason, *_definition(fn))
    return CannotCompile(reason, filename or "", line)


_TYPING_AT = re.compile(r"^During: typing of .* at (.+) \((\d+)\)$", re.MULTILINE)


def _innermost(error: Exception) -> tuple[str, int]:
    """The file and line Numba failed on: the first place it names while typing (a callee's
    line, when a callee failed), else where the error says it is."""
    found = _TYPING_AT.search(str(error))
    if found:
        return found.group(1), int(found.group(2))
    loc = getattr(error, "loc", None)
    return getattr(loc, "filename", "") or "", getattr(loc, "line", 0) or 0


def _helper_named(reason: str, function: Specialised) -> str | None:
    """The helper of ``rules/support.py`` a Numba error is about, if it is one."""
    untyped = re.match(r"Untyped global name '(\w+)'", reason)
    if untyped:
        called = untyped.group(1)
    elif reason.startswith("Numba has no implementation of "):
        called = reason.removeprefix("Numba has no implementation of ").split("(", 1)[0]
    else:
        return None
    value = function.namespace.get(called)
    if getattr(support, called, None) is value and value is not None:
        return called
    return None


# -- @sg.differentiable ------------------------------------------------------------------------
class JitDifferentiable(Differentiable):
    """``sg.jit`` of a ``@sg.differentiable`` function: on arrays it runs compiled; on
    tensors its node's forward and adjoint (``forward_f``/``backward_f``) run compiled."""

    def __init__(self, decorated: Differentiable, fallback: bool) -> None:
        super().__init__(decorated.fn)
        self.fallback = fallback
        self.compiled = JitFunction(decorated.fn, fallback)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if any(isinstance(v, Tensor) for v in [*args, *kwargs.values()]):
            return super().__call__(*args, **kwargs)
        return self.compiled(*args, **kwargs)

    def _derivative(self, wrt: tuple[str, ...]) -> tuple[Callable, Callable]:
        if wrt not in self._split:
            forward, backward = super()._derivative(wrt)
            self._split[wrt] = (JitFunction(forward, self.fallback),
                                JitFunction(backward, self.fallback))
        return self._split[wrt]


def jit(fn: Callable, fallback: bool = True) -> Any:
    if isinstance(fn, JitFunction | JitDifferentiable):
        return fn
    if isinstance(fn, Differentiable):
        return JitDifferentiable(fn, fallback)
    return JitFunction(fn, fallback)
