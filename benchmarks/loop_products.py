"""What ``passes/batched_products.py`` gains on the RNN workload (issue 14 point 2): its
gradient made with the pass and with ``SOURCEGRAD_LOOP_PRODUCTS=0`` (one product a step),
each as ``sg.grad`` and ``sg.jit(sg.grad)``, beside the NumPy forward, the hand-written
gradient and ``jax.jit(jax.grad)`` of the ``lax.scan`` form, in one process.

Run ``python -m benchmarks.loop_products``. Every variant is timed in every round (25 rounds,
each the best of 3 batches of 20 calls), so that a change of load on a shared machine hits
all alike; the table gives the median and the minimum of the rounds. One thread a library.
"""

from __future__ import annotations

import os
import statistics
import sys
import timeit

from benchmarks.__main__ import pin_threads

ROUNDS, REPEATS, CALLS = 25, 3, 20


def variants() -> dict:
    import jax
    import jax.numpy as jnp
    import numpy as np

    import sourcegrad as sg
    from benchmarks import jax_loops
    from benchmarks.workloads import WORKLOADS

    jax.config.update("jax_enable_x64", True)
    workload = next(w for w in WORKLOADS if w.name.startswith("RNN"))
    args = workload.make_args()
    timed = {"NumPy forward": lambda: workload.forward(*args),
             "hand-written": lambda: workload.grad_by_hand(*args)}
    for setting, label in (("1", ""), ("0", ", a product a step")):
        os.environ["SOURCEGRAD_LOOP_PRODUCTS"] = setting
        gradient = sg.grad(workload.forward, wrt=workload.wrt)
        compiled = sg.jit(gradient, fallback=False)
        compiled(*args)  # compiled here, not timed
        timed["sg.grad" + label] = lambda g=gradient: g(*args)
        timed["sg.jit" + label] = lambda c=compiled: c(*args)
    del os.environ["SOURCEGRAD_LOOP_PRODUCTS"]
    jax_gradient = jax.jit(jax.grad(jax_loops.rnn(jnp, jax.lax), argnums=workload.wrt))
    jax_args = [jnp.asarray(a) for a in args]
    jax.block_until_ready(jax_gradient(*jax_args))
    timed["JAX jit (loops)"] = lambda: jax.block_until_ready(jax_gradient(*jax_args))
    expected = workload.grad_by_hand(*args)
    for name in ("sg.grad", "sg.jit", "sg.grad, a product a step", "sg.jit, a product a step"):
        got = timed[name]()
        assert all(np.allclose(a, b, rtol=1e-10) for a, b in zip(got, expected, strict=True))
    return timed


def main(argv: list[str] | None = None) -> None:
    pin_threads(1, sys.argv[1:] if argv is None else argv, module="benchmarks.loop_products")
    timed = variants()
    rounds: dict[str, list[float]] = {name: [] for name in timed}
    for _ in range(ROUNDS):
        for name, run in timed.items():
            rounds[name].append(min(timeit.repeat(run, number=CALLS, repeat=REPEATS)) / CALLS)
    forward = statistics.median(rounds["NumPy forward"])
    print(f"load average when done: {', '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| variant | median | minimum | median / NumPy forward's |")
    print("| --- | --- | --- | --- |")
    for name, times in rounds.items():
        print(f"| {name} | {statistics.median(times) * 1e6:.0f} µs | {min(times) * 1e6:.0f} µs "
              f"| {statistics.median(times) / forward:.2f}x |")


if __name__ == "__main__":
    main()
