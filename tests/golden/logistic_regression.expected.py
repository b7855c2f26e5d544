def grad_logistic_loss(w, b, X, y):
    # z = X @ w + b
    X_at_w = X @ w
    z = X_at_w + b
    # return np.mean(np.logaddexp(0.0, z) - y * z)
    y_times_z = shape_of_elementwise(y, z)
    logaddexp_0_minus_y = shape_of_elementwise(z, y_times_z)
    # the backward sweep reads only the shapes of these: let their elements go
    X_at_w = shape_only(X_at_w)
    grad_logistic_loss_value = 1.0
    # return np.mean(np.logaddexp(0.0, z) - y * z)
    grad_logaddexp_0_minus_y = unreduce(grad_logistic_loss_value
                                        / element_count(logaddexp_0_minus_y), logaddexp_0_minus_y)
    grad_y_times_z = unbroadcast(-grad_logaddexp_0_minus_y, y_times_z)
    grad_z = unbroadcast(grad_y_times_z * y, z)
    del grad_y_times_z
    grad_logaddexp_0 = unbroadcast(grad_logaddexp_0_minus_y, z)
    grad_z = add_into(grad_z, grad_logaddexp_0 * (0.5 + 0.5 * np.tanh(0.5 * z)))
    del grad_logaddexp_0, z
    # z = X @ w + b
    grad_X_at_w = unbroadcast(grad_z, X_at_w)
    grad_b = unbroadcast(grad_z, b)
    del grad_z
    grad_w = matmul_vjp_x2(grad_X_at_w, X, w)
    return as_gradient(grad_w, w), as_gradient(grad_b, b)
