"""``sg.nn.Module``: the container PyTorch models are written in.

A module finds its parameters, buffers and submodules from the attributes it is given
(``self.fc = sg.nn.Linear(3, 2)``), in the order they were assigned, and names them by
attribute path (``fc.weight``) as PyTorch does, so ``parameters()``, ``state_dict()`` and
optimizers see the same things in the same order. Messages are PyTorch's, with ``sg`` for
``torch``.
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..runtime.grad_mode import no_grad
from ..runtime.tensor import Tensor
from .parameter import Parameter

IncompatibleKeys = namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])
IncompatibleKeys.__name__ = IncompatibleKeys.__qualname__ = "_IncompatibleKeys"


def _typename(value: Any) -> str:
    return type(value).__name__


class Module:
    """Base class of every layer and model: subclasses set attributes in ``__init__`` (after
    ``super().__init__()``) and define ``forward``.

    >>> class Affine(sg.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.scale = sg.nn.Parameter(sg.tensor([2.0]))
    ...         self.shift = sg.nn.Linear(1, 1)
    ...     def forward(self, x):
    ...         return self.shift(self.scale * x)
        >>> model = Affine()
        >>> [name for name, _ in model.named_parameters()]
        ['scale', 'shift.weight', 'shift.bias']
        >>> model
        Affine(
          (shift): Linear(in_features=1, out_features=1, bias=True)
        )
    """

    training: bool

    def __init__(self) -> None:
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """What calling the module computes: every subclass defines it.

        >>> class Double(sg.nn.Module):
        ...     def forward(self, x):
        ...         return 2 * x
        >>> Double()(sg.tensor([1.0, 3.0]))
        tensor([2., 6.])
        """
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    # -- attributes ---------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep="_parameters")
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(sg.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep="_modules")
            self._modules[name] = value
        elif name in self.__dict__.get("_modules", {}):
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' "
                                "(sg.nn.Module or None expected)")
            self._modules[name] = None
        elif name in self.__dict__.get("_buffers", {}):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                "(sg.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name: str, keep: str | None = None) -> None:
        """``name`` is about to become a parameter, buffer or submodule (in the registry
        ``keep``): it is nothing else. Its entry in ``keep`` stays where it is, so that
        replacing a parameter keeps its place in ``parameters()`` and ``state_dict()``, as
        in PyTorch (an optimizer's state and a checkpoint follow that order)."""
        self.__dict__.pop(name, None)
        for kind in ("_parameters", "_buffers", "_modules"):
            if kind != keep:
                self.__dict__[kind].pop(name, None)

    def __getattr__(self, name: str) -> Any:
        # only called when ordinary lookup fails: the registered parameters, buffers, modules
        for kind in ("_parameters", "_buffers", "_modules"):
            found = self.__dict__.get(kind)
            if found is not None and name in found:
                return found[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for kind in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__[kind]:
                del self.__dict__[kind][name]
                return
        object.__delattr__(self, name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add ``param`` as a parameter named ``name`` (what assigning a
        ``Parameter`` attribute does).

        >>> module = sg.nn.Module()
        >>> module.register_parameter("w", sg.nn.Parameter(sg.zeros(2)))
        >>> [name for name, _ in module.named_parameters()]
        ['w']
        """
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter "
                            f"'{name}' (sg.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None) -> None:
        """Add ``tensor`` as a buffer named ``name``: state that is saved in
        ``state_dict`` but is not a parameter.

        >>> module = sg.nn.Module()
        >>> module.register_buffer("running_mean", sg.zeros(2))
        >>> list(module.state_dict()), list(module.parameters())
        (['running_mean'], [])
        """
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(sg.Tensor or None required)")
        self._forget(name, keep="_buffers")
        self._buffers[name] = tensor

    def add_module(self, name: str, module: Module | None) -> None:
        """Add ``module`` as a submodule named ``name`` (what assigning a ``Module``
        attribute does).

        >>> model = sg.nn.Module()
        >>> model.add_module("fc", sg.nn.Linear(2, 1))
        >>> [name for name, _ in model.named_parameters()]
        ['fc.weight', 'fc.bias']
        """
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        self._forget(name, keep="_modules")
        self._modules[name] = module

    # -- walking the tree ---------------------------------------------------------------
    def named_modules(self, prefix: str = "") -> Iterator[tuple[str, Module]]:
        """Every module of the tree once, depth first, this one first (named ``prefix``).

        >>> model = sg.nn.Sequential(sg.nn.Linear(2, 2), sg.nn.ReLU())
        >>> [(name, type(module).__name__) for name, module in model.named_modules()]
        [('', 'Sequential'), ('0', 'Linear'), ('1', 'ReLU')]
        """
        seen: set[int] = set()

        def walk(module: Module, path: str) -> Iterator[tuple[str, Module]]:
            if id(module) in seen:
                return
            seen.add(id(module))
            yield path, module
            for name, child in module._modules.items():
                if child is not None:
                    yield from walk(child, f"{path}.{name}" if path else name)

        return walk(self, prefix)

    def _every_path(self, path: str) -> Iterator[tuple[str, Module]]:
        """``named_modules`` without leaving out a module seen under another name: a
        module shared by two attributes is saved under both in ``state_dict``, as in
        PyTorch, so that checkpoints have PyTorch's keys."""
        yield path, self
        for name, child in self._modules.items():
            if child is not None:
                yield from child._every_path(f"{path}.{name}" if path else name)

    def modules(self) -> Iterator[Module]:
        """Every module of the tree once, this one first (``named_modules`` without
        the names).

        >>> model = sg.nn.Sequential(sg.nn.Linear(2, 2), sg.nn.ReLU())
        >>> [type(module).__name__ for module in model.modules()]
        ['Sequential', 'Linear', 'ReLU']
        """
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """The direct submodules, by attribute name.

        >>> model = sg.nn.Sequential(sg.nn.Linear(2, 2), sg.nn.ReLU())
        >>> [name for name, _ in model.named_children()]
        ['0', '1']
        """
        seen: set[int] = set()
        for name, child in self._modules.items():
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                yield name, child

    def children(self) -> Iterator[Module]:
        """The direct submodules.

        >>> model = sg.nn.Sequential(sg.nn.Linear(2, 2), sg.nn.ReLU())
        >>> [type(child).__name__ for child in model.children()]
        ['Linear', 'ReLU']
        """
        for _, child in self.named_children():
            yield child

    def _named_members(self, kind: str, prefix: str, recurse: bool
                       ) -> Iterator[tuple[str, Tensor]]:
        """Parameters or buffers of the tree, each once (a shared one under its first name)."""
        seen: set[int] = set()
        owners = self.named_modules(prefix) if recurse else iter([(prefix, self)])
        for path, module in owners:
            for name, value in getattr(module, kind).items():
                if value is None or id(value) in seen:
                    continue
                seen.add(id(value))
                yield (f"{path}.{name}" if path else name), value

    def named_parameters(self, prefix: str = "", recurse: bool = True
                         ) -> Iterator[tuple[str, Parameter]]:
        """Every parameter of the tree once, named by attribute path.

        >>> model = sg.nn.Sequential(sg.nn.Linear(2, 3), sg.nn.ReLU(), sg.nn.Linear(3, 1))
        >>> [(name, tuple(p.shape)) for name, p in model.named_parameters()]
        [('0.weight', (3, 2)), ('0.bias', (3,)), ('2.weight', (1, 3)), ('2.bias', (1,))]
        """
        return self._named_members("_parameters", prefix, recurse)  # type: ignore[return-value]

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """Every parameter of the tree once, in the order they were assigned:
        what an optimizer is given.

        >>> model = sg.nn.Sequential(sg.nn.Linear(2, 3), sg.nn.ReLU(), sg.nn.Linear(3, 1))
        >>> sum(p.numel() for p in model.parameters())  # 3*2 + 3 + 1*3 + 1
        13
        """
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True
                      ) -> Iterator[tuple[str, Tensor]]:
        """Every buffer of the tree once, named by attribute path.

        >>> model = sg.nn.Sequential(sg.nn.Module())
        >>> model[0].register_buffer("count", sg.tensor([0]))
        >>> [name for name, _ in model.named_buffers()]
        ['0.count']
        """
        return self._named_members("_buffers", prefix, recurse)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """Every buffer of the tree once.

        >>> module = sg.nn.Module()
        >>> module.register_buffer("count", sg.tensor([3]))
        >>> list(module.buffers())
        [tensor([3])]
        """
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        """Call ``fn`` on every submodule, then on this module; returns this module.

        >>> def zero_biases(module):
        ...     if isinstance(module, sg.nn.Linear):
        ...         _ = sg.nn.init.zeros_(module.bias)
        >>> model = sg.nn.Sequential(sg.nn.Linear(2, 2), sg.nn.Linear(2, 1)).apply(zero_biases)
        >>> model[0].bias.tolist(), model[1].bias.tolist()
        ([0.0, 0.0], [0.0])
        """
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    # -- modes and gradients ------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Set training mode (``mode``) on every module of the tree; returns this
        module.

        >>> model = sg.nn.Sequential(sg.nn.Linear(2, 2), sg.nn.ReLU())
        >>> model.train(False)[1].training
        False
        >>> model.train()[1].training
        True
        """
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self) -> Module:
        """``train(False)``: evaluation mode for every module of the tree.

        >>> model = sg.nn.Sequential(sg.nn.Linear(2, 2), sg.nn.ReLU())
        >>> model.eval().training, model[0].training
        (False, False)
        """
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Set ``requires_grad`` on every parameter (to freeze or unfreeze them).

        >>> layer = sg.nn.Linear(2, 1).requires_grad_(False)
        >>> [p.requires_grad for p in layer.parameters()]
        [False, False]
        """
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the parameters' gradients: ``None`` (``set_to_none``) or zeros.

        >>> layer = sg.nn.Linear(2, 1)
        >>> layer(sg.ones(1, 2)).sum().backward()
        >>> layer.bias.grad
        tensor([1.])
        >>> layer.zero_grad(set_to_none=False)
        >>> layer.bias.grad
        tensor([0.])
        >>> layer.zero_grad()
        >>> layer.bias.grad is None
        True
        """
        for param in self.parameters():
            if param.grad is None:
                continue
            if set_to_none:
                param.grad = None
            else:
                param.grad.detach_()
                param.grad.zero_()

    # -- state ----------------------------------------------------------------------------
    def state_dict(self, destination: dict | None = None, prefix: str = "",
                   keep_vars: bool = False) -> OrderedDict[str, Tensor]:
        """Parameters and buffers by name; detached tensors sharing their arrays (unless
        ``keep_vars``), as PyTorch gives them.

        >>> layer = sg.nn.Linear(2, 1)
        >>> state = layer.state_dict()
        >>> list(state), state["weight"].shape
        (['weight', 'bias'], sg.Size([1, 2]))
        """
        state = OrderedDict() if destination is None else destination
        for path, module in self._every_path(prefix.rstrip(".")):
            for kind in ("_parameters", "_buffers"):
                for name, value in getattr(module, kind).items():
                    if value is not None:
                        key = f"{path}.{name}" if path else name
                        state[key] = value if keep_vars else value.detach()
        return state

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True
                        ) -> IncompatibleKeys:
        """Copy values into the parameters and buffers in place; with ``strict``, missing
        or unexpected keys are an error, as a size mismatch always is.

        >>> layer = sg.nn.Linear(2, 1)
        >>> state = {"weight": sg.tensor([[1.0, 2.0]]), "bias": sg.tensor([0.5])}
        >>> layer.load_state_dict(state).missing_keys
        []
        >>> layer(sg.tensor([[1.0, 1.0]]))
        tensor([[3.5000]], grad_fn=<AddmmBackward0>)
        """
        own = self.state_dict(keep_vars=True)
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        errors = []
        if strict:
            if unexpected:
                errors.append("Unexpected key(s) in state_dict: "
                              + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                errors.append("Missing key(s) in state_dict: "
                              + ", ".join(f'"{k}"' for k in missing) + ". ")
        for key, target in own.items():
            if key not in state_dict:
                continue
            source = state_dict[key]
            array = source.data if isinstance(source, Tensor) else np.asarray(source)
            if array.shape != target.data.shape:
                errors.append(f"size mismatch for {key}: copying a param with shape "
                              f"{_size(array.shape)} from checkpoint, the shape in current "
                              f"model is {_size(target.data.shape)}.")
                continue
            with no_grad():
                target.data[...] = array
            target._mark_modified()
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                               + "\n\t".join(errors))
        return IncompatibleKeys(missing, unexpected)

    # -- printing -------------------------------------------------------------------------
    def extra_repr(self) -> str:
        """What the module prints between its parentheses (override it to show
        constructor arguments).

        >>> sg.nn.Linear(2, 1).extra_repr()
        'in_features=2, out_features=1, bias=True'
        """
        return ""

    def __repr__(self) -> str:
        lines = [f"({name}): " + _indent(repr(child))
                 for name, child in self._modules.items()]
        extra = self.extra_repr()
        if not lines:
            return f"{type(self).__name__}({extra})"
        body = ([extra] if extra else []) + lines
        return f"{type(self).__name__}(\n  " + "\n  ".join(body) + "\n)"


def _indent(text: str) -> str:
    return text.replace("\n", "\n  ")


def _size(shape: tuple[int, ...]) -> str:
    return f"sg.Size({list(shape)})"
