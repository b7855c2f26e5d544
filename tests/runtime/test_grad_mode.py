"""Grad mode decorators on generators, coroutines and classes, side by side with PyTorch.

A decorated generator's body runs long after the decorated call returned: the decorator's
mode must be switched on at every resumption and the caller's given back at every
suspension (``yield``, ``await``), whatever the caller sends, throws or closes."""

import asyncio
import warnings

import pytest

import sourcegrad as sg

torch = pytest.importorskip("torch")

DECORATORS = {
    "no_grad()": lambda m: m.no_grad(),
    "no_grad": lambda m: m.no_grad,
    "enable_grad()": lambda m: m.enable_grad(),
    "set_grad_enabled(False)": lambda m: m.set_grad_enabled(False),
    "set_grad_enabled(True)": lambda m: m.set_grad_enabled(True),
}


def run_in_mode(m, caller_mode, action):
    """``action()`` with the caller in ``caller_mode``; the mode is back afterwards."""
    with m.set_grad_enabled(caller_mode):
        result = action()
        assert m.is_grad_enabled() is caller_mode
    return result


@pytest.mark.parametrize("caller_mode", [True, False])
@pytest.mark.parametrize("decorator", DECORATORS, ids=list(DECORATORS))
def test_generator_bodies_run_in_the_decorators_mode(decorator, caller_mode):
    def observed(m):
        @DECORATORS[decorator](m)
        def gen(n):
            for _ in range(n):
                yield m.is_grad_enabled()
            return "done"

        def drive():
            seen = []
            it = gen(3)
            for value in it:
                seen.append((value, m.is_grad_enabled()))  # the caller's mode between steps
            return seen

        return run_in_mode(m, caller_mode, drive)

    assert observed(sg) == observed(torch)


@pytest.mark.parametrize("decorator", DECORATORS, ids=list(DECORATORS))
def test_generators_receive_sent_values_and_return_theirs(decorator):
    def observed(m):
        @DECORATORS[decorator](m)
        def accumulate():
            total = 0
            while True:
                received = yield (total, m.is_grad_enabled())
                if received is None:
                    return total
                total += received

        def drive():
            it = accumulate()
            seen = [next(it), it.send(2), it.send(5)]
            with pytest.raises(StopIteration) as stop:
                it.send(None)
            return seen, stop.value.value, m.is_grad_enabled()

        return run_in_mode(m, True, drive), run_in_mode(m, False, drive)

    assert observed(sg) == observed(torch)


@pytest.mark.parametrize("decorator", DECORATORS, ids=list(DECORATORS))
def test_exceptions_thrown_into_generators_reach_the_body_in_its_mode(decorator):
    def observed(m):
        @DECORATORS[decorator](m)
        def resilient():
            events = []
            while True:
                try:
                    yield list(events)
                except ValueError as error:
                    events.append((str(error), m.is_grad_enabled()))
                except KeyError:
                    events.append(("stopping", m.is_grad_enabled()))
                    raise

        def drive():
            it = resilient()
            next(it)
            first = it.throw(ValueError("once"))
            caller = m.is_grad_enabled()
            with pytest.raises(KeyError):
                it.throw(KeyError("stop"))
            return first, caller, m.is_grad_enabled()

        return run_in_mode(m, True, drive), run_in_mode(m, False, drive)

    assert observed(sg) == observed(torch)


@pytest.mark.parametrize("decorator", DECORATORS, ids=list(DECORATORS))
def test_closing_a_generator_runs_its_cleanup_in_its_mode(decorator):
    def observed(m):
        cleanup = []

        @DECORATORS[decorator](m)
        def with_cleanup():
            try:
                while True:
                    yield m.is_grad_enabled()
            finally:
                cleanup.append(m.is_grad_enabled())

        def drive():
            it = with_cleanup()
            first = next(it)
            it.close()
            return first, cleanup[:], m.is_grad_enabled()

        return run_in_mode(m, True, drive), run_in_mode(m, False, drive)

    assert observed(sg) == observed(torch)


@pytest.mark.parametrize("m", [torch, sg], ids=["torch", "sg"])
def test_operations_inside_a_no_grad_generator_record_nothing(m):
    x = m.ones(2, requires_grad=True)

    @m.no_grad()
    def doubled(n):
        for _ in range(n):
            yield x * 2

    outputs = list(doubled(2))
    assert [out.requires_grad for out in outputs] == [False, False]
    assert (x * 2).requires_grad  # the caller's mode is back


def test_nested_decorated_generators_each_keep_their_mode():
    def observed(m):
        @m.enable_grad()
        def inner():
            yield m.is_grad_enabled()
            yield m.is_grad_enabled()

        @m.no_grad()
        def outer():
            yield m.is_grad_enabled()
            for value in inner():
                yield (value, m.is_grad_enabled())

        return run_in_mode(m, True, lambda: list(outer()))

    assert observed(sg) == observed(torch)


def test_an_exception_raised_by_the_generator_restores_the_callers_mode():
    def observed(m):
        @m.no_grad()
        def failing():
            yield 1
            raise RuntimeError("inside")

        def drive():
            it = failing()
            next(it)
            with pytest.raises(RuntimeError, match="inside"):
                next(it)
            return m.is_grad_enabled()

        return run_in_mode(m, True, drive)

    assert observed(sg) == observed(torch) is True


# PyTorch runs the body of a decorated ``async def`` in the caller's mode (its decorator
# switches only while the coroutine object is made); sourcegrad switches at every
# resumption, as for generators: these check that behaviour itself.


@pytest.mark.parametrize("caller_mode", [True, False])
@pytest.mark.parametrize("decorator", DECORATORS, ids=list(DECORATORS))
def test_coroutine_bodies_run_in_the_decorators_mode(decorator, caller_mode):
    decorator_object = DECORATORS[decorator](sg)
    seen = []

    @decorator_object
    async def work(delay):
        seen.append(sg.is_grad_enabled())
        await asyncio.sleep(delay)
        seen.append(sg.is_grad_enabled())
        return "result"

    async def other():
        await asyncio.sleep(0)
        seen.append(("other", sg.is_grad_enabled()))  # runs while `work` is suspended

    async def main():
        sg.set_grad_enabled(caller_mode)
        results = await asyncio.gather(work(0.001), other())
        return results[0], sg.is_grad_enabled()

    try:
        assert asyncio.run(main()) == ("result", caller_mode)
    finally:
        sg.set_grad_enabled(True)
    mode = decorator_object.mode  # (the class itself for ``@sg.no_grad``)
    assert seen == [mode, ("other", caller_mode), mode]


def test_exceptions_propagate_through_a_decorated_coroutine():
    @sg.no_grad()
    async def failing():
        await asyncio.sleep(0)
        raise ValueError(f"grad mode {sg.is_grad_enabled()}")

    async def main():
        with pytest.raises(ValueError, match="grad mode False"):
            await failing()
        return sg.is_grad_enabled()

    assert asyncio.run(main()) is True


def test_async_generator_bodies_run_in_the_decorators_mode():
    seen = []

    @sg.no_grad()
    async def ticks(n):
        try:
            for i in range(n):
                await asyncio.sleep(0)
                received = yield (i, sg.is_grad_enabled())
                seen.append(("received", received, sg.is_grad_enabled()))
        finally:
            seen.append(("cleanup", sg.is_grad_enabled()))

    async def main():
        gen = ticks(5)
        first = await gen.asend(None)
        seen.append(("caller", sg.is_grad_enabled()))
        second = await gen.asend("hello")
        await gen.aclose()
        collected = [item async for item in ticks(2)]
        return first, second, collected

    first, second, collected = asyncio.run(main())
    assert (first, second) == ((0, False), (1, False))
    assert collected == [(0, False), (1, False)]
    assert seen[:3] == [("caller", True), ("received", "hello", False), ("cleanup", False)]
    assert sg.is_grad_enabled()


# ------------------------------------------------------------------------ classes


def test_decorating_a_class_warns_as_pytorch_does_and_constructs_in_the_mode():
    def observed(m):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")

            @m.no_grad()
            class Model:
                def __init__(self, scale):
                    self.mode = m.is_grad_enabled()
                    self.scale = scale

        model = Model(3)
        return ([(w.category, str(w.message)) for w in caught], model.mode, model.scale,
                m.is_grad_enabled())

    assert observed(sg) == observed(torch)


@pytest.mark.parametrize("m", [torch, sg], ids=["torch", "sg"])
def test_plain_functions_still_restore_the_mode_on_error(m):
    @m.no_grad()
    def failing():
        raise KeyError(m.is_grad_enabled())

    with pytest.raises(KeyError) as error:
        failing()
    assert error.value.args == (False,) and m.is_grad_enabled()
