"""Forward mode end to end: the shared normal form (``pipeline.normal_form``), the tangent
pass (``passes/forward.py``), and the assembled ``jvp_f``.

``jvp_f`` takes ``f``'s parameters followed by one tangent per differentiated parameter
(``tangent_<p>``; keyword-only when ``f`` has default values, so that the defaults keep
their meaning) and returns ``(value, tangent_out)``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from . import cache, pipeline
from .codegen.clone import clone
from .codegen.names import USER_MARK, Namer
from .errors import UnsupportedSyntaxError
from .frontend import forms
from .frontend.source import Parsed
from .passes.forward import CalleeJvp, ForwardMode, ForwardResult
from .passes.scalars import scalar_variables
from .passes.shapes import shape_facts


@dataclass
class ForwardAnalysis:
    parsed: Parsed
    fdef: ast.FunctionDef
    wrt: tuple[str, ...]
    result: ForwardResult
    namer: Namer
    callee_functions: dict[str, Any] = field(default_factory=dict)
    aux: str | None = None  # with has_aux: the variable holding what is returned beside


_IN_PROGRESS: list[Any] = []


def analyse_forward(fn: Any, wrt: tuple[str, ...], has_aux: bool = False) -> ForwardAnalysis:
    form = pipeline.normal_form(fn, wrt, has_aux)
    parsed = form.parsed
    if _IN_PROGRESS:
        pipeline.refuse_writes_into_parameters(form)
    if fn in _IN_PROGRESS:
        raise UnsupportedSyntaxError(
            "a recursive call", "Rewrite the recursion as a loop.", parsed.filename,
            parsed.tree.lineno, 0, parsed.line(parsed.tree.lineno))
    callee_functions: dict[str, Any] = {}
    known: dict[tuple[Any, tuple[str, ...]], CalleeJvp] = {}

    def provide(callee: Any, active: tuple[str, ...]) -> CalleeJvp:
        key = (callee, active)
        if key not in known:
            compiled = jvp_function(callee, active)
            fname = form.namer.fresh(f"jvp_{forms.identifier(callee)}")
            callee_functions[fname] = compiled
            known[key] = CalleeJvp(fname, compiled.tangent_params)
        return known[key]

    _IN_PROGRESS.append(fn)
    try:
        mode = ForwardMode(parsed, form.resolver, form.activity, form.namer, provide,
                           pipeline.provenance_comments(parsed))
        scalars = scalar_variables(form.fdef.body, set(form.params), form.resolver)
        mode.shapes = shape_facts(form.fdef.body, form.params, scalars, form.resolver)
        mode.temporaries = set(form.temporaries)
        result = mode.run(form.fdef, form.wrt)
    finally:
        _IN_PROGRESS.pop()
    return ForwardAnalysis(parsed, form.fdef, form.wrt, result, form.namer, callee_functions,
                           form.aux)


def jvp_function_ast(analysis: ForwardAnalysis) -> ast.FunctionDef:
    result = analysis.result
    args = clone(analysis.fdef.args)
    tangent_args = [ast.arg(arg=result.tangent_params[p]) for p in analysis.wrt]
    if args.defaults or args.vararg is not None or args.kwarg is not None:
        args.kwonlyargs = [*args.kwonlyargs, *tangent_args]
        args.kw_defaults = [*args.kw_defaults, *[None] * len(tangent_args)]
    else:
        args.args = [*args.args, *tangent_args]
    output = result.output if result.output is not None else ast.Constant(None)
    tangent = result.output_tangent if result.output_tangent is not None else ast.Constant(None)
    output = pipeline._with_aux(analysis, clone(output))
    body = [*result.body, ast.Return(value=ast.Tuple(elts=[output, tangent], ctx=ast.Load()))]
    return pipeline._function(analysis.namer.function_name(f"jvp_{analysis.parsed.tree.name}"),
                              args, body)


@cache.callee_variant("jvp")
def jvp_function(fn: Any, wrt: tuple[str, ...], has_aux: bool = False) -> Any:
    """The compiled ``jvp_f`` for ``wrt``, with ``.source`` and ``.tangent_params``; with
    ``has_aux`` it returns ``((value, aux), tangent)``."""
    (compiled,) = cache.derivative(fn, tuple(wrt), "jvp-aux" if has_aux else "jvp",
                                   lambda: tuple(wrt),
                                   lambda names: (_jvp_function(fn, names, has_aux),))
    return compiled


def _jvp_function(fn: Any, wrt: tuple[str, ...], has_aux: bool = False) -> Any:
    analysis = analyse_forward(fn, wrt, has_aux)
    compiled = pipeline.compile_generated(analysis, jvp_function_ast(analysis))
    # by the user's parameter names (the passes mark some: codegen/names.py)
    compiled.tangent_params = {param.removesuffix(USER_MARK): tangent
                               for param, tangent in analysis.result.tangent_params.items()}
    return compiled


__all__ = ["ForwardAnalysis", "analyse_forward", "jvp_function", "jvp_function_ast"]
