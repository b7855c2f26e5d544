"""Sphinx configuration of sourcegrad's API reference (built from the docstrings)."""

import os
import sys

sys.path.insert(0, os.path.abspath(".."))

project = "sourcegrad"
author = "the sourcegrad developers"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.doctest"]
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"undoc-members": False}
default_role = "code"  # `x` in a docstring is code, as ``x``
exclude_patterns = ["_build"]
html_theme = "alabaster"
nitpicky = False
