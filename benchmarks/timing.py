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
    """How long to measure: ``repeats`` batches, each batch at least ``batch_seconds`` long."""

    repeats: int
    batch_seconds: float


FULL = Budget(repeats=7, batch_seconds=0.1)
QUICK = Budget(repeats=3, batch_seconds=0.02)


def median_seconds(fun: Callable[[], object], budget: Budget) -> float:
    """Median time of one call of ``fun``; see ``interleaved_median_seconds``."""
    return interleaved_median_seconds({"only": fun}, budget)["only"]


def interleaved_median_seconds(
    funs: dict[str, Callable[[], object]], budget: Budget
) -> dict[str, float]:
    """Median time of one call of each function, as ``timeit`` measures it (GC off).

    Each function's batch size doubles until a batch lasts ``budget.batch_seconds``, so fast
    calls are not lost in the timer's resolution. The batches are then taken in rounds, one
    of each function per round, so that a change of load on a shared machine hits all of
    them alike and their ratios stay meaningful; the median resists the odd slow batch.
    """
    timers = {name: timeit.Timer(fun) for name, fun in funs.items()}
    numbers = {name: _batch_size(timer, budget) for name, timer in timers.items()}
    batches: dict[str, list[float]] = {name: [] for name in funs}
    for _ in range(budget.repeats):
        for name, timer in timers.items():
            batches[name].append(timer.timeit(numbers[name]) / numbers[name])
    return {name: statistics.median(times) for name, times in batches.items()}


def _batch_size(timer: timeit.Timer, budget: Budget) -> int:
    number = 1
    while timer.timeit(number) < budget.batch_seconds and number < 1 << 20:
        number *= 2
    return number


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
    return (
        f"{cpu_model()}, {os.cpu_count()} logical CPUs, {platform.system()} "
        f"{platform.release()}; Python {sys.version.split()[0]}, NumPy {np.__version__} "
        f"({blas_name()}); {libraries}."
    )
