"""How a derivative shows itself: a ``repr`` naming the user's function, and in a notebook
its generated source, highlighted (CONTRACT 2a).

Every callable sourcegrad hands back (``sg.grad``, ``sg.value_and_grad``, a ``sg.vjp``
pullback, ``sg.jacobian``, ``sg.hessian``, ``sg.hvp``, ``sg.jit``) is ``Presentable``: it
has a ``Description`` (``grad of loss(w, b) wrt w``), its ``repr`` is
``<sourcegrad grad of loss(w, b) wrt w>`` (IPython's plain-text display too), and
``_repr_html_`` (Jupyter's display) shows the description over the code it runs,
highlighted by ``highlight.html``, provenance comments dimmed.

A function sourcegrad generates is a plain Python function, and a function's ``repr`` is
fixed by its type; so the generated function is handed back inside a ``Presented``, a
``functools.partial`` with no arguments bound: calling it calls the generated function from
C, without a Python frame between the caller and the generated code (tracebacks and ``pdb``
show the same frames as before), and what it does not have itself (``__code__``,
``__globals__``, ``tangent_params``...) it reads from the generated function. Everything that
takes a function apart (``callables.form_of``, ``inspect.unwrap``, the resolver through
``__sourcegrad_function__``) finds the generated function inside.
"""

from __future__ import annotations

import functools
import html
import inspect
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import highlight
from .frontend import forms


@dataclass(frozen=True)
class Description:
    """What a derivative is: ``kind`` (``grad``, ``jacobian``, ``jit``...) of ``of`` (the
    user's function and the parameters its caller passes, ``loss(w, b)``), with respect to
    ``wrt``, with ``details`` (``has_aux``, ``checked``) after a comma."""

    kind: str
    of: str
    wrt: tuple[str, ...] = ()
    details: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = f"{self.kind} of {self.of}"
        if len(self.wrt) == 1:
            text += f" wrt {self.wrt[0]}"
        elif self.wrt:
            text += f" wrt ({', '.join(self.wrt)})"
        return ", ".join([text, *self.details])


def describe(kind: str, fun: Any, wrt: Any = None, *, has_aux: bool = False,
             checked: bool = False) -> Description:
    """The description of ``kind`` of ``fun`` with respect to ``wrt`` (as the user gave it:
    an int, a str or a tuple; ``None``: not said, as for a pullback)."""
    details = (("has_aux",) if has_aux else ()) + (("checked",) if checked else ())
    return Description(kind, label(fun), _wrt_names(fun, wrt), details)


def label(fun: Any) -> str:
    """``loss(w, b)``: ``fun``'s name (without the ``<locals>`` path of a nested function)
    and the parameters its caller passes; a derivative's own description, in parentheses."""
    if isinstance(fun, Presentable):
        return f"({fun.description})"
    from .callables import form_of

    try:
        form = form_of(fun)
        parameters = form.visible()
    except (TypeError, ValueError):
        return getattr(fun, "__qualname__", None) or repr(fun)
    function = form.function
    name = forms.identifier(function) if forms.is_lambda(function) else (
        function.__qualname__.rpartition("<locals>.")[2])
    return f"{name}({_parameter_list(parameters)})"


def _parameter_list(parameters: list[inspect.Parameter]) -> str:
    """``w, b, *args, k, **kwargs``: names only (no defaults, no annotations), and a bare
    ``*`` before keyword-only parameters when there is no ``*args``."""
    out: list[str] = []
    star = False
    for p in parameters:
        if p.kind == p.VAR_POSITIONAL:
            out.append(f"*{p.name}")
            star = True
        elif p.kind == p.VAR_KEYWORD:
            out.append(f"**{p.name}")
        elif p.kind == p.KEYWORD_ONLY and not star:
            out += ["*", p.name]
            star = True
        else:
            out.append(p.name)
    return ", ".join(out)


def _wrt_names(fun: Any, wrt: Any) -> tuple[str, ...]:
    """The parameters ``wrt`` names (``args[1]`` for an element of ``*args``); what the user
    wrote, if ``fun``'s parameters cannot say."""
    if wrt is None:
        return ()
    items = list(wrt) if isinstance(wrt, (tuple, list)) else [wrt]
    from .callables import form_of

    try:
        picks = form_of(fun).picks(items)[0]
    except (TypeError, ValueError):
        return tuple(str(item) for item in items)
    return tuple(p.param if p.index is None and p.key is None
                 else f"{p.param}[{p.index if p.key is None else repr(p.key)}]"
                 for p in picks)


def source_html(description: Description | str, source: Callable[[], str | None]) -> str:
    """The notebook view: the description over the source ``source()`` gives, highlighted;
    if it cannot be given, why."""
    try:
        text = source()
    except Exception as error:  # a display must not raise: say why there is no code
        body = f"<i>its source is not available: {html.escape(str(error).splitlines()[0])}</i>"
    else:
        body = (f'<pre style="margin: 0.3em 0 0 0; line-height: 1.3">'
                f"{highlight.html(text.rstrip())}</pre>" if text
                else "<i>its source is not available</i>")
    head = (f'<div style="font-family: monospace"><b>sourcegrad</b> '
            f"{html.escape(str(description))}</div>")
    return f'<div class="sourcegrad">{head}{body}</div>'


class Presentable:
    """A callable sourcegrad hands back, shown as what it is. Subclasses set ``_describe``
    (a ``Description``, or a function giving it when first shown: describing reads the
    user's signature, which a derivative made in a loop need not) and may say which code
    they run (``presented_source``; by default their ``source``)."""

    _describe: Description | Callable[[], Description]

    @property
    def description(self) -> Description:
        if not isinstance(self._describe, Description):
            self._describe = self._describe()
        return self._describe

    def presented_source(self) -> str | None:
        return getattr(self, "source", None)

    def __repr__(self) -> str:
        return f"<sourcegrad {self.description}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # IPython's plain text
        printer.text(repr(self))

    def _repr_html_(self) -> str:  # Jupyter's rich display
        return source_html(self.description, self.presented_source)


class Presented(Presentable, functools.partial):
    """A generated function (or a closure standing for one) as sourcegrad hands it back:
    called as it is, shown by its ``Description`` (see the module docstring)."""

    def __new__(cls, function: Callable, description: Description | Callable[[], Description],
                **attributes: Any) -> Presented:
        self = super().__new__(cls, function)
        self._describe = description
        self.__name__ = self.__qualname__ = getattr(function, "__name__", "derivative")
        self.__module__ = getattr(function, "__module__", None)
        self.__doc__ = getattr(function, "__doc__", None)
        self.__wrapped__ = function  # found by inspect.unwrap (inspect.getsource, sg.jit)
        self.__dict__.update(attributes)
        return self

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self.func)

    def __getattr__(self, name: str) -> Any:
        """What the generated function has (``__code__``, ``source``, ``tangent_params``)."""
        if name.startswith("_repr_") or name == "_ipython_canary_method_should_not_exist_":
            raise AttributeError(name)  # display protocols: the class answers, or nobody
        return getattr(self.func, name)

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        """Bound as a function is, when stored on a class."""
        return self if instance is None else types.MethodType(self, instance)

    def __copy__(self) -> Presented:
        return self  # as a function is copied

    def __deepcopy__(self, memo: dict) -> Presented:
        return self

    def __reduce__(self) -> Any:
        raise TypeError(f"{self!r} cannot be pickled: it is code generated in this process")


_PRESENTED = "__sourcegrad_presented__"  # on a function: its Presented


def present(function: Callable, description: Description | Callable[[], Description],
            **attributes: Any) -> Presented:
    """``function`` as sourcegrad hands it back (``Presented``), with ``attributes`` of its
    own (``__sourcegrad_function__``: what the resolver differentiates when user code calls
    it, if not ``function``'s own); ``description`` may be a function giving it, to be
    asked only when it is shown.

    Made once per function and kept on it: asking for a derivative again (``sg.grad(f)`` in
    a loop) gives the same object, as it gave the same generated function, at the cost of a
    dictionary lookup. (The two refer to each other, so a derivative nobody holds any more
    is freed by the garbage collector rather than at once.)"""
    presented = kept(function)
    if presented is None:
        presented = function.__dict__[_PRESENTED] = Presented(function, description,
                                                              **attributes)
    return presented


def kept(function: Callable) -> Presented | None:
    """The ``Presented`` made of ``function`` before, if any (without describing it again:
    the fast path of ``sg.grad(f)`` asked again)."""
    presented = function.__dict__.get(_PRESENTED)
    if presented is not None and presented.func is function:  # not copied by functools.wraps
        return presented
    return None
