"""Reading a function's source (``frontend/source.py``) finds the same ``def`` as
``inspect.getsource``, with the file's own line and column numbers, however the function is
laid out: the reader finds the block's end without the tokenizer, so the layouts that could
fool it are tried here against inspect's answer."""

import ast
import functools
import inspect
import textwrap

import numpy as np
import pytest

from sourcegrad.frontend.source import parse_function


def plain(x):
    return np.sin(x)


def closing_bracket_alone(x):
    y = np.sum(
        x * 2.0
    )
    return (
        y
    )


def trailing_comment_and_pass(x):
    y = np.cos(x)
    return y
    # a comment indented like the body, then statements that compile to nothing
    pass


def unreachable_code(x):
    return np.tanh(x)
    y = x  # removed by the compiler: no instruction has this line
    return y


def docstring_with_text_at_column_zero(x):
    """A docstring whose second line starts at column zero:
the tokenizer knows it is inside a string, an indentation rule would not."""
    return np.exp(x)


def one_line(x): return x * 2.0


def decorator(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)
    return wrapper


@decorator
def decorated(x):
    return np.log(x)


class Holder:
    @staticmethod
    def method_like(x):
        z = x + 1.0
        return z * z
# a comment at column zero right after the method


def make_nested():
    scale = 3.0

    def nested(x):
        return scale * x
    return nested


def backslash_continuation(x):
    y = x + \
        1.0
    return y


LAYOUTS = [plain, closing_bracket_alone, trailing_comment_and_pass, unreachable_code,
           docstring_with_text_at_column_zero, one_line, decorated, Holder.method_like,
           make_nested(), backslash_continuation]


def _reference(fn):
    """What inspect finds: the tree of ``inspect.getsource``, moved to the file's lines and
    columns."""
    fn = inspect.unwrap(fn)
    text = inspect.getsource(fn)
    first = fn.__code__.co_firstlineno
    tree = ast.parse(textwrap.dedent(text)).body[0]
    indent = len(text) - len(text.lstrip())
    for node in ast.walk(tree):
        if hasattr(node, "lineno"):
            node.lineno += first - 1
            if getattr(node, "end_lineno", None) is not None:
                node.end_lineno += first - 1
        if hasattr(node, "col_offset"):
            node.col_offset += indent
            if getattr(node, "end_col_offset", None) is not None:
                node.end_col_offset += indent
    tree.decorator_list = []
    return tree


@pytest.mark.parametrize("fn", LAYOUTS, ids=lambda fn: fn.__name__)
def test_the_function_read_is_the_one_inspect_finds(fn):
    parsed = parse_function(fn)
    expected = _reference(fn)
    assert ast.dump(parsed.tree, include_attributes=True) == ast.dump(
        expected, include_attributes=True)



@pytest.mark.parametrize("fn", LAYOUTS, ids=lambda fn: fn.__name__)
def test_these_layouts_are_read_without_the_tokenizer(fn, monkeypatch):
    def no_tokenizing(lines):
        raise AssertionError("inspect.getblock tokenizes the source")

    monkeypatch.setattr(inspect, "getblock", no_tokenizing)
    assert parse_function(fn).tree.name == fn.__name__


def unreachable_string_at_column_zero(x):
    return x * 2.0
    note = """
closed at column zero, in code the compiler drops"""
    return note


def test_a_block_whose_end_the_reader_cannot_tell_is_read_by_inspect():
    # no instruction comes from the lines after ``return x * 2.0``, and the string's last
    # line is at column zero: the reader's guess ends inside the string, fails to parse,
    # and inspect reads the block instead
    parsed = parse_function(unreachable_string_at_column_zero)
    assert ast.dump(parsed.tree, include_attributes=True) == ast.dump(
        _reference(unreachable_string_at_column_zero), include_attributes=True)
    assert len(parsed.tree.body) == 3
