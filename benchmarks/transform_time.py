"""Cold transformation time of a 30-line function: ``sg.grad`` against tangent-ad.

Each measurement runs in a fresh interpreter, so no in-memory cache can help; tangent-ad's
on-disk cache is switched off (``TANGENT_DISK_CACHE=0``), and either library's cache-clearing
function is called when it has one. The time is that of building the gradient and calling
it once, minus one warm call: what is left is reading, transforming and compiling the code.
The child also checks the gradient along a random direction against central differences.
sourcegrad's first call specialises the derivative to the arguments' shapes (and compiles
that variant): the row "sourcegrad" includes it, the row "sourcegrad, not specialised"
(``SOURCEGRAD_SPECIALISE=0``) does not.
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

from benchmarks.peers import describe_failure
from benchmarks.report import Notes, format_seconds, markdown_table

GENERAL_ONLY = "sourcegrad, not specialised"  # SOURCEGRAD_SPECIALISE=0: no variant made
LIBRARIES = ("sourcegrad", GENERAL_ONLY, "tangent-ad")
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class TransformTime:
    library: str
    seconds: float | None = None
    warm_process_seconds: float | None = None
    note: str | None = None


def _gradient_builder(library: str):
    """The library's ``grad`` and its cache-clearing function (``None`` if it has none)."""
    if library == "tangent-ad":
        import tangent

        return tangent.grad, tangent.clear_cache
    import sourcegrad as sg

    if not hasattr(sg, "grad"):
        raise RuntimeError("`sg.grad` does not exist yet in this checkout")  # becomes a note
    return sg.grad, getattr(sg, "clear_cache", None)


def _transform_seconds(build, args) -> tuple[float, object]:
    """Building the gradient and calling it once, minus a warm call; and the gradients."""
    from benchmarks.transform_subject import WRT, subject

    start = time.perf_counter()
    gradient = build(subject, wrt=WRT)
    gradients = gradient(*args)
    cold = time.perf_counter() - start
    warm = []
    for _ in range(5):
        start = time.perf_counter()
        gradient(*args)
        warm.append(time.perf_counter() - start)
    return cold - statistics.median(warm), gradients


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
    """One measurement in this fresh process; then, if the library can clear its caches,
    a second one in the same process, without the cost of first imports."""
    from benchmarks.transform_subject import WRT, subject_args

    args = subject_args()
    build, clear_cache = _gradient_builder(library)
    if clear_cache is not None:
        clear_cache()
    seconds, gradients = _transform_seconds(build, args)
    warm_process = None
    if clear_cache is not None:
        clear_cache()
        warm_process, _ = _transform_seconds(build, args)
    return {
        "seconds": seconds,
        "warm_process_seconds": warm_process,
        "relative_error": _directional_error(gradients, args, WRT),
    }


def _run_child(library: str) -> dict:
    environment = dict(os.environ, TANGENT_DISK_CACHE="0")
    environment["SOURCEGRAD_SPECIALISE"] = "0" if library == GENERAL_ONLY else "1"
    environment["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), environment.get("PYTHONPATH", "")) if p
    )
    completed = subprocess.run(
        [sys.executable, "-W", "ignore", "-m", "benchmarks.transform_time", library],
        capture_output=True, text=True, cwd=ROOT, env=environment, timeout=600,
    )
    if completed.returncode != 0:
        lines = completed.stderr.strip().splitlines() or ["(no message)"]
        raise RuntimeError(f"{library}: the child process failed: {lines[-1]}")
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    if "error" in result:
        raise RuntimeError(result["error"])
    return result


def measure(library: str, repeats: int) -> TransformTime:
    samples, warm_process = [], []
    for _ in range(repeats):
        try:
            result = _run_child(library)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            return TransformTime(library, note=str(error))
        if result["relative_error"] > 1e-5:
            return TransformTime(
                library, note=f"{library}: wrong gradient (relative error "
                f"{result['relative_error']:.2g} along a random direction); not timed")
        samples.append(result["seconds"])
        if result["warm_process_seconds"] is not None:
            warm_process.append(result["warm_process_seconds"])
    return TransformTime(
        library,
        seconds=statistics.median(samples),
        warm_process_seconds=statistics.median(warm_process) if warm_process else None,
    )


def measure_all(repeats: int) -> list[TransformTime]:
    return [measure(library, repeats) for library in LIBRARIES]


def markdown(results: list[TransformTime], notes: Notes) -> str:
    by_library = {result.library: result for result in results}
    tangent = by_library.get("tangent-ad")
    body = []
    for result in results:
        if result.seconds is None:
            body.append([result.library, "— " + notes.ref(result.note), "—", "—", "—"])
            continue
        body.append([
            result.library,
            format_seconds(result.seconds),
            _speed_up(tangent and tangent.seconds, result.seconds),
            _maybe_seconds(result.warm_process_seconds, notes),
            _speed_up(tangent and tangent.warm_process_seconds, result.warm_process_seconds),
        ])
    title = "## Transformation time of a 30-line function (median over fresh processes)"
    header = ["library", "fresh process", "tangent-ad's / this",
              "same process, caches cleared", "tangent-ad's / this"]
    return title + "\n\n" + markdown_table(header, body)


def _maybe_seconds(seconds: float | None, notes: Notes) -> str:
    if seconds is None:
        return "— " + notes.ref("no function to clear the library's caches was found")
    return format_seconds(seconds)


def _speed_up(reference: float | None, seconds: float | None) -> str:
    return f"{reference / seconds:.3g}x" if reference and seconds else "—"


def _child_main(library: str) -> None:
    """Print the measurement, or the library's failure, as one line of JSON."""
    try:
        result = child(library)
    except Exception as error:  # the parent turns this into a note
        result = {"error": describe_failure(library, error)}
    print(json.dumps(result))


if __name__ == "__main__":
    _child_main(sys.argv[1])
