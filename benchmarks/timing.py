"""Medians of repeated calls, peak traced memory, and the description of the machine."""

from __future__ import annotations

import os
import platform
import statistics
import sys
import timeit
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """How long to measure: up to ``repeats`` batches of each function, each batch at least
    ``batch_seconds`` long, and at most about ``seconds_per_function`` in all (but never
    fewer than ``MIN_REPEATS`` batches, so that a very slow function still gets a median)."""

    repeats: int
    batch_seconds: float
    seconds_per_function: float


MIN_REPEATS = 3
FULL = Budget(repeats=25, batch_seconds=0.02, seconds_per_function=3.0)
QUICK = Budget(repeats=5, batch_seconds=0.01, seconds_per_function=0.3)


def interleaved_median_seconds(
    funs: dict[str, Callable[[], object]], budget: Budget
) -> dict[str, float]:
    """Median time of one call of each function; see ``interleaved_batches``."""
    batches = interleaved_batches(funs, budget)
    return {name: statistics.median(times) for name, times in batches.items()}


def interleaved_batches(
    funs: dict[str, Callable[[], object]], budget: Budget
) -> dict[str, list[float]]:
    """Time per call of each function in each round of batches, as ``timeit`` measures it.

    Each function's batch size doubles until a batch lasts ``budget.batch_seconds``, so fast
    calls are not lost in the timer's resolution. The batches are then taken in rounds, one
    of each function per round, so that a change of load on a shared machine hits all of
    them alike: ratios taken within a round cancel the load of the moment.
    """
    timers = {name: timeit.Timer(fun) for name, fun in funs.items()}
    numbers, repeats = {}, {}
    for name, timer in timers.items():
        numbers[name], batch = _batch_size(timer, budget)
        affordable = int(budget.seconds_per_function / max(batch, 1e-9))
        repeats[name] = max(MIN_REPEATS, min(budget.repeats, affordable))
    batches: dict[str, list[float]] = {name: [] for name in funs}
    for round_number in range(max(repeats.values(), default=0)):
        for name, timer in timers.items():
            if round_number < repeats[name]:
                batches[name].append(timer.timeit(numbers[name]) / numbers[name])
    return batches


def _batch_size(timer: timeit.Timer, budget: Budget) -> tuple[int, float]:
    """Calls per batch (doubling until a batch lasts ``batch_seconds``) and the batch's time."""
    number = 1
    while (seconds := timer.timeit(number)) < budget.batch_seconds and number < 1 << 20:
        number *= 2
    return number, seconds


def peak_traced_bytes(fun: Callable[[], object]) -> int:
    """Peak memory allocated during one call, above what was allocated before it.

    tracemalloc sees Python objects and NumPy's array buffers (NumPy reports them to it);
    it does not see memory that PyTorch or XLA allocate for themselves.
    """
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        result = fun()
        _, peak = tracemalloc.get_traced_memory()
        del result
    finally:
        tracemalloc.stop()
    return peak - before


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def blas_name() -> str:
    import numpy as np

    try:
        return np.__config__.CONFIG["Build Dependencies"]["blas"]["name"]
    except (AttributeError, KeyError, TypeError):
        return "unknown BLAS"


def machine_description(versions: dict[str, str]) -> str:
    """One paragraph naming everything a reader needs to compare figures across machines."""
    import numpy as np

    libraries = ", ".join(f"{name} {version}" for name, version in versions.items())
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return (
        f"{cpu_model()}, {os.cpu_count()} logical CPUs, {platform.system()} "
        f"{platform.release()}, load average {load} when the run started (other processes "
        f"sharing the CPUs make every figure noisier); Python {sys.version.split()[0]}, "
        f"NumPy {np.__version__} ({blas_name()}); {libraries}."
    )
