"""The main table: every peer on every workload, gradient checked first, then timed."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np

from benchmarks.peers import (
    BASELINE,
    PEERS,
    Gradients,
    Peer,
    Skip,
    as_numpy_tuple,
    describe_failure,
)
from benchmarks.timing import Budget, interleaved_batches, peak_traced_bytes
from benchmarks.workloads import WORKLOADS, Workload

RTOL = 1e-6
ATOL = 1e-12


@dataclass
class Cell:
    """One library on one workload: its timing and memory, or why there are none."""

    seconds: float | None = None
    ratio_to_forward: float | None = None  # median over rounds of this / forward, same round
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


def prepare_checked(peer: Peer, workload: Workload, args: tuple,
                    reference: tuple | None) -> tuple[Gradients | None, Cell]:
    """The peer's gradient function, called once and checked against ``reference``.

    Returns ``(None, cell with a note)`` when the peer cannot run the workload or gets a
    different gradient: such a peer is reported, never timed.
    """
    try:
        run = peer.prepare(workload, args)
        result = run()  # also the warm-up: caches filled, JIT compiled
    except Skip as skip:
        return None, Cell(note=str(skip))
    except Exception as error:  # a peer failing on a workload is a finding, not a crash
        return None, Cell(note=describe_failure(peer.name, error))
    if reference is not None:
        problem = gradient_mismatch(as_numpy_tuple(result), reference)
        if problem:
            return None, Cell(note=f"{peer.name}: {problem}; not timed", mismatch=True)
    return run, Cell()


def run_workload(workload: Workload, budget: Budget, peers: tuple[Peer, ...] = PEERS) -> Row:
    """Check every peer, then time all that passed in interleaved rounds, then memory.

    A ratio to the forward is the median of the ratios within each round, where both ran
    under the same load; zip pairs a slow peer's few rounds with the forward's first ones.
    """
    args = workload.make_args()
    reference = as_numpy_tuple(workload.grad_by_hand(*args))
    runs: dict[str, Gradients] = {}
    cells: dict[str, Cell] = {}
    traced = {peer.name: peer.memory_traced for peer in (BASELINE, *peers)}
    for peer in (BASELINE, *peers):
        run, cells[peer.name] = prepare_checked(
            peer, workload, args, None if peer is BASELINE else reference
        )
        if run is not None:
            runs[peer.name] = run
    batches = interleaved_batches(runs, budget)
    forward = batches.get(BASELINE.name)
    for name, times in batches.items():
        cells[name].seconds = statistics.median(times)
        if forward:
            cells[name].ratio_to_forward = statistics.median(
                mine / theirs for mine, theirs in zip(times, forward, strict=False)
            )
        if traced[name]:
            cells[name].peak_bytes = peak_traced_bytes(runs[name])
    return Row(workload, cells)


def run_all(budget: Budget, name_filter: str = "", progress=print) -> list[Row]:
    rows = []
    for workload in WORKLOADS:
        if name_filter.lower() in workload.name.lower():
            progress(f"running: {workload.name}")
            rows.append(run_workload(workload, budget))
    return rows
