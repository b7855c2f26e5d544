"""A ``Module``'s ``@sg.differentiable`` method (its ``forward``, usually) as ONE graph node.

The method is plain NumPy code that reads the module's tensors as attributes (``self.w``,
``self.fc.weight``). Called on a module, it does not run on the module itself: it runs, as
generated forward code, on a *record of the module's arrays*, a dataclass (the form of
``self`` the transformer differentiates, CONTRACT 1a) with one field per attribute of the
module, its parameters, buffers and other tensors as their arrays and its submodules as
records of theirs. The node's inputs are the call's tensor arguments plus the tensors that
require grad which the call actually read (the record notes each field read); its backward
runs the generated adjoint, whose cotangent of ``self`` holds each one's gradient.

So, as in PyTorch, a parameter the call did not read gets no gradient (``.grad`` stays
``None``), one read twice (tied weights) gets both contributions, and a frozen one
(``requires_grad=False``) is a constant.

What cannot work is refused before anything runs, naming the user's line: assigning to the
module's state (``self.count += 1``: the code runs on the record, so the change would be
lost), calling the module's methods or submodules (``self.fc(x)``: generated code cannot
call them on the record; read their parameters instead), and reading a property.
"""

from __future__ import annotations

import ast
import dataclasses
import keyword
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..frontend.source import parse_function
from ..runtime import graph
from ..runtime.grad_mode import is_grad_enabled
from ..runtime.tensor import Tensor
from .module import Module

# (module class, field names) -> the dataclass of its records
_RECORD_CLASSES: dict[tuple[type, tuple[str, ...]], type] = {}
# the decorated functions whose bodies were checked, by code object
_CHECKED: dict[Any, bool] = {}


class ModuleArrays:
    """Base of the records: notes which fields were read, so that the node's inputs are the
    tensors the call used (see the module docstring)."""

    def __getattribute__(self, name: str) -> Any:
        value = object.__getattribute__(self, name)
        if name in object.__getattribute__(self, "__dataclass_fields__"):
            object.__getattribute__(self, "_sourcegrad_read").add(name)
        return value


@dataclasses.dataclass
class Record:
    """The arrays of one module, and where they came from."""

    arrays: ModuleArrays
    tensors: dict[str, Tensor]  # field -> the tensor it holds the array of
    children: dict[str, Record]  # field -> the record of a submodule


def record_of(module: Module) -> Record:
    """``module`` as a record of arrays (fields: its attributes; see the module docstring)."""
    values, tensors, children = {}, {}, {}
    for name, value in _attributes(module):
        if isinstance(value, Tensor):
            tensors[name] = value
            value = value.data
        elif isinstance(value, Module):
            children[name] = record_of(value)
            value = children[name].arrays
        values[name] = value
    names = tuple(values)
    key = (type(module), names)
    cls = _RECORD_CLASSES.get(key)
    if cls is None:
        cls = _RECORD_CLASSES[key] = dataclasses.make_dataclass(
            f"{type(module).__name__}Arrays", names, bases=(ModuleArrays,), init=False,
            repr=False, eq=False)
    arrays = object.__new__(cls)
    arrays.__dict__.update(values)
    arrays.__dict__["_sourcegrad_read"] = set()
    return Record(arrays, tensors, children)


def _attributes(module: Module) -> Iterator[tuple[str, Any]]:
    """Every attribute generated code may read: the instance's own, its parameters, buffers
    and submodules, and the constants its class defines (``EPS = 1e-5``)."""
    seen = set()
    own = [(k, v) for k, v in vars(module).items()
           if k not in ("_parameters", "_buffers", "_modules")]
    registered = [item for kind in ("_parameters", "_buffers", "_modules")
                  for item in vars(module)[kind].items()]
    for name, value in [*own, *registered, *_class_constants(type(module))]:
        if name not in seen and name.isidentifier() and not keyword.iskeyword(name) and (
                not name.startswith("__")):
            seen.add(name)
            yield name, value


def _class_constants(cls: type) -> list[tuple[str, Any]]:
    found = []
    for klass in cls.__mro__:
        if klass is Module or klass is object:
            break
        for name, value in vars(klass).items():
            if not callable(value) and not hasattr(value, "__get__"):
                found.append((name, value))
    return found


def holds_tensors(record: Record) -> bool:
    return bool(record.tensors) or any(holds_tensors(c) for c in record.children.values())


def requires_grad(record: Record) -> bool:
    return any(t.requires_grad for t in record.tensors.values()) or any(
        requires_grad(c) for c in record.children.values())


def read_tensors(record: Record) -> Iterator[tuple[tuple[str, ...], Tensor]]:
    """``(path of fields, tensor)`` for each tensor that requires grad and was read."""
    read = object.__getattribute__(record.arrays, "_sourcegrad_read")
    for name in sorted(read):
        tensor = record.tensors.get(name)
        if tensor is not None and tensor.requires_grad:
            yield (name,), tensor
        child = record.children.get(name)
        if child is not None:
            for path, inner in read_tensors(child):
                yield (name, *path), inner


def gradient_at(grad_self: Any, path: tuple[str, ...]) -> Any:
    """The element of the cotangent of ``self`` (nested dicts of fields) at ``path``."""
    for name in path:
        if grad_self is None:
            return None
        grad_self = grad_self.get(name) if isinstance(grad_self, dict) else getattr(
            grad_self, name, None)
    return grad_self


# -- the call -------------------------------------------------------------------------------
def call_method(decorated: Any, module: Module, args: tuple, kwargs: dict) -> Any:
    """``decorated(module, *args, **kwargs)`` as one node (see the module docstring)."""
    check_body(decorated.fn, module)
    record = record_of(module)
    if not holds_tensors(record) and not _any_tensor(args, kwargs):
        return decorated.fn(module, *args, **kwargs)
    arrays = [a.data if isinstance(a, Tensor) else a for a in args]
    kw_arrays = {k: v.data if isinstance(v, Tensor) else v for k, v in kwargs.items()}
    if any(isinstance(v, Tensor) and v.requires_grad for v in kwargs.values()):
        raise TypeError(f"{decorated.fn.__name__}: pass tensors that require grad "
                        "positionally, so that their gradients can be matched to parameters")
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
    if not is_grad_enabled() or not (positions or requires_grad(record)):
        return _as_tensors(decorated.fn(record.arrays, *arrays, **kw_arrays))
    names = decorated.parameters
    wrt = (names[0], *(names[i + 1] for i in positions))
    forward, backward = decorated._derivative(wrt)
    value, saved = forward(record.arrays, *arrays, **kw_arrays)
    read = list(read_tensors(record))  # before the backward reads every field
    single = not isinstance(value, (tuple, list))

    def backward_node(cotangents: tuple) -> tuple:
        if single:
            cotangent = cotangents[0]
        else:
            cotangent = tuple(np.zeros_like(v) if c is None else c
                              for c, v in zip(cotangents, value, strict=True))
        grad_self, *grads = backward(cotangent, saved)
        out: list[Any] = [None] * len(args)
        for position, g in zip(positions, grads, strict=True):
            out[position] = _like(g, arrays[position])
        for path, tensor in read:
            g = gradient_at(grad_self, path)
            out.append(None if g is None else _like(g, tensor.data))
        return tuple(out)

    inputs = [*args, *(tensor for _, tensor in read)]
    return graph.record(node_class(decorated, module), inputs, value if single else tuple(value),
                        backward_node)


def _any_tensor(args: tuple, kwargs: dict) -> bool:
    return any(isinstance(a, Tensor) for a in (*args, *kwargs.values()))


def _as_tensors(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return tuple(_as_tensors(v) for v in value)
    return value if isinstance(value, Tensor) else Tensor(np.asarray(value))


def _like(g: Any, x: np.ndarray) -> np.ndarray:
    """A cotangent with its input's shape and float dtype, as the engine accumulates it."""
    g = np.asarray(g, dtype=x.dtype if x.dtype.kind in "fc" else np.float64)
    return np.broadcast_to(g, x.shape) if g.shape != x.shape else g


_NODE_CLASSES: dict[tuple[Any, type], type] = {}


def node_class(decorated: Any, module: Module) -> type:
    """``MLPBackward`` for ``MLP.forward`` (``MLPEncodeBackward`` for ``MLP.encode``): a class
    that knows the function, as ``sg.viz`` links a node to its source."""
    key = (decorated, type(module))
    cls = _NODE_CLASSES.get(key)
    if cls is None:
        method = decorated.fn.__name__
        words = "" if method == "forward" else "".join(
            part.capitalize() for part in method.split("_"))
        name = f"{type(module).__name__}{words}Backward"
        cls = _NODE_CLASSES[key] = type(name, (graph.Node,),
                                        {"__slots__": (), "function": decorated.fn})
    return cls


# -- what cannot work -----------------------------------------------------------------------
def check_body(fn: Callable, module: Module) -> None:
    """Refuse, naming the user's line, a body that changes the module's state, calls its
    methods or submodules, or reads a property (see the module docstring)."""
    key = (fn.__code__, type(module))
    if key in _CHECKED:
        return
    parsed = parse_function(fn)
    args = parsed.tree.args
    params = [*args.posonlyargs, *args.args]
    if not params:
        return
    self_name = params[0].arg
    for node in ast.walk(parsed.tree):
        problem = _problem(node, self_name, module)
        if problem is not None:
            raise parsed.unsupported(node, *problem)
    _CHECKED[key] = True


def _chain(node: ast.AST, self_name: str) -> list[str] | None:
    """``["fc", "weight"]`` for ``self.fc.weight``; ``None`` if ``node`` is not such a read."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == self_name and names:
        return names[::-1]
    return None


def _stored_chain(target: ast.AST, self_name: str) -> list[str] | None:
    while isinstance(target, ast.Subscript):
        target = target.value
    return _chain(target, self_name)


def _problem(node: ast.AST, self_name: str, module: Module) -> tuple[str, str] | None:
    qualified = f"in a @sg.differentiable method of a Module ({type(module).__name__})"
    targets: list[ast.AST] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    elif isinstance(node, ast.Delete):
        targets = node.targets
    for target in targets:
        for part in ast.walk(target):
            chain = _stored_chain(part, self_name)
            if chain is not None and isinstance(part, (ast.Attribute, ast.Subscript)):
                return (f"changing the module's state ({self_name}.{'.'.join(chain)}) "
                        f"{qualified}",
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
