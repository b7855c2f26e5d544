"""Cold transformation time of a 30-line function: ``sg.grad`` against tangent-ad.

Each measurement runs in a fresh interpreter, so no in-memory cache can help; tangent-ad's
on-disk cache is switched off (``TANGENT_DISK_CACHE=0``), and either library's cache-clearing
function is called when it has one. The time is that of building the gradient and calling
it once, minus one warm call: what is left is reading, transforming and compiling the code.
The child also checks the gradient along a random direction against central differences.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from benchmarks.report import Notes, format_seconds, markdown_table

LIBRARIES = ("sourcegrad", "tangent-ad")
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class TransformTime:
    library: str
    seconds: float | None = None
    note: str | None = None


def _gradient_builder(library: str):
    """The library's ``grad`` with its caches cleared, or an explanation of why not."""
    if library == "tangent-ad":
        import tangent

        tangent.clear_cache()
        return tangent.grad
    import sourcegrad as sg

    if not hasattr(sg, "grad"):
        raise RuntimeError("`sg.grad` does not exist yet in this checkout")
    if hasattr(sg, "clear_cache"):
        sg.clear_cache()
    return sg.grad


def _directional_error(gradients, args, wrt) -> float:
    from benchmarks.transform_subject import subject

    rng = np.random.default_rng(1)
    directions = [rng.standard_normal(np.shape(args[i])) for i in wrt]
    step = 1e-6
    values = []
    for sign in (1.0, -1.0):
        moved = list(args)
        for i, direction in zip(wrt, directions, strict=True):
            moved[i] = args[i] + sign * step * direction
        values.append(subject(*moved))
    slope = (values[0] - values[1]) / (2 * step)
    predicted = sum(np.sum(g * d) for g, d in zip(gradients, directions, strict=True))
    return abs(predicted - slope) / max(abs(slope), 1e-12)


def child(library: str) -> dict:
    """One cold measurement, in this (fresh) process."""
    from benchmarks.transform_subject import WRT, subject, subject_args

    args = subject_args()
    build = _gradient_builder(library)
    start = time.perf_counter()
    gradient = build(subject, wrt=WRT)
    gradients = gradient(*args)
    cold = time.perf_counter() - start
    warm = []
    for _ in range(5):
        start = time.perf_counter()
        gradient(*args)
        warm.append(time.perf_counter() - start)
    return {
        "seconds": cold - statistics.median(warm),
        "relative_error": _directional_error(gradients, args, WRT),
    }


def _run_child(library: str) -> dict:
    environment = dict(os.environ, TANGENT_DISK_CACHE="0")
    environment["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), environment.get("PYTHONPATH", "")) if p
    )
    completed = subprocess.run(
        [sys.executable, "-W", "ignore", "-m", "benchmarks.transform_time", library],
        capture_output=True, text=True, cwd=ROOT, env=environment, timeout=600,
    )
    if completed.returncode != 0:
        lines = completed.stderr.strip().splitlines() or ["(no message)"]
        raise RuntimeError(lines[-1])
    return json.loads(completed.stdout.strip().splitlines()[-1])


def measure(library: str, repeats: int) -> TransformTime:
    samples = []
    for _ in range(repeats):
        try:
            result = _run_child(library)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            return TransformTime(library, note=f"{library}: {error}")
        if result["relative_error"] > 1e-5:
            return TransformTime(
                library, note=f"{library}: wrong gradient (relative error "
                f"{result['relative_error']:.2g} along a random direction); not timed")
        samples.append(result["seconds"])
    return TransformTime(library, seconds=statistics.median(samples))


def measure_all(repeats: int) -> list[TransformTime]:
    return [measure(library, repeats) for library in LIBRARIES]


def markdown(results: list[TransformTime], notes: Notes) -> str:
    tangent = next((r.seconds for r in results if r.library == "tangent-ad"), None)
    body = []
    for result in results:
        if result.seconds is None:
            body.append([result.library, "— " + notes.ref(result.note), "—"])
            continue
        speed_up = f"{tangent / result.seconds:.3g}x" if tangent else "—"
        body.append([result.library, format_seconds(result.seconds), speed_up])
    title = "## Cold transformation time of a 30-line function (median of fresh processes)"
    header = ["library", "transform + compile", "tangent-ad's time / this"]
    return title + "\n\n" + markdown_table(header, body)


if __name__ == "__main__":
    print(json.dumps(child(sys.argv[1])))
