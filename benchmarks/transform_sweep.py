"""Transformation time against the function's length: ``sg.grad`` of generated functions of
30, 300, 1,000 and 2,000 lines (``benchmarks/sized_subject.py``: two NumPy calls a line, a
branch every ten lines), in milliseconds a line. Linear passes keep the figure flat; the
target is at most 2.5 ms a line at every size.

As in ``transform_time.py``, each measurement runs in a fresh interpreter (disk cache off):
building the gradient and calling it once, minus a warm call. The child also checks the
gradient along a random direction against central differences. Wall-clock time is the
figure; the process's CPU time is shown next to it, being less at the mercy of other
processes on a shared machine.

``python -m benchmarks.transform_sweep [--quick] [--roots DIR ...]`` prints the table alone;
with several ``--roots`` (checkouts of sourcegrad), each is measured in the same rounds, side
by side, so that a change can be compared with the code before it on a loaded machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from benchmarks.report import Notes, format_seconds, markdown_table

SIZES = (30, 300, 1000, 2000)
TARGET_MS_PER_LINE = 2.5
ROOT = Path(__file__).resolve().parent.parent


@dataclass
class SweepResult:
    lines: int
    root: Path = ROOT
    samples: list[float] = field(default_factory=list)
    cpu_samples: list[float] = field(default_factory=list)
    note: str | None = None

    @property
    def seconds(self) -> float | None:
        return statistics.median(self.samples) if self.samples and not self.note else None

    @property
    def ms_per_line(self) -> float | None:
        seconds = self.seconds
        return None if seconds is None else 1e3 * seconds / self.lines

    @property
    def cpu_ms_per_line(self) -> float | None:
        if not self.cpu_samples or self.note:
            return None
        return 1e3 * statistics.median(self.cpu_samples) / self.lines


def child(lines: int) -> dict:
    """One cold transformation of the generated function of ``lines`` lines."""
    import sourcegrad as sg
    from benchmarks import sized_subject

    with tempfile.TemporaryDirectory() as directory:
        subject = sized_subject.load(lines, Path(directory))
        args = sized_subject.arguments()
        start, start_cpu = time.perf_counter(), time.process_time()
        gradient = sg.grad(subject, wrt=(0, 1))
        gradients = gradient(*args)
        cold, cold_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        warm, warm_cpu = [], []
        for _ in range(5):
            start, start_cpu = time.perf_counter(), time.process_time()
            gradient(*args)
            warm.append(time.perf_counter() - start)
            warm_cpu.append(time.process_time() - start_cpu)
        error = _directional_error(subject, args, gradients)
    return {"seconds": cold - statistics.median(warm),
            "cpu_seconds": cold_cpu - statistics.median(warm_cpu), "relative_error": error}


def _directional_error(subject, args, gradients) -> float:
    rng = np.random.default_rng(1)
    directions = [rng.standard_normal(np.shape(a)) for a in args]
    step = 1e-6
    values = [subject(*(a + sign * step * d for a, d in zip(args, directions, strict=True)))
              for sign in (1.0, -1.0)]
    slope = (values[0] - values[1]) / (2 * step)
    predicted = sum(np.sum(g * d) for g, d in zip(gradients, directions, strict=True))
    return abs(predicted - slope) / max(abs(slope), 1e-12)


def _run_child(lines: int, root: Path) -> dict:
    """The child imports ``root``'s sourcegrad, then this checkout's ``benchmarks``."""
    environment = dict(os.environ, SOURCEGRAD_CACHE="0")
    environment["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(root), environment.get("PYTHONPATH", "")) if p)
    code = ("import sys, sourcegrad; sys.path.insert(0, sys.argv[2]); "
            "from benchmarks.transform_sweep import _child_main; _child_main(int(sys.argv[1]))")
    completed = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code, str(lines), str(ROOT)],
        capture_output=True, text=True, cwd=root, env=environment, timeout=900,
    )
    if completed.returncode != 0:
        last = (completed.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise RuntimeError(f"sourcegrad at {lines} lines: the child process failed: {last}")
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    if "error" in result:
        raise RuntimeError(result["error"])
    return result


def measure_all(repeats: int, roots: tuple[Path, ...] = (ROOT,),
                sizes: tuple[int, ...] = SIZES, progress=None) -> list[SweepResult]:
    """Every size in every checkout, ``repeats`` times, in rounds (one of each per round) so
    that a change of load hits them alike."""
    results = [SweepResult(lines, root) for root in roots for lines in sizes]
    for round_number in range(repeats):
        for result in results:
            if result.note:
                continue
            if progress:
                progress(f"  transformation sweep: {result.lines} lines, round "
                         f"{round_number + 1}/{repeats}" + (f" ({result.root})"
                                                            if len(roots) > 1 else ""))
            try:
                measured = _run_child(result.lines, result.root)
            except (RuntimeError, subprocess.TimeoutExpired) as error:
                result.note = str(error)
                continue
            if measured["relative_error"] > 1e-5:
                result.note = (f"sourcegrad at {result.lines} lines: wrong gradient (relative "
                               f"error {measured['relative_error']:.2g} along a random "
                               "direction); not timed")
                continue
            result.samples.append(measured["seconds"])
            result.cpu_samples.append(measured["cpu_seconds"])
    return results


def markdown(results: list[SweepResult], notes: Notes) -> str:
    roots = list(dict.fromkeys(result.root for result in results))
    by_key = {(result.root, result.lines): result for result in results}
    sizes = list(dict.fromkeys(result.lines for result in results))
    header = ["lines"]
    for root in roots:
        label = "" if len(roots) == 1 else f" ({root})"
        header += [f"sg.grad, fresh process{label}", f"ms a line{label}",
                   f"CPU ms a line{label}"]
    header.append(f"target: ≤ {TARGET_MS_PER_LINE:g} ms a line")
    body = []
    for lines in sizes:
        row = [f"{lines:,}"]
        for root in roots:
            result = by_key[(root, lines)]
            if result.seconds is None:
                row += ["— " + notes.ref(result.note or "not measured"), "—", "—"]
            else:
                row += [format_seconds(result.seconds), f"{result.ms_per_line:.3g}",
                        f"{result.cpu_ms_per_line:.3g}"]
        last = by_key[(roots[-1], lines)].ms_per_line
        row.append("—" if last is None else "yes" if last <= TARGET_MS_PER_LINE else "**no**")
        body.append(row)
    title = ("## Transformation time against the function's length (median over fresh "
             "processes)")
    return title + "\n\n" + markdown_table(header, body)


def _child_main(lines: int) -> None:
    """Print the measurement, or the failure, as one line of JSON."""
    try:
        result = child(lines)
    except Exception as error:  # the parent turns this into a note
        result = {"error": f"sg.grad at {lines} lines raised {type(error).__name__}: {error}"}
    print(json.dumps(result))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.transform_sweep",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds instead of 5")
    parser.add_argument("--roots", nargs="+", type=Path, default=[ROOT],
                        help="checkouts of sourcegrad to measure side by side")
    parser.add_argument("--sizes", nargs="+", type=int, default=list(SIZES))
    options = parser.parse_args(argv)
    notes = Notes()
    roots = tuple(root.resolve() for root in options.roots)
    results = measure_all(3 if options.quick else 5, roots, tuple(options.sizes),
                          progress=lambda m: print(m, file=sys.stderr, flush=True))
    print(markdown(results, notes))
    if notes.markdown():
        print("\n" + notes.markdown())


if __name__ == "__main__":
    main()
