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
    "sg.autograd": sg.autograd,
    "sg.nn.functional": sg.nn.functional,
    "sg.nn.init": sg.nn.init,
    "sg.nn.utils": sg.nn.utils,
    "sg.viz": sg.viz,
}
RUNTIME = ["abs", "add", "arange", "cat", "chunk", "clamp", "clone", "cos", "div", "empty",
           "empty_like", "exp", "eye", "flatten", "from_numpy", "full", "full_like",
           "is_grad_enabled", "log", "manual_seed", "matmul", "max", "maximum", "mean", "min",
           "minimum", "mul", "narrow", "ones", "ones_like", "permute", "pow", "rand",
           "rand_like", "randint", "randn", "randn_like", "relu", "reshape", "sigmoid", "sin",
           "split", "sqrt", "squeeze", "stack", "sub", "sum", "tanh", "tensor", "transpose",
           "unbind", "unsqueeze", "zeros", "zeros_like"]
EXTRA = {"sg.jit": sg.jit, **{f"sg.{name}": getattr(sg, name) for name in RUNTIME}}


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
