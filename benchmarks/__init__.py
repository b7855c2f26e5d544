"""Side-by-side timings of sourcegrad against a hand-written gradient and its peers.

Run ``python -m benchmarks`` (``--quick`` for a short run). Not part of the test suite:
timing belongs here, correctness in ``tests/``. ``benchmarks/README.md`` explains the columns.
"""
