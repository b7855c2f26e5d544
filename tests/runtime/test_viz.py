"""``sg.viz.make_dot``: the graph drawn has the nodes, edges and labels of the recorded
graph, the same as PyTorch's graph of the same computation drawn the torchviz way."""

import collections
import os
import re

import numpy as np
import pydot
import pytest

import sourcegrad as sg

torch = pytest.importorskip("torch")
graphviz = pytest.importorskip("graphviz")

NODE = re.compile(r'(\d+) \[label=("(?:[^"\\]|\\.)*"|[^\s\]]+)([^\]]*)\]', re.S)
EDGE = re.compile(r"(\d+) -> (\d+)")


def parsed(dot):
    """Labels by node id, attributes by node id, and the edges, from the DOT text."""
    labels, attributes = {}, {}
    for node, label, rest in NODE.findall(dot.source):
        labels[node] = label.strip('"').replace("\\n", "\n")
        attributes[node] = rest
    return labels, attributes, EDGE.findall(dot.source)


def torch_structure(output, params):
    """What torchviz draws for a PyTorch graph: labelled edges between labelled nodes."""
    names = {id(t): n for n, t in params.items()}
    edges, seen = [], set()

    def tensor_label(t):
        return f"{names.get(id(t), '')}\n ({', '.join(str(n) for n in t.shape)})"

    def walk(fn):
        if fn in seen:
            return
        seen.add(fn)
        if hasattr(fn, "variable"):
            edges.append((tensor_label(fn.variable), type(fn).__name__))
        for source, _ in fn.next_functions:
            if source is not None:
                edges.append((type(source).__name__, type(fn).__name__))
                walk(source)

    walk(output.grad_fn)
    edges.append((type(output.grad_fn).__name__, tensor_label(output)))
    return collections.Counter(edges)


def labelled_edges(dot):
    labels, _, edges = parsed(dot)
    return collections.Counter((labels[a].split("\n")[0] if "Backward" in labels[a]
                                or labels[a] == "AccumulateGrad" else labels[a],
                                labels[b].split("\n")[0] if "Backward" in labels[b]
                                or labels[b] == "AccumulateGrad" else labels[b])
                               for a, b in edges)


def test_the_graph_of_a_small_model_is_drawn_as_torchviz_draws_pytorchs():
    data = {"w": np.array([[0.5, -1.0], [2.0, 0.25], [1.0, 1.5]], np.float32),
            "b": np.array([0.1, -0.2], np.float32)}
    x = np.array([[1.0, 2.0, 3.0]], np.float32)
    ours = {k: sg.tensor(v, requires_grad=True) for k, v in data.items()}
    theirs = {k: torch.tensor(v, requires_grad=True) for k, v in data.items()}
    out = (sg.tanh(sg.tensor(x) @ ours["w"] + ours["b"]) * ours["b"]).sum()
    expected = (torch.tanh(torch.tensor(x) @ theirs["w"] + theirs["b"]) * theirs["b"]).sum()
    dot = sg.viz.make_dot(out, params=ours)
    assert isinstance(dot, graphviz.Digraph)
    assert labelled_edges(dot) == torch_structure(expected, theirs)
    labels, attributes, _ = parsed(dot)
    colours = {labels[n].split("\n")[0]: re.search(r"fillcolor=(\w+)", a)[1]
               for n, a in attributes.items() if "fillcolor" in a}
    assert colours == {"w": "lightblue", "b": "lightblue", "": "darkolivegreen1"}


@sg.differentiable
def predict(w, b, x):
    return np.tanh(x @ w + b)


def test_a_decorated_functions_node_names_the_function_and_links_to_its_source():
    w = sg.tensor(np.ones((3, 2)), requires_grad=True)
    out = predict(w, sg.tensor(np.zeros(2)), sg.tensor(np.ones((4, 3)))).sum()
    labels, attributes, edges = parsed(sg.viz.make_dot(out, params={"w": w}))
    (node,) = [n for n, text in labels.items() if text.startswith("PredictBackward")]
    line = predict.fn.__code__.co_firstlineno
    assert labels[node] == f"PredictBackward\npredict (test_viz.py:{line})"
    assert f'URL="{os.path.abspath(__file__)}'.replace("URL=\"", 'URL="file://') + \
        f'#L{line}"' in attributes[node]
    sources = {labels[a] for a, b in edges if b == node}
    assert sources == {"AccumulateGrad"}  # only w requires grad


def test_several_outputs_and_shared_nodes_are_drawn_once():
    a = sg.tensor([1.0, 2.0], requires_grad=True)
    shared = a * 2
    first, second = shared.exp(), shared.sin()
    labels, _, edges = parsed(sg.viz.make_dot((first, second), params={"a": a}))
    assert sorted(labels.values()).count("MulBackward0") == 1
    assert sum(1 for text in labels.values() if text == "AccumulateGrad") == 1
    assert len(edges) == len(set(edges))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # pyparsing's, inside pydot
def test_the_text_is_dot_that_graphviz_reads():
    """What ``dot`` would render: DOT's grammar (pydot's parser, in Python, so that the test
    needs no program found through PATH) reads the text back with the same nodes and edges."""
    a = sg.tensor([1.0, 2.0], requires_grad=True)
    dot = sg.viz.make_dot((a * a).exp().sum(), params={"a": a})
    (graph,) = pydot.graph_from_dot_data(dot.source)
    labels, _, edges = parsed(dot)
    assert {n.get_name() for n in graph.get_nodes()} >= set(labels)
    assert sorted((e.get_source(), e.get_destination()) for e in graph.get_edges()) == sorted(edges)
    assert {n.get_label().strip('"').replace("\\n", "\n") for n in graph.get_nodes()
            if n.get_name() in labels} == set(labels.values())
