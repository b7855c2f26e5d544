"""Grad mode: whether operations on tensors are being recorded, per thread.

Each thread starts with grad mode on, as in PyTorch, so a ``no_grad`` block in one thread
never stops another thread from recording. ``no_grad``, ``enable_grad`` and
``set_grad_enabled`` are context managers and decorators.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar


class _ThreadState(threading.local):
    enabled = True  # each new thread starts with grad mode on


_state = _ThreadState()

F = TypeVar("F", bound=Callable[..., Any])


def is_grad_enabled() -> bool:
    """True when operations on tensors that require grad are recorded (this thread)."""
    return _state.enabled


def _set(flag: bool) -> None:
    _state.enabled = bool(flag)


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
