"""Long generated lines wrapped at the project's 100 columns, as a careful person wraps them.

A statement longer than the limit is broken inside brackets, where Python allows it:
after a comma, or before a binary operator of the lowest precedence in its bracket (so that
``a + b * c`` never breaks at ``*``), the continuation aligned just inside the bracket. A
value with an operator or a comma outside any bracket (``x = a + b``, ``return a, b``) is
put in parentheses first. Among the places that fit, the shallowest (then the rightmost)
is chosen: the outer structure of an expression shows first. Only line breaks are added,
so the code means exactly what it meant; a provenance comment too long to fit is cut with
`` ...`` (it quotes the user's line, which is in the user's file).
"""

from __future__ import annotations

import bisect
import io
import math
import tokenize
from dataclasses import dataclass

LIMIT = 100
_CUT = " ..."

# binary operators by precedence (low to high); unary ``-``/``+``/``~`` are told apart by
# what precedes them
_PRECEDENCE = {
    "or": 1, "and": 2,
    "<": 4, ">": 4, "==": 4, ">=": 4, "<=": 4, "!=": 4,
    "|": 5, "^": 6, "&": 7, "<<": 8, ">>": 8, "+": 9, "-": 9,
    "*": 10, "/": 10, "//": 10, "%": 10, "@": 10, "**": 12,
}
_OPENING, _CLOSING = "([{", ")]}"
_ASSIGNMENTS = {"=", "+=", "-=", "*=", "/=", "//=", "%=", "@=", "**=", "|=", "&=", "^="}


@dataclass(frozen=True)
class _Break:
    position: int  # where the next line starts, in the statement's text
    rank: float  # how deep in the expression's structure: brackets, then operators
    anchor: int  # the position the next line aligns under (just inside its bracket, or
    #              the start of the operand it continues)


def wrap(source: str, limit: int = LIMIT) -> str:
    """``source`` (generated code) with every line within ``limit`` columns where possible."""
    lines = source.split("\n")
    if all(len(line) <= limit for line in lines):
        return source
    out: list[str] = []
    for line in lines:
        if len(line) <= limit:
            out.append(line)
        elif line.lstrip().startswith("#"):
            out.append(line[:limit - len(_CUT)].rstrip() + _CUT)
        else:
            out.extend(wrap_statement(line, limit))
    return "\n".join(out)


def wrap_statement(line: str, limit: int = LIMIT) -> list[str]:
    """One physical line of code as several, each within ``limit`` if it can be; the
    targets of an unpacking (``(a, b) = pair``) are broken too only where breaking the
    value is not enough."""
    if len(line) <= limit:
        return [line]
    lines = _wrapped(line, limit, targets=False)
    if any(len(text) > limit for text in lines):
        again = _wrapped(line, limit, targets=True)
        if max(map(len, again)) < max(map(len, lines)):
            return again
    return lines


def _wrapped(line: str, limit: int, targets: bool) -> list[str]:
    indent = len(line) - len(line.lstrip())
    text = _parenthesized(line.strip(), targets)
    tokens = _tokens(text)
    if tokens is None:
        return [line]
    breaks = _breaks(tokens)
    # the breaks by position, and from each on, the one listed first: each line then looks
    # only at the breaks within its reach (scanning them all per line was quadratic in the
    # statement's length: a `del` of a long loop's values, a long tuple)
    order = sorted(range(len(breaks)), key=lambda i: breaks[i].position)
    positions = [breaks[i].position for i in order]
    first_listed = order[:]
    for k in range(len(order) - 2, -1, -1):
        first_listed[k] = min(first_listed[k], first_listed[k + 1])
    starts: list[tuple[int, int]] = [(0, indent)]  # (position, column) of each line

    def column_of(position: int) -> int:
        start, column = starts[bisect.bisect_right(starts, (position, math.inf)) - 1]
        return column + position - start

    while True:
        start, column = starts[-1]
        if column + len(text) - start <= limit:
            break
        first = bisect.bisect_right(positions, start)
        if first == len(order):  # nothing to break at: the line stays long
            break
        fitting = []
        for k in range(first, len(order)):
            if column + len(text[start:positions[k]].rstrip()) > limit:
                break
            fitting.append(order[k])
        fitting = [breaks[i] for i in sorted(fitting)] or [breaks[first_listed[first]]]
        best = min(b.rank for b in fitting)
        chosen = max((b for b in fitting if b.rank == best), key=lambda b: b.position)
        starts.append((chosen.position, column_of(chosen.anchor)))
    ends = [position for position, _ in starts[1:]] + [len(text)]
    return [" " * column + text[start:end].rstrip()
            for (start, column), end in zip(starts, ends, strict=True)]


def _tokens(text: str) -> list[tokenize.TokenInfo] | None:
    try:
        found = list(tokenize.generate_tokens(io.StringIO(text + "\n").readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    return [t for t in found if t.type not in (tokenize.NEWLINE, tokenize.NL,
                                                tokenize.ENDMARKER, tokenize.COMMENT)]


def _parenthesized(text: str, targets: bool = False) -> str:
    """The statement with its value in parentheses when the value has an operator or a
    comma outside any bracket (the only way to break it without a backslash); with
    ``targets``, so too the targets of an unpacking (``(a, b) = pair``)."""
    tokens = _tokens(text)
    if not tokens:
        return text
    end = _unpacking_targets(tokens) if targets else None
    if end is not None:
        return _parenthesized(f"({text[:end].rstrip()}) {text[end:].lstrip()}")
    value_start = None
    if tokens[0].string == "return" and len(tokens) > 1:
        value_start = tokens[1].start[1]
    else:
        depth = 0
        for token in tokens:
            if token.string in _OPENING:
                depth += 1
            elif token.string in _CLOSING:
                depth -= 1
            elif depth == 0 and token.type == tokenize.OP and token.string in _ASSIGNMENTS:
                value_start = token.end[1]
                break
    if value_start is None:
        return text
    depth, previous = 0, None
    for token in tokens:
        if token.start[1] < value_start:
            previous = token
            continue
        if token.string in _OPENING:
            depth += 1
        elif token.string in _CLOSING:
            depth -= 1
        elif depth == 0 and (token.string == "," or _is_binary(token, previous)):
            value = text[value_start:].strip()
            return f"{text[:value_start].rstrip()} ({value})"
        previous = token
    return text


def _unpacking_targets(tokens: list[tokenize.TokenInfo]) -> int | None:
    """Where the ``=`` of ``a, b = value`` is (its targets have a comma outside any bracket);
    ``None`` for any other statement."""
    depth, comma = 0, False
    for token in tokens:
        if token.string in _OPENING:
            depth += 1
        elif token.string in _CLOSING:
            depth -= 1
        elif depth == 0 and token.string == ",":
            comma = True
        elif depth == 0 and token.type == tokenize.OP and token.string in _ASSIGNMENTS:
            return token.start[1] if comma and token.string == "=" else None
        elif depth == 0 and token.type == tokenize.NAME and token.string in (
                "return", "for", "del", "import", "from", "with", "assert", "global"):
            return None
    return None


def _breaks(tokens: list[tokenize.TokenInfo]) -> list[_Break]:
    """Every place a line may break: after a comma, aligned just inside its bracket; or
    before a binary operator, aligned under the start of the operand it continues. A comma
    ranks with its bracket's depth, an operator half a level deeper (it is inside an
    argument), and more so the higher its precedence among its bracket's operators."""
    depths = _depths(tokens)
    breaks: list[_Break] = []
    open_at: list[int] = []  # index of each open bracket's token
    # per open bracket: the precedences of its binary operators, and (index, precedence)
    # of the operators and commas seen so far in it
    previous = None
    members: dict[int, list[tuple[int, int]]] = {}
    for index, token in enumerate(tokens):
        if token.string in _CLOSING and open_at:
            open_at.pop()
        elif open_at and token.string == ",":
            members[open_at[-1]].append((index, 0))
        elif open_at and _is_binary(token, previous):
            members[open_at[-1]].append((index, _PRECEDENCE[token.string]))
        if token.string in _OPENING:
            open_at.append(index)
            members[index] = []
        previous = token
    for opening, found in members.items():
        inside = tokens[opening].end[1]
        levels = sorted({p for _, p in found if p})
        latest: dict[int, int] = {}  # precedence -> the token of its last member so far
        for index, precedence in found:
            if precedence == 0:  # a comma: the next line starts after it
                latest[0] = index
                following = index + 1
                if following < len(tokens) and tokens[following].string not in _CLOSING:
                    breaks.append(_Break(tokens[following].start[1], depths[index], inside))
                continue
            # the operand's start: after the last comma or looser operator
            earlier = max((i for p, i in latest.items() if p < precedence), default=None)
            anchor = inside
            if earlier is not None:
                anchor = tokens[earlier + 1].start[1] if tokens[earlier].string == "," else (
                    tokens[earlier].end[1] + 1)
            latest[precedence] = index
            rank = depths[index] + 0.5 + 0.1 * levels.index(precedence)
            breaks.append(_Break(tokens[index].start[1], rank, anchor))
    return breaks


def _depths(tokens: list[tokenize.TokenInfo]) -> list[int]:
    depths, depth = [], 0
    for token in tokens:
        if token.string in _CLOSING:
            depth -= 1
        depths.append(depth)
        if token.string in _OPENING:
            depth += 1
    return depths


def _is_binary(token: tokenize.TokenInfo, previous: tokenize.TokenInfo | None) -> bool:
    if token.string not in _PRECEDENCE or previous is None:
        return False
    if token.string in ("or", "and"):
        return token.type == tokenize.NAME
    if token.type != tokenize.OP:
        return False
    if token.string in ("-", "+"):  # unary after an operator, a bracket, a comma or a keyword
        return not (previous.string in _PRECEDENCE or previous.string in _OPENING
                    or previous.string in (",", "=", ":", "return", "lambda", "not", "in",
                                           "if", "else", "is")
                    or previous.string in _ASSIGNMENTS)
    return True
