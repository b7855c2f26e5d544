"""``sg.viz.make_dot``: a picture of the graph the runtime recorded, as torchviz draws
PyTorch's.

Backward nodes are boxes named by their ``grad_fn`` class (``MulBackward0``); a leaf that
requires grad is a light blue box under its name in ``params`` and its shape, joined to its
``AccumulateGrad`` node; the output is a green box with its shape. A ``@sg.differentiable``
function's node also names the function and links (``URL``, shown as a tooltip and a link in
SVG output) to the line of the file it is defined on.

Needs the optional extra ``viz`` (the ``graphviz`` Python package); rendering the picture
to a file needs Graphviz's ``dot`` program (``apt-get install graphviz``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .runtime.graph import AccumulateGrad, Node
from .runtime.tensor import Tensor

__all__ = ["make_dot"]

NODE_STYLE = dict(style="filled", shape="box", align="left", fontsize="10", ranksep="0.1",
                  height="0.2", fontname="monospace")
LEAF_COLOUR = "lightblue"
OUTPUT_COLOUR = "darkolivegreen1"
FUNCTION_COLOUR = "lightyellow"


def _graphviz() -> Any:
    try:
        import graphviz
    except ImportError as exc:
        raise ImportError("sg.viz needs the graphviz Python package: "
                          "pip install 'sourcegrad[viz]'") from exc
    return graphviz


def make_dot(var: Tensor | tuple[Tensor, ...], params: dict[str, Tensor] | None = None) -> Any:
    """A ``graphviz.Digraph`` of the graph behind ``var`` (a tensor or a tuple of them);
    ``params`` names leaves, as ``dict(model.named_parameters())`` does.

    >>> x = sg.tensor([1.0, 2.0], requires_grad=True)
    >>> dot = sg.viz.make_dot((x * x).sum(), params={"x": x})
    >>> all(label in dot.source for label in ("SumBackward0", "MulBackward0", "AccumulateGrad"))
    True
    """
    names = {id(tensor): name for name, tensor in (params or {}).items()}
    dot = _graphviz().Digraph(node_attr=NODE_STYLE, graph_attr=dict(size="12,12"))
    drawn: set[int] = set()

    def tensor_label(tensor: Tensor, name: str = "") -> str:
        return f"{name or names.get(id(tensor), '')}\n {_size(tensor.shape)}"

    def add_node(node: Node) -> None:
        if id(node) in drawn:
            return
        drawn.add(id(node))
        if isinstance(node, AccumulateGrad):
            leaf = node.variable
            drawn.add(id(leaf))
            dot.node(str(id(leaf)), tensor_label(leaf), fillcolor=LEAF_COLOUR)
            dot.edge(str(id(leaf)), str(id(node)))
        dot.node(str(id(node)), **_node_attributes(node))
        for source, _ in node.next_functions:
            if source is not None:
                dot.edge(str(id(source)), str(id(node)))
                add_node(source)

    for tensor in var if isinstance(var, tuple) else (var,):
        if id(tensor) in drawn:
            continue
        drawn.add(id(tensor))
        dot.node(str(id(tensor)), tensor_label(tensor), fillcolor=OUTPUT_COLOUR)
        if tensor.grad_fn is not None:
            add_node(tensor.grad_fn)
            dot.edge(str(id(tensor.grad_fn)), str(id(tensor)))
    return dot


def _node_attributes(node: Node) -> dict[str, str]:
    """A node's label, and for a decorated function its name and a link to its source."""
    function = getattr(type(node), "function", None)
    if function is None:
        return {"label": node.name()}
    code = function.__code__
    path = Path(code.co_filename)
    attributes = {"label": f"{node.name()}\n{function.__qualname__} "
                           f"({path.name}:{code.co_firstlineno})",
                  "tooltip": f"{function.__qualname__}, {code.co_filename} line "
                             f"{code.co_firstlineno}: its backward is the generated adjoint",
                  "fillcolor": FUNCTION_COLOUR}
    if path.is_file():  # not ``<stdin>`` or a notebook cell
        attributes["URL"] = f"{path.resolve().as_uri()}#L{code.co_firstlineno}"
    return attributes


def _size(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ")"
