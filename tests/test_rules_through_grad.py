"""Every rule of the table, inlined by the transformer into generated code, gives the same
gradient as finite differences: the spec table's calls, written as user functions."""

import importlib.util
import itertools

import numpy as np
import pytest

import sourcegrad as sg

from .fd import assert_close, numerical_grad
from .rule_specs import SPECS, Arr, Flt

_counter = itertools.count()


def _user_function(tmp_path, spec, case, seed):
    """``def f(p0, p1, ...)`` calling the primitive once, written to a module file."""
    rng = np.random.default_rng(seed)
    params, values, consts = [], [], {}

    def arg(template):
        """(source text, concrete value) of one argument of the call."""
        if isinstance(template, (Arr, Flt)):
            value = template.make(rng)
            params.append(f"p{len(params)}")
            values.append(value)
            return params[-1], value
        if isinstance(template, list) and any(isinstance(t, (Arr, Flt)) for t in template):
            items = [arg(t) for t in template]
            return "[" + ", ".join(t for t, _ in items) + "]", [v for _, v in items]
        consts[f"C{len(consts)}"] = template
        return f"C{len(consts) - 1}", template

    positional = [arg(a) for a in case.args]
    keywords = {k: arg(v) for k, v in case.kwargs.items()}
    texts = [t for t, _ in positional] + [f"{k}={t}" for k, (t, _) in keywords.items()]
    out = spec.primitive(*[v for _, v in positional], **{k: v for k, (_, v) in keywords.items()})
    outputs = list(out) if isinstance(out, (tuple, list)) else [out]
    weights = {f"W{i}": _weights(rng, o) for i, o in enumerate(outputs)}
    names = [f"o{i}" for i in range(len(outputs))]
    unpack = ", ".join(names) + ("," if len(names) == 1 and isinstance(out, (tuple, list))
                                 else "")
    # a complex output weighs its real and imaginary parts (complex weights, real part)
    total = " + ".join(f"np.real(np.sum({n} * W{i}))" if np.iscomplexobj(o) else
                       f"np.sum({n} * W{i})"
                       for i, (n, o) in enumerate(zip(names, outputs, strict=True)))
    source = (f"import numpy as np\n\n\ndef f({', '.join(params)}):\n"
              f"    {unpack} = PRIM({', '.join(texts)})\n    return {total}\n")
    path = tmp_path / f"through_{next(_counter)}.py"
    path.write_text(source)
    module_spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    module.PRIM = spec.primitive
    for key, value in {**consts, **weights}.items():
        setattr(module, key, value)
    return module.f, values, source


def _weights(rng, output):
    if np.ndim(output) == 0:
        return float(rng.standard_normal())
    weights = rng.standard_normal(np.shape(output))
    return weights + 1j * rng.standard_normal(np.shape(output)) if np.iscomplexobj(
        output) else weights


def _has_float_argument(case):
    """A real float argument: the gradient is checked against real finite differences
    (complex arguments are checked by ``test_rules``, which perturbs both parts)."""
    leaves = [*case.args, *case.kwargs.values()]
    leaves = [x for leaf in leaves for x in (leaf if isinstance(leaf, list) else [leaf])]
    return any(isinstance(x, Flt) or isinstance(x, Arr) and x.domain not in ("mask", "complex")
               for x in leaves)


def _cases():
    for spec in SPECS:
        cases = [c for c in spec.cases if _has_float_argument(c)]
        for i, case in enumerate(cases[:2]):
            yield pytest.param(spec, case, id=f"{spec.name}-{i}")


@pytest.mark.parametrize(("spec", "case"), list(_cases()))
def test_rule_inlined_in_generated_code(tmp_path, spec, case):
    f, values, source = _user_function(tmp_path, spec, case, seed=7)
    wrt = tuple(i for i, v in enumerate(values)
                if isinstance(v, float) or np.asarray(v).dtype.kind == "f")
    assert wrt, "the spec case has a float argument"
    grads = sg.grad(f, wrt=wrt)(*values)
    for argnum, g in zip(wrt, grads, strict=True):
        expected = numerical_grad(f, tuple(values), argnum)
        if spec.symmetric:
            expected = (expected + np.swapaxes(expected, -1, -2)) / 2
            g = (g + np.swapaxes(g, -1, -2)) / 2
        assert_close(g, expected, rtol=1e-4, atol=1e-6), source
