"""What specialisation at the first call costs (issue 14, point 1): the guard at every call,
and the first call of each signature, which makes the variant.

- **Guard** (CPU time of this thread, not wall-clock time: see ``_cpu_medians``): on a
  derivative whose own work is tiny (the gradient of ``np.sum(x * b)``-like
  functions of 1, 4 and 8 small array arguments), ``sg.grad(f)(*args)`` (staleness check,
  signature, lookup, variant) against the variant called directly; the difference is the
  guard's cost. Also the general code as ``SOURCEGRAD_SPECIALISE=0`` runs it (the
  dispatcher answering "general" to the generated function's prologue) against the general
  code with no dispatcher at all (``specialisation.general_of``).
- **First call**: for each workload of the main table, the time to make its variant
  (``specialisation.build``: the pass and compiling the result), median of a few.

``python -m benchmarks.specialisation_cost [--quick] [--workloads [--only TEXT]]`` prints
these tables alone (one thread per library), and with ``--workloads`` the main table's
sourcegrad columns with and without specialisation, side by side.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from benchmarks.report import format_seconds, markdown_table
from benchmarks.timing import FULL, QUICK, Budget
from benchmarks.workloads import WORKLOADS


@dataclass
class GuardCost:
    arguments: str
    through_guard: float
    variant_alone: float
    general_through_prologue: float
    general_alone: float


def _subject(count: int):
    """A new function of 1, 4 or 8 arrays (a new one each time: its derivative's variants are
    its own), and ``wrt`` for all of them."""
    if count == 1:
        def f(a0):
            return np.sum(a0 * 0.5)
    elif count == 4:
        def f(a0, a1, a2, a3):
            return np.sum(a0 * a1) + np.sum(a2 * a3)
    else:
        def f(a0, a1, a2, a3, a4, a5, a6, a7):
            return np.sum(a0 * a1) + np.sum(a2 * a3) + np.sum(a4 * a5) + np.sum(a6 * a7)
    return f, tuple(range(count))


def guard_cost(count: int, budget: Budget) -> GuardCost:
    import sourcegrad as sg
    from sourcegrad import specialisation

    f, wrt = _subject(count)
    args = tuple(np.full(3, float(i)) for i in range(count))
    gradient = sg.grad(f, wrt=wrt)
    gradient(*args)  # makes the variant
    variant = specialisation.variants_of(gradient).runs[specialisation.signature(args)]
    general = specialisation.general_of(gradient)
    os.environ[specialisation.ENVIRONMENT] = "0"
    try:
        off = sg.grad(_subject(count)[0], wrt=wrt)
        off(*args)  # remembers "general" for this signature
    finally:
        del os.environ[specialisation.ENVIRONMENT]
    seconds = _cpu_medians({
        "guard": lambda: gradient(*args), "variant": lambda: variant(*args),
        "off": lambda: off(*args), "general": lambda: general(*args)}, budget)
    return GuardCost(f"{count} arrays of 3", seconds["guard"], seconds["variant"],
                     seconds["off"], seconds["general"])


def _cpu_medians(funs: dict[str, Callable[[], object]], budget: Budget, number: int = 2000
                 ) -> dict[str, float]:
    """Median CPU time of one call of each (this thread's, ``time.thread_time``), batches of
    each taken in rounds: the guard is a microsecond or so, which other processes' load on a
    shared machine would swamp in wall-clock time."""
    times: dict[str, list[float]] = {name: [] for name in funs}
    for _ in range(budget.repeats):
        for name, fun in funs.items():
            times[name].append(timeit.Timer(fun, timer=time.thread_time).timeit(number) / number)
    return {name: statistics.median(found) for name, found in times.items()}


def first_call_seconds(repeats: int) -> list[tuple[str, float]]:
    import sourcegrad as sg
    from sourcegrad import specialisation

    found = []
    for workload in WORKLOADS:
        args = workload.make_args()
        gradient = sg.grad(workload.forward, wrt=workload.wrt)
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            specialisation.build(gradient, args, {})
            times.append(time.perf_counter() - start)
        found.append((workload.name, statistics.median(times)))
    return found


def markdown(guards: list[GuardCost], first_calls: list[tuple[str, float]]) -> str:
    body = [[g.arguments, format_seconds(g.through_guard), format_seconds(g.variant_alone),
             format_seconds(g.through_guard - g.variant_alone),
             format_seconds(g.general_through_prologue), format_seconds(g.general_alone),
             format_seconds(g.general_through_prologue - g.general_alone)] for g in guards]
    header = ["arguments", "sg.grad (guard + variant)", "variant alone", "guard",
              "specialisation off", "general code alone", "prologue when off"]
    first = [[name, format_seconds(seconds)] for name, seconds in first_calls]
    return "\n\n".join([
        "## Specialisation: the guard's cost per call (median CPU time)",
        markdown_table(header, body),
        "## Specialisation: making a variant at the first call of a signature (median)",
        markdown_table(["workload", "specialise and compile"], first)])


def measure_all(budget: Budget, repeats: int) -> tuple[list[GuardCost], list]:
    return [guard_cost(n, budget) for n in (1, 4, 8)], first_call_seconds(repeats)


def workloads_markdown(budget: Budget, name_filter: str) -> str:
    """The main table's sourcegrad columns alone, with and without specialisation, side by
    side in one run (each checked against the hand-written gradient first): median CPU
    times, as the guard's are, and ratios to the hand-written gradient."""
    from benchmarks.gradients_table import prepare_checked
    from benchmarks.peers import PEERS, as_numpy_tuple

    names = ("hand-written", "sg.grad", "sg.grad general")
    peers = [p for p in PEERS if p.name in names]
    body = []
    for workload in WORKLOADS:
        if name_filter.lower() not in workload.name.lower():
            continue
        args = workload.make_args()
        reference = as_numpy_tuple(workload.grad_by_hand(*args))
        runs = {}
        for peer in peers:
            run, cell = prepare_checked(peer, workload, args, reference)
            if run is None:
                raise RuntimeError(cell.note)
            runs[peer.name] = run
        seconds = _cpu_medians(runs, budget, _calls_per_batch(runs["hand-written"]))
        hand = seconds["hand-written"]
        body.append([workload.name, *(_timed(seconds[n], hand) for n in names),
                     f"{seconds['sg.grad general'] / seconds['sg.grad']:.2f}x"])
    header = ["workload", *names, "general / specialised"]
    return ("## sg.grad with and without specialisation (median CPU time; ratio to "
            "hand-written)\n\n" + markdown_table(header, body))


def _calls_per_batch(fun: Callable[[], object]) -> int:
    """Calls in a batch of about 20 ms of CPU time."""
    number = 1
    while timeit.Timer(fun, timer=time.thread_time).timeit(number) < 0.02 and number < 1 << 16:
        number *= 2
    return number


def _timed(seconds: float | None, hand: float | None) -> str:
    if seconds is None:
        return "—"
    return format_seconds(seconds) + (f" ({seconds / hand:.2f}x)" if hand else "")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.specialisation_cost")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--workloads", action="store_true",
                        help="also time the workloads with and without specialisation")
    parser.add_argument("--only", default="", help="workloads whose name has TEXT")
    options = parser.parse_args(sys.argv[1:] if argv is None else argv)
    from benchmarks.__main__ import pin_threads  # (it imports this module: not at the top)

    pin_threads(1, sys.argv[1:] if argv is None else argv, "benchmarks.specialisation_cost")
    budget = QUICK if options.quick else FULL
    guards, first = measure_all(budget, 3 if options.quick else 7)
    print(markdown(guards, first))
    if options.workloads:
        print("\n" + workloads_markdown(budget, options.only))


if __name__ == "__main__":
    main()
