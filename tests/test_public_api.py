"""What ``import sourcegrad`` offers: the contract's names, nothing of the implementation,
and every environment variable the code reads documented in the README."""

import pathlib
import re

import sourcegrad as sg

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_dir_shows_the_public_api_only():
    names = dir(sg)
    for internal in ("api", "pipeline", "cache", "passes", "codegen", "frontend", "rules",
                     "runtime", "compile", "higher", "user_rules", "emit"):
        assert internal not in names
    for public in ("grad", "value_and_grad", "vjp", "jvp", "jacobian", "hessian", "source",
                   "stop_gradient", "differentiable", "Tensor", "nn", "optim", "autograd",
                   "testing", "SourcegradError", "NoDerivativeError", "UnsupportedSyntaxError"):
        assert public in names
    assert names == sorted(sg.__all__)
    assert all(hasattr(sg, name) for name in names)


def test_testing_is_reachable_as_sg_testing():
    assert callable(sg.testing.check_grads)


def test_the_package_says_it_is_typed():
    assert (ROOT / "sourcegrad" / "py.typed").is_file()


def test_every_environment_variable_read_is_in_the_readme_table():
    read = set()
    for path in (ROOT / "sourcegrad").rglob("*.py"):
        read |= set(re.findall(r"SOURCEGRAD_[A-Z_]+", path.read_text()))
    table = (ROOT / "README.md").read_text().split("### Environment variables", 1)[1]
    table = table.split("\n## ", 1)[0]
    documented = set(re.findall(r"`(SOURCEGRAD_[A-Z_]+)`", table))
    assert read <= documented, sorted(read - documented)
