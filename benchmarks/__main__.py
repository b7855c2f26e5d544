"""``python -m benchmarks [--quick] [--only TEXT]``: print the benchmark report as Markdown."""

from __future__ import annotations

import argparse
import sys
import warnings

from benchmarks import gradients_table, report, runtime_overhead, transform_time
from benchmarks.timing import FULL, QUICK, machine_description
from benchmarks.versions import library_versions


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer, shorter repeats")
    parser.add_argument("--only", default="", help="run only workloads whose name has TEXT")
    parser.add_argument("--skip-transform", action="store_true",
                        help="leave out the transformation-time comparison")
    parser.add_argument("--skip-overhead", action="store_true",
                        help="leave out the eager runtime's per-op overhead figures")
    return parser.parse_args(argv)


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> None:
    options = parse_args(sys.argv[1:] if argv is None else argv)
    warnings.filterwarnings("ignore", category=SyntaxWarning)  # in tangent-ad's generated code
    budget = QUICK if options.quick else FULL
    notes = report.Notes()
    machine = machine_description(library_versions())
    sections = ["# sourcegrad benchmarks", "", f"Machine: {machine}"]
    rows = gradients_table.run_all(budget, options.only, progress)
    sections += [
        "", "## Gradient time, as a multiple of the NumPy forward's time (median)", "",
        report.time_table(rows, notes),
        "", "## Peak memory of one gradient call (tracemalloc)", "",
        report.memory_table(rows, notes),
    ]
    overhead = None
    if not options.skip_overhead:
        progress("running: eager per-op overhead")
        overhead = runtime_overhead.measure_all(budget)
        sections += ["", runtime_overhead.markdown(overhead, notes)]
    transform = None
    if not options.skip_transform:
        progress("running: transformation time")
        transform = transform_time.measure_all(repeats=3 if options.quick else 7)
        sections += ["", transform_time.markdown(transform, notes)]
    sections += ["", report.targets(rows, overhead, transform)]
    sections += ["", "## Notes", "", notes.markdown() or "(none)"]
    print("\n".join(sections))


if __name__ == "__main__":
    main()
