"""``python -m benchmarks [--quick] [--only TEXT]``: print the benchmark report as Markdown."""

from __future__ import annotations

import argparse
import os
import sys
import warnings

from benchmarks import (
    compile_time,
    gradients_table,
    module_training,
    real_programs,
    report,
    runtime_overhead,
    specialisation_cost,
    transform_sweep,
    transform_time,
)
from benchmarks.timing import FULL, QUICK, machine_description
from benchmarks.versions import library_versions


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer, shorter repeats")
    parser.add_argument("--only", default="", help="run only workloads whose name has TEXT")
    parser.add_argument("--skip-transform", action="store_true",
                        help="leave out the transformation-time comparison and size sweep")
    parser.add_argument("--skip-overhead", action="store_true",
                        help="leave out the eager runtime's per-op overhead figures")
    parser.add_argument("--skip-modules", action="store_true",
                        help="leave out the MLP training step (per-op, one node, PyTorch)")
    parser.add_argument("--skip-specialisation", action="store_true",
                        help="leave out the guard's cost and the first-call time of "
                             "specialisation")
    parser.add_argument("--skip-compile", action="store_true",
                        help="leave out the first-call (compile) times of sg.jit and jax.jit")
    parser.add_argument("--skip-real", action="store_true",
                        help="leave out the real programs with hand-written backward passes")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads per library (BLAS, OpenMP, XLA); 0 keeps their defaults")
    return parser.parse_args(argv)


THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def pin_threads(threads: int, argv: list[str], module: str = "benchmarks") -> None:
    """Run ``python -m module`` again with every library's thread pool sized ``threads``.

    Thread pools are sized when a library loads, and NumPy is loaded by now, hence the new
    process. Pinned, the pools of NumPy, PyTorch and XLA cannot fight over the cores (each
    spins waiting for work after a call, which slows whichever library runs next on a small
    or shared machine), and the interleaved timings stay comparable.
    """
    wanted = {name: str(threads) for name in THREAD_VARIABLES}
    wanted["XLA_FLAGS"] = (
        f"--xla_cpu_multi_thread_eigen={'false' if threads == 1 else 'true'} "
        f"intra_op_parallelism_threads={threads}"
    )
    if all(os.environ.get(name) == value for name, value in wanted.items()):
        return
    os.environ.update(wanted)
    os.execv(sys.executable, [sys.executable, "-m", module, *argv])


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    options = parse_args(argv)
    if options.threads > 0:
        pin_threads(options.threads, argv)
    warnings.filterwarnings("ignore", category=SyntaxWarning)  # in tangent-ad's generated code
    budget = QUICK if options.quick else FULL
    notes = report.Notes()
    machine = machine_description(library_versions())
    threads = f"{options.threads} thread(s) per library" if options.threads else "default threads"
    machine += f" Run with {threads}."
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
    if not options.skip_modules:
        training = module_training.measure_all(budget, progress)
        sections += ["", module_training.markdown(training, notes)]
    if not options.skip_specialisation:
        progress("running: specialisation's guard and first calls")
        guards, first_calls = specialisation_cost.measure_all(budget, 3 if options.quick else 7)
        sections += ["", specialisation_cost.markdown(guards, first_calls)]
    transform = sweep = None
    if not options.skip_transform:
        progress("running: transformation time")
        transform = transform_time.measure_all(repeats=3 if options.quick else 7)
        sections += ["", transform_time.markdown(transform, notes)]
        sweep = transform_sweep.measure_all(repeats=3 if options.quick else 5, progress=progress)
        sections += ["", transform_sweep.markdown(sweep, notes)]
    if not options.skip_real:
        programs = real_programs.measure_all(budget, options.only, progress)
        sections += ["", real_programs.markdown(programs, notes)]
    if not options.skip_compile:
        compiled = compile_time.measure_all(1 if options.quick else 3, options.only, progress)
        sections += ["", compile_time.markdown(compiled, notes)]
    sections += ["", report.targets(rows, overhead, transform, sweep)]
    sections += ["", "## Notes", "", notes.markdown() or "(none)"]
    print("\n".join(sections))


if __name__ == "__main__":
    main()
