"""``sg.jit``: generated derivatives (and the user's NumPy functions) compiled with Numba,
specialised to the argument types and shapes of the first call (CONTRACT section 1b).

Numba is the optional extra ``jit`` (``pip install 'sourcegrad[jit]'``) and is imported only
when ``sg.jit`` is called. The modules:

    specialise.py  the reusable pass: generated code + argument shapes -> specialised code
    abstract.py    what is known of each value (shape, dtype) and NumPy's rules for results
    helpers.py     what each helper of rules/support.py is for known shapes
    cleanup.py     dead values and stacks, preallocated stacks, Numba's spelling
    source.py      a generated function read back (tree, comments, namespace, user lines)
    forms.py       the helpers left, in forms Numba compiles (overloads)
    compiler.py    JitFunction: per-signature compilation, fallback with a JitWarning
    emit.py        ``sourcegrad emit --jit``: a module of @numba.njit functions

``sg.jit`` composes with the runtime this way: ``sg.jit(sg.differentiable(f))`` (or
``@sg.jit`` above ``@sg.differentiable``) runs ``f`` compiled on arrays, and on tensors
records one node whose forward and adjoint run compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import JitError, JitWarning

__all__ = ["JitError", "JitWarning", "jit"]

INSTALL = "pip install 'sourcegrad[jit]'"


def jit(fn: Callable | None = None, *, fallback: bool = True) -> Any:
    """``fn`` compiled with Numba at the first call of each argument signature (types, and
    shapes and dtypes of arrays), returning what ``fn`` returns. ``fn`` may be a derivative
    sourcegrad generated (``sg.grad``, ``sg.value_and_grad``, forward-mode code), the user's
    own NumPy function, or a ``@sg.differentiable`` function.

    Where ``fn`` cannot be compiled, one ``sg.JitWarning`` per reason names the user's line
    and the reason, and ``fn`` runs uncompiled; ``fallback=False`` raises ``JitError`` (a
    ``sg.SourcegradError``) instead.

    >>> def loss(w):
    ...     total = 0.0
    ...     for i in range(100):
    ...         total = total + np.sin(w * i)
    ...     return total
    >>> fast = sg.jit(sg.grad(loss))
    >>> bool(np.isclose(fast(0.3), sg.grad(loss)(0.3)))
    True
    """
    try:
        import numba  # noqa: F401
    except ImportError as error:
        raise ImportError(
            f"sg.jit compiles with Numba, which is not installed ({error}); install the "
            f"optional extra `jit`: {INSTALL}") from None
    if fn is None:
        return lambda f: jit(f, fallback=fallback)
    from .compiler import jit as compile_lazily

    return compile_lazily(fn, fallback)
