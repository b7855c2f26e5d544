"""Per-operation overhead of the eager runtime against PyTorch eager and HIPS autograd.

Run from the repository root::

    python benchmarks/runtime_ops.py [--repeats 41]

Each row times one workload on a 10-element float64 input that requires grad, so the time
is the library's bookkeeping, not arithmetic: a single recorded operation (forward only,
its graph dropped at once), a chain of 100 elementwise operations followed by
``sum().backward()``, and that chain decorated with ``@sg.differentiable`` (one node; the
peers run their eager chain again). Times are medians over ``--repeats`` samples, each the
mean of many calls, the libraries' samples alternating; the ratio column is sourcegrad's
time over each peer's (below 1.00: sourcegrad is faster).
HIPS autograd records operations only while tracing, so its per-operation rows run inside a
trace (a boxed value), the same work it does for each operation under ``autograd.grad``.
A peer that is not installed is skipped with a note. This is a benchmark, not a test: the
machine is shared and the numbers move by some percent from run to run.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import sourcegrad as sg  # noqa: E402

SIZE = 10
CHAIN_STEPS = 25  # four operations per step: 100 in all
DECORATED = "the chain as one @sg.differentiable node"


def chain(y: object) -> object:
    """100 elementwise operations, written once for every library."""
    for _ in range(CHAIN_STEPS):
        y = (y.tanh() * 1.5).exp() - 1.0
    return y


@sg.differentiable
def decorated_chain(y: np.ndarray) -> np.ndarray:
    """``chain(y).sum()`` in NumPy: one node whose backward is its generated adjoint."""
    for _ in range(CHAIN_STEPS):
        y = np.exp(np.tanh(y) * 1.5) - 1.0
    return np.sum(y)


def _sourcegrad_workloads() -> dict[str, Callable[[], object]]:
    x = sg.tensor(np.linspace(0.1, 0.9, SIZE), requires_grad=True)
    w = sg.tensor(np.linspace(1.0, 2.0, SIZE), requires_grad=True)

    def chain_backward() -> None:
        chain(x).sum().backward()
        x.grad = None

    def decorated_chain_backward() -> None:
        decorated_chain(x).backward()
        x.grad = None

    return _operations(x, w, chain_backward, decorated_chain_backward)


def _operations(x: Any, w: Any, chain_backward: Callable[[], None],
                decorated_backward: Callable[[], None]) -> dict[str, Callable[[], object]]:
    """The same operations, spelled the same way, on tensors of any library."""
    return {
        "x * 2.0": lambda: x * 2.0,
        "x + w": lambda: x + w,
        "x * w": lambda: x * w,
        "x.tanh()": lambda: x.tanh(),
        "x.exp()": lambda: x.exp(),
        "x.sum()": lambda: x.sum(),
        "x @ w": lambda: x @ w,
        "100-op chain + backward": chain_backward,
        DECORATED: decorated_backward,
    }


def _torch_workloads() -> dict[str, Callable[[], object]] | None:
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    x = torch.tensor(np.linspace(0.1, 0.9, SIZE), requires_grad=True)
    w = torch.tensor(np.linspace(1.0, 2.0, SIZE), requires_grad=True)

    def chain_backward() -> None:
        chain(x).sum().backward()
        x.grad = None

    return _operations(x, w, chain_backward, chain_backward)


def _autograd_workloads() -> dict[str, Callable[[], object]] | None:
    try:
        import autograd
        import autograd.numpy as anp
        from autograd.core import VJPNode
        from autograd.tracer import new_box
    except ImportError:
        return None

    data = np.linspace(0.1, 0.9, SIZE)
    x = new_box(data, 1, VJPNode.new_root())
    w = new_box(np.linspace(1.0, 2.0, SIZE), 1, VJPNode.new_root())

    def autograd_chain(y: np.ndarray) -> np.ndarray:
        for _ in range(CHAIN_STEPS):
            y = anp.exp(anp.tanh(y) * 1.5) - 1.0
        return anp.sum(y)

    chain_grad = autograd.grad(autograd_chain)
    return {
        "x * 2.0": lambda: x * 2.0,
        "x + w": lambda: x + w,
        "x * w": lambda: x * w,
        "x.tanh()": lambda: anp.tanh(x),
        "x.exp()": lambda: anp.exp(x),
        "x.sum()": lambda: anp.sum(x),
        "x @ w": lambda: x @ w,
        "100-op chain + backward": lambda: chain_grad(data),
        DECORATED: lambda: chain_grad(data),
    }


def median_seconds(functions: list[Callable[[], object]], repeats: int) -> list[float]:
    """For each function, the median over ``repeats`` samples of the mean time of one call
    (a sample lasts ~20 ms). Samples of the libraries alternate, so a change in the load
    of the (shared) machine weighs on all of them alike."""
    timers = [timeit.Timer(fn) for fn in functions]
    numbers = [max(1, timer.autorange()[0] // 10) for timer in timers]
    samples: list[list[float]] = [[] for _ in functions]
    for _ in range(repeats):
        for timer, number, times in zip(timers, numbers, samples, strict=True):
            times.append(timer.timeit(number) / number)
    return [statistics.median(times) for times in samples]


def _format(seconds: float) -> str:
    return f"{seconds * 1e6:.2f} µs" if seconds < 1e-3 else f"{seconds * 1e3:.3f} ms"


def _ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=41)
    repeats = parser.parse_args().repeats

    peers = {"PyTorch": _torch_workloads(), "autograd": _autograd_workloads()}
    ours = _sourcegrad_workloads()
    header = ["workload", "sourcegrad"]
    for name, workloads in peers.items():
        if workloads is None:
            print(f"({name} is not installed: skipped)")
        else:
            header += [name, f"sg / {name}"]
    print(f"Python {platform.python_version()}, NumPy {np.__version__}, "
          f"{platform.machine()}, medians of {repeats} samples\n")
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    installed = [workloads for workloads in peers.values() if workloads is not None]
    for workload, fn in ours.items():
        ours_time, *theirs = median_seconds([fn, *(w[workload] for w in installed)], repeats)
        cells = [workload, _format(ours_time)]
        for their_time in theirs:
            cells += [_format(their_time), _ratio(ours_time, their_time)]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
