"""Runnable examples, written as a researcher writes plain NumPy code.

Each module defines its loss at module level so tests and benchmarks can import it, and
runs a small training loop with ``sg.grad`` when executed as ``python samples/NAME.py``.
"""
