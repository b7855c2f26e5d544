"""Every derivative rule against central finite differences (float64), driven by the spec
table in ``rule_specs.py``; plus broadcasting and axis properties, the tie conventions with
hand-computed values, dtype preservation, and the table's coverage."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import mutually_broadcastable_shapes

from sourcegrad.rules import NONDIFF, RULES, lookup
from sourcegrad.testing import check_rule
from tests.rule_specs import DOMAINS, SPECS, spec_cases


@pytest.mark.parametrize(
    ("spec", "case"),
    spec_cases(),
    ids=[f"{s.name}{c.label()}" for s, c in spec_cases()],
)
def test_rule_matches_finite_differences(spec, case):
    args, kwargs = case.build(seed=0)
    checked = check_rule(spec.primitive, args, kwargs, symmetric=spec.symmetric)
    assert checked, "no differentiable argument was checked"
