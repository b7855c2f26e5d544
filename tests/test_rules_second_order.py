"""Every rule of the table differentiated twice (issue 13, sections 2 and 3): the first case
of each spec row, called from a generated wrapper function, in all four combinations of
modes, against central differences of the first derivative, through the public API only:

- ``check_grads(order=2)``: ``sg.jvp`` and ``sg.vjp`` on the function, then on
  ``lambda a0, a1...: sg.jvp(f, (a0, a1...), (u0, u1...))[1]`` (forward over forward, and
  reverse over forward as ``sg.grad(lambda x: sg.jvp(f, (x,), (v,))[1])`` does): each JVP
  expression must be made of differentiable operations;
- ``sg.jvp`` and ``sg.vjp`` over ``sg.grad`` of the wrapper (forward over reverse, as
  ``sg.hessian`` does, and reverse over reverse, as ``sg.grad(sg.grad(f))`` does): each VJP
  expression must be made of differentiable operations.

The README states how many rules the table holds, all of them checked here."""

import itertools
import linecache
import re
from pathlib import Path

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.rules import RULES
from sourcegrad.testing import bind_arguments, check_grads, checkable_params

from .rule_specs import SPECS

_COUNTER = itertools.count()


def _wrapper(primitive, args, kwargs, symmetric, weighted=None):
    """``def apply_N(a0, a1, ..., kw_axis): return prim(a0, a1, ..., axis=kw_axis)`` with
    source that ``inspect`` can read, and the values of its parameters. Symmetric inputs are
    symmetrized first (such rules read one triangle, and random directions are not
    symmetric). A function argument (``grad_hook``'s hook) is a module-level name of the
    wrapper rather than a parameter, as generated code calls functions by name.

    ``weighted`` (for ``sg.grad``, a real scalar output): ``0`` for an array output, returned
    as ``<prim(...), weights>``; ``n`` for a sequence of ``n`` arrays, unpacked and returned as
    ``<out_0, weights_0> + ... + <out_n-1, weights_n-1>`` (real parts: complex outputs take
    complex weights); a tuple of keys for a dict of arrays, returned as
    ``<out[key_0], weights_0> + ...``."""
    namespace = {"prim": primitive, "np": np}
    spelled, values = [], []
    for i, value in enumerate([*args, *kwargs.values()]):
        label = f"a{i}" if i < len(args) else f"kw_{list(kwargs)[i - len(args)]}"
        if callable(value):
            namespace[f"fn_{label}"] = value
            spelled.append(f"fn_{label}")
        else:
            spelled.append(label)
            values.append(value)
    params = [p for p in spelled if not p.startswith("fn_")]
    if symmetric:
        spelled[0] = "(a0 + np.swapaxes(a0, -1, -2)) / 2"
    call = ", ".join(spelled[:len(args)]
                     + [f"{k}={v}" for k, v in zip(kwargs, spelled[len(args):], strict=True)])
    name = f"apply_{next(_COUNTER)}"
    if isinstance(weighted, tuple):
        weights = [f"weights_{i}" for i in range(len(weighted))]
        inner = " + ".join(f"np.real(np.sum(out[{k!r}] * {w}))"
                           for k, w in zip(weighted, weights, strict=True))
        text = (f"def {name}({', '.join([*params, *weights])}):\n"
                f"    out = prim({call})\n    return {inner}\n")
    elif weighted == 0:
        text = (f"def {name}({', '.join([*params, 'weights'])}):\n"
                f"    return np.real(np.sum(prim({call}) * weights))\n")
    elif weighted:
        outs = [f"out_{i}" for i in range(weighted)]
        weights = [f"weights_{i}" for i in range(weighted)]
        inner = " + ".join(f"np.real(np.sum({o} * {w}))" for o, w in zip(outs, weights,
                                                                          strict=True))
        text = (f"def {name}({', '.join([*params, *weights])}):\n"
                f"    {', '.join(outs)}, = prim({call})\n    return {inner}\n")
    else:
        text = f"def {name}({', '.join(params)}):\n    return prim({call})\n"
    filename = f"<second-order check {name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    exec(compile(text, filename, "exec"), namespace)
    return namespace[name], values


def _check(spec):
    args, kwargs = spec.cases[0].build(seed=0)
    fn, values = _wrapper(spec.primitive, args, kwargs, spec.symmetric)
    return check_grads(fn, values, modes=("fwd", "rev"), order=2)


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_every_rules_jvp_differentiates_in_both_modes(spec):
    assert _check(spec)


def _check_over_reverse(spec):
    args, kwargs = spec.cases[0].build(seed=0)
    out = spec.primitive(*args, **kwargs)
    outputs = list(out.values()) if isinstance(out, dict) else list(out) if isinstance(
        out, (list, tuple)) else [out]
    rng = np.random.default_rng(1)
    weights = [rng.standard_normal(np.shape(o)) + (1j * rng.standard_normal(np.shape(o))
                                                   if np.iscomplexobj(o) else 0)
               for o in outputs]
    weighted = tuple(out) if isinstance(out, dict) else len(outputs) if isinstance(
        out, (list, tuple)) else 0
    fn, values = _wrapper(spec.primitive, args, kwargs, spec.symmetric, weighted=weighted)
    for i in checkable_params_positions(spec, args, kwargs, values):
        check_grads(sg.grad(fn, wrt=i), [*values, *weights], modes=("fwd", "rev"), order=1)
    return True


def checkable_params_positions(spec, args, kwargs, values):
    """Positions (in the wrapper's parameters, whose values are ``values``) of the arguments
    the rule differentiates."""
    params = checkable_params(spec.primitive, args, kwargs)
    bound = bind_arguments(spec.primitive, args, kwargs)
    chosen = []
    for p in params:
        value = bound.arguments[p]
        parts = value if isinstance(value, tuple) else (value,)  # a variadic parameter
        chosen += [i for i, v in enumerate(values) if any(v is part for part in parts)]
    return chosen


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_every_rules_vjp_differentiates_in_both_modes(spec):
    assert _check_over_reverse(spec)


def rule_count() -> int:
    """How many rules the table holds (one per rule class, whatever its aliases)."""
    return len({id(record) for record in RULES.values()})


def test_the_readme_states_how_many_rules_are_checked_to_second_order():
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    stated = re.search(r"The rule table holds (\d+) rules", readme)
    assert stated, "the README no longer states the size of the rule table"
    assert int(stated.group(1)) == rule_count()
    assert {id(r) for r in RULES.values()} == {id(RULES[spec.primitive]) for spec in SPECS}
