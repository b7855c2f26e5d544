"""The API reference (``docs/``, Sphinx autodoc over the docstrings) builds without a single
warning, as a user building it would, and shows every public name that has an example."""

import pathlib
import re
import subprocess
import sys

import pytest

from .test_doc_examples import PUBLIC

ROOT = pathlib.Path(__file__).resolve().parent.parent

pytest.importorskip("sphinx")


@pytest.fixture(scope="module")
def html(tmp_path_factory):
    out = tmp_path_factory.mktemp("html")
    done = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-b",
                           "html", str(ROOT / "docs"), str(out)],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_the_api_reference_builds_without_warnings(html):
    page = (html / "transformations.html").read_text()
    assert "sourcegrad.grad" in page and "value_and_grad" in page


def _own_docstring(value):
    return value.fget.__doc__ if isinstance(value, property) else value.__doc__


def test_every_public_name_with_an_example_is_in_the_reference(html):
    """(A method overriding a documented one without a docstring of its own, such as
    ``Linear.forward``, is shown by the method it overrides.)"""
    anchors = set()
    for page in html.glob("*.html"):
        anchors |= set(re.findall(r'id="(sourcegrad[\w.]*)"', page.read_text()))
    documented = [name for name, value in PUBLIC.items() if ">>>" in (_own_docstring(value)
                                                                       or "")]
    assert len(documented) > 200
    missing = [name for name in documented if "sourcegrad" + name[len("sg"):] not in anchors]
    assert not missing, missing


def test_the_readme_layout_links_to_the_reference():
    layout = (ROOT / "README.md").read_text().split("## Layout", 1)[1].split("\n## ", 1)[0]
    assert "](docs/index.rst)" in layout
    assert (ROOT / "docs" / "index.rst").is_file()
