def grad_logistic_loss(w, b, X, y):
    # z = X @ w + b
    X_at_w = X @ w
    z = X_at_w + b
    del X_at_w
    grad_logistic_loss_value = 1.0
    # return np.mean(np.logaddexp(0.0, z) - y * z)
    grad_logaddexp_0_minus_y = np.broadcast_to(grad_logistic_loss_value / 6, (6,))
    grad_y_times_z = -grad_logaddexp_0_minus_y
    grad_z = np.multiply(grad_y_times_z, y, out=grad_y_times_z)
    del grad_y_times_z
    grad_z += grad_logaddexp_0_minus_y * (0.5 + 0.5 * np.tanh(0.5 * z))
    del z
    # z = X @ w + b
    grad_X_at_w = grad_z
    grad_b = np.sum(grad_z)
    del grad_z
    grad_w = X.T @ grad_X_at_w
    return grad_w, float(grad_b)
