"""``sourcegrad show`` and ``sourcegrad emit``: generated derivatives from the command line
(also ``python -m sourcegrad``)::

    sourcegrad show FILE.py:FUNC [--wrt NAME[,NAME...]] [--mode reverse|forward]
                    [--shapes NAME=D1,D2 ...]
    sourcegrad emit FILE.py:FUNC [--wrt ...] [--mode ...] [-o OUT.py] [--jit]
                    [--check --shapes NAME=D1,D2 ...]

Exit status: 0 on success; 2 for a usage error (bad arguments, a missing file, function or
parameter, an ``-o`` file holding the user's code); 1 when the function cannot be
differentiated (or imported, or emitted), with the error's message on stderr. What the
user's code prints goes to stderr, never into the source written to stdout.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from . import __version__, api, cache, emit, highlight, testing
from .errors import SourcegradError

CHECK_TOLERANCE = 1e-4


class CliError(Exception):
    """A problem to report in one line, with the exit status it deserves."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.command(args)
    except CliError as error:
        print(f"sourcegrad: {error}", file=sys.stderr)
        return error.status
    except (SourcegradError, emit.EmitError) as error:
        print(f"sourcegrad: {error}", file=sys.stderr)
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sourcegrad", description="Show or emit the derivative code sourcegrad generates.")
    parser.add_argument("--version", action="version", version=f"sourcegrad {__version__}")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")
    show = commands.add_parser("show", help="print the generated derivative source")
    emit_command = commands.add_parser(
        "emit", help="write a standalone module (NumPy and the standard library only)")
    for sub in (show, emit_command):
        sub.add_argument("target", metavar="FILE.py:FUNC", help="the function to differentiate")
        sub.add_argument("--wrt", metavar="NAME[,NAME...]",
                         help="parameters to differentiate, by name or position (0 is the "
                              "first, -1 the last), as the API's wrt= (default: the first); "
                              "several give a tuple of gradients")
        sub.add_argument("--mode", choices=("reverse", "forward"), default="reverse",
                         help="reverse (default): the gradient, grad_FUNC with FUNC's "
                              "signature; forward: the Jacobian-vector product, "
                              "jvp_FUNC(primals..., tangents...) returning (value, tangent)")
    show.add_argument("--shapes", nargs="+", default=[], metavar="NAME=D1,D2",
                      help="show the derivative specialised to float64 arguments of these "
                           "shapes (NAME= for a float), as its first call with them makes it")
    show.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                      help="highlight the code (auto: when writing to a terminal)")
    show.set_defaults(command=_show)
    emit_command.add_argument("-o", "--output", metavar="OUT.py",
                              help="where to write the module (default: standard output, "
                                   "unless --check is given: then only the check's result)")
    emit_command.add_argument("--check", action="store_true",
                              help="run the emitted derivative once against central finite "
                                   "differences at random inputs")
    emit_command.add_argument("--shapes", nargs="+", default=[], metavar="NAME=D1,D2",
                              help="input shapes for --check (NAME= for a float)")
    emit_command.add_argument("--jit", action="store_true",
                              help="compile the functions with @numba.njit (the module then "
                                   "imports NumPy, Numba and the standard library only; "
                                   "pip install 'sourcegrad[jit]')")
    emit_command.set_defaults(command=_emit)
    return parser


# -- the commands ---------------------------------------------------------------------------
def _show(args: argparse.Namespace) -> int:
    shapes = parse_shapes(args.shapes)
    if shapes and args.mode != "reverse":
        raise CliError("--shapes shows the reverse-mode derivative specialised; leave out "
                       "--mode forward")
    with user_output_to_stderr():
        fun = load_function(args.target)
        compiled = derivative(fun, parse_wrt(fun, args.wrt), args.mode)
        if shapes:
            values = _random_arguments(fun, shapes, np.random.default_rng(0))
            params = list(inspect.signature(fun).parameters.values())
            text = _call(compiled.specialised_source, params, values)
        else:
            text = "\n\n".join(f.source for f in emit.generated_functions(compiled))
    colour = args.color == "always" or (
        args.color == "auto" and sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    sys.stdout.write(highlight.highlight(text) if colour else text)
    return 0


def _emit(args: argparse.Namespace) -> int:
    shapes = parse_shapes(args.shapes) if args.check else {}
    with user_output_to_stderr():
        fun = load_function(args.target)
        wrt = parse_wrt(fun, args.wrt)
        compiled = derivative(fun, wrt, args.mode)
    path = args.target.rpartition(":")[0]
    header = emit.Header(path, fun.__name__, as_names(wrt), args.mode,
                         _source_hash(compiled, fun), __version__, jit=args.jit)
    try:
        text = emit.module_text(compiled, header)
    except ImportError as error:  # --jit without Numba
        raise CliError(f"emit --jit needs Numba ({error}); pip install 'sourcegrad[jit]'",
                       2) from error
    if args.output:
        refuse_overwriting_sources(args.output, fun, compiled)
        try:
            Path(args.output).write_text(text, encoding="utf-8", newline="\n")
        except OSError as error:
            raise CliError(f"cannot write {args.output}: {error.strerror}", 1) from error
    elif not args.check:  # a check alone reports its result, not the module
        sys.stdout.write(text)
    if args.check:
        return _report_check(text, compiled.__name__, fun, header, shapes)
    return 0


# -- reading the command line ---------------------------------------------------------------
def load_function(target: str) -> Any:
    """The function ``FUNC`` of ``FILE.py:FUNC``, its module imported from the file."""
    path_text, colon, name = target.rpartition(":")
    if not colon or not path_text or not name:
        raise CliError(f"expected FILE.py:FUNC, got {target!r}")
    path = Path(path_text)
    if not path.is_file():
        raise CliError(f"no such file: {path_text}")
    module = _import_file(path)
    fun: Any = module
    for part in name.split("."):
        fun = getattr(fun, part, None)
    if not inspect.isfunction(fun):
        raise CliError(f"{path_text} has no function named {name!r}")
    return fun


def _import_file(path: Path) -> Any:
    """Import ``path`` as a module named after it, with its directory on ``sys.path`` (so
    that it can import its neighbours)."""
    directory = str(path.resolve().parent)
    if directory not in sys.path:
        sys.path.insert(0, directory)
    name = path.stem if path.stem not in sys.modules else f"_sourcegrad_target_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise CliError(f"cannot import {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise CliError(f"cannot import {path}: {type(error).__name__}: {error}", 1) from error
    return module


def parse_wrt(fun: Any, text: str | None) -> str | tuple[str, ...]:
    """``--wrt``: one name (one gradient) or several (a tuple); the first parameter if not
    given."""
    params = list(inspect.signature(fun).parameters)
    if not text:
        if not params:
            raise CliError(f"{fun.__name__} has no parameter to differentiate")
        return params[0]
    names = tuple(_parameter(fun, params, item.strip()) for item in text.split(","))
    return names[0] if len(names) == 1 else names


def _parameter(fun: Any, params: list[str], item: str) -> str:
    """A parameter given by name, or by position as ``wrt=1`` gives it."""
    if item.lstrip("-").isdigit():
        position = int(item)
        if not -len(params) <= position < len(params):
            raise CliError(f"--wrt {position} is out of range for {fun.__name__}"
                           f"({', '.join(params)})")
        return params[position]
    if item not in params:
        raise CliError(f"{fun.__name__} has no parameter named {item!r}; its parameters "
                       f"are {', '.join(params)}")
    return item


def as_names(wrt: str | tuple[str, ...]) -> tuple[str, ...]:
    return (wrt,) if isinstance(wrt, str) else wrt


def parse_shapes(items: Sequence[str]) -> dict[str, tuple[int, ...] | None]:
    """``w=3,4`` -> ``{"w": (3, 4)}``; ``s=`` -> ``{"s": None}`` (a Python float)."""
    shapes: dict[str, tuple[int, ...] | None] = {}
    for item in items:
        name, equals, dims = item.partition("=")
        try:
            shape = tuple(int(d) for d in dims.split(",") if d.strip()) if equals else ()
        except ValueError:
            shape = ()
            equals = ""
        if not equals or not name.isidentifier() or any(d < 0 for d in shape):
            raise CliError(f"--shapes takes NAME=D1,D2,... (e.g. w=3,4, or s= for a float); "
                           f"got {item!r}")
        shapes[name] = shape or None
    return shapes


# -- generating -----------------------------------------------------------------------------
def derivative(fun: Any, wrt: str | tuple[str, ...], mode: str) -> Any:
    """The compiled generated function (with ``.source`` and ``.dependencies``)."""
    if mode == "reverse":
        return api.grad(fun, wrt=wrt, check=False)  # emit --check is its own check
    try:
        from .forward_mode import jvp_function  # type: ignore[import-not-found]
    except ImportError:
        raise CliError("forward mode is not implemented yet") from None
    return jvp_function(fun, as_names(wrt))


def _differentiated(compiled: Any, fun: Any) -> list[Any]:
    """The function and the callees its derivative differentiates."""
    functions = [fun]
    for generated in emit.generated_functions(compiled):
        tag = getattr(generated, "_sourcegrad_entry", None)
        if tag is not None and not any(tag[0].fun is f for f in functions):
            functions.append(tag[0].fun)
    return functions


def _source_hash(compiled: Any, fun: Any) -> str:
    """A hash of the source text of the function and of the callees it differentiates."""
    return emit.source_hash(cache.source_text(f) or inspect.getsource(f)
                            for f in _differentiated(compiled, fun))


# -- never writing over the user's code -----------------------------------------------------
def refuse_overwriting_sources(output: str, fun: Any, compiled: Any) -> None:
    """Refuse (status 2) an ``-o`` file that is, by any spelling, link or hard link, the file
    of the function or of a callee its derivative differentiates, or the source of any
    module this run imported (except a module sourcegrad emitted, which may be made again)."""
    try:
        target = os.stat(output)  # follows symbolic links
    except OSError:
        return  # nothing there yet: writing overwrites nothing
    for function in _differentiated(compiled, fun):
        if _same_file(function.__code__.co_filename, target):
            role = "the function" if function is fun else "its callee"
            raise CliError(f"refusing to write over {output}: it is the source of {role} "
                           f"`{function.__qualname__}`. Choose another -o file.")
    for name, module in list(sys.modules.items()):
        source = getattr(module, "__file__", None)
        if source and _same_file(source, target) and not _is_emitted(source):
            raise CliError(f"refusing to write over {output}: it is the source of the module "
                           f"`{name}`, imported while loading {fun.__qualname__}. Choose "
                           "another -o file.")


def _same_file(path: str, target: os.stat_result) -> bool:
    try:
        return os.path.samestat(os.stat(path), target)
    except (OSError, ValueError):
        return False


def _is_emitted(path: str) -> bool:
    """Was the file written by ``sourcegrad emit`` (so that making it again is expected)?"""
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return emit.is_emitted(file.readline())
    except OSError:
        return False


@contextlib.contextmanager
def user_output_to_stderr() -> Iterator[None]:
    """Send what the user's code prints (importing its module, running it for ``--check``)
    to stderr: on stdout it would end up inside the emitted source. Both ``sys.stdout`` and
    file descriptor 1 (``os.system``, C extensions) are redirected."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:  # no file descriptor 1: only Python's own stdout to redirect
        saved = None
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stderr.flush()
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)


# -- emit --check ---------------------------------------------------------------------------
def _report_check(text: str, generated_name: str, fun: Any, header: emit.Header,
                  shapes: dict[str, tuple[int, ...] | None]) -> int:
    namespace: dict[str, Any] = {"__name__": "sourcegrad_emitted"}
    exec(compile(text, header.source_file + " (emitted)", "exec"), namespace)
    with user_output_to_stderr():
        error = check(namespace[generated_name], fun, header.wrt, header.mode, shapes)
    verdict = "ok" if error <= CHECK_TOLERANCE else f"FAILED (tolerance {CHECK_TOLERANCE:g})"
    print(f"check: largest relative error against central finite differences: {error:.2e} "
          f"[{verdict}]", file=sys.stderr)
    return 0 if error <= CHECK_TOLERANCE else 1


def check(generated: Any, fun: Any, wrt: tuple[str, ...], mode: str,
          shapes: dict[str, tuple[int, ...] | None], seed: int = 0) -> float:
    """The largest relative error ``|derivative - finite differences| / |finite differences|``
    (norms over each differentiated argument) at random inputs in [0.1, 1)."""
    rng = np.random.default_rng(seed)
    params = list(inspect.signature(fun).parameters.values())
    values = _random_arguments(fun, shapes, rng)
    names = [p.name for p in params]

    def user(*values: Any) -> Any:
        return _call(fun, params, values)

    errors = []
    if mode == "reverse":
        grads = _call(generated, params, values)
        grads = grads if len(wrt) > 1 else (grads,)
        for name, grad in zip(wrt, grads, strict=True):
            expected = testing.numerical_vjp(user, values, names.index(name), 1.0)
            errors.append(_relative_error(grad, expected))
    else:
        tangents = {n: rng.standard_normal(np.shape(values[names.index(n)])) for n in wrt}
        tangent_params = list(inspect.signature(generated).parameters)[len(params):]
        _, tangent_out = _call(generated, params, values,
                               **dict(zip(tangent_params, tangents.values(), strict=True)))
        expected = sum(testing.numerical_jvp(user, values, names.index(n), tangents[n])
                       for n in wrt)
        errors.append(_relative_error(tangent_out, expected))
    return max(errors)


def _call(fn: Any, params: list[inspect.Parameter], values: Sequence[Any],
          **extra: Any) -> Any:
    """``fn`` called with one value per parameter, keyword-only ones by keyword."""
    positional = [v for p, v in zip(params, values, strict=True) if p.kind != p.KEYWORD_ONLY]
    keywords = {p.name: v for p, v in zip(params, values, strict=True)
                if p.kind == p.KEYWORD_ONLY}
    return fn(*positional, **keywords, **extra)


def _random_arguments(fun: Any, shapes: dict[str, tuple[int, ...] | None],
                      rng: np.random.Generator) -> list[Any]:
    args = []
    for name, param in inspect.signature(fun).parameters.items():
        if name in shapes:
            shape = shapes[name]
            args.append(float(rng.uniform(0.1, 1.0)) if shape is None
                        else rng.uniform(0.1, 1.0, shape))
        elif param.default is not inspect.Parameter.empty:
            args.append(param.default)
        else:
            raise CliError(f"--check needs a shape for {name!r} (e.g. --shapes {name}=3,4, or "
                           f"{name}= for a float)")
    unknown = sorted(set(shapes) - set(inspect.signature(fun).parameters))
    if unknown:
        raise CliError(f"{fun.__name__} has no parameter named {unknown[0]!r}")
    return args


def _relative_error(actual: Any, expected: Any) -> float:
    actual, expected = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
    scale = max(float(np.linalg.norm(expected)), float(np.linalg.norm(actual)), 1e-12)
    return float(np.linalg.norm(actual - expected)) / scale
