def grad_loss_with_accuracy(w, x, labels):
    scores = x @ w
    accuracy = np.mean((scores > 0) == labels)
    # return np.mean(np.logaddexp(0.0, -scores * (2 * labels - 1))), accuracy
    neg_scores = -scores
    neg_scores_times_2_times = neg_scores * (2 * labels - 1)
    aux = accuracy
    # the backward sweep reads only the shapes of these: let their elements go
    neg_scores = shape_only(neg_scores)
    grad_loss_with_accuracy_output = 1.0
    # return np.mean(np.logaddexp(0.0, -scores * (2 * labels - 1))), accuracy
    grad_logaddexp_0 = unreduce(grad_loss_with_accuracy_output
                                / element_count(neg_scores_times_2_times), neg_scores_times_2_times)
    grad_neg_scores_times_2_times = (grad_logaddexp_0
                                     * (0.5 + 0.5 * np.tanh(0.5 * neg_scores_times_2_times)))
    del neg_scores_times_2_times
    grad_neg_scores = unbroadcast(grad_neg_scores_times_2_times * (2 * labels - 1), neg_scores)
    del grad_neg_scores_times_2_times
    grad_scores = -grad_neg_scores
    del grad_neg_scores
    # scores = x @ w
    grad_w = matmul_vjp_x2(grad_scores, x, w)
    return as_gradient(grad_w, w), aux
