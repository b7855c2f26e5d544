"""First-call (compile) times of the loop workloads: what the first call of each compiled
gradient costs before the fast calls of the main table.

- **sourcegrad transform**: ``sg.grad`` built and called once (reading, transforming and
  compiling the generated code to Python bytecode), minus a warm call;
- **sourcegrad transform + Numba compile**: the same, then the first call of
  ``sg.jit`` of it (specialising the code to the argument shapes and Numba's compilation),
  minus a warm call;
- **jax.jit trace + XLA compile**: the first call of ``jax.jit(jax.grad(...))`` of the
  workload's ``lax`` loop form, minus a warm call.

Each figure is measured in a fresh interpreter (the libraries imported before the clock
starts; sourcegrad's disk cache off), so no cache of an earlier run helps; the median of the
repeats is reported.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from benchmarks.peers import describe_failure
from benchmarks.report import Notes, format_seconds, markdown_table

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("sourcegrad transform", "sourcegrad transform + Numba compile",
         "jax.jit trace + XLA compile")


@dataclass
class CompileTimes:
    workload: str
    seconds: dict[str, float] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)


def _first_call_seconds(make, args) -> float:
    """Making the function and calling it once, minus the median of five warm calls."""
    start = time.perf_counter()
    fun = make()
    fun(*args)
    cold = time.perf_counter() - start
    warm = []
    for _ in range(5):
        start = time.perf_counter()
        fun(*args)
        warm.append(time.perf_counter() - start)
    return cold - statistics.median(warm)


def child(workload_name: str, kind: str) -> float:
    from benchmarks.workloads import WORKLOADS

    workload = next(w for w in WORKLOADS if w.name == workload_name)
    args = workload.make_args()
    wrt = workload.wrt[0] if len(workload.wrt) == 1 else workload.wrt
    if kind == KINDS[2]:
        import jax

        from benchmarks.jax_loops import LOOPS

        jax.config.update("jax_enable_x64", True)
        jnp = jax.numpy
        forward = LOOPS[workload.name](jnp, jax.lax)
        jax_args = tuple(jnp.asarray(a) if isinstance(a, np.ndarray) else a for a in args)

        def make_jax():
            gradient = jax.jit(jax.grad(forward, argnums=wrt))
            return lambda *a: jax.block_until_ready(gradient(*a))

        return _first_call_seconds(make_jax, jax_args)
    import sourcegrad as sg

    if kind == KINDS[1]:
        import numba  # noqa: F401  (imported before the clock starts, as jax is)

        return _first_call_seconds(
            lambda: sg.jit(sg.grad(workload.forward, wrt=wrt), fallback=False), args)
    return _first_call_seconds(lambda: sg.grad(workload.forward, wrt=wrt), args)


def _run_child(workload: str, kind: str) -> float:
    environment = dict(os.environ, SOURCEGRAD_CACHE="0")
    environment["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), environment.get("PYTHONPATH", "")) if p)
    completed = subprocess.run(
        [sys.executable, "-W", "ignore", "-m", "benchmarks.compile_time", workload, kind],
        capture_output=True, text=True, cwd=ROOT, env=environment, timeout=900)
    if completed.returncode != 0:
        lines = completed.stderr.strip().splitlines() or ["(no message)"]
        raise RuntimeError(f"{kind}: the child process failed: {lines[-1]}")
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    if "error" in result:
        raise RuntimeError(result["error"])
    return result["seconds"]


def measure_all(repeats: int, name_filter: str = "", progress=print) -> list[CompileTimes]:
    from benchmarks.jax_loops import LOOPS

    results = []
    for workload in LOOPS:
        if name_filter.lower() not in workload.lower():
            continue
        progress(f"running: first-call times, {workload}")
        times = CompileTimes(workload)
        for kind in KINDS:
            samples = []
            try:
                for _ in range(repeats):
                    samples.append(_run_child(workload, kind))
            except (RuntimeError, subprocess.TimeoutExpired) as error:
                times.notes[kind] = str(error)
                continue
            times.seconds[kind] = statistics.median(samples)
        results.append(times)
    return results


def markdown(results: list[CompileTimes], notes: Notes) -> str:
    body = []
    for result in results:
        row = [result.workload]
        for kind in KINDS:
            if kind in result.seconds:
                row.append(format_seconds(result.seconds[kind]))
            else:
                row.append("— " + notes.ref(result.notes.get(kind, "not measured")))
        body.append(row)
    title = "## First call (compile) time of the loop workloads (median over fresh processes)"
    return title + "\n\n" + markdown_table(["workload", *KINDS], body)


def _child_main(workload: str, kind: str) -> None:
    """Print the measurement, or the failure, as one line of JSON."""
    try:
        result: dict = {"seconds": child(workload, kind)}
    except Exception as error:  # the parent turns this into a note
        result = {"error": describe_failure(kind, error)}
    print(json.dumps(result))


if __name__ == "__main__":
    _child_main(sys.argv[1], sys.argv[2])
