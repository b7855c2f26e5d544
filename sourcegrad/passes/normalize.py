"""Normal form: one differentiable operation per statement.

Invariant after this pass: the value of every statement that defines an active variable is a
single operation whose operands are *atoms*: names, constants, or small expressions of
inactive names and constants without calls (``n - 1``, ``(0, 2)``, ``i + 1``), which the
backward pass may evaluate again. Nested operations move into temporaries named after what
they compute (``tanh_z``, ``x_at_w``). Statements about inactive values are left exactly as
the user wrote them.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from ..codegen.names import Namer
from ..codegen.walk import walk
from .activity import diff_reads, is_append, stored_base, target_names, writes_in_place
from .desugar import assign


class Normalizer:
    def __init__(self, namer: Namer, resolver, is_active: Callable[[str], bool],
                 is_module: Callable[[ast.expr], bool]) -> None:
        self.namer = namer
        self.resolver = resolver
        self.base_is_active = is_active
        self.is_module = is_module
        self.new_active: set[str] = set()
        self.temporaries: set[str] = set()  # names this pass introduced
        self._active_seen: dict[int, tuple[ast.expr, bool]] = {}  # see ``_has_active``

    def is_active(self, var: str) -> bool:
        return var in self.new_active or self.base_is_active(var)

    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            out.extend(self.statement(stmt))
        return out

    def statement(self, stmt: ast.stmt) -> list[ast.stmt]:
        if isinstance(stmt, (ast.If, ast.While)):
            stmt.body = self.block(stmt.body)
            stmt.orelse = self.block(stmt.orelse)
            return [stmt]
        if isinstance(stmt, ast.For):
            stmt.body = self.block(stmt.body)
            return [stmt]
        if not self._involves_active(stmt):
            return [stmt]
        before: list[ast.stmt] = []
        if isinstance(stmt, ast.Assign):
            target = stmt.targets[0]
            stmt.value = self.operation(stmt.value, before, stmt)
            if isinstance(target, ast.Tuple) and not isinstance(stmt.value, ast.Name):
                stmt.value = self.atom(stmt.value, before, stmt, force=True)
            if isinstance(target, ast.Name) and _reads_name(stmt.value, target.id):
                # ``x = x * 2``: the adjoint needs the old ``x`` while it assigns ``grad_x``
                stmt.value = self.atom(stmt.value, before, stmt, force=True)
            if isinstance(target, ast.Subscript):
                stmt.value = self.atom(stmt.value, before, stmt)
                target.slice = self.index(target.slice, before, stmt)
        elif isinstance(stmt, ast.AugAssign):
            stmt.value = self.atom(stmt.value, before, stmt)
            stmt.target.slice = self.index(stmt.target.slice, before, stmt)
        elif isinstance(stmt, ast.Expr) and is_append(stmt):
            stmt.value.args = [self.atom(stmt.value.args[0], before, stmt)]
        elif isinstance(stmt, ast.Expr) and writes_in_place(stmt.value):
            # np.add.at(a, index, b), put_back(c, key, old): the value written is one the
            # derivative code names
            stmt.value.args[2] = self.atom(stmt.value.args[2], before, stmt)
        elif isinstance(stmt, ast.Return) and stmt.value is not None:
            value = stmt.value
            if isinstance(value, ast.Tuple):
                value.elts = [self.atom(e, before, stmt) for e in value.elts]
            else:
                stmt.value = self.atom(value, before, stmt)
        return [*before, stmt]

    def _involves_active(self, stmt: ast.stmt) -> bool:
        """Does ``stmt`` define an active value (or return one)?"""
        if isinstance(stmt, ast.Return):
            return stmt.value is not None and self._has_active(stmt.value)
        if isinstance(stmt, ast.Assign):
            return any(self.is_active(n) for t in stmt.targets for n in target_names(t))
        if isinstance(stmt, ast.AugAssign):
            return self.is_active(stored_base(stmt.target))
        if is_append(stmt):
            return self.is_active(stmt.value.func.value.id)
        if isinstance(stmt, ast.Expr) and writes_in_place(stmt.value):
            return self.is_active(stored_base(stmt.value.args[0]))
        return False

    # -- expressions ------------------------------------------------------------------------
    def operation(self, expr: ast.expr, before: list[ast.stmt], like: ast.stmt) -> ast.expr:
        """Make ``expr`` a single operation over atoms, hoisting what is nested."""
        if not self._has_active(expr):
            return expr
        if isinstance(expr, ast.BinOp):
            expr.left = self.atom(expr.left, before, like)
            expr.right = self.atom(expr.right, before, like)
        elif isinstance(expr, ast.UnaryOp):
            expr.operand = self.atom(expr.operand, before, like)
        elif isinstance(expr, ast.Call):
            if isinstance(expr.func, ast.Attribute) and not self.is_module(expr.func.value):
                expr.func.value = self.atom(expr.func.value, before, like)
            expr.args = [self.atom(a, before, like) for a in expr.args]
            for kw in expr.keywords:
                kw.value = self.atom(kw.value, before, like)
        elif isinstance(expr, ast.Subscript):
            expr.value = self.atom(expr.value, before, like)
            expr.slice = self.index(expr.slice, before, like)
        elif isinstance(expr, ast.Attribute):
            expr.value = self.atom(expr.value, before, like)
        elif isinstance(expr, (ast.Tuple, ast.List)):
            expr.elts = [self.atom(e, before, like) for e in expr.elts]
        elif isinstance(expr, ast.Dict):
            expr.values = [self.atom(v, before, like) for v in expr.values]
        return expr

    def atom(self, expr: ast.expr, before: list[ast.stmt], like: ast.stmt,
             force: bool = False) -> ast.expr:
        if not force and self.is_atom(expr) or isinstance(expr, ast.Name):
            return expr
        if not force and isinstance(expr, (ast.Tuple, ast.List)) and not self._has_active(expr):
            if all(self.is_atom(e) for e in expr.elts):
                return expr
        temp = self.namer.temp_for(expr)
        self.temporaries.add(temp)
        active = self._has_active(expr)
        value = self.operation(expr, before, like)
        before.append(assign(temp, value, like))
        if active:
            self.new_active.add(temp)
        return ast.Name(id=temp, ctx=ast.Load())

    def index(self, index: ast.expr, before: list[ast.stmt], like: ast.stmt) -> ast.expr:
        """Indices are never differentiated; keep them readable unless they call something,
        or read a differentiated value: the mask of ``a[a > 0.5] = v`` is the one before the
        write, also when the backward sweep reads it again."""
        if not isinstance(index, (ast.Name, ast.Constant, ast.Tuple, ast.Slice)) and any(
                isinstance(n, ast.Name) and self.is_active(n.id) for n in walk(index)):
            return self.atom(index, before, like, force=True)
        if self.is_atom(index) or isinstance(index, ast.Slice) and all(
            part is None or self.is_atom(part) for part in (index.lower, index.upper, index.step)
        ):
            return index
        if isinstance(index, ast.Tuple):
            index.elts = [self.index(e, before, like) for e in index.elts]
            return index
        if isinstance(index, ast.Slice):  # x[:len(x) - 1]: the bound moves, the slice stays
            for part in ("lower", "upper", "step"):
                bound = getattr(index, part)
                if bound is not None and not self.is_atom(bound):
                    setattr(index, part, self.atom(bound, before, like))
            return index
        return self.atom(index, before, like)

    def is_atom(self, expr: ast.expr) -> bool:
        """A name, a constant, or a call-free expression of inactive names and constants."""
        if isinstance(expr, (ast.Name, ast.Constant)):
            return True
        if self._has_active(expr):
            return False
        for node in walk(expr):
            if isinstance(node, (ast.Call, ast.ListComp, ast.Lambda, ast.IfExp)):
                return False
            if isinstance(node, ast.Subscript) and not isinstance(node.value, ast.Name):
                return False
        return True

    def _has_active(self, expr: ast.expr) -> bool:
        """Asked of each expression again at every level of nesting, so remembered: moving
        an operand into a temporary keeps the answer (an active operand's temporary is
        active, an inactive one's is not)."""
        seen = self._active_seen.get(id(expr))
        if seen is None or seen[0] is not expr:
            answer = any(self.is_active(n) for n in diff_reads(expr, self.resolver))
            seen = self._active_seen[id(expr)] = (expr, answer)
        return seen[1]


def _reads_name(expr: ast.expr, var: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == var for n in walk(expr))
