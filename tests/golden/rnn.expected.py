def grad_rnn_loss(Wx, Wh, xs, target):
    h = np.zeros(Wh.shape[0])
    # for t in range(xs.shape[0]):
    h_stack = []
    h_at_Wh_stack = []
    xs_t_at_Wx_stack = []
    # xs[t] @ Wx of every step, as one product
    xs_at_Wx = matmul_over_steps(xs, Wx)
    for t in range(xs.shape[0]):
        # h = np.tanh(xs[t] @ Wx + h @ Wh)
        xs_t_at_Wx = xs_at_Wx[t]
        xs_t_at_Wx_stack.append(shape_only(xs_t_at_Wx))
        h_at_Wh = h @ Wh
        h_at_Wh_stack.append(shape_only(h_at_Wh))
        xs_t_at_Wx_plus_h_at_Wh = xs_t_at_Wx + h_at_Wh
        h_stack.append(h)
        h = np.tanh(xs_t_at_Wx_plus_h_at_Wh)
    del xs_at_Wx
    # return np.sum((h - target) ** 2)
    h_minus_target = h - target
    grad_rnn_loss_value = 1.0
    # return np.sum((h - target) ** 2)
    grad_h_minus_target_sq = unreduce(grad_rnn_loss_value, h_minus_target)
    grad_h_minus_target = grad_h_minus_target_sq * 2 * h_minus_target
    del h_minus_target
    grad_h = unbroadcast(grad_h_minus_target, h)
    del grad_h_minus_target
    # for t in range(xs.shape[0]):
    grad_Wh = zeros_like_grad(Wh)
    grad_Wx = zeros_like_grad(Wx)
    # the gradients of Wh and Wx: the steps' factors kept, multiplied many steps at once
    grad_h_at_Wh_steps = []
    h_steps = []
    grad_xs_t_at_Wx_steps = []
    xs_t_steps = []
    for t in reversed(range(xs.shape[0])):
        h_at_Wh = h_at_Wh_stack.pop()
        xs_t_at_Wx = xs_t_at_Wx_stack.pop()
        # h = np.tanh(xs[t] @ Wx + h @ Wh)
        grad_xs_t_at_Wx_plus_h_at_Wh = grad_h * (1 - h ** 2)
        h = h_stack.pop()
        grad_xs_t_at_Wx = unbroadcast(grad_xs_t_at_Wx_plus_h_at_Wh, xs_t_at_Wx)
        grad_h_at_Wh = unbroadcast(grad_xs_t_at_Wx_plus_h_at_Wh, h_at_Wh)
        grad_h = matmul_vjp_x1(grad_h_at_Wh, h, Wh)
        grad_h_at_Wh_steps.append(grad_h_at_Wh)
        h_steps.append(h)
        grad_xs_t_at_Wx_steps.append(grad_xs_t_at_Wx)
        xs_t_steps.append(xs[t])
        if enough_steps(grad_h_at_Wh_steps, h_steps):
            grad_Wh = add_into(grad_Wh, matmul_vjp_x2_over_steps(grad_h_at_Wh_steps, h_steps, Wh))
            grad_h_at_Wh_steps = []
            h_steps = []
        if enough_steps(grad_xs_t_at_Wx_steps, xs_t_steps):
            grad_Wx = add_into(grad_Wx,
                               matmul_vjp_x2_over_steps(grad_xs_t_at_Wx_steps, xs_t_steps, Wx))
            grad_xs_t_at_Wx_steps = []
            xs_t_steps = []
    grad_Wh = add_into(grad_Wh, matmul_vjp_x2_over_steps(grad_h_at_Wh_steps, h_steps, Wh))
    grad_Wx = add_into(grad_Wx, matmul_vjp_x2_over_steps(grad_xs_t_at_Wx_steps, xs_t_steps, Wx))
    return as_gradient(grad_Wx, Wx), as_gradient(grad_Wh, Wh)
