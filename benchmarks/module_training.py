"""Issue 16's figures: one training step of an MLP, a whole model as one generated adjoint.

The contenders train the same MLP of six ``Linear`` layers with ``tanh`` between them
(float32, as PyTorch's default) with cross-entropy and ``SGD(lr, momentum)``:

- sourcegrad per-op: ``sg.nn.Sequential`` of ``sg.nn`` layers, one recorded node per
  operation, as a PyTorch user writes it with ``sg`` in place of ``torch``;
- sourcegrad one node: a ``sg.nn.Module`` whose ``forward`` is NumPy code under
  ``@sg.differentiable`` reading its ``Linear`` layers' parameters: the whole model is one
  node, its backward the generated adjoint (the loss stays a per-op node);
- sourcegrad one node, composed: the same one node made of layers whose own forward is
  decorated NumPy code, called by class (``Hidden.forward(self.first, x)``): ``self`` is then
  differentiated as a record of the module's arrays, whose cotangent costs bookkeeping;
- PyTorch eager: ``torch.nn.Sequential`` of the same layers.

A step is ``zero_grad``, forward, loss, ``backward``, ``step``. All start from the same
weights, and one step of each must give the same parameters before anything is timed. Two
sizes: a small model on a small batch, where the per-operation bookkeeping dominates, and
an MNIST-sized one, where the matrix products do. ``python -m benchmarks.module_training
[--quick]`` prints this table alone (one thread per library).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from benchmarks.peers import Skip, describe_failure, import_or_skip
from benchmarks.report import Notes, format_seconds, markdown_table
from benchmarks.timing import FULL, MIN_REPEATS, QUICK, Budget, interleaved_median_seconds

LEARNING_RATE, MOMENTUM = 0.05, 0.9


@dataclass(frozen=True)
class Size:
    name: str
    batch: int
    widths: tuple[int, ...]  # in, five hidden layers, classes: six Linear layers


SIZES = (
    Size("small: batch 32, 16-32x5-4", 32, (16, 32, 32, 32, 32, 32, 4)),
    Size("MNIST-sized: batch 128, 784-256x5-10", 128, (784, 256, 256, 256, 256, 256, 10)),
)
DEPTH = 6


@dataclass
class Result:
    size: str
    seconds: dict[str, float] = field(default_factory=dict)  # wall-clock, median
    cpu_seconds: dict[str, float] = field(default_factory=dict)  # the process's CPU time
    notes: dict[str, str] = field(default_factory=dict)


def data(size: Size) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """The batch, its labels and the initial weights and biases (PyTorch's layout)."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((size.batch, size.widths[0])).astype(np.float32)
    labels = rng.integers(0, size.widths[-1], size.batch)
    weights = []
    for n_in, n_out in zip(size.widths[:-1], size.widths[1:], strict=True):
        bound = 1 / np.sqrt(n_in)
        weights.append(rng.uniform(-bound, bound, (n_out, n_in)).astype(np.float32))
        weights.append(rng.uniform(-bound, bound, n_out).astype(np.float32))
    return x, labels, weights


def _sourcegrad(decorator: bool = False):
    sg = import_or_skip("sourcegrad", "-e .")
    if not hasattr(sg, "nn") or not hasattr(sg.nn, "Module"):
        raise Skip("`sg.nn.Module` does not exist yet in this checkout")
    if decorator and not hasattr(sg, "differentiable"):
        raise Skip("`sg.differentiable` does not exist yet in this checkout")
    return sg


def _set_weights(layers: list, weights: list[np.ndarray], parameter: Callable) -> None:
    for layer, (weight, bias) in zip(layers, zip(weights[::2], weights[1::2], strict=True),
                                     strict=True):
        layer.weight, layer.bias = parameter(weight.copy()), parameter(bias.copy())


def _sequential(nn, widths: tuple[int, ...]):
    """``Linear``, ``Tanh``, ..., ``Linear``: as PyTorch users write an MLP (any library)."""
    layers = []
    for n_in, n_out in zip(widths[:-1], widths[1:], strict=True):
        layers += [nn.Linear(n_in, n_out), nn.Tanh()]
    return nn.Sequential(*layers[:-1])


def sourcegrad_per_op(size: Size, weights: list[np.ndarray]):
    sg = _sourcegrad()
    model = _sequential(sg.nn, size.widths)
    _set_weights(list(model)[::2], weights, sg.nn.Parameter)
    return sg, model


def sourcegrad_one_node(size: Size, weights: list[np.ndarray]):
    sg = _sourcegrad(decorator=True)
    model = numpy_mlp(sg, size.widths)
    _set_weights([getattr(model, f"fc{k}") for k in range(1, DEPTH + 1)], weights,
                 sg.nn.Parameter)
    return sg, model


def numpy_mlp(sg, widths: tuple[int, ...]):
    """The MLP as a module whose forward is NumPy code: one node (made here, so that this
    file imports without sourcegrad)."""

    class NumpyMLP(sg.nn.Module):
        def __init__(self):
            super().__init__()
            for k in range(1, DEPTH + 1):
                setattr(self, f"fc{k}", sg.nn.Linear(widths[k - 1], widths[k]))

        @sg.differentiable
        def forward(self, x):
            h = np.tanh(x @ self.fc1.weight.T + self.fc1.bias)
            h = np.tanh(h @ self.fc2.weight.T + self.fc2.bias)
            h = np.tanh(h @ self.fc3.weight.T + self.fc3.bias)
            h = np.tanh(h @ self.fc4.weight.T + self.fc4.bias)
            h = np.tanh(h @ self.fc5.weight.T + self.fc5.bias)
            return h @ self.fc6.weight.T + self.fc6.bias

    return NumpyMLP()


def sourcegrad_composed(size: Size, weights: list[np.ndarray]):
    sg = _sourcegrad(decorator=True)
    model = composed_mlp(sg, size.widths)
    _set_weights([layer.fc for layer in model.children()], weights, sg.nn.Parameter)
    return sg, model


def composed_mlp(sg, widths: tuple[int, ...]):
    """The MLP as one node made of layers whose forward is decorated NumPy code."""

    class Hidden(sg.nn.Module):
        def __init__(self, n_in, n_out):
            super().__init__()
            self.fc = sg.nn.Linear(n_in, n_out)

        @sg.differentiable
        def forward(self, x):
            return np.tanh(x @ self.fc.weight.T + self.fc.bias)

    class Output(Hidden):
        @sg.differentiable
        def forward(self, x):
            return x @ self.fc.weight.T + self.fc.bias

    class ComposedMLP(sg.nn.Module):
        def __init__(self):
            super().__init__()
            for k in range(1, DEPTH):
                setattr(self, f"hidden{k}", Hidden(widths[k - 1], widths[k]))
            self.out = Output(widths[-2], widths[-1])

        @sg.differentiable
        def forward(self, x):
            h = Hidden.forward(self.hidden1, x)
            h = Hidden.forward(self.hidden2, h)
            h = Hidden.forward(self.hidden3, h)
            h = Hidden.forward(self.hidden4, h)
            h = Hidden.forward(self.hidden5, h)
            return Output.forward(self.out, h)

    return ComposedMLP()


def torch_eager(size: Size, weights: list[np.ndarray]):
    torch = import_or_skip("torch", "torch==2.13.0")
    model = _sequential(torch.nn, size.widths)
    _set_weights(list(model)[::2], weights, lambda a: torch.nn.Parameter(torch.from_numpy(a)))
    return torch, model


CONTENDERS: tuple[tuple[str, Callable], ...] = (
    ("sourcegrad per-op (sg.nn.Sequential)", sourcegrad_per_op),
    ("sourcegrad one node (@sg.differentiable forward)", sourcegrad_one_node),
    ("sourcegrad one node, composed of decorated layers", sourcegrad_composed),
    ("PyTorch eager (torch.nn.Sequential)", torch_eager),
)


def training_step(lib, model, x: np.ndarray, labels: np.ndarray) -> Callable[[], object]:
    """One step of ``lib``'s SGD on the batch (the batch made a tensor once, outside)."""
    optimizer = lib.optim.SGD(model.parameters(), lr=LEARNING_RATE, momentum=MOMENTUM)
    inputs, targets = lib.from_numpy(x), lib.from_numpy(labels)

    def step():
        optimizer.zero_grad()
        loss = lib.nn.functional.cross_entropy(model(inputs), targets)
        loss.backward()
        optimizer.step()
        return loss

    return step


def parameters_after_one_step(lib, model, step: Callable[[], object]) -> list[np.ndarray]:
    step()
    return [p.detach().numpy().copy() for p in model.parameters()]


def prepare(size: Size, make: Callable) -> tuple[Callable[[], object], object, object] | str:
    """The contender's training step, library and model; or why it has none."""
    x, labels, weights = data(size)
    try:
        lib, model = make(size, weights)
        return training_step(lib, model, x, labels), lib, model
    except Skip as skip:
        return str(skip)
    except Exception as error:  # a contender failing is a finding, not a crash
        return describe_failure(make.__name__, error)


def measure(size: Size, budget: Budget) -> Result:
    """Every contender's step, checked to move the weights as the first one's does, then all
    timed in interleaved rounds."""
    result = Result(size.name)
    timed, first = {}, None
    for name, make in CONTENDERS:
        prepared = prepare(size, make)
        if isinstance(prepared, str):
            result.notes[name] = prepared
            continue
        step, lib, model = prepared
        after = parameters_after_one_step(lib, model, step)
        if first is None:
            first = after
        elif not all(np.allclose(a, b, rtol=1e-4, atol=1e-6)
                     for a, b in zip(after, first, strict=True)):
            result.notes[name] = f"{name}: one step gave other parameters; not timed"
            continue
        timed[name] = step
    result.seconds = interleaved_median_seconds(timed, budget)
    result.cpu_seconds = interleaved_cpu_seconds(timed, result.seconds, budget)
    return result


def interleaved_cpu_seconds(steps: dict[str, Callable[[], object]], wall: dict[str, float],
                            budget: Budget) -> dict[str, float]:
    """The median CPU time of one step of each, in rounds of batches taken in turn (about
    ``budget.batch_seconds`` each, sized from the wall-clock medians). On a shared machine
    the process's CPU time moves less with the load than the wall clock does."""
    calls = {name: max(1, int(budget.batch_seconds / max(wall[name], 1e-9))) for name in steps}
    times: dict[str, list[float]] = {name: [] for name in steps}
    for _ in range(max(MIN_REPEATS, budget.repeats // 2)):
        for name, step in steps.items():
            start = time.process_time()
            for _ in range(calls[name]):
                step()
            times[name].append((time.process_time() - start) / calls[name])
    return {name: statistics.median(values) for name, values in times.items()}


def measure_all(budget: Budget, progress: Callable[[str], None] = lambda _: None
                ) -> list[Result]:
    results = []
    for size in SIZES:
        progress(f"running: MLP training step, {size.name}")
        results.append(measure(size, budget))
    return results


def _ratio(numerator: float | None, denominator: float | None) -> str:
    if numerator is None or denominator is None:
        return "—"
    return f"{numerator / denominator:.2f}x"


def markdown(results: list[Result], notes: Notes) -> str:
    names = [name for name, _ in CONTENDERS]
    per_op, one_node, _, torch = names
    header = ["model", *names, "one node / per-op", "one node / PyTorch"]
    body = []
    for result in results:
        for kind, seconds in (("wall clock", result.seconds), ("CPU time", result.cpu_seconds)):
            cells = [f"{result.size} ({kind})"]
            for name in names:
                cells.append(format_seconds(seconds[name]) if name in seconds
                             else "— " + notes.ref(result.notes.get(name, "not run")))
            cells.append(_ratio(seconds.get(one_node), seconds.get(per_op)))
            cells.append(_ratio(seconds.get(one_node), seconds.get(torch)))
            body.append(cells)
    title = ("## One MLP training step (zero_grad, forward, cross-entropy, backward, SGD "
             "step; median)")
    return title + "\n\n" + markdown_table(header, body)


def main(argv: list[str] | None = None) -> None:
    from benchmarks.__main__ import pin_threads  # (it imports this module: not at the top)

    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="python -m benchmarks.module_training")
    parser.add_argument("--quick", action="store_true", help="fewer, shorter repeats")
    options = parser.parse_args(argv)
    pin_threads(1, argv, module="benchmarks.module_training")
    notes = Notes()
    print(markdown(measure_all(QUICK if options.quick else FULL,
                               lambda m: print(m, file=sys.stderr)), notes))
    if notes.markdown():
        print("\n" + notes.markdown())


if __name__ == "__main__":
    main()
