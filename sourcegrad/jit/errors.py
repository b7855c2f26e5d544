"""What ``sg.jit`` says when it cannot compile: a warning (it then runs the function
uncompiled) or, with ``fallback=False``, an error. Both name the user's line and the reason.

Importing this module does not import Numba: ``sg.JitWarning`` exists without it.
"""

from __future__ import annotations

import linecache
import re

from ..errors import SourcegradError, location


class _Located:
    """What the warning and the error carry: the reason, the user's file and line."""

    def __init__(self, message: str, reason: str = "", filename: str = "", lineno: int = 0
                 ) -> None:
        super().__init__(message)
        self.reason = reason
        self.filename = filename
        self.lineno = lineno


class JitWarning(_Located, UserWarning):
    """``sg.jit`` could not compile a function and runs it uncompiled.

    ``reason`` says why; ``filename`` and ``lineno`` point at the user's line (``lineno`` 0:
    no line is to blame, as for a function that is not Python).

    >>> import warnings
    >>> def digits(x):
    ...     return len(np.format_float_positional(x))
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     print(sg.jit(digits)(2.5))  # len("2.5"), computed uncompiled
    3
    >>> warning = caught[0].message
    >>> type(warning).__name__, warning.lineno
    ('JitWarning', 2)
    >>> print(warning)
    sg.jit cannot compile digits(float): ...
      File "...", line 2
        return len(np.format_float_positional(x))
    It runs uncompiled.
    """


class JitError(_Located, SourcegradError):
    """``sg.jit(fn, fallback=False)`` could not compile ``fn`` (see ``JitWarning``)."""


class CannotCompile(Exception):
    """Raised inside ``sg.jit`` with the reason and the user's line; turned into the warning
    or the error above."""

    def __init__(self, reason: str, filename: str = "", lineno: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.filename = filename
        self.lineno = lineno

    def message(self, what: str) -> str:
        text = f"sg.jit cannot compile {what}: {self.reason}"
        if self.filename and self.lineno:
            text += f"\n  {location(self.filename, self.lineno)}"
            line = linecache.getline(self.filename, self.lineno).strip()
            if line:
                text += f"\n    {line}"
        return text


_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def numba_reason(message: str) -> str:
    """The part of a Numba error that says what is wrong, in one line."""
    lines = [line.strip() for line in _ADDRESS.sub("", _COLOUR.sub("", message)).splitlines()]
    lines = [line for line in lines if line and not line.startswith("Failed in ")]
    if not lines:
        return "Numba could not compile it"
    first = lines[0]
    if first.startswith("No implementation of function"):
        signature = next((line[4:] for line in lines if line.startswith(">>> ")), "")
        return f"Numba has no implementation of {signature or first}"
    if first.startswith("Unknown attribute"):
        return first
    return first.rstrip(":")
