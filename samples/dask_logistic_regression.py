"""Logistic regression on data larger than memory: Dask arrays on a local cluster, the
gradient from ``sg.grad``'s generated code, which builds a Dask graph instead of computing.

The idiom: the parameters are small NumPy values on the client, the data a Dask array on
the cluster (generated lazily here, chunk by chunk, with ``dask.array.random``: it is never
held anywhere whole). Each step builds the loss and its gradients as one graph
(``sg.value_and_grad``) and evaluates it with one ``dask.compute``: the workers stream the
chunks through it and send back a number and a few gradients, never the data.

Run: ``python samples/dask_logistic_regression.py`` (20 million rows of 20 features, 3.2 GB,
on two workers limited to 1.5 GB each); ``--rows 1e8`` for 16 GB; ``--scipy`` to let
``scipy.optimize.minimize(..., jac=True)`` take the steps; ``--help`` for the rest.
"""

import argparse
import time

import dask.array as da
import numpy as np
from dask.distributed import Client, LocalCluster, progress

import sourcegrad as sg


def loss(w, b, X, y):
    """Mean binary cross-entropy of sigmoid(X @ w + b), written with logaddexp so that large
    logits cannot overflow: the same NumPy code as for in-memory arrays."""
    z = X @ w + b
    return np.mean(np.logaddexp(0.0, z) - y * z)


def make_data(rows, features, chunk_rows, seed=0):
    """A lazy problem: standard normal features, labels from a hidden weight vector plus
    noise. Nothing is generated until a graph that reads it is computed."""
    rng = da.random.default_rng(seed)
    X = rng.standard_normal((rows, features), chunks=(chunk_rows, features))
    w_true = np.linspace(-1.0, 1.0, features)
    noise = 0.5 * rng.standard_normal(rows, chunks=chunk_rows)
    y = (X @ w_true + noise > 0).astype(float)
    return X, y


def evaluate(client, value_and_grad, w, b, X, y, show_progress):
    """The loss and its gradients at ``(w, b)``: one graph, computed once on the cluster."""
    value, (grad_w, grad_b) = value_and_grad(w, b, X, y)  # builds the graph, computes nothing
    futures = client.compute([value, grad_w, grad_b])
    if show_progress:
        progress(futures)
        print()
    value, grad_w, grad_b = client.gather(futures)
    return float(value), grad_w, float(grad_b)


def gradient_descent(client, value_and_grad, X, y, features, steps, learning_rate,
                     show_progress):
    w, b = np.zeros(features), 0.0
    for step in range(steps):
        start = time.perf_counter()
        value, grad_w, grad_b = evaluate(client, value_and_grad, w, b, X, y, show_progress)
        print(f"step {step}: loss {value:.6f} ({time.perf_counter() - start:.1f} s)")
        w, b = w - learning_rate * grad_w, b - learning_rate * grad_b
    return w, b


def with_scipy(client, value_and_grad, X, y, features, steps, show_progress):
    """``scipy.optimize.minimize`` over the parameters packed in one vector: each call of
    ``fun`` is one graph and one computation, returning the loss and its gradient
    (``jac=True``)."""
    from scipy.optimize import minimize

    def fun(params):
        value, grad_w, grad_b = evaluate(client, value_and_grad, params[:-1], params[-1],
                                         X, y, show_progress)
        print(f"loss {value:.6f}")
        return value, np.append(grad_w, grad_b)

    result = minimize(fun, np.zeros(features + 1), jac=True, method="L-BFGS-B",
                      options={"maxiter": steps})
    return result.x[:-1], result.x[-1]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=float, default=2e7, help="rows of data (default 2e7)")
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--chunk-rows", type=float, default=1e6, help="rows per chunk")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--memory-limit", default="1.5GB", help="each worker's memory limit")
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--learning-rate", type=float, default=2.0)
    parser.add_argument("--scipy", action="store_true",
                        help="steps by scipy.optimize.minimize(jac=True), L-BFGS-B")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    rows, chunk_rows = int(args.rows), int(min(args.chunk_rows, args.rows))
    X, y = make_data(rows, args.features, chunk_rows)
    print(f"data: {rows:,} x {args.features} floats, {X.nbytes / 1e9:.2f} GB in "
          f"{X.numblocks[0]} chunks; {args.workers} workers of {args.memory_limit}")
    value_and_grad = sg.value_and_grad(loss, wrt=("w", "b"))
    with LocalCluster(n_workers=args.workers, threads_per_worker=1,
                      memory_limit=args.memory_limit, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        if args.scipy:
            w, b = with_scipy(client, value_and_grad, X, y, args.features, args.steps,
                              not args.no_progress)
        else:
            w, b = gradient_descent(client, value_and_grad, X, y, args.features, args.steps,
                                    args.learning_rate, not args.no_progress)
        accuracy = client.compute(da.mean((X @ w + b > 0) == (y > 0.5))).result()
    print(f"trained: accuracy {float(accuracy):.4f}")


if __name__ == "__main__":
    main()
