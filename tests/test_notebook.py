"""sourcegrad in a Jupyter notebook, run headless (nbclient, a real ipykernel): functions
defined in cells, a gradient displayed (its HTML and plain text, as the kernel sends them),
a helper redefined in a later cell and the same gradient object following it, errors named
by their cell (``Cell In[7], line 2``, not the kernel's temporary file), and later cells
working after them (CONTRACT 2a).

The kernel is the interpreter running the tests (``sys.executable``, through a kernel spec
of this test's own, so no ``jupyter`` on ``PATH`` and no installed kernel spec is needed),
and imports sourcegrad from this checkout (``PYTHONPATH``) or wherever it is installed.
"""

import json
import os
import pathlib
import re
import sys

import numpy as np
import pytest

pytest.importorskip("ipykernel", reason="the notebook test runs a real Jupyter kernel, which "
                                        "needs ipykernel (in the `test` extra)")

ROOT = pathlib.Path(__file__).resolve().parent.parent
KERNEL = "sourcegrad-test-python"

W, B = [0.5, -1.0], [2.0, 3.0]
CELLS = [
    "import numpy as np\nimport sourcegrad as sg",  # In[1]
    "def helper(w):\n    return np.tanh(w)\n\n\ndef loss(w, b):\n"  # In[2]
    "    return np.sum(helper(w) * b)",
    "g = sg.grad(loss)\ng",  # In[3]: displayed
    f"print('FIRST', g(np.array({W}), np.array({B})).tolist())",  # In[4]
    "def helper(w):\n    return w ** 3",  # In[5]: redefined
    f"print('SECOND', g(np.array({W}), np.array({B})).tolist())",  # In[6]: the same g
    "def uses_try(x):\n    try:\n        y = np.log(x)\n    except ValueError:\n"  # In[7]
    "        y = x\n    return np.sum(y)\n\n\nsg.grad(uses_try)",
    "def singular(a):\n    return np.sum(np.linalg.inv(a))\n\n\n"  # In[8]
    "sg.grad(singular)(np.zeros((2, 2)))",
    f"print('THIRD', g(np.array({W}), np.array({B})).tolist())",  # In[9]
    "sg.grad(lambda x: np.sum(x ** 2))(np.array([1.0, 2.0]))",  # In[10]
    "class Wide:\n    def energy(self, x):\n        label = '''energy\nof x'''\n"  # In[11]
    "        return np.sum(x ** 3) * len(label)\n\n\n"
    "print('WIDE', sg.grad(Wide().energy)(np.array([1.0, -2.0])).tolist())",
    # In[12]: what sourcegrad raises when a cell's text does not parse (here this cell's
    # own name, given lines that are not Python), shown as IPython shows a cell's line
    "import sys\nfrom sourcegrad.frontend import forms\n"
    "forms.parse_block(['    def f(x:\\n'], 2, sys._getframe().f_code.co_filename)",
]


def _kernel_spec(directory: pathlib.Path) -> pathlib.Path:
    """A kernel spec running ipykernel on this very interpreter."""
    spec = directory / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "sourcegrad tests", "language": "python"}))
    return directory


def _kernel_environment(tmp_path: pathlib.Path) -> dict[str, str]:
    """This process's environment, with sourcegrad importable from this checkout (as well as
    wherever it is installed), a private disk cache and IPython directory."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SOURCEGRAD")}
    paths = [str(ROOT), *filter(None, environment.get("PYTHONPATH", "").split(os.pathsep))]
    environment.update(PYTHONPATH=os.pathsep.join(paths),
                       SOURCEGRAD_CACHE_DIR=str(tmp_path / "cache"),
                       IPYTHONDIR=str(tmp_path / "ipython"))
    return environment


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The notebook of ``CELLS``, executed (one kernel for the module's tests)."""
    import nbclient
    import nbformat

    tmp_path = tmp_path_factory.mktemp("notebook")
    jupyter = _kernel_spec(tmp_path / "jupyter")
    saved = {k: os.environ.get(k) for k in ("JUPYTER_PATH", "JUPYTER_RUNTIME_DIR")}
    os.environ["JUPYTER_PATH"] = str(jupyter)  # where the kernel spec is looked for
    os.environ["JUPYTER_RUNTIME_DIR"] = str(tmp_path / "runtime")  # connection files
    try:
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
        client = nbclient.NotebookClient(
            notebook, kernel_name=KERNEL, timeout=60, startup_timeout=60, allow_errors=True,
            resources={"metadata": {"path": str(tmp_path)}})
        client.execute(env=_kernel_environment(tmp_path))
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return notebook


def _outputs(notebook, number):
    """The outputs of the cell run as ``In[number]``."""
    (cell,) = [c for c in notebook.cells if c.execution_count == number]
    return cell.outputs


def _printed(notebook, number, tag):
    text = "".join(o.get("text", "") for o in _outputs(notebook, number)
                   if o.output_type == "stream")
    line = next(line for line in text.splitlines() if line.startswith(tag + " "))
    return json.loads(line[len(tag) + 1:])


def _error(notebook, number):
    """The cell's error, and its traceback's text without colours."""
    (error,) = [o for o in _outputs(notebook, number) if o.output_type == "error"]
    return error, re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error.traceback))


def test_every_cell_ran_and_only_the_two_failing_ones_failed(executed):
    assert [c.execution_count for c in executed.cells] == list(range(1, len(CELLS) + 1))
    failed = [c.execution_count for c in executed.cells
              if any(o.output_type == "error" for o in c.outputs)]
    assert failed == [7, 8, 12]


def test_a_displayed_gradient_shows_its_name_and_highlighted_source(executed):
    (shown,) = [o for o in _outputs(executed, 3) if o.output_type == "execute_result"]
    assert shown.data["text/plain"] == "<sourcegrad grad of loss(w, b) wrt w>"
    page = shown.data["text/html"]
    assert "<b>sourcegrad</b> grad of loss(w, b) wrt w" in page
    assert '<span style="color: #4078f2; font-weight: bold">grad_loss</span>(w, b):' in page
    assert '<span style="opacity: 0.55; font-style: italic">' \
           "# return np.sum(helper(w) * b)</span>" in page


def test_the_same_gradient_follows_a_helper_redefined_in_a_later_cell(executed):
    w, b = np.array(W), np.array(B)
    np.testing.assert_allclose(_printed(executed, 4, "FIRST"), (1 - np.tanh(w) ** 2) * b)
    np.testing.assert_allclose(_printed(executed, 6, "SECOND"), 3 * w ** 2 * b)
    np.testing.assert_allclose(_printed(executed, 9, "THIRD"), 3 * w ** 2 * b)


def test_errors_name_the_cell_as_ipython_does(executed):
    error, text = _error(executed, 7)
    assert error.ename == "UnsupportedSyntaxError"
    assert "`try` is not supported" in text and "Cell In[7], line 2" in text
    error, text = _error(executed, 8)
    assert error.ename == "LinAlgError"
    # the generated line in the traceback, and the note naming the user's cell and line
    assert "grad_singular" in text and "from Cell In[8], line 2" in text
    error, text = _error(executed, 12)
    assert error.ename == "SyntaxError" and "Cell In[12], line 3" in text
    for _, text in (_error(executed, 7), _error(executed, 8), _error(executed, 12)):
        assert "ipykernel_" not in text  # the kernel's temporary file names nothing


def test_cells_after_the_errors_work(executed):
    (result,) = [o for o in _outputs(executed, 10) if o.output_type == "execute_result"]
    assert result.data["text/plain"] == "array([2., 4.])"
    x = np.array([1.0, -2.0])
    np.testing.assert_allclose(_printed(executed, 11, "WIDE"), 11 * 3 * x ** 2)
