def grad_mlp_loss(W1, b1, W2, b2, X, Y):
    # h = np.tanh(X @ W1 + b1)
    X_at_W1 = X @ W1
    h = X_at_W1 + b1
    np.tanh(h, out=h)
    # logits = h @ W2 + b2
    h_at_W2 = h @ W2
    logits = h_at_W2 + b2
    # shifted = logits - np.max(logits, axis=1, keepdims=True)
    max_logits = np.max(logits, axis=1, keepdims=True)
    shifted = logits - max_logits
    # log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    exp_shifted = np.exp(shifted)
    sum_exp_shifted = np.sum(exp_shifted, axis=1, keepdims=True)
    del X_at_W1, h_at_W2, shifted
    grad_mlp_loss_value = 1.0
    # return -np.mean(np.sum(Y * log_probs, axis=1))
    grad_mean_sum_Y_times_log = -grad_mlp_loss_value
    grad_sum_Y_times_log_probs = np.broadcast_to(grad_mean_sum_Y_times_log / 6, (6,))
    grad_Y_times_log_probs = np.broadcast_to(np.expand_dims(grad_sum_Y_times_log_probs, 1), (6, 3))
    grad_log_probs = grad_Y_times_log_probs * Y
    # log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    grad_shifted = grad_log_probs
    grad_log_sum_exp_shifted = np.sum(-grad_log_probs, axis=1).reshape((6, 1))
    del grad_log_probs
    grad_sum_exp_shifted = grad_log_sum_exp_shifted / sum_exp_shifted
    del grad_log_sum_exp_shifted, sum_exp_shifted
    grad_exp_shifted = np.broadcast_to(grad_sum_exp_shifted, (6, 3))
    del grad_sum_exp_shifted
    grad_shifted = grad_shifted + grad_exp_shifted * exp_shifted
    del exp_shifted
    # shifted = logits - np.max(logits, axis=1, keepdims=True)
    grad_logits = grad_shifted
    grad_max_logits = np.sum(-grad_shifted, axis=1).reshape((6, 1))
    del grad_shifted
    grad_logits = (grad_logits
                   + np.broadcast_to(grad_max_logits, (6, 3))
                     * tie_weights(logits, max_logits, axis=1, keepdims=True))
    del grad_max_logits, logits, max_logits
    # logits = h @ W2 + b2
    grad_h_at_W2 = grad_logits
    grad_b2 = np.sum(grad_logits, axis=0)
    del grad_logits
    grad_h = grad_h_at_W2 @ W2.T
    grad_W2 = h.T @ grad_h_at_W2
    del grad_h_at_W2
    # h = np.tanh(X @ W1 + b1)
    grad_X_at_W1_plus_b1 = grad_h * (1 - h ** 2)
    del grad_h, h
    grad_X_at_W1 = grad_X_at_W1_plus_b1
    grad_b1 = np.sum(grad_X_at_W1_plus_b1, axis=0)
    del grad_X_at_W1_plus_b1
    grad_W1 = X.T @ grad_X_at_W1
    return grad_W1, grad_b1, grad_W2, grad_b2
