"""Colours for Python source: ANSI on a terminal (``sourcegrad show``), HTML in a notebook.

The standard library's tokenizer finds keywords, names, strings, numbers and comments;
``spans`` cuts the text into pieces, each with its kind (or none), so that joining the
pieces gives back the exact text. Both renderings wrap the same pieces, so a terminal and a
notebook colour the same tokens, and neither needs a package beyond the standard library.
Comments (in generated code, the provenance comments quoting the user's line) are dimmed:
they recede behind the code they explain.
"""

from __future__ import annotations

import builtins
import html as _html
import io
import keyword
import re
import token
import tokenize

RESET = "\x1b[0m"
_COLOURS = {
    "keyword": "\x1b[1;35m",  # bold magenta
    "builtin": "\x1b[36m",  # cyan
    "definition": "\x1b[1;34m",  # bold blue: the name after def / class
    "string": "\x1b[32m",  # green
    "number": "\x1b[33m",  # yellow
    "comment": "\x1b[2;3m",  # dim italic: provenance comments recede behind the code
}
# the same colours, readable on a light and on a dark notebook background
_STYLES = {
    "keyword": "color: #a626a4; font-weight: bold",
    "builtin": "color: #0184bc",
    "definition": "color: #4078f2; font-weight: bold",
    "string": "color: #50a14f",
    "number": "color: #c18401",
    "comment": "opacity: 0.55; font-style: italic",
}
_BUILTINS = frozenset(dir(builtins))
ANSI = re.compile(r"\x1b\[[0-9;]*m")

Span = tuple[str | None, str]  # (kind of token, or None for text between tokens; its text)


def spans(source: str) -> list[Span]:
    """``source`` cut into pieces with their kind; one unkinded piece if it does not
    tokenize. ``"".join(text for _, text in spans(source)) == source``."""
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def offset(row: int, column: int) -> int:
        return offsets[row - 1] + column if row <= len(lines) else len(source)

    out: list[Span] = []
    position = 0
    previous = ""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            start, end = offset(*tok.start), offset(*tok.end)
            kind = _kind(tok, previous)
            if tok.type not in (token.NL, token.NEWLINE, token.INDENT, token.DEDENT):
                previous = tok.string
            if kind is None or end <= start:
                continue
            if start > position:
                out.append((None, source[position:start]))
            out.append((kind, source[start:end]))
            position = end
    except (tokenize.TokenError, SyntaxError):
        return [(None, source)]
    if position < len(source):
        out.append((None, source[position:]))
    return out


def highlight(source: str) -> str:
    """``source`` with ANSI colours; unchanged if it does not tokenize."""
    return "".join(text if kind is None else f"{_COLOURS[kind]}{text}{RESET}"
                   for kind, text in spans(source))


def html(source: str) -> str:
    """``source`` as HTML (escaped, each token in a ``<span>`` with an inline style, which
    notebooks keep where they drop style sheets); to be put in a ``<pre>``."""
    return "".join(_html.escape(text) if kind is None
                   else f'<span style="{_STYLES[kind]}">{_html.escape(text)}</span>'
                   for kind, text in spans(source))


def _kind(tok: tokenize.TokenInfo, previous: str) -> str | None:
    if tok.type == token.COMMENT:
        return "comment"
    if tok.type == token.STRING:
        return "string"
    if tok.type == token.NUMBER:
        return "number"
    if tok.type == token.NAME:
        if keyword.iskeyword(tok.string):
            return "keyword"
        if previous in ("def", "class"):
            return "definition"
        if tok.string in _BUILTINS:
            return "builtin"
    return None


def strip(text: str) -> str:
    """``text`` without ANSI colour codes."""
    return ANSI.sub("", text)
