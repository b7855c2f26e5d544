"""``@sg.differentiable``: a whole user function as ONE node of the runtime's graph.

On NumPy arrays and Python numbers the decorated function is the user's function, called
directly. On tensors that require grad (grad mode on) it runs the *generated forward code*
(``forward_f``) on the arrays inside the tensors, keeps only the values its adjoint needs,
and records one node (``PredictBackward`` for ``predict``) whose backward runs the
generated adjoint (``backward_f``). A decorated function calling another decorated function
differentiates the callee's source like any other user function, so the two compose.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import api, pipeline
from ..compile import pseudo_filename, register_lines
from . import graph
from .grad_mode import is_grad_enabled
from .tensor import Tensor


class Differentiable:
    """The callable ``@sg.differentiable`` returns; see the module docstring."""

    def __init__(self, fn: Callable) -> None:
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.__sourcegrad_function__ = fn  # what the transformer differentiates when called
        signature = inspect.signature(fn).parameters.values()
        self.parameters = [p.name for p in signature]
        # how many arguments may be passed positionally and still be named parameters
        self._named_positions = sum(1 for p in signature if p.kind in (
            p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))
        self._var_positional = next((p.name for p in signature
                                     if p.kind == p.VAR_POSITIONAL), None)
        self.node_name = "".join(part.capitalize() for part in fn.__name__.split("_")) + (
            "Backward")
        self._split: dict[tuple[str, ...], tuple[Callable, Callable]] = {}
        self._vjps: dict[tuple, Differentiable] = {}
        self._node_classes: dict[tuple, type] = {}
        # Whether its node's backward can record its own graph (create_graph): not for the
        # weighted gradient made for that, as differentiating it again (a third derivative
        # through a call of the user's function) is not reliable in the transformer yet.
        self.records_backward = True

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if args and _is_module(args[0]):  # a method of an sg.nn.Module: its tensors too
            from ..nn.differentiable_forward import call_method

            return call_method(self, args[0], args[1:], kwargs)
        for arg in args:
            if isinstance(arg, Tensor):
                return self._call_on_tensors(args, kwargs)
        for arg in kwargs.values():
            if isinstance(arg, Tensor):
                return self._call_on_tensors(args, kwargs)
        return self.fn(*args, **kwargs)

    def source(self, wrt: api.Wrt = 0, mode: str = "reverse") -> str:
        return api.source(self.fn, wrt=wrt, mode=mode)

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        return self if instance is None else functools.partial(self, instance)

    # -- tensors ------------------------------------------------------------------------
    def _call_on_tensors(self, args: tuple, kwargs: dict) -> Any:
        arrays = [a.data if isinstance(a, Tensor) else a for a in args]
        kw_arrays = {k: v.data if isinstance(v, Tensor) else v for k, v in kwargs.items()}
        if kwargs and any(isinstance(v, Tensor) and v.requires_grad for v in kwargs.values()):
            raise TypeError(
                f"{self.fn.__name__}: pass tensors that require grad positionally, so that "
                "their gradients can be matched to parameters")
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
        if positions and positions[-1] >= self._named_positions and self._var_positional:
            raise TypeError(
                f"{self.fn.__name__}: a tensor that requires grad was passed as argument "
                f"{positions[-1]}, which only *{self._var_positional} receives; give it a "
                "parameter of its own, so that its gradient can be matched to it")
        wrt = tuple(self.parameters[i] for i in positions)
        sources = [a for a in (*arrays, *kw_arrays.values()) if isinstance(a, np.ndarray)]
        if not wrt or not is_grad_enabled():
            return _wrap(graph.unaliased(self._checked(self.fn(*arrays, **kw_arrays)), sources))
        forward, backward = self._derivative(wrt)
        value, saved = forward(*arrays, **kw_arrays)
        value = graph.unaliased(self._checked(value), sources)
        single = not isinstance(value, (tuple, list))

        def backward_node(cotangents: tuple) -> tuple:
            grads = backward(output_cotangent(cotangents, value, single), saved)
            out: list[Any] = [None] * len(args)
            for position, g in zip(positions, grads, strict=True):
                out[position] = _like(g, arrays[position])
            return tuple(out)

        outputs = value if single else tuple(value)
        tensors_backward = None if kwargs or not self.records_backward else (
            self._tensors_backward(args, positions, [value] if single else list(value), single))
        return graph.record(self._node_class(tensors_backward is not None), list(args),
                            outputs, backward_node, tensors_backward)

    def _checked(self, value: Any) -> Any:
        """``value``, if tensors can be made of it: an array or number, or a tuple or list
        of them (tensors, one per item, as PyTorch's functions return them)."""
        items = value if isinstance(value, (tuple, list)) else (value,)
        for item in items:
            if isinstance(item, (dict, tuple, list, set)) or not (
                    isinstance(item, (np.ndarray, np.generic, int, float, complex, Tensor))):
                raise TypeError(
                    f"{self.fn.__name__} returned {type(item).__name__!r}"
                    f"{' inside a ' + type(value).__name__ if items is value else ''}: called "
                    "on tensors, an @sg.differentiable function returns an array, or a tuple "
                    "of arrays (one tensor each); return the arrays as a tuple")
        return value

    def _node_class(self, records_backward: bool) -> type:
        """The class of this function's nodes: named ``PredictBackward`` for ``predict``, a
        class of its own that knows the function (``sg.viz`` links a node to its source)."""
        base = graph.TensorsBackwardNode if records_backward else graph.Node
        key = (self.node_name, base)
        if key not in self._node_classes:
            self._node_classes[key] = type(self.node_name, (base,),
                                           {"__slots__": (), "function": self.fn})
        return self._node_classes[key]

    def _tensors_backward(self, args: tuple, positions: list[int], outputs: list[Any],
                          single: bool) -> Callable[[tuple], tuple]:
        """The node's backward under ``create_graph``: the gradient of ``<f(args), c>`` (one
        ``c`` per output) with respect to the tensors, which is the VJP of ``f`` at ``c``,
        computed by generated code that is itself ``@sg.differentiable``, so it records a
        node whose backward is generated code again."""

        def tensors_backward(cotangents: tuple) -> tuple:
            weights = [Tensor(np.zeros_like(out)) if c is None else c
                       for c, out in zip(cotangents, outputs, strict=True)]
            vjp = self._weighted_gradient(tuple(positions), len(outputs), single)
            grads = vjp(*args, *weights)
            out: list[Any] = [None] * len(args)
            for position, g in zip(positions, grads, strict=True):
                out[position] = g
            return tuple(out)

        return tensors_backward

    def _weighted_gradient(self, positions: tuple[int, ...], n_outputs: int,
                           single: bool) -> Differentiable:
        key = (positions, n_outputs, single)
        if key not in self._vjps:
            vjp = Differentiable(_weighted_gradient(self, positions, n_outputs, single))
            vjp.node_name = self.node_name + "Backward"  # (``PredictBackwardBackward``)
            vjp.records_backward = False
            self._vjps[key] = vjp
        return self._vjps[key]

    def _derivative(self, wrt: tuple[str, ...]) -> tuple[Callable, Callable]:
        pair = self._split.get(wrt)
        if pair is None or not pair[0]._sourcegrad_entry[0].valid():  # a helper redefined...
            pair = self._split[wrt] = pipeline.split_functions(self.fn, wrt)
        return pair


def _weighted_gradient(decorated: Differentiable, positions: tuple[int, ...], n_outputs: int,
                       single: bool) -> Callable:
    """``sg.grad`` of ``f_weighted(*params, *cotangents) = sum(np.sum(f(...)[i] *
    cotangents[i]))`` with respect to the parameters at ``positions``: a function written
    out as source (so that the transformer reads it), then differentiated."""
    fn, params = decorated.fn, decorated.parameters
    weights = [f"cotangent_{i}" for i in range(n_outputs)]
    while set(weights) & set(params) or fn.__name__ in params:
        weights = ["_" + w for w in weights]
    call = f"{fn.__name__}({', '.join(params)})"
    if single:
        total = f"np.sum({call} * {weights[0]})"
        body = f"    return {total}\n"
    else:
        total = " + ".join(f"np.sum(outputs[{i}] * {w})" for i, w in enumerate(weights))
        body = f"    outputs = {call}\n    return {total}\n"
    name = f"{fn.__name__}_weighted"
    source = f"def {name}({', '.join([*params, *weights])}):\n{body}"
    filename = pseudo_filename(name, source)
    register_lines(filename, source)
    namespace = {"np": np, fn.__name__: fn}
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102
    return api.grad(namespace[name], wrt=tuple(params[p] for p in positions))


def _is_module(value: Any) -> bool:
    from ..nn.module import Module  # (sg.nn is built on the runtime: not at the top)

    return isinstance(value, Module)


def _like(g: Any, x: np.ndarray) -> np.ndarray:
    """A cotangent with its input's shape and float dtype, as the engine accumulates it."""
    g = np.asarray(g, dtype=x.dtype if x.dtype.kind in "fc" else np.float64)
    return np.broadcast_to(g, x.shape) if g.shape != x.shape else g


def _wrap(value: Any) -> Any:
    """Tensors of the function's output(s), as a recorded call gives them: a tuple or a
    list, a tuple of tensors."""
    if isinstance(value, (tuple, list)):
        return tuple(_wrap(v) for v in value)
    return value if isinstance(value, Tensor) else Tensor(np.asarray(value))


def differentiable(fn: Callable) -> Differentiable:
    """Decorate a NumPy function so that, called on tensors, it is one differentiable node
    whose backward is its generated adjoint (CONTRACT section 2).

    On arrays it is the plain function; on tensors its gradient flows
    (``d/dw tanh(x @ w) = (1 - tanh**2) x``, which is ``x`` at ``w = 0``):

    >>> @sg.differentiable
    ... def predict(w, x):
    ...     return np.tanh(x @ w)
    >>> float(predict(np.zeros(2), np.array([1.0, 2.0])))
    0.0
    >>> w = sg.tensor([0.0, 0.0], requires_grad=True)
    >>> predict(w, np.array([1.0, 2.0])).backward()
    >>> w.grad
    tensor([1., 2.])
    """
    return Differentiable(fn)


def output_cotangent(cotangents: tuple, value: Any, single: bool) -> Any:
    """What a generated adjoint takes for the node's outputs: the one cotangent, or a tuple
    with zeros for the outputs no gradient reached (the engine passes ``None`` there)."""
    if single:
        return cotangents[0]
    return tuple(np.zeros_like(v) if c is None else c
                 for c, v in zip(cotangents, value, strict=True))
