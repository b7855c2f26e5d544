def grad_gradient_penalty(w, x):
    # return np.sum(sg.grad(energy)(w, x) ** 2)
    grad_energy_w, grad_energy_w_saved = forward_grad_energy(w, x)
    grad_gradient_penalty_value = 1.0
    # return np.sum(sg.grad(energy)(w, x) ** 2)
    grad_grad_energy_w_sq = unreduce(grad_gradient_penalty_value, grad_energy_w)
    grad_grad_energy_w = grad_grad_energy_w_sq * 2 * grad_energy_w
    del grad_energy_w
    grad_w = backward_grad_energy(grad_grad_energy_w, grad_energy_w_saved)[0]
    return as_gradient(grad_w, w)


def forward_grad_energy(w, x):
    # tanh_x_at_w = np.tanh(x @ w)
    tanh_x_at_w = np.tanh(x @ w)
    grad_energy_value = 1.0
    grad_tanh_x_at_w_sq = unreduce(grad_energy_value, tanh_x_at_w)
    grad_tanh_x_at_w = grad_tanh_x_at_w_sq * 2 * tanh_x_at_w
    # grad_x_at_w = grad_tanh_x_at_w * (1 - tanh_x_at_w ** 2)
    v1_minus_tanh_x_at_w_sq = 1 - tanh_x_at_w ** 2
    grad_x_at_w = grad_tanh_x_at_w * v1_minus_tanh_x_at_w_sq
    grad_w = matmul_vjp_x2(grad_x_at_w, x, w)
    # return as_gradient(grad_w, w)
    grad_energy_value_2 = as_gradient(grad_w, w)
    # the backward sweep reads only the shapes of these: let their elements go
    grad_w = shape_only(grad_w)
    return (grad_energy_value_2,
            (grad_w, x, grad_tanh_x_at_w, v1_minus_tanh_x_at_w_sq, tanh_x_at_w, grad_tanh_x_at_w_sq,
             w))


def backward_grad_energy(grad_grad_energy_value_2, saved):
    (grad_w, x, grad_tanh_x_at_w, v1_minus_tanh_x_at_w_sq, tanh_x_at_w, grad_tanh_x_at_w_sq,
     w) = saved
    # return as_gradient(grad_w, w)
    grad_grad_w = unbroadcast_each(grad_grad_energy_value_2, grad_w)
    # grad_w = matmul_vjp_x2(grad_x_at_w, x, w)
    grad_grad_x_at_w = np.matmul(x, grad_grad_w)
    del grad_grad_w
    # grad_x_at_w = grad_tanh_x_at_w * (1 - tanh_x_at_w ** 2)
    grad_grad_tanh_x_at_w = unbroadcast(grad_grad_x_at_w * v1_minus_tanh_x_at_w_sq,
                                        grad_tanh_x_at_w)
    grad_v1_minus_tanh_x_at_w_sq = unbroadcast(grad_grad_x_at_w * grad_tanh_x_at_w,
                                               v1_minus_tanh_x_at_w_sq)
    del grad_grad_x_at_w, grad_tanh_x_at_w, v1_minus_tanh_x_at_w_sq
    grad_tanh_x_at_w_sq_2 = -grad_v1_minus_tanh_x_at_w_sq
    del grad_v1_minus_tanh_x_at_w_sq
    grad_tanh_x_at_w_2 = grad_tanh_x_at_w_sq_2 * 2 * tanh_x_at_w
    del grad_tanh_x_at_w_sq_2
    # grad_tanh_x_at_w = grad_tanh_x_at_w_sq * 2 * tanh_x_at_w
    grad_tanh_x_at_w_2 = add_into(grad_tanh_x_at_w_2,
                                  unbroadcast(grad_grad_tanh_x_at_w * (grad_tanh_x_at_w_sq * 2),
                                              tanh_x_at_w))
    del grad_grad_tanh_x_at_w
    # tanh_x_at_w = np.tanh(x @ w)
    grad_x_at_w_2 = grad_tanh_x_at_w_2 * (1 - tanh_x_at_w ** 2)
    del grad_tanh_x_at_w_2, tanh_x_at_w
    grad_w_2 = matmul_vjp_x2(grad_x_at_w_2, x, w)
    return grad_w_2,
