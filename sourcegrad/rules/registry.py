"""The one table of derivative rules.

A rule is a class named after its primitive, holding small ``def``s with a single
``return``::

    @rule(np.tanh)
    class tanh:
        def vjp_x(g, ans, x):
            return g * (1 - ans * ans)

        def jvp_x(t, ans, x):
            return t * (1 - ans * ans)

``vjp_<param>`` maps the output's cotangent ``g`` to the cotangent of parameter ``<param>``;
``jvp_<param>`` maps the tangent ``t`` of ``<param>`` to its contribution to the output's
tangent (the contributions of several parameters are added). The parameters after ``g``/``t``
and ``ans`` spell the primitive's own signature, keyword parameters with their defaults.

The same ``def`` serves three users: the runtime layer *calls* it, the source transformer
*inlines* its return expression into generated code (reverse and forward mode alike), and
the tests check it against finite differences. No derivative is written twice.

Class attributes:

- ``nondiff``: parameters that have no derivative by nature (integer indices, shapes, axes
  passed positionally); a differentiated value reaching any other parameter that lacks a
  rule is an error, never a silent zero.
- ``unsupported``: parameters that do have a derivative, which sourcegrad does not compute
  (a norm's float ``ord``): a differentiated value reaching one is refused, naming it.
- ``linear``: the primitive is linear in its (single) differentiable parameter, so its JVP
  is the primitive applied to the tangent; ``jvp_*`` may then be omitted.
- ``torch_name``: the stem PyTorch gives the node (``Mul`` for ``MulBackward0``).
- ``sequence_output``: the primitive returns (or may return) a tuple or a list, so
  cotangents of its result are added element by element.
- ``sequence_params``: parameters that take (or may take) a list or tuple whose cotangent is
  then a list: reverse mode adds the cotangents of a variable passed there element by
  element (``add_grads``), not with ``+``, which would concatenate them.

Structured values:

- A parameter that takes a list of arrays (``np.concatenate(arrays)``, ``np.stack``...):
  its ``vjp_`` returns a *list* of cotangents, one per element; its tangent ``t`` is a list
  of tangents, zeros materialized.
- A primitive that returns a tuple or list (``np.split``, ``np.linalg.eigh``...): ``g`` is
  a tuple/list of cotangents of the same structure, zeros materialized by the caller (never
  ``None``); its ``jvp_`` returns a tuple of the same structure.
- One variadic parameter (``np.einsum(subscripts, *operands)``): the rule spells it
  ``*operands`` and the record names it in ``Rule.varargs``. ``vjp_operands`` returns a tuple
  with one cotangent per operand; ``jvp_operands`` receives a tuple ``t`` with one tangent
  per operand (``None`` where it is zero) and returns the whole output tangent.

Free names: a rule's expression may use its own parameters, ``np``, ``math``, Python's
builtins and the public helpers of ``support``, nothing else (checked at registration), so
that generated code needs only ``import math``, ``import numpy as np`` and ``support``.
"""

from __future__ import annotations

import ast
import builtins
import functools
import hashlib
import inspect
import linecache
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import FunctionType
from typing import Any

from ..codegen.clone import clone
from ..codegen.walk import walk
from . import support

_RULE_KINDS = ("vjp", "jvp")
# Names a rule's expression may use besides its parameters (see the module docstring).
_ALLOWED_FREE_NAMES = frozenset(
    {"np", "math"}
    | {n for n in dir(support) if not n.startswith("_") and n not in ("np", "math")}
    | set(dir(builtins))
)


@dataclass(eq=False)
class Rule:
    """Everything sourcegrad knows about differentiating one primitive."""

    name: str
    primitives: tuple[Any, ...]
    params: tuple[str, ...]
    defaults: dict[str, Any]
    vjps: dict[str, FunctionType] = field(default_factory=dict)
    jvps: dict[str, FunctionType] = field(default_factory=dict)
    nondiff: frozenset[str] = frozenset()
    unsupported: frozenset[str] = frozenset()  # a derivative exists, but no rule computes it
    linear: bool = False
    torch_name: str | None = None
    sequence_output: bool = False  # returns a tuple or list (np.split, np.linalg.eigh...)
    sequence_params: frozenset[str] = frozenset()  # take lists (np.concatenate's arrays...)
    fingerprint: str = ""
    varargs: str | None = None

    @property
    def diff_params(self) -> tuple[str, ...]:
        """Parameters that carry a derivative, in signature order."""
        return tuple(p for p in self.params if p in self.vjps or p in self.jvps)


    def has_jvp(self, param: str) -> bool:
        return param in self.jvps or (self.linear and param in self.vjps)


# Bumped by every change to RULES or NONDIFF (see ``generation``).
_GENERATION = [0]
# Called after every change (see ``on_change``).
_LISTENERS: list[Callable[[], None]] = []


def changed() -> None:
    """Record that the table changed: cached derivatives made before are stale."""
    _GENERATION[0] += 1
    for listener in _LISTENERS:
        listener()


def on_change(listener: Callable[[], None]) -> None:
    """Call ``listener()`` after every change to the table: for a cache used so often that
    even comparing ``generation()`` on each use costs (the runtime's per-operation plans)."""
    _LISTENERS.append(listener)


def generation() -> int:
    """A number that changes whenever the table does: a cheap check for the in-memory cache
    (``table_version`` hashes every rule, too slow to ask on each request)."""
    return _GENERATION[0]


class _Table(dict):
    """A dict that counts its every change in ``generation``, however it is written to
    (registration, user rules, tests restoring the table), so no cached derivative outlives
    the rule it was made with."""

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, value)
        changed()

    def __delitem__(self, key: Any) -> None:
        super().__delitem__(key)
        changed()

    def __ior__(self, other: Any) -> _Table:
        self.update(other)
        return self

    def pop(self, *args: Any) -> Any:
        value = super().pop(*args)
        changed()
        return value

    def popitem(self) -> tuple[Any, Any]:
        item = super().popitem()
        changed()
        return item

    def clear(self) -> None:
        super().clear()
        changed()

    def update(self, *args: Any, **kwargs: Any) -> None:
        super().update(*args, **kwargs)
        changed()

    def setdefault(self, key: Any, default: Any = None) -> Any:
        value = super().setdefault(key, default)
        changed()
        return value


# primitive object -> Rule. Keyed by identity of the function object (np.tanh, math.sin, ...).
RULES: dict[Any, Rule] = _Table()
# Functions whose output carries no derivative (shape queries, constructors, argmax, ...).
NONDIFF: dict[Any, str] = _Table()


def _primitive_key(fn: Any) -> Any:
    return fn


def _single_return(fn: FunctionType) -> ast.expr:
    """The expression of a rule's sole ``return``; rules must be inlinable."""
    if fn in _PARSED:
        return _PARSED[fn]
    fdef = _function_ast(fn)
    body = [s for s in fdef.body if not _is_docstring(s)]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        raise TypeError(
            f"rule {fn.__qualname__} must consist of a single `return <expression>` so that it "
            "can be inlined into generated code"
        )
    _PARSED[fn] = body[0].value
    return body[0].value


def _function_ast(fn: FunctionType) -> ast.FunctionDef:
    """``fn``'s ``def``, found in its module's syntax tree (parsed once for all the rules it
    holds: ``inspect.getsource`` per rule made importing the table slow)."""
    node = _defs_in(fn.__code__.co_filename).get(fn.__code__.co_firstlineno)
    if node is not None and node.name == fn.__name__:
        return node
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    fdef = tree.body[0]
    assert isinstance(fdef, ast.FunctionDef)
    return fdef


@functools.cache
def _defs_in(filename: str) -> dict[int, ast.FunctionDef]:
    text = "".join(linecache.getlines(filename))
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return {}
    return {n.lineno: n for n in walk(tree)
            if isinstance(n, ast.FunctionDef) and not n.decorator_list}


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(
        stmt.value.value, str
    )


def _check_free_names(fn: FunctionType, expr: ast.expr, params: tuple[str, ...]) -> None:
    """Refuse a rule whose expression would not run once inlined into generated code."""
    bound = {n.id for n in walk(expr) if isinstance(n, ast.Name) and not isinstance(
        n.ctx, ast.Load)}
    used = {n.id for n in walk(expr) if isinstance(n, ast.Name) and isinstance(
        n.ctx, ast.Load)}
    unknown = sorted(used - bound - set(params) - _ALLOWED_FREE_NAMES)
    if unknown:
        raise TypeError(
            f"rule {fn.__qualname__} uses {', '.join(unknown)}: a rule may only use its "
            "parameters, np, math, builtins and the helpers of sourcegrad.rules.support"
        )


_SIGNATURES: dict[FunctionType, inspect.Signature] = {}


def rule_signature(fn: FunctionType) -> inspect.Signature:
    """``inspect.signature(fn)`` of a rule function, worked out once: registration needs it,
    and so does inlining the rule (where it was a noticeable part of the first
    transformation in a process)."""
    if fn not in _SIGNATURES:
        _SIGNATURES[fn] = inspect.signature(fn)
    return _SIGNATURES[fn]


def _varargs_of(fn: FunctionType) -> str | None:
    for name, p in rule_signature(fn).parameters.items():
        if p.kind is inspect.Parameter.VAR_POSITIONAL:
            return name
    return None


def _params_of(fn: FunctionType, kind: str) -> tuple[tuple[str, ...], dict[str, Any]]:
    sig = rule_signature(fn)
    names = list(sig.parameters)
    expected_head = ["g", "ans"] if kind == "vjp" else ["t", "ans"]
    if names[:2] != expected_head:
        raise TypeError(
            f"rule {fn.__qualname__} must start with parameters ({', '.join(expected_head)}, ...)"
        )
    params = tuple(names[2:])
    defaults = {
        n: p.default
        for n, p in sig.parameters.items()
        if p.default is not inspect.Parameter.empty
    }
    return params, defaults


def rule(*primitives: Any, torch_name: str | None = None) -> Callable[[type], Rule]:
    """Register the class below as the derivative rule of ``primitives`` (aliases allowed;
    ``None`` entries, for functions this Python or NumPy lacks, are skipped)."""
    primitives = tuple(p for p in primitives if p is not None)

    def register(cls: type) -> Rule:
        methods = {
            name: fn
            for name, fn in vars(cls).items()
            if isinstance(fn, FunctionType) and name.split("_", 1)[0] in _RULE_KINDS
        }
        signatures = {}
        vjps: dict[str, FunctionType] = {}
        jvps: dict[str, FunctionType] = {}
        for name, fn in methods.items():
            kind, param = name.split("_", 1)
            signatures[name] = _params_of(fn, kind)
            head = ("g", "ans") if kind == "vjp" else ("t", "ans")
            _check_free_names(fn, _single_return(fn), head + signatures[name][0])
            (vjps if kind == "vjp" else jvps)[param] = fn
        if not signatures:
            raise TypeError(f"rule {cls.__name__} defines no vjp_*/jvp_* method")
        (params, defaults), *others = signatures.values()
        for other_params, _ in others:
            if other_params != params:
                raise TypeError(f"rule {cls.__name__}: every method must share one signature")
        for param in [*vjps, *jvps]:
            if param not in params:
                raise TypeError(f"rule {cls.__name__}: {param!r} is not a parameter")
        record = Rule(
            name=cls.__name__,
            primitives=tuple(primitives),
            params=params,
            defaults=defaults,
            vjps=vjps,
            jvps=jvps,
            nondiff=frozenset(getattr(cls, "nondiff", ())),
            unsupported=frozenset(getattr(cls, "unsupported", ())),
            linear=bool(getattr(cls, "linear", False)),
            torch_name=torch_name or getattr(cls, "torch_name", None),
            sequence_output=bool(getattr(cls, "sequence_output", False)),
            sequence_params=frozenset(getattr(cls, "sequence_params", ())),
            fingerprint=_fingerprint(methods.values()),
            varargs=_varargs_of(next(iter(methods.values()))),
        )
        for prim in primitives:
            RULES[_primitive_key(prim)] = record
            NONDIFF.pop(_primitive_key(prim), None)
        return record

    return register


def nondifferentiable(*functions: Any, reason: str = "") -> None:
    """Declare functions whose results carry no derivative (``np.argmax``, ``np.zeros``...)."""
    for fn in functions:
        if fn is not None:
            NONDIFF[_primitive_key(fn)] = reason


def lookup(fn: Any) -> Rule | None:
    try:
        return RULES.get(_primitive_key(fn))
    except TypeError:  # unhashable callables
        return None


def is_nondifferentiable(fn: Any) -> bool:
    try:
        return _primitive_key(fn) in NONDIFF
    except TypeError:
        return False


_PARSED: dict[FunctionType, ast.expr] = {}


def rule_expression(fn: FunctionType) -> ast.expr:
    """A fresh copy of the rule's return expression, ready to be substituted and inlined."""
    return clone(shared_rule_expression(fn))


def shared_rule_expression(fn: FunctionType) -> ast.expr:
    """The rule's return expression itself, for readers that never change it (no copy)."""
    if fn not in _PARSED:
        _PARSED[fn] = _single_return(fn)
    return _PARSED[fn]


def _fingerprint(functions: Iterable[FunctionType]) -> str:
    """What the rules compute: their parsed expressions (edits to comments or layout do not
    count, edits to the maths do)."""
    digest = hashlib.sha256()
    for fn in functions:
        digest.update(fn.__qualname__.encode())
        digest.update(ast.dump(_single_return(fn)).encode())
    return digest.hexdigest()[:16]


def table_version() -> str:
    """A hash of every registered rule: part of each cache key, so editing a rule invalidates."""
    digest = hashlib.sha256()
    for record in sorted({id(r): r for r in RULES.values()}.values(), key=lambda r: r.name):
        digest.update(record.name.encode())
        digest.update(record.fingerprint.encode())
    return digest.hexdigest()[:16]
