"""codegen.clone: a deep copy of an AST that shares no node or list with the original."""

import ast

from sourcegrad.codegen.clone import clone


def test_clone_is_equal_and_shares_no_node_or_list():
    tree = ast.parse("def f(x, y=(1, 2)):\n    return np.sum(x * y[0], axis=-1) + 1.5j\n")
    tree.body[0].custom = [ast.Name("marker", ast.Load())]  # extra attributes are copied too
    copied = clone(tree)
    assert ast.dump(copied, include_attributes=True) == ast.dump(tree, include_attributes=True)
    originals = {id(n) for n in ast.walk(tree)}
    assert not originals & {id(n) for n in ast.walk(copied)}
    assert copied.body[0].custom[0] is not tree.body[0].custom[0]
    assert copied.body[0].custom[0].id == "marker"
    assert copied.body is not tree.body


def test_clone_deep_copies_mutable_values_inside_constants():
    node = ast.Constant(value=[1, 2])
    copied = clone(node)
    assert copied.value == [1, 2] and copied.value is not node.value
