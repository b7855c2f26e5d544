"""Every public function's docstring has an example, and every example runs and prints what
it says (doctest), with ``np`` and ``sg`` imported as a user would."""

import doctest
import inspect
import types

import numpy as np
import pytest

import sourcegrad as sg

# the modules whose every public function has its example (all of them, in the end)
MODULES = {
    "sg.nn.functional": sg.nn.functional,
    "sg.nn.init": sg.nn.init,
    "sg.nn.utils": sg.nn.utils,
    "sg.viz": sg.viz,
}
EXTRA = {"sg.jit": sg.jit}


def public_functions():
    found = dict(EXTRA)
    for prefix, module in MODULES.items():
        names = getattr(module, "__all__", None) or [n for n in dir(module)
                                                      if not n.startswith("_")]
        for name in names:
            value = getattr(module, name)
            if isinstance(value, types.FunctionType) and value.__module__.startswith(
                    "sourcegrad"):
                found[f"{prefix}.{name}"] = value
    return found


FUNCTIONS = public_functions()


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_the_docstring_has_an_example_that_runs(name):
    function = FUNCTIONS[name]
    assert ">>>" in (inspect.getdoc(function) or ""), f"{name} has no example"
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(function, name, globs={"np": np, "sg": sg}):
        runner.run(test)
    assert runner.failures == 0, f"{name}'s example printed something else (see above)"
