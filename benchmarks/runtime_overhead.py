"""Issue 3's figures: what recording an eager op costs, on the 100-op chain of 10 elements.

Each contender runs the chain's forward with recording on (divided by 100: the per-op cost)
and its forward + backward; the gradient is checked against the hand-written one first.
``python -m benchmarks.runtime_overhead [--quick]`` prints this table alone (one thread per
library, as ``python -m benchmarks`` runs it).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np

from benchmarks import functions, torch_style
from benchmarks.gradients_table import gradient_mismatch
from benchmarks.peers import (
    Skip,
    as_numpy_tuple,
    describe_failure,
    import_or_skip,
    with_array_module,
)
from benchmarks.report import Notes, format_seconds, markdown_table
from benchmarks.timing import FULL, QUICK, Budget, interleaved_median_seconds

OPS = 4 * functions.CHAIN_ROUNDS

Pair = tuple[Callable[[], object], Callable[[], object]]  # (forward, forward + backward)


@dataclass
class Overhead:
    name: str
    per_op_seconds: float | None = None
    forward_backward_seconds: float | None = None
    note: str | None = None


def chain_input() -> np.ndarray:
    return np.random.default_rng(0).uniform(-1.0, 1.0, 10)


def numpy_pair(x: np.ndarray) -> Pair:
    def forward():
        return functions.chain(x)

    def forward_backward():
        return functions.chain_grad_by_hand(x)

    return forward, forward_backward


def _eager_pair(lib, x: np.ndarray, forward_of: Callable) -> Pair:
    leaf = lib.from_numpy(x.copy()).requires_grad_()

    def forward():
        return forward_of(leaf)

    def forward_backward():
        forward_of(leaf).backward()
        gradient = leaf.grad
        leaf.grad = None
        return gradient

    return forward, forward_backward


def torch_pair(x: np.ndarray) -> Pair:
    torch = import_or_skip("torch", "torch==2.13.0")
    return _eager_pair(torch, x, partial(torch_style.chain, torch))


def _sourcegrad():
    sg = import_or_skip("sourcegrad", "-e .")
    if not hasattr(sg, "from_numpy"):
        raise Skip("the eager runtime is not there yet (no `sg.from_numpy`)")
    return sg


def sourcegrad_eager_pair(x: np.ndarray) -> Pair:
    sg = _sourcegrad()
    return _eager_pair(sg, x, partial(torch_style.chain, sg))


def sourcegrad_decorated_pair(x: np.ndarray) -> Pair:
    """The NumPy chain under ``@sg.differentiable``: one graph node running generated code."""
    sg = _sourcegrad()
    if not hasattr(sg, "differentiable"):
        raise Skip("`sg.differentiable` does not exist yet in this checkout")
    decorated = sg.differentiable(functions.chain)
    return _eager_pair(sg, x, decorated)


def autograd_pair(x: np.ndarray) -> Pair:
    """autograd records while tracing: ``make_vjp`` is the recorded forward alone."""
    autograd = import_or_skip("autograd", "autograd")
    anp = import_or_skip("autograd.numpy", "autograd")
    chain = with_array_module(functions.chain, anp, anp)
    record = autograd.make_vjp(chain)
    gradient = autograd.grad(chain)

    def forward():
        return record(x)

    def forward_backward():
        return gradient(x)

    return forward, forward_backward


CONTENDERS: tuple[tuple[str, Callable[[np.ndarray], Pair]], ...] = (
    ("NumPy, no recording (hand-written gradient)", numpy_pair),
    ("sourcegrad eager", sourcegrad_eager_pair),
    ("sourcegrad @differentiable chain", sourcegrad_decorated_pair),
    ("PyTorch eager", torch_pair),
    ("HIPS autograd", autograd_pair),
)


def prepare_checked(name: str, make_pair: Callable[[np.ndarray], Pair]) -> Pair | Overhead:
    """The contender's pair of functions, its gradient checked first; or why it has none."""
    x = chain_input()
    try:
        pair = make_pair(x)
        gradient = pair[1]()
    except Skip as skip:
        return Overhead(name, note=str(skip))
    except Exception as error:  # a contender failing is a finding, not a crash
        return Overhead(name, note=describe_failure(name, error))
    problem = gradient_mismatch(as_numpy_tuple(gradient), (functions.chain_grad_by_hand(x),))
    if problem:
        return Overhead(name, note=f"{name}: {problem}; not timed")
    return pair


def measure_all(budget: Budget) -> list[Overhead]:
    """Every contender checked, then all timed in interleaved rounds."""
    results, timed = [], {}
    for name, make_pair in CONTENDERS:
        prepared = prepare_checked(name, make_pair)
        if isinstance(prepared, Overhead):
            results.append(prepared)
            continue
        results.append(Overhead(name))
        timed[(name, "forward")], timed[(name, "forward_backward")] = prepared
    seconds = interleaved_median_seconds(timed, budget)
    for result in results:
        if result.note is None:
            result.per_op_seconds = seconds[(result.name, "forward")] / OPS
            result.forward_backward_seconds = seconds[(result.name, "forward_backward")]
    return results


def markdown(results: list[Overhead], notes: Notes) -> str:
    header = ["runtime", "per op (recorded forward / 100)", "100-op chain forward + backward"]
    body = []
    for result in results:
        if result.note is not None:
            body.append([result.name, "— " + notes.ref(result.note), "—"])
        else:
            body.append([result.name, format_seconds(result.per_op_seconds),
                         format_seconds(result.forward_backward_seconds)])
    title = f"## Eager runtime overhead: {OPS} elementwise ops on a 10-element float64 array"
    return title + "\n\n" + markdown_table(header, body)


def main(argv: list[str] | None = None) -> None:
    from benchmarks.__main__ import pin_threads  # (it imports this module: not at the top)

    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m benchmarks.runtime_overhead")
    parser.add_argument("--quick", action="store_true", help="fewer, shorter repeats")
    options = parser.parse_args(argv)
    pin_threads(1, argv, module="benchmarks.runtime_overhead")
    notes = Notes()
    print(markdown(measure_all(QUICK if options.quick else FULL), notes))
    if notes.markdown():
        print("\n" + notes.markdown())


if __name__ == "__main__":
    main()
