"""Every public function, class and method has an example in its docstring, and every example
runs and prints what it says (doctest), with ``np`` and ``sg`` imported as a user would.

What is public, and so needs its example, is found rather than listed, so that a new name
cannot slip through: starting from ``sourcegrad``, each name a public module exports (its
``__all__``; without one, each name without a leading ``_`` defined in that module) that is
a function or a class defined in sourcegrad, and each submodule of its package it exports,
recursively; then each such class's public methods and properties (names without a leading
``_``) that the class defines itself or inherits from a private sourcegrad base (what it
inherits from a public class is that class's). The rule, for each of them:

- a function, a class, a method and a property needs ``>>>`` in its docstring;
- dunder methods (operators, ``__call__``, ``__enter__``) are shown by the class's example;
- plain data attributes (a slot such as ``Tensor.data``, a class constant such as
  ``no_grad.mode``) are described by the class's docstring, not their own;
- a method that is the same object as a module function (``Tensor.exp`` is ``sg.exp``) or
  an alias of another method (``Tensor.multiply`` is ``Tensor.mul``) shares its example;
- a method overriding a base-class method without a docstring of its own
  (``Linear.forward``) is documented by the base's docstring and example, as
  ``inspect.getdoc`` and Sphinx show it.
"""

import doctest
import inspect
import types

import numpy as np
import pytest

import sourcegrad as sg


def _public_names(module: types.ModuleType) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is not None:
        return list(names)
    return [name for name in dir(module) if not name.startswith("_")
            and getattr(getattr(module, name), "__module__", None) == module.__name__]


def _ours(value: object) -> bool:
    return getattr(value, "__module__", "").startswith("sourcegrad")


def _members(cls: type, prefix: str, public_classes: set[type]) -> dict[str, object]:
    """The public methods and properties of ``cls`` that it defines or inherits from a
    private sourcegrad class."""
    found = {}
    # an alias after the name it is defined under (``multiply`` after ``mul``)
    for name in sorted(dir(cls), key=lambda name: getattr(getattr(cls, name, None),
                                                          "__name__", name) != name):
        if name.startswith("_"):
            continue
        owner = next((klass for klass in cls.__mro__ if name in vars(klass)), None)
        if owner is None or not owner.__module__.startswith("sourcegrad"):
            continue  # inherited from object, tuple, Exception...
        if owner is not cls and owner in public_classes:
            continue  # documented with the public base
        value = vars(owner)[name]
        if isinstance(value, staticmethod | classmethod):
            value = value.__func__
        if isinstance(value, property | types.FunctionType):
            found[f"{prefix}.{name}"] = value
    return found


def public_objects() -> dict[str, object]:
    """Every public function, class, method and property, by the shortest name it is reached
    by (``sg.Tensor.sum``, not ``sg.nn.functional.Tensor.sum``)."""
    found: dict[str, object] = {}
    seen: set[int] = set()
    modules = [("sg", sg)]
    visited = {sg.__name__}
    while modules:
        prefix, module = modules.pop(0)  # breadth first: short names first
        for name in _public_names(module):
            value = getattr(module, name)
            if isinstance(value, types.ModuleType):
                child = value.__name__ == f"{module.__name__}.{name}"
                if child and value.__name__ not in visited:
                    visited.add(value.__name__)
                    modules.append((f"{prefix}.{name}", value))
            elif isinstance(value, type | types.FunctionType) and _ours(value):
                if id(value) not in seen:
                    seen.add(id(value))
                    found[f"{prefix}.{name}"] = value
    classes = {value for value in found.values() if isinstance(value, type)}
    for name, value in list(found.items()):
        if isinstance(value, type):
            for member_name, member in _members(value, name, classes).items():
                if id(member) not in seen:  # an alias, or a module function shared
                    seen.add(id(member))
                    found[member_name] = member
    return found


PUBLIC = public_objects()

# the examples of ``defvjp``, ``defjvp`` and ``check_grads`` register rules: none may leak
pytestmark = pytest.mark.usefixtures("restore_the_rule_table")


def test_the_search_finds_what_the_contract_names():
    for name in ("sg.grad", "sg.vjp", "sg.tree_map", "sg.Tensor", "sg.Tensor.backward",
                 "sg.Tensor.grad", "sg.nn.Module.parameters", "sg.nn.Linear",
                 "sg.optim.SGD", "sg.optim.Optimizer.step", "sg.optim.lr_scheduler.StepLR",
                 "sg.no_grad", "sg.testing.check_grads", "sg.autograd.grad",
                 "sg.nn.functional.mse_loss", "sg.viz.make_dot", "sg.jit"):
        assert name in PUBLIC, name
    assert "sg.Tensor.exp" not in PUBLIC  # it is sg.exp, documented once
    assert not any(part.startswith("_") for name in PUBLIC for part in name.split("."))


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_the_docstring_has_an_example_that_runs(name):
    value = PUBLIC[name]
    assert ">>>" in (inspect.getdoc(value) or ""), f"{name}'s docstring has no example"
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(value, name, globs={"np": np, "sg": sg}):
        runner.run(test)
    own = value.fget.__doc__ if isinstance(value, property) else value.__doc__
    if ">>>" in (own or ""):  # (else the example is the overridden method's, run there)
        assert runner.tries > 0, f"{name}'s example did not run"
    assert runner.failures == 0, f"{name}'s example printed something else (see above)"
