"""The main table: every peer on every workload, gradient checked first, then timed."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchmarks.peers import BASELINE, PEERS, Peer, Skip, as_numpy_tuple
from benchmarks.timing import Budget, median_seconds, peak_traced_bytes
from benchmarks.workloads import WORKLOADS, Workload

RTOL = 1e-6
ATOL = 1e-12


@dataclass
class Cell:
    """One library on one workload: its timing and memory, or why there are none."""

    seconds: float | None = None
    peak_bytes: int | None = None
    note: str | None = None
    mismatch: bool = False


@dataclass
class Row:
    workload: Workload
    cells: dict[str, Cell]


def gradient_mismatch(got: tuple, reference: tuple) -> str | None:
    """What differs between a library's gradients and the hand-written ones, if anything."""
    if len(got) != len(reference):
        return f"{len(got)} gradients returned, {len(reference)} expected"
    for position, (mine, theirs) in enumerate(zip(got, reference, strict=True)):
        if mine.shape != theirs.shape:
            return f"gradient {position} has shape {mine.shape}, expected {theirs.shape}"
        if not np.allclose(mine, theirs, rtol=RTOL, atol=ATOL):
            worst = float(np.max(np.abs(mine - theirs)))
            return f"gradient {position} differs from the hand-written one by up to {worst:.3g}"
    return None


def measure(peer: Peer, workload: Workload, args: tuple, reference: tuple | None,
            budget: Budget) -> Cell:
    """Build the peer's gradient, check it against ``reference``, then time it."""
    try:
        run = peer.prepare(workload, args)
        result = run()  # also the warm-up: caches filled, JIT compiled
    except Skip as skip:
        return Cell(note=str(skip))
    except Exception as error:  # a peer failing on a workload is a finding, not a crash
        return Cell(note=f"{peer.name} raised {type(error).__name__}: {error}".splitlines()[0])
    if reference is not None:
        problem = gradient_mismatch(as_numpy_tuple(result), reference)
        if problem:
            return Cell(note=f"{peer.name}: {problem}; not timed", mismatch=True)
    seconds = median_seconds(run, budget)
    peak = peak_traced_bytes(run) if peer.memory_traced else None
    return Cell(seconds=seconds, peak_bytes=peak)


def run_workload(workload: Workload, budget: Budget, peers: tuple[Peer, ...] = PEERS) -> Row:
    args = workload.make_args()
    reference = as_numpy_tuple(workload.grad_by_hand(*args))
    cells = {BASELINE.name: measure(BASELINE, workload, args, None, budget)}
    for peer in peers:
        cells[peer.name] = measure(peer, workload, args, reference, budget)
    return Row(workload, cells)


def run_all(budget: Budget, name_filter: str = "", progress=print) -> list[Row]:
    rows = []
    for workload in WORKLOADS:
        if name_filter.lower() in workload.name.lower():
            progress(f"running: {workload.name}")
            rows.append(run_workload(workload, budget))
    return rows
