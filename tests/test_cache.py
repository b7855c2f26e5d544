"""The cache of generated derivatives: memory hits, invalidation, the disk between processes.

Cache hits are told from transformations by ``cache.STATS``, which counts each time a
derivative is actually made. Gradients are compared with formulas written by hand.
"""

import gc
import importlib
import inspect
import json
import os
import pathlib
import subprocess
import sys
import textwrap
import uuid
import weakref

import numpy as np
import pytest

import sourcegrad as sg
from sourcegrad import cache
from sourcegrad.rules import registry

ROOT = pathlib.Path(__file__).resolve().parent.parent


def cubic_sum(x):
    return np.sum(x ** 3)


def uses_helper(x):
    return np.sum(helper_for_cache(x) * 2.0)


def helper_for_cache(a):
    return np.sin(a)


@pytest.fixture
def fresh_memory():
    cache.clear_memory()
    yield
    cache.clear_memory()


def write_module(directory, name, text):
    path = directory / f"{name}.py"
    path.write_text(textwrap.dedent(text))
    pycache = directory / "__pycache__"
    for stale in pycache.glob(f"{name}.*") if pycache.exists() else []:
        stale.unlink()
    return path


def unique(prefix):
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def test_asking_again_returns_the_same_function_without_transforming(fresh_memory):
    before = cache.STATS.transformations
    first = sg.grad(cubic_sum)
    assert cache.STATS.transformations == before + 1
    again = sg.grad(cubic_sum)
    assert again is first
    assert cache.STATS.transformations == before + 1
    x = np.array([1.0, -2.0])
    np.testing.assert_allclose(again(x), 3 * x ** 2)


def test_different_wrt_and_variants_are_different_entries(fresh_memory):
    before = cache.STATS.transformations
    sg.grad(cubic_sum, wrt=0)
    sg.grad(cubic_sum, wrt=(0,))
    sg.value_and_grad(cubic_sum)
    assert cache.STATS.transformations == before + 3
    value, grad = sg.value_and_grad(cubic_sum)(np.array([2.0]))
    assert value == 8.0 and grad.tolist() == [12.0]
    assert cache.STATS.transformations == before + 3


def test_a_second_vjp_reuses_the_split_functions(fresh_memory):
    x = np.array([0.5, 1.5])
    sg.vjp(cubic_sum, x)
    before = cache.STATS.transformations
    _, pullback = sg.vjp(cubic_sum, x)
    assert cache.STATS.transformations == before
    np.testing.assert_allclose(pullback(1.0)[0], 3 * x ** 2)


def test_editing_and_reloading_the_module_regenerates(tmp_path, monkeypatch, fresh_memory):
    name = unique("edited")
    monkeypatch.syspath_prepend(str(tmp_path))
    write_module(tmp_path, name, """
        import numpy as np

        def f(x):
            return np.sum(x ** 2)
    """)
    module = importlib.import_module(name)
    x = np.array([1.0, 3.0])
    np.testing.assert_allclose(sg.grad(module.f)(x), 2 * x)
    write_module(tmp_path, name, """
        import numpy as np

        def f(x):
            return np.sum(np.sin(x) * 10.0)
    """)
    importlib.reload(module)
    before = cache.STATS.transformations
    np.testing.assert_allclose(sg.grad(module.f)(x), 10 * np.cos(x))
    assert cache.STATS.transformations == before + 1


def test_editing_a_callee_in_another_module_regenerates_the_caller(tmp_path, monkeypatch,
                                                                   fresh_memory):
    callee, caller = unique("callee"), unique("caller")
    monkeypatch.syspath_prepend(str(tmp_path))
    write_module(tmp_path, callee, """
        import numpy as np

        def inner(a):
            return a * a
    """)
    write_module(tmp_path, caller, f"""
        import numpy as np
        import {callee}

        def outer(x):
            return np.sum({callee}.inner(x))
    """)
    callee_module = importlib.import_module(callee)
    caller_module = importlib.import_module(caller)
    x = np.array([0.5, 2.0])
    grad_outer = sg.grad(caller_module.outer)
    np.testing.assert_allclose(grad_outer(x), 2 * x)
    assert sg.grad(caller_module.outer) is grad_outer
    write_module(tmp_path, callee, """
        import numpy as np

        def inner(a):
            return np.exp(a) + 0.0
    """)
    importlib.reload(callee_module)
    regenerated = sg.grad(caller_module.outer)
    assert regenerated is not grad_outer
    np.testing.assert_allclose(regenerated(x), np.exp(x))


def test_changing_a_rule_regenerates(fresh_memory):
    def root(x):
        return np.sum(np.cbrt(x))

    old = registry.RULES[np.cbrt]
    first = sg.grad(root)
    try:
        @registry.rule(np.cbrt)
        class cbrt:  # the same derivative, spelled differently
            def vjp_x(g, ans, x):
                return g / (3.0 * ans * ans)

        second = sg.grad(root)
        assert second is not first
        assert "(3.0 * cbrt_x * cbrt_x)" in second.source
        assert "(3.0 * cbrt_x * cbrt_x)" not in first.source
        np.testing.assert_allclose(second(np.array([8.0])), [1 / 12])
    finally:
        registry.RULES[np.cbrt] = old  # written directly, as tests restoring the table do
    assert sg.grad(root).source == first.source
    assert sg.grad(root) is not second


# -- the disk cache ---------------------------------------------------------------------------
def run_python(script, cache_dir, extra_path=(), **env):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SOURCEGRAD")}
    environment.update(env)
    environment["SOURCEGRAD_CACHE_DIR"] = str(cache_dir)
    environment["PYTHONPATH"] = os.pathsep.join([str(ROOT), *map(str, extra_path)])
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], env=environment,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


CALLER_SCRIPT = """
    import json
    import numpy as np
    import sourcegrad as sg
    from sourcegrad import cache
    import {module}
    x = np.array([0.25, 1.5, -2.0])
    grad = {derivative}
    print(json.dumps({{"grad": grad.tolist(), "transformations": cache.STATS.transformations,
                      "disk_hits": cache.STATS.disk_hits}}))
"""


def test_a_new_process_loads_from_disk_without_transforming(tmp_path, private_cache_dir):
    name = unique("diskmod")
    write_module(tmp_path, name, """
        import numpy as np

        def scale(a, k=3.0):
            return np.tanh(a) * k

        def loss(x):
            y = scale(x)
            return np.sum(y * x)
    """)
    script = CALLER_SCRIPT.format(module=name, derivative=f"sg.grad({name}.loss)(x)")
    x = np.array([0.25, 1.5, -2.0])
    expected = 3 * (np.tanh(x) + x * (1 - np.tanh(x) ** 2))
    first = json.loads(run_python(script, private_cache_dir, [tmp_path]))
    assert first["transformations"] == 2  # loss, and scale as its callee
    second = json.loads(run_python(script, private_cache_dir, [tmp_path]))
    assert second["transformations"] == 0
    assert second["disk_hits"] >= 1
    np.testing.assert_allclose(first["grad"], expected)
    np.testing.assert_allclose(second["grad"], expected)


def test_an_entry_whose_callee_changed_is_stale(tmp_path, private_cache_dir):
    name = unique("stalemod")
    text = """
        import numpy as np

        def part(a):
            return {body}

        def loss(x):
            return np.sum(part(x))
    """
    write_module(tmp_path, name, text.format(body="a * a"))
    script = CALLER_SCRIPT.format(module=name, derivative=f"sg.grad({name}.loss)(x)")
    run_python(script, private_cache_dir, [tmp_path])
    write_module(tmp_path, name, text.format(body="np.sin(a) * 1.0"))
    after = json.loads(run_python(script, private_cache_dir, [tmp_path]))
    assert after["transformations"] >= 1
    np.testing.assert_allclose(after["grad"], np.cos([0.25, 1.5, -2.0]))


def test_concurrent_writers_of_one_entry_corrupt_nothing(tmp_path, private_cache_dir):
    name = unique("racemod")
    write_module(tmp_path, name, """
        import numpy as np

        def loss(x):
            return np.sum(np.exp(x) * x)
    """)
    # Each process writes the same entry again and again while reading it back: a reader
    # must only ever see a whole entry.
    script = f"""
        import numpy as np
        import sourcegrad as sg
        from sourcegrad import cache
        import {name}
        grad = sg.grad({name}.loss)
        target, names, variant = {name}.loss, ("x",), "grad"
        for _ in range(150):
            cache._keep(target, names, variant, (grad,))
            cache._RECORDS.clear()  # read back from the disk
            hits = cache.STATS.disk_hits
            loaded = cache._reuse(target, names, variant)
            assert loaded is not None and cache.STATS.disk_hits == hits + 1
            x = np.array([0.3])
            functions, _ = loaded
            assert np.allclose(functions[0](x), np.exp(x) * (1 + x))
        print("ok")
    """
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SOURCEGRAD")}
    environment["SOURCEGRAD_CACHE_DIR"] = str(private_cache_dir)
    environment["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(tmp_path)])
    runs = [subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)], env=environment,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        assert out.strip() == "ok"
    assert [p.name for p in private_cache_dir.iterdir() if p.name.startswith(".tmp")] == []


def test_a_corrupted_entry_is_ignored_and_rewritten(private_cache_dir, fresh_memory):
    def quartic(x):
        return np.sum(x ** 4)

    sg.grad(quartic)
    (entry,) = private_cache_dir.glob("*.sgc")
    data = entry.read_bytes()
    entry.write_bytes(data[: len(data) // 2] + b"garbage")
    cache.clear_memory()
    before = cache.STATS.transformations
    x = np.array([1.0, 2.0])
    np.testing.assert_allclose(sg.grad(quartic)(x), 4 * x ** 3)
    assert cache.STATS.transformations == before + 1
    cache.clear_memory()
    hits = cache.STATS.disk_hits
    np.testing.assert_allclose(sg.grad(quartic)(x), 4 * x ** 3)
    assert cache.STATS.disk_hits == hits + 1  # the rewritten entry is whole again
    assert cache.STATS.transformations == before + 1


def test_an_unwritable_directory_falls_back_to_memory_with_one_warning(tmp_path, monkeypatch,
                                                                        fresh_memory):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("SOURCEGRAD_CACHE_DIR", str(blocker / "cache"))

    def first(x):
        return np.sum(np.sin(x))

    def second(x):
        return np.sum(np.cos(x))

    x = np.array([0.5])
    with pytest.warns(cache.CacheWarning) as caught:
        np.testing.assert_allclose(sg.grad(first)(x), np.cos(x))
        np.testing.assert_allclose(sg.grad(second)(x), -np.sin(x))
    assert len(caught) == 1
    assert "memory" in str(caught[0].message)


def test_a_directory_others_can_write_is_refused(tmp_path, monkeypatch, fresh_memory):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("SOURCEGRAD_CACHE_DIR", str(shared))

    def square(x):
        return np.sum(x * x)

    with pytest.warns(cache.CacheWarning, match="other users can write"):
        np.testing.assert_allclose(sg.grad(square)(np.array([3.0])), [6.0])
    assert list(shared.iterdir()) == []


def test_the_disk_cache_can_be_turned_off(private_cache_dir, monkeypatch, fresh_memory):
    monkeypatch.setenv("SOURCEGRAD_CACHE", "0")

    def cube(x):
        return np.sum(x * x * x)

    sg.grad(cube)
    assert list(private_cache_dir.iterdir()) == []


def test_a_different_build_of_sourcegrad_does_not_load_the_entry(fresh_memory, monkeypatch):
    def sine_sum(x):
        return np.sum(np.sin(x))

    sg.grad(sine_sum)
    cache.clear_memory()
    monkeypatch.setattr(cache, "_FINGERPRINT", ["another build of the transformer"])
    before = cache.STATS.transformations
    np.testing.assert_allclose(sg.grad(sine_sum)(np.array([0.4])), np.cos([0.4]))
    assert cache.STATS.transformations == before + 1


def test_the_build_fingerprint_covers_every_module_of_the_package():
    """The specialiser, the rules' helpers and the pytree code decide what a cached
    derivative does as much as the passes: an edit to any of them must change the key."""
    package = pathlib.Path(sg.__file__).parent
    covered = {package / relative for relative in cache.implementation_files()}
    for name in ("jit.specialise", "rules.support", "pytrees", "passes.reverse", "cache"):
        module = importlib.import_module(f"sourcegrad.{name}")
        assert pathlib.Path(module.__file__) in covered
    assert covered == set(package.rglob("*.py"))


def test_clear_cache_forgets_memory_and_disk(private_cache_dir, fresh_memory):
    def tanh_sum(x):
        return np.sum(np.tanh(x))

    sg.grad(tanh_sum)
    assert list(private_cache_dir.glob("*.sgc"))
    sg.clear_cache()
    assert not list(private_cache_dir.glob("*.sgc"))
    before = cache.STATS.transformations
    np.testing.assert_allclose(sg.grad(tanh_sum)(np.array([0.2])), 1 - np.tanh([0.2]) ** 2)
    assert cache.STATS.transformations == before + 1


def make_scaled(scale):
    def scaled(x):
        return np.sum(np.sin(x) * scale)

    return scaled


def test_a_function_defined_again_is_relinked_not_transformed(fresh_memory, monkeypatch):
    monkeypatch.setenv("SOURCEGRAD_CACHE", "0")  # from the in-memory records alone
    x = np.array([0.1, 0.7])
    before = cache.STATS.transformations
    for scale in (1.0, 2.0, 3.0):  # each closure reads its own cell
        np.testing.assert_allclose(sg.grad(make_scaled(scale))(x), scale * np.cos(x))
    assert cache.STATS.transformations == before + 1


def test_the_cache_does_not_keep_functions_alive(fresh_memory):
    fun = make_scaled(4.0)
    grad = sg.grad(fun)
    np.testing.assert_allclose(grad(np.array([0.0])), [4.0])
    alive = weakref.ref(fun)
    del fun, grad
    gc.collect()
    assert alive() is None


def refused_by_the_checks(x):
    try:
        y = np.log(x)
    except ValueError:
        y = x
    return np.sum(y)


@pytest.mark.parametrize("enabled", [True, False])
def test_a_transformation_leaves_the_cyclic_collector_as_it_found_it(fresh_memory, enabled,
                                                                     monkeypatch):
    monkeypatch.setenv("SOURCEGRAD_CACHE", "0")
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        sg.grad(cubic_sum)  # made
        with pytest.raises(sg.UnsupportedSyntaxError):
            sg.grad(refused_by_the_checks)  # failed half-way
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def make_activated(activation):
    def activated(x):
        return np.sum(activation(x))

    return activated


def test_the_same_source_reaching_other_functions_is_made_again(fresh_memory):
    x = np.array([0.2, 1.1])
    np.testing.assert_allclose(sg.grad(make_activated(np.sin))(x), np.cos(x))
    np.testing.assert_allclose(sg.grad(make_activated(np.cos))(x), -np.sin(x))
    np.testing.assert_allclose(sg.grad(make_activated(np.sin))(x), np.cos(x))


ACTIVATION = np.tanh


def through_a_global(x):
    return np.sum(ACTIVATION(x))


def test_rebinding_a_global_the_function_calls_regenerates(fresh_memory, monkeypatch):
    x = np.array([0.3, -0.8])
    np.testing.assert_allclose(sg.grad(through_a_global)(x), 1 - np.tanh(x) ** 2)
    monkeypatch.setitem(globals(), "ACTIVATION", np.exp)
    np.testing.assert_allclose(sg.grad(through_a_global)(x), np.exp(x))
    cache.clear_memory()  # and from the disk: the entry made with np.tanh is not reused
    np.testing.assert_allclose(sg.grad(through_a_global)(x), np.exp(x))


def test_forward_mode_is_cached_in_memory_and_on_disk(tmp_path, private_cache_dir,
                                                     fresh_memory):
    x = np.array([0.5, -1.0])
    sg.jvp(cubic_sum, (x,), (np.ones(2),))
    before = cache.STATS.transformations
    _, tangent = sg.jvp(cubic_sum, (x,), (np.ones(2),))
    assert cache.STATS.transformations == before
    np.testing.assert_allclose(tangent, np.sum(3 * x ** 2))
    name = unique("forwardmod")
    write_module(tmp_path, name, """
        import numpy as np

        def scale(a, k=3.0):
            return np.tanh(a) * k

        def loss(x):
            y = scale(x)
            return np.sum(y * x)
    """)
    derivative = f"sg.jvp({name}.loss, (x,), (np.ones(3),))[1]; grad = np.array([grad])"
    script = CALLER_SCRIPT.format(module=name, derivative=derivative)
    runs = [json.loads(run_python(script, private_cache_dir, [tmp_path])) for _ in range(2)]
    assert runs[0]["transformations"] == 2 and runs[1]["transformations"] == 0
    t = np.tanh(np.array([0.25, 1.5, -2.0]))
    expected = np.sum(3 * (t + np.array([0.25, 1.5, -2.0]) * (1 - t ** 2)))
    np.testing.assert_allclose(runs[1]["grad"], [expected])


def test_the_default_directory_follows_xdg_then_home(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCEGRAD_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "sourcegrad"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "sourcegrad"
    assert (tmp_path / "home" / ".cache" / "sourcegrad").stat().st_mode & 0o077 == 0


# -- what the disk cache agrees to read ----------------------------------------------------------
ENTRY_SCRIPT = """
    import json, os, resource
    import numpy as np
    import sourcegrad as sg
    from sourcegrad import cache
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # reading without end: fail
    import {module}
    path = cache._entry_path(cache.cache_dir(), cache.disk_key({module}.f, ("x",), "grad"))
    {make}
    grad = sg.grad({module}.f)(np.array([0.5, 2.0])).tolist()
    print(json.dumps({{"grad": grad, "transformations": cache.STATS.transformations}}))
"""

ENTRY_KINDS = {
    "a FIFO": "os.mkfifo(path)",
    "a symbolic link to an endless device": "os.symlink('/dev/zero', path)",
    "a symbolic link to a regular file": (
        "open(str(path) + '.real', 'wb').write(b'x'); os.symlink(str(path) + '.real', path)"),
    "a file larger than any entry": "open(path, 'wb').truncate(80 << 20)",
    "a directory": "os.mkdir(path)",
}


@pytest.mark.parametrize("kind", sorted(ENTRY_KINDS))
def test_an_entry_that_is_not_a_plain_file_is_ignored(kind, tmp_path, private_cache_dir):
    name = unique("fifo")
    write_module(tmp_path, name, """
        import numpy as np

        def f(x):
            return np.sum(x ** 3)
    """)
    script = ENTRY_SCRIPT.format(module=name, make=ENTRY_KINDS[kind])
    out = json.loads(run_python(script, private_cache_dir, [tmp_path]))
    assert out["transformations"] == 1
    np.testing.assert_allclose(out["grad"], [0.75, 12.0])


def test_an_entry_another_user_owns_is_ignored(private_cache_dir, fresh_memory, monkeypatch):
    def fifth(x):
        return np.sum(x ** 5)

    x = np.array([1.0, 2.0])
    sg.grad(fifth)
    cache.clear_memory()
    monkeypatch.setattr(cache, "cache_dir", lambda: private_cache_dir)
    monkeypatch.setattr(os, "getuid", lambda: 4242, raising=False)
    before = cache.STATS.transformations
    np.testing.assert_allclose(sg.grad(fifth)(x), 5 * x ** 4)
    assert cache.STATS.transformations == before + 1


# -- linecache: the lines of generated code stay while the code does ---------------------------
def _generated_files():
    import linecache

    return {name for name in linecache.cache
            if name.startswith("<sourcegrad ") or "generated" in os.path.dirname(name)}


def _distinct_functions(count, tag):
    """``count`` functions of distinct sources, as a notebook or a program writing code
    would make them (their text registered with linecache)."""
    import linecache

    made = []
    for i in range(count):
        text = f"def f_{tag}_{i}(x):\n    return np.sum(np.sin(x) * {i + 1}.0)\n"
        filename = f"<generated {tag} {i}>"
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
        namespace = {"np": np}
        exec(compile(text, filename, "exec"), namespace)
        made.append((namespace[f"f_{tag}_{i}"], filename))
    return made


def test_linecache_does_not_grow_with_every_function_ever_differentiated(fresh_memory,
                                                                        monkeypatch):
    import linecache

    monkeypatch.setenv("SOURCEGRAD_CACHE", "0")
    monkeypatch.setattr(cache, "_RECORDS_KEPT", 8)
    kept = sg.grad(cubic_sum)  # alive: its lines stay
    gc.collect()
    before = _generated_files()
    x = np.array([0.3, 0.9])
    for i, (fn, filename) in enumerate(_distinct_functions(150, "bound")):
        np.testing.assert_allclose(sg.grad(fn)(x), (i + 1) * np.cos(x))
        del linecache.cache[filename]
    del fn
    gc.collect()
    assert len(_generated_files() - before) <= 8  # the records kept in memory, no more
    assert kept.__code__.co_filename in _generated_files()
    assert "x ** 3" in inspect.getsource(kept) or "x ** 2" in inspect.getsource(kept)


def matrix_loss(x):
    return np.sum(np.tanh(x @ WEIGHTS))


WEIGHTS = np.ones((2, 3))


def test_a_live_gradient_raising_after_many_others_shows_its_lines(fresh_memory, monkeypatch):
    import linecache
    import traceback

    monkeypatch.setenv("SOURCEGRAD_CACHE", "0")
    monkeypatch.setattr(cache, "_RECORDS_KEPT", 4)
    grad = sg.grad(matrix_loss)
    for fn, filename in _distinct_functions(40, "traceback"):
        sg.grad(fn)
        del linecache.cache[filename]
    del fn
    gc.collect()
    with pytest.raises(ValueError) as caught:
        grad(np.ones(5))  # the wrong shape for WEIGHTS: raised inside the generated code
    text = "".join(traceback.format_exception(caught.value))
    generated = [frame for frame in traceback.extract_tb(caught.value.__traceback__)
                 if os.path.basename(frame.filename).startswith("grad_matrix_loss-")]
    assert generated and all(frame.line for frame in generated)
    assert "@" in generated[-1].line and generated[-1].line in text


def test_a_function_loaded_again_after_its_lines_went_shows_them(fresh_memory):
    import linecache

    grad = sg.grad(make_scaled(2.0))
    filename = grad.__code__.co_filename
    del grad
    cache._RECORDS.clear()  # the record and the function gone: so are the lines
    gc.collect()
    assert filename not in linecache.cache
    hits = cache.STATS.disk_hits
    again = sg.grad(make_scaled(3.0))  # loaded from disk and linked: the lines are back
    assert cache.STATS.disk_hits == hits + 1
    np.testing.assert_allclose(again(np.array([0.0])), [3.0])
    assert again.__code__.co_filename == filename and "scale" in inspect.getsource(again)
