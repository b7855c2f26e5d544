"""Real programs with hand-written backward passes (issue 14): ``sg.grad`` of each program's
loss against its own hand-written forward+backward, and ``sg.jit(sg.grad(...))``.

The programs (``benchmarks/programs/``) are written as public NumPy code with a hand-written
backward is written: a step function returning ``(next_h, cache)``, a loss called once per
word that reads rows of an embedding matrix, backprop over a list of layer dicts, a
batch-norm layer, a naive convolution and max-pool, a library's logistic loss.

Every gradient is first compared with the hand-written one; then the hand-written
forward+backward, ``sg.grad`` and ``sg.jit`` are timed in interleaved rounds
(``timing.interleaved_batches``), and each ratio is the median of the ratios within a round.
``python -m benchmarks.real_programs`` prints only this table; ``python -m benchmarks``
includes it.
"""

from __future__ import annotations

import statistics
import sys
import types
import warnings
from dataclasses import dataclass, field

import numpy as np

from benchmarks.peers import describe_failure
from benchmarks.programs import PROGRAMS
from benchmarks.report import Notes, format_seconds, markdown_table
from benchmarks.timing import FULL, QUICK, Budget, interleaved_batches

TARGET = 1.5  # issue 14: sg.grad at most 1.5x the hand-written forward+backward
HAND = "hand-written forward+backward"
COLUMNS = ("sg.grad", "sg.jit")


@dataclass
class ProgramTimes:
    name: str
    hand_seconds: float | None = None
    ratios: dict[str, float] = field(default_factory=dict)  # column -> median ratio to HAND
    notes: dict[str, str] = field(default_factory=dict)  # column -> why it is not timed


def leaves(tree: object) -> list[np.ndarray]:
    """The arrays of a gradient, in order (lists, tuples and dicts of arrays)."""
    if isinstance(tree, dict):
        return [leaf for key in tree for leaf in leaves(tree[key])]
    if isinstance(tree, (list, tuple)):
        return [leaf for item in tree for leaf in leaves(item)]
    return [np.asarray(tree, dtype=np.float64)]


def mismatch(got: object, expected: object) -> str | None:
    mine, theirs = leaves(got), leaves(expected)
    if len(mine) != len(theirs):
        return f"{len(mine)} gradient arrays, {len(theirs)} expected"
    for position, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        if a.shape != b.shape or not np.allclose(a, b, rtol=1e-6, atol=1e-12):
            return f"gradient array {position} differs from the hand-written one"
    return None


def gradient_functions(program: types.ModuleType, args: tuple, expected: object
                       ) -> tuple[dict, dict[str, str]]:
    """``column -> zero-argument call`` for each column whose gradient matches, and
    ``column -> note`` for the others."""
    import sourcegrad as sg

    runs, notes = {}, {}
    grad = sg.grad(program.loss, wrt=program.WRT)
    makers = {"sg.grad": lambda: grad, "sg.jit": lambda: sg.jit(grad, fallback=False)}
    for column in COLUMNS:
        try:
            fun = makers[column]()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                problem = mismatch(fun(*args), expected)
        except Exception as error:  # a column failing on a program is a finding
            notes[column] = describe_failure(column, error)
            continue
        if problem:
            notes[column] = f"{column}: {problem}; not timed"
        else:
            runs[column] = (lambda fun=fun: fun(*args))
    return runs, notes


def measure(program: types.ModuleType, budget: Budget) -> ProgramTimes:
    args = program.make_args()
    _, expected = program.loss_and_grad_by_hand(*args)
    runs, notes = gradient_functions(program, args, expected)
    runs[HAND] = lambda: program.loss_and_grad_by_hand(*args)
    batches = interleaved_batches(runs, budget)
    hand = batches[HAND]
    times = ProgramTimes(program.NAME, statistics.median(hand), notes=notes)
    for column in COLUMNS:
        if column in batches:
            times.ratios[column] = statistics.median(
                mine / theirs for mine, theirs in zip(batches[column], hand, strict=False))
    return times


def measure_all(budget: Budget, name_filter: str = "", progress=print) -> list[ProgramTimes]:
    results = []
    for program in PROGRAMS:
        if name_filter.lower() in program.NAME.lower():
            progress(f"running: real program: {program.NAME}")
            results.append(measure(program, budget))
    return results


def markdown(results: list[ProgramTimes], notes: Notes) -> str:
    """The table; a column that could not run a program points at a note saying why."""
    header = ["program", f"{HAND} (median)", "sg.grad / hand-written",
              "sg.jit(sg.grad) / hand-written", f"sg.grad ≤ {TARGET}x"]
    body = []
    for result in results:
        row = [result.name, format_seconds(result.hand_seconds)]
        for column in COLUMNS:
            if column in result.ratios:
                row.append(f"{result.ratios[column]:.3g}x")
            else:
                row.append("— " + notes.ref(result.notes[column]))
        ratio = result.ratios.get("sg.grad")
        row.append("—" if ratio is None else "yes" if ratio <= TARGET else "**no**")
        body.append(row)
    if not body:
        return ""
    return ("## Real programs with hand-written backward passes (issue 14)\n\n"
            "Time of one gradient as a multiple of the program's own hand-written "
            "forward+backward (medians of ratios within interleaved rounds).\n\n"
            + markdown_table(header, body))


def main(argv: list[str] | None = None) -> None:
    from benchmarks.__main__ import pin_threads

    argv = sys.argv[1:] if argv is None else argv
    pin_threads(1, argv, "benchmarks.real_programs")
    budget = QUICK if "--quick" in argv else FULL
    only = argv[argv.index("--only") + 1] if "--only" in argv else ""
    notes = Notes()
    results = measure_all(budget, only, lambda m: print(m, file=sys.stderr, flush=True))
    print(markdown(results, notes))
    if notes.markdown():
        print("\n" + notes.markdown())


if __name__ == "__main__":
    main()
