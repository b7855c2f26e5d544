"""A module as generated code reads it: a record of its arrays.

A ``Module``'s ``@sg.differentiable`` method does not run on the module: it runs, as
generated code, on a *record*, a dataclass (a form of ``self`` the transformer reads and
differentiates, CONTRACT 1a) with one field per attribute the method reads: a parameter,
buffer or other tensor as its array, a submodule as a record of its own (a ``Sequential`` as
the list of its modules' records, so that the method may iterate or index it), anything else
as it is. While the generated forward code runs, the record notes which fields it reads, so that a
node's inputs are the tensors the call used.
"""

from __future__ import annotations

import dataclasses
import keyword
from collections.abc import Iterator
from typing import Any

from ..runtime.tensor import Tensor
from .layers import Sequential
from .module import Module

# What a body reads of ``self``: the attribute names it reads, each with what it reads of
# that attribute in turn; ``WHOLE`` where it uses a value as such (passes a submodule along).
Reads = dict[str, "Reads"] | None
WHOLE: Reads = None

# (module class, field names) -> the dataclasses of its records (noting reads, and not)
_RECORD_CLASSES: dict[tuple[type, tuple[str, ...]], tuple[type, type]] = {}


_REGISTRIES = ("_parameters", "_buffers", "_modules")


class NotingReads:
    """Base of the records while the generated forward code runs: notes which fields it
    reads, so that the node's inputs are the tensors the call used."""

    def __getattribute__(self, name: str) -> Any:
        value = object.__getattribute__(self, name)
        if name in object.__getattribute__(self, "__dataclass_fields__"):
            object.__getattribute__(self, "_sourcegrad_read").add(name)
        return value


@dataclasses.dataclass
class Record:
    """The arrays of one module, and where they came from."""

    arrays: Any  # an instance of a dataclass made for the module's class
    tensors: dict[str, Tensor]  # field -> the tensor it holds the array of
    children: dict[Any, Record]  # field (a Sequential's: index) -> a submodule's record
    plain: type  # the dataclass of ``arrays`` that does not note reads (list: a Sequential)


def record_of(module: Module, reads: Reads = WHOLE) -> Record:
    """``module`` as a record of arrays: one field per attribute the body reads (``reads``;
    every attribute for ``WHOLE``). A ``Sequential`` is the list of its modules' records, as
    the body iterates or indexes it (``for layer in self.layers``)."""
    if isinstance(module, Sequential):
        children = {index: record_of(child) for index, child in enumerate(module)}
        return Record([child.arrays for child in children.values()], {}, children, list)
    values, tensors, children = {}, {}, {}
    for name, value in _attributes(module, reads):
        if isinstance(value, Tensor):
            tensors[name] = value
            value = value.data
        elif isinstance(value, Module):
            children[name] = record_of(value, WHOLE if reads is WHOLE else reads[name])
            value = children[name].arrays
        values[name] = value
    names = tuple(values)
    key = (type(module), names)
    classes = _RECORD_CLASSES.get(key)
    if classes is None:
        plain = dataclasses.make_dataclass(f"{type(module).__name__}Arrays", names, init=False,
                                           repr=False, eq=False)
        noting = type(plain.__name__, (NotingReads, plain), {"__module__": __name__})
        classes = _RECORD_CLASSES[key] = (noting, plain)
    arrays = object.__new__(classes[0])
    arrays.__dict__.update(values)
    arrays.__dict__["_sourcegrad_read"] = set()
    return Record(arrays, tensors, children, classes[1])


def stop_noting(record: Record) -> None:
    """The records are read by the backward code too: from now on, without noting."""
    if record.plain is not list:
        record.arrays.__class__ = record.plain
    for child in record.children.values():
        stop_noting(child)


def _attributes(module: Module, reads: Reads) -> Iterator[tuple[str, Any]]:
    """The attributes generated code may read (all of them for ``WHOLE``): the instance's
    own, its parameters, buffers and submodules, and the constants its class defines
    (``EPS = 1e-5``)."""
    registered = [vars(module)[kind] for kind in _REGISTRIES]
    places = [vars(module), *registered, _class_constants(type(module))]
    if reads is not WHOLE:
        for name in reads:
            for place in places:
                if name in place:
                    yield name, place[name]
                    break
        return
    seen = set()
    for place in places:
        for name, value in place.items():
            if name not in seen and name not in _REGISTRIES and name.isidentifier() and (
                    not keyword.iskeyword(name) and not name.startswith("__")):
                seen.add(name)
                yield name, value


_CONSTANTS: dict[type, dict[str, Any]] = {}


def _class_constants(cls: type) -> dict[str, Any]:
    """The values (not functions, properties or other descriptors) the module's classes
    define, below ``Module``; the nearest class's first."""
    found = _CONSTANTS.get(cls)
    if found is None:
        found = _CONSTANTS[cls] = {}
        for klass in cls.__mro__:
            if klass is Module or klass is object:
                break
            for name, value in vars(klass).items():
                if not callable(value) and not hasattr(value, "__get__"):
                    found.setdefault(name, value)
    return found


def holds_tensors(record: Record) -> bool:
    return bool(record.tensors) or any(holds_tensors(c) for c in record.children.values())


def requires_grad(record: Record) -> bool:
    return any(t.requires_grad for t in record.tensors.values()) or any(
        requires_grad(c) for c in record.children.values())


def read_tensors(record: Record, requiring: bool = True
                 ) -> Iterator[tuple[tuple[Any, ...], Tensor]]:
    """``(path of fields, tensor)`` for each tensor that requires grad (``requiring``; or
    each that does not) and was read (a ``Sequential``'s list: through each of its
    modules)."""
    if record.plain is list:
        read: Any = list(record.children)
    else:
        read = sorted(object.__getattribute__(record.arrays, "_sourcegrad_read"))
    for name in read:
        tensor = record.tensors.get(name)
        if tensor is not None and tensor.requires_grad is requiring:
            yield (name,), tensor
        child = record.children.get(name)
        if child is not None:
            for path, inner in read_tensors(child, requiring):
                yield (name, *path), inner


def gradient_at(grad_self: Any, path: tuple[Any, ...]) -> Any:
    """The element of the cotangent of ``self`` (nested dicts of fields, lists for a
    ``Sequential``) at ``path``."""
    for name in path:
        if grad_self is None:
            return None
        if isinstance(name, int):
            grad_self = grad_self[name]
        elif isinstance(grad_self, dict):
            grad_self = grad_self.get(name)
        else:
            grad_self = getattr(grad_self, name, None)
    return grad_self
