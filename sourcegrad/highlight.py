"""ANSI colours for Python source shown on a terminal (``sourcegrad show``).

The standard library's tokenizer finds keywords, names, strings, numbers and comments; each
token's text is wrapped in a colour and everything between tokens is copied as it is, so
removing the colour codes gives back the exact text.
"""

from __future__ import annotations

import builtins
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
_BUILTINS = frozenset(dir(builtins))
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def highlight(source: str) -> str:
    """``source`` with ANSI colours; unchanged if it does not tokenize."""
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    out: list[str] = []
    position = 0
    previous = ""
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            start = offsets[tok.start[0] - 1] + tok.start[1] if tok.start[0] <= len(lines) \
                else len(source)
            end = offsets[tok.end[0] - 1] + tok.end[1] if tok.end[0] <= len(lines) \
                else len(source)
            kind = _kind(tok, previous)
            if tok.type not in (token.NL, token.NEWLINE, token.INDENT, token.DEDENT):
                previous = tok.string
            if kind is None or end <= start:
                continue
            out.append(source[position:start])
            out.append(f"{_COLOURS[kind]}{source[start:end]}{RESET}")
            position = end
    except (tokenize.TokenError, SyntaxError):
        return source
    out.append(source[position:])
    return "".join(out)


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
