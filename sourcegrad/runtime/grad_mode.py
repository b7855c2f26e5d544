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
import threading
from collections.abc import Callable
from typing import Any, TypeVar


class _ThreadState(threading.local):
    enabled = True  # each new thread starts with grad mode on


_state = _ThreadState()
THREADS_WITHOUT_GRAD = [0]
_count_lock = threading.Lock()

F = TypeVar("F", bound=Callable[..., Any])


def is_grad_enabled() -> bool:
    """True when operations on tensors that require grad are recorded (this thread)."""
    return not THREADS_WITHOUT_GRAD[0] or _state.enabled


def _set(flag: bool) -> None:
    flag = bool(flag)
    with _count_lock:  # (``+=`` on the count is not atomic between threads)
        if flag != _state.enabled:
            THREADS_WITHOUT_GRAD[0] += -1 if flag else 1
        _state.enabled = flag


class _GradMode:
    """Switches grad mode to ``self.mode`` inside a ``with`` block or a decorated call."""

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
        mode = self.mode

        @functools.wraps(fn)
        def with_mode(*args: Any, **kwargs: Any) -> Any:
            previous = is_grad_enabled()
            _set(mode)
            try:
                return fn(*args, **kwargs)
            finally:
                _set(previous)

        return with_mode  # type: ignore[return-value]


class no_grad(_GradMode):
    """Record nothing: results of operations do not require grad."""

    mode = False


class enable_grad(_GradMode):
    """Record again, e.g. inside a function called under ``no_grad``."""

    mode = True


class set_grad_enabled(_GradMode):
    """Set grad mode to ``flag``. Like PyTorch, calling it as a plain function takes effect
    at once; used in ``with`` or as a decorator, the previous mode comes back afterwards."""

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
