def grad_list_append_stack(x):
    hs = []
    h = x
    # for _ in range(3):
    tanh_h_stack = []
    for _ in range(3):
        # h = np.tanh(h)
        tanh_h = np.tanh(h)
        tanh_h_stack.append(tanh_h)
        h = tanh_h
        hs.append(h)
    # return np.sum(np.stack(hs) ** 2)
    stack_hs = np.stack(hs)
    # the backward sweep reads only the shapes of these: let their elements go
    h = shape_only(h)
    grad_list_append_stack_value = 1.0
    # return np.sum(np.stack(hs) ** 2)
    grad_stack_hs_sq = unreduce(grad_list_append_stack_value, stack_hs)
    grad_stack_hs = grad_stack_hs_sq * 2 * stack_hs
    del stack_hs
    grad_hs = list(np.moveaxis(grad_stack_hs, 0, 0))
    del grad_stack_hs
    # for _ in range(3):
    grad_h = zeros_like_grad(h)
    for _ in reversed(range(3)):
        tanh_h = tanh_h_stack.pop()
        # hs.append(h)
        grad_h = add_into(grad_h, grad_hs.pop())
        # h = np.tanh(h)
        grad_h = grad_h * (1 - tanh_h ** 2)
    del grad_hs
    # h = x
    grad_x = grad_h
    return as_gradient(grad_x, x)
