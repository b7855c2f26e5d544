"""Reverse mode: the forward sweep that records what the backward sweep needs, and the
backward sweep (the adjoint) itself.

Invariants of the generated code:

- *Symbolic zeros.* ``grad_x`` exists only once some cotangent has reached ``x``; the first
  contribution is an assignment, later ones add. A rule never runs for a zero cotangent, and
  no zero array is created except where two paths merge (a branch, a loop) and one of them
  carries no cotangent.
- *Restored state.* When the backward sweep reaches the adjoint of a statement, every
  variable that adjoint reads holds the value it had right after the statement ran forward.
  Values that later statements overwrite are saved first: in a variable at the top level,
  on a ``<name>_stack`` list inside loops (pushed in the forward sweep, popped in the
  backward sweep), and only for variables some adjoint actually reads.
- *Recorded control flow.* Branch conditions and the trip counts of ``while`` loops (and of
  loops that ``break``) are recorded in the forward sweep; ``for`` loops over ``range`` run
  backwards over ``reversed(range(...))``.
- Gradient arrays are modified in place only when the generated code owns them (it created
  them with ``zeros_like_grad`` or as the result of an arithmetic expression).
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..codegen import names as naming
from ..codegen.clone import clone
from ..codegen.inline import inline, without_unbroadcast
from ..codegen.walk import names_in, walk
from ..compile import is_generated
from ..dynamic import dynamic_again, dynamic_depends, is_dynamic_helper
from ..frontend.forms import identifier, parameters_of
from ..frontend.resolve import (
    COPY,
    DISPLAY,
    DYNAMIC,
    FIELD,
    NONDIFF,
    POP,
    RECORD,
    RULE,
    SUBSCRIPT,
    UNKNOWN,
    USER,
    Op,
    Resolver,
)
from ..frontend.source import Parsed
from ..rules.methods import ARGUMENT_RETURNING, VIEW_PRIMITIVES
from ..rules.registry import shared_rule_expression
from . import structures
from .activity import (
    Activity,
    call_for_effect,
    is_add_at,
    is_append,
    stored_base,
    writes_in_place,
)
from .desugar import assign, call, located, name
from .refold import drop_round_trips, refold
from .release import release_dead_values, views_and_shapes
from .saving import STACK, Placement, assigned_names, overwrites
from .schedule import sink_definitions
from .shape_only import SHAPE_ARGUMENTS, keep_only_shapes
from .shapes import ShapeFacts, shapes_from_parameters
from .structure_zeros import build_structure_cotangents


@dataclass
class CalleeDerivative:
    """Names under which a user function's split derivative is available to generated code."""

    forward: str  # forward_f(*args) -> (value, saved)
    backward: str  # backward_f(grad_value, saved) -> tuple of grads, one per wrt parameter
    wrt: tuple[str, ...]
    # positions of the returned tuple made without a cotangent: the caller passes None there
    zero_outputs: tuple[int, ...] = ()


# Given a user function, the parameter names active at a call site and the positions of its
# returned tuple whose cotangent is known to be zero there, provide the names of its
# generated forward and backward functions (generating them as needed).
CalleeProvider = Callable[[object, tuple[str, ...], tuple[int, ...]], CalleeDerivative]


@dataclass
class ReverseResult:
    forward: list[ast.stmt]
    adjoint: list[ast.stmt]
    output: ast.expr | None  # the returned expression (an atom), None if nothing is returned
    grads: dict[str, str]  # parameter -> name of its adjoint, for parameters that got one
    output_grad: str | None = None  # the adjoint of the output, when the output is active
    consumed: tuple[str, ...] = ()  # saved values the backward sweep pops from or restores
    # variables whose element writes change intermediate arrays they may share memory with
    aliased: dict[str, set[str]] = field(default_factory=dict)


class ReverseMode:
    def __init__(self, parsed: Parsed, resolver: Resolver, activity: Activity,
                 namer: naming.Namer, callees: CalleeProvider, comment: Callable[[int], str]):
        self.parsed = parsed
        self.resolver = resolver
        self.activity = activity
        self.namer = namer
        self.callees = callees
        self.comment = comment
        self.grad_names: dict[str, str] = {}
        self.placement: Placement = Placement([], [])
        self.reads: dict[int, set[str]] = {}
        self.needed: set[str] = set()
        self.params: list[str] = []
        self.shapes = ShapeFacts(set(), {})  # what the code tells of shapes
        self.temporaries: set[str] = set()  # introduced by normalize: may be folded back
        self.containers: set[str] = set()
        self.returned_beside: set[str] = set()  # returned besides the output (has_aux)
        self.structures = structures.Structures()
        self._slices: set[str] = set()  # variables holding slice objects: basic indices
        # state of the backward sweep being generated
        self.defined: set[str] = set()
        self.owned: set[str] = set()
        self.recording = True  # first (dry) run: record what each adjoint reads
        self.current: ast.stmt | None = None
        # per loop: values snapshotted at their definition, popped when its reverse iteration
        # starts (these registers are dicts used as ordered sets: a long loop body registers
        # many names, and looking each up in a list was quadratic)
        self.snapshots: dict[int, dict[str, None]] = {}
        self.stacks: dict[tuple[str, int], str] = {}
        self.slots: dict[object, str] = {}
        self.control: dict[int, str] = {}
        self.preinit: dict[int, dict[str, None]] = {}
        self.stack_inits: dict[int, list[str]] = {}
        self.block_snapshots: dict[int, dict[tuple[str, str], None]] = {}  # block -> (var, stack)
        self.has_adjoint: dict[int, bool] = {}  # compound statement -> its adjoint has code
        self.sliced: set[str] = set()  # arrays whose overwritten elements the sweep restores
        # array written into -> the intermediate arrays it may share memory with, whose
        # values an adjoint reads: restoring its elements restores theirs
        self.aliased: dict[str, set[str]] = {}
        self.copied: set[str] = set()  # adjoints copied by `_own` (to hoist out of loops)
        self.fresh_names: dict[tuple[int, str], str] = {}
        self.inlined: dict[tuple, ast.expr] = {}
        self.callee_names: set[str] = set()  # of the callees' generated functions

    # -- entry ------------------------------------------------------------------------------
    def run(self, fdef: ast.FunctionDef, seed_defined: bool = True) -> ReverseResult:
        self.params = parameters_of(fdef.args)
        body = fdef.body
        ret = body[-1] if body and isinstance(body[-1], ast.Return) else None
        core = body[:-1] if ret is not None else body
        output = ret.value if ret is not None else None
        self.placement = Placement(core, self.params)
        self._find_containers(core)
        self._infer_structures()  # which slices copy a list, for the views refused below
        placement = self.placement
        self._refuse_writes_through_views(core, output)
        if self.placement is not placement:  # views were made copies: statements added
            self._infer_structures()
        self._slices = {v for v, stmts in self.placement.assignments.items()
                        if all(_makes_slice(s) for s in stmts)}
        straight = _straight_line(core)
        if not straight:
            # dry run: learn which values each adjoint reads, to decide what to save
            # the real sweep gives the same names again, but for the callees' derivatives,
            # which the caller made once and keeps under their names
            taken = set(self.namer.taken)
            self._sweep(core, output, seed_defined)
            self.needed = set().union(*self.reads.values()) if self.reads else set()
            self.placement.note_adjoint_reads(self.reads)
            self.namer.taken = taken | self.callee_names  # the caller names what comes next
            self.recording = False
            self.grad_names = {}
            self.snapshots, self.stacks, self.slots, self.control = {}, {}, {}, {}
            self.stack_inits = {}
            self.block_snapshots = {}
            self.sliced = set()
            self.fresh_names = {}
        # straight-line code (after SSA renaming) overwrites nothing: one sweep suffices,
        # and it records the reads that folding temporaries needs
        forward, adjoint = self._sweep(core, output, seed_defined, with_forward=True)
        if straight:
            self.needed = set().union(*self.reads.values()) if self.reads else set()
            self.placement.note_adjoint_reads(self.reads)
            self.recording = False
        forward = refold(forward, self.temporaries - self.needed)
        handed_on = {self.grad_names[t] for t in self.temporaries if t in self.grad_names}
        adjoint = refold(adjoint, handed_on, only_names=True)
        adjoint = drop_round_trips(adjoint)
        returned = {n.id for n in walk(output) if isinstance(n, ast.Name)} if output else set()
        returned |= self.returned_beside
        # known scalars are too small to be worth a line
        forward = keep_only_shapes(forward, adjoint,
                                   keep=set(self.params) | returned | self.shapes.scalars,
                                   saving_stacks=set(self.stacks.values()))
        grads = {p: self.grad_names[p] for p in self.params if p in self.defined}
        never_released = self._never_released(returned)
        adjoint, moved = sink_definitions(adjoint,
                                          never_released | views_and_shapes(forward + adjoint))
        if moved:  # a cotangent handed on unchanged may now be next to its reader
            adjoint = refold(adjoint, handed_on, only_names=True)
        adjoint = build_structure_cotangents(adjoint)
        adjoint = release_dead_values(forward, adjoint, keep=never_released)
        output_grad = None
        if isinstance(output, ast.Name) and self.activity.is_active(output.id):
            output_grad = self.grad_names[output.id]
        consumed = tuple(sorted(set(self.stacks.values()) | self.sliced))
        return ReverseResult(forward, adjoint, output, grads, output_grad, consumed,
                             {v: set(ts) for v, ts in self.aliased.items()})

    def _never_released(self, returned: set[str]) -> set[str]:
        """Names the backward sweep must not ``del``: read after it, or too small to matter
        (scalars and their cotangents, stacks, recorded control flow)."""
        scalars = self.shapes.scalars
        return (set(self.params) | returned | scalars | set(self.stacks.values())
                | set(self.control.values()) | {self.grad_names[p] for p in self.params
                                                 if p in self.grad_names}
                | {self.grad_names[v] for v in scalars if v in self.grad_names})

    def _sweep(self, core: list[ast.stmt], output: ast.expr | None, seed_defined: bool,
               with_forward: bool = False) -> tuple[list[ast.stmt], list[ast.stmt]]:
        self.defined, self.owned = set(), set()
        self._seed(output, seed_defined)
        adjoint = self.adjoint_block(core)
        # the dry sweep only learns what each adjoint reads: no forward sweep needed yet
        forward = self.forward_block(core) if with_forward else []
        return forward, adjoint

    def _seed(self, output: ast.expr | None, seed_defined: bool) -> None:
        if output is None or not seed_defined:
            return
        if isinstance(output, ast.Name) and self.activity.is_active(output.id):
            self.defined.add(output.id)
            self.grad(output.id)
        elif isinstance(output, ast.Tuple):
            for elt in output.elts:
                if isinstance(elt, ast.Name) and self.activity.is_active(elt.id):
                    self.defined.add(elt.id)

    # -- names ------------------------------------------------------------------------------
    def grad(self, var: str) -> str:
        if var not in self.grad_names:
            self.grad_names[var] = self.namer.fresh(naming.adjoint_base(var), shorten=False)
        return self.grad_names[var]

    def grad_load(self, var: str) -> ast.Name:
        return name(self.grad(var))

    def _refuse_writes_through_views(self, core: list[ast.stmt],
                                     output: ast.expr | None) -> None:
        """``v = y.T; v[0] = ...`` changes ``y`` too; the adjoint would treat ``v`` and ``y``
        as separate values, so such a write is refused (flow-insensitively: any variable
        that may be a view of another array, when either takes part in differentiation).
        A write into ``y`` itself changes its views too: a view read after the write is
        refused, and one read only before it is made a copy, which the adjoints then read."""
        views: dict[str, str] = {}
        shares: dict[str, str] = {}  # views, and results of helpers that may be their argument
        producers: dict[str, Op] = {}
        writes: list[ast.stmt] = []
        for node in self.placement.statements.values():
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                op = producers[node.targets[0].id] = self.resolver.classify(node.value)
                base = self._viewed(next(iter(op.args.values()), None))
                if self._copies_a_list(node.value, base):
                    continue
                if isinstance(base, ast.Name) and (
                    op.kind in (COPY, SUBSCRIPT)
                    or op.kind == RULE and op.callee in VIEW_PRIMITIVES
                ):
                    views[node.targets[0].id] = shares[node.targets[0].id] = base.id
                elif isinstance(base, ast.Name) and op.kind == RULE and (
                        op.callee in ARGUMENT_RETURNING):
                    shares[node.targets[0].id] = base.id
                if isinstance(getattr(node, "in_place_of", None), ast.Name):
                    writes.append(node)
            elif isinstance(node, (ast.Assign, ast.AugAssign)) or (
                    isinstance(node, ast.Expr) and writes_in_place(node.value)):
                writes.append(node)
        output_reads = {n.id for n in names_in(output)} if output is not None else set()
        copied: set[str] = set()
        # generated code (differentiated again) shares memory only where its author meant to
        written_by_user = not is_generated(self.parsed.filename)
        for node in writes:
            in_place = getattr(node, "in_place_of", None)
            if isinstance(in_place, ast.Name) and written_by_user:
                self._refuse_update_of_alias(node, in_place.id, views, shares, output_reads)
                continue
            var = next((v for v, is_slice in overwrites(node) if is_slice), None)
            if var is None:
                continue
            bases = _view_bases(var, views)
            # through the normal form's temporaries: `a[::-1][::-1]` is a view of `a`. A
            # temporary itself is read by nothing else, so writing into it is harmless but
            # for the derivative of what computed it, if that reads it (`np.linalg.inv`'s
            # does): the write's elements are then restored before that derivative runs
            read_back = {b for b in _view_bases(var, shares) if b in self.temporaries
                         and _adjoint_reads(producers.get(b))}
            if read_back:
                self.aliased.setdefault(var, set()).update(read_back)
            # the arrays showing part of `var` (`row = a[i]`, or the temporary `a[i]` of
            # `b = a[i] * w`) made before the write would show it to the adjoints that read
            # them later (a list's elements are not views: writing one replaces it)
            seeing = set() if var in self.containers else {
                v for v in _viewers(var, shares) if self.placement.may_be_made_before(v, node)}
            copied |= {v for v in seeing if self.activity.is_active(v)
                       and self._value_is_read(v, producers)
}
            shared = {var} | {b for b in bases if b not in self.temporaries}
            base = next((b for b in bases if b in shared), None)
            if base and shared & self.activity.varied and shared & self.activity.useful:
                raise self.parsed.unsupported(
                    node, f"writing into `{var}`, which may be a view of `{base}` (the "
                    "write would change both, and the gradient cannot follow shared memory)",
                    f"Write into a copy: `{var} = np.copy(...)` where it is assigned.")
            for viewer in sorted(seeing - self.temporaries if written_by_user else ()):
                if not self.placement.maybe_bound_before(node, viewer):
                    continue  # made after the write: it sees the written values
                if self.activity.is_active(viewer) and (
                        viewer in output_reads or self.placement.read_after(viewer, node)):
                    raise self.parsed.unsupported(
                        node, f"writing into `{var}` while `{viewer}`, which may be a view "
                        f"of `{var}`, is read afterwards (the write changes `{viewer}` too, "
                        "and the gradient cannot follow shared memory)",
                        f"Make `{viewer}` a copy where it is assigned: "
                        f"`{viewer} = np.copy(...)`.")
        numpy_name = next((self.namer.inside(k) for k, v in self.parsed.globals.items()
                           if v is np), None)
        if copied and written_by_user and numpy_name is not None:
            self._copy_views(copied, numpy_name)

    def _value_is_read(self, var: str, producers: dict[str, Op]) -> bool:
        """May an adjoint read ``var``'s elements (not only its shape): does anything but a
        linear rule (``+``, ``np.sum``, a reshape...) or another view read it?"""
        for reader in self.placement.forward_readers.get(var, []):
            if not (isinstance(reader, ast.Assign) and isinstance(reader.targets[0], ast.Name)):
                return True
            op = producers.get(reader.targets[0].id)
            if op is None or not (op.kind in (COPY, SUBSCRIPT)
                                  or op.kind == RULE and op.rule.linear
                                  or _scales(reader.value, var)):
                return True
        return False

    def _copy_views(self, copied: set[str], numpy_name: str) -> None:
        """``v = a[i]`` -> ``v_view = a[i]; v = np.copy(v_view)``: read only before ``a`` is
        written into, the copy has the view's value, and keeps it for the adjoints."""
        for var in sorted(copied):
            for node in self.placement.assignments.get(var, []):
                if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)):
                    continue
                view = self.namer.fresh(f"{var}_view")
                block = self.placement.blocks[id(node)]
                block.insert(block.index(node), assign(view, node.value, node))
                # NumPy by the name the user's module gives it, so that the copy resolves
                node.value = ast.Call(func=ast.Attribute(value=name(numpy_name), attr="copy",
                                                         ctx=ast.Load()),
                                      args=[name(view)], keywords=[])
                self.temporaries.add(view)
                self.activity.varied.add(view)
                self.activity.useful.add(view)
        self.placement = Placement(self.placement.body, self.params)

    def _refuse_update_of_alias(self, node: ast.stmt, var: str, views: dict[str, str],
                                shares: dict[str, str], output_reads: set[str]) -> None:
        """``c = a; c += x`` changes ``a`` as well when ``c`` is an array, but is
        differentiated as ``c = c + x``: refused where another name for ``c``'s memory is
        read after the update (a Python number is updated by rebinding)."""
        if var in self.shapes.scalars:
            return
        viewers = {v for v in _viewers(var, shares) if self.placement.may_be_made_before(v, node)}
        aliases = {*_view_bases(var, views), *viewers} - self.temporaries
        for alias in sorted(aliases):
            if not self.placement.maybe_bound_before(node, alias):
                continue  # made after the update (``grad_x = grad_h`` after ``grad_h += g``)
            # the generated code rebinds ``var`` where NumPy changed both names: only a read
            # of the other name that can see the change tells them apart (the backward sweep
            # reads the value from before the update, as the user's code did)
            read = alias in output_reads or self.placement.read_after(alias, node)
            if read and {var, alias} & self.activity.varied:
                raise self.parsed.unsupported(
                    node, f"updating `{var}` in place while `{alias}` shares its memory (on "
                    f"arrays the update changes both, and the gradient cannot follow shared "
                    "memory)",
                    f"Make a new array instead (`{var} = {var} + ...`), or make `{var}` a "
                    "copy where it is assigned (`np.copy(...)`).")

    def _infer_structures(self) -> None:
        self.structures = structures.infer(list(self.placement.statements.values()),
                                           self.resolver, is_generated(self.parsed.filename))

    def _copies_a_list(self, value: ast.expr, base: ast.expr | None) -> bool:
        """``ys = xs[:k]`` of a list: a new list, not a view (a gradient differentiated again
        cuts a list's cotangent this way, ``grad_a = grad_joined[:len(a)]``)."""
        return isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Slice) and (
            isinstance(base, ast.Name) and (base.id in self.containers or (
                base.id in self.structures.structured
                and base.id not in self.structures.arrays)))

    def _viewed(self, expr: ast.expr | None) -> ast.expr | None:
        """The array ``expr`` shows part of: ``a`` for ``a[::-1][1:]``, ``a.T[0]`` or
        ``a.reshape(9)[::3]`` (statements outside differentiation are not split into single
        operations)."""
        while True:
            if isinstance(expr, ast.Subscript) or (isinstance(expr, ast.Attribute)
                                                   and expr.attr in ("T", "mT")):
                expr = expr.value
            elif isinstance(expr, ast.Call) and (
                (op := self.resolver.classify(expr)).kind == RULE
                and op.callee in VIEW_PRIMITIVES
            ):
                expr = next(iter(op.args.values()), None)
            else:
                return expr

    def _find_containers(self, stmts: list[ast.stmt]) -> None:
        """The variables known to hold lists, tuples or dicts (displays, appends, unpacked
        values, sequences rules return), whose cotangents are added with ``add_grads``
        (``+`` would concatenate them). Those that may hold one are ``structures``'."""
        for stmt in self.placement.statements.values():
            if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name) and (
                isinstance(stmt.value, (ast.List, ast.Tuple, ast.Dict))
            ):
                self.containers.add(stmt.targets[0].id)
            if is_append(stmt):
                self.containers.add(stmt.value.func.value.id)
            if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Tuple) and (
                isinstance(stmt.value, ast.Name)
            ):
                self.containers.add(stmt.value.id)
            if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
                op = self.resolver.classify(stmt.value)
                if op.kind == RULE and op.rule.sequence_output and (
                        op.callee not in structures.PASS_STRUCTURES):  # lists if given lists
                    self.containers.add(stmt.targets[0].id)

    def _note_reads(self, stmt: ast.stmt, exprs: list[ast.AST]) -> None:
        if not self.recording:
            return
        found = self.reads.setdefault(id(stmt), set())
        for expr in exprs:
            found.update(n.id for n in names_in(expr) if isinstance(n.ctx, ast.Load))

    # -- forward sweep ------------------------------------------------------------------------
    def forward_block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        last_line = None
        for stmt in stmts:
            code = self.forward(stmt)
            if code and getattr(stmt, "lineno", None) not in (None, last_line):
                if not self._says_the_same(code, stmt):
                    out.append(self._comment(stmt))
                last_line = stmt.lineno
            out.extend(code)
        return out or [ast.Pass()]

    def forward(self, stmt: ast.stmt) -> list[ast.stmt]:
        if isinstance(stmt, ast.If):
            return self._forward_if(stmt)
        if isinstance(stmt, ast.For):
            return self._forward_for(stmt)
        if isinstance(stmt, ast.While):
            return self._forward_while(stmt)
        if isinstance(stmt, ast.Break):
            return [stmt]
        before, after = self._saves(stmt)
        return [*before, *self._forward_simple(stmt), *after]

    def _forward_simple(self, stmt: ast.stmt) -> list[ast.stmt]:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
            op = self.op_of(stmt)
            if op.kind == USER and self._is_active_stmt(stmt):
                return [self._forward_user_call(stmt, op), *self._push_saved(stmt)]
            if op.kind == DYNAMIC and self._is_active_stmt(stmt):
                return [self._forward_dynamic_call(stmt, op), *self._push_saved(stmt)]
        return [stmt]

    def _push_saved(self, stmt: ast.Assign) -> list[ast.stmt]:
        """Inside a loop, each call's saved values go on a stack: the call's adjoint pops
        them, once per call, in reverse."""
        loops = self.placement.loops(stmt)
        if not loops:
            return []
        saved = self._saved_name(stmt)
        return [self._push(self._stack(saved, loops[-1]), name(saved), stmt)]

    def _forward_if(self, stmt: ast.If) -> list[ast.stmt]:
        if not self.has_adjoint.get(id(stmt), True):
            plain = ast.If(test=stmt.test, body=self.forward_block(stmt.body),
                           orelse=self.forward_block(stmt.orelse) if stmt.orelse else [])
            return [*self._preinit(stmt), located(plain, stmt)]
        test_var = self._control_var(stmt, stmt.test)
        test_assign = located(assign(test_var, stmt.test, stmt), stmt)
        branch = ast.If(test=name(test_var), body=self.forward_block(stmt.body),
                        orelse=self.forward_block(stmt.orelse) if stmt.orelse else [])
        return [*self._preinit(stmt), test_assign, *self._push_control(stmt, test_var),
                located(branch, stmt)]

    def _forward_for(self, stmt: ast.For) -> list[ast.stmt]:
        body = self.forward_block(stmt.body)
        loop = ast.For(target=stmt.target, iter=stmt.iter, body=body, orelse=[],
                       type_comment=None)
        if not self.has_adjoint.get(id(stmt), True) or not self._needs_counter(stmt):
            return [*self._preinit(stmt), located(loop, stmt)]
        counter = self._control_var(stmt, None)
        loop.body = [self._increment(counter, stmt), *self._save_loop_target(stmt), *loop.body]
        start = assign(counter, ast.Constant(0), stmt)
        return [*self._preinit(stmt), start, located(loop, stmt),
                *self._push_control(stmt, counter)]

    def _save_loop_target(self, stmt: ast.For) -> list[ast.stmt]:
        """A loop run backwards by counting cannot recompute its variable: save it."""
        var = stmt.target.id
        if var not in self.needed:
            return []
        self._register_snapshot_for(stmt, var)
        return [self._push(self._stack(var, stmt), name(var), stmt)]

    def _forward_while(self, stmt: ast.While) -> list[ast.stmt]:
        if not self.has_adjoint.get(id(stmt), True):
            plain = ast.While(test=stmt.test, body=self.forward_block(stmt.body), orelse=[])
            return [located(plain, stmt)]
        counter = self._control_var(stmt, None)
        body = [self._increment(counter, stmt), *self.forward_block(stmt.body)]
        loop = located(ast.While(test=stmt.test, body=body, orelse=[]), stmt)
        return [*self._preinit(stmt), assign(counter, ast.Constant(0), stmt), loop,
                *self._push_control(stmt, counter)]

    def _increment(self, counter: str, like: ast.stmt) -> ast.stmt:
        return located(ast.AugAssign(target=name(counter, True), op=ast.Add(),
                                     value=ast.Constant(1)), like)

    def _control_var(self, stmt: ast.stmt, test: ast.expr | None) -> str:
        """The variable recording a branch's condition or a loop's trip count."""
        if id(stmt) not in self.control:
            base = naming.describe(test) if test is not None else "n_iterations"
            if test is not None and isinstance(test, ast.Name):
                base = f"{test.id}_taken"
            self.control[id(stmt)] = self.namer.fresh(base)
        return self.control[id(stmt)]

    def _needs_counter(self, stmt: ast.For) -> bool:
        """A ``for`` loop runs backwards over ``reversed(range(...))`` unless it can break
        or its bounds change inside it."""
        if any(isinstance(n, ast.Break) for n in _walk_loop_body(stmt)):
            return True
        bounds = {n.id for n in walk(stmt.iter) if isinstance(n, ast.Name)}
        assigned = {v for s in stmt.body for n in walk(s) for v in assigned_names(n)}
        return bool(bounds & assigned)

    # -- saving and restoring overwritten values --------------------------------------------
    def _saves(self, stmt: ast.stmt) -> tuple[list[ast.stmt], list[ast.stmt]]:
        """Statements to run before and after ``stmt`` in the forward sweep so that the
        backward sweep can restore what ``stmt`` overwrites."""
        before: list[ast.stmt] = []
        after: list[ast.stmt] = []
        if self.recording:
            return before, after
        for var, is_slice in overwrites(stmt):
            if not self._read_back(var, is_slice):
                continue
            kind = self._save_kind(stmt, var, is_slice)
            if kind == "snapshot":
                loop = self._register_snapshot(stmt, var)
                after.append(self._push(self._stack(var, loop), name(var), stmt))
            elif kind == "block":
                after.append(self._push(self._register_block_snapshot(stmt, var), name(var),
                                        stmt))
            elif kind == "stack":
                loop = self.placement.loops(stmt)[-1]
                before.append(self._push(self._stack(var, loop, is_slice),
                                         self._old_value(stmt, var, is_slice), stmt))
            elif kind == "slot":
                slot = self._slot(stmt, var, is_slice)
                before.append(assign(slot, self._old_value(stmt, var, is_slice), stmt))
        return before, after

    def _restores(self, stmt: ast.stmt) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        if self.recording:
            return out
        for var, is_slice in overwrites(stmt):
            if not self._read_back(var, is_slice):
                continue
            kind = self._save_kind(stmt, var, is_slice)
            if kind == "snapshot":
                self._register_snapshot(stmt, var)
                continue
            if kind == "block":
                self._register_block_snapshot(stmt, var)
                continue
            if kind == "stack":
                loop = self.placement.loops(stmt)[-1]
                value = _pop(self._stack(var, loop, is_slice))
            elif kind == "slot":
                value = name(self._slot(stmt, var, is_slice))
            else:
                continue
            if is_slice:
                self.sliced.add(var)
            if is_slice and self._replaces_entry(stmt, var):
                written = _written(stmt)
                out.append(located(ast.Expr(value=call(
                    "put_back", name(var), _index_value(clone(written.slice)), value)), stmt))
                continue
            target = clone(_written(stmt)) if is_slice else name(var, True)
            if isinstance(target, ast.Subscript):
                target.ctx = ast.Store()
            out.append(assign(target, value, stmt))
        return out

    def _replaces_entry(self, stmt: ast.stmt, var: str) -> bool:
        """Does ``stmt`` replace an entry of a list or dict (``d[k] = v``), which may not
        exist yet (a dict filled by key)?"""
        if not (isinstance(stmt, ast.Assign) and var in self.structures.structured):
            return False
        target = stmt.targets[0]
        return isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)

    def _register_block_snapshot(self, stmt: ast.stmt, var: str) -> str:
        loop = self.placement.loops(stmt)[-1]
        stack = self._stack(var, loop)
        entries = self.block_snapshots.setdefault(id(self.placement.blocks[id(stmt)]), {})
        entries.setdefault((var, stack))
        return stack

    def _register_snapshot(self, stmt: ast.stmt, var: str) -> ast.stmt:
        return self._register_snapshot_for(self.placement.loops(stmt)[-1], var)

    def _register_snapshot_for(self, loop: ast.stmt, var: str) -> ast.stmt:
        self.snapshots.setdefault(id(loop), {}).setdefault(var)
        return loop

    def _read_back(self, var: str, is_slice: bool) -> bool:
        """Does an adjoint read what this write into ``var`` overwrites: ``var``, or, for an
        element write, an intermediate array ``var`` may share memory with?"""
        return var in self.needed or is_slice and bool(self.aliased.get(var, set())
                                                        & self.needed)

    def _save_kind(self, stmt: ast.stmt, var: str, is_slice: bool) -> str | None:
        read_as = (var, *sorted(self.aliased.get(var, ()))) if is_slice else (var,)
        kind = self.placement.save_kind(stmt, var, is_slice, read_as)
        if kind == STACK and not is_slice and not self.placement.maybe_bound_before(stmt, var):
            # unbound on the first iteration: give it a value so the first push works
            outermost = id(self.placement.loops(stmt)[0])
            self.preinit.setdefault(outermost, {}).setdefault(var)
        return kind

    def _stack(self, var: str, loop: ast.stmt, is_slice: bool = False) -> str:
        """The stack saving ``var`` across iterations of ``loop``; it is created empty before
        the outermost loop around ``loop``, so that it outlives every inner iteration."""
        key = (f"{var}[]" if is_slice else var, id(loop))
        if key not in self.stacks:
            base = f"{var}_slice_stack" if is_slice else f"{var}_stack"
            self.stacks[key] = self.namer.fresh(base, shorten=False)
            outermost = (self.placement.loops(loop) or (loop,))[0]
            self.stack_inits.setdefault(id(outermost), []).append(self.stacks[key])
        return self.stacks[key]

    def _slot(self, stmt: ast.stmt, var: str, is_slice: bool) -> str:
        """The variable keeping ``var``'s value from before ``stmt`` (one per variable: an
        unpacking ``a, axis = ...`` overwrites two)."""
        key = (id(stmt), var, is_slice)
        if key not in self.slots:
            self.slots[key] = self.namer.fresh(f"{var}_slice_old" if is_slice
                                               else f"{var}_old")
        return self.slots[key]

    def _old_value(self, stmt: ast.stmt, var: str, is_slice: bool) -> ast.expr:
        if not is_slice:
            return name(var)
        if self._replaces_entry(stmt, var):
            return call("entry_of", name(var), _index_value(clone(_written(stmt).slice)))
        target = clone(_written(stmt))
        target.ctx = ast.Load()
        return _np_call("copy", target)

    def _push(self, stack: str, value: ast.expr, like: ast.stmt) -> ast.stmt:
        push = ast.Expr(value=ast.Call(func=ast.Attribute(value=name(stack), attr="append",
                                                          ctx=ast.Load()),
                                       args=[value], keywords=[]))
        return located(push, like)

    def _push_control(self, stmt: ast.stmt, var: str) -> list[ast.stmt]:
        """Inside a loop a recorded condition or trip count goes on a stack right away."""
        loops = self.placement.loops(stmt)
        if not loops:
            return []
        return [self._push(self._stack(var, loops[-1]), name(var), stmt)]

    def _pop_control(self, stmt: ast.stmt, var: str) -> list[ast.stmt]:
        loops = self.placement.loops(stmt)
        if not loops:
            return []
        return [assign(var, _pop(self._stack(var, loops[-1])), stmt)]

    def _preinit(self, loop: ast.stmt) -> list[ast.stmt]:
        stacks = [assign(stack, ast.List(elts=[], ctx=ast.Load()), loop)
                  for stack in self.stack_inits.get(id(loop), [])]
        unbound = [assign(var, ast.Constant(None), loop) for var in self.preinit.get(id(loop), [])]
        return stacks + unbound

    # -- backward sweep -----------------------------------------------------------------------
    def adjoint_block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        last_line = None
        for stmt in reversed(stmts):
            code = self.adjoint(stmt)
            for part in code:  # an error on it names the user's statement, not the block's
                if getattr(part, "lineno", None) is None:
                    located(part, stmt)
            if code and getattr(stmt, "lineno", None) not in (None, last_line):
                out.append(self._comment(stmt))
                last_line = stmt.lineno
            out.extend(code)
        pops = [assign(var, _pop(stack), stmts[0])
                for var, stack in self.block_snapshots.get(id(stmts), [])]
        return pops + out if _has_code(out) else out

    def adjoint(self, stmt: ast.stmt) -> list[ast.stmt]:
        self.current = stmt
        if isinstance(stmt, ast.If):
            return self._adjoint_if(stmt)
        if isinstance(stmt, (ast.For, ast.While)):
            return self._adjoint_loop(stmt)
        if isinstance(stmt, ast.Assign):
            stmts = self._adjoint_assign(stmt)
        elif isinstance(stmt, ast.AugAssign):
            stmts = self._adjoint_augassign(stmt)
        elif is_append(stmt):
            stmts = self._adjoint_append(stmt)
        elif isinstance(stmt, ast.Expr) and is_add_at(stmt.value):
            stmts = self._adjoint_add_at(stmt)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            self._refuse_call_for_effect(stmt)
            stmts = []
        else:
            stmts = []
        self._note_reads(stmt, stmts)  # everything the adjoint reads, whatever produced it
        return stmts + self._restores(stmt)

    def _refuse_call_for_effect(self, stmt: ast.Expr) -> None:
        """Any other call made for its effect that could change a value carrying a
        derivative (``helper(b)`` writing into ``b``) is refused rather than ignored."""
        op = self.resolver.classify(stmt.value)
        touched = [n.id for n in walk(stmt.value) if isinstance(n, ast.Name)
                   and self.activity.is_active(n.id)]
        if op.kind not in (NONDIFF, POP) and touched:
            raise call_for_effect(self.parsed, stmt, touched[0])

    def _says_the_same(self, code: list[ast.stmt], stmt: ast.stmt) -> bool:
        """A comment quoting exactly the one line of code below it adds nothing."""
        if len(code) != 1:
            return False
        only = code[0]
        quoted = _squash(self.comment(stmt.lineno).split("#", 1)[-1])
        if isinstance(only, ast.Assign) and isinstance(only.targets[0], ast.Name) and (
                not quoted.startswith(f"{_squash(only.targets[0].id)}=")):
            return False  # it assigns another name: no need to unparse the code to tell
        if isinstance(only, ast.For):
            text = f"for {ast.unparse(only.target)} in {ast.unparse(only.iter)}:"
        elif isinstance(only, ast.While):
            text = f"while {ast.unparse(only.test)}:"
        elif isinstance(only, ast.If):
            return False
        else:
            text = ast.unparse(only)
        return _squash(text) == quoted

    def _comment(self, stmt: ast.stmt) -> ast.stmt:
        return located(ast.Expr(value=ast.Constant(self.comment(stmt.lineno))), stmt)

    def _is_active_stmt(self, stmt: ast.stmt) -> bool:
        return any(self.activity.is_active(v) for v, _ in overwrites(stmt))

    def op_of(self, stmt: ast.Assign) -> Op:
        return self.resolver.classify(stmt.value)

    def _adjoint_assign(self, stmt: ast.Assign) -> list[ast.stmt]:
        target = stmt.targets[0]
        if isinstance(target, ast.Subscript):
            return self._adjoint_subscript_write(stmt, target)
        if isinstance(target, ast.Tuple):
            return self._adjoint_unpack(stmt, target)
        var = target.id
        if not self.activity.is_active(var) or var not in self.defined:
            self.defined.discard(var)
            if _is_pop(stmt.value) and self.activity.is_active(var):
                # a zero keeps the list's cotangent as long as the list
                return self._adjoint_pop(stmt, self.op_of(stmt),
                                         call("zeros_like_grad", name(var)), only_if_defined=True)
            return []
        g = self.grad_load(var)
        op = self.op_of(stmt)
        self.defined.discard(var)
        self.owned.discard(var)
        out: list[ast.stmt] = []
        if op.kind == RULE:
            out = self._adjoint_rule(stmt, op, g, name(var))
        elif op.kind == COPY:
            out = self._accumulate(op.args["x"], g)
        elif op.kind == SUBSCRIPT:
            out = self._adjoint_subscript_read(stmt, stmt.value, g)
        elif op.kind == FIELD:
            out = self._adjoint_field_read(stmt, stmt.value, g)
        elif op.kind == DISPLAY:
            out = self._adjoint_display(stmt.value, g)
        elif op.kind == RECORD:
            out = []
            for field_name, arg in op.args.items():  # p = P(w=a): grad_a = grad_p.w
                if self._active_expr(arg):
                    part = ast.Attribute(value=clone(g), attr=field_name, ctx=ast.Load())
                    out.extend(self._accumulate(arg, part))
        elif op.kind == USER:
            out = self._adjoint_user_call(stmt, op, g)
        elif op.kind == DYNAMIC:
            out = self._adjoint_dynamic_call(stmt, op, g)
        elif op.kind == POP:
            out = self._adjoint_pop(stmt, op, g)
        elif op.kind == UNKNOWN:
            raise self._no_rule(stmt, op)
        return out

    def _adjoint_rule(self, stmt: ast.stmt, op: Op, g: ast.expr, ans: ast.expr
                      ) -> list[ast.stmt]:
        rule = op.rule
        assert rule is not None
        out: list[ast.stmt] = []
        contributions: list[tuple[ast.expr, ast.expr]] = []
        for param, arg in op.differentiable_args().items():
            if not self._active_expr(arg):
                continue
            if param not in rule.vjps:
                raise self._no_rule(stmt, op, param)
            expr = self._inlined(stmt, param, op, g, ans, arg)
            self._note_reads(stmt, [expr])
            if isinstance(arg, ast.Name) and (arg.id in self.containers
                                              or arg.id in self.structures.structured) and (
                    op.callee not in structures.PASS_STRUCTURES) and (
                    not structures.returns_sequence(rule, param, or_keeps_structure=True)):
                # a list handed to NumPy (np.sum(items)): its cotangent is a list again,
                # which the adjoint of the code that built it pops from
                expr = call("unstack_like", expr, clone(arg))
            contributions.append((arg, expr))
        for arg, expr in contributions:
            if isinstance(arg, (ast.List, ast.Tuple)):
                # one cotangent per element: compute them once, then hand them out
                parts = self._fresh_for(stmt, "parts",
                                        naming.adjoint_base(naming.describe(arg)))
                out.append(ast.Assign(targets=[name(parts, True)], value=expr))
                expr = name(parts)
            out.extend(self._accumulate(arg, expr))
        return out

    def _inlined(self, stmt: ast.stmt, param: str, op: Op, g: ast.expr, ans: ast.expr,
                 arg: ast.expr) -> ast.expr:
        """The rule's VJP for ``param`` inlined at ``stmt``; the same every time this
        statement's adjoint is generated (two sweeps, loop fixed points), so made once."""
        key = (id(stmt), param, g.id if isinstance(g, ast.Name) else ast.dump(g))
        if key not in self.inlined:
            rule = op.rule
            expr = inline(rule.vjps[param], [g, ans], op.args, rule.defaults)
            if self.shapes.has_output_shape(arg, op):
                expr = without_unbroadcast(expr, arg)
            expr = shapes_from_parameters(expr, self.shapes, SHAPE_ARGUMENTS)
            if op.cast is not None:  # zero if the cast was to an integer dtype
                expr = call("through_cast", expr, clone(op.cast))
            self.inlined[key] = expr
        # shared, not copied: only the last generation of a statement's adjoint is kept
        return self.inlined[key]

    def _accumulate(self, arg: ast.expr, contribution: ast.expr) -> list[ast.stmt]:
        """Add ``contribution`` to the adjoint of ``arg`` (a name, or a display of names)."""
        if isinstance(arg, ast.Dict):
            out = []
            for key, value in zip(arg.keys, arg.values, strict=True):
                part = ast.Subscript(value=clone(contribution), slice=clone(key),
                                     ctx=ast.Load())
                out.extend(self._accumulate(value, part))
            return out
        if isinstance(arg, (ast.List, ast.Tuple)):
            out: list[ast.stmt] = []
            for i, elt in enumerate(arg.elts):
                part = ast.Subscript(value=clone(contribution), slice=ast.Constant(i),
                                     ctx=ast.Load())
                out.extend(self._accumulate(elt, part))
            return out
        if not isinstance(arg, ast.Name) or not self.activity.is_active(arg.id):
            return []
        var = arg.id
        target = name(self.grad(var), True)
        if isinstance(contribution, (ast.List, ast.Tuple)):
            self.containers.add(var)  # a list of cotangents: added element by element
        if var not in self.defined:
            self.defined.add(var)
            if isinstance(contribution, ast.BinOp) or _is_fresh_call(contribution):
                self.owned.add(var)
            else:
                self.owned.discard(var)
            return [ast.Assign(targets=[target], value=contribution)]
        if var in self.containers or not self.structures.surely_array(var):
            value = ast.Call(func=name("add_grads"), args=[self.grad_load(var), contribution],
                             keywords=[])
        elif var in self.owned:  # ours alone: added in place where it is a NumPy array
            value = call("add_into", self.grad_load(var), contribution)
            return [ast.Assign(targets=[target], value=value)]
        else:
            value = ast.BinOp(left=self.grad_load(var), op=ast.Add(), right=contribution)
        self.owned.add(var)
        return [ast.Assign(targets=[target], value=value)]

    def _fresh_for(self, stmt: ast.stmt, role: str, base: str) -> str:
        """A fresh name for ``role`` at ``stmt``, the same however often the statement's
        adjoint is generated (loops generate their body until a fixed point)."""
        key = (id(stmt), role)
        if key not in self.fresh_names:
            self.fresh_names[key] = self.namer.fresh(base)
        return self.fresh_names[key]

    def _own(self, var: str, like: ast.AST) -> list[ast.stmt]:
        """Make ``grad_var`` safe to modify in place."""
        if var not in self.defined:
            self.defined.add(var)
            self.owned.add(var)
            self._note_reads(self.current, [name(var)])
            return [ast.Assign(targets=[name(self.grad(var), True)],
                               value=call("zeros_like_grad", name(var)))]
        if var in self.owned:
            return []
        self.owned.add(var)
        self.copied.add(var)
        return [ast.Assign(targets=[name(self.grad(var), True)],
                           value=call("private_copy", self.grad_load(var)))]

    def _adjoint_subscript_read(self, stmt: ast.Assign, value: ast.Subscript, g: ast.expr
                                ) -> list[ast.stmt]:
        base = value.value
        if not isinstance(base, ast.Name) or not self.activity.is_active(base.id):
            return []
        var = base.id
        out = self._own(var, stmt)
        index = clone(value.slice)
        self._note_reads(stmt, [index])
        grad_base = self.grad_load(var)
        # an element of a list or dict is one element, whatever the index (a runtime int or
        # key); an array indexed by an array of indices may repeat elements: add_at (which
        # adds as np.add.at does, into a NumPy array or another library's)
        if var in self.containers or (var in self.structures.structured and (
                self.structures.one_element(index))) or _is_basic_index(
                index, self._range_loop_vars(stmt) | self._slices):
            out.append(self._add_into(var, index, stmt.targets[0], g))
        else:
            out.append(ast.Expr(value=call("add_at", grad_base, _index_value(index), g)))
        return out

    def _adjoint_field_read(self, stmt: ast.Assign, value: ast.Attribute, g: ast.expr
                            ) -> list[ast.stmt]:
        """``w = p.w``: the cotangent goes into the field ``w`` of ``p``'s cotangent, a dict
        of its fields (``Fields``) while the backward sweep builds it: ``grad_p['w']``."""
        base = value.value
        if not isinstance(base, ast.Name) or not self.activity.is_active(base.id):
            return []
        out = self._own(base.id, stmt)
        return [*out, self._add_into(base.id, ast.Constant(value.attr), stmt.targets[0], g)]

    def _add_into(self, var: str, part: ast.expr, element: ast.expr, g: ast.expr
                  ) -> ast.stmt:
        """``grad_var[part] += g``: ``+`` where the element is surely an array or a number,
        ``add_grads`` where it may be a structure."""
        def at(store: bool) -> ast.expr:
            ctx = ast.Store() if store else ast.Load()
            return ast.Subscript(value=name(self.grad(var)), slice=clone(part), ctx=ctx)

        if isinstance(element, ast.Name) and self.structures.surely_array(element.id):
            total: ast.expr = ast.BinOp(left=at(False), op=ast.Add(), right=g)
        else:
            total = call("add_grads", at(False), g)
        return ast.Assign(targets=[at(True)], value=total)

    def _adjoint_subscript_write(self, stmt: ast.Assign, target: ast.Subscript
                                 ) -> list[ast.stmt]:
        var = stored_base(target)
        if not self.activity.is_active(var) or var not in self.defined:
            return []
        index = clone(target.slice)
        self._note_reads(stmt, [index])
        part = ast.Subscript(value=self.grad_load(var), slice=index, ctx=ast.Load())
        out: list[ast.stmt] = []
        after_zeroing: list[ast.stmt] = []
        structured = var in self.containers or (var in self.structures.structured and (
            self.structures.one_element(index) or isinstance(index, ast.Slice)))
        if self._active_expr(stmt.value):
            # a list's or dict's element is replaced, not written into: taken as it is (a
            # copy where it may be an array's row, which the zeroing below overwrites)
            kept = self._last_writes(stmt, var, part)
            written = kept or _np_call("copy", part)
            if var not in self.shapes.float_arrays and not structured and getattr(
                    stmt, "in_place_of", None) is None:
                # an integer array keeps nothing of the derivative of what is written into it
                # (`a[i] *= v` of one is refused by NumPy where `v` would be truncated)
                written = call("written_into", kept or part, name(var))
                self._note_reads(stmt, [name(var)])
            taken = call("unbroadcast", written, clone(stmt.value))
            if structured:
                taken = part if var in self.containers else call("private_copy", part)
            if isinstance(stmt.value, ast.Name) and stmt.value.id == var and not structured:
                # `a[::-1] = a`: the value written is the array before the write, whose
                # cotangent is the written part's added to the one after the write with
                # that part zeroed (added before the zeroing, it would be zeroed with it)
                held = self._fresh_for(stmt, "written", naming.adjoint_base(f"{var}_written"))
                out.append(ast.Assign(targets=[name(held, True)], value=taken))
                after_zeroing = self._accumulate(stmt.value, name(held))
            else:
                out.extend(self._accumulate(stmt.value, taken))
        out.extend(self._own(var, stmt))
        zero_target = ast.Subscript(value=name(self.grad(var), True), slice=clone(index),
                                    ctx=ast.Store())
        zero: ast.expr = ast.Constant(0.0)
        if structured:
            zero = call("zeros_like_grad", clone(stmt.value))
            self._note_reads(stmt, [stmt.value])
        out.append(ast.Assign(targets=[zero_target], value=zero))
        return out + after_zeroing

    def _last_writes(self, stmt: ast.stmt, var: str, part: ast.Subscript) -> ast.expr | None:
        """``part`` (``grad_var[index]``) kept only where the write was the last one into its
        element, for an index that may repeat one (``y[[0, 0]] = v`` keeps ``v[1]``, and so
        does ``+=``); ``None`` for an index that cannot."""
        if _is_basic_index(part.slice, self._range_loop_vars(stmt)):
            return None
        return call("last_writes", part, self.grad_load(var), _index_value(clone(part.slice)))

    def _adjoint_augassign(self, stmt: ast.AugAssign) -> list[ast.stmt]:
        return self._adjoint_increment(stmt, stored_base(stmt.target), stmt.target.slice,
                                       stmt.value, isinstance(stmt.op, ast.Sub), buffered=True)

    def _adjoint_add_at(self, stmt: ast.Expr) -> list[ast.stmt]:
        """``np.add.at(a, index, b)`` (a gradient's scatter, differentiated again): ``a``'s
        cotangent passes through, and ``b``'s gathers it at ``index``, once per occurrence
        of a repeated index, as the scatter added ``b`` once per occurrence."""
        target, index, value = stmt.value.args
        if not isinstance(target, ast.Name):
            if not self._active_expr(value):  # the array's cotangent passes through
                return []
            raise self.parsed.unsupported(
                stmt, "a scatter (`np.add.at`) into part of an array, with a derivative",
                "Scatter into the whole array, with the part's index folded into `index`.")
        return self._adjoint_increment(stmt, target.id, index, value, False)

    def _adjoint_increment(self, stmt: ast.stmt, var: str, index: ast.expr, value: ast.expr,
                           subtract: bool, buffered: bool = False) -> list[ast.stmt]:
        """``var[index] += value`` (or ``-=``): ``value``'s cotangent is ``var``'s at
        ``index``, summed back to ``value``'s shape; ``var``'s own is unchanged. A
        ``buffered`` increment (``+=``, not ``np.add.at``) adds only the last of the values
        written to a repeated element."""
        if var not in self.defined or not self._active_expr(value):
            return []
        index = clone(index)
        self._note_reads(stmt, [index, value])
        part: ast.expr = ast.Subscript(value=self.grad_load(var), slice=index, ctx=ast.Load())
        kept = self._last_writes(stmt, var, part) if buffered else None
        contribution = call("unbroadcast", kept or part, clone(value))
        if subtract:
            contribution = ast.UnaryOp(op=ast.USub(), operand=contribution)
        elif value.id not in self.defined and kept is None:
            contribution = _np_call("copy", contribution)
        return self._accumulate(value, contribution)

    def _adjoint_unpack(self, stmt: ast.Assign, target: ast.Tuple) -> list[ast.stmt]:
        source = stmt.value
        parts = []
        any_defined = False
        without_cotangent = self._zero_cotangents_of(source)
        for position, elt in enumerate(target.elts):
            var = elt.id if isinstance(elt, ast.Name) else ""
            if var and var in self.defined:
                parts.append(self.grad_load(var))
                any_defined = True
            elif position in without_cotangent:  # the callee's backward takes no zero
                parts.append(ast.Constant(None))
            else:
                parts.append(call("zeros_like_grad", name(var)) if var else ast.Constant(None))
                if var:
                    self._note_reads(stmt, [name(var)])
        for elt in target.elts:
            if isinstance(elt, ast.Name):
                self.defined.discard(elt.id)
        if not any_defined or not isinstance(source, ast.Name):
            return []
        return self._accumulate(source, ast.List(elts=parts, ctx=ast.Load()))

    def _adjoint_display(self, value: ast.expr, g: ast.expr) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        if isinstance(value, ast.Dict):
            pairs = list(zip(value.keys, value.values, strict=True))
        else:
            pairs = [(ast.Constant(i), elt) for i, elt in enumerate(value.elts)]
        for key, elt in pairs:
            if self._active_expr(elt):
                part = ast.Subscript(value=clone(g), slice=clone(key),
                                     ctx=ast.Load())
                out.extend(self._accumulate(elt, part))
        return out

    def _adjoint_append(self, stmt: ast.Expr) -> list[ast.stmt]:
        owner = stmt.value.func.value.id
        element = stmt.value.args[0]
        if owner not in self.defined or not self._active_expr(element):
            return []
        out = self._own(owner, stmt)
        popped = ast.Call(func=ast.Attribute(value=self.grad_load(owner), attr="pop",
                                             ctx=ast.Load()), args=[], keywords=[])
        return out + self._accumulate(element, popped)

    def _adjoint_pop(self, stmt: ast.Assign, op: Op, g: ast.expr,
                     only_if_defined: bool = False) -> list[ast.stmt]:
        """``y = items.pop()``: the cotangent of ``y`` goes back on the end of the list's
        cotangent, where the adjoint of the ``append`` that put ``y`` there will pop it (the
        mirror image of ``append``'s adjoint; it makes generated code with stacks, and so
        loops, differentiable again)."""
        items = op.args["items"]
        if not isinstance(items, ast.Name) or not self.activity.is_active(items.id):
            return []
        var = items.id
        out: list[ast.stmt] = []
        if var not in self.defined:
            if only_if_defined:
                return []
            self.defined.add(var)
            self.owned.add(var)
            out.append(ast.Assign(targets=[name(self.grad(var), True)],
                                  value=ast.List(elts=[], ctx=ast.Load())))
        else:
            out.extend(self._own(var, stmt))
        self.containers.add(var)
        push = ast.Call(func=ast.Attribute(value=self.grad_load(var), attr="append",
                                           ctx=ast.Load()), args=[g], keywords=[])
        return [*out, ast.Expr(value=push)]

    def _adjoint_user_call(self, stmt: ast.Assign, op: Op, g: ast.expr) -> list[ast.stmt]:
        active = tuple(p for p, a in op.args.items() if self._active_expr(a))
        if not active:
            return []
        derivative = self._callee(op, active, stmt)
        saved = self._saved_name(stmt)
        self._note_reads(stmt, [name(saved)])
        loops = self.placement.loops(stmt)
        pop = [assign(saved, _pop(self._stack(saved, loops[-1])), stmt)] if loops else []
        return pop + self._call_backward(stmt, op, derivative, g, saved)

    def _callee(self, op: Op, active: tuple[str, ...], stmt: ast.Assign) -> CalleeDerivative:
        derivative = self.callees(op.callee, active, self._outputs_without_cotangent(stmt))
        self.callee_names.update((derivative.forward, derivative.backward))
        return derivative

    def _outputs_without_cotangent(self, stmt: ast.Assign) -> tuple[int, ...]:
        """``r = f(...)`` read only by ``a, b = r``: the positions whose name carries no
        derivative to the output (``_``, a cache the code never reads into the loss). The
        callee's backward is made for the other positions only, and given ``None`` for
        these (a symbolic zero across the call: nothing pushed through its body)."""
        target = stmt.targets[0]
        readers = self.placement.forward_readers.get(target.id, []) if isinstance(
            target, ast.Name) else []
        if len(readers) != 1 or len(self.placement.assignments.get(target.id, [])) != 1:
            return ()
        (unpack,) = readers
        if not (isinstance(unpack, ast.Assign) and len(unpack.targets) == 1
                and isinstance(unpack.targets[0], ast.Tuple)
                and isinstance(unpack.value, ast.Name) and unpack.value.id == target.id):
            return ()
        elts = unpack.targets[0].elts
        if not all(isinstance(e, ast.Name) for e in elts):
            return ()
        zero = tuple(i for i, e in enumerate(elts) if not self.activity.is_active(e.id))
        return zero if len(zero) < len(elts) else ()

    def _zero_cotangents_of(self, source: ast.expr) -> tuple[int, ...]:
        """The positions of a callee's result (``source``) that its backward takes as
        ``None``."""
        if not isinstance(source, ast.Name):
            return ()
        made = self.placement.assignments.get(source.id, [])
        if len(made) != 1 or not isinstance(made[0], ast.Assign):
            return ()
        op = self.op_of(made[0])
        if op is None or op.kind != USER:
            return ()
        active = tuple(p for p, a in op.args.items() if self._active_expr(a))
        return self._callee(op, active, made[0]).zero_outputs if active else ()

    def _call_backward(self, stmt: ast.Assign, op: Op, derivative: CalleeDerivative,
                       g: ast.expr, saved: str) -> list[ast.stmt]:
        backward = ast.Call(func=name(derivative.backward), args=[g, name(saved)], keywords=[])
        args = [op.args[p] for p in derivative.wrt]
        if len(args) == 1:
            return self._accumulate(args[0], ast.Subscript(value=backward, slice=ast.Constant(0),
                                                           ctx=ast.Load()))
        fresh = all(isinstance(a, ast.Name) and a.id not in self.defined for a in args) and (
            len({a.id for a in args}) == len(args)
        )
        if fresh:
            targets = ast.Tuple(elts=[name(self.grad(a.id), True) for a in args], ctx=ast.Store())
            for a in args:
                self.defined.add(a.id)
                self.owned.discard(a.id)
            return [ast.Assign(targets=[targets], value=backward)]
        grads_var = self._fresh_for(stmt, "grads", f"grads_{identifier(op.callee)}")
        out: list[ast.stmt] = [ast.Assign(targets=[name(grads_var, True)], value=backward)]
        for i, a in enumerate(args):
            out.extend(self._accumulate(a, ast.Subscript(value=name(grads_var),
                                                         slice=ast.Constant(i), ctx=ast.Load())))
        return out

    def _forward_user_call(self, stmt: ast.Assign, op: Op) -> ast.stmt:
        active = tuple(p for p, a in op.args.items() if self._active_expr(a))
        derivative = self._callee(op, active, stmt)
        value = clone(stmt.value)
        value.func = name(derivative.forward)
        targets = ast.Tuple(elts=[clone(stmt.targets[0]),
                                  name(self._saved_name(stmt), True)], ctx=ast.Store())
        return located(ast.Assign(targets=[targets], value=value), stmt)

    def _saved_name(self, stmt: ast.Assign) -> str:
        key = -id(stmt)
        if key not in self.slots:
            role = "pullback" if self.op_of(stmt).kind == DYNAMIC else "saved"
            self.slots[key] = self.namer.fresh(f"{stmt.targets[0].id}_{role}")
        return self.slots[key]

    # -- calls of function values: differentiated when the code runs ----------------------
    def _forward_dynamic_call(self, stmt: ast.Assign, op: Op) -> ast.stmt:
        """``y = f(x)``: ``y, y_pullback = pullback_of(f, x)``."""
        for kw in stmt.value.keywords:
            if self._active_expr(kw.value):
                raise self.parsed.unsupported(
                    stmt, f"a keyword argument `{kw.arg}=` carrying a derivative, in a call "
                    f"of the function value `{op.label}`",
                    "Pass it as a positional argument.")
        value = ast.Call(func=name("pullback_of"),
                         args=[clone(stmt.value.func), *[clone(a) for a in stmt.value.args]],
                         keywords=[clone(k) for k in stmt.value.keywords])
        targets = ast.Tuple(elts=[clone(stmt.targets[0]), name(self._saved_name(stmt), True)],
                            ctx=ast.Store())
        return located(ast.Assign(targets=[targets], value=value), stmt)

    def _adjoint_dynamic_call(self, stmt: ast.Assign, op: Op, g: ast.expr) -> list[ast.stmt]:
        if self._active_expr(op.args["callee"]):
            raise dynamic_depends(self.parsed, stmt, op.label)
        active = [(int(p), a) for p, a in op.args.items()
                  if p != "callee" and self._active_expr(a)]
        if not active:
            return []
        pullback = self._saved_name(stmt)
        self._note_reads(stmt, [name(pullback)])
        loops = self.placement.loops(stmt)
        out = [assign(pullback, _pop(self._stack(pullback, loops[-1])), stmt)] if loops else []
        grads: ast.expr = ast.Call(func=name(pullback), args=[g], keywords=[])
        if len(active) > 1:
            grads_var = self._fresh_for(stmt, "grads", f"grads_{stmt.targets[0].id}")
            out.append(ast.Assign(targets=[name(grads_var, True)], value=grads))
            grads = name(grads_var)
        for position, arg in active:
            part = ast.Subscript(value=clone(grads), slice=ast.Constant(position),
                                 ctx=ast.Load())
            out.extend(self._accumulate(arg, part))
        return out

    # -- control flow -----------------------------------------------------------------------
    def _adjoint_if(self, stmt: ast.If) -> list[ast.stmt]:
        test_var = self._control_var(stmt, stmt.test)
        self._note_reads(stmt, [name(test_var)])
        start_defined, start_owned = set(self.defined), set(self.owned)
        body = self.adjoint_block(stmt.body)
        body_defined, body_owned = set(self.defined), set(self.owned)
        self.defined, self.owned = set(start_defined), set(start_owned)
        orelse = self.adjoint_block(stmt.orelse)
        # copies: the zero fills below must not count as owned on the other side
        else_defined, else_owned = set(self.defined), set(self.owned)
        merged = body_defined | else_defined
        zero_filled = merged - (body_defined & else_defined)
        self._bind_before(stmt, zero_filled)
        # the zeros take the shape each variable had before the `if`: a read by the `if`,
        # so that an overwrite in a branch saves the value for it
        self._note_reads(stmt, [name(var) for var in zero_filled])
        body += self._zero_fill(merged - body_defined, stmt)
        orelse += self._zero_fill(merged - else_defined, stmt)
        self.defined = merged
        self.owned = (body_owned | (merged - body_defined)) & (else_owned | (merged - else_defined))
        self.has_adjoint[id(stmt)] = _has_code(body) or _has_code(orelse)
        if not self.has_adjoint[id(stmt)]:
            return []
        branch = ast.If(test=name(test_var), body=body or [ast.Pass()], orelse=orelse)
        if not _has_code(body):
            branch = ast.If(test=ast.UnaryOp(op=ast.Not(), operand=name(test_var)),
                            body=orelse, orelse=[])
        return [*self._pop_control(stmt, test_var), located(branch, stmt)]

    def _bind_before(self, stmt: ast.stmt, variables: set[str]) -> None:
        """Variables whose cotangents are zero-filled at ``stmt`` (an ``if`` or a loop) but
        that may be unbound there (assigned in one branch only, or in a loop that may not
        run) are set to ``None`` before it in the forward sweep (before the outermost loop
        around it: a value from an earlier iteration must survive); their zeros are ``None``."""
        outermost = (self.placement.loops(stmt) or (stmt,))[0]
        for var in sorted(variables):
            if not self.placement.maybe_bound_before(stmt, var):
                before = outermost
            elif self.placement.surely_bound_before(stmt, var):
                continue
            else:  # bound on some paths only: `None` before the first of them
                before = self.placement.first_assigned_in(var)
                if not isinstance(before, (ast.If, ast.For, ast.While)):
                    continue
            self.preinit.setdefault(id(before), {}).setdefault(var)

    def _zero_fill(self, variables: set[str], like: ast.stmt) -> list[ast.stmt]:
        out = []
        self.owned |= variables
        for var in sorted(variables):
            out.append(ast.Assign(targets=[name(self.grad(var), True)],
                                  value=call("zeros_like_grad", name(var))))
        return out

    def _adjoint_loop(self, stmt: ast.For | ast.While) -> list[ast.stmt]:
        entry_defined, entry_owned = set(self.defined), set(self.owned)
        start_defined, start_owned = set(entry_defined), set(entry_owned)
        hoisted: set[str] = set()
        for _ in range(20):  # fixed point: what the body's adjoint needs defined at its top
            self.defined, self.owned = set(start_defined), set(start_owned)
            outer_copied, self.copied = self.copied, set()
            body = self.adjoint_block(stmt.body)
            # an adjoint the body copies (to update in place) is copied once, before the loop
            to_hoist = (self.copied & start_defined) - hoisted
            self.copied = outer_copied | self.copied
            grown = self.defined - start_defined
            lost = start_owned - self.owned
            if not grown and not lost and not to_hoist:
                break
            hoisted |= to_hoist
            start_defined |= self.defined
            # the prologue zero-fills what the body defines first: fresh arrays, owned (a
            # later round drops any the body's end leaves unowned, as `lost`)
            start_owned = (start_owned - lost) | to_hoist | grown
        end_defined = self.defined
        # the zeros take the shape each variable had when this iteration began: a read inside
        # the loop, so that the body's overwrites save the value for it
        for var in start_defined - end_defined:
            self._note_reads(stmt.body[0], [name(var)])
        self._bind_before(stmt, start_defined - end_defined)
        body += self._zero_fill(start_defined - end_defined, stmt)
        self.defined, self.owned = set(start_defined), set(start_owned) & self.owned
        self.has_adjoint[id(stmt)] = _has_code(body)
        if not _has_code(body):
            self.defined, self.owned = entry_defined, entry_owned
            return []
        self._bind_before(stmt, start_defined - entry_defined)
        prologue = self._zero_fill(start_defined - entry_defined, stmt)
        prologue += [ast.Assign(targets=[name(self.grad(var), True)],
                                value=call("private_copy", self.grad_load(var)))
                     for var in sorted(hoisted & entry_defined - entry_owned)]
        for var in start_defined - entry_defined:
            self._note_reads(stmt, [name(var)])
        header = self._reverse_header(stmt)
        if isinstance(stmt, ast.For) and self._needs_counter(stmt) and not self.recording and (
            stmt.target.id in self.needed
        ):
            self._register_snapshot_for(stmt, stmt.target.id)
        pops = [assign(var, _pop(self._stack(var, stmt)), stmt)
                for var in reversed(self.snapshots.get(id(stmt), []))]
        loop = ast.For(target=header[0], iter=header[1], body=pops + body, orelse=[],
                       type_comment=None)
        counter_pops = (self._pop_control(stmt, self.control[id(stmt)])
                        if id(stmt) in self.control else [])
        return [*prologue, *counter_pops, located(loop, stmt)]

    def _reverse_header(self, stmt: ast.For | ast.While) -> tuple[ast.expr, ast.expr]:
        if isinstance(stmt, ast.For) and not self._needs_counter(stmt):
            self._note_reads(stmt, [stmt.iter])
            it = stmt.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and (
                    it.func.id == "reversed" and len(it.args) == 1):
                return clone(stmt.target), clone(it.args[0])  # generated code, reversed back
            return clone(stmt.target), call("reversed", clone(it))
        counter = self._control_var(stmt, None)
        self._note_reads(stmt, [name(counter)])
        return name("_", True), call("range", name(counter))

    def _range_loop_vars(self, stmt: ast.stmt) -> set[str]:
        return {loop.target.id for loop in self.placement.loops(stmt)
                if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)}

    # -- helpers ----------------------------------------------------------------------------
    def _active_expr(self, expr: ast.expr) -> bool:
        if isinstance(expr, ast.Name):
            return self.activity.is_active(expr.id)
        if isinstance(expr, (ast.List, ast.Tuple)):
            return any(self._active_expr(e) for e in expr.elts)
        if isinstance(expr, ast.Dict):  # the **kwargs a call makes
            return any(self._active_expr(v) for v in expr.values)
        return False

    def _no_rule(self, stmt: ast.stmt, op: Op, param: str | None = None) -> Exception:
        if is_dynamic_helper(op.callee):
            return dynamic_again(self.parsed, stmt)
        label = op.label or getattr(op.callee, "__name__", "this call")
        if param is not None:
            return self.parsed.no_derivative(
                stmt, f"{label} has no derivative with respect to its argument `{param}`; "
                "pass a constant there, or wrap it in `sg.stop_gradient(...)`.")
        if op.advice:
            return self.parsed.no_derivative(stmt, f"`{label}` has no derivative. {op.advice}")
        if label.startswith("."):  # a method of a value: no function to register a rule on
            return self.parsed.no_derivative(
                stmt, f"the method `{label}` has no derivative rule. Call the NumPy function "
                f"instead (for example `np.{label.strip('.()')}(x, ...)`), or wrap the value in "
                "a function of your own and register a rule for it with `@sg.defvjp`.")
        spelled = label if "." in label else getattr(op.callee, "__qualname__", label)
        params = _stub_parameters(op.callee, len(op.args))
        stub = (
            f"    @sg.defvjp({spelled})\n"
            f"    def {spelled.split('.')[-1]}_vjp(g, ans, {params}):\n"
            "        return ...  # the cotangent of each argument"
        )
        return self.parsed.no_derivative(
            stmt, f"`{label}` has no derivative rule and no Python source to differentiate.\n"
            f"Register one before differentiating, for example:\n{stub}")


# -- module helpers -------------------------------------------------------------------------
def _is_pop(value: ast.expr) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and (
        value.func.attr == "pop" and not value.args and not value.keywords)


def _straight_line(core: list[ast.stmt]) -> bool:
    """No branch, no loop, no write into an array: nothing is ever overwritten."""
    for stmt in core:
        if isinstance(stmt, (ast.If, ast.For, ast.While, ast.AugAssign)):
            return False
        if isinstance(stmt, ast.Expr) and writes_in_place(stmt.value):
            return False
        if isinstance(stmt, ast.Assign) and not isinstance(stmt.targets[0], (ast.Name,
                                                                            ast.Tuple)):
            return False
    return True


def _walk_loop_body(loop: ast.stmt):
    """Nodes of a loop's body, not descending into inner loops."""
    stack = list(loop.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.For, ast.While)):
            continue
        stack.extend(ast.iter_child_nodes(node))


def _pop(stack: str) -> ast.expr:
    return ast.Call(func=ast.Attribute(value=name(stack), attr="pop", ctx=ast.Load()),
                    args=[], keywords=[])


def _np_call(fname: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=ast.Attribute(value=name("np"), attr=fname, ctx=ast.Load()),
                    args=list(args), keywords=[])


def _is_fresh_call(expr: ast.expr) -> bool:
    """Calls that return a new object nobody else holds: ``np.copy(...)``, ``list(...)``,
    and ``unbroadcast`` of an arithmetic result (it returns its argument or a new sum)."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
        if expr.func.id == "unbroadcast" and expr.args:
            return isinstance(expr.args[0], ast.BinOp) or _is_fresh_call(expr.args[0])
        return expr.func.id in ("list", "zeros_like_grad", "private_copy")
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and (
        isinstance(expr.func.value, ast.Name) and expr.func.value.id == "np"
        and expr.func.attr == "copy"
    )


def _index_value(index: ast.expr) -> ast.expr:
    """An index as a value that can be passed to a function (``np.add.at``): each slice
    ``1:`` spelled ``slice(1, None)``, which subscript syntax alone allows."""
    if isinstance(index, ast.Slice):
        parts = [index.lower, index.upper] + ([index.step] if index.step else [])
        return call("slice", *[p if p is not None else ast.Constant(None) for p in parts])
    if isinstance(index, ast.Tuple):
        return ast.Tuple(elts=[_index_value(e) for e in index.elts], ctx=ast.Load())
    return index


def _makes_slice(stmt: ast.stmt) -> bool:
    """``s = slice(...)``: an index that selects each element at most once."""
    return isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call) and isinstance(
        stmt.value.func, ast.Name) and stmt.value.func.id == "slice"


def _is_basic_index(index: ast.expr, range_vars: set[str]) -> bool:
    """Indices that select each element at most once, so ``+=`` cannot lose a duplicate."""
    if isinstance(index, ast.Tuple):
        return all(_is_basic_index(e, range_vars) for e in index.elts)
    if isinstance(index, ast.Slice):
        return True
    if isinstance(index, ast.Constant):
        return isinstance(index.value, (int, str)) or index.value is None or (
            index.value is Ellipsis)
    if isinstance(index, ast.Name):
        return index.id in range_vars
    if isinstance(index, ast.BinOp):
        return all(_is_basic_index(s, range_vars) for s in (index.left, index.right))
    if isinstance(index, ast.UnaryOp):
        return _is_basic_index(index.operand, range_vars)
    if isinstance(index, ast.Attribute):
        return isinstance(index.value, ast.Name) and index.value.id in ("np", "numpy")
    return False


def _stub_parameters(callee: object, count: int) -> str:
    try:
        names = list(inspect.signature(callee).parameters)
    except (TypeError, ValueError):
        names = []
    if not names:
        names = ["x", "y", "z", "w"]
    return ", ".join(names[: max(count, 1)])


def _squash(text: str) -> str:
    """Code or a quote of it, without the spacing and quote style that may differ (nor the
    mark the passes give the user's names that sourcegrad's code also uses)."""
    return "".join(text.split()).replace("'", '"').replace(naming.USER_MARK, "")


def _has_code(stmts: list[ast.stmt]) -> bool:
    return any(not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
               and not isinstance(s, ast.Pass) for s in stmts)


__all__ = ["CalleeDerivative", "ReverseMode", "ReverseResult"]


def _written(stmt: ast.stmt) -> ast.expr:
    """What an assignment (``x[i] = v``), an augmented assignment (``x[i] += v``) or a
    scatter (``np.add.at(x, i, v)``) writes."""
    if isinstance(stmt, ast.Assign):
        return stmt.targets[0]
    if isinstance(stmt, ast.AugAssign):
        return stmt.target
    target, index, _ = stmt.value.args
    return ast.Subscript(value=clone(target), slice=clone(index), ctx=ast.Load())


def _adjoint_reads(op: Op | None) -> bool:
    """Does the backward sweep read the value ``op`` computes (not only its shape)? A
    rule's derivative does when it reads ``ans``; a user function's may keep it among its
    saved values."""
    if op is None or op.kind in (USER, UNKNOWN, POP):
        return True
    if op.kind != RULE or op.callee in VIEW_PRIMITIVES:
        return False  # no derivative, or a view: what it shows is checked as a base itself
    return any("ans" in {n.id for n in walk(shared_rule_expression(vjp)) if isinstance(n, ast.Name)}
               for vjp in op.rule.vjps.values())


def _scales(value: ast.expr, var: str) -> bool:
    """``var * 0.5``, ``var / 2``, ``var + 1``, ``-var``: linear in ``var``, with constants
    (their derivatives do not read ``var``'s elements)."""
    if isinstance(value, ast.UnaryOp):
        return isinstance(value.operand, ast.Name) and value.operand.id == var
    if not isinstance(value, ast.BinOp):
        return False
    sides = [value.left, value.right]
    if isinstance(value.op, ast.Div):
        sides = [value.left]  # `2 / var` reads it
    elif not isinstance(value.op, (ast.Add, ast.Sub, ast.Mult)):
        return False
    return any(isinstance(s, ast.Name) and s.id == var for s in sides) and all(
        isinstance(s, ast.Constant) or isinstance(s, ast.Name) and s.id == var
        for s in [value.left, value.right])


def _viewers(var: str, shares: dict[str, str]) -> set[str]:
    """The arrays that may show part of ``var``: its views, their views, and so on."""
    return {v for v in shares if var in _view_bases(v, shares)}


def _view_bases(var: str, views: dict[str, str]) -> list[str]:
    """The arrays ``var`` may be a view of: its base, that base's base, and so on."""
    bases: list[str] = []
    while var in views and views[var] not in bases and views[var] != var:
        var = views[var]
        bases.append(var)
    return bases


