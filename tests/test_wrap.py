"""Wrapping long generated lines: only line breaks are added (the code parses to the same
tree), every line ends within 100 columns, and the breaks follow the expression's structure."""

import ast

from hypothesis import given, settings
from hypothesis import strategies as st

from sourcegrad.codegen.wrap import LIMIT, wrap, wrap_statement

NAMES = st.sampled_from(["x", "grad_x", "tangent_hidden_state", "xs_t_at_Wx_plus_h_at_Wh",
                         "np.size(shape)", "W1", "alpha"])
OPERATORS = st.sampled_from(["+", "-", "*", "/", "@", "**", "//", "%", "<", "==", "and", "or",
                             "|", "&", "<<"])


def expressions(depth: int = 3):
    if depth == 0:
        return st.one_of(NAMES, st.integers(-5, 5).map(str), st.just("1.5"))
    inner = expressions(depth - 1)
    return st.one_of(
        inner,
        st.tuples(inner, OPERATORS, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, OPERATORS, inner).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
        inner.map(lambda e: f"-{e}"),
        st.tuples(st.sampled_from(["unbroadcast", "np.sum", "broadcast_like", "f"]),
                  st.lists(inner, min_size=1, max_size=4),
                  st.lists(st.tuples(st.sampled_from(["axis", "keepdims"]), inner),
                           max_size=2))
        .map(lambda t: f"{t[0]}({', '.join([*t[1], *(f'{k}={v}' for k, v in t[2])])})"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.lists(inner, min_size=2, max_size=4).map(lambda items: f"[{', '.join(items)}]"),
    )


STATEMENTS = st.one_of(
    expressions().map(lambda e: f"value = {e}"),
    expressions().map(lambda e: f"grad_value += {e}"),
    st.lists(expressions(2), min_size=1, max_size=4).map(lambda e: "return " + ", ".join(e)),
    expressions().map(lambda e: f"tangent_stack.append({e})"),
)


def parses_to_the_same_tree(before: str, after: str) -> bool:
    def tree(text):
        return ast.dump(ast.parse("def f():\n" + text))
    return tree(before) == tree(after)


@settings(max_examples=300, deadline=None)
@given(STATEMENTS, st.integers(0, 3))
def test_wrapping_adds_line_breaks_only_and_fits(statement, level):
    line = "    " * (1 + level) + statement
    try:
        ast.parse("def f():\n" + line)
    except SyntaxError:
        return  # the strategy writes a few operator mixes Python rejects (a < b < c is fine)
    wrapped = wrap_statement(line)
    assert parses_to_the_same_tree(line, "\n".join(wrapped))
    longest_token = max(len(part) for part in line.replace("(", " ").replace(",", " ").split())
    if longest_token + 16 * (1 + level) < LIMIT // 2:  # room enough to fit every line
        assert all(len(text) <= LIMIT for text in wrapped), wrapped
    if len(line) <= LIMIT:
        assert wrapped == [line]


def test_breaks_follow_the_structure():
    line = ("    grad_logits = grad_logits + unreduce(grad_max_logits, logits, axis=1, "
            "keepdims=True) * tie_weights(logits, max_logits, axis=1, keepdims=True)")
    assert wrap_statement(line) == [
        "    grad_logits = (grad_logits",
        "                   + unreduce(grad_max_logits, logits, axis=1, keepdims=True)",
        "                     * tie_weights(logits, max_logits, axis=1, keepdims=True))",
    ]
    returned = ("    return as_gradient(grad_W1, W1), as_gradient(grad_b1, b1), "
                "as_gradient(grad_W2, W2), as_gradient(grad_b2, b2)")
    assert wrap_statement(returned) == [
        "    return (as_gradient(grad_W1, W1), as_gradient(grad_b1, b1), "
        "as_gradient(grad_W2, W2),",
        "            as_gradient(grad_b2, b2))",
    ]


def test_a_long_comment_is_cut_and_short_lines_are_kept():
    text = "def f(x):\n    # " + "y = x * 2 + " * 12 + "1\n    return x"
    out = wrap(text).split("\n")
    assert len(out[1]) <= LIMIT and out[1].endswith(" ...")
    assert out[0] == "def f(x):" and out[2] == "    return x"
