"""What each operation in the user's code is, as far as differentiation is concerned.

``classify(expr)`` turns one right-hand side into an ``Op``: a primitive with a rule and its
arguments bound to the rule's parameter names, a call of another user function, a
non-differentiable computation, or one of the structural operations (copy, subscript,
tuple/list display). Names are looked up the way Python would at call time: locals first,
then closure, globals and builtins.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import inspect
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import FunctionType, ModuleType
from typing import Any

import numpy as np

from ..codegen.names import USER_MARK
from ..codegen.walk import names_in, nodes_with_names, walk
from ..rules import registry
from ..rules import support as helpers
from ..rules.methods import (
    ATTRIBUTES,
    BUILTINS,
    METHODS,
    NONDIFF_ATTRIBUTES,
    NONDIFF_METHODS,
    OPERATORS,
    SUBSCRIPTED,
    UNARY_OPERATORS,
)
from .source import Parsed, is_missing

# Op kinds
RULE = "rule"  # a primitive with a derivative rule
USER = "user"  # a call of another user function, differentiated from its source
NONDIFF = "nondiff"  # no derivative: the value is a constant for differentiation
COPY = "copy"  # y = x
SUBSCRIPT = "subscript"  # y = x[index]
DISPLAY = "display"  # y = (a, b) / [a, b] / {"k": a}
UNKNOWN = "unknown"  # a callable with neither rule nor source
POP = "pop"  # y = items.pop(): the last element of a list (the stacks of generated code)
FIELD = "field"  # y = x.name: a field of a namedtuple, dataclass or other object
RECORD = "record"  # y = P(w=a, b=c): a namedtuple or dataclass built (args by field name)
DYNAMIC = "dynamic"  # y = f(a, b) with f a value only the running code knows (args by position)


@dataclass
class Op:
    kind: str
    rule: registry.Rule | None = None
    args: dict[str, ast.expr] = field(default_factory=dict)  # rule parameter -> argument
    varargs: list[ast.expr] = field(default_factory=list)  # a variadic parameter's arguments
    callee: Any = None
    label: str = ""  # how the user spelled the callee, for messages
    advice: str = ""  # for UNKNOWN: what to write instead, when there is better to say
    # for RULE: a `dtype=` argument the text does not name (`x.astype(y.dtype)`): the
    # derivative passes it through `through_cast`, zero when it is an integer dtype
    cast: ast.expr | None = None

    def differentiable_args(self) -> dict[str, ast.expr]:
        """The arguments through which a derivative can flow."""
        if self.kind == RULE:
            assert self.rule is not None
            return {p: a for p, a in self.args.items() if p not in self.rule.nondiff}
        if self.kind in (USER, UNKNOWN, COPY, SUBSCRIPT, DISPLAY, POP, FIELD, RECORD, DYNAMIC):
            return dict(self.args)
        return {}


# What resolvers found, for the cache: each name and attribute chain a resolver followed
# (``("cfg", "act")`` for ``cfg.act``) -> the object it denoted. A derivative depends on
# every one of them (``cfg.act`` being ``np.sin`` or ``np.cos`` decides the code), so the
# cache keeps the derivative only while each still denotes the same object.
Resolutions = dict[tuple[str, ...], Any]
_RECORDINGS = threading.local()  # .stack: the recordings open in this thread


@contextlib.contextmanager
def recording() -> Iterator[Resolutions]:
    """Collect what the resolvers created inside the block resolve (a transformation of one
    function; its callees are transformed inside recordings of their own)."""
    found: Resolutions = {}
    stack = _RECORDINGS.__dict__.setdefault("stack", [])
    stack.append(found)
    try:
        yield found
    finally:
        stack.pop()


class Resolver:
    def __init__(self, parsed: Parsed, local_names: set[str]) -> None:
        self.parsed = parsed
        self.locals = local_names
        self.kinds = Kinds()  # local names that hold lists or tuples, or integers
        self._memo: dict[int, tuple[ast.expr, Op]] | None = None
        stack = getattr(_RECORDINGS, "stack", None)
        self.resolved: Resolutions = stack[-1] if stack else {}

    def freeze(self) -> None:
        """The tree will not change for a while: remember each expression's ``Op`` (the
        analyses ask about the same expressions many times)."""
        self._memo = {}

    def thaw(self) -> None:
        """The tree is about to change: forget what was remembered."""
        self._memo = None

    def value_of(self, expr: ast.expr) -> Any:
        """The object a callee expression denotes, or ``None`` for a local value. Every name
        and attribute chain followed is recorded in ``resolved``."""
        chain = _chain(expr)
        if chain is None or chain[0] in self.locals:
            return None
        if len(chain) == 1 and chain[0] in self.parsed.inserted:
            return self.parsed.inserted[chain[0]]
        chain = (chain[0].removesuffix(USER_MARK), *chain[1:])  # the user's own name
        value = self.parsed.lookup(chain[0])
        value = None if is_missing(value) else value
        self.resolved.setdefault(chain[:1], value)
        for depth in range(1, len(chain)):
            if value is None:
                return None
            value = getattr(value, chain[depth], None)
            self.resolved.setdefault(chain[:depth + 1], value)
        return value

    def classify(self, expr: ast.expr) -> Op:
        if self._memo is None:
            return self._classify(expr)
        known = self._memo.get(id(expr))
        if known is None or known[0] is not expr:
            known = self._memo[id(expr)] = (expr, self._classify(expr))
        return known[1]

    def _classify(self, expr: ast.expr) -> Op:
        if isinstance(expr, (ast.Name, ast.Constant)):
            return Op(COPY, args={"x": expr}) if isinstance(expr, ast.Name) else Op(NONDIFF)
        if isinstance(expr, ast.BinOp):
            if type(expr.op) not in OPERATORS:  # & | ^ << >>: bitwise, no derivative
                return Op(NONDIFF)
            sequence = self._sequence_operation(expr)
            if sequence is not None:
                return sequence
            return self._primitive(OPERATORS[type(expr.op)], [expr.left, expr.right], [],
                                   label=type(expr.op).__name__)
        if isinstance(expr, ast.UnaryOp):
            if type(expr.op) not in UNARY_OPERATORS:
                return Op(NONDIFF)
            return self._primitive(UNARY_OPERATORS[type(expr.op)], [expr.operand], [])
        if isinstance(expr, (ast.Compare, ast.JoinedStr)):
            return Op(NONDIFF)
        if isinstance(expr, ast.BoolOp):  # `x or y` is one of its operands, chosen by truth
            return Op(UNKNOWN, label=type(expr.op).__name__.lower(), advice=_BOOL_OP,
                      args={str(i): v for i, v in enumerate(expr.values)})
        if isinstance(expr, ast.Subscript):
            return self._subscript(expr)
        if isinstance(expr, (ast.Tuple, ast.List)):
            return Op(DISPLAY, args={str(i): e for i, e in enumerate(expr.elts)})
        if isinstance(expr, ast.Dict):
            return Op(DISPLAY, args={str(i): v for i, v in enumerate(expr.values)})
        if isinstance(expr, ast.Attribute):
            return self._attribute(expr)
        if isinstance(expr, ast.Call):
            return self._call(expr)
        return Op(NONDIFF)

    def _sequence_operation(self, expr: ast.BinOp) -> Op | None:
        """``xs + ys`` and ``[x] * n`` of lists or tuples: joining and repeating, not the
        arithmetic of ``np.add``/``np.multiply``. Only where the text says so (``Kinds``):
        both operands of ``+`` sequences, one of ``*`` a sequence and the other a count (an
        array and a list add and multiply elementwise); otherwise ``None``, and the helpers
        refuse a sequence's cotangent of another length at run time."""
        kinds = self.kinds
        left, right = kinds.is_sequence(expr.left), kinds.is_sequence(expr.right)
        if isinstance(expr.op, ast.Add) and left and right:
            return self._primitive(helpers.joined, [expr.left, expr.right], [], label="+")
        if isinstance(expr.op, ast.Mult) and (left and kinds.is_count(expr.right)
                                              or right and kinds.is_count(expr.left)):
            items, n = (expr.left, expr.right) if left else (expr.right, expr.left)
            return self._primitive(helpers.repeated, [items, n], [], label="*")
        return None

    def _subscript(self, expr: ast.Subscript) -> Op:
        """``x[i]`` of an array, list, tuple or dict is an element read, whose index carries
        no derivative. A subscript of any other object is a call of its ``__getitem__``, in
        which the index is the argument: ``np.r_[x, y]`` is a concatenation with a rule,
        ``np.s_[...]`` builds an index (no derivative), and anything else has no rule, so a
        derivative reaching its index is an error, never a silent zero."""
        owner = self.value_of(expr.value)
        if _is_value(owner) or isinstance(owner, (str, bytes)):
            return Op(SUBSCRIPT, args={"x": expr.value})
        label = f"{_spelling(expr.value)}[...]"
        if registry.is_nondifferentiable(owner):
            return Op(NONDIFF, callee=owner, label=label)
        items = list(expr.slice.elts) if isinstance(expr.slice, ast.Tuple) else [expr.slice]
        directives = [i for i in items if isinstance(i, ast.Slice) or (
            isinstance(i, ast.Constant) and isinstance(i.value, str))]
        function = SUBSCRIPTED.get(owner) if _hashable(owner) else None
        if function is not None and not directives and isinstance(expr.slice, ast.Tuple):
            # the display itself is the argument: forward mode replaces it by the tangents'
            return self._primitive(function, [expr.slice], [], label=label)
        parts = [p for i in items for p in ((i.lower, i.upper, i.step)
                                            if isinstance(i, ast.Slice) else (i,))]
        args = {str(i): part for i, part in enumerate(parts) if part is not None}
        advice = _subscript_advice(owner, expr, bool(directives), function is not None)
        return Op(UNKNOWN, callee=owner, label=label, args=args, advice=advice)

    def _attribute(self, expr: ast.Attribute) -> Op:
        owner = self.value_of(expr.value)
        if isinstance(owner, (ModuleType, type)):  # np.pi, np.newaxis: constants
            return Op(NONDIFF)
        if expr.attr in NONDIFF_ATTRIBUTES:
            return Op(NONDIFF)
        if expr.attr in ATTRIBUTES:
            return self._primitive(ATTRIBUTES[expr.attr], [expr.value], [], label=expr.attr)
        if expr.attr in _ARRAY_VALUES:  # x.flat, x.mT...: an array's, without a rule
            return Op(UNKNOWN, label=f".{expr.attr}", args={"self": expr.value})
        return Op(FIELD, label=f".{expr.attr}", args={"x": expr.value})

    def _call(self, call: ast.Call) -> Op:
        func = call.func
        if isinstance(func, ast.Attribute) and _is_value(self.value_of(func.value)):
            return self._method(call, func)
        target = self.value_of(func)
        label = _spelling(func)
        if target is None:
            return self._dynamic(call, label)
        target = getattr(target, "__sourcegrad_function__", target)  # @sg.differentiable
        if _is_builtin_with_rule(target, len(call.args)):
            target = BUILTINS[target]
        if target is pow and (len(call.args) > 2 or any(k.arg == "mod" for k in call.keywords)):
            return Op(UNKNOWN, callee=pow, label=label, advice=_MODULAR_POWER,
                      args=_unknown_args(call.args, call.keywords))
        rule = registry.lookup(target)
        if rule is not None:
            return self._primitive(target, call.args, call.keywords, label=label)
        if registry.is_nondifferentiable(target) or _is_random(target):
            return Op(NONDIFF, callee=target, label=label)
        if _is_record_class(target) or target is support_fields():
            return Op(RECORD, callee=target, label=label,
                      args=_bind_fields(target, call, self.parsed))
        if isinstance(target, FunctionType) and _is_user_code(target) and _has_source(target):
            return Op(USER, callee=target, label=label,
                      args=_bind_user(target, call, self.parsed))
        if _is_bound_user_code(target):  # model.forward(x), a partial, a callable object
            return self._dynamic(call, label)
        return Op(UNKNOWN, callee=target, label=label,
                  args=_unknown_args(call.args, call.keywords),
                  advice=_ITERATING.get(target, "") if _hashable(target) else "")

    def _method(self, call: ast.Call, func: ast.Attribute) -> Op:
        name = func.attr
        if name in NONDIFF_METHODS:
            return Op(NONDIFF, label=name)
        if name == "append":
            return Op(DISPLAY, args={"0": call.args[0]} if call.args else {}, label="append")
        if name == "pop" and not call.args and not call.keywords:
            return Op(POP, args={"items": func.value}, label=".pop()")
        if name not in METHODS:
            if self.value_of(func.value) is None and not hasattr(np.ndarray, name):
                return self._dynamic(call, _spelling(func))  # self.layer(h): a method
            args = {"self": func.value, **_unknown_args(call.args, call.keywords)}
            return Op(UNKNOWN, label=f".{name}()", args=args)
        primitive, packs_varargs = METHODS[name]
        args = list(call.args)
        if packs_varargs and len(args) > 1:
            args = [ast.Tuple(elts=args, ctx=ast.Load())]
        return self._primitive(primitive, [func.value, *args], call.keywords, label=f".{name}")

    def _dynamic(self, call: ast.Call, label: str) -> Op:
        """A call of a function value (``f(x)`` with ``f`` a loop variable or an argument,
        ``obj.method(x)``): differentiated when the code runs, through ``pullback_of`` /
        ``tangent_of``. Its keyword arguments are constants."""
        if any(isinstance(a, ast.Starred) for a in call.args) or any(
                k.arg is None for k in call.keywords):
            raise self.parsed.unsupported(
                call, f"calling `{label}` with `*`/`**` arguments",
                "Pass the arguments one by one.")
        args = {str(i): a for i, a in enumerate(call.args)}
        # the function value itself: a closure over differentiated values must not pass for
        # a constant (its derivative through them is refused, never dropped)
        args["callee"] = call.func.value if isinstance(call.func, ast.Attribute) else call.func
        return Op(DYNAMIC, label=label, args=args, callee=call.func)

    def _primitive(self, primitive: Any, args: list[ast.expr], keywords: list[ast.keyword],
                   label: str = "") -> Op:
        rule = registry.lookup(primitive)
        if rule is None:
            return Op(NONDIFF) if registry.is_nondifferentiable(primitive) else Op(
                UNKNOWN, callee=primitive, label=label, args=_unknown_args(args, keywords))
        bound, varargs = self._bind(rule, args, keywords, label)
        cast = bound.get("dtype") if "dtype" in rule.params else None
        if cast is not None:
            dtype = self.dtype_named(cast)
            if helpers.discrete_dtype(dtype):
                # `x.astype(int)`, `np.sum(x, dtype=bool)`: an integer or boolean result holds
                # no derivative (a step function of the input), as in JAX and PyTorch
                return Op(NONDIFF, callee=primitive, label=label)
            if dtype is not None or isinstance(cast, ast.Constant) and cast.value is None:
                cast = None  # a dtype the text names, of values with a derivative
        return Op(RULE, rule=rule, args=bound, varargs=varargs, callee=primitive, label=label,
                  cast=cast)

    def dtype_named(self, expr: ast.expr | None) -> np.dtype | None:
        """The dtype a `dtype=` argument names where the text alone tells (`int`,
        `np.int32`, `"int64"`, a global holding one), else ``None``."""
        if expr is None:
            return None
        if isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords and (
                isinstance(expr.args[0], ast.Constant)) and self.value_of(expr.func) is np.dtype:
            expr = expr.args[0]  # np.dtype("int32")
        value = expr.value if isinstance(expr, ast.Constant) else self.value_of(expr)
        if value is None or isinstance(value, (np.ndarray, list, tuple, dict)):
            return None
        try:
            return np.dtype(value)
        except (TypeError, ValueError):
            return None

    def _bind(self, rule: registry.Rule, args: list[ast.expr], keywords: list[ast.keyword],
              label: str) -> tuple[dict[str, ast.expr], list[ast.expr]]:
        params = list(rule.params)
        variadic = getattr(rule, "varargs", None)
        bound: dict[str, ast.expr] = {}
        varargs: list[ast.expr] = []
        for i, arg in enumerate(args):
            if variadic and i >= params.index(variadic):
                varargs.append(arg)
                continue
            if i >= len(params):
                raise self._bad_call(args[0], label, f"too many positional arguments for {label}")
            bound[params[i]] = arg
        if variadic:
            bound[variadic] = ast.Tuple(elts=list(varargs), ctx=ast.Load())
        for kw in keywords:
            if kw.arg not in params:
                raise self._bad_call(kw.value, label,
                                     f"the keyword argument `{kw.arg}=` of {label}")
            bound[kw.arg] = kw.value
        if variadic:
            # the rule sees the variadic parameter as one tuple (``operands`` in einsum's rule)
            bound[variadic] = ast.Tuple(elts=list(varargs), ctx=ast.Load())
        return bound, varargs

    def _bad_call(self, node: ast.AST, label: str, what: str) -> Exception:
        return self.parsed.unsupported(
            node, what, f"sourcegrad's rule for {label} does not take this argument; pass only "
            "the arguments the rule table documents, or register your own rule with "
            "`@sg.defvjp`.",
        )


# attributes of an array that are values, not methods: any other attribute read (``p.w``) is
# a field of a namedtuple, dataclass or other object (an array's methods are called)
_ARRAY_VALUES = frozenset(
    name for name in dir(np.ndarray) if not name.startswith("_")
    and not callable(getattr(np.ndarray, name, None)))


def support_fields() -> Any:
    return helpers.fields


def _is_record_class(target: Any) -> bool:
    """A namedtuple class or a dataclass: calling it builds a structure of its arguments."""
    if not isinstance(target, type):
        return False
    return (issubclass(target, tuple) and hasattr(target, "_fields")) or (
        dataclasses.is_dataclass(target))


def _bind_fields(cls: type, call: ast.Call, parsed: Parsed) -> dict[str, ast.expr]:
    """The call's arguments by field name (``P(a, b=c)`` -> ``{"w": a, "b": c}``)."""
    if not isinstance(cls, type):  # fields(w=..., b=...): a tangent being built
        return {k.arg: k.value for k in call.keywords}
    try:
        bound = inspect.signature(cls).bind_partial(
            *call.args, **{k.arg: k.value for k in call.keywords})
    except TypeError as exc:
        raise parsed.unsupported(call, f"this call of `{cls.__name__}` ({exc})",
                                 "Fix the call's arguments.") from exc
    return dict(bound.arguments)


def _chain(expr: ast.expr) -> tuple[str, ...] | None:
    """``("cfg", "act")`` for ``cfg.act``; ``None`` for anything but a name and attributes."""
    attributes = []
    while isinstance(expr, ast.Attribute):
        attributes.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    return (expr.id, *reversed(attributes))


# builtins whose result is a list or tuple
_SEQUENCE_BUILDERS = frozenset({"list", "tuple", "sorted"})
# helpers of generated code whose result is a list when the argument at this position is
# (the code differentiated again: ``tangent_acc = zeros_like_grad(acc)``)
_STRUCTURE_KEEPING = {"zeros_like_grad": 0, "zero_slots": 0, "private_copy": 0,
                      "as_gradient": 1, "unbroadcast": 1, "broadcast_like": 1,
                      "unbroadcast_each": 1, "broadcast_each": 1, "unstack_like": 1,
                      "add_grads": 0}


@dataclass
class Kinds:
    """Local names known by their assignments to hold lists or tuples (``sequences``) or
    integers (``counts``): what ``+`` and ``*`` of them mean."""

    sequences: set[str] = field(default_factory=set)
    counts: set[str] = field(default_factory=set)
    pushed: dict[str, list[ast.expr]] = field(default_factory=dict)  # stack -> appended

    def is_sequence(self, expr: ast.expr) -> bool:
        """A display, ``list(...)``, a name in ``sequences``, a slice of one, or one joined
        or repeated."""
        if isinstance(expr, (ast.List, ast.Tuple, ast.ListComp)):
            return True
        if isinstance(expr, ast.Name):
            return expr.id in self.sequences
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and (
                expr.func.attr == "pop" and isinstance(expr.func.value, ast.Name)):
            values = self.pushed.get(expr.func.value.id)  # stack.pop(): one appended
            return bool(values) and all(self.is_sequence(v) for v in values)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
            keeping = _STRUCTURE_KEEPING.get(expr.func.id)
            if keeping is not None:
                return len(expr.args) > keeping and self.is_sequence(expr.args[keeping])
            return expr.func.id in _SEQUENCE_BUILDERS
        if isinstance(expr, ast.Subscript):
            return isinstance(expr.slice, ast.Slice) and self.is_sequence(expr.value)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            return self.is_sequence(expr.left) and self.is_sequence(expr.right)
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
            return (self.is_sequence(expr.left) and self.is_count(expr.right)
                    or self.is_sequence(expr.right) and self.is_count(expr.left))
        return False

    def is_count(self, expr: ast.expr) -> bool:
        """An integer: a literal, ``len(...)``, ``int(...)``, a name in ``counts``, or
        integer arithmetic of them."""
        if isinstance(expr, ast.Constant):
            return isinstance(expr.value, int) and not isinstance(expr.value, bool)
        if isinstance(expr, ast.Name):
            return expr.id in self.counts
        if isinstance(expr, ast.Call):
            return isinstance(expr.func, ast.Name) and expr.func.id in ("len", "int")
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult,
                                                                ast.FloorDiv)):
            return self.is_count(expr.left) and self.is_count(expr.right)
        return False


def local_kinds(fdef: ast.FunctionDef) -> Kinds:
    """The names every assignment of which is a sequence, or a count (``Kinds``): the
    largest such sets, so that a loop-carried ``acc = acc + [v]`` (after ``acc = []``) is a
    sequence. A parameter is neither (nothing says what it holds)."""
    unknown = ast.Constant(None)
    values: dict[str, list[ast.expr]] = {}
    pushed: dict[str, list[ast.expr]] = {}
    for node in nodes_with_names(fdef):  # (what holds no name binds or pushes nothing)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr == "append" and isinstance(node.func.value, ast.Name)
                and len(node.args) == 1):
            pushed.setdefault(node.func.value.id, []).append(node.args[0])
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if (
            isinstance(node, (ast.For, ast.AugAssign, ast.AnnAssign, ast.NamedExpr))) else []
        for target in targets:
            for name in names_in(target):
                if isinstance(name.ctx, ast.Store):
                    plain = isinstance(node, ast.Assign) and target is name
                    values.setdefault(name.id, []).append(node.value if plain else unknown)
    for arg in walk(fdef.args):
        if isinstance(arg, ast.arg):
            values.setdefault(arg.arg, []).append(unknown)
    kinds = Kinds(set(values), set(values), pushed)
    changed = True
    while changed:
        changed = False
        for name, assigned in values.items():
            for found, holds in ((kinds.sequences, kinds.is_sequence),
                                 (kinds.counts, kinds.is_count)):
                if name in found and not all(holds(v) for v in assigned):
                    found.discard(name)
                    changed = True
    return kinds


def _unknown_args(args: list[ast.expr], keywords: list[ast.keyword]) -> dict[str, ast.expr]:
    """Every argument of a call without a rule, keyword ones included: a derivative reaching
    any of them (``np.bincount(i, weights=x)``) must be an error, never a silent zero."""
    out = {str(i): a for i, a in enumerate(args)}
    out.update({kw.arg or f"**{i}": kw.value for i, kw in enumerate(keywords)})
    return out


def _bind_user(fn: FunctionType, call: ast.Call, parsed: Parsed) -> dict[str, ast.expr]:
    """Bind a call's arguments to the callee's parameter names (defaults are the callee's)."""
    sig = inspect.signature(fn)
    try:
        bound = sig.bind_partial(*call.args, **{k.arg: k.value for k in call.keywords})
    except TypeError as exc:
        raise parsed.unsupported(call, f"this call of `{fn.__name__}` ({exc})",
                                 "Fix the call's arguments.") from exc
    out: dict[str, ast.expr] = {}
    for param, value in bound.arguments.items():
        kind = sig.parameters[param].kind
        if kind == inspect.Parameter.VAR_POSITIONAL:  # *args: the tuple the call makes
            out[param] = ast.Tuple(elts=list(value), ctx=ast.Load())
        elif kind == inspect.Parameter.VAR_KEYWORD:  # **kwargs: the dict
            out[param] = ast.Dict(keys=[ast.Constant(k) for k in value],
                                  values=list(value.values()))
        else:
            out[param] = value
    return out


def _is_bound_user_code(target: Any) -> bool:
    """A bound method, partial or callable instance around a user function."""
    from ..callables import form_of

    if isinstance(target, (FunctionType, type)) or not callable(target):
        return False
    try:
        form = form_of(target)
    except TypeError:
        return False
    return _is_user_code(form.function)


def _is_value(base: Any) -> bool:
    """Is ``base`` (what a method call's receiver denotes; ``None`` for a local) an
    array-like value rather than a namespace such as ``np`` or a random generator?"""
    if base is None:
        return True
    return isinstance(base, (np.ndarray, np.generic, float, int, list, tuple, dict))


_BOOL_OP = ("Its value is one of its operands, chosen by their truth: write an `if` "
            "statement (or np.where) that assigns the operand you mean, and its derivative "
            "follows it.")
_LOOP_ADVICE = ("sourcegrad differentiates it as the iterable of a `for` loop or a "
                "comprehension; build the sequence with one, for example "
                "`[(a, b) for a, b in zip(xs, ys)]`.")
# What to say of builtins whose results hold their arguments' values, when a derivative
# reaches one: ``zip`` and ``enumerate`` are differentiated in a ``for`` header (``desugar``
# turns the loop into an index loop), nowhere else.
_MODULAR_POWER = (
    "`pow(base, exp, mod)` is modular exponentiation, defined for integers only. For a "
    "power of floats write `base ** exp` or `pow(base, exp)`; keep an integer computation "
    "apart from the differentiated values.")

_ITERATING: dict[Any, str] = {
    zip: _LOOP_ADVICE, enumerate: _LOOP_ADVICE,
    reversed: "Index the sequence instead: `for i in range(len(xs) - 1, -1, -1):` and "
              "`xs[i]`.",
}


def _subscript_advice(owner: Any, expr: ast.Subscript, directives: bool,
                      known: bool) -> str:
    """What to write instead of a subscript of ``owner`` that has no derivative."""
    spelled = _spelling(expr.value)
    if known and directives:
        return (f"sourcegrad differentiates {spelled}[...] over arrays and numbers only; build "
                "the pieces a slice or a string directive stands for with np.arange, "
                "np.linspace, np.reshape or np.expand_dims, and join them with np.concatenate.")
    if known:
        return (f"sourcegrad differentiates {spelled}[...] with its items listed "
                f"(`{spelled}[a, b]`, or `{spelled}[a,]` for one); for a sequence held in a "
                "variable, use np.concatenate.")
    return (f"Its index is an argument of {type(owner).__name__}.__getitem__, which has no "
            "derivative rule: compute the value with NumPy functions, or in a function of "
            "your own with a rule registered by `@sg.defvjp`.")


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _is_builtin_with_rule(target: Any, n_args: int) -> bool:
    if target is abs:
        return True
    return (target is max or target is min) and n_args == 2


def _spelling(func: ast.expr) -> str:
    """How the user wrote a callee: ``ast.unparse``'s text, joined directly for the usual
    ``name`` and ``module.name`` (unparsing runs a visitor per call)."""
    parts = []
    node = func
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ast.unparse(func)
    return ".".join([node.id, *reversed(parts)])


def _is_user_code(fn: FunctionType) -> bool:
    """Library functions are primitives: NumPy's own Python code is never differentiated
    from its source (it would need rules for NumPy's internals)."""
    module = fn.__module__ or ""
    return not (module == "numpy" or module.startswith(("numpy.", "scipy", "math"))
                or module == "sourcegrad.dynamic")


def _has_source(fn: FunctionType) -> bool:
    try:
        inspect.getsource(fn)
    except (OSError, TypeError):
        return False
    return True


def _is_random(fn: Any) -> bool:
    module = getattr(fn, "__module__", "") or ""
    owner = getattr(fn, "__self__", None)
    return module.startswith("numpy.random") or isinstance(owner, np.random.Generator) or (
        type(owner).__module__.startswith("numpy.random")
    )
