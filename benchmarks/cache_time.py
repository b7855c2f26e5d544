"""How long it takes to get a derivative: transformed cold, from memory, from disk.

    python -m benchmarks.cache_time

The function is the 30-line ``benchmarks.transform_subject.subject`` that
``benchmarks.transform_time`` compares against tangent-ad.

Targets (issue 4): cold under 30 ms, from memory under 20 us, from disk in a new process
under 3 ms. Also measures what the provenance ``try`` around generated code costs a call,
and what the staleness check every generated function runs first costs (issue 11: under
1 us for a function with 5 resolved names).
Medians of repeats; a script, not a test (timings depend on the machine).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
import types
from pathlib import Path

import numpy as np

import sourcegrad as sg
from benchmarks.transform_subject import WRT, subject
from sourcegrad import cache, compile, pipeline

ROOT = Path(__file__).resolve().parent.parent


def cold(repeats: int = 21) -> tuple[float, float]:
    """Seconds to transform and compile, the first time in this process and then (rule
    expressions parsed, imports warm) the median."""
    os.environ["SOURCEGRAD_CACHE"] = "0"
    times = []
    for _ in range(repeats + 1):
        cache.clear_memory()
        start = time.perf_counter()
        sg.grad(subject, wrt=WRT)
        times.append(time.perf_counter() - start)
    del os.environ["SOURCEGRAD_CACHE"]
    return times[0], statistics.median(times[1:])


def memory(number: int = 20000, repeats: int = 7) -> float:
    sg.grad(subject, wrt=WRT)
    runs = timeit.repeat(lambda: sg.grad(subject, wrt=WRT), number=number, repeat=repeats)
    return statistics.median(runs) / number


def relinked(repeats: int = 21) -> float:
    """Seconds for a new function object with the same code (a function defined again, as
    in a loop): re-linked from the record kept in memory."""
    sg.grad(subject, wrt=WRT)
    times = []
    for _ in range(repeats):
        again = types.FunctionType(subject.__code__, subject.__globals__, subject.__name__,
                                   subject.__defaults__, subject.__closure__)
        start = time.perf_counter()
        sg.grad(again, wrt=WRT)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def disk_once() -> None:
    """In a fresh process: time one request that the disk cache answers."""
    start = time.perf_counter()
    sg.grad(subject, wrt=WRT)
    elapsed = time.perf_counter() - start
    assert cache.STATS.transformations == 0 and cache.STATS.disk_hits == 1, cache.STATS
    print(elapsed)


def disk(repeats: int = 7) -> float:
    with tempfile.TemporaryDirectory() as directory:  # a cache of its own, filled once
        env = {**os.environ, "SOURCEGRAD_CACHE_DIR": directory, "PYTHONPATH": str(ROOT)}
        env.pop("SOURCEGRAD_CACHE", None)
        fill = "from benchmarks import cache_time; cache_time.fill()"
        subprocess.run([sys.executable, "-c", fill], env=env, cwd=ROOT, check=True)
        times = []
        for _ in range(repeats):
            done = subprocess.run([sys.executable, "-c",
                                   "from benchmarks import cache_time; cache_time.disk_once()"],
                                  env=env, cwd=ROOT, check=True, capture_output=True, text=True)
            times.append(float(done.stdout))
    return statistics.median(times)


def fill() -> None:
    sg.grad(subject, wrt=WRT)


def guard_overhead(number: int = 200000, repeats: int = 15) -> tuple[float, float]:
    """Seconds per call of a tiny generated function without and with the provenance try:
    the two alternate, and the fastest run of each counts (the least disturbed by others)."""
    source = "def tiny(x):\n    y = x + one\n    return y * 2.0\n"  # a helper, as always
    plain = compile.compile_function(source, "tiny", {}, {}, {"one": 1.0})
    guarded = compile.compile_function(source, "tiny", {}, {}, {"one": 1.0},
                                       note=lambda error: None)
    best = [float("inf"), float("inf")]
    for _ in range(repeats):
        for i, fn in enumerate((plain, guarded)):
            best[i] = min(best[i], timeit.timeit(lambda fn=fn: fn(1.0), number=number) / number)
    return best[0], best[1]


CONFIG = types.SimpleNamespace(act=np.tanh)


def _doubled(a):
    return a * 2.0


def five_names(x):
    """Resolves five names: ``CONFIG`` (and ``CONFIG.act``), ``np`` (``np.sin``,
    ``np.sum``), ``_doubled``, the callee (its own ``np``), and ``len``."""
    y = CONFIG.act(x) + np.sin(x) * len(x)
    return np.sum(_doubled(y))


def check_overhead(number: int = 200000, repeats: int = 15) -> tuple[float, float, int]:
    """Seconds per run of the staleness check of ``five_names``'s gradient alone, and per
    call of that gradient with the check minus without it (the check's cell swapped for one
    that never fails; the two alternate); and how many readings the check compares.
    Medians."""
    grad = sg.grad(five_names)
    x = np.ones(3)
    grad(x)  # the first call compiles the check
    entry = grad._sourcegrad_entry[0]
    cell = grad.__closure__[grad.__code__.co_freevars.index(compile.STALE)]
    checked = cell.cell_contents
    alone, difference = [], []
    for _ in range(repeats):
        alone.append(timeit.timeit(checked, number=number) / number)
        with_check = timeit.timeit(lambda: grad(x), number=number // 10) / (number // 10)
        cell.cell_contents = compile.never_stale
        without = timeit.timeit(lambda: grad(x), number=number // 10) / (number // 10)
        cell.cell_contents = checked
        difference.append(with_check - without)
    return statistics.median(alone), statistics.median(difference), len(entry.dependencies)


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        os.environ["SOURCEGRAD_CACHE_DIR"] = directory  # leave the user's cache alone
        report()


def python_speed(repeats: int = 5) -> float:
    """Seconds for a plain Python loop of a million additions, best of ``repeats``: how fast
    this (shared, throttled) machine runs Python right now, to read the figures against."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        total = 0
        for i in range(1_000_000):
            total += i
        best = min(best, time.perf_counter() - start)
    return best


def report() -> None:
    lines = len(pipeline.parse_function(subject).tree.body)
    speed = python_speed()
    first, warm = cold()
    print(f"machine now: a 1e6-addition Python loop takes {speed * 1e3:.1f} ms (best of 5)")
    print(f"function: {lines} statements, wrt {len(WRT)} parameters")
    print(f"cold transform (first in process): {first * 1e3:8.2f} ms")
    print(f"cold transform (median, warm):     {warm * 1e3:8.2f} ms   target < 30 ms")
    print(f"from memory:                       {memory() * 1e6:8.2f} us   target < 20 us")
    print(f"same code, new function object:    {relinked() * 1e3:8.2f} ms")
    print(f"from disk, new process:            {disk() * 1e3:8.2f} ms   target < 3 ms")
    plain, guarded = guard_overhead()
    print(f"call without / with provenance try: {plain * 1e9:.0f} ns / {guarded * 1e9:.0f} ns")
    alone, difference, readings = check_overhead()
    print(f"staleness check, 5 resolved names ({readings} readings): {alone * 1e9:.0f} ns alone, "
          f"{difference * 1e9:.0f} ns per call   target < 1000 ns")


if __name__ == "__main__":
    main()
