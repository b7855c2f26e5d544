"""Every name the generated code introduces, derived from the user's names.

The scheme, so that a reader can predict it:

- the adjoint of ``x`` is ``grad_x``, its tangent ``tangent_x``;
- a temporary holding part of an expression is named after what it computes:
  ``np.tanh(z)`` -> ``tanh_z``, ``x @ w`` -> ``x_at_w``, ``a * b`` -> ``a_times_b``,
  ``h[t]`` -> ``h_t``; names longer than ``MAX_LENGTH`` keep their first words;
- a value saved across loop iterations lives in ``<name>_stack``;
- a collision with any name already in use gets the smallest free suffix ``_2``, ``_3``...

Names depend only on the function's text, never on ids or hashes, so the same function
always gives byte-identical generated code.

The generated code also uses names of its own: the helpers of ``rules/support.py``, ``np``,
``math``, Python's builtins, ``_``. Where the user's function gives one of them another
meaning (a parameter ``np``, a local ``shape_only``, a global function ``unbroadcast``), the
user's name wins and sourcegrad's thing is spelled otherwise in this function, by the same
suffix rule (``unbroadcast_2``; NumPy becomes ``numpy``, its own name). To keep the two
apart while the passes run, the user's name carries ``USER_MARK`` (``np$``): the passes
generate ``np.cos(...)`` from the rule table as always, and never confuse it with the
user's ``np$``; ``Namer.respell`` then gives both their final spelling. A name derived from
a marked one loses the mark (``grad_np$`` is ``grad_np``), and a mark that escaped would
make the printed code fail to compile, never run with another meaning.
"""

from __future__ import annotations

import ast
import keyword
import re

from .walk import walk

MAX_LENGTH = 24
# marks a user's name that sourcegrad's code also uses, while the passes run: not a
# character of identifiers, so nothing else is spelled so (see the module docstring)
USER_MARK = "$"
# the base of the other spelling of one of sourcegrad's names that the user took
_OTHER_SPELLING = {"np": "numpy", "_": "unused"}

_OPERATOR_WORDS = {
    ast.Add: "plus",
    ast.Sub: "minus",
    ast.Mult: "times",
    ast.Div: "over",
    ast.FloorDiv: "floordiv",
    ast.Mod: "mod",
    ast.Pow: "pow",
    ast.MatMult: "at",
}
_UNARY_WORDS = {ast.USub: "neg", ast.UAdd: "pos", ast.Not: "not", ast.Invert: "inv"}
_COMPARE_WORDS = {
    ast.Gt: "gt", ast.GtE: "ge", ast.Lt: "lt", ast.LtE: "le", ast.Eq: "eq", ast.NotEq: "ne",
    ast.Is: "is", ast.IsNot: "isnot", ast.In: "in", ast.NotIn: "notin",
}


class Namer:
    """Hands out fresh, readable, deterministic names for one generated function.

    ``taken``: every name in use (the user's, and sourcegrad's own); ``collisions``: those
    of sourcegrad's names that the user's function gives another meaning (see the module
    docstring)."""

    def __init__(self, taken: set[str] = frozenset(),
                 collisions: set[str] = frozenset(), users: set[str] = frozenset()) -> None:
        self.taken = set(taken)
        self.collisions = frozenset(collisions)
        self.users = frozenset(users)  # every name the user's function reads or binds
        self.spellings: dict[str, str] = {}  # sourcegrad's name -> how this code spells it

    @property
    def taken(self) -> set[str]:
        return self._taken

    @taken.setter
    def taken(self, names: set[str]) -> None:
        # names may become free again: the suffixes known to be taken are forgotten
        self._taken = set(names)
        self._next_suffix: dict[str, int] = {}

    def reserve(self, *names: str) -> None:
        self.taken.update(names)

    def fresh(self, base: str, shorten: bool = True) -> str:
        base = _sanitize(base)
        if shorten:
            base = _shorten(base)
        if base not in self.taken:
            self.taken.add(base)
            return base
        # suffixes below the one handed out last for this base are all taken (names are
        # only added, except by resetting ``taken``): probing from 2 each time was quadratic
        # in the number of names sharing a base
        n = self._next_suffix.get(base, 2)
        while f"{base}_{n}" in self._taken:
            n += 1
        self._next_suffix[base] = n + 1
        name = f"{base}_{n}"
        self._taken.add(name)
        return name

    def function_name(self, usual: str) -> str:
        """The name of a generated function (``grad_f``, ``forward_helper``): the usual one,
        unless the user's function reads or binds that name (a module-level
        ``forward_helper``); then a fresh one, so that the user's name keeps its meaning."""
        return self.fresh(usual, shorten=False) if usual in self.users else usual

    def temp_for(self, expr: ast.expr) -> str:
        return self.fresh(describe(expr))

    # -- the user's names that sourcegrad's code also uses ------------------------------------
    def inside(self, user_name: str) -> str:
        """How the passes spell the user's ``user_name``: marked if sourcegrad's code uses
        the name too."""
        return user_name + USER_MARK if user_name in self.collisions else user_name

    def disguise(self, tree: ast.AST) -> ast.AST:
        """Mark, in place, every occurrence of the user's names that collide (``tree`` is a
        copy of the user's function, before any pass added code to it)."""
        if self.collisions:
            _rename_bindings(tree, self.inside, skip=tree)
        return tree

    def spelling(self, own_name: str) -> str:
        """How the generated code spells sourcegrad's ``own_name`` (a helper, ``np``, a
        builtin): itself, unless the user took it; then a fresh name, the same throughout
        this function's generated code."""
        if own_name not in self.collisions:
            return own_name
        if own_name not in self.spellings:
            base = _OTHER_SPELLING.get(own_name, own_name)
            self.spellings[own_name] = self.fresh(base, shorten=False)
        return self.spellings[own_name]

    def respell(self, tree: ast.AST) -> ast.AST:
        """Give every name in ``tree`` (generated code) its final spelling, in place: the
        user's marked names their own, sourcegrad's names the user took a fresh one."""
        if self.collisions:
            _rename_bindings(tree, self._final)
        return tree

    def _final(self, name: str) -> str:
        if name.endswith(USER_MARK):
            return name[:-len(USER_MARK)]
        return self.spelling(name)


def _rename_bindings(tree: ast.AST, rename, skip: ast.AST | None = None) -> None:
    """Apply ``rename`` to every variable name in ``tree``: names read or bound, parameters,
    nested ``def``s (the only other ways of binding a name that the frontend accepts);
    never to attribute or keyword-argument names, nor to ``skip``'s own name."""
    for node in walk(tree):
        if isinstance(node, ast.Name):
            node.id = rename(node.id)
        elif isinstance(node, ast.arg):
            node.arg = rename(node.arg)
        elif isinstance(node, ast.FunctionDef) and node is not skip:
            node.name = rename(node.name)


def adjoint_base(name: str) -> str:
    return f"grad_{name}"


def tangent_base(name: str) -> str:
    return f"tangent_{name}"


def describe(expr: ast.expr) -> str:
    """A short identifier saying what ``expr`` computes."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Constant):
        value = expr.value
        if isinstance(value, bool) or value is None:
            return str(value).lower()
        if isinstance(value, float) and value.is_integer() and abs(value) < 1e6:
            value = int(value)
        if isinstance(value, int):
            return str(value) if value >= 0 else f"neg{-value}"
        return "c"
    if isinstance(expr, ast.BinOp):
        word = _OPERATOR_WORDS.get(type(expr.op), "op")
        if isinstance(expr.op, ast.Pow) and _is_const(expr.right, 2):
            return f"{describe(expr.left)}_sq"
        return f"{describe(expr.left)}_{word}_{describe(expr.right)}"
    if isinstance(expr, ast.UnaryOp):
        return f"{_UNARY_WORDS.get(type(expr.op), 'op')}_{describe(expr.operand)}"
    if isinstance(expr, ast.Call):
        fname = _callee_word(expr.func)
        if isinstance(expr.func, ast.Attribute) and not _is_module_path(expr.func.value):
            return f"{describe(expr.func.value)}_{fname}"
        if expr.args:
            return f"{fname}_{describe(expr.args[0])}"
        return fname
    if isinstance(expr, ast.Attribute):
        return f"{describe(expr.value)}_{expr.attr}"
    if isinstance(expr, ast.Subscript):
        return f"{describe(expr.value)}_{_describe_index(expr.slice)}"
    if isinstance(expr, ast.Compare):
        word = _COMPARE_WORDS.get(type(expr.ops[0]), "cmp")
        return f"{describe(expr.left)}_{word}_{describe(expr.comparators[0])}"
    if isinstance(expr, ast.BoolOp):
        return "cond"
    if isinstance(expr, (ast.Tuple, ast.List)):
        return "items" if isinstance(expr, ast.List) else "pair" if len(expr.elts) == 2 else "group"
    if isinstance(expr, ast.IfExp):
        return "choice"
    return "value"


def _describe_index(index: ast.expr) -> str:
    if isinstance(index, ast.Tuple):
        parts = [_describe_index(e) for e in index.elts]
        return "_".join(p for p in parts if p) or "part"
    if isinstance(index, ast.Slice):
        return "slice"
    if isinstance(index, ast.Constant) and index.value is Ellipsis:
        return ""
    if isinstance(index, ast.Constant) and index.value is None:
        return "new"
    if isinstance(index, ast.Constant) and isinstance(index.value, str) and (
            index.value.isidentifier() and index.value.isascii()):
        return index.value  # layer["w"]: layer_w
    return describe(index)


def _callee_word(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return "call"


def _is_module_path(expr: ast.expr) -> bool:
    """``np`` or ``np.linalg``: a namespace, not a value whose method is called."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return isinstance(expr, ast.Name) and expr.id in {"np", "numpy", "math", "sg", "linalg"}


def _is_const(expr: ast.expr, value: object) -> bool:
    return isinstance(expr, ast.Constant) and expr.value == value and type(expr.value) is int


def _sanitize(text: str) -> str:
    # the usual text, letters, digits and underscores, needs no regex (nor compiling one)
    if not (text.isascii() and text.replace("_", "").isalnum()):
        text = re.sub(r"\W+", "_", text)
    text = text.strip("_") or "value"
    while "__" in text:
        text = text.replace("__", "_")
    if text[0].isdigit():
        text = f"v{text}"
    if keyword.iskeyword(text):
        text = f"{text}_"
    return text


def _shorten(name: str) -> str:
    if len(name) <= MAX_LENGTH:
        return name
    words = name.split("_")
    short = words[0]
    for word in words[1:]:
        if len(short) + 1 + len(word) > MAX_LENGTH:
            break
        short = f"{short}_{word}"
    return short[:MAX_LENGTH].rstrip("_")
