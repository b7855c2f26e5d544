"""Grad mode: whether operations on tensors are being recorded, per thread.

Each thread starts with grad mode on, as in PyTorch, so a ``no_grad`` block in one thread
never stops another thread from recording. ``no_grad``, ``enable_grad`` and
``set_grad_enabled`` are context managers and decorators.

Every recorded operation asks whether grad mode is on, and a thread-local lookup costs
several times a global one. So the number of threads that have it off is kept too
(``THREADS_WITHOUT_GRAD[0]``): while it is zero, grad mode is on in this thread without
asking it (``dispatch.Op`` reads the count first). A thread that ends with grad mode off
leaves the count above zero: the check then always asks the thread, right but slower.
"""

from __future__ import annotations

import functools
import inspect
import threading
import warnings
from collections.abc import Callable, Generator
from typing import Any, TypeVar


class _ThreadState(threading.local):
    enabled = True  # each new thread starts with grad mode on


_state = _ThreadState()
THREADS_WITHOUT_GRAD = [0]
_count_lock = threading.Lock()

F = TypeVar("F", bound=Callable[..., Any])


def is_grad_enabled() -> bool:
    """True when operations on tensors that require grad are recorded (this thread).

    >>> sg.is_grad_enabled()
    True
    >>> with sg.no_grad():
    ...     sg.is_grad_enabled()
    False
    """
    return not THREADS_WITHOUT_GRAD[0] or _state.enabled


def _set(flag: bool) -> None:
    flag = bool(flag)
    with _count_lock:  # (``+=`` on the count is not atomic between threads)
        if flag != _state.enabled:
            THREADS_WITHOUT_GRAD[0] += -1 if flag else 1
        _state.enabled = flag


CLASS_DECORATION_WARNING = (
    "Decorating classes is deprecated and will be disabled in future versions. You should "
    "only decorate functions or methods. To preserve the current behavior of class "
    "decoration, you can directly decorate the `__init__` method and nothing else."
)


class _GradMode:
    """Switches grad mode to ``self.mode`` inside a ``with`` block or a decorated call.

    A decorated generator, coroutine or asynchronous generator runs its body in ``mode``
    each time it is resumed, and gives the caller's mode back each time it suspends
    (``yield``, ``await``), as PyTorch does for generators: its body runs long after the
    call that made it returned."""

    mode: bool

    def __new__(cls, *args: Any) -> Any:
        """``@sg.no_grad`` without parentheses decorates directly, as in PyTorch."""
        if len(args) == 1 and callable(args[0]) and not isinstance(args[0], bool):
            return cls()(args[0])
        return super().__new__(cls)

    def __enter__(self) -> None:
        self._previous = is_grad_enabled()
        _set(self.mode)

    def __exit__(self, *exc: object) -> None:
        _set(self._previous)

    def __call__(self, fn: F) -> F:
        if inspect.isclass(fn):
            # PyTorch's deprecated behaviour: the constructor runs in the mode.
            warnings.warn(CLASS_DECORATION_WARNING, FutureWarning, stacklevel=2)
            return _in_mode(self.mode, _constructor(fn))  # type: ignore[return-value]
        return _in_mode(self.mode, fn)  # type: ignore[return-value]


def _constructor(cls: type) -> Callable[..., Any]:
    @functools.wraps(cls, updated=())
    def construct(*args: Any, **kwargs: Any) -> Any:
        return cls(*args, **kwargs)

    return construct


def _in_mode(mode: bool, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` running in grad mode ``mode``, whatever kind of function it is."""
    if inspect.isgeneratorfunction(fn):

        @functools.wraps(fn)
        def generator_in_mode(*args: Any, **kwargs: Any) -> Any:
            return (yield from _resumed_in_mode(fn(*args, **kwargs), mode))

        return generator_in_mode
    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def coroutine_in_mode(*args: Any, **kwargs: Any) -> Any:
            return await _Awaiting(fn(*args, **kwargs), mode)

        return coroutine_in_mode
    if inspect.isasyncgenfunction(fn):
        return _async_generator_in_mode(fn, mode)

    @functools.wraps(fn)
    def with_mode(*args: Any, **kwargs: Any) -> Any:
        previous = is_grad_enabled()
        _set(mode)
        try:
            return fn(*args, **kwargs)
        finally:
            _set(previous)

    return with_mode


def _step_in_mode(mode: bool, step: Callable[..., Any], *args: Any) -> Any:
    """``step(*args)`` (a generator's ``send``, ``throw`` or ``close``) in ``mode``."""
    previous = is_grad_enabled()
    _set(mode)
    try:
        return step(*args)
    finally:
        _set(previous)


def _resumed_in_mode(gen: Any, mode: bool) -> Generator[Any, Any, Any]:
    """Drive ``gen`` (a generator, or a coroutine's ``await`` protocol) one step at a time in
    ``mode``, passing what it yields up to the caller, and what the caller sends or throws
    down to it, in the caller's mode."""
    step, argument = gen.send, None
    while True:
        try:
            value = _step_in_mode(mode, step, argument)
        except StopIteration as stop:
            return stop.value
        try:
            argument = yield value
            step = gen.send
        except GeneratorExit:
            _step_in_mode(mode, gen.close)
            raise
        except BaseException as error:  # noqa: BLE001  (thrown in by the caller: passed on)
            step, argument = gen.throw, error


class _Awaiting:
    """``await``-able running the coroutine ``coro`` in ``mode`` at each resumption."""

    def __init__(self, coro: Any, mode: bool) -> None:
        self.coro, self.mode = coro, mode

    def __await__(self) -> Generator[Any, Any, Any]:
        return _resumed_in_mode(self.coro, self.mode)


def _async_generator_in_mode(fn: Callable[..., Any], mode: bool) -> Callable[..., Any]:
    @functools.wraps(fn)
    async def async_generator_in_mode(*args: Any, **kwargs: Any) -> Any:
        agen = fn(*args, **kwargs)
        step, argument = agen.asend, None
        try:
            while True:
                try:
                    value = await _Awaiting(step(argument), mode)
                except StopAsyncIteration:
                    return
                try:
                    argument = yield value
                    step = agen.asend
                except GeneratorExit:
                    raise
                except BaseException as error:  # noqa: BLE001  (passed on, as above)
                    step, argument = agen.athrow, error
        finally:
            await _Awaiting(agen.aclose(), mode)

    return async_generator_in_mode


class no_grad(_GradMode):
    """Record nothing: results of operations do not require grad.

    >>> x = sg.tensor([1.0], requires_grad=True)
    >>> with sg.no_grad():
    ...     y = x * 2
    >>> y.requires_grad
    False
    >>> @sg.no_grad()
    ... def doubled(t):
    ...     return t * 2
    >>> doubled(x).requires_grad
    False
    """

    mode = False


class enable_grad(_GradMode):
    """Record again, e.g. inside a function called under ``no_grad``.

    >>> x = sg.tensor([1.0], requires_grad=True)
    >>> with sg.no_grad():
    ...     with sg.enable_grad():
    ...         y = x * 2
    >>> y.requires_grad
    True
    """

    mode = True


class set_grad_enabled(_GradMode):
    """Set grad mode to ``flag``. Like PyTorch, calling it as a plain function takes effect
    at once; used in ``with`` or as a decorator, the previous mode comes back afterwards.

    >>> x = sg.tensor([1.0], requires_grad=True)
    >>> with sg.set_grad_enabled(False):
    ...     (x * 2).requires_grad
    False
    >>> sg.is_grad_enabled()
    True
    """

    def __init__(self, flag: bool) -> None:
        self.mode = bool(flag)
        self._before_call = is_grad_enabled()
        _set(self.mode)

    def __enter__(self) -> None:
        self._previous = self._before_call
        _set(self.mode)

    def __call__(self, fn: F) -> F:
        _set(self._before_call)  # used as a decorator: only the decorated calls change mode
        return super().__call__(fn)
