"""A derivative is always that of the code that runs (contract 1a): what the generated code
relied on changing since it was made (an attribute chain's target, a rule, a module's file,
a helper redefined after ``g = sg.grad(f)``) makes the derivative again or raises a clear
error, in the same process (memory) and in the next one (disk, a private cache directory).

Expected gradients are written by hand or taken by central finite differences.
"""

import importlib
import importlib.util
import json
import math
import os
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sourcegrad as sg
from sourcegrad import cache
from sourcegrad.frontend.source import SourceChangedError

from .fd import assert_close, numerical_grad
from .test_cache import run_python, unique, write_module

X = [0.25, 1.5, -2.0]


def derivative_of(activation: str, x) -> np.ndarray:
    x = np.asarray(x)
    return {"sin": np.cos(x), "cos": -np.sin(x), "tanh": 1 - np.tanh(x) ** 2,
            "exp": np.exp(x)}[activation]


# -- attribute chains between processes -------------------------------------------------------
# Each function reaches an activation through another kind of holder; the file defining the
# holders is edited between two processes sharing a cache directory.
HOLDERS_TEXT = """
    import numpy as np
    from types import SimpleNamespace

    act = np.{act}
    namespace = SimpleNamespace(act=np.{act})
    layers = SimpleNamespace(inner=SimpleNamespace(act=np.{act}))


    class Holder:
        act = np.{act}


    class Config:
        def __init__(self):
            self.act = np.{act}


    instance = Config()
"""

USERS_TEXT = """
    import numpy as np
    import {holders}
    from {holders} import Holder, instance, namespace


    def through_module(x):
        return np.sum({holders}.act(x))


    def through_namespace(x):
        return np.sum(namespace.act(x))


    def through_class(x):
        return np.sum(Holder.act(x))


    def through_instance(x):
        return np.sum(instance.act(x))


    def through_deep_chain(x):
        return np.sum({holders}.layers.inner.act(x))


    def make(config):
        def closure(x):
            return np.sum(config.act(x))
        return closure


    through_closure = make({holders}.namespace)


    def helper(a):
        return {holders}.act(a) * 2.0


    def through_callee(x):
        return np.sum(helper(x))
"""

HOLDER_KINDS = {"through_module": 1.0, "through_namespace": 1.0, "through_class": 1.0,
                "through_instance": 1.0, "through_deep_chain": 1.0, "through_closure": 1.0,
                "through_callee": 2.0}

GRADIENTS_SCRIPT = """
    import json
    import numpy as np
    import sourcegrad as sg
    from sourcegrad import cache
    import {users}
    x = np.array({x})
    out = {{name: sg.grad(getattr({users}, name))(x).tolist() for name in {names}}}
    jvps = {{name: sg.jvp(getattr({users}, name), (x,), (np.ones(3),))[1] for name in {names}}}
    print(json.dumps({{"grad": out, "jvp": jvps, "disk_hits": cache.STATS.disk_hits,
                      "transformations": cache.STATS.transformations}}))
"""


@pytest.fixture(scope="module")
def chain_runs(tmp_path_factory):
    """Gradients and tangents of every holder kind, with ``np.sin`` in a first process, then
    again with ``np.sin`` (a disk hit), then with the file edited to ``np.cos``."""
    directory = tmp_path_factory.mktemp("chains")
    cache_dir = tmp_path_factory.mktemp("chains-cache")
    holders, users = unique("holders"), unique("users")
    write_module(directory, holders, HOLDERS_TEXT.format(act="sin"))
    write_module(directory, users, USERS_TEXT.format(holders=holders))
    script = GRADIENTS_SCRIPT.format(users=users, x=X, names=sorted(HOLDER_KINDS))
    runs = [json.loads(run_python(script, cache_dir, [directory])) for _ in range(2)]
    write_module(directory, holders, HOLDERS_TEXT.format(act="cos"))
    runs.append(json.loads(run_python(script, cache_dir, [directory])))
    return runs


def test_a_second_process_loads_every_holder_kind_from_disk(chain_runs):
    assert chain_runs[1]["transformations"] == 0 and chain_runs[1]["disk_hits"] > 0


@pytest.mark.parametrize("holder", sorted(HOLDER_KINDS))
def test_editing_what_an_attribute_chain_reaches_makes_the_derivative_again(chain_runs,
                                                                           holder):
    factor = HOLDER_KINDS[holder]
    before, again, after = (run["grad"][holder] for run in chain_runs)
    assert_close(np.array(before), factor * derivative_of("sin", X))
    assert_close(np.array(again), factor * derivative_of("sin", X))
    assert_close(np.array(after), factor * derivative_of("cos", X))


@pytest.mark.parametrize("holder", sorted(HOLDER_KINDS))
def test_forward_mode_follows_the_edit_too(chain_runs, holder):
    factor = HOLDER_KINDS[holder]
    assert math.isclose(chain_runs[0]["jvp"][holder],
                        factor * np.sum(derivative_of("sin", X)), rel_tol=1e-9)
    assert math.isclose(chain_runs[2]["jvp"][holder],
                        factor * np.sum(derivative_of("cos", X)), rel_tol=1e-9)


# -- the same process: rebinding after the derivative was made --------------------------------
config = types.SimpleNamespace(act=np.sin, inner=types.SimpleNamespace(act=np.sin))


class Settings:
    act = np.sin


def helper_for_staleness(a):
    return np.sin(a)


def through_config(x):
    return np.sum(config.act(x))


def through_inner(x):
    return np.sum(config.inner.act(x) * 3.0)


def through_settings(x):
    return np.sum(Settings.act(x))


def through_helper(x):
    return np.sum(helper_for_staleness(x) * 2.0)


def calls_through_helper(x):
    return through_helper(x) + np.sum(x)


def through_a_builtin(x):
    return np.sum(abs(x) * x)


@pytest.fixture
def restored():
    """Puts the module's globals and holders back as they were."""
    saved = dict(globals()), config.act, config.inner.act, Settings.act
    yield
    for name in set(globals()) - set(saved[0]):
        del globals()[name]
    globals().update(saved[0])
    config.act, config.inner.act, Settings.act = saved[1:]


def rebind_helper(text):
    """Define ``helper_for_staleness`` again, as re-running a notebook cell does (its text
    registered with linecache under a name of its own, as IPython does)."""
    import linecache

    filename = f"<cell {unique('helper')}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    exec(compile(text, filename, "exec"), globals())


def check_against_differences(fn, grad_fn, x):
    assert_close(grad_fn(x), numerical_grad(fn, (x,), 0))


@pytest.mark.parametrize("fn, rebind", [
    (through_config, lambda: setattr(config, "act", np.cos)),
    (through_inner, lambda: setattr(config.inner, "act", np.tanh)),
    (through_settings, lambda: setattr(Settings, "act", np.exp)),
    (through_helper, lambda: rebind_helper("def helper_for_staleness(a):\n    return a ** 3\n")),
    (calls_through_helper,
     lambda: rebind_helper("def helper_for_staleness(a):\n    return np.cos(a) * a\n")),
    (through_a_builtin, lambda: rebind_helper("def abs(a):\n    return a * a\n")),
])
def test_a_gradient_made_before_a_change_follows_it(restored, fn, rebind):
    x = np.array(X)
    grad, value_and_grad = sg.grad(fn), sg.value_and_grad(fn)
    check_against_differences(fn, grad, x)
    before = grad(x)
    rebind()
    after = numerical_grad(fn, (x,), 0)
    assert not np.allclose(before, after)  # the change matters
    assert_close(grad(x), after)  # the function made before the change
    assert_close(value_and_grad(x)[1], after)
    assert_close(sg.grad(fn)(x), after)  # and asking again
    assert math.isclose(value_and_grad(x)[0], fn(x))


def scalar_through_helper(t):
    return helper_for_staleness(t) * 2.0


def test_second_derivatives_made_before_a_change_follow_it(restored):
    x = np.array(X)
    hessian, hvp = sg.hessian(through_helper), sg.hvp(through_helper)
    jacobian = sg.jacobian(sg.grad(through_helper))
    second = sg.grad(sg.grad(scalar_through_helper))
    assert_close(hessian(x), np.diag(-2 * np.sin(x)))
    assert_close(jacobian(x), np.diag(-2 * np.sin(x)))
    assert math.isclose(second(0.7), -2 * math.sin(0.7))
    rebind_helper("def helper_for_staleness(a):\n    return a ** 3\n")
    assert_close(hessian(x), np.diag(12 * x))
    assert_close(hvp(x, np.ones(3)), 12 * x)
    assert_close(jacobian(x), np.diag(12 * x))
    assert math.isclose(second(0.7), 12 * 0.7)


def test_a_vjp_pullback_stays_the_derivative_of_the_code_that_ran(restored):
    x = np.array(X)
    value, pullback = sg.vjp(through_helper, x)
    rebind_helper("def helper_for_staleness(a):\n    return a ** 3\n")
    assert_close(pullback(1.0)[0], 2 * np.cos(x))  # of the sine that ran
    value, pullback = sg.vjp(through_helper, x)
    assert math.isclose(value, np.sum(2 * x ** 3))
    assert_close(pullback(1.0)[0], 6 * x ** 2)


def test_an_attribute_that_is_new_on_each_read_is_an_error_not_a_stale_gradient():
    class Fickle:
        @property
        def act(self):
            def doubled(a):  # a new function on each read
                return a * 2.0
            return doubled

    fickle = Fickle()

    def reads_fickle(x):
        return np.sum(fickle.act(x))

    with pytest.raises(sg.SourcegradError, match="fickle.act"):
        sg.grad(reads_fickle)(np.array(X))


def test_a_bound_method_read_again_is_the_same_dependency():
    rng = np.random.default_rng(0)  # rng.normal is a new object on each read

    class Scaler:
        def __init__(self, k):
            self.k = k

        def factor(self, power):
            return self.k ** power

    scaler = Scaler(3.0)

    def noisy(x):
        noise = rng.normal(size=3) + np.random.normal(size=3)
        return np.sum(x * scaler.factor(2.0) + 0.0 * noise)

    grad = sg.grad(noisy)
    before = cache.STATS.transformations
    for _ in range(3):
        assert_close(grad(np.array(X)), np.full(3, 9.0))
    assert cache.STATS.transformations == before
    assert cache.why_stale(grad) is None


# -- rules edited below their first line, between processes -------------------------------------
RULES_TEXT = """
    import numpy as np
    import sourcegrad as sg


    def scaled(x):
        return x * x * 1.5


    @sg.defvjp(scaled)
    def scaled_vjp(g, ans, x):
        # the derivative of scaled, by hand: the edit is well below the first line
        return g * {vjp} * x


    def squashed(x):
        return np.tanh(x) * 2.0


    @sg.defjvp(squashed)
    def squashed_jvp(tangents, ans, x):
        # the tangent of squashed, by hand: the edit is well below the first line
        return tangents[0] * {jvp} * (1.0 - np.tanh(x) ** 2)


    def reverse_loss(x):
        return np.sum(scaled(x))


    def forward_loss(x):
        return np.sum(squashed(x))
"""

RULES_SCRIPT = """
    import json
    import numpy as np
    import sourcegrad as sg
    import {module}
    x = np.array({x})
    grad = sg.grad({module}.reverse_loss)(x).tolist()
    tangent = sg.jvp({module}.forward_loss, (x,), (np.ones(3),))[1]
    print(json.dumps({{"grad": grad, "jvp": tangent}}))
"""


def test_editing_a_rule_below_its_first_line_is_seen_by_the_next_process(tmp_path,
                                                                         private_cache_dir):
    name = unique("rules")
    script = RULES_SCRIPT.format(module=name, x=X)
    x = np.array(X)
    for vjp, jvp in [("3.0", "2.0"), ("2.0", "5.0")]:  # the rules are whatever they say
        write_module(tmp_path, name, RULES_TEXT.format(vjp=vjp, jvp=jvp))
        out = json.loads(run_python(script, private_cache_dir, [tmp_path]))
        assert_close(np.array(out["grad"]), float(vjp) * x)
        assert math.isclose(out["jvp"], np.sum(float(jvp) * (1 - np.tanh(x) ** 2)))


# -- a module edited on disk and not reloaded ---------------------------------------------------
def edit(directory, name, text):
    """Write the module's file again, its modification time clearly later (so that
    ``linecache`` sees the change whatever the file system's time resolution)."""
    path = write_module(directory, name, text)
    later = os.stat(path).st_mtime + 10
    os.utime(path, (later, later))


EDITED_TEXT = """
    import numpy as np


    def inner(a):
        return np.sin(a)


    def f(x):
        y = inner(x) * 2.0
        return np.sum(y)
"""


@pytest.mark.parametrize("edited, what", [
    (EDITED_TEXT.replace("np.sin(a)", "np.cos(a)"), "a callee's body"),
    (EDITED_TEXT.replace("* 2.0", "* 3.0"), "the function's body"),
    (EDITED_TEXT.replace("        y = inner", "\n        y = inner"), "only a line moved"),
    (EDITED_TEXT.replace("import numpy as np\n", "import numpy as np\n    # a new line\n"),
     "the whole function moved down"),
])
def test_a_module_edited_on_disk_and_not_reloaded_is_refused(tmp_path, monkeypatch, edited,
                                                             what):
    name = unique("edited")
    monkeypatch.syspath_prepend(str(tmp_path))
    write_module(tmp_path, name, EDITED_TEXT)
    module = importlib.import_module(name)
    x = np.array(X)
    assert_close(sg.grad(module.f)(x), 2 * np.cos(x))
    edit(tmp_path, name, edited)
    assert_close(sg.grad(module.f)(x), 2 * np.cos(x))  # made before: still the code that runs
    # asked anew: the derivative of the code that runs (a callee differentiated before),
    # or an error saying the file changed; never the derivative of the new text
    running = numerical_grad(module.f, (x,), 0)
    refused = 0
    for ask in (lambda: sg.grad(module.f, wrt="x")(x), lambda: sg.value_and_grad(module.f)(x)[1],
                lambda: sg.jvp(module.f, (x,), (np.ones(3),))[1],
                lambda: sg.vjp(module.f, x)[1](1.0)[0]):
        try:
            got = ask()
        except SourceChangedError as error:
            assert f"{name}.py has changed since" in str(error), what
            assert "importlib.reload" in str(error)
            refused += 1
        else:
            assert_close(np.sum(got) if np.ndim(got) == 0 else got,
                         np.sum(running) if np.ndim(got) == 0 else running)
    # the function's own text is read each time; a callee's only where it was not
    # differentiated before (forward mode here)
    assert refused == (1 if what == "a callee's body" else 4)
    importlib.reload(module)
    assert_close(sg.grad(module.f, wrt="x")(x), numerical_grad(module.f, (x,), 0))


def test_a_module_cut_short_on_disk_and_not_reloaded_is_refused(tmp_path, monkeypatch):
    name = unique("shortened")
    monkeypatch.syspath_prepend(str(tmp_path))
    write_module(tmp_path, name, EDITED_TEXT)
    module = importlib.import_module(name)
    edit(tmp_path, name, "import numpy as np\n")
    with pytest.raises(SourceChangedError, match=f"{name}.py has changed"):
        sg.grad(module.f)


def test_a_callee_in_another_module_edited_and_not_reloaded_is_refused(tmp_path, monkeypatch):
    callee, caller = unique("callee"), unique("caller")
    monkeypatch.syspath_prepend(str(tmp_path))
    write_module(tmp_path, callee, "import numpy as np\n\ndef inner(a):\n    return a * a\n")
    write_module(tmp_path, caller, f"""
        import numpy as np
        from {callee} import inner

        def outer(x):
            return np.sum(inner(x))
    """)
    module = importlib.import_module(caller)
    edit(tmp_path, callee, "import numpy as np\n\ndef inner(a):\n    return a * a * a\n")
    with pytest.raises(SourceChangedError, match=f"{callee}.py has changed"):
        sg.grad(module.outer)


def test_an_entry_made_by_a_process_that_read_the_new_text_is_not_loaded(tmp_path,
                                                                         private_cache_dir):
    name = unique("racing")
    write_module(tmp_path, name, EDITED_TEXT)
    # this process imports the module, the file is edited, another process imports the
    # new text and fills the cache; this process must not load that derivative
    script = f"""
        import json, os, subprocess, sys
        import numpy as np
        import sourcegrad as sg
        from sourcegrad.frontend.source import SourceChangedError
        import {name}
        path = {name}.__file__
        text = open(path).read().replace("np.sin(a)", "np.cos(a)")
        open(path, "w").write(text)
        os.utime(path, (os.stat(path).st_mtime + 10,) * 2)
        fill = "import numpy as np, sourcegrad as sg, {name}; sg.grad({name}.f)(np.ones(3))"
        subprocess.run([sys.executable, "-c", fill], check=True)
        try:
            sg.grad({name}.f)(np.ones(3))
            print(json.dumps("loaded"))
        except SourceChangedError as error:
            print(json.dumps("refused: " + str(error)))
    """
    out = json.loads(run_python(script, private_cache_dir, [tmp_path]))
    assert out.startswith("refused:") and "importlib.reload" in out


# -- notebooks: a helper redefined in a later cell ---------------------------------------------
NOTEBOOK_SCRIPT = """
    import json
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    cells = [
        "import numpy as np\\nimport sourcegrad as sg\\nx = np.array({x})",
        "def helper(a):\\n    return np.sin(a)",
        "def f(x):\\n    return np.sum(helper(x) * 2.0)",
        "g = sg.grad(f)\\nH = sg.hessian(f)\\nfirst = (g(x).tolist(), H(x).tolist())",
        "def helper(a):\\n    return a ** 3",
        "second = (g(x).tolist(), H(x).tolist())",
    ]
    for cell in cells:
        result = shell.run_cell(cell)
        assert result.success, result.error_in_exec
    print(json.dumps({{"first": shell.user_ns["first"], "second": shell.user_ns["second"]}}))
"""


def test_a_helper_redefined_in_a_later_notebook_cell_is_followed(private_cache_dir):
    out = json.loads(run_python(NOTEBOOK_SCRIPT.format(x=X), private_cache_dir))
    x = np.array(X)
    assert_close(np.array(out["first"][0]), 2 * np.cos(x))
    assert_close(np.array(out["first"][1]), np.diag(-2 * np.sin(x)))
    assert_close(np.array(out["second"][0]), 6 * x ** 2)
    assert_close(np.array(out["second"][1]), np.diag(12 * x))


# -- random programs: attribute chains that change between calls ------------------------------
def cube(a):
    return a * a * a


def softsign(a):
    return a / (1.0 + a * a)


LEAVES = [np.sin, np.cos, np.tanh, np.exp, np.arctan, cube, softsign]
CHAINS = ["root.act", "root.layer.act", "root.layer.deeper.act", "Holder.act", "holder.act",
          "holder.part.act", "closed.act", "closed.layer.act"]
PROGRAM = """
import numpy as np
from types import SimpleNamespace

from tests.test_staleness import cube, softsign

root = SimpleNamespace(act=np.sin, layer=SimpleNamespace(
    act=np.sin, deeper=SimpleNamespace(act=np.sin)))


class Holder:
    act = np.sin


class Instance:
    def __init__(self):
        self.act = np.sin
        self.part = SimpleNamespace(act=np.sin)


holder = Instance()


def make(closed):
    def f(x):
{body}
    return f


CLOSED = SimpleNamespace(act=np.sin, layer=SimpleNamespace(act=np.sin))
f = make(CLOSED)  # f reads it as the closure variable `closed`
"""


def random_program(data) -> str:
    lines = ["total = 0.0"]
    for i in range(data.draw(st.integers(1, 4), label="terms")):
        outer, inner = data.draw(st.sampled_from(CHAINS)), data.draw(st.sampled_from(CHAINS))
        scale = data.draw(st.sampled_from(["0.5", "1.0", "2.0"]))
        nested = data.draw(st.booleans(), label=f"nested {i}")
        argument = f"{inner}(x * {scale})" if nested else f"x * {scale}"
        lines.append(f"total = total + np.sum({outer}({argument}))")
    lines.append("return total")
    return "\n".join(" " * 8 + line for line in lines)


def holder_of(module, chain):
    """The object holding the chain's last attribute, and that attribute's name."""
    parts = chain.split(".")
    value = module.CLOSED if parts[0] == "closed" else getattr(module, parts[0])
    for part in parts[1:-1]:
        value = getattr(value, part)
    return value, parts[-1]


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_random_attribute_chains_rebound_between_calls(data, tmp_path_factory):
    body = random_program(data)
    path = tmp_path_factory.mktemp("chains") / f"{unique('chains')}.py"
    path.write_text(PROGRAM.format(body=body))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    x = np.array(X) * 0.3
    grad, value_and_grad = sg.grad(module.f), sg.value_and_grad(module.f)
    for step in range(data.draw(st.integers(1, 4), label="changes")):
        assert_close(grad(x), numerical_grad(module.f, (x,), 0), rtol=1e-4, atol=1e-5)
        value, gradient = value_and_grad(x)
        assert math.isclose(value, module.f(x), rel_tol=1e-12)
        chain = data.draw(st.sampled_from(CHAINS), label=f"change {step}")
        leaf = data.draw(st.sampled_from(LEAVES), label=f"to {step}")
        setattr(*holder_of(module, chain), leaf)
    assert_close(grad(x), numerical_grad(module.f, (x,), 0), rtol=1e-4, atol=1e-5)
    assert_close(sg.grad(module.f)(x), numerical_grad(module.f, (x,), 0), rtol=1e-4,
                 atol=1e-5)


@sg.differentiable
def predict_through_helper(x):
    return helper_for_staleness(x) * 2.0


def test_a_differentiable_function_follows_a_helper_redefined_after_its_first_call(restored):
    x = sg.tensor(np.array(X), requires_grad=True)
    predict_through_helper(x).sum().backward()
    assert_close(x.grad, 2 * np.cos(np.array(X)))
    rebind_helper("def helper_for_staleness(a):\n    return a ** 3\n")
    x = sg.tensor(np.array(X), requires_grad=True)
    out = predict_through_helper(x)
    assert_close(out.detach().numpy(), 2 * np.array(X) ** 3)
    out.sum().backward()
    assert_close(x.grad, 6 * np.array(X) ** 2)


SECOND_ORDER_SCRIPT = """
    import json
    import numpy as np
    import sourcegrad as sg
    from sourcegrad import cache
    import {module}
    x = np.array({x})
    grad = sg.grad({module}.f, wrt="x")  # the gradient the Hessian differentiates
    hessian = sg.hessian({module}.f)
    first = hessian(x).tolist()
    {module}.config.act = np.cos
    print(json.dumps({{"first": first, "grad": grad(x).tolist(), "hessian": hessian(x).tolist(),
                      "disk_hits": cache.STATS.disk_hits}}))
"""


def test_a_second_derivative_loaded_from_disk_leaves_the_gradient_its_own_check(
        tmp_path, private_cache_dir):
    name = unique("second")
    write_module(tmp_path, name, """
        import numpy as np
        from types import SimpleNamespace

        config = SimpleNamespace(act=np.sin)

        def f(x):
            return np.sum(config.act(x))
    """)
    script = SECOND_ORDER_SCRIPT.format(module=name, x=X)
    runs = [json.loads(run_python(script, private_cache_dir, [tmp_path])) for _ in range(2)]
    assert runs[1]["disk_hits"] >= 2  # the gradient and its tangent code, from disk
    x = np.array(X)
    for run in runs:
        assert_close(np.array(run["first"]), np.diag(-np.sin(x)))
        assert_close(np.array(run["grad"]), -np.sin(x))
        assert_close(np.array(run["hessian"]), np.diag(-np.cos(x)))
