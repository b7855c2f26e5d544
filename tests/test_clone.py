"""codegen.clone: a deep copy of an AST that shares no node or list with the original, and
copies only what the AST defines."""

import ast

import pytest

from sourcegrad.codegen.clone import clone, clone_replacing
from sourcegrad.codegen.inline import fold


def test_clone_is_equal_and_shares_no_node_or_list():
    tree = ast.parse("def f(x, y=(1, 2)):\n    return np.sum(x * y[0], axis=-1) + 1.5j\n")
    copied = clone(tree)
    assert ast.dump(copied, include_attributes=True) == ast.dump(tree, include_attributes=True)
    originals = {id(n) for n in ast.walk(tree)}
    assert not originals & {id(n) for n in ast.walk(copied)}
    assert copied.body is not tree.body


@pytest.fixture
def link_parents():
    """What IPython's traceback display (``executing``) does to every tree it reads; the
    links are removed afterwards (they also reach the nodes ``ast.parse`` shares)."""
    linked = []

    def link(tree):
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                child.parent = node
                linked.append(child)
        return tree

    yield link
    for node in linked:
        node.__dict__.pop("parent", None)


def test_a_node_carrying_a_parent_link_is_cloned_without_it(link_parents):
    tree = link_parents(ast.parse("y = np.sin(x) + x * 2.0\n"))
    expr = tree.body[0].value
    assert expr.parent is tree.body[0]
    copied = clone(expr)  # the parent links make cycles: following them never ends
    assert ast.dump(copied, include_attributes=True) == ast.dump(expr, include_attributes=True)
    assert not any(hasattr(node, "parent") for node in ast.walk(copied))


def test_only_fields_and_location_attributes_are_copied():
    node = ast.parse("f(x)\n").body[0]
    node.custom = [ast.Name("marker", ast.Load())]
    copied = clone(node)
    assert not hasattr(copied, "custom")
    assert (copied.lineno, copied.end_col_offset) == (1, 4)


def test_folding_a_template_drops_foreign_attributes(link_parents):
    expr = link_parents(ast.parse("g * 1.0 + h", mode="eval")).body
    folded = fold(expr)
    assert ast.unparse(folded) == "g + h"
    assert not any(hasattr(node, "parent") for node in ast.walk(folded))


def test_clone_replacing_swaps_nodes_by_identity(link_parents):
    expr = link_parents(ast.parse("np.sum(x, axis=0) + x", mode="eval")).body
    first_x = expr.left.args[0]
    copied = clone_replacing(expr, {id(first_x): ast.Name("tangent_x", ast.Load())})
    assert ast.unparse(copied) == "np.sum(tangent_x, axis=0) + x"
    assert ast.unparse(expr) == "np.sum(x, axis=0) + x"
    assert not any(hasattr(node, "parent") for node in ast.walk(copied))


def test_clone_deep_copies_mutable_values_inside_constants():
    node = ast.Constant(value=[1, 2])
    copied = clone(node)
    assert copied.value == [1, 2] and copied.value is not node.value
