"""Generated straight-line NumPy functions of any length, for the transformation-time sweep.

Each line of the body makes two NumPy calls; every tenth line opens an ``if``/``else`` on a
condition the backward sweep must record. A few state variables are updated all along, each
update reading the old value: those written in a branch cannot be renamed by the SSA pass,
so every update overwrites a value earlier adjoints read (the case that made saving
quadratic). Between them, temporaries, each read by a later line, so that no line is dead
code. The same ``(lines, seed)`` always gives the same source.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import numpy as np

PARAMETERS = ("x", "y")
STATE = ("h", "c")
UNARY = ("np.sin", "np.cos", "np.tanh")
BINARY = ("+", "-", "*")
SIZE = 5  # elements of each argument
UPDATE_SHARE = 0.5  # of the lines outside branches: an update of a state variable


class _Writer:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.temporaries = 0
        self.unread: list[str] = []  # temporaries no line reads yet

    def operand(self) -> str:
        if self.unread and self.rng.random() < 0.6:
            return self.unread.pop(0)
        return self.rng.choice(STATE + PARAMETERS)

    def call(self, operand: str) -> str:
        return f"{self.rng.choice(UNARY)}({operand})"

    def update(self, state: str) -> str:
        """``state = f(state) op g(...)``: the old value is read, so it stays live."""
        return f"{state} = {self.call(state)} {self.rng.choice(BINARY)} {self.call(self.operand())}"

    def line(self) -> str:
        if self.rng.random() < UPDATE_SHARE:
            return self.update(self.rng.choice(STATE))
        value = (f"{self.call(self.operand())} {self.rng.choice(BINARY)} "
                 f"{self.call(self.operand())}")
        target = f"t{self.temporaries}"
        self.temporaries += 1
        self.unread.append(target)
        return f"{target} = {value}"


def source(lines: int, seed: int = 0, name: str = "subject") -> str:
    """The source text of a function whose body has ``lines`` lines (or a few more: every
    temporary is read)."""
    writer = _Writer(seed)
    body = [f"{s} = np.sin({PARAMETERS[i % 2]}) * np.cos({PARAMETERS[(i + 1) % 2]})"
            for i, s in enumerate(STATE)]
    while len(body) < lines - 1 - len(writer.unread):
        if len(body) % 10 == 9 and len(body) + 4 < lines - 1 - len(writer.unread):
            state = writer.rng.choice(STATE)
            body += [f"if np.sum({writer.operand()}) > np.sum({writer.operand()}):",
                     f"    {writer.update(state)}", "else:", f"    {writer.update(state)}"]
        else:
            body.append(writer.line())
    while writer.unread or len(body) < lines - 1:  # the last lines read what no line has
        state = STATE[len(body) % len(STATE)]
        operand = writer.unread.pop(0) if writer.unread else writer.operand()
        body.append(f"{state} = {writer.call(state)} * {writer.call(operand)}")  # read yet
    body.append("return np.sum(" + " * ".join(STATE) + ")")
    indented = "".join(f"    {line}\n" for line in body)
    return f"import numpy as np\n\n\ndef {name}({', '.join(PARAMETERS)}):\n{indented}"


def load(lines: int, directory: Path, seed: int = 0):
    """Write the function of ``lines`` lines to a file in ``directory`` and import it (the
    transformer reads the source from the file, as it would a user's)."""
    module_name = f"sized_subject_{lines}_{seed}"
    path = Path(directory) / f"{module_name}.py"
    path.write_text(source(lines, seed))
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module.subject


def arguments(seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal(SIZE) for _ in PARAMETERS)
