"""Shape and type specialisation of generated code: a reusable pass.

``specialise(fn, args)`` takes a generated derivative and the arguments of a call, works out
the shape and dtype of every variable of the generated code from those of the arguments
(``abstract.py``), and rewrites the code for them:

- each helper call whose meaning is known for these shapes becomes that meaning
  (``helpers.py``): ``unbroadcast(g, x)`` where the shapes match is ``g``; ``scalar_seed`` of
  a float is ``1.0``; ``np.size(x)`` is a number;
- values kept only for their shape (``shape_only``), and stacks of them, disappear
  (``cleanup.py``);
- on the NumPy path, a loop's kept steps are arrays of all steps, multiplied once after the
  loop (``step_arrays.py``), and ``grad_a = grad_b`` aliases go (``aliases.py``);
- for Numba (``numba=True``): what Numba does not compile is spelt as it does (no ``del``, no
  ``reversed(range(...))``, a reduction over an axis as ``reduce_along``); a stack of
  numbers, or of arrays a ufunc computes, pushed once per iteration of a loop becomes a
  preallocated array; a chain of elementwise statements becomes one expression, which Numba
  compiles into one loop; a variable that is ``None`` on one path and a value on another is
  refused (``CannotCompile``: Numba gives each variable one type).

Generated callees (``forward_g``/``backward_g``) are specialised at the shapes they are
called with. The result prints as readably as the general code, comments included (``text``),
and is valid for the argument shapes and dtypes it was made for only: its caller guards on
them. The same pass serves the NumPy path (``numba=False``), where it makes the code shape
specific without changing what runs it.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import inspect
import math
import operator
import types
from collections import ChainMap
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..codegen import printer
from ..codegen.clone import clone
from ..codegen.walk import names_in, walk
from ..compile import register_lines
from ..rules import support
from . import abstract as a
from . import cleanup, helpers, reductions, source
from .abstract import Abstract, Array, Constant, Number, Sequence
from .errors import CannotCompile

Env = MutableMapping[str, Abstract]  # a dict, or a branch's layer over one (``ChainMap``)

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
    ast.BitXor: operator.xor, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
}
_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge,
}
_UNARY: dict[type, Callable[[Any], Any]] = {
    ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert,
}
_REDUCTIONS = {np.sum, np.mean, np.prod, np.max, np.min, np.amax, np.amin, np.std, np.var,
               np.any, np.all, np.nansum, np.nanmean, np.nanmax, np.nanmin}
# NumPy functions whose result's shape and dtype follow from those of the operands (and the
# values of the other arguments), never from the values of array elements; the views
# among them return no memory of their own
_VIEWS = {np.reshape, np.transpose, np.swapaxes, np.moveaxis, np.expand_dims, np.squeeze,
          np.broadcast_to, np.ravel, np.asarray, np.atleast_1d, np.atleast_2d, np.diagonal,
          np.real, np.imag}
_SHAPE_FOLLOWS = _VIEWS | {
    np.zeros, np.ones, np.empty, np.full, np.zeros_like, np.ones_like, np.empty_like,
    np.full_like, np.eye, np.identity, np.copy, np.array, np.stack, np.concatenate,
    np.hstack, np.vstack, np.outer, np.dot, np.matmul, np.inner, np.where, np.clip,
    np.tensordot, np.kron, np.tril, np.triu, np.diag, np.cumsum, np.cumprod, np.flip,
    np.roll, np.tile, np.linspace, np.arange, np.round, np.around,
    np.einsum, np.trace, np.linalg.inv, np.linalg.solve, np.linalg.det, np.linalg.norm,
    np.linalg.cholesky,
}
_PURE = (support.shape_only, support.shape_of_elementwise, support.unbroadcast)
_PURE_NUMPY = {"empty", "zeros", "ones", "full", "sum", "mean", "max", "min", "prod", "where"}
_ARRAY_METHODS = {"reshape", "astype", "sum", "mean", "max", "min", "prod", "transpose",
                  "swapaxes", "copy", "ravel", "flatten", "squeeze", "dot", "any", "all",
                  "std", "var", "clip", "round", "conj", "cumsum"}
_VIEW_METHODS = {"reshape", "transpose", "swapaxes", "ravel", "squeeze"}


@dataclass
class Specialised:
    """One specialised function: its tree, its printed text, and what its names denote."""

    name: str
    fdef: ast.FunctionDef
    generated: source.Generated
    bindings: dict[str, Any]  # names the specialised code reads that the original did not
    returned: Abstract = a.UNKNOWN
    # the globals and closure variables holding data (not a module, class or function)
    # whose value the specialisation read: it holds while they are alike (their shapes...)
    assumed: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return printer.to_source(self.fdef)

    @property
    def namespace(self) -> dict[str, Any]:
        return {**self.generated.namespace, **self.bindings}


@dataclass
class Program:
    """A generated function and its callees, specialised for one call."""

    root: Specialised
    functions: list[Specialised] = field(default_factory=list)  # the root first

    @property
    def text(self) -> str:
        return "\n\n".join(f.text for f in self.functions)

    def build(self, wrap: Callable[[Any], Any] = lambda fn: fn,
              user: Callable[[Any], Any] = lambda fn: fn
              ) -> tuple[Any, dict[str, tuple[Specialised, dict[int, int]]]]:
        """The root function, runnable: each specialised function compiled from its text
        (under a pseudo file name ``linecache`` knows) and passed through ``wrap``
        (``numba.njit``, or nothing for the NumPy path); the user's functions they call
        passed through ``user``. Also, for each pseudo file name, the function and its
        line -> user line map."""
        built: dict[str, Any] = {}
        namespaces: dict[str, dict[str, Any]] = {}
        files: dict[str, tuple[Specialised, dict[int, int]]] = {}
        for function in self.functions:
            text = function.text
            digest = hashlib.sha256(text.encode()).hexdigest()[:10]
            filename = f"<sourcegrad specialised {function.name} {digest}>"
            register_lines(filename, text)
            files[filename] = (function, source.printed_user_lines(function.fdef, text))
            namespace = dict(function.namespace)
            exec(compile(text, filename, "exec"), namespace)  # our own generated code
            namespaces[function.name] = namespace
            built[function.name] = wrap(namespace[function.name])
        for function in self.functions:
            namespace = namespaces[function.name]
            for name, value in function.bindings.items():
                if isinstance(value, Specialised):
                    namespace[name] = built[value.name]
            read = {n.id for n in walk(function.fdef) if isinstance(n, ast.Name)}
            for name in read:
                if is_user_function(namespace.get(name)):
                    namespace[name] = user(namespace[name])
        return built[self.root.name], files


def is_user_function(value: Any) -> bool:
    """A function of the user's (not one sourcegrad generated, nor a library's)."""
    return isinstance(value, types.FunctionType) and not source.is_generated(value) and (
        not (value.__module__ or "").startswith(("numpy", "sourcegrad", "numba")))


def specialise(fn: Any, args: tuple, kwargs: dict[str, Any] | None = None, *,
               numba: bool = False) -> Program:
    """``fn`` (a generated function) specialised to the types and shapes of ``args``; made
    again without what the call told of structured arguments' entries if the code writes
    into one (``StructureWritten``)."""
    try:
        return _specialised(fn, args, kwargs or {}, numba, structures=True)
    except StructureWritten:
        return _specialised(fn, args, kwargs or {}, numba, structures=False)


class StructureWritten(Exception):
    """The code writes into a dict, list or dataclass argument (or one held in another):
    what the call told of its entries may not hold after the write (an integer leaf may
    become a float carrying a derivative, an array may change shape)."""


def _specialised(fn: Any, args: tuple, kwargs: dict[str, Any], numba: bool,
                 structures: bool) -> Program:
    generated = source.read(source.unwrapped(fn))
    params = _bind(generated.function, [a.of_value(v, False, structures) for v in args],
                   {k: a.of_value(v, False, structures) for k, v in kwargs.items()})
    session = _Session(numba)
    root = session.function(generated, params)
    return Program(root, session.done)


# methods that change a dict or list in place
_MUTATING = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort",
                       "reverse", "update", "setdefault", "popitem"})


def _bind(fn: Any, args: list[Abstract], kwargs: dict[str, Abstract]) -> Env:
    """Parameter name -> what is known of its value, defaults included."""
    signature = helpers.signature_of(fn)
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return {p: a.UNKNOWN for p in signature.parameters}
    params: Env = {}
    for name, parameter in signature.parameters.items():
        if name in bound.arguments:
            params[name] = bound.arguments[name]
        elif parameter.default is not inspect.Parameter.empty:
            params[name] = a.of_value(parameter.default)
        else:
            params[name] = a.UNKNOWN
    return params


class _Session:
    """The functions of one specialisation: each generated callee specialised once per
    distinct set of argument shapes, under a name of its own if there are several."""

    def __init__(self, numba: bool) -> None:
        self.numba = numba
        self.done: list[Specialised] = []
        self.variants: dict[tuple[int, tuple], Specialised] = {}
        self.taken: set[str] = set()

    def function(self, generated: source.Generated, params: Env) -> Specialised:
        key = (id(generated.function), tuple(sorted(params.items(), key=lambda kv: kv[0])))
        try:
            if key in self.variants:
                return self.variants[key]
        except TypeError:  # what is known of an argument holds an unhashable constant
            key = (id(generated.function), id(params))
        name = generated.name
        n = 2
        while name in self.taken:
            name, n = f"{generated.name}_{n}", n + 1
        self.taken.add(name)
        # rewritten in place: ``generated`` was read (parsed anew) for this variant alone, and
        # a deep copy of the tree cost a third of the time of specialising
        fdef = generated.fdef
        fdef.name = name
        if self.numba:
            _one_type_per_variable(generated)
        result = Specialised(name, fdef, generated, {})
        self.variants[key] = result
        self.done.append(result)
        walker = _Walker(self, result, params)
        fdef.body = walker.run(fdef.body)
        result.returned = walker.returned or a.UNKNOWN
        cleanup.tidy(fdef, walker.facts, numba=self.numba, np_name=walker.np_name())
        # the facts hold the walker's methods, the walker the facts: a cycle holding every
        # node and value it saw until the cyclic collector runs (it is off while specialising,
        # and its first pass after is long in proportion)
        walker.facts = None  # type: ignore[assignment]
        if self.numba:
            _keyword_only_as_positional(fdef.args)
        return result

    def callee(self, fn: types.FunctionType, params: Env) -> Specialised:
        return self.function(source.read(fn), params)


# (walker class, "stmt_" or "expr_", node class) -> the walker's method for such nodes, or
# ``None``: looked up once, not by name for every node
_HANDLERS: dict[tuple[type, str, type], Callable[..., Any] | None] = {}


def _handler(walker: type, prefix: str, node: type) -> Callable[..., Any] | None:
    key = (walker, prefix, node)
    try:
        return _HANDLERS[key]
    except KeyError:
        found = _HANDLERS[key] = getattr(walker, prefix + node.__name__, None)
        return found


class _Loop:
    """One pass over a loop's body: ``head`` is what is known at its top (a layer over what
    was known before the loop); each ``break`` and ``continue`` leaves what differs from
    it there."""

    def __init__(self, head: ChainMap) -> None:
        self.head = head
        self.breaks: list[Env] = []
        self.continues: list[Env] = []


_WIDEN_AFTER = 4  # loop passes before what still changes is given up as unknown


class _Walker:
    """Works out what is known of each variable, statement by statement, and rewrites
    expressions accordingly (``helpers.Context`` for the rules)."""

    def __init__(self, session: _Session, target: Specialised, params: Env) -> None:
        self.session = session
        self.target = target
        self.numba = session.numba
        self.namespace = target.generated.namespace
        fdef = target.generated.fdef
        self.locals = {n.id for n in names_in(fdef) if not isinstance(n.ctx, ast.Load)}
        self.locals |= set(params)
        self.outer: dict[str, Abstract] = {}  # what ``lookup`` found of other names
        self.env: Env | None = dict(params)
        self.loops: list[_Loop] = []
        self.returned: Abstract | None = None
        self.facts = cleanup.Facts(pure_calls=self.pure_call,
                                   elementwise_calls=self.elementwise_call,
                                   ufunc_calls=self.ufunc_call, resolve=self.resolve)

    # -- names of things the specialised code reads -------------------------------------------
    def name_for(self, value: Any) -> ast.expr:
        """A name that denotes ``value`` in the specialised function (an existing global or
        helper name, else a new binding)."""
        bindings = self.target.bindings
        for name, bound in [*bindings.items(), *self.namespace.items()]:
            if bound is value and name not in self.locals:
                return ast.Name(id=name, ctx=ast.Load())
        if value is getattr(builtins, getattr(value, "__name__", ""), None) and (
                value.__name__ not in self.locals and value.__name__ not in self.namespace):
            return ast.Name(id=value.__name__, ctx=ast.Load())
        base = getattr(value, "__name__", "value").split(".")[-1]
        base = "np" if value is np else base
        name, n = base, 2
        while name in self.locals or name in self.namespace or name in bindings:
            name, n = f"{base}_{n}", n + 1
        bindings[name] = value
        return ast.Name(id=name, ctx=ast.Load())

    def np(self, attribute: str) -> ast.expr:
        return ast.Attribute(value=self.name_for(np), attr=attribute, ctx=ast.Load())

    def np_name(self) -> str:
        name = self.name_for(np)
        assert isinstance(name, ast.Name)
        return name.id

    def resolve(self, name: str) -> Any:
        """What a name the function reads but does not bind denotes (a helper, a module, a
        builtin), or ``None``."""
        if name in self.locals:
            return None
        if name in self.target.bindings:
            return self.target.bindings[name]
        if name in self.namespace:
            return self.namespace[name]
        return getattr(builtins, name, None)

    def pure_call(self, call: ast.Call) -> bool:
        """Is ``call`` one that can be dropped when its result is not read (it only makes
        a value)?"""
        func = call.func
        if isinstance(func, ast.Name):
            return self.namespace.get(func.id) in _PURE or func.id in self.target.bindings and (
                self.target.bindings[func.id] in _PURE)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            module = self.target.bindings.get(func.value.id, self.namespace.get(func.value.id))
            return module is np and (func.attr in _PURE_NUMPY or isinstance(
                getattr(np, func.attr, None), np.ufunc))
        return False

    def elementwise_call(self, call: ast.Call) -> bool:
        """Is ``call`` a NumPy ufunc or a function of ``math`` (pure, elementwise)?"""
        func = call.func
        if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name):
            return False
        module = self.target.bindings.get(func.value.id, self.namespace.get(func.value.id))
        if module is np:
            return isinstance(getattr(np, func.attr, None), np.ufunc)
        return module is math and callable(getattr(math, func.attr, None))

    def ufunc_call(self, call: ast.Call) -> bool:
        """Is ``call`` a NumPy ufunc of one output given all its inputs by position (so that
        an output array can be added as the last argument)?"""
        func = call.func
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
            return False
        module = self.target.bindings.get(func.value.id, self.namespace.get(func.value.id))
        ufunc = getattr(np, func.attr, None) if module is np else None
        # (Numba takes the output by position only, which NumPy deprecates for these two)
        return isinstance(ufunc, np.ufunc) and ufunc.nout == 1 and len(
            call.args) == ufunc.nin and ufunc not in (np.maximum, np.minimum)

    def evaluate(self, expr: ast.expr) -> tuple[ast.expr, Abstract]:
        return self.expr(expr)

    # -- statements ---------------------------------------------------------------------------
    def run(self, body: list[ast.stmt]) -> list[ast.stmt]:
        return self.block(body)

    def block(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            if self.env is None or printer.is_comment(stmt):
                out.append(stmt)  # unreachable code, comments: as they are
                continue
            out.extend(self.statement(stmt))
        return out

    def statement(self, stmt: ast.stmt) -> list[ast.stmt]:
        method = _handler(type(self), "stmt_", type(stmt))
        if method is None:
            self._forget(stmt)
            return [stmt]
        result = method(self, stmt)
        for new in result:
            if new is not stmt:
                _locate(new, stmt)
        return result

    def _forget(self, stmt: ast.stmt) -> None:
        """A statement the walker does not follow: what it assigns becomes unknown."""
        assert self.env is not None
        for node in walk(stmt):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                self.env[node.id] = a.UNKNOWN

    def stmt_Assign(self, stmt: ast.Assign) -> list[ast.stmt]:
        update = self._update_in_place(stmt)
        if update is not None:
            return self.stmt_AugAssign(update)
        if self._integer_leaf_cotangent(stmt):
            return []
        value, known = self.expr(stmt.value)
        targets = [self.target_expr(t) for t in stmt.targets]
        for target in stmt.targets:
            self.assign(target, known)
        return [ast.Assign(targets=targets, value=value, lineno=stmt.lineno)]

    def _integer_leaf_cotangent(self, stmt: ast.Assign) -> bool:
        """Does ``stmt`` add into a structure's cotangent at an integer leaf
        (``grad_p['n'] = grad_p['n'] + grad_p_n``)? ``as_gradient`` drops what it holds,
        so the statement goes, and with it the work of computing what it adds."""
        (target,) = stmt.targets if len(stmt.targets) == 1 else (None,)
        if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name)):
            return False
        structure = self.lookup(target.value.id)
        if not isinstance(structure, a.Cotangent):
            return False
        _, index = self.expr(target.slice)
        key = _constant_key(index)
        return key is not _NO_KEY and structure.drops(key)

    def _update_in_place(self, stmt: ast.Assign) -> ast.AugAssign | None:
        """``g = add_into(g, c)`` as ``g += c``: on the arrays and numbers the specialised code
        runs on, what the helper does (in place into a NumPy array)."""
        value = stmt.value
        if not (isinstance(value, ast.Call) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], ast.Name) and isinstance(value.func, ast.Name) and len(
                value.args) == 2 and not value.keywords and isinstance(value.args[0], ast.Name)
                and value.args[0].id == stmt.targets[0].id):
            return None
        callee = self.lookup(value.func.id)
        if not (isinstance(callee, Constant) and callee.value is support.add_into) or not (
                isinstance(self.lookup(value.args[0].id), Array | Number)):
            return None
        update = ast.AugAssign(target=ast.Name(id=value.args[0].id, ctx=ast.Store()),
                               op=ast.Add(), value=value.args[1])
        return ast.copy_location(update, stmt)

    def stmt_AugAssign(self, stmt: ast.AugAssign) -> list[ast.stmt]:
        value, known = self.expr(stmt.value)
        target = self.target_expr(stmt.target)
        if isinstance(stmt.target, ast.Name):
            current = self.lookup(stmt.target.id)
            op = _BINARY.get(type(stmt.op))
            if isinstance(current, Array) and not current.scalar:
                result = current  # in place: the array keeps its shape and dtype
            elif op is None:
                result = a.UNKNOWN
            else:
                result = self.binary(op, stmt.op, current, known)
            self.assign(stmt.target, result)
        return [ast.AugAssign(target=target, op=stmt.op, value=value)]

    def stmt_Expr(self, stmt: ast.Expr) -> list[ast.stmt]:
        call = stmt.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and (
                call.func.attr == "append" and isinstance(call.func.value, ast.Name)
                and len(call.args) == 1 and not call.keywords):
            stack = call.func.value.id
            item, known = self.expr(call.args[0])
            current = self.lookup(stack)
            _refuse_stale(current)
            if isinstance(current, Sequence) and current.is_list:
                self.assign(call.func.value, Sequence(item=a.join(current.item, known),
                                                      is_list=True))
            else:
                self.assign(call.func.value, a.UNKNOWN)
            self.facts.stack_items[stack] = a.join(self.facts.stack_items.get(stack), known)
            new_call = ast.Call(func=clone(call.func), args=[item], keywords=[])
            return [ast.Expr(value=new_call)]
        value, _ = self.expr(stmt.value)
        return [ast.Expr(value=value)]

    def stmt_Return(self, stmt: ast.Return) -> list[ast.stmt]:
        value, known = self.expr(stmt.value) if stmt.value is not None else (None, a.NONE)
        self.returned = a.join(self.returned, known)
        self.env = None
        return [ast.Return(value=value)]

    def stmt_Pass(self, stmt: ast.Pass) -> list[ast.stmt]:
        return [stmt]

    def stmt_Delete(self, stmt: ast.Delete) -> list[ast.stmt]:
        return [stmt]

    def stmt_Break(self, stmt: ast.Break) -> list[ast.stmt]:
        return self.jump(stmt, lambda loop: loop.breaks)

    def stmt_Continue(self, stmt: ast.Continue) -> list[ast.stmt]:
        return self.jump(stmt, lambda loop: loop.continues)

    def jump(self, stmt: ast.stmt, where: Callable[[_Loop], list[Env]]) -> list[ast.stmt]:
        """``break``/``continue``: what is known here flows to the loop's exit/head."""
        assert self.env is not None
        if self.loops:
            where(self.loops[-1]).append(_changes(self.env, self.loops[-1].head))
        self.env = None
        return [stmt]

    def stmt_If(self, stmt: ast.If) -> list[ast.stmt]:
        """Each branch walked in a layer of its own over what is known before the ``if``
        (``ChainMap``: a branch costs what it assigns, not a copy of every variable), and
        what they assigned joined into it."""
        test, _ = self.expr(stmt.test)
        before = self.env
        self.env = branch = _layer(before) if before is not None else None
        body = self.block(stmt.body)
        after_body = self.env
        self.env = other = _layer(before) if before is not None else None
        orelse = self.block(stmt.orelse)
        after_orelse = self.env
        if before is not None and (after_body is branch or after_body is None) and (
                after_orelse is other or after_orelse is None):
            self.env = _join_layers(before, after_body, after_orelse)
        else:  # a loop in a branch made a whole environment of its own
            self.env = _join_envs(after_body, after_orelse)
        return [ast.If(test=test, body=body or [ast.Pass()], orelse=orelse)]

    def stmt_For(self, stmt: ast.For) -> list[ast.stmt]:
        iter_expr, iterable = self.expr(stmt.iter)
        item, count = self.iteration(iterable, stmt.iter)

        def enter() -> None:
            assert self.env is not None
            self.assign(stmt.target, item)

        body, orelse = self.loop(stmt, enter, lambda: None)
        new = ast.For(target=clone(stmt.target), iter=iter_expr, body=body,
                      orelse=orelse, lineno=stmt.lineno)
        setattr(new, cleanup.TRIP_COUNT, count)
        return [new]

    def stmt_While(self, stmt: ast.While) -> list[ast.stmt]:
        tests: list[ast.expr] = []

        def test() -> None:
            tests.append(self.expr(stmt.test)[0])

        body, orelse = self.loop(stmt, lambda: None, test)
        test()
        return [ast.While(test=tests[-1], body=body, orelse=orelse)]

    def loop(self, stmt: ast.For | ast.While, enter: Callable[[], None],
             test: Callable[[], None]) -> tuple[list[ast.stmt], list[ast.stmt]]:
        """The loop's body, walked until what is known at its head settles (later passes
        give up on what keeps changing), then once more to rewrite it. The head is a layer
        over what is known before the loop, each pass a layer over the head: a pass costs
        what it assigns, not a copy of every variable; what the loop changed is written
        into the environment before it."""
        before = self.env
        if before is None:  # unreachable: nothing is known, nothing changes
            frame = _Loop(ChainMap())
            self.loops.append(frame)
            body = self.block(stmt.body)
            self.loops.pop()
            return body or [ast.Pass()], self.block(stmt.orelse)
        head = _layer(before)
        for attempt in range(_WIDEN_AFTER + 2):
            if attempt == _WIDEN_AFTER + 1:  # still moving: nothing is known of what it sets
                for name in list(head):
                    head[name] = a.UNKNOWN
            frame = _Loop(head)
            self.loops.append(frame)
            self.env = _layer(head)
            test()
            enter()
            body = self.block(stmt.body)
            self.loops.pop()
            ends = [_changes(self.env, head) if self.env is not None else None,
                    *frame.continues]
            new_head = _joined_changes(head, ends)
            if attempt == _WIDEN_AFTER - 1:  # what still changes is given up as unknown
                new_head = {n: v if head.get(n, _ABSENT) == v else a.UNKNOWN
                            for n, v in new_head.items()}
            if all(head.get(n, _ABSENT) == v for n, v in new_head.items()):
                break
            head.update(new_head)
        self.env = exit_env = _layer(head)
        exit_env.update(_joined_changes(head, frame.breaks))
        orelse = self.block(stmt.orelse)
        if stmt.orelse:
            ends = [_changes(self.env, head) if self.env is not None else None,
                    *frame.breaks]
            if all(end is None for end in ends):
                self.env = None
                return body or [ast.Pass()], orelse
            end = _joined_changes(head, ends, without_head=True)
        else:
            end = _changes(exit_env, head)
        before.update(head.maps[0])
        before.update(end)
        self.env = before
        return body or [ast.Pass()], orelse

    def iteration(self, iterable: Abstract, node: ast.expr) -> tuple[Abstract, int | None]:
        """What a loop over ``node`` binds at each iteration, and how many there are."""
        if isinstance(iterable, Constant) and isinstance(iterable.value, range):
            return Number(int), len(iterable.value)
        if isinstance(iterable, _Range):
            return Number(int), iterable.count
        if isinstance(iterable, Array) and iterable.shape:
            return Array(iterable.shape[1:], iterable.dtype, scalar=len(iterable.shape) == 1
                         ), iterable.shape[0]
        if isinstance(iterable, Sequence) and iterable.is_list:
            return iterable.item or a.UNKNOWN, None
        return a.UNKNOWN, None

    # -- assignment ---------------------------------------------------------------------------
    def assign(self, target: ast.expr, value: Abstract) -> None:
        assert self.env is not None
        if isinstance(target, ast.Name):
            self.env[target.id] = value
        elif isinstance(target, ast.Tuple | ast.List):
            items = value.items if isinstance(value, Sequence) else None
            if items is not None and len(items) == len(target.elts):
                for t, v in zip(target.elts, items, strict=True):
                    self.assign(t, v)
            else:
                item = value.item if isinstance(value, Sequence) and value.is_list else None
                for t in target.elts:
                    self.assign(t, item or a.UNKNOWN)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, a.UNKNOWN)
        # a subscript or attribute target changes an element, not what is known of the array

    def target_expr(self, target: ast.expr) -> ast.expr:
        if isinstance(target, ast.Subscript):
            value, container = self.expr(target.value)
            _refuse_stale(container)
            index, _ = self.expr(target.slice)
            return ast.Subscript(value=value, slice=index, ctx=ast.Store())
        if isinstance(target, ast.Name):
            return ast.Name(id=target.id, ctx=ast.Store())
        if isinstance(target, ast.Attribute):
            _refuse_stale(self.expr(target.value)[1])
        return clone(target)

    def lookup(self, name: str) -> Abstract:
        if name in self.locals:
            assert self.env is not None
            return self.env.get(name, a.UNKNOWN)
        try:
            return self.outer[name]
        except KeyError:
            found = self.outer[name] = self._outer(name)
            return found

    def _outer(self, name: str) -> Abstract:
        """What is known of a name the function does not bind (its namespace is fixed while
        it is walked: worked out once a name)."""
        if name in self.namespace:
            value = self.namespace[name]
            if not (value is None or isinstance(value, types.ModuleType) or callable(value)):
                self.target.assumed[name] = value
            return a.of_value(value)
        if hasattr(builtins, name):
            return Constant(getattr(builtins, name))
        return a.UNKNOWN

    # -- expressions --------------------------------------------------------------------------
    def expr(self, node: ast.expr) -> tuple[ast.expr, Abstract]:
        if self.env is None:
            return node, a.UNKNOWN
        method = _handler(type(self), "expr_", type(node))
        if method is None:
            return node, a.UNKNOWN
        new, known = method(self, node)
        self.facts.known[id(new)] = (new, known)
        return new, known

    def exprs(self, nodes: list[ast.expr]) -> tuple[list[ast.expr], list[Abstract]]:
        pairs = [self.expr(n) for n in nodes]
        return [p[0] for p in pairs], [p[1] for p in pairs]

    def expr_Constant(self, node: ast.Constant) -> tuple[ast.expr, Abstract]:
        if node.value is Ellipsis:
            return node, Constant(Ellipsis)
        return node, a.of_value(node.value)

    def expr_Name(self, node: ast.Name) -> tuple[ast.expr, Abstract]:
        return ast.Name(id=node.id, ctx=ast.Load()), self.lookup(node.id)

    def expr_Tuple(self, node: ast.Tuple) -> tuple[ast.expr, Abstract]:
        elts, known = self.exprs(node.elts)
        return ast.Tuple(elts=elts, ctx=ast.Load()), Sequence(items=tuple(known))

    def expr_List(self, node: ast.List) -> tuple[ast.expr, Abstract]:
        elts, known = self.exprs(node.elts)
        item = None
        for k in known:
            item = a.join(item, k)
        return ast.List(elts=elts, ctx=ast.Load()), Sequence(item=item, is_list=True)

    def expr_Slice(self, node: ast.Slice) -> tuple[ast.expr, Abstract]:
        parts = [self.expr(p) if p is not None else (None, a.NONE)
                 for p in (node.lower, node.upper, node.step)]
        new = ast.Slice(lower=parts[0][0], upper=parts[1][0], step=parts[2][0])
        values = []
        for _, known in parts:
            if known == a.NONE:
                values.append(None)
            elif isinstance(known, Number) and known.known:
                values.append(known.value)
            else:
                return new, a.UNKNOWN
        return new, Constant(slice(*values))

    def expr_BinOp(self, node: ast.BinOp) -> tuple[ast.expr, Abstract]:
        (left, right), (kl, kr) = self.exprs([node.left, node.right])
        new = ast.BinOp(left=left, op=node.op, right=right)
        if isinstance(node.op, ast.MatMult):
            return new, a.matmul(kl, kr)
        op = _BINARY.get(type(node.op))
        return new, (self.binary(op, node.op, kl, kr) if op else a.UNKNOWN)

    def binary(self, op: Callable, node_op: ast.operator, left: Abstract, right: Abstract
               ) -> Abstract:
        if isinstance(node_op, ast.MatMult):
            return a.matmul(left, right)
        if isinstance(left, Sequence) or isinstance(right, Sequence):
            if isinstance(node_op, ast.Add) and isinstance(left, Sequence) and isinstance(
                    right, Sequence) and left.items is not None and right.items is not None:
                return Sequence(items=left.items + right.items)
            return a.UNKNOWN
        return a.arithmetic(op, [left, right])

    def expr_UnaryOp(self, node: ast.UnaryOp) -> tuple[ast.expr, Abstract]:
        operand, known = self.expr(node.operand)
        new = ast.UnaryOp(op=node.op, operand=operand)
        if isinstance(node.op, ast.Not):
            return new, Number(bool)
        return new, a.arithmetic(_UNARY[type(node.op)], [known])

    def expr_Compare(self, node: ast.Compare) -> tuple[ast.expr, Abstract]:
        (left, *rights), known = self.exprs([node.left, *node.comparators])
        new = ast.Compare(left=left, ops=node.ops, comparators=rights)
        op = _COMPARE.get(type(node.ops[0]))
        if len(node.ops) != 1 or op is None:
            return new, (Number(bool) if all(isinstance(k, Number) for k in known)
                         else a.UNKNOWN)
        return new, a.arithmetic(op, known)

    def expr_BoolOp(self, node: ast.BoolOp) -> tuple[ast.expr, Abstract]:
        values, known = self.exprs(node.values)
        result: Abstract = Number(bool) if all(
            isinstance(k, Number) and k.kind is bool for k in known) else a.UNKNOWN
        return ast.BoolOp(op=node.op, values=values), result

    def expr_IfExp(self, node: ast.IfExp) -> tuple[ast.expr, Abstract]:
        (test, body, orelse), (_, kb, ko) = self.exprs([node.test, node.body, node.orelse])
        return ast.IfExp(test=test, body=body, orelse=orelse), a.join(kb, ko)

    def expr_Attribute(self, node: ast.Attribute) -> tuple[ast.expr, Abstract]:
        value, known = self.expr(node.value)
        new = ast.Attribute(value=value, attr=node.attr, ctx=ast.Load())
        result = self.attribute(known, node.attr)
        if isinstance(known, Array) and known.fresh and not isinstance(
                node.value, ast.Name | ast.Attribute | ast.Subscript):
            # a view of a temporary nothing else can reach owns its memory as well
            if isinstance(result, _Method):
                result.temporary = True
            elif isinstance(result, Array):
                result = a.fresh(result)
        return new, result

    def attribute(self, known: Abstract, attr: str) -> Abstract:
        if isinstance(known, Constant) and isinstance(known.value, types.ModuleType):
            return a.of_value(getattr(known.value, attr, None))
        if isinstance(known, Array):
            if attr == "shape":
                if known.shape is not None:
                    return Sequence(items=tuple(Number(int, n) for n in known.shape))
                if known.ndim is not None:
                    return Sequence(items=(Number(int),) * known.ndim)
            elif attr == "T":
                shape = known.shape[::-1] if known.shape is not None else None
                return Array(shape, known.dtype, known.ndim, scalar=known.scalar)
            elif attr == "ndim" and known.ndim is not None:
                return Number(int, known.ndim)
            elif attr == "size":
                size = a.size(known)
                return Number(int) if size is None else Number(int, size)
            elif attr == "dtype" and known.dtype is not None:
                return Constant(known.dtype)
            elif attr in _ARRAY_METHODS:
                return _Method(known, attr)
        if isinstance(known, Sequence) and known.is_list:
            return _Method(known, attr)
        if isinstance(known, Sequence):
            return known.field(attr)  # a namedtuple's
        if isinstance(known, a.Record) and known.kind is not dict:
            return known.entry(attr)  # a dataclass's
        return a.UNKNOWN

    def expr_Subscript(self, node: ast.Subscript) -> tuple[ast.expr, Abstract]:
        (value, index), (kv, ki) = self.exprs([node.value, node.slice])
        new = ast.Subscript(value=value, slice=index, ctx=ast.Load())
        return new, self.subscript(kv, ki)

    def subscript(self, value: Abstract, index: Abstract) -> Abstract:
        key = _constant_key(index)
        if isinstance(value, a.Record):
            return value.entry(key) if key is not _NO_KEY else a.UNKNOWN
        if isinstance(value, a.Cotangent):
            return value.part(key) if key is not _NO_KEY else a.UNKNOWN
        if isinstance(value, Sequence):
            if value.is_list:
                if value.argument_items is not None and isinstance(key, int):
                    return value.at(key)
                return (value.item or a.UNKNOWN) if isinstance(index, Number) else value
            if value.items is not None and isinstance(index, Number) and index.known:
                try:
                    return value.items[index.value]
                except IndexError:
                    return a.UNKNOWN
            if value.items is not None and isinstance(index, Constant) and isinstance(
                    index.value, slice):
                return Sequence(items=value.items[index.value])
            return a.UNKNOWN
        if not isinstance(value, Array):
            return a.UNKNOWN
        stand_in = _index_stand_in(index)
        if stand_in is _NO_INDEX:
            return a.UNKNOWN
        return a.evaluate(lambda x: x[stand_in], [value], {}, is_view=True)

    def expr_Call(self, node: ast.Call) -> tuple[ast.expr, Abstract]:
        func, callee = self.expr(node.func)
        pairs = [self.expr(arg) for arg in node.args]
        keywords = {k.arg: self.expr(k.value) for k in node.keywords if k.arg is not None}
        new = ast.Call(func=func, args=[p[0] for p in pairs],
                       keywords=[ast.keyword(arg=k, value=v[0]) for k, v in keywords.items()])
        if any(isinstance(arg, ast.Starred) for arg in node.args) or len(keywords) != len(
                node.keywords):
            return new, a.UNKNOWN
        args = [p[1] for p in pairs]
        kwargs = {k: v[1] for k, v in keywords.items()}
        if isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATING:
            _refuse_stale(self.facts.known[id(func.value)][1] if isinstance(
                func, ast.Attribute) and id(func.value) in self.facts.known else a.UNKNOWN)
        if isinstance(callee, _Method):
            return new, self.method_call(callee, args, kwargs)
        if not isinstance(callee, Constant):
            return new, a.UNKNOWN
        fn = callee.value
        if fn is support.put_back or fn is support.add_at:
            _refuse_stale(args[0] if args else a.UNKNOWN)
        if fn in helpers.RULES:
            replacement, known = helpers.apply(fn, self, pairs, keywords)
            return (replacement if replacement is not None else new), known
        if source.is_generated(fn):
            return self.generated_call(new, fn, args, kwargs)
        if is_user_function(fn):
            return new, a.UNKNOWN  # not followed: compiled as it is
        return self.library_call(new, fn, args, kwargs)

    def generated_call(self, new: ast.Call, fn: types.FunctionType, args: list[Abstract],
                       kwargs: dict[str, Abstract]) -> tuple[ast.expr, Abstract]:
        callee = self.session.callee(fn, _bind(fn, args, kwargs))
        bindings = self.target.bindings
        # the caller's own name for the callee (no local of its shadows it), unless it
        # already denotes another specialisation of it here
        name = new.func.id if isinstance(new.func, ast.Name) else callee.name
        base, n = name, 2
        while bindings.get(name, callee) is not callee or name in self.locals or (
                not isinstance(new.func, ast.Name) and name in self.namespace):
            name, n = f"{base}_{n}", n + 1
        bindings[name] = callee
        new.func = ast.Name(id=name, ctx=ast.Load())
        return new, callee.returned

    def library_call(self, new: ast.Call, fn: Any, args: list[Abstract],
                     kwargs: dict[str, Abstract]) -> tuple[ast.expr, Abstract]:
        """A call of NumPy, ``math`` or a builtin."""
        if fn is np.size and len(args) == 1 and not kwargs:
            size = a.size(args[0])
            if size is not None:
                return ast.Constant(size), Number(int, size)
            return new, Number(int)
        if fn is np.copy and len(args) == 1 and (
                isinstance(args[0], Number) or isinstance(args[0], Array) and args[0].scalar):
            return new.args[0], args[0]  # a number is copied by being read
        if fn is np.matmul and self.numba and len(args) == 2 and not kwargs:
            # Numba has `@` (for vectors and matrices), not np.matmul
            return (ast.BinOp(left=new.args[0], op=ast.MatMult(), right=new.args[1]),
                    a.matmul(*args))
        if isinstance(fn, np.ufunc) and not kwargs:
            return new, a.arithmetic(fn, args)
        if fn in _REDUCTIONS and args:
            bound = helpers.bound_arguments(fn, args, kwargs)
            if bound is None:
                return new, a.UNKNOWN
            x = bound.pop(next(iter(bound)))
            if set(bound) - {"axis", "keepdims", "dtype"}:
                return new, a.UNKNOWN
            result = a.reduction(fn, x, bound.get("axis"), bound.get("keepdims"),
                                 bound.get("dtype"))
            if self.numba and "dtype" not in bound:
                return self.reduction_for_numba(new, fn, x, bound, result), result
            return new, result
        if fn in _SHAPE_FOLLOWS:
            return new, a.evaluate(fn, args, kwargs, is_view=fn in _VIEWS)
        if fn is range:
            return new, _range(args)
        if fn is len and len(args) == 1:
            return new, _length(args[0])
        if fn in (min, max) and args and all(isinstance(x, Number) for x in args):
            return new, a.evaluate(fn, args, kwargs)
        if fn in (float, int, bool, abs) and len(args) == 1:
            if fn is abs:
                return new, a.arithmetic(abs, args)
            return new, (Number(fn) if isinstance(args[0], Number | Array) else a.UNKNOWN)
        if fn in (list, tuple) and len(args) == 1:
            return new, _as_sequence(args[0], fn is list)
        if fn is reversed and len(args) == 1:
            return new, args[0]
        if isinstance(fn, types.BuiltinFunctionType) and getattr(fn, "__module__", "") == (
                "math") and all(isinstance(x, Number) for x in args):
            return new, a.evaluate(fn, args, kwargs)
        return new, a.UNKNOWN

    def reduction_for_numba(self, new: ast.Call, fn: Any, x: Abstract,
                            bound: dict[str, Abstract], result: Abstract) -> ast.expr:
        """``np.max(x, axis=1, keepdims=True)`` as ``reduce_along(x, 1, True, "max")``
        where Numba lacks the call (``reductions.py``)."""
        axis, keepdims = bound.get("axis", a.NONE), bound.get("keepdims", Number(bool, False))
        if not (isinstance(axis, Number) and axis.kind is int and axis.known) or not (
                isinstance(keepdims, Number) and keepdims.known) or not isinstance(
                x, Array) or not x.ndim or not isinstance(result, Array):
            return new
        how = reductions.NAMES.get(fn)
        if how is None or not reductions.numba_lacks(how, bool(keepdims.value)):
            return new
        return helpers.call(self.name_for(reductions.reduce_along), new.args[0],
                            ast.Constant(axis.value), ast.Constant(bool(keepdims.value)),
                            ast.Constant(how))

    def method_call(self, method: _Method, args: list[Abstract], kwargs: dict[str, Abstract]
                    ) -> Abstract:
        receiver = method.receiver
        if isinstance(receiver, Sequence) and receiver.is_list:
            if method.name == "pop" and not args:
                return receiver.item or a.UNKNOWN
            if method.name == "copy":
                return receiver
            return a.UNKNOWN
        if isinstance(receiver, Array) and method.name in _ARRAY_METHODS:
            name = method.name
            return a.evaluate(lambda x, *xs, **kw: getattr(x, name)(*xs, **kw),
                              [receiver, *args], kwargs,
                              is_view=name in _VIEW_METHODS and not method.temporary)
        return a.UNKNOWN

class _Method(Abstract):
    """A method of a value the walker follows (``stack.pop``, ``x.reshape``)."""

    def __init__(self, receiver: Abstract, name: str) -> None:
        self.receiver = receiver
        self.name = name
        self.temporary = False  # called on a fresh temporary: its views own their memory


class _Range(Abstract):
    """A ``range`` whose length may be known."""

    def __init__(self, count: int | None) -> None:
        self.count = count

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Range) and other.count == self.count

    def __hash__(self) -> int:
        return hash(("range", self.count))


def _range(args: list[Abstract]) -> Abstract:
    if all(isinstance(x, Number) and x.known for x in args) and 1 <= len(args) <= 3:
        return _Range(len(range(*[x.value for x in args])))  # type: ignore[union-attr]
    return _Range(None)


def _length(value: Abstract) -> Abstract:
    if isinstance(value, Array) and value.shape:
        return Number(int, value.shape[0])
    if isinstance(value, Sequence) and value.items is not None:
        return Number(int, len(value.items))
    return Number(int)


def _as_sequence(value: Abstract, is_list: bool) -> Abstract:
    if isinstance(value, Array) and value.shape:
        item = Array(value.shape[1:], value.dtype, scalar=len(value.shape) == 1)
        if is_list:
            return Sequence(item=item, is_list=True)
        return Sequence(items=(item,) * value.shape[0])
    if isinstance(value, Sequence):
        if is_list:
            item = value.item
            for i in value.items or ():
                item = a.join(item, i)
            return Sequence(item=item, is_list=True)
        return value if not value.is_list else a.UNKNOWN
    return a.UNKNOWN


_NO_INDEX = object()


def _refuse_stale(container: Abstract) -> None:
    """A write into ``container``: if what is known of its entries came from the call, the
    specialisation starts again without it."""
    if a.knows_entries(container):
        raise StructureWritten


_NO_KEY = object()


def _constant_key(index: Abstract) -> Any:
    """The key or index a subscript reads, where it is a constant (``_NO_KEY`` if not)."""
    if isinstance(index, Number) and index.known and index.kind is int:
        return index.value
    if isinstance(index, Constant) and isinstance(index.value, str | bytes):
        return index.value
    return _NO_KEY


def _index_stand_in(index: Abstract) -> Any:
    """An index with the same effect on shapes as ``index`` (any integer will do for an
    unknown one), or ``_NO_INDEX`` when the shape depends on its values (an array index)."""
    if isinstance(index, Number):
        if index.kind is bool:
            return _NO_INDEX
        return index.value if index.known else 0
    if isinstance(index, Constant) and (index.value is None or index.value is Ellipsis
                                        or isinstance(index.value, slice)):
        return index.value
    if isinstance(index, Sequence) and index.items is not None:
        parts = [_index_stand_in(i) for i in index.items]
        return _NO_INDEX if any(p is _NO_INDEX for p in parts) else tuple(parts)
    return _NO_INDEX


def _keyword_only_as_positional(args: ast.arguments) -> None:
    """Numba takes no keyword-only parameters: they follow the others (``sg.jit`` passes
    every argument by position, callers by keyword)."""
    if not args.kwonlyargs:
        return
    if args.vararg is not None:
        return  # Numba refuses ``*args`` anyway: it says so
    defaults = [None] * (len(args.args) - len(args.defaults)) + list(args.defaults)
    defaults += list(args.kw_defaults)
    args.args = [*args.args, *args.kwonlyargs]
    args.kwonlyargs, args.kw_defaults = [], []
    first = next((i for i, d in enumerate(defaults) if d is not None), len(defaults))
    if any(d is None for d in defaults[first:]):  # a default before a required parameter
        args.defaults = []  # every argument is given anyway
    else:
        args.defaults = defaults[first:]


def _one_type_per_variable(generated: source.Generated) -> None:
    """Numba gives each variable one type: a variable that is ``None`` on one path and a
    value on another (a result not computed yet, a value only one branch saves) is refused,
    with the line that sets it to ``None``."""
    stores: dict[str, int] = {}
    nones: dict[str, ast.stmt] = {}
    for stmt in source.statements(generated.fdef.body):
        for node in walk(stmt) if not isinstance(stmt, ast.If | ast.For | ast.While) else [
                getattr(stmt, "target", None)]:
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                stores[node.id] = stores.get(node.id, 0) + 1
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant) and (
                stmt.value.value is None):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    nones.setdefault(target.id, stmt)
    for name, stmt in nones.items():
        if stores[name] > 1:
            user = generated.user_function
            line = getattr(stmt, source.USER_LINE, None)
            raise CannotCompile(
                f"`{name}` is None on one path and a value on another, and Numba gives each "
                "variable a single type", user.__code__.co_filename if user else "",
                line or (user.__code__.co_firstlineno if user else 0))


def _join_envs(*envs: Env | None) -> Env | None:
    present = [e for e in envs if e is not None]
    if not present:
        return None
    joined: Env = {}
    for name in set().union(*present):
        value: Abstract | None = None
        for env in present:
            # a path that did not bind the name cannot be the one a later read sees
            if name in env:
                value = a.join(value, env[name])
        joined[name] = value or a.UNKNOWN
    return joined


def _layer(env: Env) -> ChainMap:
    """A layer over ``env``: what is assigned goes into the layer, the rest is read below."""
    return env.new_child() if isinstance(env, ChainMap) else ChainMap({}, env)


def _join_layers(before: Env, *branches: ChainMap | None) -> Env | None:
    """``_join_envs`` of ``branches`` (each a layer over ``before`` holding what one branch
    assigned, or ``None`` for a branch that does not reach the end), written into ``before``:
    only the names a branch assigned can differ from ``before``'s."""
    reached = [b for b in branches if b is not None]
    if not reached:
        return None
    for name in set().union(*[b.maps[0] for b in reached]):
        value: Abstract | None = None
        for env in reached:
            if name in env:  # a path that did not bind the name cannot be the one a read sees
                value = a.join(value, env[name])
        before[name] = value or a.UNKNOWN
    return before


_ABSENT = object()  # a name an environment does not bind


def _changes(env: Env, below: ChainMap) -> Env:
    """What ``env`` knows that may differ from ``below``, a layer it was made over: the
    layers above it, merged (all of ``env`` if it was not made over ``below``)."""
    above = len(env.maps) - len(below.maps) if isinstance(env, ChainMap) else -1
    if above < 0 or any(x is not y for x, y in zip(env.maps[above:], below.maps,
                                                     strict=True)):
        return dict(env)
    merged: dict[str, Abstract] = {}
    for layer in reversed(env.maps[:above]):
        merged.update(layer)
    return merged


def _joined_changes(head: Env, ends: list[Env | None], without_head: bool = False) -> Env:
    """``_join_envs`` of ``head`` and of the environments that are ``head`` with the changes
    ``ends`` (``None``: a path that does not get there), for the names any of them changed
    (of the others, what ``head`` knows); without ``head`` itself, with ``without_head``."""
    reached = [end for end in ends if end is not None]
    joined: dict[str, Abstract] = {}
    for name in set().union(*reached):
        known = head.get(name, _ABSENT)
        value: Abstract | None = None
        if known is not _ABSENT and not without_head:
            value = known
        for end in reached:
            if name in end:
                value = a.join(value, end[name])
            elif known is not _ABSENT:  # a path that did not bind the name cannot be the
                value = a.join(value, known)  # one a later read sees
        joined[name] = value or a.UNKNOWN
    return joined


def _locate(new: ast.stmt, old: ast.stmt) -> None:
    """``new`` takes ``old``'s place: its line, and the user line it comes from."""
    ast.copy_location(new, old)
    setattr(new, source.USER_LINE, getattr(old, source.USER_LINE, None))
