"""A ``Module``'s ``@sg.differentiable`` method (its ``forward``, usually) as ONE graph node.

The method is plain NumPy code that reads the module's tensors as attributes (``self.w``,
``self.fc.weight``). Called on a module, it runs as generated forward code on the arrays:
the tensors it reads are handed to it as arrays (``method_body.py`` says how: as parameters
of a function made from the method, or inside a record of the module's arrays,
``records.py``), and it records one node whose inputs are the call's tensor arguments plus
the tensors that require grad which the call read, and whose backward runs the generated
adjoint.

So, as in PyTorch, a parameter the call did not read gets no gradient (``.grad`` stays
``None``), one read twice (tied weights) gets both contributions, and a frozen one
(``requires_grad=False``) is a constant, whose modification in place before the backward
runs is an error, as for any saved tensor. Under ``sg.no_grad()`` nothing is recorded; on a
module holding no tensor, called with arrays, the method is the user's function.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import pipeline
from ..runtime import graph
from ..runtime.decorated import output_cotangent
from ..runtime.grad_mode import is_grad_enabled
from ..runtime.tensor import Tensor
from .method_body import Plan, plan_for
from .module import Module
from .records import (
    gradient_at,
    holds_tensors,
    read_tensors,
    record_of,
    requires_grad,
    stop_noting,
)


def call_method(decorated: Any, module: Module, args: tuple, kwargs: dict,
                planned_again: bool = False) -> Any:
    """``decorated(module, *args, **kwargs)`` as one node (see the module docstring)."""
    plan, tensors = _planned(decorated, module, planned_again)
    record = record_of(module, plan.reads)
    if not (tensors or holds_tensors(record) or _any_tensor(args, kwargs)):
        return decorated.fn(module, *args, **kwargs)
    if any(isinstance(v, Tensor) and v.requires_grad for v in kwargs.values()):
        raise TypeError(f"{decorated.fn.__name__}: pass tensors that require grad "
                        "positionally, so that their gradients can be matched to parameters")
    arrays = [a.data if isinstance(a, Tensor) else a for a in args]
    kw_arrays = {k: v.data if isinstance(v, Tensor) else v for k, v in kwargs.items()}
    tensor_arrays = [t.data for t in tensors]
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
    moved = [k for k, t in enumerate(tensors) if t.requires_grad]
    through_self = plan.self_differentiated and requires_grad(record)
    sources = [*_tensor_arrays(record), *tensor_arrays,
               *(a for a in (*arrays, *kw_arrays.values()) if isinstance(a, np.ndarray))]
    if not is_grad_enabled() or not (positions or moved or through_self):
        return _as_tensors(graph.unaliased(
            plan.function(record.arrays, *tensor_arrays, *arrays, **kw_arrays), sources))
    names = decorated.parameters
    wrt = ((names[0],) if plan.self_differentiated else ()) + tuple(
        plan.names[k] for k in moved) + tuple(names[i + 1] for i in positions)
    forward, backward = _split(plan, wrt)
    value, saved = forward(record.arrays, *tensor_arrays, *arrays, **kw_arrays)
    value = graph.unaliased(value, sources)
    read = list(read_tensors(record))
    constants = [t for t in tensors if not t.requires_grad] + [
        tensor for _, tensor in read_tensors(record, requiring=False)]
    stop_noting(record)
    if read and not plan.self_differentiated:  # a tensor where the plan saw none: plan again
        if planned_again:
            raise RuntimeError(f"{decorated.fn.__qualname__} read tensors sourcegrad did not "
                               "find in its body; please report this as a sourcegrad bug")
        return call_method(decorated, module, args, kwargs, planned_again=True)
    params = [tensors[k] for k in moved]
    pullback = _pullback(lambda c: backward(c, saved), value, plan.self_differentiated,
                         [arrays[i] if i in positions else None for i in range(len(args))],
                         params, read)
    single = not isinstance(value, (tuple, list))
    inputs = [*args, *params, *(tensor for _, tensor in read)]
    outputs = graph.record(node_class(decorated, module), inputs,
                           value if single else tuple(value), pullback)
    graph.also_saved(outputs, constants)
    return outputs


def _planned(decorated: Any, module: Module, again: bool) -> tuple[Plan, list[Tensor]]:
    """The plan for ``module``, and the tensors at its chains (planned again if one is not
    a tensor any more: a parameter set to ``None`` since, say)."""
    plan = plan_for(decorated.fn, module, again=again)
    tensors = _tensors_at(module, plan.chains)
    if not all(isinstance(t, Tensor) for t in tensors):
        plan = plan_for(decorated.fn, module, again=True)
        tensors = _tensors_at(module, plan.chains)
    return plan, tensors


def _pullback(backward: Callable[[Any], tuple], value: Any, through_self: bool,
              moved_args: list[np.ndarray | None], params: list[Tensor],
              read: list[tuple[tuple, Tensor]]) -> Callable[[tuple], tuple]:
    """The node's backward: the generated adjoint's gradients, in the order of the node's
    inputs (the call's arguments, ``None`` where one does not require grad; the tensors
    handed over as parameters; the tensors read through the record of ``self``)."""
    single = not isinstance(value, (tuple, list))

    def pullback(cotangents: tuple) -> tuple:
        grads = list(backward(output_cotangent(cotangents, value, single)))
        grad_self = grads.pop(0) if through_self else None
        out: list[Any] = [None] * len(moved_args)
        moved = [i for i, a in enumerate(moved_args) if a is not None]
        for position, g in zip(moved, grads[len(params):], strict=True):
            out[position] = _like(g, moved_args[position])
        for tensor, g in zip(params, grads[:len(params)], strict=True):
            out.append(_like(g, tensor.data))
        for path, tensor in read:
            g = gradient_at(grad_self, path)
            out.append(None if g is None else _like(g, tensor.data))
        return tuple(out)

    return pullback


def _tensors_at(module: Module, chains: list[tuple[str, ...]]) -> list[Any]:
    """The values at ``chains`` (``("fc1", "weight")``) in ``module``, each submodule on the
    way looked up once (this runs at every call)."""
    owners: dict[tuple[str, ...], Any] = {(): module}
    values = []
    for chain in chains:
        owner = owners.get(chain[:-1])
        if owner is None:
            owner = module
            for k, name in enumerate(chain[:-1]):
                owner = owners.setdefault(chain[:k + 1], _attribute(owner, name))
        values.append(_attribute(owner, chain[-1]))
    return values


def _attribute(owner: Any, name: str) -> Any:
    """``getattr(owner, name, None)``, for a module without going through its
    ``__getattr__`` (which Python calls after a search that fails for its tensors)."""
    if isinstance(owner, Module):
        state = owner.__dict__
        for kind in ("_parameters", "_modules", "_buffers"):
            registry = state[kind]
            if name in registry:
                return registry[name]
    return getattr(owner, name, None)


def _split(plan: Plan, wrt: tuple[str, ...]) -> tuple[Callable, Callable]:
    """The generated forward and backward functions of the plan's function, made again when
    a function it calls has been redefined."""
    pair = plan.splits.get(wrt)
    if pair is None or not pair[0]._sourcegrad_entry[0].valid():
        pair = plan.splits[wrt] = pipeline.split_functions(plan.function, wrt)
    return pair


def _tensor_arrays(record: Any) -> list[np.ndarray]:
    """The arrays of every tensor ``record`` holds, its submodules' included."""
    arrays = [t.data for t in record.tensors.values()]
    for child in record.children.values():
        arrays.extend(_tensor_arrays(child))
    return arrays


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


