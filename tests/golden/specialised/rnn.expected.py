def grad_rnn_loss(Wx, Wh, xs, target):
    h = np.zeros(Wh.shape[0])
    # for t in range(xs.shape[0]):
    h_stack = []
    # xs[t] @ Wx of every step, as one product
    xs_at_Wx = xs @ Wx
    for t in range(xs.shape[0]):
        # h = np.tanh(xs[t] @ Wx + h @ Wh)
        xs_t_at_Wx = xs_at_Wx[t]
        h_at_Wh = h @ Wh
        xs_t_at_Wx_plus_h_at_Wh = xs_t_at_Wx + h_at_Wh
        h_stack.append(h)
        h = np.tanh(xs_t_at_Wx_plus_h_at_Wh)
    del xs_at_Wx, xs_t_at_Wx
    # return np.sum((h - target) ** 2)
    h_minus_target = h - target
    grad_rnn_loss_value = 1.0
    # return np.sum((h - target) ** 2)
    grad_h_minus_target_sq = np.broadcast_to(grad_rnn_loss_value, (4,))
    grad_h_minus_target = np.multiply(grad_h_minus_target_sq * 2, h_minus_target,
                                      out=h_minus_target)
    del h_minus_target
    grad_h = grad_h_minus_target
    del grad_h_minus_target
    # for t in range(xs.shape[0]):
    grad_Wh = np.zeros((4, 4))
    grad_Wx = np.zeros((3, 4))
    # the gradients of Wh and Wx: the steps' factors kept, multiplied many steps at once
    grad_h_at_Wh_steps = []
    h_steps = []
    grad_xs_t_at_Wx_steps = []
    xs_t_steps = []
    for t in reversed(range(xs.shape[0])):
        # h = np.tanh(xs[t] @ Wx + h @ Wh)
        grad_xs_t_at_Wx_plus_h_at_Wh = grad_h * (1 - h ** 2)
        h = h_stack.pop()
        grad_xs_t_at_Wx = grad_xs_t_at_Wx_plus_h_at_Wh
        grad_h_at_Wh = grad_xs_t_at_Wx_plus_h_at_Wh
        grad_h = grad_h_at_Wh @ Wh.T
        grad_h_at_Wh_steps.append(grad_h_at_Wh)
        h_steps.append(h)
        grad_xs_t_at_Wx_steps.append(grad_xs_t_at_Wx)
        xs_t_steps.append(xs[t])
        if len(grad_h_at_Wh_steps) >= 512:
            grad_Wh += matmul_vjp_x2_over_steps(grad_h_at_Wh_steps, h_steps, Wh)
            grad_h_at_Wh_steps = []
            h_steps = []
        if len(grad_xs_t_at_Wx_steps) >= 586:
            grad_Wx += matmul_vjp_x2_over_steps(grad_xs_t_at_Wx_steps, xs_t_steps, Wx)
            grad_xs_t_at_Wx_steps = []
            xs_t_steps = []
    grad_Wh += matmul_vjp_x2_over_steps(grad_h_at_Wh_steps, h_steps, Wh)
    grad_Wx += matmul_vjp_x2_over_steps(grad_xs_t_at_Wx_steps, xs_t_steps, Wx)
    return grad_Wx, grad_Wh
