"""Every rule of the table differentiated twice: the first case of each spec row, called from a
generated wrapper function,

- through ``check_grads(order=2)`` (forward and reverse mode on the function, then on its
  generated ``jvp_f``): each JVP expression must be made of operations with rules;
- and forward mode over its generated ``grad_f`` (as ``sg.hessian`` does) against central
  differences of ``grad_f``: each VJP expression must be made of operations with rules.

``*_GAPS`` list the rules whose derivative code sourcegrad cannot differentiate yet, with the
reason; each is checked to still fail with an error (never a wrong number passing silently),
so that a fix shows up here."""

import itertools
import linecache

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad.errors import SourcegradError
from sourcegrad.testing import bind_arguments, check_grads, checkable_params

from .rule_specs import SPECS

SECOND_ORDER_GAPS = {
    # third derivatives of np.einsum: reverse mode over the sources of einsum_cross and
    # einsum_jvp_cross adds the list cotangent of `operands` with `+`, and takes the zero
    # cotangent of a comprehension's skipped element from a loop variable of another iteration
    **{name: "reverse mode over its derivative's helper adds lists with `+`" for name in (
        "einsum_vjp_one", "einsum_jvp")},
    # reverse over forward: the tuple of spacings reaches two helpers, whose list cotangents
    # reverse mode adds with `+`
    "gradient_tangent": "reverse mode adds the list cotangents of its spacings with `+`",
    "linalg.multi_dot": "reverse mode adds the list cotangents of its factors with `+`",
    "linalg.matrix_power": "reverse mode adds into a list's cotangent with np.add.at",
}

# forward over reverse: helpers of VJP rules that have no rule of their own yet
OVER_REVERSE_GAPS: dict[str, str] = {}

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
    complex weights)."""
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
    if weighted == 0:
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
def test_every_rule_has_a_second_derivative(spec):
    if spec.name in SECOND_ORDER_GAPS:
        with pytest.raises((SourcegradError, AssertionError, ValueError, TypeError)):
            _check(spec)
    else:
        assert _check(spec)


def _check_over_reverse(spec):
    args, kwargs = spec.cases[0].build(seed=0)
    out = spec.primitive(*args, **kwargs)
    outputs = list(out) if isinstance(out, (list, tuple)) else [out]
    rng = np.random.default_rng(1)
    weights = [rng.standard_normal(np.shape(o)) + (1j * rng.standard_normal(np.shape(o))
                                                   if np.iscomplexobj(o) else 0)
               for o in outputs]
    fn, values = _wrapper(spec.primitive, args, kwargs, spec.symmetric,
                          weighted=len(outputs) if isinstance(out, (list, tuple)) else 0)
    for i in checkable_params_positions(spec, args, kwargs, values):
        check_grads(sg.grad(fn, wrt=i), [*values, *weights], modes=("fwd",), order=1)
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
def test_forward_mode_over_every_rules_vjp(spec):
    if spec.name in OVER_REVERSE_GAPS:
        with pytest.raises((SourcegradError, AssertionError, ValueError, TypeError)):
            _check_over_reverse(spec)
    else:
        assert _check_over_reverse(spec)


def test_the_gap_lists_name_rules_of_the_table():
    assert set(SECOND_ORDER_GAPS) <= {s.name for s in SPECS}
    assert set(OVER_REVERSE_GAPS) <= {s.name for s in SPECS}
