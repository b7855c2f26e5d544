"""Random programs: elementwise NumPy code with broadcasting, reductions, ``for`` and
``while`` loops, branches, lists and calls of a user function, written to a file,
differentiated in every mode and checked against finite differences. The cases it found
wrong are kept in ``test_found_by_fuzzing.py``.

Adding a family: a statement maker to ``STATEMENTS`` (or a template to ``UNARY``, ``BINARY``,
``VECTOR``, ``MATRIX``); the names a program binds are renamed at random from the pools of
``random_names.ENABLED`` (add "helpers" there once user names can never capture the generated
code's); ``check=True`` is the oracle where finite differences of the whole Jacobian would
cost too much (``test_random_programs_with_array_outputs``). ``SOURCEGRAD_FUZZ=20`` runs 20
times as many examples as CI does.
"""

import ast
import importlib.util
import os
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg

from .fd import assert_close, numerical_grad
from .random_names import POOLS, bound_names, random_renaming, rename

SCALE = float(os.environ.get("SOURCEGRAD_FUZZ", "1"))


def examples(n: int) -> settings:
    """``n`` examples, ``SOURCEGRAD_FUZZ`` times as many on request. In CI (``CI`` set) the
    same examples every run, so that a landing is judged on what was tested before it; a
    developer's run draws new programs, and each bug they find gets a test of its own."""
    return settings(max_examples=max(1, round(n * SCALE)), deadline=None,
                    derandomize=bool(os.environ.get("CI")))

UNARY = ["np.sin({})", "np.tanh({})", "np.exp(0.3 * {})", "({}) ** 2", "-({})", "np.cos({})",
         "np.sqrt(({}) ** 2 + 1.0)", "np.log(({}) ** 2 + 1.0)", "np.abs({})", "helper({}, 0.7)",
         "np.maximum({}, 0.2)", "np.clip({}, -0.9, 0.8)", "np.cumsum({}, axis=-1)",
         "np.sort({}, axis=-1)", "np.max({}, axis=-1, keepdims=True)",
         "np.min({}, axis=0, keepdims=True)", "np.prod(np.tanh({}), axis=-1, keepdims=True)",
         "np.linalg.norm({}) * 0.5", "math.tanh(np.mean({}))", "twice({})",
         "helper(b=0.3, a={})", "np.cumprod(np.tanh({}), axis=0)"]
BINARY = ["({}) + ({})", "({}) - ({})", "({}) * ({})", "({}) * 0.5 + ({})", "helper({}, {})",
          "np.where(({}) > 0, {}, 0.5)", "np.minimum({}, {})", "({}) / (({}) ** 2 + 1.0)",
          "np.where(({}) > ({}), {}, {})", "({}) if np.sum({}) > 0 else ({})",
          "np.clip({}, -1.0, np.abs({}) + 0.1)", "np.hypot({}, {})",
          "np.arctan2({}, ({}) ** 2 + 1.0)", "np.maximum({}, {})"]
HELPER = """def helper(a, b):
    return np.sin(a) * b + a


def twice(a):
    return helper(a, a * 0.5) + helper(b=0.3, a=a)


def pair(a, b):
    return a * b, a - np.tanh(b)
"""
REDUCTIONS = ["np.sum({})", "np.mean({})", "np.sum({}, axis=0)",
              "np.mean({}, axis=-1, keepdims=True)", "np.max({})",
              "np.max({}, axis=0, keepdims=True)", "np.min({}, axis=-1)",
              "np.prod(np.tanh({}) + 1.5)", "np.linalg.norm({})",
              "np.sum(np.cumprod(np.tanh({}), axis=-1))"]
LOSSES = ["np.sum({})", "np.mean({})", "np.sum({}) * 0.5", "-np.mean({}) / 3.0"]
ARRAY_OUTPUTS = ["{}", "np.tanh({}) * 2.0"]
SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((2, 1), (1, 3)), ((3,), (2, 3)), ((2, 3), (2, 3))]


def expression(rng: random.Random, names: list[str], depth: int) -> str:
    if depth == 0 or rng.random() < 0.25:
        return rng.choice([*names, "1.5"])
    if rng.random() < 0.4:
        return rng.choice(UNARY).format(expression(rng, names, depth - 1))
    template = rng.choice(BINARY)
    return template.format(*[expression(rng, names, depth - 1)
                             for _ in range(template.count("{}"))])


# -- statements: each takes the names defined so far and the name to define ---------------
def reduction(rng, names, v):
    return [f"    {v} = {rng.choice(REDUCTIONS).format(expression(rng, names, 2))}"]


def for_loop(rng, names, v):
    return [f"    {v} = x", f"    for _ in range({rng.randint(0, 3)}):",
            f"        {v} = {expression(rng, [*names, v], 2)}"]


def augmented_loop(rng, names, v):
    return [f"    {v} = y * 1.0", f"    for _ in range({rng.randint(0, 3)}):",
            f"        {v} += {expression(rng, [*names, v], 2)}"]


def while_loop(rng, names, v):
    return [f"    {v} = x", "    n = 0", f"    while np.sum({v} * {v}) < 20.0 and n < 3:",
            f"        {v} = {v} * 1.3 + {expression(rng, names, 1)}", "        n = n + 1"]


def list_of_parts(rng, names, v):
    return ["    parts = []", "    for i in range(2):",
            f"        parts.append({expression(rng, names, 2)} * (i + 1.0))",
            f"    {v} = parts[0] + parts[1]"]


def branch(rng, names, v):
    return [f"    if np.sum({rng.choice(names)}) > 0:",
            f"        {v} = {expression(rng, names, 2)}",
            "    else:", f"        {v} = {expression(rng, names, 2)}"]


def loop_with_a_jump(rng, names, v):
    jump = rng.choice(["break", "continue"])
    return [f"    {v} = {rng.choice(names)} * 1.0", f"    for i in range({rng.randint(1, 4)}):",
            f"        if np.sum({v}) > {rng.uniform(-1.0, 1.0):.2f}:", f"            {jump}",
            f"        {v} = {expression(rng, [*names, v], 2)}"]


def nested_loops(rng, names, v):
    return [f"    {v} = {rng.choice(names)} * 1.0", "    for i in range(2):",
            f"        for j in range({rng.randint(1, 2)}):",
            f"            {v} = {v} * 0.5 + {expression(rng, names, 1)} * (i - j + 0.5)"]


def loop_over_an_array(rng, names, v):
    a, b = rng.choice(names), rng.choice(names)
    header = rng.choice([f"for i, row in enumerate({a}):",
                         f"for row, other in zip({a}, {b}):"])
    term = "(i + 1.0)" if "enumerate" in header else "other"
    return [f"    {v} = 0.0", f"    {header}",
            f"        {v} = {v} + np.sin(row) * {term}"]


def element_writes(rng, names, v):
    lines = [f"    {v} = np.copy({expression(rng, names, 1)})"]
    for _ in range(rng.randint(1, 2)):
        lines.append(rng.choice([f"    {v}[0] = {v}[-1] * 2.0",
                                 f"    {v}[0] += np.sum({expression(rng, names, 1)})",
                                 f"    {v}[..., ::2] *= 0.5",
                                 f"    {v}[-1] -= np.tanh({v}[0])"]))
    return lines


def unpacked_pair(rng, names, v):
    return [f"    p, q = pair({expression(rng, names, 1)}, {expression(rng, names, 1)})",
            f"    {v} = p * 0.5 + q"]


def early_return(rng, names, v):
    return [f"    if np.sum({rng.choice(names)}) > {rng.uniform(-1.0, 1.0):.2f}:",
            f"        return {rng.choice(LOSSES).format(expression(rng, names, 2))}",
            f"    {v} = {expression(rng, names, 2)}"]


def comprehension(rng, names, v):
    """A comprehension whose variable may have the name of one of the function's: it is the
    comprehension's own (its first ``iter`` still reads the function's)."""
    var = rng.choice([*names, "u"])
    items = f"[{expression(rng, names, 1)}, {expression(rng, names, 1)} * 0.5]"
    body = expression(rng, [*names, var, var], 1)
    form = rng.choice([
        f"sum([{body} for {var} in {items}])",
        f"sum({body} for {var} in {items})",
        f"[{body} for {var} in {items}][1]",
        f"{{k: {body} for k, {var} in enumerate({items})}}[0]",
        f"sum([sum([{body} for {var} in {items}]) * {var} for {var} in {items}])"])
    return [f"    {v} = {form}"]


def plain(rng, names, v):
    return [f"    {v} = {expression(rng, names, 3)}"]


STATEMENTS = [(reduction, 10), (for_loop, 10), (augmented_loop, 7), (while_loop, 7),
              (list_of_parts, 6), (branch, 10), (loop_with_a_jump, 6), (nested_loops, 4),
              (loop_over_an_array, 5), (element_writes, 6), (unpacked_pair, 4),
              (early_return, 4), (comprehension, 5), (plain, 30)]


def program(rng: random.Random, returns: list[str] = LOSSES) -> str:
    lines, names = ["def f(x, y):"], ["x", "y"]
    makers, weights = zip(*STATEMENTS, strict=True)
    for k in range(rng.randint(1, 5)):
        lines += rng.choices(makers, weights)[0](rng, names, f"v{k}")
        names.append(f"v{k}")
    lines.append(f"    return {rng.choice(returns).format(expression(rng, names, 2))}")
    return "import math\n\nimport numpy as np\n\n\n" + HELPER + "\n\n" + "\n".join(lines) + "\n"


def load(source: str, directory, seed: int, rng: random.Random | None = None):
    """The program's ``f``, imported from a file; with ``rng``, after renaming the names the
    program binds (``random_names``)."""
    renaming = random_renaming(rng, source) if rng is not None else {}
    module = load_module(rename(source, renaming), directory, seed)
    return getattr(module, renaming.get("f", "f"))


def load_module(source: str, directory, seed: int):
    path = directory / f"random_program_{seed}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(f"random_program_{seed}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_program(seed: int, directory, returns: list[str] = LOSSES):
    """The program of ``seed``, random inputs for it, its value at them, and the generator
    that drew them; ``None`` for a program NumPy does not run (an axis the value does not
    have, a write into a number, `math` of an array)."""
    rng = random.Random(seed)
    f = load(program(rng, returns), directory, seed, rng)
    x_shape, y_shape = rng.choice(SHAPES)
    values = np.random.default_rng(seed)
    x, y = values.standard_normal(x_shape), values.standard_normal(y_shape)
    try:
        with np.errstate(all="ignore"):
            return f, x, y, f(x, y), values
    except (ValueError, IndexError, TypeError):
        return None


@examples(15)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_programs_in_every_mode(seed, tmp_path_factory):
    run = run_program(seed, tmp_path_factory.mktemp("programs"))
    if run is None:
        return
    f, x, y, value, values = run
    if np.ndim(value) != 0 or not np.isfinite(value) or abs(value) > 1e3:
        return  # not a scalar loss (a branch broadcast it), or too steep for differences
    dx, dy = numerical_grad(f, (x, y), 0), numerical_grad(f, (x, y), 1)
    if max(np.max(np.abs(dx)), np.max(np.abs(dy))) > 1e3:
        return  # cos of a high power oscillates faster than central differences resolve
    gx, gy = sg.grad(f, wrt=(0, 1), check=True)(x, y)  # and the check does not false-alarm
    assert gx.shape == x.shape and gy.shape == y.shape
    assert_close(gx, dx)
    assert_close(gy, dy)
    got_value, _ = sg.value_and_grad(f, wrt=(0, 1))(x, y)
    assert_close(got_value, value)
    tx, ty = values.standard_normal(x.shape), values.standard_normal(y.shape)
    _, tangent = sg.jvp(f, (x, y), (tx, ty))
    assert_close(tangent, np.sum(dx * tx) + np.sum(dy * ty))
    leaves = sg.tensor(x, requires_grad=True), sg.tensor(y, requires_grad=True)
    sg.differentiable(f)(*leaves).backward()
    assert_close(leaves[0].grad.numpy(), dx)
    assert_close(leaves[1].grad.numpy(), dy)


def test_renaming_keeps_what_a_program_computes(tmp_path):
    """Every pool, every name: the renamed program is the same program."""
    x, y = np.linspace(-1.0, 1.0, 6).reshape(2, 3), np.linspace(0.5, -0.5, 3)
    computed = 0
    for seed in range(6):
        source = program(random.Random(seed))
        renaming = random_renaming(random.Random(seed), source, tuple(POOLS), rate=1.0)
        assert len(renaming) == len(bound_names(ast.parse(source)))
        assert "np" in renaming and "helper" in renaming
        original = load(source, tmp_path, seed)
        module = load_module(rename(source, renaming), tmp_path, seed + 1000)
        renamed = getattr(module, renaming["f"])
        with np.errstate(all="ignore"):
            try:
                expected = original(x, y)
            except (ValueError, IndexError, TypeError) as error:
                with pytest.raises(type(error)):
                    renamed(x, y)
                continue
            np.testing.assert_array_equal(renamed(x, y), expected)
            computed += 1
    assert computed >= 3


# -- array outputs: check=True is the oracle -------------------------------------------------
@examples(10)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_programs_with_array_outputs(seed, tmp_path_factory):
    """Finite differences of every output along every input would cost a run per element:
    ``check=True`` compares each mode with one central difference along a random direction,
    and the two modes must agree with each other (the dot-product test)."""
    run = run_program(seed, tmp_path_factory.mktemp("programs"), ARRAY_OUTPUTS)
    if run is None:
        return
    f, x, y, value, values = run
    if not np.all(np.isfinite(value)) or np.max(np.abs(value)) > 1e3:
        return
    cotangent = values.standard_normal(np.shape(value))
    tx, ty = values.standard_normal(x.shape), values.standard_normal(y.shape)
    gx, gy = sg.vjp(f, x, y, check=True)[1](cotangent)
    _, tangent = sg.jvp(f, (x, y), (tx, ty), check=True)
    assert np.shape(tangent) == np.shape(value)
    assert_close(np.sum(cotangent * tangent), np.sum(gx * tx) + np.sum(gy * ty))


# -- second derivatives: reverse over reverse, and forward over reverse --------------------
@examples(10)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_programs_twice(seed, tmp_path_factory):
    rng = random.Random(seed)
    f = load(program(rng), tmp_path_factory.mktemp("programs"), seed, rng)
    values = np.random.default_rng(seed)
    x, y = float(values.standard_normal()), values.standard_normal(3)
    try:
        with np.errstate(all="ignore"):
            value = f(x, y)
    except (ValueError, IndexError, TypeError):
        return
    if np.ndim(value) != 0 or not np.isfinite(value) or abs(value) > 1e3:
        return
    first = sg.grad(f, wrt=0)
    if abs(first(x, y)) > 1e2:
        return
    expected = (first(x + 1e-5, y) - first(x - 1e-5, y)) / 2e-5
    try:
        second = sg.grad(first, wrt=0)
    except sg.UnsupportedSyntaxError as error:
        # the first gradient adds into a cotangent that may share memory with what a call's
        # derivative returned: refused, as a write through such a view is in user code
        assert "may be a view" in str(error)
        return
    assert_close(second(x, y), expected, rtol=1e-4, atol=1e-4)
    hessian = sg.hessian(f, wrt=0)(x, y)  # shape x.shape + x.shape: ()
    assert np.shape(hessian) == ()
    assert_close(float(hessian), expected, rtol=1e-4, atol=1e-4)


# -- vectors and matrices: matmul, indexing, element writes, sorting -----------------------
VECTOR = ["np.tanh({v})", "{W} @ {v}", "{v}[::-1]", "np.concatenate([{v}[:1], {v}[1:] * 2.0])",
          "{v} * {v}[0]", "np.sum({W}, axis=0) * {v}", "np.stack([{v}, {v} * 0.5])[1]",
          "np.cumsum({v})", "np.dot({v}, {W})", "np.max({W}, axis=1) + {v}",
          "np.outer({v}, {v})[0]", "np.sort({v})", "np.clip({v}, -0.5, 0.5)",
          "np.einsum('ij,j->i', {W}, {v})", "{v}[np.array([2, 0, 1])]",
          "np.where({v} > 0, {v}, {v} * 0.1)", "{v} * np.sum({v}[{v} > 0])",
          "np.concatenate([{v}[::2], {v}[1:2]])", "{W}.reshape(9)[::3]",
          "{v}.reshape(3, 1)[:, 0]", "{W}[:, 1] * {v}",
          "{W}[np.array([0, 2, 1]), np.array([1, 1, 0])]",
          "np.linalg.norm({v}) * {v}", "np.prod({v}) + {v}", "np.cumprod(np.tanh({v}))",
          "np.min({W}, axis=0, keepdims=True)[0]", "np.linalg.solve({W} + 3.0 * np.eye(3), {v})",
          "np.trace({W}) * {v}", "np.stack([{v}, {v} * 2.0], axis=1)[:, 1]", "{W}[1] - {v}"]
MATRIX = ["{W} * 0.5", "{W}.T", "np.tanh({W})", "{W} @ {W}", "{W} + np.outer({v}, {v})",
          "{W}[::-1]", "np.exp(0.2 * {W})", "np.einsum('ij,kj->ik', {W}, {W})",
          "{W}.reshape(9).reshape(3, 3)", "np.transpose({W})",
          "np.linalg.inv({W} + 3.0 * np.eye(3))", "np.clip({W}, -0.4, 0.4)",
          "np.sort({W}, axis=0)", "np.cumsum({W}, axis=1)",
          "np.max({W}, axis=1, keepdims=True) * {W}", "np.where({W} > 0, {W}, 0.0)"]
def vector(rng: random.Random, vectors: list[str], matrices: list[str], depth: int) -> str:
    """A vector expression, parenthesized so that a template's `[...]` or `.T` applies to
    all of it."""
    if depth == 0 or rng.random() < 0.2:
        return rng.choice(vectors)
    return "({})".format(rng.choice(VECTOR).format(v=vector(rng, vectors, matrices, depth - 1),
                                                   W=matrix(rng, vectors, matrices, depth - 1)))


def matrix(rng: random.Random, vectors: list[str], matrices: list[str], depth: int) -> str:
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(matrices)
    return "({})".format(rng.choice(MATRIX).format(v=vector(rng, vectors, matrices, depth - 1),
                                                   W=matrix(rng, vectors, matrices, depth - 1)))


def linear_algebra_program(rng: random.Random) -> str:
    lines, vectors, matrices = ["def f(x, W):"], ["x"], ["W"]
    for k in range(rng.randint(1, 5)):
        kind = rng.random()
        if kind < 0.15:
            lines += [f"    a{k} = {vector(rng, vectors, matrices, 2)}",
                      f"    a{k}[1] = a{k}[0] * 2.0"]
        elif kind < 0.3:
            lines += [f"    a{k} = x * 1.0", "    for j in range(3):",
                      f"        a{k}[j] = a{k}[j] * {vector(rng, vectors, matrices, 1)}[j]"]
        elif kind < 0.45:
            lines.append(f"    m{k} = {matrix(rng, vectors, matrices, 2)}")
            matrices.append(f"m{k}")
            continue
        elif kind < 0.55:
            lines += [f"    a{k} = x", "    for j in range(2):",
                      f"        a{k} = np.tanh(W @ a{k} + {vector(rng, vectors, matrices, 1)})"]
        elif kind < 0.62:
            lines += [f"    a{k} = np.copy({vector(rng, vectors, matrices, 1)})",
                      f"    a{k}[0] += np.sum({vector(rng, vectors, matrices, 1)})",
                      f"    a{k}[::2] *= 0.5"]
        elif kind < 0.69:
            rows = matrix(rng, vectors, matrices, 1)
            lines += [f"    a{k} = x * 0.0", f"    for i, row in enumerate({rows}):",
                      f"        a{k} = a{k} + row * {vector(rng, vectors, matrices, 1)}[i]"]
        elif kind < 0.74:
            rows = matrix(rng, vectors, matrices, 1)
            lines += [f"    a{k} = x * 0.0", f"    for row, c in zip({rows}, x):",
                      f"        a{k} = a{k} + np.sin(row) * c"]
        else:
            lines.append(f"    a{k} = {vector(rng, vectors, matrices, 3)}")
        vectors.append(f"a{k}")
    lines.append(f"    return np.sum({vector(rng, vectors, matrices, 2)} ** 2)"
                 f" + np.mean({matrix(rng, vectors, matrices, 1)})")
    return "import numpy as np\n\n\n" + "\n".join(lines) + "\n"


@examples(10)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_linear_algebra_programs(seed, tmp_path_factory):
    rng = random.Random(seed)
    source = linear_algebra_program(rng)
    f = load(source, tmp_path_factory.mktemp("programs"), seed, rng)
    values = np.random.default_rng(seed)
    x, W = values.standard_normal(3), 0.5 * values.standard_normal((3, 3))
    try:
        with np.errstate(all="ignore"):
            value = f(x.copy(), W.copy())
    except (ValueError, IndexError, AttributeError, TypeError):
        return  # a program NumPy does not run (`.T` of a number, say)
    if not np.isfinite(value) or abs(value) > 1e3:
        return
    try:
        transformed = sg.grad(f, wrt=(0, 1))
    except sg.UnsupportedSyntaxError:
        return  # a write into what may be a view: refused (tested in test_errors.py)
    dx, dW = numerical_grad(f, (x, W), 0), numerical_grad(f, (x, W), 1)
    if max(np.max(np.abs(dx)), np.max(np.abs(dW))) > 1e3:
        return
    gx, gW = transformed(x.copy(), W.copy())
    assert_close(gx, dx)
    assert_close(gW, dW)
    tx, tW = values.standard_normal(3), values.standard_normal((3, 3))
    try:
        _, tangent = sg.jvp(f, (x.copy(), W.copy()), (tx, tW))
    except sg.UnsupportedSyntaxError as error:  # forward mode refuses every write into a
        assert "may be a view" in str(error)  # possible view (tested in test_errors.py)
        return
    assert_close(tangent, np.sum(dx * tx) + np.sum(dW * tW))
