"""The API reference (``docs/``, Sphinx autodoc over the docstrings) builds without a single
warning, as a user building it would."""

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

pytest.importorskip("sphinx")


def test_the_api_reference_builds_without_warnings(tmp_path):
    done = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-b",
                           "html", str(ROOT / "docs"), str(tmp_path / "html")],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    page = (tmp_path / "html" / "transformations.html").read_text()
    assert "sourcegrad.grad" in page and "value_and_grad" in page
