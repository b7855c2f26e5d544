"""What ``fun`` may be (CONTRACT 1a), and how its derivative is called the way ``fun`` is.

A ``functools.partial``, a bound method (``self`` or ``cls`` bound), a callable instance (its
``__call__`` bound to it), and the functions ``sg.grad`` returns for them, are all one
function with some arguments bound in front or by keyword: the function is differentiated
(its generated code has its own full signature, readable as it is), and the derivative is
called with the same arguments bound. Bound arguments are constants unless ``wrt`` names
them.

``*args`` and ``**kwargs`` parameters are differentiated as the tuple and dict they are; an
int ``wrt`` counts positional arguments as the call passes them, so ``wrt=2`` of ``def
f(x, *args)`` is ``args[1]``, picked out of the gradient of ``args`` when the call is made.
"""

from __future__ import annotations

import functools
import inspect
import types
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .frontend import forms
from .presentation import Description, Presentable


@dataclass(frozen=True)
class Pick:
    """Where one requested gradient comes from: a parameter, or an element of ``*args``
    (``index``: the position the call passes it at) or of ``**kwargs`` (``key``)."""

    param: str
    index: int | None = None
    key: str | None = None
    position: int = 0  # in the tuple of gradients the generated function returns


@dataclass
class Form:
    """``fun`` as a function plus the arguments bound in front of and beside the call's."""

    function: types.FunctionType
    bound: tuple = ()
    keywords: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    @property
    def plain(self) -> bool:
        return not self.bound and not self.keywords

    def signature(self) -> inspect.Signature:
        return inspect.signature(self.function)

    def visible(self) -> list[inspect.Parameter]:
        """The parameters the caller passes, as ``inspect`` shows them for the partial (bound
        keywords, and the parameters after them, keyword-only with defaults)."""
        if self.plain:
            return _parameters(self.function)
        partial = functools.partial(self.function, *self.bound, **self.keywords)
        return list(inspect.signature(partial).parameters.values())

    def _bound_into_varargs(self) -> int:
        """How many bound positional arguments went past the named parameters into
        ``*args``: the call's own start after them."""
        named = [p for p in self.signature().parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        return max(0, len(self.bound) - len(named))

    def picks(self, wrt: Any) -> tuple[list[Pick], bool]:
        """One ``Pick`` per requested gradient, and whether one gradient (not a tuple) was
        asked for."""
        single = not isinstance(wrt, (tuple, list))
        items = [wrt] if single else list(wrt)
        return [self._pick(item) for item in items], single

    def _pick(self, item: Any) -> Pick:
        if isinstance(item, bool) or not isinstance(item, (int, str)):
            raise TypeError(f"wrt must be an int, a str or a tuple of them; got {item!r}")
        params = self.visible()
        names = [p.name for p in params]
        var = next((p for p in params if p.kind == p.VAR_POSITIONAL), None)
        kw = next((p for p in params if p.kind == p.VAR_KEYWORD), None)
        positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY,
                                                          p.POSITIONAL_OR_KEYWORD)]
        if isinstance(item, str):
            if item in names and item not in (getattr(var, "name", None),
                                              getattr(kw, "name", None)):
                return Pick(item)
            if item in names or kw is not None:
                if item in names and var is not None and item == var.name:
                    return Pick(item)  # the whole *args tuple
                if item in names and kw is not None and item == kw.name:
                    return Pick(item)
                return Pick(kw.name, key=item)
            raise ValueError(f"{self.label} has no parameter named {item!r}; its "
                             f"parameters are {', '.join(names)}")
        if var is None:
            if not -len(positional) <= item < len(positional):
                raise ValueError(f"wrt={item} is out of range for {self.label}"
                                 f"{tuple(positional)}")
            return Pick(positional[item])
        if item < 0:
            raise ValueError(f"wrt={item}: a negative position is ambiguous for "
                             f"{self.label}, which takes *{var.name}; count from the front")
        if item < len(positional):
            return Pick(positional[item])
        return Pick(var.name, index=item - len(positional) + self._bound_into_varargs())


_PARAMETERS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _parameters(function: types.FunctionType) -> list[inspect.Parameter]:
    """``function``'s parameters (``inspect.signature`` is slow to ask at every call), kept
    while the function lives and its code and defaults stay."""
    key = (function.__code__, function.__defaults__, function.__kwdefaults__)
    known = _PARAMETERS.get(function)
    if known is None or any(a is not b for a, b in zip(known[0], key, strict=True)):
        known = _PARAMETERS[function] = (key, list(inspect.signature(function).parameters
                                                   .values()))
    return known[1]


def form_of(fun: Any) -> Form:
    """``fun`` as a ``Form``; ``TypeError`` naming what it is when it is none of the forms."""
    if type(fun) is types.FunctionType and "__wrapped__" not in fun.__dict__ and (
            "__sourcegrad_function__" not in fun.__dict__):
        return Form(fun, label=fun.__qualname__)  # the common case, without the search
    bound: tuple = ()
    keywords: dict[str, Any] = {}
    label = getattr(fun, "__qualname__", None) or getattr(fun, "__name__", None) or repr(fun)
    target = fun
    for _ in range(100):
        if isinstance(target, Derivative):
            bound = target.form.bound + bound
            keywords = {**target.form.keywords, **keywords}
            target = target.generated
        elif isinstance(target, functools.partial):
            bound = tuple(target.args) + bound
            keywords = {**target.keywords, **keywords}
            target = target.func
        elif isinstance(target, types.MethodType):
            bound = (target.__self__, *bound)
            target = target.__func__
        elif isinstance(target, (staticmethod, classmethod)):
            target = target.__func__
        elif isinstance(target, types.FunctionType):
            unwrapped = inspect.unwrap(target)
            inner = getattr(unwrapped, "__sourcegrad_function__", None)
            if inner is not None and inner is not target:
                target = inner
                continue
            return Form(unwrapped, bound, keywords, forms.identifier(unwrapped)
                        if forms.is_lambda(unwrapped) else label)
        elif getattr(target, "__sourcegrad_function__", None) is not None:
            target = target.__sourcegrad_function__
        elif (wrapper := _primitive_function(target)) is not None:  # np.cos as a value
            return Form(wrapper, bound, keywords, label)
        elif isinstance(_inherited_call(target), types.FunctionType):
            bound = (target, *bound)
            target = _inherited_call(target)
        else:
            break
    raise TypeError(
        f"sourcegrad differentiates Python functions (a def, a lambda, a functools.partial, "
        f"a bound method or a callable instance); got {type(fun).__name__} {fun!r}")


_PRIMITIVES: dict[int, tuple[Any, types.FunctionType]] = {}


def _primitive_function(target: Any) -> types.FunctionType | None:
    """A NumPy function with a rule, handed over as a value (``for f in [np.sin, np.cos]``):
    ``def cos(x): return np.cos(x)``, made once."""
    from .frontend.nesting import synthesized_function
    from .rules.registry import lookup

    try:
        rule = lookup(target)
    except TypeError:
        return None
    if rule is None:
        return None
    known = _PRIMITIVES.get(id(target))
    if known is not None and known[0] is target:
        return known[1]
    count = getattr(target, "nin", None) or len(
        [p for p in rule.params if p not in rule.defaults])
    params = list(rule.params)[:count]
    fname = forms.identifier(target)
    spelled = f"np.{fname}" if getattr(np, fname, None) is target else "primitive"
    text = f"def {fname}({', '.join(params)}):\n    return {spelled}({', '.join(params)})\n"
    made = synthesized_function(fname, text, {"primitive": target}, np)
    _PRIMITIVES[id(target)] = (target, made)
    return made


def _inherited_call(instance: Any) -> Any:
    """The ``__call__`` a callable instance's class defines or inherits."""
    for klass in type(instance).__mro__:
        if "__call__" in vars(klass):
            return vars(klass)["__call__"]
    return None


class Derivative(Presentable):
    """A generated derivative called as ``fun`` is: the bound arguments put back in front
    and beside the call's, and gradients of ``*args``/``**kwargs`` elements picked out;
    ``describe`` says what it is (``presentation``)."""

    def __init__(self, generated: Callable, form: Form, picks: list[Pick] | None = None,
                 single: bool = True, shape: Callable[[Any, Callable], Any] | None = None,
                 *, describe: Description | Callable[[], Description]):
        self._describe = describe
        self.generated = generated
        self.form = form
        self._picks = picks
        self._single = single
        self._shape = shape  # where the gradients sit in the result: (result, pick) -> result
        self.source = getattr(generated, "source", None)
        self.__name__ = getattr(generated, "__name__", "derivative")
        self.__qualname__ = self.__name__
        self.__doc__ = getattr(form.function, "__doc__", None)
        self.__wrapped_fun__ = form.function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        result = self.generated(*self.form.bound, *args, **{**self.form.keywords, **kwargs})
        if self._picks is None or self._shape is None:
            return result
        return self._shape(result, self._pick)

    def _pick(self, grads: tuple) -> Any:
        """The requested gradients out of the tuple of one per differentiated parameter."""
        out = []
        for pick in self._picks or ():
            g = grads[pick.position]
            if pick.index is not None:
                g = g[pick.index]
            elif pick.key is not None:
                g = g[pick.key]
            out.append(g)
        return out[0] if self._single else tuple(out)

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.Signature(self.form.visible())


def gradients_last(result: Any, pick: Callable[[Any], Any]) -> Any:
    """``grad``: the result is the gradient(s)."""
    return pick(result)


def gradients_after_value(result: Any, pick: Callable[[Any], Any]) -> Any:
    """``value_and_grad``, and ``grad`` with ``has_aux`` (``(gradients, aux)``)."""
    first, second = result
    return first, pick(second)


def gradients_first(result: Any, pick: Callable[[Any], Any]) -> Any:
    first, second = result
    return pick(first), second
