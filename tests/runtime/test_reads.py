"""``runtime/reads.py`` decides from a rule's VJP what a node saves: the arguments it reads
the values of are saved tensors (checked for in-place changes, freed after backward), the
others only their shapes. Listing a value as read for its shape would let an in-place change
slip by unnoticed, a silently wrong gradient. So every case of the spec table is run with
each array a VJP does not read by value replaced by other values of the same shape and dtype
(what an in-place change would leave): the VJP must give exactly what it gave."""

import numpy as np
import pytest

from sourcegrad.rules.registry import lookup
from sourcegrad.runtime.reads import value_reads
from sourcegrad.testing import bind_arguments, checkable_params, tree_leaves

from ..rule_specs import spec_cases


def _other_values(value, rng):
    """``value`` with each array's elements changed, shape and dtype kept."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "b":
            return ~value
        if value.dtype.kind in "iu":
            return np.zeros_like(value)  # (a valid index wherever the original was)
        other = rng.standard_normal(value.shape) + 3.0
        if value.dtype.kind == "c":
            other = other + 1j * rng.standard_normal(value.shape)
        return other.astype(value.dtype)
    if isinstance(value, list):
        return [_other_values(v, rng) for v in value]
    if isinstance(value, tuple):
        return tuple(_other_values(v, rng) for v in value)
    if isinstance(value, dict):
        return {k: _other_values(v, rng) for k, v in value.items()}
    return value


def _cotangent(ans, rng):
    if isinstance(ans, (list, tuple)):
        return [_cotangent(a, rng) for a in ans]
    if isinstance(ans, dict):
        return {k: _cotangent(a, rng) for k, a in ans.items()}
    g = rng.standard_normal(np.shape(ans))
    if np.iscomplexobj(ans):
        g = g + 1j * rng.standard_normal(np.shape(ans))
    return g if isinstance(ans, np.ndarray) else g.item() if np.ndim(g) == 0 else g


def _same(got, expected):
    if isinstance(expected, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            _same(g, e)
    elif isinstance(expected, dict):
        assert isinstance(got, dict) and list(got) == list(expected)
        for key, e in expected.items():
            _same(got[key], e)
    elif expected is None:
        assert got is None
    else:
        np.testing.assert_array_equal(got, expected)
        assert np.result_type(got) == np.result_type(expected)


def _replaced_args(rule, args, replacements):
    """The positional ``args`` with the parameters in ``replacements`` replaced (a variadic
    parameter's items too)."""
    start = len(rule.params) if rule.varargs is None else rule.params.index(rule.varargs)
    named = [replacements.get(p, a)
             for p, a in zip(rule.params[:start], args[:start], strict=False)]
    return named + list(replacements.get(rule.varargs, args[start:]))


CASES = [pytest.param(spec, c, id=f"{spec.name}{c.label()}") for spec, c in spec_cases()]


@pytest.mark.parametrize(("spec", "case"), CASES)
def test_what_a_vjp_reads_only_for_its_shape_is_only_its_shape(spec, case):
    rule = lookup(spec.primitive)
    args, kwargs = case.build(seed=0)
    ans = spec.primitive(*args, **kwargs)
    g = _cotangent(ans, np.random.default_rng(1))
    bound = bind_arguments(spec.primitive, args, kwargs).arguments
    checked = 0
    for param in checkable_params(spec.primitive, args, kwargs):
        vjp = rule.vjps.get(param)
        if vjp is None:
            continue
        reads = value_reads(vjp)
        try:
            with np.errstate(all="ignore"):
                expected = vjp(g, ans, *args, **kwargs)
        except NotImplementedError:  # a derivative sourcegrad refuses (coordinates...)
            continue
        names = [p for p in rule.params if p in bound and p not in reads]
        if not names and "ans" in reads:
            continue
        rng = np.random.default_rng(2)
        shaped = {p: _other_values(bound[p], rng) for p in names}
        s_args = _replaced_args(rule, args, shaped)
        s_kwargs = {k: shaped.get(k, v) for k, v in kwargs.items()}
        s_ans = ans if "ans" in reads else _other_values(ans, rng)
        with np.errstate(all="ignore"):
            got = vjp(g, s_ans, *s_args, **s_kwargs)
        _same(got, expected)
        checked += any(isinstance(leaf, np.ndarray) for leaf in tree_leaves(
            [[shaped[p] for p in names], s_ans if "ans" not in reads else []]))
    if not checked:
        pytest.skip("every array is read by value")
