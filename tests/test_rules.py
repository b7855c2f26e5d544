"""Every derivative rule against central finite differences (float64), driven by the spec
table in ``rule_specs.py``; plus broadcasting and axis properties, the tie conventions with
hand-computed values, dtype preservation, and the table's coverage."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import array_shapes, mutually_broadcastable_shapes, valid_tuple_axes

from sourcegrad.rules import NONDIFF, RULES, lookup, rule
from sourcegrad.rules.support import astype
from sourcegrad.testing import (
    bind_arguments,
    check_rule,
    checkable_params,
    numerical_jacobian,
    numerical_jvp,
    numerical_vjp,
    rule_jvp,
    tree_leaves,
    tree_map,
)
from tests.rule_specs import DOMAINS, SPECS, spec_cases

FAST = settings(max_examples=25, deadline=None)
SPEC_CASES = spec_cases()
SPEC_CASE_IDS = [f"{spec.name}{case.label()}" for spec, case in SPEC_CASES]


# ------------------------------------------------------------------------ the spec table


@pytest.mark.parametrize(("spec", "case"), SPEC_CASES, ids=SPEC_CASE_IDS)
def test_rule_matches_finite_differences(spec, case):
    args, kwargs = case.build(seed=0)
    assert check_rule(spec.primitive, args, kwargs, symmetric=spec.symmetric)


# ---------------------------------------------------------------- broadcasting and axes

BINARY_DOMAINS = {
    np.add: ("real", "real"), np.subtract: ("real", "real"), np.multiply: ("real", "real"),
    np.divide: ("real", "nonzero"), np.power: ("positive", "real"),
    np.remainder: ("real", "positive"), np.arctan2: ("real", "real"),
    np.hypot: ("nonzero", "nonzero"), np.logaddexp: ("real", "real"),
    np.maximum: ("real", "real"), np.minimum: ("real", "real"), np.fmax: ("real", "real"),
    np.fmin: ("real", "real"), np.where: ("mask", "real", "real"),
    np.clip: ("real", "negative", "positive"),
}


@FAST
@given(
    fn=st.sampled_from(list(BINARY_DOMAINS)),
    shapes=st.data(),
    seed=st.integers(0, 2**32 - 1),
)
def test_elementwise_rules_broadcast(fn, shapes, seed):
    domains = BINARY_DOMAINS[fn]
    drawn = shapes.draw(mutually_broadcastable_shapes(num_shapes=len(domains), max_dims=3,
                                                      max_side=3))
    rng = np.random.default_rng(seed)
    args = [DOMAINS[d](rng, s) for d, s in zip(domains, drawn.input_shapes, strict=True)]
    check_rule(fn, args, seed=seed)


REDUCTION_DOMAINS = {np.sum: "real", np.mean: "real", np.prod: "real", np.var: "real",
                     np.std: "real", np.max: "distinct", np.min: "distinct"}


@st.composite
def shape_and_axis(draw):
    shape = draw(array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=3))
    axis = draw(st.none() | st.integers(-len(shape), len(shape) - 1)
                | valid_tuple_axes(len(shape), min_size=1))
    return shape, axis


@FAST
@given(fn=st.sampled_from(list(REDUCTION_DOMAINS)), shape_axis=shape_and_axis(),
       keepdims=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_reductions_over_any_axes(fn, shape_axis, keepdims, seed):
    shape, axis = shape_axis
    x = DOMAINS[REDUCTION_DOMAINS[fn]](np.random.default_rng(seed), shape)
    check_rule(fn, [x], {"axis": axis, "keepdims": keepdims}, seed=seed)


@FAST
@given(fn=st.sampled_from([np.cumsum, np.cumprod]), shape=array_shapes(max_dims=3, max_side=3),
       data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_cumulative_rules_over_any_axis(fn, shape, data, seed):
    axis = data.draw(st.none() | st.integers(-len(shape), len(shape) - 1))
    x = DOMAINS["real"](np.random.default_rng(seed), shape)
    check_rule(fn, [x], {"axis": axis}, seed=seed)


# ------------------------------------------------------------ conventions, by hand values


def vjp(fn, param, g, *args, **kwargs):
    """The cotangent of ``param`` that ``fn``'s rule gives for the output cotangent ``g``."""
    return lookup(fn).vjps[param](g, fn(*args, **kwargs), *args, **kwargs)


def test_abs_has_derivative_zero_at_zero():
    x = np.array([0.0, -2.0, 3.0])
    assert np.array_equal(vjp(np.abs, "x", np.ones(3), x), [0.0, -1.0, 1.0])
    assert vjp(math.fabs, "x", 1.0, 0.0) == 0.0


@pytest.mark.parametrize("fn", [np.maximum, np.minimum, np.fmax, np.fmin])
def test_tied_maximum_and_minimum_split_the_cotangent(fn):
    x = np.array([1.0, 2.0])
    g = np.array([2.0, 4.0])
    assert np.array_equal(vjp(fn, "x1", g, x, x), [1.0, 2.0])
    assert np.array_equal(vjp(fn, "x2", g, x, x), [1.0, 2.0])


def test_fmax_gives_the_whole_cotangent_to_the_number_beside_a_nan():
    x1, x2, g = np.array([np.nan, 1.0]), np.array([3.0, np.nan]), np.array([2.0, 4.0])
    assert np.array_equal(vjp(np.fmax, "x1", g, x1, x2), [0.0, 4.0])
    assert np.array_equal(vjp(np.fmax, "x2", g, x1, x2), [2.0, 0.0])


@pytest.mark.parametrize("fn", [np.max, np.amax])
def test_max_shares_the_cotangent_among_ties(fn):
    assert np.array_equal(vjp(fn, "a", 1.0, np.array([1.0, 3.0, 3.0])), [0.0, 0.5, 0.5])
    x = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]])
    expected = [[0.0, 0.5, 0.5], [2.0, 2.0, 0.0]]
    assert np.array_equal(vjp(fn, "a", np.array([1.0, 4.0]), x, axis=1), expected)
    assert np.array_equal(lookup(fn).jvps["a"](np.array([[0, 2.0, 4], [6, 8, 0]]),
                                               fn(x, axis=1), x, axis=1), [3.0, 7.0])


def test_min_shares_the_cotangent_among_ties():
    x = np.array([[1.0, 1.0], [0.0, 5.0]])
    assert np.array_equal(vjp(np.min, "a", np.array([[6.0, 2.0]]), x, axis=0, keepdims=True),
                          [[0.0, 2.0], [6.0, 0.0]])


def test_clip_passes_the_cotangent_at_its_bounds_inclusive():
    x = np.array([-1.0, 0.0, 0.5, 1.0, 2.0])
    low, high, g = np.zeros(5), np.ones(5), np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    assert np.array_equal(vjp(np.clip, "a", g, x, low, high), [0.0, 2.0, 3.0, 4.0, 0.0])
    assert np.array_equal(vjp(np.clip, "a_min", g, x, low, high), [1.0, 0, 0, 0, 0])
    assert np.array_equal(vjp(np.clip, "a_max", g, x, low, high), [0, 0, 0, 0, 5.0])
    assert vjp(np.clip, "a_min", g, x, 0.0, None) == 1.0


def test_norm_of_the_zero_vector_has_derivative_zero():
    zero = np.zeros(3)
    assert np.array_equal(vjp(np.linalg.norm, "x", 1.0, zero), [0.0, 0.0, 0.0])
    assert lookup(np.linalg.norm).jvps["x"](np.ones(3), 0.0, zero) == 0.0


def test_inf_norm_shares_the_cotangent_among_ties():
    x = np.array([1.0, -3.0, 3.0])
    assert np.array_equal(vjp(np.linalg.norm, "x", 1.0, x, np.inf), [0.0, -0.5, 0.5])


def test_sqrt_at_zero_is_infinite_as_numpy_computes():
    with np.errstate(divide="ignore"):
        assert np.array_equal(vjp(np.sqrt, "x", np.ones(2), np.array([0.0, 4.0])),
                              [np.inf, 0.25])


def test_sort_routes_the_cotangent_through_the_permutation():
    x = np.array([3.0, 1.0, 2.0])
    assert np.array_equal(vjp(np.sort, "a", np.array([10.0, 20.0, 30.0]), x), [30.0, 10.0, 20.0])


def test_prod_and_cumprod_are_exact_at_zeros():
    assert np.array_equal(vjp(np.prod, "a", 1.0, np.array([2.0, 0.0, 3.0])), [0.0, 6.0, 0.0])
    assert np.array_equal(vjp(np.prod, "a", 1.0, np.array([0.0, 0.0, 3.0])), [0.0, 0.0, 0.0])
    # cumprod([a0, a1, a2]) = [a0, a0 a1, a0 a1 a2]; summed, its gradient at [2, 0, 3] is
    # [1 + a1 + a1 a2, a0 + a0 a2, a0 a1] = [1, 8, 0]
    assert np.array_equal(vjp(np.cumprod, "a", np.ones(3), np.array([2.0, 0.0, 3.0])),
                          [1.0, 8.0, 0.0])


def test_power_and_sinc_limits():
    with np.errstate(divide="ignore", invalid="ignore"):  # 0 ** -1 is computed, then dropped
        assert np.array_equal(vjp(np.power, "x1", np.ones(1), np.zeros(1), 0), [0.0])
    assert np.array_equal(vjp(np.power, "x2", np.ones(1), np.zeros(1), np.ones(1)), [0.0])
    assert np.array_equal(vjp(np.sinc, "x", np.ones(1), np.zeros(1)), [0.0])


# --------------------------------------------------------------------------------- dtypes

FLOAT64_BY_DEFINITION = (float, astype, np.bincount, np.float_power, np.frexp, np.float64,
                         math.fsum, np.linalg.lstsq)


def _float32_cases():
    """Every case whose arguments are arrays (not Python floats), except the conversions
    ``float()`` and ``astype``, ``np.bincount`` (which sums its weights in float64),
    ``np.float_power``, ``np.float64`` and ``math.fsum`` (float64 by definition),
    ``np.frexp`` and ``np.linalg.lstsq`` (an integer exponent, an integer rank), the
    cases with complex values (float32 becomes complex64) and those with an integer output
    (``np.full_like`` of an integer array: no derivative at all)."""
    for spec, case in spec_cases():
        args, kwargs = case.build(seed=0)
        leaves = tree_leaves([args, list(kwargs.values())])
        outputs = tree_leaves(spec.primitive(*args, **kwargs))
        complex_values = any(np.iscomplexobj(x) for x in [*leaves, *outputs]
                             if not callable(x))
        integer_output = any(np.result_type(x).kind in "biu" for x in outputs)
        if spec.primitive not in FLOAT64_BY_DEFINITION and not complex_values and not any(
                isinstance(x, float) for x in leaves) and not integer_output:
            yield pytest.param(spec, case, id=f"{spec.name}{case.label()}")


def _as_float32(x):
    if isinstance(x, list):
        return [_as_float32(v) for v in x]
    if isinstance(x, dict):
        return {k: _as_float32(v) for k, v in x.items()}
    if isinstance(x, (np.ndarray, np.floating)) and x.dtype == np.float64:
        return np.asarray(x, dtype=np.float32)
    return x


def _dtypes(tree):
    return {np.result_type(leaf) for leaf in tree_leaves(tree)}


@pytest.mark.parametrize(("spec", "case"), list(_float32_cases()))
def test_float32_inputs_give_float32_derivatives(spec, case):
    args, kwargs = case.build(seed=0)
    args = [_as_float32(a) for a in args]
    kwargs = {k: _as_float32(v) for k, v in kwargs.items()}
    record = lookup(spec.primitive)
    ans = spec.primitive(*args, **kwargs)
    float32 = {np.dtype(np.float32)}
    assert _dtypes(ans) == float32
    g = tree_map(lambda leaf: np.ones(np.shape(leaf), dtype=np.float32), ans)
    bound = bind_arguments(spec.primitive, args, kwargs)
    for param in checkable_params(spec.primitive, args, kwargs):
        assert _dtypes(record.vjps[param](g, ans, *args, **kwargs)) == float32, param
        tangent = tree_map(lambda leaf: np.ones(np.shape(leaf), dtype=np.float32),
                           bound.arguments[param])
        jvp = rule_jvp(spec.primitive, param, tangent, ans, args, kwargs)
        assert _dtypes(jvp) == float32, param


# --------------------------------------------------------------------------- the table


def test_every_registered_rule_has_a_spec_row():
    covered = {id(lookup(spec.primitive)) for spec in SPECS}
    missing = {r.name for r in RULES.values() if id(r) not in covered}
    assert not missing


def test_the_spec_rows_check_every_differentiable_parameter():
    for spec in SPECS:
        record = lookup(spec.primitive)
        checked = set()
        for case in spec.cases:
            args, kwargs = case.build(seed=0)
            checked |= set(checkable_params(spec.primitive, args, kwargs))
        assert checked == set(record.diff_params), spec.name


def test_every_parameter_is_differentiable_or_declared_not():
    for record in RULES.values():
        assert record.nondiff | record.unsupported <= set(record.params), record.name
        assert not record.nondiff & record.unsupported, record.name
        undecided = [p for p in record.params
                     if p not in record.nondiff | record.unsupported and p not in record.vjps]
        assert not undecided, (record.name, undecided)


def test_every_differentiable_parameter_has_a_vjp_and_a_jvp():
    for record in RULES.values():
        for param in record.diff_params:
            assert param in record.vjps and record.has_jvp(param), (record.name, param)


REQUIRED_RULES = """add subtract multiply divide true_divide negative positive power square sqrt
cbrt reciprocal exp exp2 expm1 log log2 log10 log1p logaddexp sin cos tan arcsin arccos arctan
arctan2 sinh cosh tanh arcsinh arccosh arctanh abs absolute fabs sign maximum minimum fmax fmin
clip where hypot sinc sum mean prod var std max min amax amin cumsum cumprod dot matmul inner
outer tensordot einsum vdot kron trace diag diagonal transpose swapaxes moveaxis reshape ravel
squeeze expand_dims atleast_1d atleast_2d atleast_3d broadcast_to tile repeat concatenate stack
hstack vstack split array_split flip fliplr flipud roll triu tril take take_along_axis sort
linalg.det linalg.slogdet linalg.inv linalg.solve linalg.norm linalg.cholesky linalg.eigh array
asarray copy real remainder mod full full_like linspace""".split()

REQUIRED_MATH_RULES = """sin cos tan exp expm1 log log1p log2 log10 sqrt pow tanh sinh cosh
asin acos atan atan2 hypot fabs erf erfc asinh acosh atanh degrees radians""".split()

REQUIRED_NONDIFF = """shape ndim size zeros ones empty zeros_like ones_like empty_like
eye identity argmax argmin argsort nonzero flatnonzero equal not_equal less less_equal greater
greater_equal logical_and logical_or logical_not logical_xor floor ceil round around rint trunc
isnan isinf isfinite all any count_nonzero floor_divide random.rand random.randn random.normal
random.uniform random.seed random.default_rng random.choice random.permutation""".split()


def _numpy(name):
    obj = np
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def test_every_listed_numpy_and_math_function_has_a_rule():
    missing = [n for n in REQUIRED_RULES if lookup(_numpy(n)) is None]
    missing += ["math." + n for n in REQUIRED_MATH_RULES if lookup(getattr(math, n)) is None]
    assert not missing


def test_every_listed_constant_function_is_declared_nondifferentiable():
    names = [_numpy(n) for n in REQUIRED_NONDIFF] + [math.floor, math.ceil, math.isnan, len,
                                                     range, int, round]
    assert [f for f in names if f not in NONDIFF] == []
    assert not set(NONDIFF) & set(RULES)


# ------------------------------------------------------- the checker and the registry


@pytest.fixture
def scratch_rule():
    """Register a throwaway rule for ``cube`` and remove it afterwards."""

    def cube(x):
        return x**3

    registered = []

    def register(cls):
        registered.append(rule(cube)(cls))
        return cube

    yield register
    RULES.pop(cube, None)


def test_check_rule_rejects_a_wrong_vjp(scratch_rule):
    class cube:
        def vjp_x(g, ans, x):
            return g * 2 * x**2

        def jvp_x(t, ans, x):
            return t * 3 * x**2

    with pytest.raises(AssertionError, match="vjp_x"):
        check_rule(scratch_rule(cube), [np.array([0.5, 1.5])])


def test_check_rule_rejects_a_wrong_jvp(scratch_rule):
    class cube:
        def vjp_x(g, ans, x):
            return g * 3 * x**2

        def jvp_x(t, ans, x):
            return t * 3 * x

    with pytest.raises(AssertionError, match="jvp_x"):
        check_rule(scratch_rule(cube), [np.array([0.5, 1.5])])


def test_check_rule_rejects_a_cotangent_of_the_wrong_shape(scratch_rule):
    class cube:
        def vjp_x(g, ans, x):
            return np.sum(g * 3 * x**2)

        def jvp_x(t, ans, x):
            return t * 3 * x**2

    with pytest.raises(AssertionError, match="shape"):
        check_rule(scratch_rule(cube), [np.array([0.5, 1.5])])


def test_a_rule_must_be_a_single_return_over_known_names():
    with pytest.raises(TypeError, match="single"):
        @rule(np.tanh)
        class two_statements:
            def vjp_x(g, ans, x):
                y = 1 - ans**2
                return g * y

    with pytest.raises(TypeError, match="scale"):
        @rule(np.tanh)
        class unknown_name:
            def vjp_x(g, ans, x):
                return g * scale  # noqa: F821

    assert lookup(np.tanh).name == "tanh"


def test_variadic_parameters_are_recorded():
    assert lookup(np.einsum).varargs == "operands"
    assert lookup(math.hypot).varargs == "coordinates"
    assert lookup(np.add).varargs is None


def test_numerical_derivatives_of_a_linear_map():
    a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    x = np.array([0.5, -1.0, 2.0])
    f = lambda m, v: m @ v
    assert np.allclose(numerical_jacobian(f, [a, x], 1), a, atol=1e-8)
    assert np.allclose(numerical_jvp(f, [a, x], 1, np.array([1.0, 0.0, 1.0])), [4.0, 10.0])
    assert np.allclose(numerical_vjp(f, [a, x], 1, np.array([1.0, -1.0])), [-3.0, -3.0, -3.0])


# ------------------------------------------------------- rules as the transformer inlines them


def _inlined(rule_fn, head_values, bound, defaults):
    """Evaluate ``rule_fn``'s expression the way generated code runs it: inlined by the
    transformer, with the call's arguments as names and unpassed ones at their defaults."""
    import ast

    from sourcegrad.codegen.inline import inline
    from sourcegrad.rules import support

    arguments = dict(bound.arguments)
    for name, p in bound.signature.parameters.items():
        if p.kind is p.VAR_POSITIONAL:  # generated code always passes it, as a tuple
            arguments.setdefault(name, ())
    params = {p: ast.Name(id=f"arg_{p}", ctx=ast.Load()) for p in arguments}
    head = [ast.Name(id="head0", ctx=ast.Load()), ast.Name(id="head1", ctx=ast.Load())]
    expr = ast.fix_missing_locations(ast.Expression(inline(rule_fn, head, params, defaults)))
    namespace = {"np": np, "math": math, **vars(support), "head0": head_values[0],
                 "head1": head_values[1], **{f"arg_{p}": v for p, v in arguments.items()}}
    return eval(compile(expr, "<inlined rule>", "eval"), namespace)


@pytest.mark.parametrize(("spec", "case"), SPEC_CASES, ids=SPEC_CASE_IDS)
def test_inlined_rules_compute_what_the_rules_compute(spec, case):
    args, kwargs = case.build(seed=0)
    record = lookup(spec.primitive)
    bound = bind_arguments(spec.primitive, args, kwargs)
    ans = spec.primitive(*args, **kwargs)
    for param in checkable_params(spec.primitive, args, kwargs):
        g = tree_map(lambda leaf: np.full(np.shape(leaf), 0.5), ans)
        direct = record.vjps[param](g, ans, *bound.args, **bound.kwargs)
        inlined = _inlined(record.vjps[param], (g, ans), bound, record.defaults)
        assert all(np.array_equal(a, b) for a, b in
                   zip(tree_leaves(direct), tree_leaves(inlined), strict=True)), param
        if param in record.jvps:
            t = tree_map(lambda leaf: np.full(np.shape(leaf), 0.5), bound.arguments[param])
            direct = record.jvps[param](t, ans, *bound.args, **bound.kwargs)
            inlined = _inlined(record.jvps[param], (t, ans), bound, record.defaults)
            assert all(np.array_equal(a, b) for a, b in
                       zip(tree_leaves(direct), tree_leaves(inlined), strict=True)), param
