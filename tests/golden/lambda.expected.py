def grad_tanh_loss(w, x):
    # tanh_loss = lambda w, x: np.mean(np.tanh(x @ w) ** 2)
    tanh_x_at_w = np.tanh(x @ w)
    grad_tanh_loss_value = 1.0
    # tanh_loss = lambda w, x: np.mean(np.tanh(x @ w) ** 2)
    grad_tanh_x_at_w_sq = unreduce(grad_tanh_loss_value / element_count(tanh_x_at_w), tanh_x_at_w)
    grad_tanh_x_at_w = grad_tanh_x_at_w_sq * 2 * tanh_x_at_w
    grad_x_at_w = grad_tanh_x_at_w * (1 - tanh_x_at_w ** 2)
    del grad_tanh_x_at_w, tanh_x_at_w
    grad_w = matmul_vjp_x2(grad_x_at_w, x, w)
    return as_gradient(grad_w, w)
