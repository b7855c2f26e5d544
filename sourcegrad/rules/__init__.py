"""The derivative rule table: one module per family of primitives, one registry.

Importing this package registers every rule. ``registry.RULES`` maps each primitive
(``np.tanh``, ``math.sin``, ...) to its ``Rule``; ``registry.NONDIFF`` lists the functions
whose results carry no derivative.
"""

from . import (  # noqa: F401  (registration)
    arithmetic,
    comparisons,
    complex,
    elementwise,
    indexing,
    linalg,
    nn,
    nondiff,
    reductions,
    scalar,
    shapes,
    support_rules,
    writes,
)
from .registry import NONDIFF, RULES, Rule, is_nondifferentiable, lookup, rule, table_version

__all__ = ["NONDIFF", "RULES", "Rule", "is_nondifferentiable", "lookup", "rule", "table_version"]
