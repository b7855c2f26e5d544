"""Views: tensors sharing their base's memory and version counter, as in PyTorch.

``x.view(2, 3)``, ``x[1:]``, ``x.T``, ``x.expand(...)``, ``x.unsqueeze(0)``... return a
tensor whose array is a NumPy view of ``x``'s: writing into one writes into the other, and
both count their in-place modifications in one version counter (``_vbox``). A view
remembers its *root* base (never itself a view: PyTorch's ``_base``) and the steps that
make it from the base (``ViewInfo.steps``, each a primitive of the rule table and its
arguments), so that:

- an in-place operation on a view is recorded on the base: the base's ``grad_fn`` becomes a
  ``CopySlices`` node (the base's old history outside the view's region, the operation's
  node inside it), as PyTorch does;
- once the base (or any view of it) has been modified in place, a view's ``grad_fn`` is made
  again from the base's history, as an ``AsStridedBackward0`` node, when it is next asked
  for (PyTorch does it at the same moment, for the same reason: the old one describes data
  that no longer exists). Hooks registered on the old ``grad_fn`` stay with it; a retained
  gradient moves to the new one.

Every derivative here is a rule's: the view steps' VJPs (``getitem``, ``reshape``...) and
``index_put``'s, so the nodes can record their own graph under ``create_graph``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import SourcegradError
from ..rules import support
from ..rules.registry import lookup
from . import graph

if TYPE_CHECKING:
    from .tensor import Tensor

NO_GRAD_VIEW_MESSAGE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace "
    "to be tracked)."
)
MULTI_OUTPUT_VIEW_MESSAGE = (
    "Output {nr} of {name} is a view and {what}. This view is the output of a function that "
    "returns multiple views. Such functions do not allow the output views to be modified "
    "inplace. You should replace the inplace operation by an out-of-place one."
)
_MODIFIED = "is being modified inplace"
_BASE_MODIFIED = "its base or another view of its base has been modified inplace"


# One view-making call, ``(fn, runs, args, kwargs)``: ``runs(array, *args, **kwargs)`` makes
# the view, ``fn`` is the primitive the rule table knows it by (``np.ndarray.reshape`` runs
# ``np.reshape``). A plain tuple: one is made for every view.
Step = tuple
NO_KEYWORDS: dict = {}


def apply_step(step: Step, array: Any) -> Any:
    """The view of ``array`` (or, recorded through the rule table, of a tensor)."""
    fn, runs, args, kwargs = step
    return _dispatch().primitive(fn, array, *args, runs=runs, **kwargs)


def step_vjp(step: Step, g: Any, ans: Any, array: Any) -> Any:
    """The cotangent of the viewed array, from the primitive's rule."""
    fn, _, args, kwargs = step
    rule = lookup(fn)
    return _dispatch().vjp_call(rule.vjps[rule.params[0]], g, ans, array, *args, **kwargs)


class ViewInfo:
    """What a view tensor knows of its base (see the module docstring). ``version`` is the
    value of the shared version counter when the view's ``grad_fn`` was last made;
    ``creation`` is ``None``, ``"no_grad"`` (made while grad mode was off), or
    ``(name, output_nr)`` for one of several views returned by one function (``Unbind``)."""

    __slots__ = ("base", "steps", "version", "creation")

    def __init__(self, base: Tensor, steps: tuple[Step, ...], version: int,
                 creation: Any) -> None:
        self.base, self.steps, self.version, self.creation = base, steps, version, creation


def make_view(out: Tensor, source: Tensor, step: Step, recording: bool) -> Tensor:
    """Make ``out`` (just computed from ``source`` by ``step``) a view of ``source``'s base if
    its array is a view of ``source``'s; a copy stays a tensor of its own."""
    data, result = source.data, out.data
    if result is data:  # (NumPy gave the array itself back: a view of it is what PyTorch gives)
        result = out.data = data.view()
    owner = result.base
    if owner is None or not (owner is data or owner is data.base
                             or np.may_share_memory(result, data)):
        return out
    info = source._view
    if info is None:
        base, steps, creation = source, (step,), None if recording else "no_grad"
    else:
        base, steps, creation = info.base, (*info.steps, step), info.creation
        if creation is None and not recording:
            creation = "no_grad"
    out._vbox = source._vbox
    out._view = ViewInfo(base, steps, source._vbox[0], creation)
    return out


def make_output_views(outputs: list[Tensor], source: Tensor, steps: list[Step],
                      name: str) -> None:
    """The outputs of ``unbind``/``split``/``chunk``: views that refuse in-place changes.
    (Each output's array becomes its step's view of the source's: NumPy's pieces of a
    vector are numbers, not views.)"""
    for nr, (out, step) in enumerate(zip(outputs, steps, strict=True)):
        out.data = apply_step(step, source.data)
        make_view(out, source, step, recording=True)
        if out._view is not None:
            out._view.creation = (name, nr)


def refresh(view: Tensor) -> None:
    """Make ``view``'s ``grad_fn`` again from its base's history if the base (or another of
    its views) was modified in place since it was last made. (A view made while grad mode
    was off never has one: sourcegrad records nothing of what is done without grad mode.)"""
    info = view._view
    version = view._vbox[0]
    if info.version == version:
        return
    info.version = version
    base = info.base
    if info.creation == "no_grad" or not _requires_grad(base):
        return
    if info.creation is not None:
        name, nr = info.creation
        raise RuntimeError(MULTI_OUTPUT_VIEW_MESSAGE.format(nr=nr, name=name, what=_BASE_MODIFIED))
    node = AsStridedBackward0(info.steps, base)
    old, nr = view._grad_fn, view._output_nr
    if view._retains_grad and old is not None:
        old.forget_retained(nr)
        node.retain(0, view)
    view._grad_fn, view._output_nr = node, 0


def _requires_grad(base: Tensor) -> bool:
    return base._grad_fn is not None or base._requires_grad


def base_requires_grad(view: Tensor) -> bool:
    return _requires_grad(view._view.base)


def check_in_place(view: Tensor) -> None:
    """PyTorch's refusals of an in-place operation on a view that would be recorded."""
    info = view._view
    creation = info.creation
    if creation == "no_grad":
        raise RuntimeError(NO_GRAD_VIEW_MESSAGE)
    if creation is not None:
        raise RuntimeError(MULTI_OUTPUT_VIEW_MESSAGE.format(nr=creation[1], name=creation[0],
                                                            what=_MODIFIED))
    base = info.base
    if base._grad_fn is None and base._requires_grad:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation.")


def arrays_along(steps: tuple[Step, ...], base: np.ndarray) -> list[np.ndarray]:
    """The base array and each view made from it by ``steps``, in order."""
    arrays = [base]
    for step in steps:
        arrays.append(apply_step(step, arrays[-1]))
    return arrays


def positions(steps: tuple[Step, ...], shape: tuple[int, ...]) -> np.ndarray:
    """The flat position in the base of each element of the view."""
    return arrays_along(steps, np.arange(int(np.prod(shape, dtype=np.int64))).reshape(shape))[-1]


class AsStridedBackward0(graph.Node):
    """A view's ``grad_fn`` made again after its base changed in place: the cotangent of the
    base is the view steps' VJPs applied in reverse. It saves no values (only arrays of the
    shapes it needs), so, as in PyTorch, its backward can run again."""

    __slots__ = ("_steps", "_arrays")

    def __init__(self, steps: tuple[Step, ...], base: Tensor) -> None:
        super().__init__((graph.edge_of(base),), None, (base.data,))
        self._steps = steps
        self._arrays = arrays_along(steps, base.data)

    def apply(self, grads: graph.Cotangents) -> graph.Cotangents:
        g = grads[0]
        for k in range(len(self._steps) - 1, -1, -1):
            g = step_vjp(self._steps[k], g, self._arrays[k + 1], self._arrays[k])
        return (g,)

    apply_tensors = apply  # (the steps' VJPs record themselves on tensors)

    def free(self) -> None:
        """Nothing saved: it may run again."""


class CopySlices(graph.Node):
    """The base's ``grad_fn`` after an in-place operation on one of its views: outside the
    view's region the cotangent goes to the base's old history unchanged; inside it, through
    the operation's node ``fn`` (whose other inputs are this node's other inputs)."""

    __slots__ = ("_steps", "_fn", "_positions", "_base_shape")

    def __init__(self, base_edge: graph.Edge, base: np.ndarray, steps: tuple[Step, ...],
                 fn: graph.Node) -> None:
        super().__init__((base_edge, *fn.next_functions[1:]), None,
                         (base, *fn._input_meta[1:]))
        self._steps, self._fn = steps, fn
        self._positions: np.ndarray | None = None
        self._base_shape = base.shape

    def name(self) -> str:
        return "sg::autograd::CopySlices"  # (PyTorch's: "torch::autograd::CopySlices")

    def apply(self, grads: graph.Cotangents) -> graph.Cotangents:
        g = grads[0]
        inner_grads = (along(self._steps, g),)
        inner = (self._fn.apply_tensors(inner_grads) if isinstance(g, _dispatch().Tensor)
                 else self._fn.apply(inner_grads))
        if self._positions is None:
            self._positions = positions(self._steps, self._base_shape).ravel()
        written = 0.0 if inner[0] is None else inner[0].reshape(-1)
        base = _dispatch().primitive(support.index_put, g.reshape(-1), self._positions, written)
        return (base.reshape(self._base_shape), *inner[1:])

    apply_tensors = apply  # (``along`` and ``index_put`` record themselves on tensors)

    def free(self) -> None:
        self._fn.free()


def along(steps: tuple[Step, ...], g: Any) -> Any:
    """``g`` (an array, or a tensor under create_graph) cut down to the view's region."""
    for step in steps:
        g = apply_step(step, g)
    return g


def _dispatch() -> Any:
    from . import dispatch as module  # (dispatch imports this module)

    return module


def expanded(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``np.broadcast_to(a, shape)``, writable where it repeats no element (PyTorch lets
    one write into such an expanded view, not into one that repeats elements)."""
    out = np.broadcast_to(a, shape)
    if _repeats_elements(out) or not a.flags.writeable:
        return out
    return np.lib.stride_tricks.as_strided(a, shape, out.strides, writeable=True)


def _repeats_elements(data: np.ndarray) -> bool:
    return any(stride == 0 and n > 1 for stride, n in zip(data.strides, data.shape, strict=True))


def refuse_overlapping_write(data: np.ndarray) -> None:
    """PyTorch's refusal to write into an array whose elements share memory (``expand``)."""
    if _repeats_elements(data):
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to "
            "a single memory location. Please clone() the tensor before performing the "
            "operation.")
    if not data.flags.writeable:
        raise SourcegradError("this tensor's array is read-only; clone() it before writing "
                              "into it")
