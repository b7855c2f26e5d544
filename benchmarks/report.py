"""Markdown for the tables, with skipped and mismatched cells pointing at numbered notes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from benchmarks.gradients_table import Cell, Row
from benchmarks.peers import BASELINE, PEERS


class Notes:
    """Footnotes numbered in order of first use; the same text is numbered once."""

    def __init__(self) -> None:
        self._numbers: dict[str, int] = {}

    def ref(self, text: str) -> str:
        number = self._numbers.setdefault(text, len(self._numbers) + 1)
        return f"[{number}]"

    def markdown(self) -> str:
        return "\n".join(f"{number}. {text}" for text, number in self._numbers.items())


def format_seconds(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def format_bytes(count: int) -> str:
    return f"{count / 2**20:.3g} MiB" if count >= 2**16 else f"{count / 2**10:.3g} KiB"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _cell_text(cell: Cell, notes: Notes, value: Callable[[Cell], str | None]) -> str:
    if cell.note is not None:
        return ("mismatch " if cell.mismatch else "— ") + notes.ref(cell.note)
    return value(cell) or "n/m"


def time_table(rows: Sequence[Row], notes: Notes) -> str:
    """Median gradient time of each library as a multiple of the NumPy forward's time."""
    header = ["workload", f"{BASELINE.name} (median)", *(peer.name for peer in PEERS)]
    body = []
    for row in rows:
        line = [row.workload.name, _cell_text(row.cells[BASELINE.name], notes, _absolute_time)]
        for peer in PEERS:
            line.append(_cell_text(row.cells[peer.name], notes, _ratio_to_forward))
        body.append(line)
    return markdown_table(header, body)


def _absolute_time(cell: Cell) -> str:
    return format_seconds(cell.seconds)


def _ratio_to_forward(cell: Cell) -> str:
    if cell.ratio_to_forward is None:
        return format_seconds(cell.seconds)
    return f"{cell.ratio_to_forward:.3g}x"


def memory_table(rows: Sequence[Row], notes: Notes) -> str:
    """Peak traced memory of one call; ``n/m`` where tracemalloc cannot see the allocator."""
    header = ["workload", BASELINE.name, *(peer.name for peer in PEERS)]
    body = []
    for row in rows:
        line = [row.workload.name]
        for name in (BASELINE.name, *(peer.name for peer in PEERS)):
            line.append(_cell_text(row.cells[name], notes, _peak))
        body.append(line)
    footer = ("\n\nn/m: not measurable with tracemalloc; PyTorch, XLA and Numba's compiled code "
              "allocate through their own allocators, out of its sight.")
    return markdown_table(header, body) + footer


def _peak(cell: Cell) -> str | None:
    return None if cell.peak_bytes is None else format_bytes(cell.peak_bytes)


def _seconds(row: Row, name: str) -> float | None:
    """Time relative to the forward (paired within rounds) when known, else absolute."""
    cell = row.cells[name]
    return cell.ratio_to_forward if cell.ratio_to_forward is not None else cell.seconds


def _verdict(value: float | None, met: Callable[[float], bool], unit: str = "x") -> list[str]:
    if value is None:
        return ["not measured", "—"]
    return [f"{value:.3g}{unit}", "yes" if met(value) else "**no**"]


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or denominator is None:
        return None
    return numerator / denominator


def _issue_14_rows(row: Row) -> list[list[str]]:
    """sg.grad at most 1.1x a straightforward hand-written gradient and 1.25x a careful
    one; peak memory at most 1.2x, where the hand-written gradient is the careful one."""
    name, sg_time = row.workload.name, _seconds(row, "sg.grad")
    hand = _ratio(sg_time, _seconds(row, "hand-written"))
    if row.workload.careful:
        rows = [[f"{name}: sg.grad time / careful hand-written ≤ 1.25 (issue 14)",
                 *_verdict(hand, lambda r: r <= 1.25)],
                [f"{name}: sg.grad peak memory / hand-written ≤ 1.2 (issue 14)",
                 *_verdict(_ratio(row.cells["sg.grad"].peak_bytes,
                                  row.cells["hand-written"].peak_bytes), lambda r: r <= 1.2)]]
        return rows
    rows = [[f"{name}: sg.grad time / straightforward hand-written ≤ 1.1 (issue 14)",
             *_verdict(hand, lambda r: r <= 1.1)]]
    careful = row.cells.get("hand-written, careful")
    if careful is not None and careful.note is None:
        rows.append([f"{name}: sg.grad time / careful hand-written ≤ 1.25 (issue 14)",
                     *_verdict(_ratio(sg_time, _seconds(row, "hand-written, careful")),
                               lambda r: r <= 1.25)])
    return rows


def targets(rows: Sequence[Row], overhead, transform, sweep=None) -> str:
    """The issues' targets, each with the measured figure and whether it is met."""
    body = []
    for row in rows:
        name = row.workload.name
        sg_time, sg_cell = _seconds(row, "sg.grad"), row.cells["sg.grad"]
        if row.workload.array_workload:
            hand = row.cells["hand-written"]
            body.append([f"{name}: sg.grad time / hand-written ≤ 1.25",
                         *_verdict(_ratio(sg_time, _seconds(row, "hand-written")),
                                   lambda r: r <= 1.25)])
            body.append([f"{name}: sg.grad peak memory / hand-written ≤ 1.5",
                         *_verdict(_ratio(sg_cell.peak_bytes, hand.peak_bytes),
                                   lambda r: r <= 1.5)])
        else:
            for peer, bound in (("autograd", 10), ("PyTorch", 10), ("JAX", 1)):
                body.append([f"{name}: {peer} time / sg.grad ≥ {bound}",
                             *_verdict(_ratio(_seconds(row, peer), sg_time),
                                       lambda r, bound=bound: r >= bound)])
        if row.workload.array_workload:
            body += _issue_14_rows(row)
        if row.cells.get("JAX jit (loops)") and row.cells["JAX jit (loops)"].note is None:
            body.append([f"{name}: sg.jit time / JAX jit (loops) < 1 (issue 14)",
                         *_verdict(_ratio(_seconds(row, "sg.jit"),
                                          _seconds(row, "JAX jit (loops)")), lambda r: r < 1)])
    if overhead is not None:
        per_op = {result.name: result.per_op_seconds for result in overhead}
        body.append(["eager per-op: PyTorch / sourcegrad ≥ 1",
                     *_verdict(_ratio(per_op.get("PyTorch eager"), per_op.get("sourcegrad eager")),
                               lambda r: r >= 1)])
        chains = {result.name: result.forward_backward_seconds for result in overhead}
        body.append(["100-op chain: eager / @differentiable (speed-up of decorating)",
                     *_verdict(_ratio(chains.get("sourcegrad eager"),
                                      chains.get("sourcegrad @differentiable chain")),
                               lambda r: r >= 1)])
    if transform is not None:
        seconds = {result.library: result.seconds for result in transform}
        body.append(["transformation: tangent-ad / sg.grad ≥ 10",
                     *_verdict(_ratio(seconds.get("tangent-ad"), seconds.get("sourcegrad")),
                               lambda r: r >= 10)])
    for result in sweep or ():
        if result.lines >= 300:  # issue 14: linear, at most 2.5 ms a line at every size
            body.append([f"transformation of {result.lines:,} lines: ms a line ≤ 2.5",
                         *_verdict(result.ms_per_line, lambda r: r <= 2.5, unit=" ms")])
    header = ["target (issues 6 and 14)", "measured", "met"]
    return "## Targets\n\n" + markdown_table(header, body)
