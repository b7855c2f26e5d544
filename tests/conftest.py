"""Every test runs with a private, empty disk cache: the suite never touches the user's.

Modules that differentiate at import time run before any fixture, so the whole session
also gets a private directory of its own.
"""

import atexit
import os
import shutil
import tempfile

import pytest

_SESSION_CACHE = tempfile.mkdtemp(prefix="sourcegrad-test-cache-")
atexit.register(shutil.rmtree, _SESSION_CACHE, ignore_errors=True)
os.environ["SOURCEGRAD_CACHE_DIR"] = _SESSION_CACHE


@pytest.fixture(autouse=True)
def private_cache_dir(tmp_path_factory, monkeypatch):
    directory = tmp_path_factory.mktemp("sourcegrad-cache")
    monkeypatch.setenv("SOURCEGRAD_CACHE_DIR", str(directory))
    monkeypatch.delenv("SOURCEGRAD_CACHE", raising=False)
    return directory


@pytest.fixture
def restore_the_rule_table():
    """For tests that register rules: none may leak into the table's other tests."""
    from sourcegrad import pipeline
    from sourcegrad.rules import registry

    rules, nondiff, helpers = dict(registry.RULES), dict(registry.NONDIFF), dict(pipeline.HELPERS)
    yield
    for table, saved in ((registry.RULES, rules), (registry.NONDIFF, nondiff),
                         (pipeline.HELPERS, helpers)):
        table.clear()
        table.update(saved)
