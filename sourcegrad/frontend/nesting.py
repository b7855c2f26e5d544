"""Transformations called inside a function being differentiated (CONTRACT 1a):
``np.sum(sg.grad(g)(x) ** 2)``, ``sg.jvp(f, (x,), (v,))[1]``, ``sg.hessian(f)(x)``,
``df = sg.grad(f); df(x)``, ``sg.grad(lambda y: x * y)(2.0)``.

Each becomes a call of generated code, which is Python with a source of its own and is
differentiated like any user function: ``sg.grad(g)(x)`` is ``grad_g(x)``, ``sg.jvp(f, (x,),
(v,))`` is ``jvp_f(x, tangent_x=v)``, ``sg.jacobian(f)(x)``, ``sg.hessian(f)(x)`` and
``sg.hvp(f)(x, v)`` the twin of what they return (``higher.Transformed``: a small function
stacking one ``jvp_f`` per input element for ``jacobian_f``), the same function that stands
for them when they are made outside and called inside. The name (``grad_g``) is bound in
the function's environment (``Parsed.extra``), so generated code reads it as it reads a
global.

A function defined inside the one differentiated (a nested ``def`` or a lambda) may read that
function's variables, which may carry a derivative themselves (``x`` in ``lambda y: x * y``):
it is lifted out, those variables becoming keyword-only parameters passed at the call
(``grad_lambda(2.0, x=x)``), so that the outer derivative flows through them.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import keyword
import linecache
import types
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..codegen.clone import clone
from ..codegen.walk import walk
from ..compile import compile_factory, link
from ..rules.support import as_gradient
from . import forms
from .source import Parsed

# what each transformation is called by the user (``sg.<name>``)
NAMES = ("grad", "value_and_grad", "jacobian", "hessian", "hvp", "jvp", "vjp")


def _transformations() -> dict[Any, str]:
    from .. import api, higher

    return {api.grad: "grad", api.value_and_grad: "value_and_grad", higher.jacobian: "jacobian",
            higher.hessian: "hessian", higher.hvp: "hvp", api.jvp: "jvp", api.vjp: "vjp"}


@dataclass
class Target:
    """What a rewritten call calls: a function with a source, bound under ``name`` in the
    environment, with arguments put in front and keywords added (a lifted function's
    variables)."""

    function: Any
    prefix: list[ast.expr] = field(default_factory=list)
    keywords: list[ast.keyword] = field(default_factory=list)


class Nesting:
    """Rewrites the calls of transformations (and of their results) in one function."""

    def __init__(self, parsed: Parsed, namer: Any, nested: dict[str, ast.FunctionDef],
                 outer_locals: set[str]) -> None:
        self.parsed = parsed
        self.namer = namer
        self.nested = nested  # the nested functions desugar collected
        self.outer_locals = outer_locals
        self.bound: dict[str, Target] = {}  # local name -> the transformation it holds
        self.pullbacks: dict[str, ast.Call] = {}  # local name -> the sg.vjp call it comes from
        self.assignments = _assignment_counts(parsed.tree)
        self._known = _transformations()

    # -- what is a transformation ----------------------------------------------------------
    def kind(self, call: ast.Call) -> str | None:
        """``"grad"``... when ``call`` calls a transformation, else ``None``."""
        value = self._static(call.func)
        try:
            return self._known.get(value)
        except TypeError:  # unhashable
            return None

    def static_value(self, expr: ast.expr) -> Any:
        """What ``expr`` (a name or a dotted path) is known to be before the call, or
        ``None`` (a local variable's value is not)."""
        return self._static(expr)

    def bind(self, value: Any) -> str:
        """The name generated code reads ``value`` by (bound in the function's
        environment)."""
        return self._bind(value)

    def _static(self, expr: ast.expr) -> Any:
        if isinstance(expr, ast.Name):
            if expr.id in self.outer_locals:
                return None
            value = self.parsed.lookup(expr.id)
            return None if value is _missing() else value
        if isinstance(expr, ast.Attribute):
            base = self._static(expr.value)
            return getattr(base, expr.attr, None) if isinstance(base, types.ModuleType) else None
        return None

    # -- statements: df = sg.grad(f) --------------------------------------------------------
    def binds(self, stmt: ast.Assign) -> bool:
        """``df = sg.grad(f)``: remember what ``df`` holds (the statement itself goes)."""
        if self._binds_pullback(stmt):
            return False  # the statement now computes the value only
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            return False
        if not isinstance(stmt.value, ast.Call):
            return False
        kind = self.kind(stmt.value)
        if kind is None or kind in ("jvp", "vjp"):
            return False
        self.bound[stmt.targets[0].id] = self._evaluate(stmt.value, kind)
        return True

    # -- expressions ------------------------------------------------------------------------
    def rewrite(self, node: ast.Call) -> ast.Call | None:
        """``node`` as a call of generated code, or ``None`` if it calls no transformation."""
        pullback = self._pullback_of(node.func)
        if pullback is not None:  # sg.vjp(f, x)[1](v): vjp_f(x, v)[1]
            return self._vjp_call(pullback, node)
        if isinstance(node.func, ast.Name) and node.func.id in self.pullbacks:
            return self._vjp_call(self.pullbacks[node.func.id], node)
        if isinstance(node.func, ast.Call):
            kind = self.kind(node.func)
            if kind is None:  # my_grad(f)(x): a function of functions, run now
                made = self._factory(node.func)
                return self._call(made, node) if made is not None else None
            if kind in ("jvp", "vjp"):
                return None
            return self._call(self._evaluate(node.func, kind), node)
        if isinstance(node.func, ast.Name) and node.func.id in self.bound:
            return self._call(self.bound[node.func.id], node)
        kind = self.kind(node)
        if kind == "jvp":
            return self._jvp_call(node)
        if kind == "vjp":
            raise self.parsed.unsupported(
                node, "this use of `sg.vjp` inside a function being differentiated",
                "Call the pullback where it is made, `sg.vjp(f, x)[1](v)`, or unpack it "
                "`value, pullback = sg.vjp(f, x)` and call `pullback(v)`; or use `sg.grad`.")
        if kind is None and not isinstance(node.func, ast.Name | ast.Attribute):
            return None
        value = self._static(node.func)
        adapted = self._adapt(value) if value is not None else None
        return self._call(adapted, node) if adapted is not None else None

    def _call(self, target: Target, node: ast.Call) -> ast.Call:
        env = self._bind(target.function)
        return ast.Call(func=ast.Name(id=env, ctx=ast.Load()),
                        args=[*clone(target.prefix), *node.args],
                        keywords=[*node.keywords, *clone(target.keywords)])

    def _bind(self, value: Any) -> str:
        for existing, held in self.parsed.extra.items():
            if held is value:
                return existing
        env = self.namer.fresh(forms.identifier(value))
        self.parsed.extra[env] = value
        return env

    def _adapt(self, value: Any) -> Target | None:
        """A transformation's result held by a global or closure name (``df = sg.grad(f)`` at
        module level): the function it calls, if it is not one already."""
        from ..callables import Derivative

        if isinstance(value, Derivative):
            return Target(value.generated, [self._constant(v) for v in value.form.bound],
                          [ast.keyword(arg=k, value=self._constant(v))
                           for k, v in value.form.keywords.items()])
        from ..higher import Transformed

        if isinstance(value, Transformed):  # sg.jacobian / sg.hessian / sg.hvp of a function
            return Target(value.twin())
        twin = getattr(value, "__sourcegrad_function__", None)  # of a partial, a method...
        if isinstance(twin, functools.partial):
            inner = self._adapt(twin.func)
            if inner is not None:
                return Target(inner.function,
                              [*inner.prefix, *[self._constant(v) for v in twin.args]],
                              [*inner.keywords, *[ast.keyword(arg=k, value=self._constant(v))
                                                  for k, v in twin.keywords.items()]])
        return None

    def _factory(self, call: ast.Call) -> Target | None:
        """``my_grad(f)`` where ``my_grad`` is the user's own function of functions (a
        wrapper of ``sg.grad``, say): called now, with the functions it is given (a lambda
        or nested function lifted out), if what it returns is a derivative sourcegrad made.
        ``None`` if it is given no function."""
        factory = self._static(call.func)
        if not isinstance(factory, types.FunctionType) or call.keywords and any(
                k.arg is None for k in call.keywords):
            return None
        functions = [a for a in call.args if isinstance(a, ast.Lambda)
                     or isinstance(a, ast.Name) and (a.id in self.nested or a.id in self.bound)
                     or callable(self._static(a)) and not isinstance(self._static(a), type)]
        if not functions:
            return None
        keywords: list[ast.keyword] = []
        values = []
        for arg in call.args:
            if arg in functions or isinstance(arg, ast.Call) and self.kind(arg):
                inner = self._function(arg)
                if inner.prefix:
                    return None
                keywords.extend(inner.keywords)
                values.append(inner.function)
            else:
                values.append(self._literal(arg, call))
        options = {k.arg: self._literal(k.value, call) for k in call.keywords}
        made = factory(*values, **options)
        target = self._adapt(made)
        if target is None and getattr(made, "source", None) is not None:
            target = Target(made)
        if target is None:
            raise self.parsed.unsupported(
                call, f"calling what `{ast.unparse(call.func)}` returns, which is not a "
                "derivative sourcegrad made",
                "Call `sg.grad(...)` (or jacobian, hessian...) there, or define the function "
                "at module level.")
        return Target(target.function, target.prefix, [*keywords, *target.keywords])

    def _constant(self, value: Any) -> ast.expr:
        return ast.Name(id=self._bind(value), ctx=ast.Load())

    # -- evaluating a transformation --------------------------------------------------------
    def _evaluate(self, call: ast.Call, kind: str) -> Target:
        if not call.args:
            raise self.parsed.unsupported(call, f"`sg.{kind}` without a function",
                                          f"Pass the function: `sg.{kind}(f)`.")
        inner = self._function(call.args[0])
        options = {k.arg: self._literal(k.value, call) for k in call.keywords}
        for position, arg in enumerate(call.args[1:]):
            options[("wrt", "mode")[position] if kind == "jacobian" else "wrt"] = (
                self._literal(arg, call))
        return self._apply(kind, inner, options)

    def _apply(self, kind: str, inner: Target, options: dict[str, Any]) -> Target:
        """The generated function ``sg.<kind>(inner, **options)`` is: for ``grad`` and
        ``value_and_grad`` the generated code itself; for ``jacobian``, ``hessian`` and
        ``hvp`` the twin of their result (``higher.Transformed``), the one function that
        stands for them wherever they are differentiated."""
        from .. import api, higher

        if kind in ("grad", "value_and_grad"):
            made = getattr(api, kind)(inner.function, **{**options, "check": False})
            return self._unwrapped(made, inner)
        made = getattr(higher, kind)(inner.function, **options)
        adapted = self._adapt(made)
        assert adapted is not None
        return Target(adapted.function, [*inner.prefix, *adapted.prefix],
                      [*inner.keywords, *adapted.keywords])

    def _unwrapped(self, made: Any, inner: Target) -> Target:
        adapted = self._adapt(made)
        if adapted is None:
            return Target(made, inner.prefix, inner.keywords)
        return Target(adapted.function, [*inner.prefix, *adapted.prefix],
                      [*inner.keywords, *adapted.keywords])

    def _function(self, expr: ast.expr) -> Target:
        """The function a transformation is applied to."""
        if isinstance(expr, ast.Lambda):
            return self._lift(forms.lambda_as_def(expr, "lambda"))
        if isinstance(expr, ast.Name) and expr.id in self.nested:
            return self._lift(self.nested[expr.id])
        if isinstance(expr, ast.Name) and expr.id in self.bound:
            return self.bound[expr.id]
        if isinstance(expr, ast.Call):
            kind = self.kind(expr)
            if kind is not None and kind not in ("jvp", "vjp"):
                return self._evaluate(expr, kind)
        value = self._static(expr)
        if value is None or not callable(value):
            raise self.parsed.unsupported(
                expr, "a transformation of a value computed inside the function",
                "Transform a function known before the call: a module-level function, a "
                "lambda or nested `def` written there, or `sg.grad(...)` of one.")
        return Target(value)

    def _literal(self, expr: ast.expr, call: ast.Call) -> Any:
        try:
            return ast.literal_eval(expr)
        except ValueError:
            value = self._static(expr)
            if value is not None and isinstance(value, (int, str, tuple, bool)):
                return value
            raise self.parsed.unsupported(
                expr, "an option of a nested transformation that is not a constant",
                "Write `wrt=` (and the other options) as constants there.") from None

    # -- vjp: a pullback called ---------------------------------------------------------------
    def _pullback_of(self, func: ast.expr) -> ast.Call | None:
        """The ``sg.vjp(...)`` call in ``sg.vjp(f, x)[1]``, else ``None``."""
        if isinstance(func, ast.Subscript) and isinstance(func.value, ast.Call) and (
                isinstance(func.slice, ast.Constant) and func.slice.value == 1
                and self.kind(func.value) == "vjp"):
            return func.value
        return None

    def _binds_pullback(self, stmt: ast.Assign) -> bool:
        """``value, pullback = sg.vjp(f, x)``: ``value = f(x)``, and each ``pullback(v)`` is
        ``vjp_f(x, v)[1]`` (``x`` must not be rebound in between: refused if it is)."""
        target = stmt.targets[0] if len(stmt.targets) == 1 else None
        if not (isinstance(target, ast.Tuple) and len(target.elts) == 2
                and isinstance(stmt.value, ast.Call) and self.kind(stmt.value) == "vjp"
                and all(isinstance(e, ast.Name) for e in target.elts)):
            return False
        call = stmt.value
        rebound = [a.id for a in call.args[1:] if isinstance(a, ast.Name)
                   and self.assignments.get(a.id, 0) > 1]
        if rebound or not all(isinstance(a, (ast.Name, ast.Constant)) for a in call.args[1:]):
            raise self.parsed.unsupported(
                stmt, "a pullback of values that may change before it is called",
                "Call `sg.vjp(f, x)[1](v)` where the pullback is needed.")
        value, pullback = target.elts
        self.pullbacks[pullback.id] = call
        stmt.targets = [ast.Name(id=value.id, ctx=ast.Store())]
        stmt.value = ast.Call(func=clone(call.args[0]), args=list(call.args[1:]),
                              keywords=[])
        return True

    def _vjp_call(self, vjp: ast.Call, node: ast.Call) -> ast.expr:
        if len(node.args) != 1 or node.keywords or vjp.keywords or len(vjp.args) < 2:
            raise self.parsed.unsupported(
                node, "this form of `sg.vjp` inside a function being differentiated",
                "Write `sg.vjp(f, x, y)[1](v)`: positional arguments and one cotangent.")
        inner = self._function(vjp.args[0])
        if inner.prefix or inner.keywords:
            raise self.parsed.unsupported(
                node, "`sg.vjp` of a function defined inside the one differentiated",
                "Use `sg.grad` of it there, or define the function at module level.")
        made = differentiable_vjp(inner.function, len(vjp.args) - 1)
        rebuilt = ast.Call(func=node.func, args=[*vjp.args[1:], node.args[0]], keywords=[])
        call = self._call(Target(made), rebuilt)
        return ast.Subscript(value=call, slice=ast.Constant(1), ctx=ast.Load())

    # -- jvp: a call with its primals and tangents -------------------------------------------
    def _jvp_call(self, node: ast.Call) -> ast.Call:
        from ..forward_mode import jvp_function

        if len(node.args) != 3 or node.keywords or not all(
                isinstance(a, (ast.Tuple, ast.List)) for a in node.args[1:]):
            raise self.parsed.unsupported(
                node, "this form of `sg.jvp` inside a function being differentiated",
                "Write the primals and tangents as tuples: `sg.jvp(f, (x, y), (dx, dy))`.")
        inner = self._function(node.args[0])
        primals, tangents = node.args[1].elts, node.args[2].elts
        if len(primals) != len(tangents):
            raise self.parsed.unsupported(node, "`sg.jvp` with more primals than tangents",
                                          "Give one tangent per primal.")
        from ..callables import form_of

        form = form_of(inner.function)
        params = [p.name for p in form.visible()][: len(primals)]
        wrt = tuple(p for p, t in zip(params, tangents, strict=True)
                    if not (isinstance(t, ast.Constant) and t.value is None))
        generated = jvp_function(form.function, wrt)
        keywords = [ast.keyword(arg=generated.tangent_params[p], value=t)
                    for p, t in zip(params, tangents, strict=True) if p in wrt]
        target = Target(generated, [*inner.prefix, *[self._constant(v) for v in form.bound]],
                        [*inner.keywords, *[ast.keyword(arg=k, value=self._constant(v))
                                            for k, v in form.keywords.items()]])
        rebuilt = ast.Call(func=node.func, args=list(primals), keywords=keywords)
        return self._call(target, rebuilt)

    # -- lifting a nested function out ------------------------------------------------------
    def _lift(self, fdef: ast.FunctionDef) -> Target:
        """A function of its own for a nested ``def`` or lambda, taking the enclosing
        function's variables it reads as keyword-only parameters."""
        lifted = clone(fdef)
        # the other nested functions it calls go with it, defined inside it
        carried: list[ast.FunctionDef] = []
        pending = [lifted]
        while pending:
            reads = {n.id for n in walk(pending.pop()) if isinstance(n, ast.Name)}
            for used in sorted(reads & set(self.nested)):
                if used != fdef.name and all(c.name != used for c in carried):
                    carried.append(clone(self.nested[used]))
                    pending.append(carried[-1])
        lifted.body = [*carried, *lifted.body]
        params = set(forms.parameters_of(fdef.args))
        assigned = {n.id for n in walk(lifted) if isinstance(n, ast.Name)
                    and isinstance(n.ctx, ast.Store)} | {
                        a.arg for c in carried for a in walk(c) if isinstance(a, ast.arg)}
        free = sorted({n.id for n in walk(lifted) if isinstance(n, ast.Name)
                       and isinstance(n.ctx, ast.Load)} & self.outer_locals
                      - params - assigned - set(self.nested))
        lifted.args.kwonlyargs = [*lifted.args.kwonlyargs, *[ast.arg(arg=v) for v in free]]
        lifted.args.kw_defaults = [*lifted.args.kw_defaults, *[None] * len(free)]
        function = synthesize(lifted, self.parsed)
        keywords = [ast.keyword(arg=v, value=ast.Name(id=v, ctx=ast.Load())) for v in free]
        return Target(function, [], keywords)


def _assignment_counts(fdef: ast.FunctionDef) -> dict[str, int]:
    counts: dict[str, int] = {}
    for node in walk(fdef):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            counts[node.id] = counts.get(node.id, 0) + 1
    for param in forms.parameters_of(fdef.args):
        counts[param] = counts.get(param, 0) + 1
    return counts


def _missing() -> Any:
    from .source import _MISSING

    return _MISSING


def synthesize(fdef: ast.FunctionDef, parsed: Parsed) -> types.FunctionType:
    """A live function for ``fdef`` (a tree taken from the user's function), with that
    function's globals and closure, whose tree the parser returns as it is: messages and
    provenance comments point at the user's own lines."""
    fdef = clone(fdef)
    ast.fix_missing_locations(fdef)
    cells = dict(zip(parsed.fn.__code__.co_freevars, parsed.fn.__closure__ or (),
                     strict=True))
    compiled_def = clone(fdef)
    if keyword.iskeyword(compiled_def.name):  # a lambda: `lambda` names it in generated code
        compiled_def.name = f"{compiled_def.name}_"
    compiled = compile_factory(ast.unparse(compiled_def) + "\n", compiled_def.name,
                               sorted(cells))
    function = link(compiled, parsed.globals, cells, {}, None, None)
    if fdef.args.kw_defaults and any(d is not None for d in fdef.args.kw_defaults):
        function.__kwdefaults__ = None  # defaults of the user's lambda: not needed
    forms.register_synthetic(function.__code__, fdef, parsed.filename, parsed.lines)
    function.__sourcegrad_made__ = True
    return function


# -- a pullback as a function of generated code --------------------------------------------
_VJP = '''\
def {name}({params}, cotangent):
    value, saved = forward({params})
    grads = backward(cotangent, saved)
    return value, ({gradients},)
'''


def differentiable_vjp(fun: Any, count: int) -> types.FunctionType:
    """``sg.vjp(fun, *args)[1](cotangent)`` as a function with a source: the split
    derivative's forward and backward functions, with respect to the ``count`` positional
    arguments, called in turn."""
    from .. import pipeline
    from ..callables import form_of

    form = form_of(fun)
    params = [p.name for p in form.visible()][:count]
    if not form.plain or len(params) < count:
        raise NotImplementedError("sg.vjp of a plain function, inside a function differentiated")
    forward, backward = pipeline.split_functions(form.function, tuple(params))
    name = f"vjp_{forms.identifier(form.function)}"
    text = _VJP.format(name=name, params=", ".join(params), gradients=", ".join(
        f"as_gradient(grads[{k}], {p})" for k, p in enumerate(params)))
    return synthesized_function(name, text, {"forward": forward, "backward": backward,
                                     "as_gradient": as_gradient}, form.function)


def synthesized_function(name: str, text: str, env: dict[str, Any], like: Any
                         ) -> types.FunctionType:
    """The function ``name`` that ``text`` defines, its source readable through linecache,
    reading ``env``; it belongs to ``like``'s module."""
    namespace = {"np": np, **env, "__name__": getattr(like, "__module__", "__main__")}
    filename = f"<sourcegrad {name} {hashlib.sha256(text.encode()).hexdigest()[:10]}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    exec(compile(text, filename, "exec"), namespace)  # noqa: S102 - our own template
    made = namespace[name]
    made.__qualname__ = f"<sourcegrad>.{name}"
    made.__sourcegrad_made__ = True
    return made


def _parameter_list(fn: types.FunctionType) -> str:
    """``fn``'s parameters as source text, without annotations or defaults (the made
    function takes ``fn``'s default values as its own)."""
    import inspect

    parts: list[str] = []
    star = False
    for p in inspect.signature(fn).parameters.values():
        if p.kind == p.VAR_POSITIONAL:
            parts.append(f"*{p.name}")
            star = True
        elif p.kind == p.VAR_KEYWORD:
            parts.append(f"**{p.name}")
        elif p.kind == p.KEYWORD_ONLY:
            if not star:
                parts.append("*")
                star = True
            parts.append(p.name)
        else:
            parts.append(p.name)
    return ", ".join(parts)


def _call_arguments(fn: types.FunctionType) -> str:
    import inspect

    parts = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind == p.VAR_POSITIONAL:
            parts.append(f"*{p.name}")
        elif p.kind == p.VAR_KEYWORD:
            parts.append(f"**{p.name}")
        elif p.kind == p.KEYWORD_ONLY:
            parts.append(f"{p.name}={p.name}")
        else:
            parts.append(p.name)
    return ", ".join(parts)
