"""``sourcegrad emit --jit``: the emitted module's functions compiled by ``@numba.njit``.

The module ``emit.module_text`` writes is made Numba's: each generated function is spelt as
Numba compiles it (``cleanup.numba_spelling``: no ``del``, no ``reversed(range(...))``) and
decorated with ``@numba.njit``, as is each function of the user's it copies; the helpers it
copies stay plain Python, and each gets its compiled form (``forms.py``, copied by its source)
registered with ``numba.extending.overload``, so that any argument shape works. The module
then imports NumPy, Numba and the standard library only.
"""

from __future__ import annotations

import inspect

from ..codegen import printer
from ..emit import EmitError
from . import cleanup, forms, source

IMPORTS = "import numba\nfrom numba.core import types\nfrom numba.extending import overload\n"
_SUPPORT = (forms._is_number, forms._omitted)  # what the forms call
RESERVED = ("numba", "types", "overload", *[f.__name__ for f in _SUPPORT])
DECORATOR = "@numba.njit\n"


def check_names(bound: dict[str, object]) -> None:
    """The names the Numba part of the module needs must be free."""
    taken = [n for n in RESERVED if n in bound] + [
        f"{n}_form" for n in forms.FORMS if f"{n}_form" in bound]
    if taken:
        raise EmitError(f"the module would need the name `{taken[0]}` for Numba, and the "
                        "derivative already uses it; emit without --jit, or rename it")


def generated(text: str) -> str:
    """A generated function's text as Numba compiles it, decorated."""
    fdef = source.parse_with_comments(text)
    cleanup.numba_spelling(fdef)
    return DECORATOR + printer.to_source(fdef)


def user(text: str) -> str:
    return DECORATOR + text


def helper_forms(helpers: dict[str, str], called: set[str]) -> str:
    """The compiled forms of the helpers the module copies (``usual name -> its name in the
    module``) that generated code calls (``called``: names in the module), registered with
    Numba; a helper without one is refused. (The helpers that only other helpers read are
    never compiled: Numba runs the forms in their place.)"""
    functions = {usual: module_name for usual, module_name in helpers.items()
                 if module_name in called}
    missing = sorted(n for n in functions if n not in forms.FORMS)
    if missing:
        raise EmitError(f"the helper `{missing[0]}` has no form Numba compiles; emit without "
                        "--jit (sg.jit compiles such derivatives when the shapes are known)")
    parts = ["# -- the helpers in forms Numba compiles (sourcegrad/jit/forms.py) " + "-" * 27]
    parts += [inspect.getsource(f) for f in _SUPPORT]
    for usual in sorted(functions):
        parts.append(forms.form_source(usual))
    parts.append("".join(f"overload({functions[n]}, prefer_literal=True)({n}_form)\n"
                         for n in sorted(functions)))
    return "\n\n".join(p.rstrip("\n") + "\n" for p in parts)
