"""The recorded graph and the backward engine.

Every operation on tensors that require grad goes through one function::

    record(name, inputs, outputs, backward) -> Tensor | tuple[Tensor, ...]

``outputs`` are the forward results, already computed on plain arrays (one ndarray, or a
sequence of them); ``backward`` maps a tuple holding one cotangent per output (an ndarray,
or ``None`` where no gradient reached that output) to a tuple holding one cotangent per
input (an ndarray, or ``None`` for "no gradient"). ``record`` creates ONE node named
``name`` (``MulBackward0``, ``PredictBackward``, ...) and returns the outputs wrapped as
tensors whose ``grad_fn`` is that node. When grad mode is off, or no input requires grad,
it records nothing and returns tensors without history. A function decorated with
``@sg.differentiable`` is such a call whose ``backward`` runs its generated adjoint.

A primitive NumPy operation, the most frequent by far, is recorded by ``record_saved``: its
node (a ``SavedValuesNode``) keeps only the values the rule reads, and its backward, shared
by every call of the primitive with the same pattern of arguments, is the rule table's VJPs
prepared once (``dispatch.Plan``). Recording it builds no closure; the engine does not know
the difference.

The engine (``run_backward``) walks the graph in topological order with an explicit stack
and dependency counts, never recursion, so graphs of any depth work. Cotangents reaching a
leaf are accumulated into its ``.grad`` in place (the same array object from one backward
call to the next, as in PyTorch). A node's ``backward`` closure (or saved values) holds
everything it saved; after a backward pass that does not retain the graph, what it saved
is dropped, which makes a second pass through the node an error (a primitive's node that
saved only shapes, such as ``AddBackward0``, keeps them and may run again, as in PyTorch).
With ``create_graph``, cotangents are tensors and each node's backward records its own
graph (``Node.apply_tensors``); with ``autograd.grad`` only the nodes leading to the
requested tensors run.
The engine's loop runs once per node: it is written with that in mind (no generator or
keyword arguments per node, rare cases such as hooks behind one test).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .grad_mode import _set as set_grad_mode
from .grad_mode import is_grad_enabled

if TYPE_CHECKING:
    from .tensor import Tensor

Cotangents = tuple[Any, ...]
BackwardFn = Callable[[Cotangents], Cotangents]
Edge = tuple["Node | None", int]

SECOND_BACKWARD_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)

_NO_EDGE: Edge = (None, 0)
_FLOAT64 = np.dtype(np.float64)
_new_object = object.__new__

# Set by tensor.py once ``Tensor`` exists (tensor.py needs this module first).
_Tensor: type[Tensor] = None  # type: ignore[assignment]


class Node:
    """One recorded operation: PyTorch's ``grad_fn``.

    ``next_functions`` holds one ``(node, output_index)`` edge per input, ``(None, 0)`` for
    an input that does not require grad, exactly as PyTorch shows it. ``_input_meta`` holds
    the array of each tensor input (``None`` for other inputs): the cotangent of an input
    that requires grad must have that array's shape and dtype.
    """

    __slots__ = ("next_functions", "_backward", "_input_meta", "_n_outputs", "_hooks",
                 "_retained", "_versions", "__weakref__")

    def __init__(self, next_functions: tuple[Edge, ...], backward: BackwardFn | None,
                 input_meta: tuple[np.ndarray | None, ...], n_outputs: int = 1) -> None:
        self.next_functions = next_functions
        self._n_outputs = n_outputs
        self._backward = backward
        self._input_meta = input_meta
        self._hooks: dict[int, list[Callable]] | None = None
        self._retained: dict[int, weakref.ref] | None = None
        # The saved tensors: what this node's backward reads, which must not have been
        # modified in place since (see ``_modified_message`` for an entry's fields).
        self._versions: Sequence[tuple] = ()

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    def apply(self, grads: Cotangents) -> Cotangents:
        if self._backward is None:
            raise RuntimeError(SECOND_BACKWARD_MESSAGE)
        self._check_versions()
        return self._backward(grads)

    def apply_tensors(self, grads: Cotangents) -> Cotangents:
        """``apply`` under ``create_graph``: cotangents are tensors, and so are the results,
        with a history of their own. A backward function made of NumPy code (``record``'s)
        cannot record one: its results refuse to be differentiated (as a PyTorch function
        marked ``once_differentiable`` does) rather than pass for constants."""
        results = self.apply(tuple(g.data if isinstance(g, _Tensor) else g for g in grads))
        return _once_differentiable(self, grads, results)

    def _check_versions(self) -> None:
        """Refuse to run on saved values modified in place since they were recorded."""
        for entry in self._versions:
            if entry[0][0] != entry[1]:
                raise RuntimeError(_modified_message(self, entry))

    def free(self) -> None:
        """Drop the backward closure and the references to saved data."""
        self._backward = None
        self._versions = ()
        self._input_meta = ()

    def add_hook(self, output_nr: int | str, hook: Callable) -> RemovableHandle:
        """A hook on the tensor that is output ``output_nr``: runs on its gradient. (The
        node's own hooks are kept in the same dictionary, under ``"pre"`` and ``"post"``,
        so that a node without hooks costs one attribute.)"""
        if self._hooks is None:
            self._hooks = {}
        hooks = self._hooks.setdefault(output_nr, [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_prehook(self, hook: Callable[[tuple], tuple | None]) -> RemovableHandle:
        """``hook(grad_outputs)`` before the node's backward runs, after the tensors'
        hooks; a tuple it returns replaces the gradients (PyTorch's ``Node`` API)."""
        return self.add_hook("pre", hook)

    def register_hook(self, hook: Callable[[tuple, tuple], tuple | None]) -> RemovableHandle:
        """``hook(grad_inputs, grad_outputs)`` after the node's backward ran; a tuple it
        returns replaces ``grad_inputs``."""
        return self.add_hook("post", hook)

    def __call__(self, *grads: Any) -> Any:
        """The node's backward on ``grads`` (one per output), as PyTorch lets one call it."""
        if len(grads) != self._n_outputs:
            raise TypeError(f"{self.name()}: expected {self._n_outputs} arguments, got "
                            f"{len(grads)} instead")
        arrays = tuple(None if g is None else np.asarray(g.data if isinstance(g, _Tensor) else g)
                       for g in grads)
        results = tuple(None if r is None else _Tensor(np.asarray(r))
                        for r in self.apply(arrays))
        return results[0] if len(results) == 1 else results

    def retain(self, output_nr: int, tensor: Tensor) -> None:
        if self._retained is None:
            self._retained = {}
        self._retained[output_nr] = weakref.ref(tensor)

    def forget_retained(self, output_nr: int) -> None:
        if self._retained is not None:
            self._retained.pop(output_nr, None)


class RemovableHandle:
    """Returned by ``register_hook`` and its kin: ``.remove()`` unregisters the hook."""

    def __init__(self, hooks: list, hook: Callable) -> None:
        self._hooks = hooks
        self._hook = hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


def _modified_message(node: Node, entry: tuple) -> str:
    """PyTorch's words for a saved value changed in place after it was recorded. An entry
    is (version counter, version when saved, subject, which): ``which >= 0`` for the node's
    input of that index, whose tensor is the subject (PyTorch names its ``grad_fn`` as it
    is now); ``which < 0`` for the node's output ``-1 - which``, whose array is the subject
    (named after the node itself)."""
    box, expected, subject, which = entry
    if which < 0:
        data, producer, nr = subject, node, -1 - which
    else:
        data, producer, nr = subject.data, subject.grad_fn, subject._output_nr
    of = "" if producer is None else (
        f", which is output {nr} of {re.sub(r'Backward[0-9]*$', '', producer.name())},")
    return ("one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [sg.{data.dtype.name} {list(data.shape)}]{of} is at "
            f"version {box[0]}; expected version {expected} instead.")


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: adds what reaches it into ``variable.grad``."""

    __slots__ = ("variable",)

    def __init__(self, variable: Tensor) -> None:
        super().__init__((), None, ())
        self.variable = variable

    def apply(self, grads: Cotangents) -> Cotangents:
        accumulate_into(self.variable, grads[0])
        if self._hooks and "post_accumulate" in self._hooks:
            for hook in list(self._hooks["post_accumulate"]):
                returned = hook(self.variable)
                if returned is None or returned is self.variable:  # (``t.sub_(...)``: t)
                    continue
                if not isinstance(returned, _Tensor):
                    raise TypeError("expected Variable, but hook returned "
                                    f"'{type(returned).__name__}'")
                raise RuntimeError("Tensor post accumulate grad hooks should return None.")
        return ()

    apply_tensors = apply

    def free(self) -> None:
        """A leaf's accumulator saves nothing and serves every graph the leaf is used in."""


class SavedValuesNode(Node):
    """A node whose ``_backward`` is shared by every node of its kind (a rule's VJPs, see
    ``dispatch.Plan``) and called as ``_backward.cotangents(grads, saved)`` on the values
    this node saved: recording one needs no closure.

    After a backward pass that does not retain the graph, the saved values are dropped only
    if the backward reads one (``Plan.keeps_values``): a node reading nothing but shapes
    saved no tensor in PyTorch's sense, and PyTorch lets its backward run again."""

    __slots__ = ("_saved",)

    def apply(self, grads: Cotangents) -> Cotangents:
        backward = self._backward
        if backward is None:
            raise RuntimeError(SECOND_BACKWARD_MESSAGE)
        for entry in self._versions:
            if entry[0][0] != entry[1]:
                self._check_versions()  # raises, with PyTorch's message
        return backward.cotangents(grads, self._saved)

    def apply_tensors(self, grads: Cotangents) -> Cotangents:
        backward = self._backward
        if backward is None:
            raise RuntimeError(SECOND_BACKWARD_MESSAGE)
        self._check_versions()
        return backward.recorded_cotangents(self, grads)

    def free(self) -> None:
        backward = self._backward
        # (``backward.frees(saved)``, its common answers first: once per node per backward)
        if backward is not None and (backward.keeps_values or backward.frees(self._saved)):
            self._backward = None
            self._versions = ()
            self._saved = None


class TensorsBackwardNode(Node):
    """A ``record``ed node with a second backward function for ``create_graph``, taking and
    returning tensors (``@sg.differentiable``'s: its generated adjoint, differentiated)."""

    __slots__ = ("_tensors_backward",)

    def apply_tensors(self, grads: Cotangents) -> Cotangents:
        if self._tensors_backward is None:
            raise RuntimeError(SECOND_BACKWARD_MESSAGE)
        self._check_versions()
        return self._tensors_backward(grads)

    def free(self) -> None:
        super().free()
        self._tensors_backward = None


def _once_differentiable(node: Node, grads: Cotangents, results: Cotangents) -> Cotangents:
    """``results`` as tensors whose own backward refuses to run (see ``apply_tensors``);
    they depend on the cotangents and on the node's inputs, so that they require grad
    whenever their true history would."""
    edges = tuple(edge_of(g) for g in grads if isinstance(g, _Tensor)) + node.next_functions
    if all(child is None for child, _ in edges):
        return tuple(None if r is None else _Tensor(np.asarray(r)) for r in results)
    name = node.name()

    def refuse(_: Cotangents) -> Cotangents:
        raise RuntimeError(f"trying to differentiate twice through {name}, whose backward is "
                           "NumPy code sourcegrad does not record: its gradient has no "
                           "history to differentiate")

    twice = node_class(f"{name}Backward")(edges, refuse, (None,) * len(edges), len(results))
    return tuple(None if r is None else output_of(twice, nr, np.asarray(r))
                 for nr, r in enumerate(results))


_NODE_CLASSES: dict[tuple[str, type[Node]], type[Node]] = {}


def node_class(name: str, base: type[Node] = Node) -> type[Node]:
    """The subclass of ``base`` called ``name``, so ``type(t.grad_fn).__name__`` reads as in
    PyTorch (``MulBackward0``)."""
    cls = _NODE_CLASSES.get((name, base))
    if cls is None:
        cls = _NODE_CLASSES[name, base] = type(name, (base,), {"__slots__": ()})
    return cls


def edge_of(tensor: Tensor) -> Edge:
    """Where a gradient for ``tensor`` goes: its ``grad_fn``, its leaf accumulator, or
    nowhere."""
    grad_fn = tensor._grad_fn if tensor._view is None else tensor.grad_fn
    if grad_fn is not None:
        return grad_fn, tensor._output_nr
    if tensor._requires_grad:
        return tensor._accumulator(), 0
    return _NO_EDGE


def record(name: str | type[Node], inputs: Sequence[Any], outputs: Any,
           backward: BackwardFn, tensors_backward: BackwardFn | None = None) -> Any:
    """Wrap ``outputs`` (an ndarray, or a list or tuple of them) as tensors produced by one
    node ``name`` (or of that node class) whose gradient function is ``backward`` (see the
    module docstring). Integer and boolean outputs carry no gradient, as in PyTorch. With
    ``tensors_backward`` (tensors in, tensors out: ``create_graph``), the node is a
    ``TensorsBackwardNode`` (a class given must be one)."""
    single = not isinstance(outputs, (list, tuple))
    arrays = [np.asarray(outputs)] if single else [np.asarray(o) for o in outputs]
    if is_grad_enabled():
        edges, meta, versions = _inputs_of(inputs)
        if edges is not None:
            base = Node if tensors_backward is None else TensorsBackwardNode
            cls = name if isinstance(name, type) else node_class(name, base)
            node = cls(edges, backward, meta, len(arrays))
            if tensors_backward is not None:
                node._tensors_backward = tensors_backward
            results = _outputs_of(node, arrays, versions)
            return results[0] if single else tuple(results)
    results = [_Tensor(a) for a in arrays]
    return results[0] if single else tuple(results)


def unaliased(value: Any, sources: Sequence[np.ndarray]) -> Any:
    """``value`` (an output, or a tuple or list of them, of a function run on the arrays
    inside tensors: ``@sg.differentiable``'s) with each array that shares memory with one of
    ``sources`` (the tensors' arrays) or with another output replaced by a copy. A tensor
    made around such an array would change its input, or its sibling, behind their version
    counters: ``y = f(h); y.mul_(2)`` on ``def f(a): return a[0]`` would alter ``h``
    unnoticed, and a gradient that read ``h`` would silently be wrong."""
    if isinstance(value, (tuple, list)):
        kept: list[Any] = []
        for item in value:
            kept.append(unaliased(item, [*sources, *(k for k in kept
                                                      if isinstance(k, np.ndarray))]))
        return kept if isinstance(value, list) else tuple(kept)
    if isinstance(value, np.ndarray) and any(
            isinstance(s, np.ndarray) and np.may_share_memory(value, s) for s in sources):
        return value.copy()
    return value


def also_saved(outputs: Any, tensors: Sequence[Tensor]) -> None:
    """Note ``tensors`` as read by the backward of the node that made ``outputs`` (a
    tensor or a tuple of them) though they are not its inputs: a module's frozen parameters
    and buffers, which its decorated method reads as constants. Modified in place before
    that backward runs, they make it an error, as a saved input does."""
    node = next((out._grad_fn for out in (outputs if isinstance(outputs, tuple) else (outputs,))
                 if out._grad_fn is not None), None)  # (an integer output has none)
    if node is not None and tensors:
        node._versions = (*node._versions,
                          *[(t._vbox, t._vbox[0], t, 0) for t in tensors])


def record_saved(cls: type[SavedValuesNode], backward: Any, inputs: Sequence[Tensor],
                 output: np.ndarray, saved: Any) -> Tensor:
    """``record`` of one output for a node of class ``cls`` whose shared ``backward`` (a
    ``dispatch.Plan``) reads ``saved``. The caller has checked that grad mode is on and that
    an input requires grad; ``inputs`` are all tensors. Every primitive operation on tensors
    comes here, so ``edge_of`` and the constructors are written out (one tensor input being
    the most frequent case)."""
    output_box = [0]  # the output's version counter
    if len(inputs) == 1:
        (t,) = inputs
        grad_fn = t._grad_fn if t._view is None else t.grad_fn
        edges = ((grad_fn, t._output_nr) if grad_fn is not None
                 else (t._accum or t._accumulator(), 0) if t._requires_grad else _NO_EDGE,)
        metas = (t.data,)
    else:
        edges, metas = _saved_inputs_of(inputs)
    # The saved tensors (``_modified_message`` for the fields), as the plan says.
    saved_inputs = backward.saved_inputs
    if saved_inputs:
        versions: tuple = tuple([(inputs[k]._vbox, inputs[k]._vbox[0], inputs[k], k)
                                 for k in saved_inputs])
        if backward.saves_ans:
            versions += ((output_box, 0, output, -1),)
    else:
        versions = ((output_box, 0, output, -1),) if backward.saves_ans else ()
    # ``cls(edges, backward, metas)``, written out (a call costs more than these lines):
    # keep in step with Node.__init__ (a test checks that no attribute is left unset).
    node = _new_object(cls)
    node.next_functions = edges
    node._n_outputs = 1
    node._backward = backward
    node._input_meta = metas
    node._hooks = None
    node._retained = None
    node._versions = versions
    node._saved = saved
    dtype = output.dtype
    if dtype is _FLOAT64 or dtype.kind in "fc":
        # ``_Tensor(output)`` with this history, written out: keep in step with its __init__.
        tensor = _new_object(_Tensor)
        tensor.data = output
        tensor._grad_fn = node
        tensor._output_nr = 0
        tensor._requires_grad = False
        tensor._grad = None
        tensor._accum = None
        tensor._retains_grad = False
        tensor._view = None
    else:
        tensor = _Tensor(output)  # an integer result carries no gradient
    tensor._vbox = output_box
    return tensor


def saved_node(cls: type[SavedValuesNode], backward: Any, inputs: Sequence[Tensor],
               saved: Any, n_outputs: int, private: Sequence[int] = ()) -> SavedValuesNode:
    """A node like ``record_saved``'s, for any number of outputs, whose tensors the caller
    makes; the saved inputs at the indices ``private`` are copies of their own (no version
    to check). The entries of saved outputs are the caller's to add."""
    edges, metas = _saved_inputs_of(inputs)
    node = cls(edges, backward, metas, n_outputs)
    node._saved = saved
    node._versions = tuple([(inputs[k]._vbox, inputs[k]._vbox[0], inputs[k], k)
                            for k in backward.saved_inputs if k not in private])
    return node


def _saved_inputs_of(inputs: Sequence[Tensor]) -> tuple[tuple, tuple]:
    """``record_saved``'s edges and input arrays of several tensor inputs."""
    edges, metas = [], []
    for t in inputs:
        grad_fn = t._grad_fn if t._view is None else t.grad_fn
        edges.append((grad_fn, t._output_nr) if grad_fn is not None
                     else (t._accum or t._accumulator(), 0) if t._requires_grad
                     else _NO_EDGE)
        metas.append(t.data)
    return tuple(edges), tuple(metas)


def _inputs_of(inputs: Sequence[Any]) -> tuple[tuple[Edge, ...] | None, tuple, list]:
    """The inputs' edges (``edge_of``), their ``_input_meta`` and the versions of the
    tensors among them (``_versions`` below); edges are ``None`` if no input requires grad.
    One plain loop: this runs once per recorded operation."""
    edges, metas, versions, live = [], [], [], False
    for k, t in enumerate(inputs):
        if not isinstance(t, _Tensor):
            edges.append(_NO_EDGE)
            metas.append(None)
            continue
        edge = edge_of(t)
        edges.append(edge)
        live = live or edge is not _NO_EDGE
        metas.append(t.data)
        versions.append((t._vbox, t._vbox[0], t, k))
    return (tuple(edges) if live else None), tuple(metas), versions


def _outputs_of(node: Node, arrays: list[np.ndarray], versions: list) -> list[Tensor]:
    """The node's outputs as tensors; with them, ``versions`` (of its inputs) becomes the
    node's record of what its backward reads."""
    results = [_output_of(node, i, a, versions) for i, a in enumerate(arrays)]
    node._versions = versions
    return results


def output_of(node: Node, nr: int, array: np.ndarray) -> Tensor:
    """Output ``nr`` of ``node`` as a tensor (without history if it is not floating, as in
    PyTorch)."""
    tensor = _Tensor(array)
    if array.dtype.kind in "fc":
        tensor._grad_fn, tensor._output_nr = node, nr
    return tensor


def unpacked(child: Node, nr: int, array: np.ndarray) -> Tensor:
    """A saved input as a tensor with the history it had (``create_graph``): the leaf
    itself, or a tensor whose ``grad_fn`` is the node that made it."""
    if isinstance(child, AccumulateGrad):
        return child.variable
    return output_of(child, nr, array)


def _output_of(node: Node, nr: int, array: np.ndarray, versions: list) -> Tensor:
    """Output ``nr`` of ``node`` as a tensor (without history if it is not floating, as in
    PyTorch), noted in ``versions`` as a saved output (see ``_modified_message``)."""
    tensor = output_of(node, nr, array)
    versions.append((tensor._vbox, 0, array, -1 - nr))
    return tensor


# ---------------------------------------------------------------- the backward engine


def root_gradients(outputs: Sequence[Tensor], gradients: Sequence[Any],
                   create_graph: bool = False) -> list[Any]:
    """The cotangents backward starts from: ``gradients`` checked against the outputs'
    shapes, or ones for a scalar output, with PyTorch's errors. Arrays, or under
    ``create_graph`` tensors (a gradient given as a tensor keeps its history)."""
    grads: list[Any] = []
    for i, (out, grad) in enumerate(zip(outputs, gradients, strict=True)):
        dtype = out.data.dtype
        if grad is None:
            if out.requires_grad and out.data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            grad = np.ones(out.data.shape, dtype)
        elif not (create_graph and isinstance(grad, _Tensor)):
            grad = np.asarray(grad.data if isinstance(grad, _Tensor) else grad)
        shape = grad.data.shape if isinstance(grad, _Tensor) else grad.shape
        if shape != out.data.shape:
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {_size(shape)} and "
                f"output[{i}] has a shape of {_size(out.data.shape)}.")
        if isinstance(grad, _Tensor):
            grads.append(grad if grad.data.dtype == dtype else grad.to(dtype))
        else:
            grad = grad.astype(dtype, copy=False)
            grads.append(_Tensor(grad) if create_graph else grad)
    return grads


def _size(shape: tuple[int, ...]) -> str:
    return f"sg.Size({list(shape)})"


def backward(roots: Sequence[Tensor], gradients: Sequence[Any], retain_graph: bool | None,
             create_graph: bool, inputs: Sequence[Tensor] | None) -> None:
    """``Tensor.backward`` and ``sg.autograd.backward``: gradients of ``roots`` (weighted by
    ``gradients``) accumulated into the leaves' ``.grad``, or into ``inputs``' only."""
    grads = root_gradients(roots, gradients, create_graph)
    retain = create_graph if retain_graph is None else bool(retain_graph)
    if inputs is None:
        run_backward(roots, grads, retain, create_graph=create_graph)
        return
    if not inputs:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    captured = run_backward(roots, grads, retain, inputs, create_graph, into_leaves=True)
    done: set[int] = set()  # (a tensor given twice gets its gradient once, as in PyTorch)
    for tensor, grad in zip(inputs, captured, strict=True):
        if tensor.grad_fn is not None and id(tensor) not in done:  # (a leaf's node ran)
            done.add(id(tensor))
            tensor.retain_grad()  # a non-leaf input retains its gradient, as in PyTorch
            if grad is not None:
                accumulate_into(tensor, grad, in_place=False)


def run_backward(roots: Sequence[Tensor], root_grads: Sequence[Any], retain_graph: bool,
                 capture: Sequence[Tensor] | None = None, create_graph: bool = False,
                 into_leaves: bool = False) -> list | None:
    """Propagate ``root_grads`` from ``roots`` to the leaves.

    With ``capture`` (``autograd.grad``), nothing is accumulated into ``.grad``: the
    gradients reaching the captured tensors are returned instead, ``None`` for a tensor the
    graph does not reach; ``into_leaves`` (``backward(inputs=...)``) runs the captured
    tensors' nodes too (a leaf's accumulates, hooks and all). Only the nodes on a path to
    a captured tensor run. With ``create_graph``, the cotangents are tensors and every
    node's backward is recorded (``Node.apply_tensors``), grad mode on; without, grad mode
    is off while hooks run, as in PyTorch.
    """
    previous = is_grad_enabled()
    set_grad_mode(create_graph)
    try:
        return _run(roots, root_grads, retain_graph, capture, create_graph, into_leaves)
    finally:
        set_grad_mode(previous)


def _run(roots: Sequence[Tensor], root_grads: Sequence[Any], retain_graph: bool,
         capture: Sequence[Tensor] | None, create_graph: bool, into_leaves: bool
         ) -> list | None:
    root_edges = []
    for i, root in enumerate(roots):
        edge = edge_of(root)
        if edge[0] is None:
            raise RuntimeError(
                f"element {i} of tensors does not require grad and does not have a grad_fn")
        root_edges.append(edge)
    # (one tensor may be asked for more than once: ``autograd.grad(y, [x, x])``)
    targets: dict[Edge, list[int]] = {}
    for k, tensor in enumerate(capture or ()):
        targets.setdefault(edge_of(tensor), []).append(k)
    captured: list = [None] * len(capture or ())
    capturing = capture is not None
    starts = [node for node, _ in root_edges]
    # Capturing (``autograd.grad``, ``backward(inputs=...)``), only the nodes on a path to
    # a captured tensor run, as in PyTorch: no other hook fires, no other saved value is
    # freed.
    relevant, needed = _pruned(starts, {node for node, _ in targets}) if capturing else (
        None, None)
    if into_leaves:  # (``.backward(inputs=...)`` runs the captured tensors' nodes, too)
        needed |= {node for node, _ in targets}
    dependencies = _count_dependencies(starts, relevant)
    buffers: dict[Node, list] = {}
    for (node, nr), grad in zip(root_edges, root_grads, strict=True):
        _add_to_buffer(buffers, node, nr, grad)
    ready = [node for node in dict.fromkeys(n for n, _ in root_edges) if not dependencies[node]]
    take_buffer = buffers.pop
    while ready:
        node = ready.pop()
        grads = take_buffer(node, None) or [None] * node._n_outputs
        if node._hooks or node._retained:
            _apply_hooks(node, grads, retain=not capturing)
        if targets:
            _capture(targets, node, grads, captured)
        if needed is not None and node not in needed:
            continue  # a captured tensor's node, with no other captured one beyond
        if grads[0] is None and _all_none(grads):
            _pass_on(node, (None,) * len(node.next_functions), buffers, dependencies, ready)
            continue
        hooks = node._hooks
        if hooks and ("pre" in hooks or "post" in hooks):
            results = _apply_with_node_hooks(node, grads, create_graph)
        else:
            results = node.apply_tensors(tuple(grads)) if create_graph else node.apply(
                tuple(grads))
        _pass_on(node, results, buffers, dependencies, ready)
        if not retain_graph:
            node.free()
    return captured if capturing else None


def _pass_on(node: Node, input_grads: Cotangents, buffers: dict[Node, list],
             dependencies: dict[Node, int], ready: list[Node]) -> None:
    """Add the node's input cotangents to its children's buffers; a child whose last
    dependency this was is ready."""
    edges = node.next_functions
    if len(input_grads) != len(edges):
        raise RuntimeError(f"{node.name()} returned {len(input_grads)} gradients for "
                           f"{len(edges)} inputs")
    metas = node._input_meta
    for i, (child, nr) in enumerate(edges):  # (zip with a keyword costs more, per node)
        if child is None:
            continue
        remaining = dependencies[child]
        if remaining < 0:  # a node pruned away (``_count_dependencies``)
            continue
        grad = input_grads[i]
        if grad is not None:
            meta = metas[i]
            if type(grad) is not np.ndarray or grad.shape != meta.shape or (
                    grad.dtype is not meta.dtype):
                grad = _conform(grad, meta, node)
            slots = buffers.get(child)
            if slots is None:
                slots = buffers[child] = [None] * child._n_outputs
            previous = slots[nr]
            slots[nr] = grad if previous is None else previous + grad
        remaining -= 1
        dependencies[child] = remaining
        if not remaining:
            ready.append(child)


_PRUNED = -1


def _count_dependencies(starts: Any, relevant: set | None = None) -> dict[Node, int]:
    """How many edges point at each node reachable from ``starts`` (iterative DFS); the
    nodes outside ``relevant``, when given, are marked ``_PRUNED`` and not entered."""
    dependencies: dict[Node, int] = {}
    stack = []
    for node in starts:
        if node not in dependencies:
            dependencies[node] = 0
            stack.append(node)
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            if relevant is not None and child not in relevant:
                dependencies[child] = _PRUNED  # never ready, never given a gradient
                continue
            if child not in dependencies:
                dependencies[child] = 0
                stack.append(child)
            dependencies[child] += 1
    return dependencies


def _pruned(starts: list[Node], targets: set[Node]) -> tuple[set[Node], set[Node]]:
    """The nodes from which a target is reachable (``relevant``: targets included), and
    those with a relevant node beyond them (``needed``: their backward must run). One
    iterative depth-first pass, children before parents."""
    reaches: dict[Node, bool] = {}
    stack = [(node, False) for node in starts]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            reaches[node] = node in targets or any(
                reaches.get(child, False) for child, _ in node.next_functions)
            continue
        if node in reaches:
            continue
        reaches[node] = False  # (being visited; set for good once its children are)
        stack.append((node, True))
        stack.extend((child, False) for child, _ in node.next_functions
                     if child is not None and child not in reaches)
    relevant = {node for node, reached in reaches.items() if reached}
    needed = {node for node in relevant
              if any(child in relevant for child, _ in node.next_functions)}
    return relevant, needed


def _add_to_buffer(buffers: dict[Node, list], node: Node, nr: int, grad: np.ndarray) -> None:
    """Add ``grad`` to what has reached output ``nr`` of ``node`` (a new array: a
    cotangent may be aliased by the rule that returned it). ``_pass_on`` does the same,
    written out."""
    slots = buffers.get(node)
    if slots is None:
        slots = buffers[node] = [None] * node._n_outputs
    previous = slots[nr]
    slots[nr] = grad if previous is None else previous + grad


def _apply_with_node_hooks(node: Node, grads: list, create_graph: bool) -> Cotangents:
    """The node's backward between its pre-hooks and its post-hooks (tensors in, tensors
    out: the hooks see what PyTorch's would)."""
    outputs = tuple(grads)
    for hook in list(node._hooks.get("pre", ())):
        replaced = hook(_as_tensors(outputs))
        if replaced is not None:
            _check_hook_result(hook, replaced, len(outputs))
            outputs = tuple(replaced) if create_graph else _as_arrays(replaced)
    inputs = node.apply_tensors(outputs) if create_graph else node.apply(outputs)
    for hook in list(node._hooks.get("post", ())):
        replaced = hook(_as_tensors(inputs), _as_tensors(outputs))
        if replaced is not None:
            _check_hook_result(hook, replaced, len(inputs))
            inputs = tuple(replaced) if create_graph else _as_arrays(replaced)
    return inputs


def _check_hook_result(hook: Callable, returned: Any, expected: int) -> None:
    if len(returned) != expected:
        name = getattr(hook, "__name__", type(hook).__name__)
        raise RuntimeError(f"hook '{name}' has returned an incorrect number of values (got "
                           f"{len(returned)}, but expected {expected})")


def _as_tensors(grads: Sequence[Any]) -> tuple:
    return tuple(g if g is None or isinstance(g, _Tensor) else _Tensor(np.asarray(g))
                 for g in grads)


def _as_arrays(grads: Sequence[Any]) -> tuple:
    return tuple(g.data if isinstance(g, _Tensor) else g for g in grads)


def _apply_hooks(node: Node, grads: list, retain: bool) -> None:
    """The gradients of the node's outputs once the tensors' hooks have seen them (in
    place); retained non-leaf tensors get theirs here. (The node's own hooks, under string
    keys, run around its backward: ``_apply_with_node_hooks``.)"""
    if node._hooks:
        for nr, hooks in list(node._hooks.items()):
            if type(nr) is int and nr < len(grads) and grads[nr] is not None:
                grads[nr] = _run_hooks(hooks, grads[nr])
    if retain and node._retained:
        for nr, ref in node._retained.items():
            tensor = ref()
            if tensor is not None and nr < len(grads) and grads[nr] is not None:
                accumulate_into(tensor, grads[nr], in_place=False)


def _capture(targets: dict[Edge, list[int]], node: Node, grads: list, captured: list
             ) -> None:
    """``autograd.grad``: keep the gradients reaching the requested tensors."""
    for nr, grad in enumerate(grads):
        for k in targets.get((node, nr), ()):
            captured[k] = grad


def _run_hooks(hooks: list[Callable], grad: Any) -> Any:
    """The gradient once the hooks have seen it: an array, or a tensor under create_graph
    (a hook's tensor result is then kept, history and all)."""
    as_tensor = isinstance(grad, _Tensor)
    for hook in list(hooks):  # (a hook may remove itself or another)
        replaced = hook(grad if as_tensor else _Tensor(grad))
        if replaced is not None:
            if as_tensor:
                grad = replaced if isinstance(replaced, _Tensor) else _Tensor(np.asarray(replaced))
            else:
                grad = replaced.data if isinstance(replaced, _Tensor) else np.asarray(replaced)
    return grad


def _all_none(grads: list) -> bool:
    for grad in grads:
        if grad is not None:
            return False
    return True


def _conform(grad: Any, input_array: np.ndarray, node: Node) -> np.ndarray:
    """The cotangent as an array of its input's shape and dtype; a shape that does not
    match is a bug in a rule or a backward function, reported rather than broadcast."""
    shape, dtype = input_array.shape, input_array.dtype
    if isinstance(grad, _Tensor):  # create_graph: a cast keeps the history
        if grad.data.shape != shape:
            raise RuntimeError(f"{node.name()} returned a gradient of shape {grad.data.shape} "
                               f"for an input of shape {shape}")
        return grad if grad.data.dtype == dtype else grad.to(dtype)
    if type(grad) is not np.ndarray:
        grad = np.asarray(grad)
    if grad.shape != shape:
        raise RuntimeError(f"{node.name()} returned a gradient of shape {grad.shape} for an "
                           f"input of shape {shape}")
    return grad if grad.dtype == dtype else grad.astype(dtype)


def accumulate_into(tensor: Tensor, grad: np.ndarray, in_place: bool = True) -> None:
    """``tensor.grad += grad``, updating the existing array in place once it exists (a
    leaf's, as in PyTorch, counted as an in-place modification of ``.grad``; a retained
    gradient of a non-leaf is a new tensor each time)."""
    dtype = tensor.data.dtype
    if isinstance(grad, _Tensor):  # create_graph: the gradient keeps its history
        if tensor._grad is None:  # a copy of its own (PyTorch's CopyBackwards)
            tensor._grad = _Tensor(np.empty_like(grad.data)).copy_(grad)
        else:
            tensor._grad = tensor._grad + grad
        return
    if tensor._grad is None:
        tensor._grad = _Tensor(np.array(grad, dtype=dtype, copy=True).reshape(tensor.data.shape))
    elif in_place:
        np.add(tensor._grad.data, grad, out=tensor._grad.data, casting="unsafe")
        tensor._grad._vbox[0] += 1  # (a graph that saved the old .grad must not read this)
    else:
        tensor._grad = _Tensor((tensor._grad.data + grad).astype(dtype, copy=False))
