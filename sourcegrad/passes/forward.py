"""Forward mode: the user's code with each differentiable statement followed by the
statements computing its tangent.

Invariants of the generated code:

- *Same control flow.* ``if``/``for``/``while``/``break`` are the user's own (after
  desugaring); the tangent of a statement is computed right after the statement, from the
  values it just produced, so nothing is ever saved or replayed.
- *Symbolic zeros.* ``tangent_x`` exists only once a non-zero tangent has reached ``x``; a
  statement with several tangent contributions assigns their sum, contributions from
  zero tangents are left out, and no zero array is created except where two paths merge (a
  branch, a loop, a ``break``) and one of them carries no tangent, or where an element of a
  container needs one.
- *Aliasing.* A tangent is modified in place (``tangent_x[i] = ...``, ``.append``,
  ``.pop()``) only when the generated code owns it: it created it, or copied it with
  ``private_copy`` first.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

from ..codegen import names as naming
from ..codegen.clone import clone, clone_replacing
from ..codegen.inline import fold, inline
from ..codegen.known import fold_known
from ..codegen.walk import walk
from ..compile import is_generated
from ..dynamic import dynamic_again, dynamic_depends, is_dynamic_helper
from ..frontend.forms import parameters_of
from ..frontend.resolve import (
    COPY,
    DISPLAY,
    DYNAMIC,
    FIELD,
    NONDIFF,
    RECORD,
    RULE,
    SUBSCRIPT,
    UNKNOWN,
    USER,
    Op,
    Resolver,
)
from ..frontend.source import Parsed
from ..rules import support
from ..rules.methods import VIEW_PRIMITIVES
from .activity import (
    Activity,
    call_for_effect,
    is_add_at,
    is_append,
    stored_base,
    target_names,
    writes_in_place,
)
from .desugar import assign, call, located, name
from .saving import Placement, forward_reads
from .shapes import ShapeFacts

# Given a user function and the names of its parameters whose tangents are non-zero at a
# call site: the name of its generated ``jvp_g`` and the names of its tangent parameters.
CalleeJvpProvider = Callable[[object, tuple[str, ...]], "CalleeJvp"]


@dataclass
class CalleeJvp:
    function: str  # jvp_g(<g's params>, *, tangent_<p>...) -> (value, tangent)
    tangent_params: dict[str, str]  # g's parameter -> its tangent parameter


@dataclass
class _State:
    """What is known at one point of the generated code."""

    defined: set[str] = field(default_factory=set)  # variables that have a tangent
    owned: set[str] = field(default_factory=set)  # ... that the generated code owns
    bound: set[str] = field(default_factory=set)  # variables surely bound (primal)

    def copy(self) -> _State:
        return _State(set(self.defined), set(self.owned), set(self.bound))


@dataclass
class ForwardResult:
    body: list[ast.stmt]
    output: ast.expr | None
    output_tangent: ast.expr | None
    tangent_params: dict[str, str]


class ForwardMode:
    def __init__(self, parsed: Parsed, resolver: Resolver, activity: Activity,
                 namer: naming.Namer, callees: CalleeJvpProvider,
                 comment: Callable[[int], str]) -> None:
        self.parsed = parsed
        self.resolver = resolver
        self.activity = activity
        self.namer = namer
        self.callees = callees
        self.comment = comment
        self.tangent_names: dict[str, str] = {}
        self.shapes = ShapeFacts(set(), {})  # what the code tells of shapes
        # variables that may share memory with another array -> that array
        self.views: dict[str, str] = {}
        # views whose base was written into since they were made -> that base: reading one
        # would see the write, which their tangent (the copy `_own` writes into) does not
        self.stale: dict[str, str] = {}
        # names normalize introduced: each read once, so sharing memory with one is harmless
        self.temporaries: set[str] = set()
        self.state = _State()
        # per enclosing loop: the state at each of its breaks, and the break
        self.breaks: list[list[tuple[_State, ast.stmt]]] = []

    # -- entry ------------------------------------------------------------------------------
    def run(self, fdef: ast.FunctionDef, wrt: tuple[str, ...]) -> ForwardResult:
        params = parameters_of(fdef.args)
        tangent_params = {p: self.tangent(p) for p in wrt}
        self.state = _State(defined=set(wrt), owned=set(), bound=set(params))
        self.placement = Placement(fdef.body, params)
        body = fdef.body
        ret = body[-1] if body and isinstance(body[-1], ast.Return) else None
        core = body[:-1] if ret is not None else body
        out = self.block(core)
        output = ret.value if ret is not None else None
        return ForwardResult(out, output, self._output_tangent(output), tangent_params)

    def _output_tangent(self, output: ast.expr | None) -> ast.expr | None:
        if output is None:
            return None
        if isinstance(output, ast.Tuple):
            return ast.Tuple(elts=[self.tangent_or_zero(e) for e in output.elts],
                             ctx=ast.Load())
        return self.tangent_or_zero(output)

    # -- names ------------------------------------------------------------------------------
    def tangent(self, var: str) -> str:
        if var not in self.tangent_names:
            self.tangent_names[var] = self.namer.fresh(naming.tangent_base(var), shorten=False)
        return self.tangent_names[var]

    def has_tangent(self, expr: ast.expr) -> bool:
        return isinstance(expr, ast.Name) and expr.id in self.state.defined

    def tangent_or_zero(self, expr: ast.expr) -> ast.expr:
        if self.has_tangent(expr):
            return name(self.tangent(expr.id))
        return call("zeros_like_grad", clone(expr))

    def tangent_or_none(self, expr: ast.expr) -> ast.expr:
        return name(self.tangent(expr.id)) if self.has_tangent(expr) else ast.Constant(None)

    # -- blocks -----------------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        last_line = None
        for stmt in stmts:
            code = self.statement(stmt)
            line = getattr(stmt, "lineno", None)
            if code and line not in (None, last_line) and self._adds_tangent(code, stmt):
                out.append(located(ast.Expr(value=ast.Constant(self.comment(line))), stmt))
                last_line = line
            out.extend(code)
        return out or [ast.Pass()]

    @staticmethod
    def _adds_tangent(code: list[ast.stmt], stmt: ast.stmt) -> bool:
        """A comment is worth it where the code is more than the user's statement itself
        (a compound statement's body has comments of its own)."""
        if len(code) != 1:
            return True
        return not (code[0] is stmt or isinstance(code[0], (ast.If, ast.For, ast.While,
                                                            ast.Break)))

    def statement(self, stmt: ast.stmt) -> list[ast.stmt]:
        self._refuse_stale_reads(stmt)
        if isinstance(stmt, ast.If):
            return self._if(stmt)
        if isinstance(stmt, (ast.For, ast.While)):
            return self._loop(stmt)
        if isinstance(stmt, ast.Break):
            jump = located(ast.Break(), stmt)
            self.breaks[-1].append((self.state.copy(), jump))
            return [jump]
        if isinstance(stmt, ast.Assign):
            out = self._assign(stmt)
            self.state.bound |= {v for t in stmt.targets for v in target_names(t)}
            return out
        if isinstance(stmt, ast.AugAssign):
            return [stmt, *self._augassign(stmt)]
        if is_append(stmt):
            return [stmt, *self._append(stmt)]
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            return [stmt, *self._call_statement(stmt)]
        return [stmt]

    # -- control flow: the user's own, with tangents made to agree where paths merge --------
    def _if(self, stmt: ast.If) -> list[ast.stmt]:
        start = self.state.copy()
        body = self.block(stmt.body)
        after_body = self.state
        self.state = start.copy()
        orelse = self.block(stmt.orelse) if stmt.orelse else []
        after_else = self.state
        paths = [(code, state) for code, state in ((body, after_body), (orelse, after_else))
                 if not _jumps(code)]
        self.state = self._merge(paths, stmt) if paths else start
        orelse = [s for s in orelse if not isinstance(s, ast.Pass)]
        branch = ast.If(test=stmt.test, body=_without_pass(body), orelse=orelse)
        return [located(branch, stmt)]

    def _merge(self, paths: list[tuple[list[ast.stmt], _State]], like: ast.stmt) -> _State:
        """Give every path the tangents any path has (zeros where it has none), where the
        variable is bound on that path; the state after the paths join."""
        defined = set().union(*(state.defined for _, state in paths))
        owned = set(defined)
        bound = set.intersection(*(state.bound for _, state in paths))
        for code, state in paths:
            missing = sorted(defined - state.defined)
            fills = [self._zero_fill(var, like) for var in missing if var in state.bound]
            code.extend(fills)
            owned &= state.owned | set(missing)
        return _State(defined, owned, bound)

    def _zero_fill(self, var: str, like: ast.stmt) -> ast.stmt:
        return assign(self.tangent(var), call("zeros_like_grad", name(var)), like)

    def _loop(self, stmt: ast.For | ast.While) -> list[ast.stmt]:
        entry = self.state.copy()
        if isinstance(stmt, ast.For):
            entry_bound = entry.bound | target_names(stmt.target)
        else:
            entry_bound = set(entry.bound)
        top = _State(set(entry.defined), set(entry.owned), entry_bound)
        for _ in range(20):  # fixed point: the tangents defined at the top of the body
            self.state = top.copy()
            self.breaks.append([])
            body = self.block(stmt.body)
            breaks = self.breaks.pop()
            ends = [self.state, *(state for state, _ in breaks)]
            grown = set().union(*(s.defined for s in ends)) - top.defined
            lost = top.owned - set.intersection(*(s.owned for s in ends))
            if not grown and not lost:
                break
            top.defined |= grown
            top.owned = (top.owned - lost) | {v for v in grown if v in entry.bound}
        # the body's end flows back to the top: it needs every tangent the top has
        end_state = self.state
        tail = [self._zero_fill(v, stmt) for v in sorted(top.defined - end_state.defined)
                if v in end_state.bound]
        body = _without_pass(body + tail)
        self._fill_breaks(body, top, stmt, breaks)
        prologue = [self._zero_fill(v, stmt) for v in sorted(top.defined - entry.defined)
                    if v in entry.bound]
        self.state = _State(set(top.defined), set(top.owned), set(entry.bound))
        if isinstance(stmt, ast.For):
            loop: ast.stmt = ast.For(target=stmt.target, iter=stmt.iter, body=body or [ast.Pass()],
                                     orelse=[], type_comment=None)
        else:
            loop = ast.While(test=stmt.test, body=body or [ast.Pass()], orelse=[])
        return [*prologue, located(loop, stmt)]

    def _fill_breaks(self, body: list[ast.stmt], top: _State, like: ast.stmt,
                     breaks: list[tuple[_State, ast.stmt]]) -> None:
        """Before each ``break``: zeros for the tangents the code after the loop expects."""
        for state, node in breaks:
            block = _block_holding(body, node)
            missing = sorted(top.defined - state.defined)
            block[-1:-1] = [self._zero_fill(v, like) for v in missing if v in state.bound]

    # -- assignments ------------------------------------------------------------------------
    def _assign(self, stmt: ast.Assign) -> list[ast.stmt]:
        target = stmt.targets[0]
        if isinstance(target, ast.Subscript):
            return [stmt, *self._subscript_write(stmt, target)]
        if isinstance(target, ast.Tuple):
            return [stmt, *self._unpack(target, stmt.value, stmt)]
        var = target.id
        in_place = getattr(stmt, "in_place_of", None)
        if isinstance(in_place, ast.Name):
            self._refuse_update_of_alias(in_place.id, stmt)
        op = self.resolver.classify(stmt.value)
        self._note_view(var, op)
        self.stale.pop(var, None)
        if not self.activity.is_active(var):
            self._forget(var)
            return [stmt]
        if op.kind == USER:
            return self._user_call(stmt, op, var)
        if op.kind == DYNAMIC:
            return self._dynamic_call(stmt, op, var)
        if _is_pop(stmt.value) and isinstance(stmt.value.func.value, ast.Name):
            return [stmt, *self._pop(stmt, var, stmt.value.func.value.id)]
        tangent_expr = self._tangent_of(stmt, op, var)
        if tangent_expr is None:
            self._forget(var)
            return [stmt]
        return [stmt, self._define(var, tangent_expr, stmt)]

    def _note_view(self, var: str, op: Op) -> None:
        """Remember variables that may share memory with another array (``y = x``,
        ``y = x[0]``, ``y = x.T``...): writing into them would change that array too, which
        tangents cannot follow."""
        bases = [a.id for a in op.args.values() if isinstance(a, ast.Name)]
        if bases and bases[0] not in self.temporaries and (op.kind in (COPY, SUBSCRIPT)
                      or op.kind == RULE and op.callee in VIEW_PRIMITIVES):
            self.views[var] = bases[0]
        else:
            self.views.pop(var, None)

    def _refuse_update_of_alias(self, var: str, stmt: ast.stmt) -> None:
        """``c = a; c += x`` changes ``a`` as well when ``c`` is an array, but is
        differentiated as ``c = c + x``: refused while another name for ``c``'s memory is
        read after the update."""
        aliases = {v for v, base in self.views.items() if base == var}
        if var in self.views:
            aliases.add(self.views[var])
        aliases -= self.temporaries  # each read once, right where it is made
        # the tangent code rebinds ``var`` where NumPy changed both names: only a read of
        # the other name that can see the change tells them apart (not the ``choice`` of
        # ``a += b if c else a``, read before the update)
        aliases = {a for a in aliases if id(stmt) not in self.placement.places
                   or self.placement.read_after(a, stmt)}
        if is_generated(self.parsed.filename):
            return  # generated code shares memory only where its author meant to
        active = {var, *aliases} & self.activity.varied
        if aliases and active and var not in self.shapes.scalars:
            alias = sorted(aliases)[0]
            raise self.parsed.unsupported(
                stmt, f"updating `{var}` in place while `{alias}` shares its memory (on "
                "arrays the update changes both, and forward mode cannot follow shared memory)",
                f"Make a new array instead (`{var} = {var} + ...`), or make `{var}` a copy "
                "where it is assigned (`np.copy(...)`).")

    def _refuse_write_through_view(self, var: str, stmt: ast.stmt,
                                   value: ast.expr | None = None) -> None:
        """A write into a possible view that a derivative would have to follow: refused."""
        base = self.views.get(var)
        if base is None or is_generated(self.parsed.filename):
            # a gradient's code writes into its own arrays (`y[0] = y_slice_old` puts back
            # what `y[0] *= x` overwrote): the memory it shares is shared on purpose
            return
        if self.activity.is_active(var) or base in self.state.defined or (
            value is not None and self._has_any_tangent(value)
        ):
            raise self.parsed.unsupported(
                stmt, f"writing into `{var}`, which may be a view of another array (forward "
                "mode cannot follow a write into shared memory)",
                f"Write into a copy: `{var} = np.copy(...)` where it is assigned.")

    def _forget(self, var: str) -> None:
        self.state.defined.discard(var)
        self.state.owned.discard(var)

    def _define(self, var: str, value: ast.expr, like: ast.stmt) -> ast.stmt:
        self.state.defined.add(var)
        if _is_fresh(value):
            self.state.owned.add(var)
        else:
            self.state.owned.discard(var)
        return assign(self.tangent(var), value, like)

    def _tangent_of(self, stmt: ast.Assign, op: Op, var: str) -> ast.expr | None:
        value = stmt.value
        if op.kind == RULE:
            tangent = self._rule_tangent(stmt, op, name(var))
            if tangent is not None and op.cast is not None:  # zero for an integer dtype
                tangent = call("through_cast", tangent, clone(op.cast))
            return tangent
        if op.kind == COPY:
            return self._tangent_name(op.args["x"])
        if op.kind == SUBSCRIPT:
            base = self._tangent_name(value.value)
            if base is None:
                return None
            return ast.Subscript(value=base, slice=clone(value.slice), ctx=ast.Load())
        if op.kind == DISPLAY:
            return self._display_tangent(value)
        if op.kind == FIELD:  # p.w: tangent_p.w (a namedtuple, dataclass or ``Fields``)
            base = self._tangent_name(value.value)
            if base is None:
                return None
            return ast.Attribute(value=base, attr=value.attr, ctx=ast.Load())
        if op.kind == RECORD:  # P(w=a, b=c): fields(w=tangent_a, b=tangent_c)
            if not any(self.has_tangent(a) for a in op.args.values()):
                return None
            return ast.Call(func=name("fields"), args=[], keywords=[
                ast.keyword(arg=k, value=self.tangent_or_zero(a)) for k, a in op.args.items()])
        if op.kind == UNKNOWN:  # an operand reading a tangent's variable anywhere: refused
            if any(isinstance(n, ast.Name) and n.id in self.state.defined
                   for a in op.args.values() for n in walk(a)):
                raise self._no_rule(stmt, op)
            return None
        if op.kind == NONDIFF:
            return None
        if any(self._has_any_tangent(a) for a in op.args.values()):
            raise self._no_rule(stmt, op)  # never a silent zero
        return None

    def _tangent_name(self, expr: ast.expr) -> ast.Name | None:
        return name(self.tangent(expr.id)) if self.has_tangent(expr) else None

    def _has_any_tangent(self, expr: ast.expr) -> bool:
        if isinstance(expr, (ast.Tuple, ast.List)):
            return any(self._has_any_tangent(e) for e in expr.elts)
        if isinstance(expr, ast.Dict):
            return any(self._has_any_tangent(v) for v in expr.values)
        return self.has_tangent(expr)

    def _argument_tangent(self, arg: ast.expr) -> ast.expr:
        """The tangent of an argument: a name's, or the display of its elements' (the
        ``*args`` tuple and ``**kwargs`` dict a call makes), zeros where they have none."""
        if isinstance(arg, ast.Dict):
            return ast.Dict(keys=clone(arg.keys),
                            values=[self.tangent_or_zero(v) for v in arg.values])
        if isinstance(arg, (ast.Tuple, ast.List)):
            return self._structured_tangent(arg, False)
        return name(self.tangent(arg.id))

    def _rule_tangent(self, stmt: ast.stmt, op: Op, ans: ast.expr) -> ast.expr | None:
        rule = op.rule
        assert rule is not None
        carried = {p: a for p, a in op.differentiable_args().items() if self._has_any_tangent(a)}
        if not carried:
            return None
        if getattr(rule, "joint_jvp", None) is not None:
            return self._joint_tangent(rule, op, ans, carried)
        if rule.linear and not any(p in rule.jvps for p in op.differentiable_args()):
            # the primitive applied to the tangents (zeros for the arguments without one)
            replacements = {id(a): self._tangent_argument(rule, p, a) if p in carried
                            else call("zeros_like_sequence" if p in rule.sequence_params
                                      else "zeros_like_grad", clone(a))
                            for p, a in op.differentiable_args().items()}
            return _apply_to_tangents(stmt.value, replacements)
        terms: list[ast.expr] = []
        for param, arg in carried.items():
            if param not in rule.jvps:
                raise self._no_rule(stmt, op, param)
            t = self._tangent_argument(rule, param, arg)
            term = inline(rule.jvps[param], [t, clone(ans)], op.args, rule.defaults)
            if self.shapes.has_output_shape(arg, op):
                term = _without_broadcast_like(term, ans)
            terms.append(term)
        total = terms[0]
        for term in terms[1:]:
            if support.add_grads in rule.primitives or rule.sequence_output:
                # tuples or lists of tangents: `+` would concatenate them
                total = call("add_grads", total, term)
            else:
                total = ast.BinOp(left=total, op=ast.Add(), right=term)
        return fold(total)

    def _joint_tangent(self, rule, op: Op, ans: ast.expr, carried: dict[str, ast.expr]
                       ) -> ast.expr:
        """A user JVP rule: applied once to the tuple of every positional argument's tangent,
        ``None`` where it is zero (and folded where that decides a test)."""
        tangents = [name(self.tangent(carried[p].id)) if p in carried else ast.Constant(None)
                    for p in rule.positional]
        t = ast.Tuple(elts=tangents, ctx=ast.Load())
        expr = inline(rule.joint_jvp, [t, clone(ans)], op.args, rule.defaults)
        present = frozenset(e.id for e in tangents if isinstance(e, ast.Name))
        return fold_known(expr, present)

    def _tangent_argument(self, rule, param: str, arg: ast.expr) -> ast.expr:
        if param == rule.varargs or isinstance(arg, (ast.Tuple, ast.List)):
            return self._structured_tangent(arg, rule.varargs == param)
        return name(self.tangent(arg.id))

    def _structured_tangent(self, arg: ast.expr, variadic: bool) -> ast.expr:
        """The tangent of a display argument: one per element (``None`` for a zero one in a
        variadic parameter, as rules expect; zeros materialized in a list parameter)."""
        assert isinstance(arg, (ast.Tuple, ast.List))
        parts = [self.tangent_or_none(e) if variadic else self.tangent_or_zero(e)
                 for e in arg.elts]
        return type(arg)(elts=parts, ctx=ast.Load())

    def _display_tangent(self, value: ast.expr) -> ast.expr | None:
        elements = value.values if isinstance(value, ast.Dict) else value.elts
        if not any(self.has_tangent(e) for e in elements):
            return None
        parts = [self.tangent_or_zero(e) for e in elements]
        if isinstance(value, ast.Dict):
            return ast.Dict(keys=clone(value.keys), values=parts)
        return type(value)(elts=parts, ctx=ast.Load())

    def _unpack(self, target: ast.Tuple, value: ast.expr, stmt: ast.stmt) -> list[ast.stmt]:
        names_ = [e.id if isinstance(e, ast.Name) else "" for e in target.elts]
        source = self._tangent_name(value) if isinstance(value, ast.Name) else None
        for var in names_:
            if var:
                self._forget(var)
        if source is None or not any(v and self.activity.is_active(v) for v in names_):
            return []
        elts = [name(self.tangent(v), True) if v and self.activity.is_active(v)
                else name("_", True) for v in names_]
        for v in names_:
            if v and self.activity.is_active(v):
                self.state.defined.add(v)
        return [assign(ast.Tuple(elts=elts, ctx=ast.Store()), source, stmt)]

    # -- in-place updates -------------------------------------------------------------------
    def _own(self, var: str, like: ast.stmt) -> list[ast.stmt]:
        """Make ``tangent_var`` exist and be safe to modify in place."""
        if var not in self.state.defined:
            self.state.defined.add(var)
            self.state.owned.add(var)
            return [self._zero_fill(var, like)]
        if var in self.state.owned:
            return []
        self.state.owned.add(var)
        return [assign(self.tangent(var), call("private_copy", name(self.tangent(var))), like)]

    def _refuse_stale_reads(self, stmt: ast.stmt) -> None:
        if is_generated(self.parsed.filename):
            return  # generated code shares memory only where its author meant to
        for var in sorted(forward_reads(stmt) & self.stale.keys()):
            if self.activity.is_active(var):
                base = self.stale[var]
                raise self.parsed.unsupported(
                    stmt, f"reading `{var}`, a view of `{base}`, after a write into `{base}` "
                    "(the write changed it too, and forward mode cannot follow shared memory)",
                    f"Make `{var}` a copy where it is assigned: `{var} = np.copy(...)`.")

    def _note_write(self, var: str) -> None:
        """The views of ``var`` now show what was written into it."""
        for view in self.views:
            base, seen = self.views[view], {view}
            while base != var and base in self.views and base not in seen:
                seen.add(base)
                base = self.views[base]
            if base == var and view not in self.temporaries:
                self.stale[view] = var

    def _subscript_write(self, stmt: ast.Assign, target: ast.Subscript) -> list[ast.stmt]:
        var = stored_base(target)
        self._refuse_write_through_view(var, stmt, stmt.value)
        self._note_write(var)
        if not self.activity.is_active(var):
            return []
        if var not in self.state.defined and not self.has_tangent(stmt.value):
            return []
        out = self._own(var, stmt)
        if self.has_tangent(stmt.value) or isinstance(target.slice, ast.Slice):
            # a list's slice takes a list (`a[1:] = [u, v]`), not the number 0.0
            value = self.tangent_or_zero(stmt.value)
            if self.has_tangent(stmt.value) and var not in self.shapes.float_arrays and (
                    not self.resolver.kinds.is_sequence(name(var))) and getattr(
                    stmt, "in_place_of", None) is None:
                # an integer array keeps nothing of the derivative of what is written into it
                value = call("written_into", value, name(var))
        else:
            value = ast.Constant(0.0)
        out.append(assign(_retarget(target, self.tangent(var)), value, stmt))
        return out

    def _augassign(self, stmt: ast.AugAssign) -> list[ast.stmt]:
        var = stored_base(stmt.target)
        self._refuse_write_through_view(var, stmt, stmt.value)
        self._note_write(var)
        if not self.activity.is_active(var) or not self.has_tangent(stmt.value):
            return []
        out = self._own(var, stmt)
        # ``a[i] += v`` (``+=``/``-=`` only, after desugaring) out of place for the tangent:
        # owning ``tangent_a`` does not make its elements ours when ``a`` is a list or dict
        # (``tangent_a[0]`` may be ``tangent_x`` itself, where ``a[0]`` is ``x * 1.0``)
        target = _retarget(stmt.target, self.tangent(var))
        current = clone(target)
        current.ctx = ast.Load()
        updated = ast.BinOp(left=current, op=stmt.op, right=name(self.tangent(stmt.value.id)))
        out.append(assign(target, updated, stmt))
        return out

    def _append(self, stmt: ast.Expr) -> list[ast.stmt]:
        owner = stmt.value.func.value.id
        element = stmt.value.args[0]
        if not self.activity.is_active(owner):
            return []
        if owner not in self.state.defined and not self.has_tangent(element):
            return []
        # the list already holds the new element: its tangent list gets zeros for the others
        out: list[ast.stmt] = []
        if owner not in self.state.defined:
            zeros = call("zeros_like_grad", ast.Subscript(
                value=name(owner), slice=ast.Slice(lower=None, upper=ast.UnaryOp(
                    op=ast.USub(), operand=ast.Constant(1)), step=None), ctx=ast.Load()))
            out.append(assign(self.tangent(owner), call("list", zeros), stmt))
            self.state.defined.add(owner)
            self.state.owned.add(owner)
        else:
            out.extend(self._own(owner, stmt))
        push = ast.Call(func=ast.Attribute(value=name(self.tangent(owner)), attr="append",
                                           ctx=ast.Load()),
                        args=[self.tangent_or_zero(element)], keywords=[])
        out.append(located(ast.Expr(value=push), stmt))
        return out

    def _pop(self, stmt: ast.Assign, var: str, owner: str) -> list[ast.stmt]:
        """``v = stack.pop()``: the tangent list pops in step with the list."""
        if owner not in self.state.defined:
            self._forget(var)
            return []
        out = self._own(owner, stmt)
        popped = clone(stmt.value)
        popped.func.value = name(self.tangent(owner))
        out.append(self._define(var, popped, stmt))
        self.state.owned.discard(var)
        return out

    def _call_statement(self, stmt: ast.Expr) -> list[ast.stmt]:
        """A call for its effect: ``np.add.at(a, index, b)`` and ``put_back(c, key, old)``
        (in generated backward sweeps) update the tangent of what they write into in step,
        by the same call on tangents; any other call that could modify a value carrying a
        tangent is refused rather than ignored."""
        value = stmt.value
        if writes_in_place(value) and isinstance(value.args[0], ast.Name):
            return self._write_in_place(stmt, value)
        if _is_pop(value) and isinstance(value.func.value, ast.Name):
            owner = value.func.value.id
            if owner not in self.state.defined:
                return []
            popped = clone(value)
            popped.func.value = name(self.tangent(owner))
            return [*self._own(owner, stmt), located(ast.Expr(value=popped), stmt)]
        op = self.resolver.classify(value)
        touched = [n.id for n in walk(value) if isinstance(n, ast.Name)
                   and n.id in self.state.defined]
        if op.kind != NONDIFF and touched:
            raise call_for_effect(self.parsed, stmt, touched[0])
        return []

    def _write_in_place(self, stmt: ast.Expr, value: ast.Call) -> list[ast.stmt]:
        """``add_at(a, index, b)``: ``add_at(tangent_a, index, tangent_b)``, nothing for a
        zero ``tangent_b``; ``put_back(c, key, old)``: ``put_back(tangent_c, key,
        tangent_old)``, with zeros for ``old`` if it has none (the entry it replaces has a
        tangent that must go too)."""
        target, index, written = value.args
        self._refuse_write_through_view(target.id, stmt, written)
        self._note_write(target.id)
        adds = is_add_at(value)
        if not self.activity.is_active(target.id) or not self.has_tangent(written) and (
                adds or target.id not in self.state.defined):
            return []
        out = self._own(target.id, stmt)
        update = ast.Call(func=clone(value.func),
                          args=[name(self.tangent(target.id)), clone(index),
                                self.tangent_or_zero(written)], keywords=[])
        out.append(located(ast.Expr(value=update), stmt))
        return out

    # -- calls of other user functions ------------------------------------------------------
    def _user_call(self, stmt: ast.Assign, op: Op, var: str) -> list[ast.stmt]:
        active = tuple(p for p, a in op.args.items() if self._has_any_tangent(a))
        if not active:
            self._forget(var)
            return [stmt]
        callee = self.callees(op.callee, active)
        value = clone(stmt.value)
        value.func = name(callee.function)
        value.keywords = [*value.keywords, *(
            ast.keyword(arg=callee.tangent_params[p], value=self._argument_tangent(op.args[p]))
            for p in active)]
        targets = ast.Tuple(elts=[name(var, True), name(self.tangent(var), True)],
                            ctx=ast.Store())
        self.state.defined.add(var)
        self.state.owned.discard(var)
        return [located(ast.Assign(targets=[targets], value=value), stmt)]

    def _dynamic_call(self, stmt: ast.Assign, op: Op, var: str) -> list[ast.stmt]:
        """``y = f(x)`` with ``f`` a function value: ``y, tangent_y = tangent_of(f, (x,),
        (tangent_x,))``."""
        call = stmt.value
        if self._has_any_tangent(op.args["callee"]):
            raise dynamic_depends(self.parsed, stmt, op.label)
        if not any(self.has_tangent(a) for a in call.args):
            if any(self.has_tangent(k.value) for k in call.keywords):
                raise self.parsed.unsupported(
                    stmt, f"a keyword argument carrying a derivative, in a call of the "
                    f"function value `{op.label}`", "Pass it as a positional argument.")
            self._forget(var)
            return [stmt]
        primals = ast.Tuple(elts=[clone(a) for a in call.args], ctx=ast.Load())
        tangents = ast.Tuple(elts=[self.tangent_or_none(a) for a in call.args], ctx=ast.Load())
        value = ast.Call(func=name("tangent_of"), args=[clone(call.func), primals,
                                                        tangents],
                         keywords=clone(call.keywords))
        targets = ast.Tuple(elts=[name(var, True), name(self.tangent(var), True)],
                            ctx=ast.Store())
        self.state.defined.add(var)
        self.state.owned.discard(var)
        return [located(ast.Assign(targets=[targets], value=value), stmt)]

    # -- errors -----------------------------------------------------------------------------
    def _no_rule(self, stmt: ast.stmt, op: Op, param: str | None = None) -> Exception:
        if is_dynamic_helper(op.callee):
            return dynamic_again(self.parsed, stmt)
        label = op.label or getattr(op.callee, "__name__", "this call")
        if param is not None:
            return self.parsed.no_derivative(
                stmt, f"{label} has no forward-mode derivative (JVP) with respect to its "
                f"argument `{param}`; pass a constant there, or wrap it in "
                "`sg.stop_gradient(...)`.")
        if op.advice:
            return self.parsed.no_derivative(stmt, f"`{label}` has no derivative. {op.advice}")
        return self.parsed.no_derivative(
            stmt, f"`{label}` has no derivative rule and no Python source to differentiate.\n"
            f"Register one before differentiating, with `@sg.defjvp({label})` on "
            "`def rule(tangents, ans, *args)`.")


# -- module helpers -------------------------------------------------------------------------
# Primitives whose result may share memory with their argument.
def _apply_to_tangents(value: ast.expr, replacements: dict[int, ast.expr]) -> ast.expr:
    """``value`` (a call of a linear primitive) with each argument node (by ``id``) replaced:
    ``np.sum(x, axis=0)`` -> ``np.sum(tangent_x, axis=0)``."""
    return clone_replacing(value, replacements)


def _without_broadcast_like(expr: ast.expr, ans: ast.expr) -> ast.expr:
    """``broadcast_like(E, ans)`` -> ``E``, for a tangent known to have the output's shape
    (every other operand is a scalar)."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and (
        expr.func.id == "broadcast_like" and len(expr.args) == 2
        and ast.dump(expr.args[1]) == ast.dump(ans)
    ):
        return expr.args[0]
    return expr


def _is_fresh(expr: ast.expr) -> bool:
    """Does ``expr`` build a new object that nothing else refers to?"""
    if isinstance(expr, (ast.BinOp, ast.UnaryOp, ast.List, ast.Dict)):
        return True
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and (
        expr.func.id in ("zeros_like_grad", "private_copy", "list"))


def _is_pop(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and (
        expr.func.attr == "pop") and not expr.args and not expr.keywords


def _retarget(target: ast.expr, tangent: str) -> ast.expr:
    """``x[i][j]`` -> ``tangent_x[i][j]`` (a store)."""
    new = clone(target)
    node = new
    while isinstance(node, ast.Subscript) and isinstance(node.value, ast.Subscript):
        node = node.value
    node.value = name(tangent)
    new.ctx = ast.Store()
    return new


def _jumps(code: list[ast.stmt]) -> bool:
    """Does control leave this branch by ``break`` (desugared: always its last statement)?"""
    if not code:
        return False
    last = code[-1]
    if isinstance(last, ast.Break):
        return True
    return isinstance(last, ast.If) and _jumps(last.body) and _jumps(last.orelse)


def _block_holding(stmts: list[ast.stmt], node: ast.stmt) -> list[ast.stmt]:
    """The statement list, somewhere inside ``stmts``, that holds ``node``."""
    if any(s is node for s in stmts):
        return stmts
    for stmt in stmts:
        for block in (getattr(stmt, "body", None), getattr(stmt, "orelse", None)):
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                found = _block_holding(block, node)
                if found is not None:
                    return found
    return None  # type: ignore[return-value]


def _without_pass(stmts: list[ast.stmt]) -> list[ast.stmt]:
    kept = [s for s in stmts if not isinstance(s, ast.Pass)]
    return kept or stmts

