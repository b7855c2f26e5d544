"""User-defined derivative rules: ``@sg.defvjp(primal)`` and ``@sg.defjvp(primal)``.

A user rule becomes a record of the one rule table (``rules/registry.py``), so reverse mode,
forward mode and the runtime layer all use it, and a rule for a user function replaces
differentiating its body. The contract's signatures are whole-function ones::

    @sg.defvjp(f)                          @sg.defjvp(f)
    def f_vjp(g, ans, x, y):               def f_jvp(tangents, ans, x, y):
        return g * y, g * x                    return tangents[0] * y + ...

while the table holds one ``vjp_<param>`` per parameter. So each parameter gets a small
generated ``def`` whose single return is either the rule's own expression (the element of a
returned tuple literal that belongs to the parameter, with the rule's parameter names renamed
to the primal's) - inlined into generated code, readable - or, for a rule that is more than
one ``return`` or reads names generated code cannot see, a call of the rule.

A JVP rule is applied once to all tangents (``Rule.joint_jvp``): forward mode passes the
tuple of tangents, ``None`` where a tangent is zero, and folds away what that makes moot.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import inspect
import linecache
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FunctionType
from typing import Any

import numpy as np

from . import pipeline
from .codegen.clone import clone
from .codegen.known import fold_known
from .codegen.walk import walk
from .dependencies import code_digest, describe, name_dependencies
from .rules import registry


@dataclass(eq=False)
class UserRule(registry.Rule):
    """A rule registered by the user: ``joint_jvp(tangents, ans, *params)`` takes the tuple
    of every positional argument's tangent (``None`` where zero)."""

    joint_jvp: FunctionType | None = None
    positional: tuple[str, ...] = ()
    fingerprints: dict[str, str] = field(default_factory=dict)  # "vjp"/"jvp" -> the rule's
    functions: dict[str, FunctionType] = field(default_factory=dict)  # "vjp"/"jvp" -> the
    #                                      user's rule itself, for messages


def defvjp(primal: Callable) -> Callable[[FunctionType], FunctionType]:
    """Register ``rule(g, ans, *args, **kwargs)``, returning the cotangent of each positional
    argument of ``primal`` (a tuple when it takes several; ``None``: no derivative).

    The derivative of ``softplus(x) = log(1 + e**x)`` is ``sigmoid(x) = 1 - e**-ans``, which
    the rule computes from the output; at ``x = 0`` and ``x = log 3`` it is 1/2 and 3/4:

    >>> def softplus(x):
    ...     return np.log1p(np.exp(x))
    >>> @sg.defvjp(softplus)
    ... def softplus_vjp(g, ans, x):
    ...     return g * (1.0 - np.exp(-ans))
    >>> def loss(x):
    ...     return np.sum(softplus(x))
    >>> sg.grad(loss)(np.array([0.0, np.log(3.0)]))
    array([0.5 , 0.75])
    """
    def register(rule_fn: FunctionType) -> FunctionType:
        _register(primal, rule_fn, "vjp")
        return rule_fn
    return register


def defjvp(primal: Callable) -> Callable[[FunctionType], FunctionType]:
    """Register ``rule(tangents, ans, *args, **kwargs)``, returning the output's tangent given
    one tangent per positional argument of ``primal`` (``None`` where it is zero).

    ``softplus`` (see ``defvjp``) has slope 1/2 at 0, so a tangent of 2 becomes 1:

    >>> def softplus(x):
    ...     return np.log1p(np.exp(x))
    >>> @sg.defjvp(softplus)
    ... def softplus_jvp(tangents, ans, x):
    ...     return tangents[0] * (1.0 - np.exp(-ans))
    >>> value, tangent = sg.jvp(softplus, (0.0,), (2.0,))
    >>> float(tangent)
    1.0
    """
    def register(rule_fn: FunctionType) -> FunctionType:
        _register(primal, rule_fn, "jvp")
        return rule_fn
    return register


# -- the primal's parameters and the rule's signature -----------------------------------------
def _primal_signature(primal: Callable, rule_fn: FunctionType
                      ) -> tuple[list[str], list[str], dict[str, Any]]:
    """(all parameters, positional ones, defaults) of ``primal``; for a NumPy ufunc, its
    ``nin`` inputs, named as the rule names them (``x1``, ``x2``... if it takes ``*args``)."""
    if isinstance(primal, np.ufunc):
        spelled = [p.name for p in list(inspect.signature(rule_fn).parameters.values())[2:]
                   if p.kind is p.POSITIONAL_OR_KEYWORD]
        inputs = spelled if len(spelled) == primal.nin else [
            f"x{i + 1}" for i in range(primal.nin)]
        return inputs, inputs, {}
    try:
        params = list(inspect.signature(primal).parameters.values())
    except (TypeError, ValueError):
        params = list(inspect.signature(rule_fn).parameters.values())[2:]
        if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params):
            raise TypeError(
                f"{_label(primal)} has no signature sourcegrad can read: spell its parameters "
                f"in the rule, e.g. def {rule_fn.__name__}(g, ans, x1, x2)") from None
    names = [p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY,
                                                       p.POSITIONAL_OR_KEYWORD)]
    defaults = {p.name: p.default for p in params if p.default is not inspect.Parameter.empty}
    return names, positional, defaults


def _check_signature(primal: Callable, rule_fn: FunctionType, kind: str, names: list[str],
                     positional: list[str]) -> inspect.BoundArguments:
    head = ("g", "ans") if kind == "vjp" else ("tangents", "ans")
    expected = f"def rule({', '.join([*head, *names])})"
    if not isinstance(rule_fn, FunctionType):
        raise TypeError(f"@sg.def{kind}({_label(primal)}) decorates a function {expected}")
    try:
        bound = inspect.signature(rule_fn).bind(
            *(ast.Name(id=h, ctx=ast.Load()) for h in head),
            *(ast.Name(id=p, ctx=ast.Load()) for p in positional),
            **{p: ast.Name(id=p, ctx=ast.Load()) for p in names if p not in positional})
    except TypeError as exc:
        raise TypeError(
            f"@sg.def{kind}({_label(primal)}): the rule must have the signature {expected} "
            f"(or def rule({', '.join(head)}, *args, **kwargs)); "
            f"{rule_fn.__name__}{inspect.signature(rule_fn)} does not ({exc})") from None
    return bound


def _label(primal: Callable) -> str:
    module = getattr(primal, "__module__", "") or ""
    name = getattr(primal, "__name__", repr(primal))
    return f"np.{name}" if module.startswith("numpy") or isinstance(primal, np.ufunc) else name


# -- the rule's expression, in the primal's parameter names -----------------------------------
def _single_return(rule_fn: FunctionType) -> ast.expr | None:
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(rule_fn)))
    except (OSError, TypeError, SyntaxError):
        return None
    fdef = tree.body[0]
    if not isinstance(fdef, ast.FunctionDef):
        return None
    body = [s for s in fdef.body if not (isinstance(s, ast.Expr)
                                         and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    return body[0].value


def _renamed(expr: ast.expr, bound: inspect.BoundArguments) -> ast.expr:
    """The rule's expression with its parameters replaced by what they are bound to (the
    primal's parameter names; a tuple of them for ``*args``, a dict for ``**kwargs``)."""
    mapping: dict[str, ast.expr] = {}
    for pname, value in bound.arguments.items():
        if isinstance(value, tuple):
            mapping[pname] = ast.Tuple(elts=list(value), ctx=ast.Load())
        elif isinstance(value, dict):
            mapping[pname] = ast.Dict(keys=[ast.Constant(k) for k in value],
                                      values=list(value.values()))
        else:
            mapping[pname] = value

    class Rename(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            if isinstance(node.ctx, ast.Load) and node.id in mapping:
                return clone(mapping[node.id])
            return node

    return fold_known(Rename().visit(clone(expr)))


def _inlinable(expr: ast.expr | None, rule_fn: FunctionType, names: list[str]) -> bool:
    """Can the expression run inside generated code? Only if it reads nothing but the
    parameters and names that mean for the rule what they mean in every generated function
    (``np`` is NumPy, ``unbroadcast`` sourcegrad's helper, ``len`` the builtin: a rule may
    well give them other meanings)."""
    if expr is None:
        return False
    used = {n.id for n in walk(expr) if isinstance(n, ast.Name)}
    free = used - set(names) - {"g", "ans", "t"}
    shared = pipeline.references()
    return all(name in shared and _meaning(rule_fn, name) is shared[name] for name in free)


def _meaning(fn: FunctionType, name: str) -> Any:
    """What ``name`` denotes for ``fn``'s code: a closure variable, a global, a builtin."""
    if name in fn.__code__.co_freevars and fn.__closure__:
        cell = fn.__closure__[fn.__code__.co_freevars.index(name)]
        try:
            return cell.cell_contents
        except ValueError:
            return None
    return fn.__globals__.get(name, getattr(builtins, name, None))


# -- per-parameter functions of the rule table -------------------------------------------------
_COUNTER = [0]


def _table_function(fname: str, head: tuple[str, str], names: list[str],
                    defaults: dict[str, Any], expr: ast.expr, env: dict[str, Any]
                    ) -> FunctionType:
    """``def fname(head..., params...): return expr``, callable (the runtime layer calls it)
    and with ``expr`` as the expression the transformer inlines."""
    params = [*head, *(f"{p}={p}_default" if p in defaults else p for p in names)]
    text = f"def {fname}({', '.join(params)}):\n    return {ast.unparse(expr)}\n"
    _COUNTER[0] += 1
    filename = f"<sourcegrad user rule {fname} {_COUNTER[0]}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = {**env, **{f"{p}_default": v for p, v in defaults.items()}}
    exec(compile(text, filename, "exec"), namespace)
    fn = namespace[fname]
    registry._PARSED[fn] = clone(expr)
    return fn


def _rule_call(helper: str, head: list[ast.expr], names: list[str]) -> ast.Call:
    return ast.Call(func=ast.Name(id=helper, ctx=ast.Load()),
                    args=[*head, *(ast.Name(id=p, ctx=ast.Load()) for p in names)],
                    keywords=[])


def _helper_name(primal: Callable, kind: str) -> str:
    """A name under which generated code can call the rule (a helper of every generated
    function, like the functions of ``support``)."""
    base = f"{getattr(primal, '__name__', 'primal')}_{kind}_rule"
    name = base
    n = 2
    while name in pipeline.HELPERS and pipeline.HELPERS[name] is not None:
        name = f"{base}_{n}"
        n += 1
    return name


def _register(primal: Callable, rule_fn: FunctionType, kind: str) -> None:
    names, positional, defaults = _primal_signature(primal, rule_fn)
    if {"g", "ans", "t", "tangents"} & set(names):
        raise TypeError(f"{_label(primal)} has a parameter named g, ans, t or tangents, which "
                        "sourcegrad's rules reserve; rename it")
    bound = _check_signature(primal, rule_fn, kind, names, positional)
    expr = _single_return(rule_fn)
    if expr is not None and kind == "jvp":
        bound = _rebind_head(bound, "t")
    if expr is not None:
        expr = _renamed(expr, bound)
    inlined = _inlinable(expr, rule_fn, names) and _no_defaults_in(bound)
    env = dict(rule_fn.__globals__)
    helper = None
    if not inlined:
        helper = _helper_name(primal, kind)
        pipeline.HELPERS[helper] = rule_fn
        env[helper] = rule_fn
    record = _record(primal, names, positional, defaults, rule_fn, kind)
    if kind == "vjp":
        _add_vjps(record, expr if inlined else None, helper, env)
    else:
        _add_jvp(record, expr if inlined else None, helper, env)
    for key in record.primitives:
        registry.RULES[key] = record
        registry.NONDIFF.pop(key, None)


def _no_defaults_in(bound: inspect.BoundArguments) -> bool:
    """Inlining needs every rule parameter bound to a primal parameter (a rule parameter left
    at its own default would have no value in generated code)."""
    return all(p.name in bound.arguments for p in bound.signature.parameters.values()
               if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))


def _record(primal: Callable, names: list[str], positional: list[str],
            defaults: dict[str, Any], rule_fn: FunctionType, kind: str) -> UserRule:
    """The user record of ``primal``: the existing one, or a new one that keeps a built-in
    rule's other half (a user VJP for ``np.tanh`` keeps the table's JVP)."""
    existing = registry.lookup(primal)
    if isinstance(existing, UserRule):
        existing.fingerprints[kind] = _fingerprint(rule_fn)
        existing.fingerprint = _joined(existing.fingerprints)
        existing.functions[kind] = rule_fn
        return existing
    fingerprints = {kind: _fingerprint(rule_fn)}
    record = UserRule(name=getattr(primal, "__name__", "primal"), primitives=(primal,),
                      params=tuple(names), defaults=dict(defaults),
                      nondiff=frozenset(p for p in names if p not in positional),
                      fingerprint=_joined(fingerprints), positional=tuple(positional),
                      fingerprints=fingerprints, functions={kind: rule_fn})
    if existing is not None and existing.params == record.params:
        record.vjps, record.jvps = dict(existing.vjps), dict(existing.jvps)
        record.linear = existing.linear
        record.nondiff, record.unsupported = existing.nondiff, existing.unsupported
    return record


def _fingerprint(rule_fn: FunctionType) -> str:
    """The whole rule, for the disk cache's keys: its source, its code (instructions and
    constants, nested code included: what runs, even when its file was edited since), and
    what each global and closure name it reads denotes (a helper function it calls)."""
    try:
        text = inspect.getsource(rule_fn)
    except (OSError, TypeError):
        text = rule_fn.__qualname__
    reads = [f"{dep.spelling()}: {describe(dep.seen)}" for dep in name_dependencies(rule_fn)]
    parts = [text, code_digest(rule_fn.__code__), *reads]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def _joined(fingerprints: dict[str, str]) -> str:
    return " ".join(f"{kind}:{fingerprints[kind]}" for kind in sorted(fingerprints))


def _add_vjps(record: UserRule, expr: ast.expr | None, helper: str | None,
              env: dict[str, Any]) -> None:
    names = list(record.params)
    positional = list(record.positional)
    g, ans = ast.Name(id="g", ctx=ast.Load()), ast.Name(id="ans", ctx=ast.Load())
    whole = expr if expr is not None else _rule_call(helper, [g, ans], names)
    record.vjps = {}
    nondiff = set(record.nondiff)
    for i, param in enumerate(positional):
        part = _element(whole, i, len(positional))
        if isinstance(part, ast.Constant) and part.value is None:
            nondiff.add(param)
            continue
        record.vjps[param] = _table_function(f"vjp_{param}", ("g", "ans"), names,
                                             record.defaults, part, env)
    record.nondiff = frozenset(nondiff)


def _element(whole: ast.expr, i: int, count: int) -> ast.expr:
    """The part of a rule's result that belongs to positional argument ``i``."""
    if count == 1:
        return clone(whole)
    if isinstance(whole, ast.Tuple) and len(whole.elts) == count:
        return clone(whole.elts[i])
    return ast.Subscript(value=clone(whole), slice=ast.Constant(i), ctx=ast.Load())


def _add_jvp(record: UserRule, expr: ast.expr | None, helper: str | None,
             env: dict[str, Any]) -> None:
    names = list(record.params)
    positional = list(record.positional)
    t, ans = ast.Name(id="t", ctx=ast.Load()), ast.Name(id="ans", ctx=ast.Load())
    renamed = expr if expr is not None else _rule_call(helper, [t, ans], names)
    record.joint_jvp = _table_function("jvp", ("t", "ans"), names, record.defaults, renamed,
                                       env)
    record.jvps = {}
    for i, param in enumerate(positional):
        if param in record.nondiff:
            continue
        alone = ast.Tuple(elts=[t if j == i else ast.Constant(None)
                                for j in range(len(positional))], ctx=ast.Load())
        one = _substitute(renamed, {"t": alone})
        record.jvps[param] = _table_function(f"jvp_{param}", ("t", "ans"), names,
                                             record.defaults, fold_known(one), env)


def _rebind_head(bound: inspect.BoundArguments, tangent_name: str) -> inspect.BoundArguments:
    """The binding with the rule's first parameter (the tangents) bound to ``t``."""
    first = next(iter(bound.signature.parameters))
    bound.arguments[first] = ast.Name(id=tangent_name, ctx=ast.Load())
    return bound


def _substitute(expr: ast.expr, mapping: dict[str, ast.expr]) -> ast.expr:
    class Sub(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            if isinstance(node.ctx, ast.Load) and node.id in mapping:
                return clone(mapping[node.id])
            return node
    return Sub().visit(clone(expr))


def unregister(primal: Callable) -> None:
    """Forget the user rule of ``primal`` (tests; a built-in rule it replaced stays replaced
    until the rules are imported again)."""
    record = registry.lookup(primal)
    if isinstance(record, UserRule):
        registry.RULES.pop(primal, None)
