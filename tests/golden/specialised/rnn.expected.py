def grad_rnn_loss(Wx, Wh, xs, target):
    h = np.zeros(Wh.shape[0])
    # for t in range(xs.shape[0]):
    h_stack = np.empty((5, 4))
    # xs[t] @ Wx of every step, as one product
    xs_at_Wx = xs @ Wx
    for t in range(xs.shape[0]):
        # h = np.tanh(xs[t] @ Wx + h @ Wh)
        xs_t_at_Wx = xs_at_Wx[t]
        h_at_Wh = h @ Wh
        xs_t_at_Wx_plus_h_at_Wh = xs_t_at_Wx + h_at_Wh
        h_stack[t] = h
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
    # the gradients of Wh and Wx: the steps' factors kept in arrays, multiplied at once
    grad_h_at_Wh_steps = np.empty((5, 4))
    for t in reversed(range(xs.shape[0])):
        # h = np.tanh(xs[t] @ Wx + h @ Wh)
        grad_xs_t_at_Wx_plus_h_at_Wh = grad_h_at_Wh_steps[t]
        np.multiply(grad_h, 1 - h ** 2, out=grad_xs_t_at_Wx_plus_h_at_Wh)
        h = h_stack[t]
        grad_h = grad_xs_t_at_Wx_plus_h_at_Wh @ Wh.T
    grad_Wh = h_stack.T @ grad_h_at_Wh_steps
    grad_Wx = xs.T @ grad_h_at_Wh_steps
    return grad_Wx, grad_Wh
