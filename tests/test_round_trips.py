"""``drop_round_trips``: ``a = b; b = a`` disappears only where reading ``b`` for ``a`` is
the same thing."""

import ast

from sourcegrad.passes.refold import drop_round_trips, refold


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


def folded(code: str, candidates: set[str]) -> str:
    body = refold(ast.parse(code).body, candidates, only_names=True)
    return ast.unparse(ast.Module(body=body, type_ignores=[]))


def test_a_cotangent_handed_on_unchanged_takes_the_name_it_is_handed_to():
    assert folded("t = g * 2.0\na = t\nb = f(a)", {"t"}) == "a = g * 2.0\nb = f(a)"


def test_a_value_read_again_keeps_its_name():
    code = "t = g * 2.0\na = t\nb = f(t)"
    assert folded(code, {"t"}) == code
    assert folded("t = g * 2.0\na = t", set()) == "t = g * 2.0\na = t"
