"""``drop_round_trips``: ``a = b; b = a`` disappears only where reading ``b`` for ``a`` is
the same thing."""

import ast

from sourcegrad.passes.refold import drop_round_trips


def rewritten(code: str) -> str:
    return ast.unparse(ast.Module(body=drop_round_trips(ast.parse(code).body), type_ignores=[]))


def test_the_pair_goes_and_later_reads_read_the_original():
    assert rewritten("a = b\nb = a\nc = f(a)") == "c = f(b)"


def test_a_read_before_the_pair_keeps_it():
    code = "for i in r:\n    c = f(a)\n    a = b\n    b = a"
    assert rewritten(code) == ast.unparse(ast.parse(code))


def test_a_read_after_b_changes_keeps_it():
    code = "a = b\nb = a\nb = g(x)\nc = f(a)"
    assert rewritten(code) == ast.unparse(ast.parse(code))


def test_reads_before_a_is_reassigned_are_renamed():
    assert rewritten("a = b\nb = a\nc = f(a)\na = g(x)") == "c = f(b)\na = g(x)"
