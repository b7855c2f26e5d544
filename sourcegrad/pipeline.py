"""The order of the passes. Read this first.

    parse        frontend/source.py    the function's AST, with the file's real line numbers
    check        frontend/checks.py    reject unsupported constructs, with advice
    desugar      passes/desugar.py     one return, range loops, no comprehensions/ternaries
    ssa          passes/ssa.py         straight-line reassignments get names of their own
    activity     passes/activity.py    which variables need a derivative at all
    normalize    passes/normalize.py   one differentiable operation per statement
    reverse      passes/reverse.py     forward sweep + adjoint (rules inlined by codegen/)
    batch        passes/batched_products.py   weight gradients of a loop's steps: one product
    assemble     this module           grad_f / value_and_grad_f / forward_f + backward_f
    compile      compile.py            a live function, registered with linecache

Set ``SOURCEGRAD_DEBUG_PASSES=1`` to print the function after each pass.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import io
import keyword
import math
import os
import re
import sys
import tokenize
import types
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import cache, debug, dynamic, emit
from .codegen import printer
from .codegen.clone import clone
from .codegen.names import Namer
from .codegen.walk import statements, walk
from .compile import compile_function, is_generated
from .errors import UnsupportedSyntaxError
from .frontend import checks, forms
from .frontend.resolve import Resolver, local_kinds
from .frontend.source import Parsed, parse_function
from .passes import activity as activity_pass
from .passes import batched_products, desugar, normalize, saving, sharing, ssa
from .passes.desugar import assign, call, name
from .passes.reverse import CalleeDerivative, ReverseMode, ReverseResult
from .passes.row_sparse import row_sparse_accumulators, sparse_gradients
from .passes.scalars import scalar_variables
from .passes.shape_only import shape_reads, shapes_instead_of_values
from .passes.shapes import shape_facts
from .passes.unused_values import drop_unused_scalars, surely_real
from .rules import support

HELPERS: dict[str, Any] = {
    "np": np,
    "math": math,
    "pullback_of": dynamic.pullback_of,
    "tangent_of": dynamic.tangent_of,
    **{n: getattr(support, n) for n in dir(support)
       if not n.startswith("_") and isinstance(getattr(support, n), types.FunctionType)},
}
# Python's builtins, which generated code reaches the same way as the helpers (not through
# the user's globals, which may hold other values under their names)
_BUILTINS: dict[str, Any] = {n: getattr(builtins, n) for n in dir(builtins)
                             if not n.startswith("_") and not keyword.iskeyword(n)}
# ``for _ in range(n)`` in backward sweeps: a name generated code binds, never reads
_THROWAWAY = "_"


def references() -> dict[str, Any]:
    """Every name generated code may use for something of sourcegrad's, and what it means
    there: the helpers (user rules add theirs), ``np``, ``math`` and the builtins. Generated
    code is linked with each one it uses (``compile_generated``)."""
    return {**_BUILTINS, **HELPERS}


def _debug(stage: str, fdef: ast.FunctionDef) -> None:
    if os.environ.get("SOURCEGRAD_DEBUG_PASSES"):
        print(f"--- after {stage} ---", file=sys.stderr)
        print(printer.to_source(fdef), file=sys.stderr)


@dataclass
class ReverseAnalysis:
    """Everything the reverse transformation learnt about one (function, wrt)."""

    parsed: Parsed
    fdef: ast.FunctionDef
    params: list[str]
    wrt: tuple[str, ...]
    result: ReverseResult
    namer: Namer
    callee_functions: dict[str, Any] = field(default_factory=dict)
    scalars: set[str] = field(default_factory=set)  # variables known to hold scalars
    aux: str | None = None  # with has_aux: the variable holding what is returned beside


_IN_PROGRESS: list[Any] = []


@dataclass
class NormalForm:
    """A function after every mode-independent pass: what reverse and forward mode share."""

    parsed: Parsed
    fdef: ast.FunctionDef
    params: list[str]
    wrt: tuple[str, ...]
    namer: Namer
    resolver: Resolver
    activity: activity_pass.Activity
    temporaries: set[str] = field(default_factory=set)  # names normalize introduced
    aux: str | None = None  # with has_aux: the variable holding what is returned beside


class NotSpecialised(Exception):
    """A function cannot be made without the cotangent of some of its outputs: it does not
    end with ``return a, b, ...`` (or it names a variable ``no_cotangent``)."""


def refuse_writes_into_parameters(form: NormalForm) -> None:
    """A function called by the one being differentiated that writes into an array it was
    given (``a[0] = v``, ``a += v``, ``np.add.at(a, ...)``) changes the caller's array as
    well; its derivative treats the array as its own: refused where a derivative flows."""
    if is_generated(form.parsed.filename):
        return  # generated code writes only into what it owns
    params = set(form.params)
    for stmt in statements(form.fdef):
        _refuse_container_change(form, stmt, params)
        in_place = getattr(stmt, "in_place_of", None)
        written = {in_place.id} if isinstance(in_place, ast.Name) else {
            var for var, is_slice in saving.overwrites(stmt) if is_slice}
        for var in sorted(written & params & form.activity.varied):
            raise form.parsed.unsupported(
                stmt, f"writing into `{var}`, an array `{form.parsed.tree.name}` was given by "
                "the function that calls it (the caller's array changes too, and the "
                "derivative cannot follow it)",
                f"Return the new array instead, and have the caller use it (for example "
                f"`{var} = np.copy({var})` first, then `return {var}`).")


def _refuse_container_change(form: NormalForm, stmt: ast.stmt, params: set[str]) -> None:
    """``acc.append(v)`` or ``acc.pop()`` on a list given by the caller changes the caller's
    list too, which the caller's derivative does not see (it was a silent wrong gradient)."""
    owner, how = sharing.change_in_place(stmt)
    if owner in params and owner in form.activity.varied and how != "a write into an element":
        raise form.parsed.unsupported(
            stmt, f"changing `{owner}` in place ({how}), a list `{form.parsed.tree.name}` was "
            "given by the function that calls it (the caller's list changes too, and the "
            "derivative cannot follow it)",
            f"Return the new list instead, and have the caller use it (for example "
            f"`{owner} = list({owner})` first, then `return {owner}`).")


def normal_form(fn: Any, wrt: tuple[str, ...], has_aux: bool = False,
                zero_outputs: tuple[int, ...] = ()) -> NormalForm:
    """parse, check, desugar, ssa, activity, normalize: the front half of every mode.
    ``zero_outputs``: positions of the returned tuple that carry no derivative."""
    parsed = parse_function(fn)
    checks.reject_unsupported(parsed)
    params = forms.parameters_of(parsed.tree.args)
    for w in wrt:
        if w not in params:
            raise ValueError(f"{fn.__name__} has no parameter named {w!r}")
    namer = _namer(parsed)
    params = [namer.inside(p) for p in params]
    wrt = tuple(namer.inside(w) for w in wrt)
    fdef = desugar.run(parsed, namer)
    _debug("desugar", fdef)
    aux = _split_aux(fdef, namer, parsed) if has_aux else None
    if zero_outputs:
        _without_cotangents(fdef, zero_outputs, namer, parsed)
    fdef.body = ssa.run(fdef.body, set(params), namer)
    _single_named_return(fdef, namer)
    _debug("ssa", fdef)
    resolver = Resolver(parsed, activity_pass.local_names(fdef))
    resolver.kinds = local_kinds(fdef)  # `+`/`*` of lists and tuples join and repeat
    outputs = _returned_names(fdef)
    resolver.freeze()
    activity = activity_pass.analyse(fdef.body, list(wrt), outputs, resolver)
    resolver.thaw()  # normalize rewrites expressions in place
    normalizer = normalize.Normalizer(namer, resolver, activity.is_active,
                                      lambda e: _is_namespace(parsed, e, resolver))
    fdef.body = normalizer.block(fdef.body)
    resolver.locals = activity_pass.local_names(fdef)
    resolver.kinds = local_kinds(fdef)
    resolver.freeze()  # from here on the normal form only is read
    activity = activity_pass.analyse(fdef.body, list(wrt), outputs, resolver)
    sharing.refuse_writes_through_shared_arrays(parsed, fdef, activity,
                                                set(normalizer.temporaries))
    _debug("normalize", fdef)
    return NormalForm(parsed, fdef, params, tuple(wrt), namer, resolver, activity,
                      set(normalizer.temporaries), aux)


def _without_cotangents(fdef: ast.FunctionDef, positions: tuple[int, ...], namer: Namer,
                        parsed: Parsed) -> None:
    """``return next_h, cache`` becomes ``return next_h, no_cotangent(cache)`` for position
    1: ``no_cotangent`` is the identity without a derivative, so the backward is made for
    ``next_h`` alone and reads nothing of the cotangent's position 1 (the caller's ``None``)."""
    last = fdef.body[-1] if fdef.body else None
    value = last.value if isinstance(last, ast.Return) else None
    if not isinstance(value, ast.Tuple) or max(positions) >= len(value.elts) or any(
            isinstance(e, ast.Starred) for e in value.elts) or "no_cotangent" in namer.collisions:
        raise NotSpecialised(fdef.name)
    parsed.inserted["no_cotangent"] = support.no_cotangent
    for position in positions:
        value.elts[position] = desugar.located(call("no_cotangent", value.elts[position]),
                                               value.elts[position])


def _split_aux(fdef: ast.FunctionDef, namer: Namer, parsed: Parsed) -> str:
    """``return loss, aux`` (``has_aux=True``) becomes ``aux = ...; return loss``: only the
    first part is differentiated; the name of the second is returned."""
    last = fdef.body[-1] if fdef.body else None
    if not isinstance(last, ast.Return) or last.value is None:
        raise parsed.unsupported(
            last or parsed.tree, "a function without a `return`, differentiated with "
            "`has_aux=True`", "Return a pair: `return output, aux`.")
    aux = namer.fresh("aux")
    value = last.value
    if isinstance(value, ast.Tuple) and len(value.elts) == 2:
        output = namer.fresh(f"{fdef.name}_output", shorten=False)
        fdef.body[-1:] = [assign(output, value.elts[0], last), assign(aux, value.elts[1], last),
                          desugar.located(ast.Return(value=name(output)), last)]
        return aux
    if isinstance(value, (ast.Tuple, ast.List)):
        raise parsed.unsupported(
            last, f"returning {len(value.elts)} values with `has_aux=True`",
            "Return a pair: `return output, aux` (put several aux values in a tuple or dict).")
    output = namer.fresh(f"{fdef.name}_output", shorten=False)
    pair = ast.Tuple(elts=[name(output, True), name(aux, True)], ctx=ast.Store())
    fdef.body[-1:] = [assign(pair, value, last),
                      desugar.located(ast.Return(value=name(output)), last)]
    return aux


def provenance_comments(parsed: Parsed):
    """``line -> comment statement text`` quoting the user's statement at that line."""
    comments = _statement_texts(parsed)
    return lambda line: printer.COMMENT_MARK + comments.get(
        line, _without_comment(parsed.line(line).strip()))


def analyse_reverse(fn: Any, wrt: tuple[str, ...], has_aux: bool = False,
                    zero_outputs: tuple[int, ...] = ()) -> ReverseAnalysis:
    form = normal_form(fn, wrt, has_aux, zero_outputs)
    parsed, fdef, params, namer = form.parsed, form.fdef, form.params, form.namer
    resolver, activity = form.resolver, form.activity
    analysis = ReverseAnalysis(parsed, fdef, params, form.wrt, None,  # type: ignore[arg-type]
                               namer, aux=form.aux)

    def provide(callee: Any, active: tuple[str, ...], zero_outputs: tuple[int, ...] = ()
                ) -> CalleeDerivative:
        return _callee_derivative(analysis, callee, active, zero_outputs)

    if _IN_PROGRESS:
        refuse_writes_into_parameters(form)
    if fn in _IN_PROGRESS:
        raise UnsupportedSyntaxError(
            "a recursive call", "Rewrite the recursion as a loop.", parsed.filename,
            parsed.tree.lineno, 0, parsed.line(parsed.tree.lineno))
    _IN_PROGRESS.append(fn)
    try:
        reverse = ReverseMode(parsed, resolver, activity, namer, provide,
                              provenance_comments(parsed))
        scalars = scalar_variables(fdef.body, set(params), resolver)
        reverse.shapes = shape_facts(fdef.body, params, scalars, resolver)
        analysis.scalars = scalars
        reverse.temporaries = set(form.temporaries)
        if form.aux is not None:
            reverse.returned_beside.add(form.aux)
        analysis.result = reverse.run(fdef)
        if batched_products.enabled():
            analysis.result.adjoint = batched_products.batch_weight_gradients(
                analysis.result.adjoint, namer)
            analysis.result.forward = batched_products.batch_input_products(
                analysis.result.forward, namer)
    finally:
        _IN_PROGRESS.pop()
    return analysis


def _callee_derivative(caller: ReverseAnalysis, callee: Any, active: tuple[str, ...],
                       zero_outputs: tuple[int, ...] = ()) -> CalleeDerivative:
    # by identity: generated callees share names (every variant of `helper`'s backward is
    # `backward_helper`), and differentiating one variant for another gives wrong code
    key = f"{callee.__name__}:{id(callee)}:{','.join(active)}:{zero_outputs}"
    if key in caller.callee_functions:
        return caller.callee_functions[key]
    try:
        forward_fn, backward_fn = split_functions(callee, active, zero_outputs=zero_outputs)
    except NotSpecialised:  # it does not return a tuple display: zeros are passed
        derivative = caller.callee_functions[key] = _callee_derivative(caller, callee, active)
        return derivative
    forward_name = caller.namer.fresh(f"forward_{forms.identifier(callee)}")
    backward_name = caller.namer.fresh(f"backward_{forms.identifier(callee)}")
    caller.callee_functions[forward_name] = forward_fn
    caller.callee_functions[backward_name] = backward_fn
    derivative = CalleeDerivative(forward_name, backward_name, active, zero_outputs)
    caller.callee_functions[key] = derivative
    return derivative


# -- assembling the generated functions -----------------------------------------------------
def grad_function_ast(analysis: ReverseAnalysis, with_value: bool, single: bool = True
                      ) -> ast.FunctionDef:
    """``grad_f``: the forward sweep, the seed, the backward sweep, the gradients."""
    fdef, result = analysis.fdef, analysis.result
    forward, adjoint, output = result.forward, result.adjoint, result.output
    if result.output_grad is not None:
        seed: ast.expr = call("scalar_seed", name(output.id))
        # the value is not returned: compute it only if the sweep needs it, and if it is
        # surely a real number (else scalar_seed must see it, to refuse it)
        if not with_value and surely_real(analysis.parsed, fdef, output.id):
            reads = shape_reads(adjoint)
            forward, adjoint, dropped = drop_unused_scalars(forward, adjoint, output.id,
                                                            analysis.scalars, reads)
            if output.id in dropped:
                seed = ast.Constant(1.0)
                forward, adjoint = shapes_instead_of_values(forward, adjoint,
                                                            value_reads=reads[1])
        forward = [*forward, assign(result.output_grad, seed, fdef)]
    elif output is not None:  # no derivative flows to it: it must still be a real number
        forward = [*forward, desugar.located(ast.Expr(value=call("scalar_seed", clone(output))),
                                             fdef.body[-1])]
    body = [*forward, *adjoint]
    grads = [_final_gradient(analysis, w) for w in analysis.wrt]
    value: ast.expr = grads[0] if single else ast.Tuple(elts=grads, ctx=ast.Load())
    if with_value:
        value = ast.Tuple(elts=[_with_aux(analysis, clone(output)), value], ctx=ast.Load())
    elif analysis.aux is not None:
        value = ast.Tuple(elts=[value, name(analysis.aux)], ctx=ast.Load())
    body.append(ast.Return(value=value))
    prefix = "value_and_grad" if with_value else "grad"
    made = _function(analysis.namer.function_name(f"{prefix}_{analysis.parsed.tree.name}"),
                     fdef.args, body)
    row_sparse_accumulators(made, _sparse_callee(analysis))
    return made


def _with_aux(analysis: Any, output: ast.expr) -> ast.expr:
    """``(output, aux)`` with ``has_aux``, else ``output``."""
    if analysis.aux is None:
        return output
    return ast.Tuple(elts=[output, name(analysis.aux)], ctx=ast.Load())


def _final_gradient(analysis: ReverseAnalysis, param: str) -> ast.expr:
    grads = analysis.result.grads
    if param in grads:
        return call("as_gradient", name(grads[param]), name(param))
    return call("zeros_like_grad", name(param))


def _function(fname: str, args: ast.arguments, body: list[ast.stmt]) -> ast.FunctionDef:
    clean_args = clone(args)
    for a in [*clean_args.posonlyargs, *clean_args.args, *clean_args.kwonlyargs,
              clean_args.vararg, clean_args.kwarg]:
        if a is not None:
            a.annotation = None
    fdef = ast.FunctionDef(name=fname, args=clean_args, body=body, decorator_list=[],
                           returns=None, type_comment=None, lineno=1)
    _inherit_lines(fdef.body, fdef.lineno)
    return fdef


def _inherit_lines(body: list[ast.stmt], lineno: int) -> None:
    """A statement the passes did not locate takes the line of the statement it is in, as
    ``ast.fix_missing_locations`` would give it. Only statements: their lines are what
    ``debug.landmarks`` reads, and the code compiled is the printed text, parsed anew (a
    pass over every expression node was a noticeable part of assembling)."""
    for stmt in body:
        if not hasattr(stmt, "lineno"):
            stmt.lineno = lineno
        if "body" in stmt._fields:  # (only what holds a block holds statements)
            for part in ("body", "orelse", "finalbody", "handlers"):
                _inherit_lines(getattr(stmt, part, []), stmt.lineno)


def render(fdef: ast.FunctionDef) -> str:
    return printer.to_source(fdef)


def compile_generated(analysis: Any, fdef: ast.FunctionDef) -> types.FunctionType:
    namer: Namer = analysis.namer
    source = render(namer.respell(fdef))
    fn = analysis.parsed.fn
    cells = {}
    if fn.__closure__:
        cells = dict(zip(fn.__code__.co_freevars, fn.__closure__, strict=True))
    helpers, spelled = linked_references(namer)
    helpers.update(analysis.parsed.extra)  # what nested transformations made (frontend/nesting)
    helpers.update({k: v for k, v in analysis.callee_functions.items()
                    if not isinstance(v, CalleeDerivative)})
    compiled = compile_function(source, fdef.name, fn.__globals__, cells, helpers,
                                fn.__defaults__, fn.__kwdefaults__,
                                note=provenance(analysis, fdef, source))
    compiled.source = source
    compiled.helper_names = spelled
    compiled.dependencies = [v for v in analysis.callee_functions.values()
                             if not isinstance(v, CalleeDerivative)]
    if analysis.parsed.extra:  # (listing a long text's words takes a while)
        used = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", source))
        compiled.dependencies += [v for k, v in analysis.parsed.extra.items()
                                  if k in used and getattr(v, "source", None) is not None]
    return compiled


def linked_references(namer: Namer) -> tuple[dict[str, Any], dict[str, str]]:
    """What the generated code's names of sourcegrad's things denote, by the names it uses:
    the usual ones, but those the user took under their other spelling (the user's names
    must reach the user's values); and ``other spelling -> usual name``."""
    table = references()
    linked = dict(table)
    for taken in namer.collisions:
        linked.pop(taken, None)
    spelled = {}
    for usual, other in namer.spellings.items():
        if usual in table:
            linked[other] = table[usual]
            spelled[other] = usual
    return linked, spelled


def provenance(analysis: ReverseAnalysis, fdef: ast.FunctionDef, source: str
               ) -> debug.Provenance:
    """What adds the user's line to an exception raised inside the generated function."""
    fn = analysis.parsed.fn
    tree = analysis.parsed.tree
    marks = debug.landmarks(fdef, fn.__code__.co_firstlineno, tree.end_lineno or tree.lineno)
    return debug.Provenance(fn, fdef.name, source, marks)


def module_source(compiled: Any) -> str:
    """The generated function followed by every generated function it calls, in the order
    first reached: the text of a module that defines them all."""
    return "\n\n".join(fn.source for fn in emit.generated_functions(compiled))


@cache.callee_variant("split")
def split_functions(fn: Any, wrt: tuple[str, ...], has_aux: bool = False,
                    zero_outputs: tuple[int, ...] = (), option: str = "") -> tuple[Any, Any]:
    """``forward_f(*args) -> (value, saved)`` and ``backward_f(cotangent, saved) -> grads``;
    with ``has_aux``, the value is ``(output, aux)``. ``zero_outputs``: positions of the
    tuple ``fn`` returns whose cotangent the caller knows to be zero; the cotangent passed
    holds ``None`` there, and the backward is made for the other positions only (raises
    ``NotSpecialised`` where ``fn`` does not end with ``return a, b, ...``). ``option`` is
    how the disk cache spells them (``zero=1,2``)."""
    if option:
        zero_outputs = tuple(int(i) for i in option.removeprefix("zero=").split(","))
    variant = "split-aux" if has_aux else "split"
    if zero_outputs:
        variant += "/zero=" + ",".join(map(str, zero_outputs))
    forward, backward = cache.derivative(
        fn, tuple(wrt), variant, lambda: tuple(wrt),
        lambda names: _split_functions(fn, names, has_aux, zero_outputs))
    return forward, backward


def _split_functions(fn: Any, wrt: tuple[str, ...], has_aux: bool = False,
                     zero_outputs: tuple[int, ...] = ()) -> tuple[Any, Any]:
    analysis = analyse_reverse(fn, wrt, has_aux, zero_outputs)
    forward_ast, backward_ast = split_function_asts(analysis)
    return compile_generated(analysis, forward_ast), compile_generated(analysis, backward_ast)


def split_function_asts(analysis: ReverseAnalysis) -> tuple[ast.FunctionDef, ast.FunctionDef]:
    fdef, result = analysis.fdef, analysis.result
    fname = analysis.parsed.tree.name
    output = result.output if result.output is not None else ast.Constant(None)
    residuals = _residuals(analysis)
    saved_name = analysis.namer.fresh("saved")
    forward_body = [*_unbound_residuals(analysis, residuals), *result.forward]
    saved = ast.Tuple(elts=[name(r) for r in residuals], ctx=ast.Load())
    forward_body.append(ast.Return(value=ast.Tuple(elts=[_with_aux(analysis, clone(output)),
                                                         saved], ctx=ast.Load())))
    forward = _function(analysis.namer.function_name(f"forward_{fname}"), fdef.args,
                        forward_body)
    seed = result.output_grad or analysis.namer.fresh("grad_output")
    backward_body: list[ast.stmt] = []
    if residuals:
        targets = ast.Tuple(elts=[name(r, True) for r in residuals], ctx=ast.Store())
        if len(residuals) == 1:
            targets = ast.Tuple(elts=[name(residuals[0], True)], ctx=ast.Store())
        backward_body.append(ast.Assign(targets=[targets], value=name(saved_name)))
    # the sweep pops stacks and restores overwritten elements: work on copies, so that the
    # backward function can run again on the same saved values
    for var in residuals:
        if var in result.consumed:
            backward_body.extend(_private_copies(result, var, residuals, fdef))
    backward_body.extend(result.adjoint)
    grads = [name(result.grads[w]) if w in result.grads else call("zeros_like_grad", name(w))
             for w in analysis.wrt]
    backward_body.append(ast.Return(value=ast.Tuple(elts=grads, ctx=ast.Load())))
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=seed), ast.arg(arg=saved_name)],
                         vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    backward = _function(analysis.namer.function_name(f"backward_{fname}"), args,
                         backward_body)
    row_sparse_accumulators(backward, _sparse_callee(analysis))
    return forward, backward


def _sparse_callee(analysis: ReverseAnalysis):
    """Whether a callee's backward (by its name in the generated code) returns a gradient
    that may be row-sparse, at a position: read off its source."""
    known: dict[str, set[int]] = {}

    def sparse(backward_name: str, position: int) -> bool:
        if backward_name not in known:
            fn = analysis.callee_functions.get(backward_name)
            text = getattr(fn, "source", None)
            tree = ast.parse(text).body[0] if text else None
            known[backward_name] = sparse_gradients(tree) if isinstance(
                tree, ast.FunctionDef) else set()
        return position in known[backward_name]

    return sparse


def _private_copies(result: ReverseResult, var: str, residuals: list[str],
                    like: ast.AST) -> list[ast.stmt]:
    """``var = private_copy(var)``; but a variable whose element writes also change an
    intermediate array it shares memory with (``a = np.linalg.inv(m)[0]; a[1] = 3.0``; a
    gradient's ``grad_x = unbroadcast(t, x); grad_x[i] = ...``) keeps sharing it: that array
    is copied, and ``var`` made from the copy again by the statement that made it, so that
    the elements the sweep restores through ``var`` reach the array's derivative too."""
    bases = sorted(result.aliased.get(var, ()))
    made = [s for s in result.forward if isinstance(s, ast.Assign)
            and isinstance(s.targets[0], ast.Name) and s.targets[0].id == var]
    stores = [n for s in result.forward for n in walk(s)
              if isinstance(n, ast.Name) and n.id == var and isinstance(n.ctx, ast.Store)]
    if not bases or len(made) != 1 or len(stores) != 1 or not set(bases) <= set(residuals):
        return [assign(var, call("private_copy", name(var)), like)]
    return [*(assign(b, call("private_copy", name(b)), like) for b in bases), clone(made[0])]


def _unbound_residuals(analysis: ReverseAnalysis, residuals: list[str]) -> list[ast.stmt]:
    """``v = None`` for each saved value that only some paths (one side of a branch) assign,
    so that ``forward_f`` can return the saved tuple whichever path ran."""
    top_level = {v for stmt in analysis.result.forward if isinstance(stmt, ast.Assign)
                 for t in stmt.targets for v in activity_pass.target_names(t)}
    return [assign(v, ast.Constant(None), analysis.fdef) for v in residuals
            if v not in analysis.params and v not in top_level]


def _residuals(analysis: ReverseAnalysis) -> list[str]:
    result = analysis.result
    forward_names = set(analysis.params)
    for stmt in result.forward:
        for node in walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                forward_names.add(node.id)
    used: list[str] = []
    for stmt in result.adjoint:
        for node in walk(stmt):
            if isinstance(node, ast.Name) and node.id in forward_names and node.id not in used:
                used.append(node.id)
    for w in analysis.wrt:
        if w not in result.grads and w not in used:
            used.append(w)
    return used


# -- small helpers --------------------------------------------------------------------------
def _namer(parsed: Parsed) -> Namer:
    """The namer of one function: it knows every name in use, the user's and sourcegrad's
    (``references``), and which of sourcegrad's the user's function gives another meaning:
    a name it binds (parameter, local, nested function), or reads as a global, closure
    variable or builtin that is not sourcegrad's value (a function of the user's called
    ``unbroadcast``, an ``np`` that is not NumPy); for ``_``, any read. The user's meaning
    wins; ``Namer`` spells sourcegrad's thing otherwise."""
    bound, read = set(), set()
    for node in walk(parsed.tree):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.FunctionDef) and node is not parsed.tree:
            bound.add(node.name)
    table = references()
    users = bound | read
    collisions = {n for n in users if n in table
                  and (n in bound or parsed.lookup(n) is not table[n])}
    if _THROWAWAY in read:
        collisions.add(_THROWAWAY)
    fname = parsed.tree.name
    taken = users | {_THROWAWAY, fname, f"grad_{fname}", f"value_and_grad_{fname}",
                     f"forward_{fname}", f"backward_{fname}", f"jvp_{fname}"}
    taken.update(table)
    namer = Namer(taken, collisions, users)
    # a module the user reads under a name of their own (``np`` taken, ``numpy`` read): the
    # generated code uses that name too
    for own in sorted(collisions & table.keys()):
        if isinstance(table[own], types.ModuleType):
            same = sorted(n for n in read - bound - collisions if parsed.lookup(n) is table[own])
            if same:
                namer.spellings[own] = same[0]
    return namer


def _single_named_return(fdef: ast.FunctionDef, namer: Namer) -> None:
    """End the function with ``return <name>`` (or a tuple of names) so that the output's
    adjoint has a name to hang on."""
    last = fdef.body[-1] if fdef.body else None
    if not isinstance(last, ast.Return) or last.value is None:
        return
    if isinstance(last.value, ast.Name) and _assigned_once_at_top(fdef, last.value.id):
        return
    base = "result" if isinstance(last.value, ast.Tuple) else f"{fdef.name}_value"
    temp = namer.fresh(base, shorten=False)
    fdef.body[-1:] = [assign(temp, last.value, last),
                      desugar.located(ast.Return(value=name(temp)), last)]


def _assigned_once_at_top(fdef: ast.FunctionDef, var: str) -> bool:
    """Is ``var`` assigned exactly once, by a top-level statement? Then its final value is
    never overwritten or restored, and can be returned as it is."""
    params = set(forms.parameters_of(fdef.args))
    if var in params:
        return False
    top = [s for s in fdef.body if isinstance(s, ast.Assign)
           and var in activity_pass.target_names(s.targets[0])]
    everywhere = [n for n in walk(fdef) if isinstance(n, ast.Name) and n.id == var
                  and isinstance(n.ctx, ast.Store)]
    return len(top) == 1 == len(everywhere)


def _returned_names(fdef: ast.FunctionDef) -> set[str]:
    last = fdef.body[-1] if fdef.body else None
    if isinstance(last, ast.Return) and last.value is not None:
        return {n.id for n in walk(last.value) if isinstance(n, ast.Name)}
    return set()


def _is_namespace(parsed: Parsed, expr: ast.expr, resolver: Resolver) -> bool:
    return isinstance(resolver.value_of(expr), types.ModuleType)


def _statement_texts(parsed: Parsed) -> dict[int, str]:
    """The user's text of each statement, by line, for provenance comments."""
    texts: dict[int, str] = {}
    for node in walk(parsed.tree):
        if not isinstance(node, ast.stmt) or node is parsed.tree:
            continue
        if isinstance(node, (ast.If, ast.For, ast.While)):
            header = parsed.line(node.lineno).strip()
            texts.setdefault(node.lineno, header)
            continue
        lines = [parsed.line(n).strip() for n in range(node.lineno,
                                                         (node.end_lineno or node.lineno) + 1)]
        texts.setdefault(node.lineno, _without_comment(" ".join(lines)))
    return texts


def _without_comment(text: str) -> str:
    """The user's code without its trailing comment: a ``# noqa`` quoted in generated code
    would speak to linters there."""
    if "#" not in text:
        return text
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    comments = [t for t in tokens if t.type == tokenize.COMMENT]
    if not comments:
        return text
    return text[:comments[0].start[1]].rstrip()


def parameter_names(fn: Any) -> list[str]:
    return list(inspect.signature(fn).parameters)
