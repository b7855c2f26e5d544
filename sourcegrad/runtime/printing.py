"""Tensors printed the way PyTorch prints them.

One number format is chosen per tensor from its non-zero finite values: integers-as-floats
(``1.``), fixed point with 4 decimals (``0.1234``) or scientific notation (``1.2345e-05``)
when the magnitudes span more than three decades, exceed 1e8 or go below 1e-4. Every element
is right-aligned to the widest, rows wrap at 80 columns, and tensors of more than 1000
elements show only their first and last three entries along each dimension.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

PRECISION = 4
THRESHOLD = 1000
EDGE_ITEMS = 3
LINE_WIDTH = 80
DEFAULT_DTYPES = (np.dtype(np.float32), np.dtype(np.int64), np.dtype(np.bool_))


class NumberFormat:
    """How every element of one tensor is written, and the common width."""

    def __init__(self, values: np.ndarray) -> None:
        self.kind = "plain"
        self.width = 1
        if values.dtype.kind != "f":
            self.width = max((len(self._plain(v)) for v in values.tolist()), default=1)
            return
        finite = values[np.isfinite(values) & (values != 0)].astype(np.float64)
        if finite.size == 0:  # zeros, infinities and nans only
            self.kind = "integral"
            return
        magnitudes = np.abs(finite)
        lo, hi = magnitudes.min(), magnitudes.max()
        integral = bool(np.all(finite == np.ceil(finite)))
        spread = hi / lo > 1000.0 or hi > 1.0e8 or (not integral and lo < 1.0e-4)
        self.kind = "scientific" if spread else ("integral" if integral else "fixed")
        self.width = max(len(self.format_bare(v)) for v in finite.tolist())

    @staticmethod
    def _plain(value: object) -> str:
        return str(value)

    def format_bare(self, value: float) -> str:
        if self.kind == "plain":
            return self._plain(value)
        if self.kind == "scientific":
            return f"{value:.{PRECISION}e}"
        if self.kind == "integral":
            text = f"{value:.0f}"
            return text if math.isinf(value) or math.isnan(value) else text + "."
        return f"{value:.{PRECISION}f}"

    def format(self, value: float) -> str:
        return self.format_bare(value).rjust(self.width)


def tensor_repr(data: np.ndarray, suffixes: Sequence[str], prefix: str = "tensor(") -> str:
    """``tensor([...], <suffixes>)`` with PyTorch's layout."""
    indent = len(prefix)
    suffixes = list(suffixes)
    if data.dtype not in DEFAULT_DTYPES:
        suffixes.insert(0, f"dtype=sg.{data.dtype.name}")
    if data.size == 0:
        if data.ndim != 1:
            suffixes.insert(0, f"size={tuple(data.shape)}")
        body = "[]"
    else:
        summarize = data.size > THRESHOLD
        number_format = NumberFormat(_summarized(data) if summarize else data.ravel())
        body = _block(data, indent, summarize, number_format)
    return _with_suffixes(prefix + body, suffixes, indent)


def _summarized(data: np.ndarray) -> np.ndarray:
    """The elements that a summarized print shows (for choosing the number format)."""
    if data.ndim == 0:
        return data.ravel()
    if data.shape[0] > 2 * EDGE_ITEMS:
        rows = [*data[:EDGE_ITEMS], *data[-EDGE_ITEMS:]]
    else:
        rows = list(data)
    return np.concatenate([_summarized(np.asarray(r)) for r in rows])


def _block(data: np.ndarray, indent: int, summarize: bool, fmt: NumberFormat) -> str:
    if data.ndim == 0:
        return fmt.format(data.item())
    if data.ndim == 1:
        return _row(data, indent, summarize, fmt)
    elided = summarize and data.shape[0] > 2 * EDGE_ITEMS
    shown = [*range(EDGE_ITEMS), *range(len(data) - EDGE_ITEMS, len(data))] if elided \
        else range(len(data))
    parts = [_block(data[i], indent + 1, summarize, fmt) for i in shown]
    if elided:
        parts.insert(EDGE_ITEMS, "...")
    separator = "," + "\n" * (data.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def _row(data: np.ndarray, indent: int, summarize: bool, fmt: NumberFormat) -> str:
    per_line = max(1, (LINE_WIDTH - indent) // (fmt.width + 2))
    if summarize and data.size > 2 * EDGE_ITEMS:
        items = [fmt.format(v) for v in data[:EDGE_ITEMS].tolist()]
        items += [" ..."] + [fmt.format(v) for v in data[-EDGE_ITEMS:].tolist()]
    else:
        items = [fmt.format(v) for v in data.tolist()]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _with_suffixes(text: str, suffixes: Sequence[str], indent: int) -> str:
    parts = [text]
    line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if line_length + len(suffix) + 2 > LINE_WIDTH:
            parts.append(",\n" + " " * indent + suffix)
            line_length = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            line_length += len(suffix) + 2
    return "".join(parts) + ")"
