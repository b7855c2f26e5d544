def grad_mlp_loss(W1, b1, W2, b2, X, Y):
    # h = np.tanh(X @ W1 + b1)
    X_at_W1 = X @ W1
    h = np.tanh(X_at_W1 + b1)
    # logits = h @ W2 + b2
    h_at_W2 = h @ W2
    logits = h_at_W2 + b2
    # shifted = logits - np.max(logits, axis=1, keepdims=True)
    max_logits = np.max(logits, axis=1, keepdims=True)
    shifted = logits - max_logits
    # log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    exp_shifted = np.exp(shifted)
    sum_exp_shifted = np.sum(exp_shifted, axis=1, keepdims=True)
    log_sum_exp_shifted = np.log(sum_exp_shifted)
    log_probs = shifted - log_sum_exp_shifted
    # return -np.mean(np.sum(Y * log_probs, axis=1))
    Y_times_log_probs = Y * log_probs
    sum_Y_times_log_probs = np.sum(Y_times_log_probs, axis=1)
    # the backward sweep reads only the shapes of these: let their elements go
    X_at_W1 = shape_only(X_at_W1)
    Y_times_log_probs = shape_only(Y_times_log_probs)
    h_at_W2 = shape_only(h_at_W2)
    log_probs = shape_only(log_probs)
    log_sum_exp_shifted = shape_only(log_sum_exp_shifted)
    shifted = shape_only(shifted)
    sum_Y_times_log_probs = shape_only(sum_Y_times_log_probs)
    grad_mlp_loss_value = 1.0
    # return -np.mean(np.sum(Y * log_probs, axis=1))
    grad_mean_sum_Y_times_log = -grad_mlp_loss_value
    grad_sum_Y_times_log_probs = unreduce(grad_mean_sum_Y_times_log
                                          / element_count(sum_Y_times_log_probs),
                                          sum_Y_times_log_probs)
    grad_Y_times_log_probs = unreduce(grad_sum_Y_times_log_probs, Y_times_log_probs, axis=1)
    grad_log_probs = unbroadcast(grad_Y_times_log_probs * Y, log_probs)
    # log_probs = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    grad_shifted = unbroadcast(grad_log_probs, shifted)
    grad_log_sum_exp_shifted = unbroadcast(-grad_log_probs, log_sum_exp_shifted)
    del grad_log_probs
    grad_sum_exp_shifted = grad_log_sum_exp_shifted / sum_exp_shifted
    del grad_log_sum_exp_shifted, sum_exp_shifted
    grad_exp_shifted = unreduce(grad_sum_exp_shifted, exp_shifted, axis=1, keepdims=True)
    del grad_sum_exp_shifted
    grad_shifted = grad_shifted + grad_exp_shifted * exp_shifted
    del exp_shifted
    # shifted = logits - np.max(logits, axis=1, keepdims=True)
    grad_logits = unbroadcast(grad_shifted, logits)
    grad_max_logits = unbroadcast(-grad_shifted, max_logits)
    del grad_shifted
    grad_logits = (grad_logits
                   + unreduce(grad_max_logits, logits, axis=1, keepdims=True)
                     * tie_weights(logits, max_logits, axis=1, keepdims=True))
    del grad_max_logits, logits, max_logits
    # logits = h @ W2 + b2
    grad_h_at_W2 = unbroadcast(grad_logits, h_at_W2)
    grad_b2 = unbroadcast(grad_logits, b2)
    del grad_logits
    grad_h = matmul_vjp_x1(grad_h_at_W2, h, W2)
    grad_W2 = matmul_vjp_x2(grad_h_at_W2, h, W2)
    del grad_h_at_W2
    # h = np.tanh(X @ W1 + b1)
    grad_X_at_W1_plus_b1 = grad_h * (1 - h ** 2)
    del grad_h, h
    grad_X_at_W1 = unbroadcast(grad_X_at_W1_plus_b1, X_at_W1)
    grad_b1 = unbroadcast(grad_X_at_W1_plus_b1, b1)
    del grad_X_at_W1_plus_b1
    grad_W1 = matmul_vjp_x2(grad_X_at_W1, X, W1)
    return (as_gradient(grad_W1, W1), as_gradient(grad_b1, b1), as_gradient(grad_W2, W2),
            as_gradient(grad_b2, b2))
