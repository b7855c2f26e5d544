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
    ``super().__init__()``) and define ``forward``."""

    training: bool

    def __init__(self) -> None:
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())

    def forward(self, *args: Any, **kwargs: Any) -> Any:
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
            self._forget(name)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(sg.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name)
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

    def _forget(self, name: str) -> None:
        """``name`` is about to become a parameter or a submodule: it is nothing else."""
        self.__dict__.pop(name, None)
        for kind in ("_parameters", "_buffers", "_modules"):
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
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter "
                            f"'{name}' (sg.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None) -> None:
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(sg.Tensor or None required)")
        self._forget(name)
        self._buffers[name] = tensor

    def add_module(self, name: str, module: Module | None) -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        self._forget(name)
        self._modules[name] = module

    # -- walking the tree ---------------------------------------------------------------
    def named_modules(self, prefix: str = "") -> Iterator[tuple[str, Module]]:
        """Every module of the tree once, depth first, this one first (named ``prefix``)."""
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

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        seen: set[int] = set()
        for name, child in self._modules.items():
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                yield name, child

    def children(self) -> Iterator[Module]:
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
        return self._named_members("_parameters", prefix, recurse)  # type: ignore[return-value]

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True
                      ) -> Iterator[tuple[str, Tensor]]:
        return self._named_members("_buffers", prefix, recurse)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    # -- modes and gradients ------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
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
        ``keep_vars``), as PyTorch gives them."""
        state = OrderedDict() if destination is None else destination
        for path, module in self.named_modules(prefix.rstrip(".")):
            for kind in ("_parameters", "_buffers"):
                for name, value in getattr(module, kind).items():
                    if value is not None:
                        key = f"{path}.{name}" if path else name
                        state[key] = value if keep_vars else value.detach()
        return state

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True
                        ) -> IncompatibleKeys:
        """Copy values into the parameters and buffers in place; with ``strict``, missing
        or unexpected keys are an error, as a size mismatch always is."""
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
