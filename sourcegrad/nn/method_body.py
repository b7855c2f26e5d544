"""How a ``Module``'s ``@sg.differentiable`` method is run: checked, and planned.

Checked: a body that changes the module's state (``self.count += 1``: it runs on a record of
the module's arrays, so the change would be lost), calls the module's methods or
submodules (``self.fc(x)``: generated code cannot call them on the record) or reads a
property is refused before anything runs, naming the user's line and saying what to write.

Planned, once per class of module: where each tensor the body reads is read ALWAYS (straight
code, not under a branch, a loop or after an early ``return``; the usual ``forward``), the
read (``self.fc1.weight``) becomes a parameter of a function made from the user's tree
(``self_fc1_weight``, placed after ``self``): its generated adjoint is the one of a plain
function of arrays, without the bookkeeping of a record's cotangent. Otherwise ``self`` itself
is differentiated, as a record (``records.py``) that notes the fields each call reads: a
parameter read on the branch not taken gets no gradient, as in PyTorch. Both give the same
numbers; the first is faster.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..codegen.clone import clone
from ..frontend.nesting import synthesize
from ..frontend.source import parse_function
from ..runtime.tensor import Tensor
from .module import Module
from .records import WHOLE, Reads


@dataclass
class Plan:
    """How to call the method on a module of one class.

    ``function`` is the method, or (when ``chains`` is not empty) the function made from it
    that takes the tensors at ``chains`` (``("fc1", "weight")``) as the parameters ``names``,
    right after ``self``. ``reads``: what the function still reads of ``self`` as a record.
    ``self_differentiated``: whether ``self`` is (a tensor read only sometimes, or a
    submodule passed along)."""

    function: Callable
    reads: Reads
    self_differentiated: bool
    chains: list[tuple[str, ...]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    splits: dict[tuple[str, ...], tuple[Callable, Callable]] = field(default_factory=dict)


_PLANS: dict[tuple[Any, type], Plan] = {}


def plan_for(fn: Callable, module: Module, again: bool = False) -> Plan:
    """The ``Plan`` of ``fn`` for ``module``'s class, made at the first call (``again``: the
    module has changed since, a tensor where there was none or the other way round)."""
    key = (fn.__code__, type(module))
    plan = _PLANS.get(key)
    if plan is None or again:
        plan = _PLANS[key] = _make_plan(fn, module)
    return plan


def _make_plan(fn: Callable, module: Module) -> Plan:
    parsed = parse_function(fn)
    args = parsed.tree.args
    params = [*args.posonlyargs, *args.args]
    if not params:
        return Plan(fn, WHOLE, True)
    self_name = params[0].arg
    for node in ast.walk(parsed.tree):
        problem = _problem(node, self_name, module)
        if problem is not None:
            raise parsed.unsupported(node, *problem)
    tree = clone(parsed.tree)
    found = _tensor_reads(tree, self_name, module)
    if found is None:  # a tensor read only sometimes, or a module holding some passed along
        return Plan(fn, _reads(parsed.tree, self_name), True)
    if not found:
        return Plan(fn, _reads(parsed.tree, self_name), False)
    chains, names = _as_parameters(tree, self_name, found)
    made = synthesize(tree, parsed)
    return Plan(made, _reads(tree, self_name), False, chains, names)


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _reads(tree: ast.FunctionDef, self_name: str) -> Reads:
    """The ``Reads`` of ``self`` in ``tree``: each longest chain ``self.a.b`` read, its last
    name read ``WHOLE``; ``self`` itself used as a value (passed to a function) is read
    ``WHOLE``."""
    parents = _parents(tree)
    reads: dict[str, Any] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and node.id == self_name):
            continue
        names, top = [], node
        while isinstance(parents.get(top), ast.Attribute) and parents[top].value is top:
            top = parents[top]
            names.append(top.attr)
        if not names:
            return WHOLE
        level = reads
        for name in names[:-1]:
            if level.get(name, {}) is WHOLE:
                break
            level = level.setdefault(name, {})
        else:
            level[names[-1]] = WHOLE
    return reads


# -- tensors read always, as parameters -----------------------------------------------------
def _tensor_reads(tree: ast.FunctionDef, self_name: str, module: Module
                  ) -> list[tuple[ast.Attribute, tuple[str, ...]]] | None:
    """Each read of a tensor (``self.fc1.weight``: the attribute node, and its chain); ``None``
    when one is read only sometimes, or when a module holding tensors is used as a value."""
    parents = _parents(tree)
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and node.id == self_name):
            continue
        value, top, chain = module, node, []
        while isinstance(value, Module):
            parent = parents.get(top)
            if not (isinstance(parent, ast.Attribute) and parent.value is top):
                if _holds_tensors(value):
                    return None  # self, or a submodule, passed along whole
                break
            top, chain = parent, [*chain, parent.attr]
            value = _attribute(value, parent.attr)
        if isinstance(value, Tensor):
            if not _always_run(top, parents, tree):
                return None
            found.append((top, tuple(chain)))
    return found


_ABSENT = object()


def _attribute(module: Module, name: str) -> Any:
    try:
        return getattr(module, name)
    except AttributeError:
        return _ABSENT


def _holds_tensors(module: Module) -> bool:
    return any(True for _ in module.parameters()) or any(True for _ in module.buffers()) or any(
        isinstance(v, Tensor) for m in module.modules() for v in vars(m).values())


_SOMETIMES = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith,
              ast.Match, ast.IfExp, ast.BoolOp, ast.Lambda, ast.FunctionDef, ast.ListComp,
              ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _always_run(node: ast.AST, parents: dict, tree: ast.FunctionDef) -> bool:
    """Is ``node`` evaluated at every call: under no branch, loop, ``try``, conditional
    expression or nested function, and after no statement that may ``return`` or
    ``raise``?"""
    child, parent = node, parents.get(node)
    while parent is not tree:
        if isinstance(parent, _SOMETIMES) and not _evaluated_first(parent, child):
            return False
        child, parent = parent, parents.get(parent)
    statement = child
    for earlier in tree.body[:tree.body.index(statement)]:
        if any(isinstance(n, (ast.Return, ast.Raise)) for n in ast.walk(earlier)):
            return False
    return True


def _evaluated_first(parent: ast.AST, child: ast.AST) -> bool:
    """Is ``child`` the part of ``parent`` that always runs (an ``if``'s or a conditional
    expression's test, a loop's iterable, the first operand of ``and``/``or``)?"""
    if isinstance(parent, (ast.If, ast.IfExp, ast.While)):
        return child is parent.test
    if isinstance(parent, (ast.For, ast.AsyncFor)):
        return child is parent.iter
    if isinstance(parent, ast.BoolOp):
        return child is parent.values[0]
    return False


def _as_parameters(tree: ast.FunctionDef, self_name: str,
                   found: list[tuple[ast.Attribute, tuple[str, ...]]]
                   ) -> tuple[list[tuple[str, ...]], list[str]]:
    """Replace each tensor read by a name (``self_fc1_weight``), made a parameter of
    ``tree`` right after ``self``; the chains and names, in the order first read."""
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
        a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
    names: dict[tuple[str, ...], str] = {}
    for _node, chain in sorted(found, key=lambda item: (item[0].lineno, item[0].col_offset)):
        if chain not in names:
            name = "_".join([self_name, *chain])
            while name in taken:
                name += "_"
            taken.add(name)
            names[chain] = name
    parents = _parents(tree)
    for node, chain in found:
        replacement = ast.copy_location(ast.Name(id=names[chain], ctx=ast.Load()), node)
        parent = parents[node]
        for field_name, value in ast.iter_fields(parent):
            if value is node:
                setattr(parent, field_name, replacement)
            elif isinstance(value, list):
                value[:] = [replacement if v is node else v for v in value]
    arguments = tree.args
    where = 1 if not arguments.posonlyargs else 0
    new = [ast.arg(arg=name) for name in names.values()]
    if arguments.posonlyargs:
        arguments.posonlyargs[1:1] = new
    else:
        arguments.args[where:where] = new
    return list(names), list(names.values())


# -- what cannot work -----------------------------------------------------------------------
def _chain(node: ast.AST, self_name: str) -> list[str] | None:
    """``["fc", "weight"]`` for ``self.fc.weight``; ``None`` if ``node`` is not such a read."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == self_name and names:
        return names[::-1]
    return None


def _unpacked(targets: list[ast.AST]) -> list[ast.AST]:
    """The places an assignment stores into: ``a, (b, *c) = ...`` stores into a, b and c."""
    found = []
    for target in targets:
        while isinstance(target, ast.Starred):
            target = target.value
        if isinstance(target, (ast.Tuple, ast.List)):
            found.extend(_unpacked(target.elts))
        else:
            found.append(target)
    return found


def _stored_chain(target: ast.AST, self_name: str) -> list[str] | None:
    """``["w"]`` for a store into ``self.w`` or into its elements (``self.w[0]``)."""
    while isinstance(target, ast.Subscript):
        target = target.value
    return _chain(target, self_name)


def _problem(node: ast.AST, self_name: str, module: Module) -> tuple[str, str] | None:
    """What cannot work in ``node`` (the construct, the advice), if anything."""
    qualified = f"in a @sg.differentiable method of a Module ({type(module).__name__})"
    targets: list[ast.AST] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    elif isinstance(node, ast.Delete):
        targets = node.targets
    for target in _unpacked(targets):
        chain = _stored_chain(target, self_name)
        if chain is not None:
            return (f"changing the module's state ({self_name}.{'.'.join(chain)}) {qualified}",
                    "The method runs on a record of the module's arrays, so the change "
                    "would be lost. Return the new value instead and store it outside "
                    "the decorated method, or leave this method undecorated.")
    if isinstance(node, ast.Call):
        chain = _chain(node.func, self_name)
        called = _called(module, chain) if chain is not None else None
        if called is not None:
            return (f"calling {self_name}.{'.'.join(chain)}(...) {qualified}",
                    _calling_advice(self_name, chain, called))
    chain = _chain(node, self_name) if isinstance(node, ast.Attribute) else None
    if chain is not None and _is_property(module, chain):
        return (f"reading the property {self_name}.{'.'.join(chain)} {qualified}",
                "A property runs on the module, not on the arrays the method is differentiated "
                "on: compute the value in the method, or store it as an attribute.")
    return None


def _owner(module: Module, chain: list[str]) -> Any:
    """The object holding the last attribute of ``chain`` (``None`` if it cannot be found)."""
    owner: Any = module
    for name in chain[:-1]:
        try:
            owner = getattr(owner, name)
        except AttributeError:
            return None
    return owner


def _called(module: Module, chain: list[str]) -> Any:
    """What ``self.<chain>(...)`` calls when it is a submodule or a method of a module (the
    record cannot run those); ``None`` for anything else (``self.w.sum()``: an array's)."""
    owner = _owner(module, chain)
    if not isinstance(owner, Module):
        return None
    called = getattr(owner, chain[-1], None)
    if isinstance(called, Module) or isinstance(getattr(called, "__self__", None), Module):
        return called
    return None


def _calling_advice(self_name: str, chain: list[str], called: Any) -> str:
    """How to write the call so that generated code can make it, or what to do instead."""
    path = ".".join([self_name, *chain])
    if isinstance(called, Module):
        kind = type(called)
        if _is_differentiable(getattr(kind, "forward", None)):
            return (f"Call its NumPy forward by its class, {kind.__name__}.forward({path}, "
                    "...): it is then differentiated into this one node.")
        parameters = ", ".join(f"{path}.{name}" for name, _ in
                               called.named_parameters(recurse=False)) or f"{path}.weight"
        return (f"Generated code cannot run {kind.__name__}'s forward, which works on "
                f"tensors: read its parameters ({parameters}) and write the computation in "
                "NumPy, or leave this method undecorated.")
    owner = type(called.__self__).__name__
    method = called.__func__.__name__
    return (f"Call the method by its class, {owner}.{method}({'.'.join([self_name, *chain[:-1]])}"
            ", ...): it is then differentiated with this one.")


def _is_differentiable(function: Any) -> bool:
    from ..runtime.decorated import Differentiable

    return isinstance(function, Differentiable)


def _is_property(module: Module, chain: list[str]) -> bool:
    owner = _owner(module, chain)
    return isinstance(owner, Module) and isinstance(
        getattr(type(owner), chain[-1], None), property)
