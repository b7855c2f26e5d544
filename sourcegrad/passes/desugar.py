"""Rewrite the user's function into the core language the other passes understand.

Invariant after this pass:

- every ``for`` loop iterates over ``range(...)``; iteration over arrays, lists,
  ``enumerate`` and ``zip`` becomes an index loop that reads the element by subscript;
- list comprehensions are loops that ``append``; ``a if c else b`` is an ``if`` statement;
- augmented assignment to a name is a plain assignment (``x += v`` -> ``x = x + v``, and so
  is generated code's ``x = add_into(x, v)``), and to a subscript only ``+=``/``-=`` remain
  (others become ``x[i] = x[i] * v``);
- the function has one ``return``, its last statement (early returns assign ``result``
  and, inside loops, set ``returned`` and ``break``);
- ``break``/``continue`` only end a branch: the statements that followed a jump live in the
  ``else`` of the branch that jumped, so every path through a loop body is a straight walk.

Statements keep the line numbers of the user's code they came from, for provenance comments.
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass

import numpy as np

from ..codegen.clone import clone
from ..codegen.names import Namer
from ..codegen.walk import statements, walk
from ..frontend.forms import lambda_as_def, parameters_of
from ..frontend.nesting import Nesting
from ..frontend.source import Parsed
from ..rules import support
from . import nested_functions
from .comprehension_scopes import scope_comprehensions


def run(parsed: Parsed, namer: Namer) -> ast.FunctionDef:
    fdef = namer.disguise(clone(parsed.tree))  # the user's names sourcegrad's code also uses
    scope_comprehensions(fdef, namer)
    nested_functions.refuse_definitions_in_two_blocks(parsed, fdef)
    rewriter = _Desugar(parsed, namer)
    fdef.body = rewriter.block(_drop_docstring(fdef.body))
    nested_functions.refuse_values_of_nested_functions(parsed, fdef, set(rewriter.nested))
    fdef.body = _Returns(namer).rewrite_function(fdef.body)
    fdef.body = _structure_loops(fdef.body)
    return fdef


def _drop_docstring(body: list[ast.stmt]) -> list[ast.stmt]:
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and (
        isinstance(body[0].value.value, str)
    ):
        return body[1:] or [ast.Pass()]
    return body


def located(node: ast.stmt, like: ast.AST) -> ast.stmt:
    """Give a generated statement the line of the user statement it stands for."""
    node.lineno = getattr(like, "lineno", 0)
    node.col_offset = getattr(like, "col_offset", 0)
    node.end_lineno = getattr(like, "end_lineno", node.lineno)
    node.end_col_offset = getattr(like, "end_col_offset", 0)
    return node


def name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def assign(target: str | ast.expr, value: ast.expr, like: ast.AST) -> ast.Assign:
    tgt = name(target, store=True) if isinstance(target, str) else target
    return located(ast.Assign(targets=[tgt], value=value), like)


def call(func: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=name(func), args=list(args), keywords=[])


class _Desugar:
    """Statement-level rewrites that need no knowledge of what follows a statement."""

    def __init__(self, parsed: Parsed, namer: Namer) -> None:
        self.parsed = parsed
        self.namer = namer
        self.nested: dict[str, ast.FunctionDef] = {}
        self.nesting = Nesting(parsed, namer, self.nested, _locals_of(parsed.tree))

    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            out.extend(self.statement(stmt))
        return out or [ast.Pass()]

    def statement(self, stmt: ast.stmt) -> list[ast.stmt]:
        method = getattr(self, f"_{type(stmt).__name__}", None)
        if method is None:
            return [stmt]
        return method(stmt)

    # -- statements ---------------------------------------------------------------------
    # -- nested functions are inlined where they are called ---------------------------------
    def _FunctionDef(self, stmt: ast.FunctionDef) -> list[ast.stmt]:
        if stmt.decorator_list:
            raise self.parsed.unsupported(
                stmt, "a decorated nested `def`",
                f"Define `{stmt.name}` at module level and decorate it there.")
        self.nested[stmt.name] = stmt
        return self._defaults_now(stmt)

    def _defaults_now(self, fdef: ast.FunctionDef) -> list[ast.stmt]:
        """Python computes a nested function's defaults when its ``def`` runs, not at each
        call (``def inner(y, s=a)`` keeps the ``a`` of that moment): a default that is not a
        constant is computed here, into a name of its own that the inlined calls read."""
        out: list[ast.stmt] = []
        args = fdef.args
        positional = [*args.posonlyargs, *args.args]
        with_defaults = positional[len(positional) - len(args.defaults):]
        for i, (param, default) in enumerate(zip(with_defaults, args.defaults, strict=True)):
            args.defaults[i] = self._default_now(fdef, param, default, out)
        for i, (param, default) in enumerate(zip(args.kwonlyargs, args.kw_defaults,
                                                 strict=True)):
            if default is not None:  # None: a keyword-only parameter without a default
                args.kw_defaults[i] = self._default_now(fdef, param, default, out)
        return out

    def _default_now(self, fdef: ast.FunctionDef, param: ast.arg, default: ast.expr,
                     out: list[ast.stmt]) -> ast.expr:
        if isinstance(default, ast.Constant):
            return default
        held = self.namer.fresh(f"{fdef.name}_{param.arg}_default")
        out.extend(self._Assign(assign(held, default, fdef)))
        return name(held)

    def _inline(self, call_node: ast.Call, result: ast.expr, like: ast.stmt) -> list[ast.stmt]:
        """``result = inner(args)`` as the statements of ``inner``'s body, its locals renamed
        ``inner_<name>`` so that they cannot clash with the caller's."""
        fdef = self.nested[call_node.func.id]
        args = fdef.args
        params = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
        local = set(params) | {n.id for n in walk(fdef) if isinstance(n, ast.Name)
                               and isinstance(n.ctx, ast.Store)}
        renames = {v: self.namer.fresh(f"{fdef.name}_{v}") for v in sorted(local)}
        bound = self._bind_nested(fdef, call_node, params)
        stmts: list[ast.stmt] = [assign(renames[p], bound[p], like) for p in params]
        body = clone(_drop_docstring(fdef.body))
        for node in walk(ast.Module(body=body, type_ignores=[])):
            if isinstance(node, ast.Name) and node.id in renames:
                node.id = renames[node.id]
        returns = _Returns(self.namer)
        body = returns.rewrite_function(body, result=result)
        return stmts + self.block(body)

    def _bind_nested(self, fdef: ast.FunctionDef, call_node: ast.Call, params: list[str]
                     ) -> dict[str, ast.expr]:
        """Each parameter's argument, as Python binds them: positional arguments to the
        positional parameters, keywords by name (keyword-only parameters too), then the
        defaults. A call Python would reject (a missing, unknown or doubly given argument)
        is refused."""
        args = fdef.args
        positional = [a.arg for a in [*args.posonlyargs, *args.args]]
        by_keyword = {a.arg for a in [*args.args, *args.kwonlyargs]}
        bound: dict[str, ast.expr] = dict(zip(positional, call_node.args, strict=False))
        wrong = len(call_node.args) > len(positional)
        for kw in call_node.keywords:
            wrong |= kw.arg not in by_keyword or kw.arg in bound
            bound[kw.arg] = kw.value
        defaults = list(zip(positional[len(positional) - len(args.defaults):], args.defaults,
                            strict=True))
        defaults += [(a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
                     if d is not None]
        for param, default in defaults:
            bound.setdefault(param, clone(default))
        if wrong or any(p not in bound for p in params):
            raise self.parsed.unsupported(
                call_node, f"this call of the nested function `{fdef.name}`",
                "Pass exactly the parameters it declares.")
        return bound

    def _Delete(self, stmt: ast.Delete) -> list[ast.stmt]:
        """``del x`` only frees memory (generated gradients release values this way): it
        changes no value, so differentiation drops it."""
        return []

    def _Expr(self, stmt: ast.Expr) -> list[ast.stmt]:
        if isinstance(stmt.value, ast.Constant):
            return []
        if isinstance(stmt.value, ast.Call) and self.nesting.static_value(
                stmt.value.func) is np.put_along_axis:
            return self._put_along_axis(stmt.value, stmt)
        before, value = self.hoist(stmt.value, stmt)
        stmt.value = value
        return [*before, stmt]

    def _put_along_axis(self, put: ast.Call, like: ast.stmt) -> list[ast.stmt]:
        """``np.put_along_axis(arr, indices, values, axis)`` is the write NumPy makes of it:
        ``index = along_axis_index(arr.shape, indices, axis)`` then ``arr[index] = values``,
        differentiated as any write into an array."""
        try:
            bound = inspect.signature(np.put_along_axis).bind(*put.args, **{
                k.arg: k.value for k in put.keywords})
        except TypeError:
            raise self.parsed.unsupported(
                put, "this call of `np.put_along_axis`",
                "Pass `arr`, `indices`, `values` and `axis`, without `*` or `**`.") from None
        arr = bound.arguments["arr"]
        if not isinstance(arr, ast.Name):
            raise self.parsed.unsupported(
                put, "`np.put_along_axis` into an expression",
                "Give the array a name first: `a = ...` then `np.put_along_axis(a, ...)`.")
        helper = self.nesting.bind(support.along_axis_index)
        index = self.namer.fresh("index")
        shape = ast.Attribute(value=name(arr.id), attr="shape", ctx=ast.Load())
        find = assign(index, ast.Call(func=name(helper), args=[
            shape, bound.arguments["indices"], bound.arguments["axis"]], keywords=[]), like)
        write = assign(ast.Subscript(value=name(arr.id), slice=name(index), ctx=ast.Store()),
                       bound.arguments["values"], like)
        return [*self._Assign(find), *self._Assign(write)]

    def _AnnAssign(self, stmt: ast.AnnAssign) -> list[ast.stmt]:
        if stmt.value is None:
            return []
        return self._Assign(assign(stmt.target, stmt.value, stmt))

    def _Assign(self, stmt: ast.Assign) -> list[ast.stmt]:
        if self.nesting.binds(stmt):  # df = sg.grad(f): calls of df call grad_f
            return []
        value = stmt.value
        if isinstance(value, ast.Call) and len(value.args) == 2 and not value.keywords and (
                self._is_builtin(value.func, support.add_into)):
            # generated code differentiated again: `g = add_into(g, c)` adds in place, as
            # `g += c` did; like it, it becomes `g = g + c` (the old `g` may be saved)
            stmt = located(ast.Assign(targets=stmt.targets, value=ast.BinOp(
                left=value.args[0], op=ast.Add(), right=value.args[1])), stmt)
        if isinstance(stmt.value, ast.Lambda) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], ast.Name):  # `square = lambda v: v * v`: a nested def
            return self._FunctionDef(lambda_as_def(stmt.value, stmt.targets[0].id))
        if isinstance(stmt.value, ast.Dict) and _keys_may_repeat(stmt.value) and len(
                stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            return self._dict_entry_by_entry(stmt)
        if self._calls_nested(stmt.value) and len(stmt.targets) == 1:
            before, value = self.hoist(stmt.value, stmt, top=True, keep_call=True)
            return [*before, *self._inline(value, stmt.targets[0], stmt)]
        before, value = self.hoist(stmt.value, stmt, top=True)
        first, *others = stmt.targets
        if isinstance(value, ast.IfExp):
            return [*before, *self._if_exp(first, value, stmt)] + [
                assign(t, clone(first), stmt) for t in others
            ]
        if others and not isinstance(first, ast.Name):
            # `a[0] = b[0] = v`: each target is given `v` itself (read back from `a[0]`, it
            # would be what `a` made of it: an int array's `a[0]` is `int(v)`)
            others = [first, *others]
            first = name(self.namer.fresh("assigned"), True)
        stmt.targets = [first]
        stmt.value = value
        writes = self._unpacking_into_names(stmt)
        nested = self._flatten_unpacking(stmt)
        return [*before, stmt, *nested, *writes] + [
            s for t in others for s in self._Assign(assign(t, _as_load(first), stmt))]

    def _unpacking_into_names(self, stmt: ast.Assign) -> list[ast.stmt]:
        """``a[0], a[1] = u, v`` -> ``item, item_1 = u, v`` then ``a[0] = item`` and
        ``a[1] = item_1``: an element or slice written by unpacking is written by a statement
        of its own (the passes rename an unpacking's targets as names). Every target of such
        an unpacking becomes a fresh name, written after it in Python's order, left to right,
        depth first (``i, a[i] = ...`` writes at the new ``i``)."""
        target = stmt.targets[0]
        if not isinstance(target, (ast.Tuple, ast.List)) or all(
                isinstance(t, (ast.Name, ast.Tuple, ast.List, ast.Starred))
                for t in walk(target) if isinstance(getattr(t, "ctx", None), ast.Store)):
            return []
        writes: list[ast.stmt] = []

        def through_names(node: ast.expr) -> ast.expr:
            if isinstance(node, (ast.Tuple, ast.List)):
                node.elts = [through_names(e) for e in node.elts]
                return node
            held = self.namer.fresh("item")
            writes.extend(self._Assign(assign(node, name(held), stmt)))
            return name(held, True)

        stmt.targets[0] = through_names(target)
        return writes

    def _dict_entry_by_entry(self, stmt: ast.Assign) -> list[ast.stmt]:
        """``d = {"a": u, k: v}`` where ``k`` may be ``"a"``: Python keeps the last value of
        a repeated key, which a derivative of the display would not (each value got the
        entry's cotangent). The keys and values are computed first (they may read the old
        ``d``), then written one by one into a new dict, a repeated key's write replacing
        what it held."""
        target = stmt.targets[0].id
        out: list[ast.stmt] = []
        entries = []
        for key, value in zip(stmt.value.keys, stmt.value.values, strict=True):
            parts = []
            for part, what in ((key, "key"), (value, "value")):
                if isinstance(part, ast.Constant):
                    parts.append(part)
                    continue
                held = self.namer.fresh(f"{target}_{what}")
                out.extend(self._Assign(assign(held, part, stmt)))
                parts.append(name(held))
            entries.append(parts)
        out.append(assign(target, ast.Dict(keys=[], values=[]), stmt))
        for key, value in entries:
            entry = ast.Subscript(value=name(target), slice=key, ctx=ast.Store())
            out.extend(self._Assign(assign(entry, value, stmt)))
        return out

    def _flatten_unpacking(self, stmt: ast.Assign) -> list[ast.stmt]:
        """``(a, b), c = v`` -> ``parts, c = v`` then ``a, b = parts``: one level of
        unpacking per statement."""
        target = stmt.targets[0]
        if not isinstance(target, (ast.Tuple, ast.List)):
            return []
        after: list[ast.stmt] = []
        for i, elt in enumerate(target.elts):
            if isinstance(elt, (ast.Tuple, ast.List)):
                part = self.namer.fresh("parts")
                target.elts[i] = name(part, True)
                inner = assign(elt, name(part), stmt)
                after.extend([inner, *self._flatten_unpacking(inner)])
        return after

    def _AugAssign(self, stmt: ast.AugAssign) -> list[ast.stmt]:
        target = stmt.target
        load = _as_load(target)
        if isinstance(target, ast.Subscript) and isinstance(stmt.op, (ast.Add, ast.Sub)):
            before, value = self.hoist(stmt.value, stmt)
            stmt.value = value
            return [*before, stmt]
        update = assign(target, ast.BinOp(left=load, op=stmt.op, right=stmt.value), stmt)
        # on an array, `c += x` updates in place what every alias of `c` shows; written as
        # `c = c + x` it no longer does, so the transformers refuse it where an alias of `c`
        # matters (the read `load`, renamed by ssa, names the array written)
        update.in_place_of = load
        return self._Assign(update)

    def _Return(self, stmt: ast.Return) -> list[ast.stmt]:
        if stmt.value is None:
            return [stmt]
        before, value = self.hoist(stmt.value, stmt, top=True)
        if isinstance(value, ast.IfExp):
            temp = self.namer.fresh("result")
            return [*before, *self._if_exp(name(temp, True), value, stmt),
                    located(ast.Return(value=name(temp)), stmt)]
        stmt.value = value
        return [*before, stmt]

    def _If(self, stmt: ast.If) -> list[ast.stmt]:
        stmt.body = self.block(stmt.body)
        stmt.orelse = self.block(stmt.orelse) if stmt.orelse else []
        return [stmt]

    def _While(self, stmt: ast.While) -> list[ast.stmt]:
        stmt.body = self.block(stmt.body)
        return [stmt]

    def _For(self, stmt: ast.For) -> list[ast.stmt]:
        before, loop = self._range_loop(stmt)
        loop.body = self.block(loop.body)
        return [*before, loop]

    # -- for loops over anything become index loops over range(...) ----------------------
    def _range_loop(self, stmt: ast.For) -> tuple[list[ast.stmt], ast.For]:
        it = stmt.iter
        if _is_reversed_range(it):  # generated backward sweeps, differentiated again
            return [], stmt
        if _is_call_to(it, "range"):
            if not isinstance(stmt.target, ast.Name):
                raise self.parsed.unsupported(
                    stmt.target, "unpacking the index of a `range` loop",
                    "Use a single loop variable.",
                )
            if _stored_in(stmt.body, stmt.target.id):
                # `for i in range(n): i = i * 2`: the next step still takes the range's
                # next value; the loop counts with a name the body leaves alone
                counter = self.namer.fresh(stmt.target.id)
                stmt.body = [assign(stmt.target.id, name(counter), stmt), *stmt.body]
                stmt.target = name(counter, True)
            return [], stmt
        if _is_call_to(it, "enumerate"):
            if it.keywords or len(it.args) != 1 or not (
                isinstance(stmt.target, ast.Tuple) and len(stmt.target.elts) == 2
            ):
                raise self.parsed.unsupported(
                    stmt, "this form of `enumerate`",
                    "Use `for i, x in enumerate(xs):` or an index loop `for i in range(len(xs)):`.",
                )
            index, element = stmt.target.elts
            if not isinstance(index, ast.Name) or _stored_in(stmt.body, index.id):
                index_name = self.namer.fresh("i")
                pre = [assign(index, name(index_name), stmt)]
            else:
                index_name, pre = index.id, []
            if _is_call_to(it.args[0], "zip"):  # for i, (a, b) in enumerate(zip(xs, ys))
                before, reads = self._zipped(it.args[0], element, stmt)
                return before, self._indexed(stmt, index_name, reads, pre)
            before, seq = self._sequence(it.args[0], stmt)
            return before, self._indexed(stmt, index_name, [(element, seq)], pre)
        if _is_call_to(it, "zip"):
            before, reads = self._zipped(it, stmt.target, stmt)
            return before, self._indexed(stmt, self.namer.fresh("i"), reads, [])
        before, seq = self._sequence(it, stmt, stmt)
        index_name = self.namer.fresh("i")
        return before, self._indexed(stmt, index_name, [(stmt.target, seq)], [])

    def _zipped(self, zipped: ast.Call, target: ast.expr, like: ast.stmt
                ) -> tuple[list[ast.stmt], list[tuple[ast.expr, _Sequence]]]:
        """The sequences of ``zip(xs, ys)``, each paired with the loop variable it feeds."""
        targets = target.elts if isinstance(target, (ast.Tuple, ast.List)) else None
        if targets is None or len(targets) != len(zipped.args):
            raise self.parsed.unsupported(
                like, "this form of `zip`",
                "Unpack one loop variable per zipped sequence: `for a, b in zip(xs, ys):`.",
            )
        before: list[ast.stmt] = []
        seqs = []
        for arg in zipped.args:
            pre, seq = self._sequence(arg, like)
            before.extend(pre)
            seqs.append(seq)
        return before, list(zip(targets, seqs, strict=True))

    def _sequence(self, expr: ast.expr, like: ast.stmt, loop: ast.For | None = None
                  ) -> tuple[list[ast.stmt], _Sequence]:
        """What a loop iterates over, as a sequence to index: a list or array, or the keys of
        a dict whose values the loop reads (``.items()``, ``.values()``; ``for k in d``
        indexing ``d[k]``)."""
        if isinstance(expr, ast.Name) and not _stored_in([like], expr.id):
            if loop is not None and _indexes_by_target(loop, expr.id):
                return self._keys(expr, "keys", like)
            return [], _Sequence(expr)
        # otherwise (`for x in x:`, `for v in xs: xs = ...`) the loop keeps iterating over
        # what the name held when it began, as Python does: a name of its own holds it
        source = _dict_view(expr)
        if source is not None:
            mapping, view = source
            if view != "keys" and _stored_in([like], mapping.id):
                # `for k, v in d.items(): d = ...`: the values are those of the dict the
                # loop began with
                held = self.namer.fresh(f"{mapping.id}_iterated")
                before, seq = self._keys(name(held), view, like)
                return [assign(held, mapping, like), *before], seq
            return self._keys(mapping, view, like)
        if isinstance(expr, ast.Call) and _is_call_to(expr, "sorted", "reversed") and (
                expr.args and (view := _dict_view(expr.args[0])) is not None
                and view[1] == "items" and not getattr(expr, "keys_taken", False)):
            expr.keys_taken = True
            # for k, v in sorted(d.items(), ...): the keys in that order, then d[k]
            item = self.namer.fresh("item")
            keys = self.namer.fresh(f"{view[0].id}_keys")
            pick = ast.ListComp(
                elt=ast.Subscript(value=name(item), slice=ast.Constant(0), ctx=ast.Load()),
                generators=[ast.comprehension(target=name(item, True), iter=expr, ifs=[],
                                              is_async=0)])
            return self._Assign(assign(keys, pick, like)), _Sequence(name(keys), view[0],
                                                                     "items")
        temp = self.namer.temp_for(expr)
        stmts = self._Assign(assign(temp, expr, like))
        return stmts, _Sequence(name(temp))

    def _keys(self, mapping: ast.Name, view: str, like: ast.stmt
              ) -> tuple[list[ast.stmt], _Sequence]:
        keys = self.namer.fresh(f"{mapping.id}_keys")
        return [assign(keys, _keys_call(mapping), like)], _Sequence(name(keys), mapping, view)

    def _indexed(self, stmt: ast.For, index: str, reads: list[tuple[ast.expr, _Sequence]],
                 pre: list[ast.stmt]) -> ast.For:
        lengths = [call("len", name(seq.name.id)) for _, seq in reads]
        stop = lengths[0] if len(lengths) == 1 else call("min", *lengths)
        body = [*pre]
        for target, seq in reads:
            element = ast.Subscript(value=name(seq.name.id), slice=name(index), ctx=ast.Load())
            body.extend(self._element(target, element, seq, stmt))
        loop = ast.For(target=name(index, True), iter=call("range", stop), body=body + stmt.body,
                       orelse=[], type_comment=None)
        return located(loop, stmt)

    def _element(self, target: ast.expr, element: ast.expr, seq: _Sequence, like: ast.stmt
                 ) -> list[ast.stmt]:
        """``x = xs[i]``; ``v = d[keys[i]]`` for ``.values()``; ``k = keys[i]; v = d[k]`` for
        ``.items()``."""
        if seq.view == "keys" or seq.mapping is None:
            return [assign(_as_store(target), element, like)]
        if seq.view == "items":
            if not (isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == 2):
                raise self.parsed.unsupported(
                    like, "iterating over `.items()` into one name",
                    "Unpack each item: `for key, value in d.items():`.")
            key, value = target.elts
        else:
            key, value = name(self.namer.fresh("key"), True), target
        key_name = key.id if isinstance(key, ast.Name) else self.namer.fresh("key")
        out = [assign(key_name, element, like)]
        if not isinstance(key, ast.Name):
            out.append(assign(_as_store(key), name(key_name), like))
        read = ast.Subscript(value=name(seq.mapping.id), slice=name(key_name), ctx=ast.Load())
        out.append(assign(_as_store(value), read, like))
        return out

    # -- expressions: comprehensions and conditional expressions leave the expression -----
    def _calls_nested(self, expr: ast.expr) -> bool:
        return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and (
            expr.func.id in self.nested)

    def hoist(self, expr: ast.expr, like: ast.stmt, top: bool = False, keep_call: bool = False
              ) -> tuple[list[ast.stmt], ast.expr]:
        """Move list comprehensions, nested ``a if c else b`` and calls of nested functions
        out into statements."""
        before: list[ast.stmt] = []

        def visit_item(item: ast.AST) -> ast.AST:
            if isinstance(item, ast.keyword):  # `f(a=...)`: its value is an expression too
                item.value = visit(item.value, False)
                return item
            return visit(item, False) if isinstance(item, ast.expr) else item

        def visit(node: ast.expr, is_top: bool) -> ast.expr:
            node = self._structure_expression(node)
            if isinstance(node, ast.Call):
                node = self.nesting.rewrite(node) or node
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Call):
                    raise self.parsed.unsupported(
                        node, "calling the result of an expression",
                        "Define the function with `def` and call it by name.")
            if isinstance(node, ast.DictComp):
                temp = self.namer.fresh("entries")
                before.extend(self._dict_comp(temp, node, like))
                return name(temp)
            if self._calls_nested(node) and not (is_top and keep_call):
                node.args = [visit(a, False) for a in node.args]
                node.keywords = [visit_item(k) for k in node.keywords]
                temp = self.namer.fresh(f"{node.func.id}_result")
                before.extend(self._inline(node, name(temp, True), like))
                return name(temp)
            if isinstance(node, ast.ListComp):
                temp = self.namer.fresh("items")
                before.extend(self._list_comp(temp, node, like))
                return name(temp)
            if isinstance(node, ast.IfExp):
                # only the test runs first: what each branch needs moves out inside the
                # branch (`_if_exp`), so that it runs only when NumPy's would
                node.test = visit(node.test, False)
                if is_top:
                    return node
                temp = self.namer.temp_for(node)
                before.extend(self._if_exp(name(temp, True), node, like))
                return name(temp)
            for field, value in ast.iter_fields(node):
                if isinstance(value, ast.expr):
                    setattr(node, field, visit(value, False))
                elif isinstance(value, list):
                    setattr(node, field, [visit_item(v) for v in value])
            return node

        result = visit(expr, top)
        visit = None  # type: ignore[assignment]  # (it and visit_item refer to each other:
        # a cycle holding what they saw, which only the cyclic collector would free)
        return before, result

    def _structure_expression(self, node: ast.expr) -> ast.expr:
        """Spellings of building and reading dicts, as the displays, comprehensions and
        conditional expressions they mean: ``d.get(k, v)`` is ``d[k] if k in d else v``;
        ``dict(a=x)`` is ``{'a': x}``; ``d.values()`` is ``[d[key] for key in d.keys()]``; a
        generator handed to a call is a list comprehension."""
        if not isinstance(node, ast.Call):
            return node
        node.args = [ast.ListComp(elt=a.elt, generators=a.generators)
                     if isinstance(a, ast.GeneratorExp) else a for a in node.args]
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner = func.value
            if func.attr == "get" and 1 <= len(node.args) <= 2 and not node.keywords and (
                    isinstance(node.args[0], (ast.Name, ast.Constant))):
                key = node.args[0]
                default = node.args[1] if len(node.args) == 2 else ast.Constant(None)
                test = ast.Compare(left=clone(key), ops=[ast.In()],
                                   comparators=[name(owner.id)])
                read = ast.Subscript(value=name(owner.id), slice=clone(key),
                                     ctx=ast.Load())
                return ast.IfExp(test=test, body=read, orelse=default)
            if func.attr in ("values", "items") and not node.args and not node.keywords:
                key = self.namer.fresh("key")
                read = ast.Subscript(value=name(owner.id), slice=name(key), ctx=ast.Load())
                elt = read if func.attr == "values" else ast.Tuple(elts=[name(key), read],
                                                                    ctx=ast.Load())
                return ast.ListComp(elt=elt, generators=[ast.comprehension(
                    target=name(key, True), iter=_keys_call(owner), ifs=[], is_async=0)])
        if self._is_builtin(node.func, dict) and len(node.args) <= 1 and all(
                k.arg is not None for k in node.keywords):
            return self._dict_call(node)
        return node

    def _is_builtin(self, func: ast.expr, builtin: object) -> bool:
        """``func`` names ``builtin`` (``dict``, or ``ag_dict`` bound to it)."""
        return isinstance(func, ast.Name) and func.id not in self.nesting.outer_locals and (
            self.parsed.lookup(func.id) is builtin)

    def _dict_call(self, node: ast.Call) -> ast.expr:
        """``dict(...)`` as a dict display (its entries known) or a dict comprehension."""
        keys: list[ast.expr | None] = []
        values: list[ast.expr] = []
        extra = [(ast.Constant(k.arg), k.value) for k in node.keywords]
        if not node.args:
            pass
        elif isinstance(node.args[0], ast.Dict):
            keys, values = list(node.args[0].keys), list(node.args[0].values)
        elif isinstance(node.args[0], (ast.List, ast.Tuple)) and all(
                isinstance(e, (ast.Tuple, ast.List)) and len(e.elts) == 2
                for e in node.args[0].elts):
            keys = [e.elts[0] for e in node.args[0].elts]
            values = [e.elts[1] for e in node.args[0].elts]
        else:
            source = node.args[0]
            key, value = self.namer.fresh("key"), self.namer.fresh("value")
            if isinstance(source, ast.Name):  # a copy of a mapping
                pairs = ast.Call(func=ast.Attribute(value=source, attr="items",
                                                    ctx=ast.Load()), args=[], keywords=[])
            else:  # pairs: zip(keys, values), a comprehension...
                pairs = source
            target = ast.Tuple(elts=[name(key, True), name(value, True)], ctx=ast.Store())
            comp = ast.DictComp(key=name(key), value=name(value), generators=[
                ast.comprehension(target=target, iter=pairs, ifs=[], is_async=0)])
            if not extra:
                return comp
            comp.extra = extra  # keywords after the pairs: set once the loop is done
            return comp
        return ast.Dict(keys=keys + [k for k, _ in extra], values=values + [v for _, v in extra])

    def _dict_comp(self, temp: str, comp: ast.DictComp, like: ast.stmt) -> list[ast.stmt]:
        """``{k: v for ...}``: a loop filling ``entries`` by key."""
        def store(key: ast.expr, value: ast.expr) -> ast.stmt:
            target = ast.Subscript(value=name(temp), slice=key, ctx=ast.Store())
            return located(ast.Assign(targets=[target], value=value), like)

        body: list[ast.stmt] = [store(comp.key, comp.value)]
        for gen in reversed(comp.generators):
            for cond in reversed(gen.ifs):
                body = [located(ast.If(test=cond, body=body, orelse=[]), like)]
            body = [located(ast.For(target=gen.target, iter=gen.iter, body=body, orelse=[],
                                    type_comment=None), like)]
        after = [store(k, v) for k, v in getattr(comp, "extra", [])]
        init = assign(temp, ast.Dict(keys=[], values=[]), like)
        return [init, *self.block(body + after)]

    def _if_exp(self, target: ast.expr, node: ast.IfExp, like: ast.stmt) -> list[ast.stmt]:
        branch = ast.If(test=node.test, body=self._Assign(assign(target, node.body, like)),
                        orelse=self._Assign(assign(clone(target), node.orelse, like)))
        return [located(branch, like)]

    def _list_comp(self, temp: str, comp: ast.ListComp, like: ast.stmt) -> list[ast.stmt]:
        append = ast.Expr(value=ast.Call(
            func=ast.Attribute(value=name(temp), attr="append", ctx=ast.Load()),
            args=[comp.elt], keywords=[]))
        body: list[ast.stmt] = [located(append, like)]
        for gen in reversed(comp.generators):
            for cond in reversed(gen.ifs):
                body = [located(ast.If(test=cond, body=body, orelse=[]), like)]
            body = [located(ast.For(target=gen.target, iter=gen.iter, body=body, orelse=[],
                                    type_comment=None), like)]
        init = assign(temp, ast.List(elts=[], ctx=ast.Load()), like)
        return [init, *self.block(body)]


# -- single exit --------------------------------------------------------------------------
class _Returns:
    """Early returns become assignments to ``result``; the function ends with one return."""

    def __init__(self, namer: Namer) -> None:
        self.namer = namer
        self.result = ""
        self.flag = ""
        self.ends_function = False  # ``result = v`` is followed by the function's return

    def rewrite_function(self, body: list[ast.stmt], result: ast.expr | None = None
                         ) -> list[ast.stmt]:
        """Single exit; with ``result`` (an inlined call), no return at all: the returned
        value is assigned to ``result``."""
        returns = [n for s in body for n in statements(s, into_functions=False)
                   if isinstance(n, ast.Return)]
        if result is not None:
            return self._assign_result(body, result, returns)
        if len(returns) <= 1 and isinstance(body[-1], ast.Return):
            return body
        self.result = self.namer.fresh("result")
        self.flag = self.namer.fresh("returned") if _returns_inside_loops(body) else ""
        self.ends_function = True
        new_body, always = self.block(body, in_loop=False)
        final = located(ast.Return(value=name(self.result)), returns[-1] if returns else body[-1])
        return self._prologue(body, always) + new_body + [final]

    def _prologue(self, body: list[ast.stmt], always_returns: bool) -> list[ast.stmt]:
        """The flag's first value, and ``result = None`` where a path may end without a
        return (Python returns None there, which ``sg.grad`` must see to refuse it)."""
        prologue = [assign(self.flag, ast.Constant(False), body[0])] if self.flag else []
        if not always_returns:
            prologue.append(assign(self.result, ast.Constant(None), body[0]))
        return prologue

    def _assign_result(self, body: list[ast.stmt], result: ast.expr,
                       returns: list[ast.Return]) -> list[ast.stmt]:
        if len(returns) == 1 and isinstance(body[-1], ast.Return):
            last = body[-1]
            value = last.value if last.value is not None else ast.Constant(None)
            return body[:-1] + [assign(_as_store(result), value, last)]
        self.result = self.namer.fresh("result")
        self.flag = self.namer.fresh("returned") if _returns_inside_loops(body) else ""
        new_body, always = self.block(body, in_loop=False)
        return self._prologue(body, always) + new_body + [
            assign(_as_store(result), name(self.result), body[-1])]

    def block(self, stmts: list[ast.stmt], in_loop: bool) -> tuple[list[ast.stmt], bool]:
        """Rewrite ``stmts``; also say whether control always leaves through a return."""
        out: list[ast.stmt] = []
        for i, stmt in enumerate(stmts):
            rest = stmts[i + 1:]
            if isinstance(stmt, ast.Return):
                out.extend(self._return(stmt, in_loop))
                return out, True
            if not _has_return(stmt):
                out.append(stmt)
                continue
            if isinstance(stmt, ast.If):
                if in_loop:
                    stmt.body, body_returns = self.block(stmt.body, in_loop)
                    stmt.orelse, else_returns = self.block(stmt.orelse, in_loop)
                    out.append(stmt)
                    if body_returns and else_returns:
                        return out, True
                    continue
                # what followed the `if` runs on the paths that did not return
                body, body_returns = self.block(stmt.body + clone(rest), in_loop)
                orelse, else_returns = self.block(stmt.orelse + rest, in_loop)
                stmt.body, stmt.orelse = body or [ast.Pass()], orelse
                out.append(stmt)
                return out, body_returns and else_returns
            # a loop that returns from inside: it breaks out with the flag set
            stmt.body, _ = self.block(stmt.body, in_loop=True)
            out.append(stmt)
            if rest:
                tail, tail_returns = self.block(rest, in_loop)
                guard_test = name(self.flag)
                # the guard stands for the code it guards: give it that code's line
                if in_loop:
                    out.append(located(ast.If(test=guard_test, body=[ast.Break()], orelse=tail),
                                       rest[0]))
                else:
                    out.append(located(ast.If(test=ast.UnaryOp(op=ast.Not(), operand=guard_test),
                                              body=tail, orelse=[]), rest[0]))
                # every path returns if the tail does: the loop's own returns set the flag
                return out, tail_returns
            if in_loop:
                out.append(located(ast.If(test=name(self.flag), body=[ast.Break()], orelse=[]),
                                   stmt))
            return out, False
        return out, False

    def _return(self, stmt: ast.Return, in_loop: bool) -> list[ast.stmt]:
        value = stmt.value if stmt.value is not None else ast.Constant(None)
        stmts: list[ast.stmt] = [assign(self.result, value, stmt)]
        stmts[0].returns = self.ends_function  # not an alias that lives on (``sharing``)
        if in_loop:
            stmts.append(assign(self.flag, ast.Constant(True), stmt))
            stmts.append(located(ast.Break(), stmt))
        return stmts


def _has_return(stmt: ast.stmt) -> bool:
    return any(isinstance(n, ast.Return) for n in statements(stmt, into_functions=False))


def _returns_inside_loops(body: list[ast.stmt]) -> bool:
    for stmt in body:
        for node in statements(stmt, into_functions=False):
            if isinstance(node, (ast.For, ast.While)) and _has_return(node):
                return True
    return False


# -- break / continue end their branch ----------------------------------------------------
def _structure_loops(stmts: list[ast.stmt]) -> list[ast.stmt]:
    for stmt in stmts:
        if isinstance(stmt, (ast.For, ast.While)):
            stmt.body = _structure_body(_structure_loops(stmt.body)) or [ast.Pass()]
        elif isinstance(stmt, ast.If):
            stmt.body = _structure_loops(stmt.body)
            stmt.orelse = _structure_loops(stmt.orelse)
    return stmts


def _structure_body(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """Push the statements after a conditional jump into the branches that fall through."""
    out: list[ast.stmt] = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, ast.Continue):
            return out
        if isinstance(stmt, ast.Break):
            out.append(stmt)
            return out
        if isinstance(stmt, ast.If) and _may_jump(stmt):
            rest = stmts[i + 1:]
            stmt.body = _structure_body(stmt.body if _always_jumps(stmt.body)
                                        else stmt.body + clone(rest)) or [ast.Pass()]
            stmt.orelse = _structure_body(stmt.orelse if _always_jumps(stmt.orelse)
                                          else stmt.orelse + rest)
            out.append(stmt)
            return out
        out.append(stmt)
    return out


def _may_jump(stmt: ast.stmt) -> bool:
    if isinstance(stmt, (ast.Break, ast.Continue)):
        return True
    if isinstance(stmt, ast.If):
        return any(_may_jump(s) for s in stmt.body + stmt.orelse)
    return False


def _always_jumps(stmts: list[ast.stmt]) -> bool:
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Break, ast.Continue)):
        return True
    if isinstance(last, ast.If):
        return _always_jumps(last.body) and _always_jumps(last.orelse)
    return any(isinstance(s, (ast.Break, ast.Continue)) for s in stmts)


def _is_call_to(expr: ast.expr, *fnames: str) -> bool:
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and (
        expr.func.id in fnames
    )


def _keys_may_repeat(display: ast.Dict) -> bool:
    """May two of the display's keys be equal: a key repeated, or a computed key beside
    another (``**`` unpacking is left alone: its keys are unknown here)."""
    if len(display.keys) < 2 or any(k is None for k in display.keys):
        return False
    constants = [k.value for k in display.keys if isinstance(k, ast.Constant)]
    return len(constants) < len(display.keys) or len(set(constants)) < len(constants)


def _stored_in(body: list[ast.stmt], var: str) -> bool:
    """Is ``var`` assigned anywhere in ``body`` (a loop's target included)?"""
    return any(isinstance(n, ast.Name) and n.id == var and isinstance(n.ctx, ast.Store)
               for stmt in body for n in walk(stmt))


def _locals_of(fdef: ast.FunctionDef) -> set[str]:
    """The parameters and every name the function assigns (nested functions' included)."""
    found = set(parameters_of(fdef.args))
    for node in walk(fdef):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, ast.FunctionDef) and node is not fdef:
            found.add(node.name)
    return found


def _keys_call(mapping: ast.Name) -> ast.Call:
    """``list(d.keys())``: the keys as a list, which a loop indexes."""
    return call("list", ast.Call(func=ast.Attribute(value=name(mapping.id), attr="keys",
                                                    ctx=ast.Load()), args=[], keywords=[]))


@dataclass
class _Sequence:
    """What a loop indexes: ``name``, the keys of ``mapping`` when it iterates over a dict's
    ``.items()`` or ``.values()`` (``view``)."""

    name: ast.Name
    mapping: ast.Name | None = None
    view: str = "keys"


def _dict_view(expr: ast.expr) -> tuple[ast.Name, str] | None:
    """``(d, "items")`` for ``d.items()``, and the same for ``.values()``/``.keys()``."""
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and (
            expr.func.attr in ("items", "values", "keys") and not expr.args
            and isinstance(expr.func.value, ast.Name)):
        return expr.func.value, expr.func.attr
    return None


def _indexes_by_target(loop: ast.For, container: str) -> bool:
    """``for k in d: ... d[k]``: a dict iterated over its keys, not a sequence."""
    if not isinstance(loop.target, ast.Name):
        return False
    key = loop.target.id
    return any(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
               and n.value.id == container and isinstance(n.slice, ast.Name)
               and n.slice.id == key for s in loop.body for n in walk(s))


def _is_reversed_range(expr: ast.expr) -> bool:
    return _is_call_to(expr, "reversed") and len(expr.args) == 1 and _is_call_to(
        expr.args[0], "range")


def _as_load(target: ast.expr) -> ast.expr:
    node = clone(target)
    for sub in walk(node):
        if hasattr(sub, "ctx"):
            sub.ctx = ast.Load()
    return node


def _as_store(target: ast.expr) -> ast.expr:
    node = clone(target)
    if hasattr(node, "ctx"):
        node.ctx = ast.Store()
    if isinstance(node, ast.Tuple):
        node.elts = [_as_store(e) for e in node.elts]
    return node
