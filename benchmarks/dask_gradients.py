"""``python -m benchmarks.dask_gradients``: generated gradients on Dask arrays (issue 15).

Side by side in one run, on one ``dask.distributed.LocalCluster`` (two single-threaded worker
processes by default), on the same data:

- the logistic regression gradient on 2e7 x 20 floats (3.2 GB, chunks of 1e6 rows, held
  by the workers): ``sg.grad`` of the loss written in NumPy, dask-glm's hand-written
  ``Logistic`` gradient (PyPI ``dask-glm``), and a hand-written gradient in NumPy's API
  evaluated lazily. Each is one ``dask.compute`` of the gradient; the three are taken in
  rounds, so that a change of load hits them alike, and the medians and their ratios to
  dask-glm's and the hand-written one's are reported;
- an MLP (20-32-1, tanh, logistic loss: dask-glm has no such model): one step
  (``sg.value_and_grad``, one ``dask.compute``) as a ratio to one lazy forward pass;
- out of core (``--out-of-core-rows``, 1e8 by default: 16 GB): the gradient of data
  generated lazily chunk by chunk, with each worker limited to ``--memory-limit``, far
  below the data's size; its time, and the client process's peak memory (``ru_maxrss``).

Progress goes to stderr, the Markdown tables to stdout. ``--rows``, ``--repeats``,
``--out-of-core-rows 0`` (skip) make shorter runs.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time

import numpy as np

import sourcegrad as sg

FEATURES, HIDDEN = 20, 32


def logistic_loss(w, X, y):
    """dask-glm's Logistic log-likelihood (no intercept), summed, in NumPy."""
    z = X @ w
    return np.sum(np.logaddexp(0.0, z) - y * z)


def hand_written_gradient(w, X, y):
    """The gradient a careful person writes in NumPy's API: ``X.T (sigmoid(Xw) - y)``."""
    z = X @ w
    probability = np.exp(z - np.logaddexp(0.0, z))
    return X.T @ (probability - y)


def mlp_loss(W1, b1, w2, b2, X, y):
    """A small MLP's mean logistic loss: what dask-glm cannot fit."""
    h = np.tanh(X @ W1 + b1)
    z = h @ w2 + b2
    return np.mean(np.logaddexp(0.0, z) - y * z)


def make_data(rows: int, chunk_rows: int, seed: int = 0):
    import dask.array as da

    rng = da.random.default_rng(seed)
    X = rng.standard_normal((rows, FEATURES), chunks=(chunk_rows, FEATURES))
    w_true = np.linspace(-1.0, 1.0, FEATURES)
    y = (X @ w_true + 0.5 * rng.standard_normal(rows, chunks=chunk_rows) > 0).astype(float)
    return X, y


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def timed_rounds(client, builders: dict, repeats: int) -> dict[str, list[float]]:
    """Seconds of one ``compute`` of each graph (built afresh each time, as a training step
    would), taken in rounds of one each."""
    times: dict[str, list[float]] = {name: [] for name in builders}
    for round_number in range(repeats):
        for name, build in builders.items():
            start = time.perf_counter()
            client.compute(build(), sync=True)
            times[name].append(time.perf_counter() - start)
        progress(f"  round {round_number + 1}/{repeats}: "
                 + ", ".join(f"{n} {t[-1]:.2f} s" for n, t in times.items()))
    return times


def dask_glm_gradient():
    """dask-glm's ``Logistic.pointwise_gradient``, or ``None`` if it is not installed."""
    try:
        from dask_glm.families import Logistic
    except ImportError:
        return None
    return Logistic.pointwise_gradient


def logistic_table(client, X, y, repeats: int) -> list[str]:
    w = np.random.default_rng(1).standard_normal(FEATURES) / FEATURES
    grad = sg.grad(logistic_loss)
    builders = {"sg.grad": lambda: grad(w, X, y),
                "hand-written, lazy": lambda: hand_written_gradient(w, X, y)}
    glm = dask_glm_gradient()
    if glm is not None:
        builders["dask-glm Logistic"] = lambda: glm(w, X, y)
    results = {name: client.compute(build(), sync=True) for name, build in builders.items()}
    for name, value in results.items():
        assert np.allclose(value, results["hand-written, lazy"], rtol=1e-8), name
    times = timed_rounds(client, builders, repeats)
    medians = {name: statistics.median(t) for name, t in times.items()}
    lines = ["| gradient | median | sg.grad / this |", "|---|---|---|"]
    for name, median in medians.items():
        lines.append(f"| {name} | {median:.2f} s | {medians['sg.grad'] / median:.2f}x |")
    if glm is None:
        lines.append("| dask-glm Logistic | not installed (`pip install dask-glm`) | |")
    return lines


def mlp_table(client, X, y, repeats: int) -> list[str]:
    rng = np.random.default_rng(2)
    W1, b1 = rng.standard_normal((FEATURES, HIDDEN)) / np.sqrt(FEATURES), np.zeros(HIDDEN)
    w2, b2 = rng.standard_normal(HIDDEN) / np.sqrt(HIDDEN), 0.0
    step = sg.value_and_grad(mlp_loss, wrt=(0, 1, 2, 3))

    def gradient_step():
        value, grads = step(W1, b1, w2, b2, X, y)
        return [value, *grads]

    builders = {"forward": lambda: mlp_loss(W1, b1, w2, b2, X, y), "step": gradient_step}
    times = timed_rounds(client, builders, repeats)
    forward, step_time = (statistics.median(times[n]) for n in ("forward", "step"))
    return ["| MLP 20-32-1 | lazy forward (median) | value_and_grad step (median) | ratio |",
            "|---|---|---|---|",
            f"| {X.shape[0]:.0e} rows | {forward:.2f} s | {step_time:.2f} s | "
            f"{step_time / forward:.2f}x |"]


def out_of_core_table(client, rows: int, chunk_rows: int, memory_limit: str) -> list[str]:
    X, y = make_data(rows, chunk_rows, seed=3)
    w = np.full(FEATURES, 0.01)
    start = time.perf_counter()
    grad_w = client.compute(sg.grad(logistic_loss)(w, X, y), sync=True)
    seconds = time.perf_counter() - start
    assert np.all(np.isfinite(grad_w))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB -> GiB
    return ["| data | worker memory limit | sg.grad time | client peak memory |",
            "|---|---|---|---|",
            f"| {rows:.0e} x {FEATURES} ({X.nbytes / 1e9:.1f} GB), generated lazily | "
            f"{memory_limit} | {seconds:.1f} s | {peak:.2f} GiB |"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.dask_gradients",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=float, default=2e7, help="0 skips the in-memory runs")
    parser.add_argument("--chunk-rows", type=float, default=1e6)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out-of-core-rows", type=float, default=1e8, help="0 skips it")
    parser.add_argument("--mlp-rows", type=float, default=None,
                        help="rows of the MLP's data (default: --rows; 0 skips it)")
    parser.add_argument("--memory-limit", default="2GB",
                        help="each worker's memory limit in the out-of-core run")
    options = parser.parse_args(argv)
    from dask.distributed import Client, LocalCluster

    rows, chunk_rows = int(options.rows), int(options.chunk_rows)
    out = ["# Generated gradients on Dask arrays", ""]
    if rows:
        out += in_memory_tables(options, rows, chunk_rows)
    if options.out_of_core_rows:
        with LocalCluster(n_workers=options.workers, threads_per_worker=1,
                          memory_limit=options.memory_limit,
                          dashboard_address=":0") as cluster, Client(cluster) as client:
            progress(f"out of core, {options.out_of_core_rows:.0e} rows...")
            out += ["## Out of core", "", *out_of_core_table(
                client, int(options.out_of_core_rows), chunk_rows, options.memory_limit), ""]
    print("\n".join(out))


def in_memory_tables(options: argparse.Namespace, rows: int, chunk_rows: int) -> list[str]:
    """The logistic regression and MLP tables, on data the workers hold."""
    from dask.distributed import Client, LocalCluster, wait

    out = []
    with LocalCluster(n_workers=options.workers, threads_per_worker=1,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        X, y = make_data(rows, chunk_rows)
        progress(f"persisting {rows:.0e} x {FEATURES} on {options.workers} workers...")
        X, y = client.persist([X, y])
        wait([X, y])
        progress("logistic regression gradient:")
        out += [f"## Logistic regression gradient, {rows:.0e} x {FEATURES} "
                f"({X.nbytes / 1e9:.1f} GB, chunks of {chunk_rows:.0e} rows, held by "
                f"{options.workers} workers)", "", *logistic_table(client, X, y,
                                                                    options.repeats), ""]
        mlp_rows = rows if options.mlp_rows is None else int(options.mlp_rows)
        if mlp_rows:
            progress(f"MLP, {mlp_rows:.0e} rows:")
            out += ["## MLP step / lazy forward", "",
                    *mlp_table(client, X[:mlp_rows], y[:mlp_rows], options.repeats), ""]
    return out


if __name__ == "__main__":
    main()
