"""The project's own exceptions.

Every error raised while transforming a user's function points at the user's file and line,
quotes the offending code and says what to do instead: the user should never have to read
sourcegrad's own code to understand why their function was refused.
"""

from __future__ import annotations

import sys


class SourcegradError(Exception):
    """Base class of every error sourcegrad raises on its own account.

    >>> issubclass(sg.UnsupportedSyntaxError, sg.SourcegradError)
    True
    """


class UnsupportedSyntaxError(SourcegradError):
    """A construct the transformer cannot differentiate.

    Attributes mirror ``SyntaxError`` so that editors and tracebacks can point at the spot.

    >>> def f(x):
    ...     try:
    ...         return x * 2
    ...     finally:
    ...         pass
    >>> try:
    ...     sg.grad(f)(1.0)
    ... except sg.UnsupportedSyntaxError as error:
    ...     print(error)
    ...     print("line", error.lineno, "column", error.col_offset)
    `try` is not supported
      File "...", line 2
        try:
        ^
    Move error handling out of the differentiated function.
    line 2 column 4
    """

    def __init__(
        self,
        construct: str,
        advice: str,
        filename: str = "<unknown>",
        lineno: int = 0,
        col_offset: int = 0,
        line: str = "",
    ) -> None:
        self.construct = construct
        self.advice = advice
        self.filename = filename
        self.lineno = lineno
        self.col_offset = col_offset
        self.line = line
        super().__init__(format_located(f"{construct} is not supported", advice, filename,
                                        lineno, col_offset, line))


class NoDerivativeError(SourcegradError):
    """A call with no derivative rule and no source to differentiate.

    >>> import math
    >>> def f(x):
    ...     return math.gamma(x)
    >>> try:
    ...     sg.grad(f)(3.0)
    ... except sg.NoDerivativeError as error:
    ...     print(error)
    `math.gamma` has no derivative rule and no Python source to differentiate.
    Register one before differentiating, for example:
        @sg.defvjp(math.gamma)
        def gamma_vjp(g, ans, x):
            return ...  # the cotangent of each argument
      File "...", line 2
        return math.gamma(x)
        ^
    """

    def __init__(self, message: str, filename: str = "<unknown>", lineno: int = 0,
                 col_offset: int = 0, line: str = "") -> None:
        self.filename = filename
        self.lineno = lineno
        self.col_offset = col_offset
        self.line = line
        super().__init__(format_located(message, "", filename, lineno, col_offset, line))


class LazyBranchError(SourcegradError, TypeError):
    """Generated code asked for the truth of a lazy array (a Dask array): a Python ``if`` on
    a value of the data, which only computing the graph can answer."""


def location(filename: str, lineno: int) -> str:
    """``File "f.py", line 3``, as Python writes a place in a file; for the code of a cell
    run by IPython or Jupyter, ``Cell In[12], line 3``, as IPython writes it (its file is a
    temporary one, which names nothing the user knows)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        try:
            named = shell.compile.format_code_name(filename)
        except Exception:  # another shell's compiler, or none: Python's own form
            named = None
        if named is not None:
            return f"{named[0]} {named[1]}, line {lineno}"
    return f'File "{filename}", line {lineno}'


def format_located(headline: str, advice: str, filename: str, lineno: int, col_offset: int,
                   line: str) -> str:
    """``File "f.py", line 3`` (see ``location``) + the quoted line + a caret + advice, like
    Python's own errors."""
    parts = [headline, f"  {location(filename, lineno)}"]
    if line:
        stripped = line.rstrip()
        indent = len(stripped) - len(stripped.lstrip())
        parts.append("    " + stripped.lstrip())
        caret_at = max(col_offset - indent, 0)
        parts.append("    " + " " * caret_at + "^")
    if advice:
        parts.append(advice)
    return "\n".join(parts)
