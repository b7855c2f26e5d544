"""``sg.grad_hook(x, hook)``: user code in the backward pass, at a point of the user's choice.

Forward, ``grad_hook(x, hook)`` is ``x``. Backward, the cotangent that reaches the hooked value
is replaced by ``hook(cotangent)`` before it flows on to ``x`` - gradient clipping inside an
RNN loop is ``h = sg.grad_hook(h, clip)``.

Why a function call rather than a ``with`` block or a decorator: after normalization every
call is one statement of the user's code, at one place, and its VJP lands at exactly the
mirrored place of the backward sweep (inside the reversed loop, once per iteration). So the
hook is simply a primitive whose rule calls it; the generated code shows it, inlined, as
``grad_h = clip(grad_h_hooked)``; it composes with loops, branches and higher-order
derivatives like any rule; and the runtime layer calls the same rule. Tangents (forward mode)
pass through unchanged: the hook belongs to the backward pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .rules.registry import rule


def grad_hook(x: Any, hook: Callable[[Any], Any]) -> Any:
    """Return ``x``; in reverse mode, the cotangent of ``x`` becomes ``hook(cotangent)``.

    ``d/dx x**2 = 6`` at 3, scaled by the hook:

    >>> def times_ten(g):
    ...     return 10.0 * g
    >>> def f(x):
    ...     return sg.grad_hook(x, times_ten) ** 2
    >>> sg.grad(f)(3.0)
    60.0
    """
    return x


@rule(grad_hook)
class grad_hook_rule:
    nondiff = ("hook",)

    def vjp_x(g, ans, x, hook):
        return hook(g)

    def jvp_x(t, ans, x, hook):
        return t
