"""Autograd tests in the shape of PyTorch's own ``TestAutograd`` (one class, one behaviour
per method, expected values worked out by hand), for what contract section 2 promises:
accumulation, hooks, retained gradients, grad mode, ``autograd.grad``, in-place rules and
views, higher derivatives. Written for sourcegrad; none is copied from PyTorch."""

import gc
import unittest
import weakref

import numpy as np

import sourcegrad as sg


class TestCase(unittest.TestCase):
    def assertTensorEqual(self, actual, expected, rtol=1e-6):  # noqa: N802  (unittest's style)
        self.assertIsInstance(actual, sg.Tensor)
        np.testing.assert_allclose(actual.detach().numpy(), np.asarray(expected, dtype=float),
                                   rtol=rtol, atol=1e-7)


class TestAutograd(TestCase):
    # ------------------------------------------------------------------ accumulation

    def test_accumulation_in_place_without_create_graph(self):
        x = sg.tensor([1.0, 2.0], requires_grad=True)
        (x * 3).sum().backward()
        first = x.grad
        (x * x).sum().backward()
        self.assertIs(x.grad, first)
        self.assertTensorEqual(x.grad, [5.0, 7.0])

    def test_accumulation_out_of_place_with_create_graph(self):
        x = sg.tensor([1.0, 2.0], requires_grad=True)
        (x * 3).sum().backward()
        first = x.grad
        (x * x).sum().backward(create_graph=True)
        self.assertIsNot(x.grad, first)
        self.assertTensorEqual(first, [3.0, 3.0])
        self.assertTensorEqual(x.grad, [5.0, 7.0])
        self.assertTrue(x.grad.requires_grad)

    def test_backward_from_a_leaf(self):
        v = sg.tensor([[1.0, -2.0]], requires_grad=True)
        v.backward(sg.tensor([[0.5, 4.0]]))
        self.assertTensorEqual(v.grad, [[0.5, 4.0]])

    def test_several_roots_share_one_pass(self):
        x = sg.tensor([2.0], requires_grad=True)
        y = x * x
        z = y * y * y
        sg.autograd.backward([y, z], [sg.tensor([1.0]), sg.tensor([2.0])])
        # dy/dx = 2x = 4; dz/dx = 6 x^5 = 192
        self.assertTensorEqual(x.grad, [4.0 + 2 * 192.0])

    def test_zero_sized_gradients(self):
        a = sg.zeros(3, 0, requires_grad=True)
        b = sg.ones(3, 1, requires_grad=True)
        (a + b).sum().backward()
        self.assertEqual(tuple(a.grad.shape), (3, 0))
        self.assertTensorEqual(b.grad, np.zeros((3, 1)))

    # ------------------------------------------------------------------ hooks

    def test_hook_counts_and_removal(self):
        x = sg.ones(2, requires_grad=True)
        y = x * 4
        calls = []
        first = y.register_hook(lambda g: calls.append("first"))
        y.register_hook(lambda g: calls.append("second"))
        y.sum().backward(retain_graph=True)
        first.remove()
        first.remove()  # removing twice is fine
        y.sum().backward()
        self.assertEqual(calls, ["first", "second", "second"])

    def test_a_hook_object_without_a_name(self):
        class Doubler:
            def __call__(self, grad):
                return grad * 2

        x = sg.ones(3, requires_grad=True)
        y = x * 1
        y.register_hook(Doubler())
        y.sum().backward()
        self.assertTensorEqual(x.grad, [2.0, 2.0, 2.0])

    def test_hooks_of_a_tensor_run_before_its_nodes_prehooks(self):
        order = []
        a = sg.tensor(1.0, requires_grad=True)
        b = a * 5
        b.grad_fn.register_prehook(lambda grads: order.append("node") or (grads[0] + 1,))
        b.register_hook(lambda g: order.append("tensor") or g * 10)
        b.backward()
        self.assertEqual(order, ["tensor", "node"])
        self.assertTensorEqual(a.grad, 5 * (1 * 10 + 1))

    def test_a_hook_on_an_unbound_output_does_not_fire_for_the_others(self):
        x = sg.arange(4.0).requires_grad_()
        pieces = x.unbind()
        seen = []
        pieces[0].register_hook(lambda g: seen.append(g.item()))
        pieces[0].backward()
        pieces[2].backward()
        self.assertEqual(seen, [1.0])
        self.assertTensorEqual(x.grad, [1.0, 0.0, 1.0, 0.0])

    def test_post_accumulate_hook_sees_the_accumulated_grad(self):
        p = sg.tensor([3.0, -1.0], requires_grad=True)
        seen = []
        p.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.tolist()))
        (p * p).sum().backward()
        self.assertEqual(seen, [[6.0, -2.0]])

    # ------------------------------------------------------------------ retain_grad

    def test_retain_grad_twice_and_on_a_leaf_are_harmless(self):
        x = sg.tensor([1.0, 2.0], requires_grad=True)
        h = x * 3
        h.retain_grad()
        h.retain_grad()
        x.retain_grad()
        (h * h).sum().backward(retain_graph=True)
        self.assertTensorEqual(h.grad, [6.0, 12.0])
        (h * h).sum().backward()
        self.assertTensorEqual(h.grad, [12.0, 24.0])
        self.assertFalse(x.retains_grad)
        self.assertTensorEqual(x.grad, [36.0, 72.0])

    def test_retain_grad_keeps_no_tensor_alive(self):
        x = sg.ones(3, requires_grad=True)

        def make():
            y = x * 2
            y.retain_grad()
            return y / 2, weakref.ref(y)

        z, ref = make()
        gc.collect()
        self.assertIsNone(ref())
        z.sum().backward()
        self.assertTensorEqual(x.grad, [1.0, 1.0, 1.0])

    def test_retained_gradient_of_the_latest_version(self):
        x = sg.tensor([2.0], requires_grad=True)
        y = x * 1
        y.retain_grad()
        y.mul_(3)
        y.mul_(5)
        (y * y).sum().backward()
        self.assertTensorEqual(y.grad, [2 * 30.0])
        self.assertTensorEqual(x.grad, [2 * 30.0 * 15])

    def test_retained_gradients_of_two_views_after_one_changed(self):
        base = sg.tensor([2.0], requires_grad=True) * 1
        first, second = base[:], base[:]
        first.retain_grad()
        second.retain_grad()
        first.mul_(3)
        (first + second).sum().backward()
        self.assertTensorEqual(first.grad, [1.0])
        self.assertTensorEqual(second.grad, [1.0])

    # ------------------------------------------------------------------ grad mode

    def test_no_grad_inside_enable_grad_inside_no_grad(self):
        x = sg.ones(1, requires_grad=True)
        with sg.no_grad():
            with sg.enable_grad():
                y = x * 2
                with sg.no_grad():
                    z = y * 2
            w = x * 2
        self.assertTrue(y.requires_grad)
        self.assertFalse(z.requires_grad)
        self.assertFalse(w.requires_grad)

    def test_set_grad_enabled_as_function_context_and_decorator(self):
        sg.set_grad_enabled(False)
        try:
            self.assertFalse(sg.is_grad_enabled())

            @sg.set_grad_enabled(True)
            def recording():
                return sg.is_grad_enabled()

            self.assertTrue(recording())
            self.assertFalse(sg.is_grad_enabled())
        finally:
            sg.set_grad_enabled(True)

    def test_a_generator_keeps_its_mode_between_items(self):
        @sg.no_grad()
        def items():
            yield sg.is_grad_enabled()
            yield sg.is_grad_enabled()

        states = []
        for inside in items():
            states.append((inside, sg.is_grad_enabled()))
        self.assertEqual(states, [(False, True), (False, True)])

    # ------------------------------------------------------------------ autograd.grad

    def test_grad_of_a_nonleaf_and_gradient_descent_on_it(self):
        x0 = sg.tensor([[1.0, -1.0]], requires_grad=True)
        y = sg.tensor([[0.5, 2.0]], requires_grad=True)
        x = x0
        for _ in range(3):
            (g,) = sg.autograd.grad((x * x + y * x).sum(), x, create_graph=True)
            self.assertTensorEqual(g, (2 * x + y).detach().numpy())
            x = x - 0.1 * g
        self.assertIsNone(x0.grad)
        x.sum().backward()
        self.assertIsNotNone(x0.grad)
        self.assertIsNotNone(y.grad)

    def test_grad_does_not_touch_grad_attributes(self):
        a = sg.tensor([1.0], requires_grad=True)
        b = sg.tensor([4.0], requires_grad=True)
        ga, gb = sg.autograd.grad((a * b).sum(), [a, b])
        self.assertTensorEqual(ga, [4.0])
        self.assertTensorEqual(gb, [1.0])
        self.assertIsNone(a.grad)
        self.assertIsNone(b.grad)

    def test_grad_of_an_unreachable_input(self):
        x = sg.ones(1, requires_grad=True)
        y = sg.ones(1, requires_grad=True)
        _ = y * 2  # y has an accumulator, still unreachable from the output
        gx, gy = sg.autograd.grad(x * 2, [x, y], allow_unused=True)
        self.assertTensorEqual(gx, [2.0])
        self.assertIsNone(gy)
        with self.assertRaisesRegex(RuntimeError, "Set allow_unused=True"):
            sg.autograd.grad(x * 2, [x, y])

    def test_grad_with_respect_to_the_output_itself(self):
        x = sg.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        (gy,) = sg.autograd.grad(y, y, grad_outputs=sg.tensor([3.0, 4.0]))
        self.assertTensorEqual(gy, [3.0, 4.0])

    # ------------------------------------------------------------------ in place, views

    def test_in_place_on_a_leaf_is_refused_but_not_under_no_grad(self):
        w = sg.ones(2, requires_grad=True)
        with self.assertRaisesRegex(RuntimeError, "a leaf Variable that requires grad"):
            w.add_(1)
        with sg.no_grad():
            w.add_(1)
        self.assertTensorEqual(w, [2.0, 2.0])
        self.assertTrue(w.is_leaf)

    def test_an_in_place_op_changes_the_saved_output_error(self):
        x = sg.ones(3, requires_grad=True)
        y = x.sigmoid()
        y.add_(1)
        with self.assertRaisesRegex(RuntimeError, "modified by an inplace operation"):
            y.sum().backward()

    def test_in_place_through_a_view_reaches_the_base_gradient(self):
        x = sg.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 1
        y[1:].mul_(y[0].detach() + 4)  # the slice times 5
        y.sum().backward()
        self.assertTensorEqual(x.grad, [1.0, 5.0, 5.0])
        self.assertEqual(type(y.grad_fn).__name__, "CopySlices")

    def test_a_view_sees_its_base_change(self):
        base = sg.zeros(2, 2)
        column = base[:, 1]
        base.fill_(3.0)
        self.assertTensorEqual(column, [3.0, 3.0])
        self.assertEqual(column._version, base._version)

    def test_second_backward_through_nodes_that_save_nothing(self):
        x = sg.tensor([1.0, 2.0], requires_grad=True)
        y = (x + 1).sum()
        y.backward()
        y.backward()
        self.assertTensorEqual(x.grad, [2.0, 2.0])
        z = (x.exp()).sum()
        z.backward()
        with self.assertRaisesRegex(RuntimeError, "backward through the graph a second time"):
            z.backward()

    # ------------------------------------------------------------------ higher order

    def test_hessian_vector_product(self):
        x = sg.tensor([[1.0, 2.0]], requires_grad=True)
        y = sg.tensor([[3.0, -1.0]], requires_grad=True)
        z = x * x + y * x + y * y
        z.backward(sg.ones(1, 2), create_graph=True)
        self.assertTensorEqual(x.grad, [[5.0, 3.0]])  # 2x + y
        self.assertTensorEqual(y.grad, [[7.0, 0.0]])  # x + 2y
        (2 * x.grad + y.grad).backward(sg.ones(1, 2))
        # d/dx (2(2x + y) + (x + 2y)) = 5, d/dy = 4, added to the first gradients
        self.assertTensorEqual(x.grad, [[10.0, 8.0]])
        self.assertTensorEqual(y.grad, [[11.0, 4.0]])

    def test_third_derivative_of_a_cubic(self):
        x = sg.tensor([2.0], requires_grad=True)
        (g,) = sg.autograd.grad((x**3).sum(), x, create_graph=True)
        (h,) = sg.autograd.grad(g.sum(), x, create_graph=True)
        (t,) = sg.autograd.grad(h.sum(), x)
        self.assertTensorEqual(g, [12.0])
        self.assertTensorEqual(h, [12.0])
        self.assertTensorEqual(t, [6.0])
