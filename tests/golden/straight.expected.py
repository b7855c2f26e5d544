def grad_straight(x, w):
    # h = np.tanh(x @ w)
    h = np.tanh(x @ w)
    grad_straight_value = 1.0
    # return np.sum(h ** 2)
    grad_h_sq = unreduce(grad_straight_value, h)
    grad_h = grad_h_sq * 2 * h
    # h = np.tanh(x @ w)
    grad_x_at_w = grad_h * (1 - h ** 2)
    del grad_h, h
    grad_w = matmul_vjp_x2(grad_x_at_w, x, w)
    return as_gradient(grad_w, w)
