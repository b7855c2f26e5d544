"""Each library's way of computing a workload's gradient, behind one interface.

``prepare(workload, args)`` returns a zero-argument callable that computes the gradients
(the thing timed), or raises ``Skip`` saying why the library cannot run it here. Libraries
are imported lazily, so a missing one costs a note, not the run.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import types
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from benchmarks.workloads import Workload

Gradients = Callable[[], object]


class Skip(Exception):
    """This library cannot run this workload here; the message says why."""


@dataclass(frozen=True)
class Peer:
    name: str
    prepare: Callable[[Workload, tuple], Gradients]
    memory_traced: bool  # False where the library allocates outside tracemalloc's view


def import_or_skip(module: str, install: str) -> types.ModuleType:
    """The module, or a ``Skip`` telling how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise Skip(f"not installed ({error}); `pip install {install}`") from None


def _one_or_tuple(wrt: tuple[int, ...]) -> int | tuple[int, ...]:
    """Ask for a bare gradient when there is one argument, as every library's users do."""
    return wrt[0] if len(wrt) == 1 else wrt


def with_array_module(fun: Callable, module: object, math_module: object) -> Callable:
    """``fun`` and the functions of its module re-bound so ``np`` and ``math`` mean ``module``.

    This is the same source run as autograd's and JAX's users write it, with ``import
    autograd.numpy as np`` (or ``jax.numpy``) at the top of their file; functions that ``fun``
    calls are re-bound too, so the whole module sees the other NumPy.
    """
    namespace = dict(fun.__globals__, np=module, math=math_module)
    for name, value in list(namespace.items()):
        if isinstance(value, types.FunctionType) and value.__globals__ is fun.__globals__:
            namespace[name] = _rebound(value, namespace)
    return namespace[fun.__name__]


def _rebound(fun: types.FunctionType, namespace: dict) -> types.FunctionType:
    rebound = types.FunctionType(
        fun.__code__, namespace, fun.__name__, fun.__defaults__, fun.__closure__
    )
    rebound.__kwdefaults__ = fun.__kwdefaults__
    return rebound


def numpy_forward(workload: Workload, args: tuple) -> Gradients:
    def run():
        return workload.forward(*args)

    return run


def hand_written(workload: Workload, args: tuple) -> Gradients:
    def run():
        return workload.grad_by_hand(*args)

    return run


def hand_written_careful(workload: Workload, args: tuple) -> Gradients:
    if workload.careful_grad_by_hand is None:
        raise Skip("the hand-written gradient is the careful one")
    careful = workload.careful_grad_by_hand

    def run():
        return careful(*args)

    return run


def sourcegrad_grad(workload: Workload, args: tuple) -> Gradients:
    sg = import_or_skip("sourcegrad", "-e .")
    if not hasattr(sg, "grad"):
        raise Skip("`sg.grad` does not exist yet in this checkout")
    gradient = _call_or_skip("sg.grad", sg.grad, workload.forward, wrt=_one_or_tuple(workload.wrt))

    def run():
        return gradient(*args)

    return run


def sourcegrad_general(workload: Workload, args: tuple) -> Gradients:
    """The general code of ``sg.grad(...)``, never specialised to the arguments' shapes
    (what ``SOURCEGRAD_SPECIALISE=0`` runs): the column beside it shows what specialisation
    gains."""
    sg = import_or_skip("sourcegrad", "-e .")
    try:
        from sourcegrad.specialisation import general_of
    except ImportError:
        raise Skip("specialisation does not exist yet in this checkout") from None
    gradient = general_of(sg.grad(workload.forward, wrt=_one_or_tuple(workload.wrt)))

    def run():
        return gradient(*args)

    return run


def sourcegrad_jit(workload: Workload, args: tuple) -> Gradients:
    """``sg.jit(sg.grad(...))``: compiled by Numba at this first call. A workload it cannot
    compile is a note (the fallback would time the uncompiled gradient under this name)."""
    sg = import_or_skip("sourcegrad", "-e .")
    if not hasattr(sg, "jit"):
        raise Skip("`sg.jit` does not exist yet in this checkout")
    import_or_skip("numba", "-e '.[jit]'")
    gradient = sg.grad(workload.forward, wrt=_one_or_tuple(workload.wrt))
    compiled = sg.jit(gradient, fallback=False)
    try:
        compiled(*args)
    except sg.SourcegradError as error:
        raise Skip(describe_failure("sg.jit", error)) from None

    def run():
        return compiled(*args)

    return run


@contextlib.contextmanager
def _products_per_step(workload: Workload):
    """Derivatives made in here keep one matrix product a step in their loops
    (``SOURCEGRAD_LOOP_PRODUCTS=0``): the columns that show what ``passes/batched_products.py``
    gains, in the same run. Where that pass changes nothing, a note says so."""
    sg = import_or_skip("sourcegrad", "-e .")
    wrt = _one_or_tuple(workload.wrt)
    batched = _call_or_skip("sg.grad", sg.grad, workload.forward, wrt=wrt).source
    before = os.environ.get("SOURCEGRAD_LOOP_PRODUCTS")
    os.environ["SOURCEGRAD_LOOP_PRODUCTS"] = "0"
    try:
        if sg.grad(workload.forward, wrt=wrt).source == batched:
            raise Skip("no loop product to batch: the same code as sg.grad's")
        yield
    finally:
        if before is None:
            del os.environ["SOURCEGRAD_LOOP_PRODUCTS"]
        else:
            os.environ["SOURCEGRAD_LOOP_PRODUCTS"] = before


def sourcegrad_grad_per_step(workload: Workload, args: tuple) -> Gradients:
    with _products_per_step(workload):
        return sourcegrad_grad(workload, args)


def sourcegrad_jit_per_step(workload: Workload, args: tuple) -> Gradients:
    with _products_per_step(workload):
        return sourcegrad_jit(workload, args)


def _call_or_skip(what: str, fun: Callable, *args, **kwargs):
    """Turn a library's failure to build a gradient into a note for the table."""
    try:
        return fun(*args, **kwargs)
    except Exception as error:  # any failure of a peer is reported, never fatal
        raise Skip(describe_failure(what, error)) from None


def describe_failure(who: str, error: Exception) -> str:
    """One line for a note: who failed, with which exception, and its first line."""
    text = str(error).strip().splitlines()
    return f"{who} raised {type(error).__name__}: {text[0][:160] if text else ''}"


def eager(lib: types.ModuleType, workload: Workload, args: tuple) -> Gradients:
    """Leaves that require grad, the PyTorch-style forward, ``.backward()``, read ``.grad``."""
    eager_args = workload.torch_style_args(*args)
    tensors = [lib.from_numpy(_float64_unless_integer(arg)) for arg in eager_args]
    leaves = [tensors[i].requires_grad_() for i in workload.wrt]

    def run():
        workload.torch_style(lib, *tensors).backward()
        gradients = tuple(leaf.grad for leaf in leaves)
        for leaf in leaves:
            leaf.grad = None
        return gradients

    return run


def _float64_unless_integer(value: object) -> np.ndarray:
    """A fresh array: class labels keep their integer dtype, everything else is float64."""
    array = np.array(value)
    return array if np.issubdtype(array.dtype, np.integer) else array.astype(np.float64)


def sourcegrad_eager(workload: Workload, args: tuple) -> Gradients:
    sg = import_or_skip("sourcegrad", "-e .")
    missing = [name for name in ("from_numpy", "Tensor", "nn") if not hasattr(sg, name)]
    if missing:
        raise Skip(f"the eager runtime is not there yet (no `sg.{missing[0]}`)")
    return _call_or_skip("sourcegrad eager", eager, sg, workload, args)


def torch_eager(workload: Workload, args: tuple) -> Gradients:
    return eager(import_or_skip("torch", "torch==2.13.0"), workload, args)


def autograd_grad(workload: Workload, args: tuple) -> Gradients:
    autograd = import_or_skip("autograd", "autograd")
    anp = import_or_skip("autograd.numpy", "autograd")
    forward = with_array_module(workload.forward, anp, anp)
    gradient = autograd.grad(forward, argnum=_one_or_tuple(workload.wrt))

    def run():
        return gradient(*args)

    return run


def _jax(jit: bool, loops: bool = False) -> Callable[[Workload, tuple], Gradients]:
    """``jax.grad`` (``jax.jit`` of it) of the NumPy source run on ``jax.numpy``; with
    ``loops``, of the workload's ``lax.fori_loop``/``lax.scan`` form (``jax_loops.py``)."""
    def prepare(workload: Workload, args: tuple) -> Gradients:
        jax = import_or_skip("jax", "jax")
        jax.config.update("jax_enable_x64", True)
        jnp = import_or_skip("jax.numpy", "jax")
        if loops:
            from benchmarks.jax_loops import LOOPS

            if workload.name not in LOOPS:
                raise Skip("no loop to write with lax: the JAX jit column is this workload's")
            forward = LOOPS[workload.name](jnp, jax.lax)
        else:
            forward = with_array_module(workload.forward, jnp, jnp)
        gradient = jax.grad(forward, argnums=_one_or_tuple(workload.wrt))
        if jit:
            gradient = jax.jit(gradient)
        jax_args = tuple(jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args)

        def run():
            return jax.block_until_ready(gradient(*jax_args))

        return run

    return prepare


def tangent_grad(workload: Workload, args: tuple) -> Gradients:
    """Tangent differentiates NumPy calls, not ``math`` ones: ``math`` is read as NumPy."""
    tangent = import_or_skip("tangent", "tangent-ad")
    forward = with_array_module(workload.forward, np, np)
    gradient = _call_or_skip("tangent.grad", tangent.grad, forward, wrt=workload.wrt)

    def run():
        return gradient(*args)

    return run


BASELINE = Peer("NumPy forward", numpy_forward, memory_traced=True)
PEERS = (
    Peer("hand-written", hand_written, memory_traced=True),
    Peer("hand-written, careful", hand_written_careful, memory_traced=True),
    Peer("sg.grad", sourcegrad_grad, memory_traced=True),
    Peer("sg.grad general", sourcegrad_general, memory_traced=True),
    Peer("sg.jit", sourcegrad_jit, memory_traced=False),
    Peer("sg.grad, a product a step", sourcegrad_grad_per_step, memory_traced=True),
    Peer("sg.jit, a product a step", sourcegrad_jit_per_step, memory_traced=False),
    Peer("sg eager", sourcegrad_eager, memory_traced=True),
    Peer("autograd", autograd_grad, memory_traced=True),
    Peer("PyTorch", torch_eager, memory_traced=False),
    Peer("JAX", _jax(jit=False), memory_traced=False),
    Peer("JAX jit", _jax(jit=True), memory_traced=False),
    Peer("JAX jit (loops)", _jax(jit=True, loops=True), memory_traced=False),
    Peer("tangent-ad", tangent_grad, memory_traced=True),
)


def as_numpy_tuple(gradients: object) -> tuple[np.ndarray, ...]:
    """Any library's gradient(s) as a tuple of float64 NumPy arrays, for comparison."""
    items = gradients if isinstance(gradients, tuple | list) else (gradients,)
    return tuple(np.asarray(_to_numpy(item), dtype=np.float64) for item in items)


def _to_numpy(value: object) -> object:
    if hasattr(value, "detach"):
        value = value.detach()
    if hasattr(value, "numpy") and not isinstance(value, np.ndarray):
        return value.numpy()
    return value
