"""The samples run as users run them (``python samples/NAME.py``) and check their own results
(Newton's method reaches the minimum; the ODE sensitivities match finite differences and the
exact solution)."""

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("sample", "expected"), [
    ("newton.py", "minimum after"),
    ("ode_sensitivity.py", "matches central finite differences"),
])
def test_sample_runs(sample, expected):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(ROOT / "samples" / sample)], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
    assert "def jvp_" in done.stdout  # each sample prints the generated code it relies on


def test_the_pytree_mlp_sample_trains_and_checks_its_gradient():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(ROOT / "samples" / "mlp_pytree.py")], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "gradient checked" in done.stdout and "trained:" in done.stdout
    assert "def value_and_grad_loss(params, points, labels):" in done.stdout


def test_the_dask_sample_trains_on_a_local_cluster():
    pytest.importorskip("dask.distributed", reason="the `dask` extra")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(ROOT / "samples" / "dask_logistic_regression.py"),
                           "--rows", "20000", "--chunk-rows", "5000", "--steps", "3",
                           "--no-progress"], env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    losses = [float(line.split()[3]) for line in done.stdout.splitlines()
              if line.startswith("step ")]
    assert len(losses) == 3 and losses[0] > losses[1] > losses[2]
    assert "trained: accuracy" in done.stdout
