"""``sg.nn``: neural-network functions (``sg.nn.functional``) over the primitives of
``sg.nn.ops``."""

from . import ops  # noqa: I001  (ops first: the rule table imports it)
from . import functional

__all__ = ["functional", "ops"]
