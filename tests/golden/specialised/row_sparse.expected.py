def grad_pairs_loss(v, pairs):
    # for i in range(len(pairs)):
    pair_loss_v_saved_stack = []
    for i in range(len(pairs)):
        # total = total + pair_loss(v, pairs[i][0], pairs[i][1])
        pairs_i_0 = pairs[i][0]
        pair_loss_v, pair_loss_v_saved = forward_pair_loss(v, pairs_i_0, pairs[i][1])
        pair_loss_v_saved_stack.append(pair_loss_v_saved)
    grad_pairs_loss_value = 1.0
    # return total
    grad_total = grad_pairs_loss_value
    # for i in range(len(pairs)):
    grad_v = row_sparse_zeros(v)
    for i in reversed(range(len(pairs))):
        # total = total + pair_loss(v, pairs[i][0], pairs[i][1])
        grad_total_plus_pair_loss_v = grad_total
        grad_total = grad_total_plus_pair_loss_v
        pair_loss_v_saved = pair_loss_v_saved_stack.pop()
        grad_v = add_grads(grad_v,
                           backward_pair_loss(grad_total_plus_pair_loss_v, pair_loss_v_saved)[0])
    return as_gradient(grad_v, v)


def forward_pair_loss(v, a, b):
    # return np.log1p(np.exp(-(v[a] @ v[b])))
    v_a = v[a]
    v_b = v[b]
    exp_neg_v_a_at_v_b = np.exp(-(v_a @ v_b))
    pair_loss_value = np.log1p(exp_neg_v_a_at_v_b)
    return pair_loss_value, (exp_neg_v_a_at_v_b, v_a, v_b, v, b, a)


def backward_pair_loss(grad_pair_loss_value, saved):
    exp_neg_v_a_at_v_b, v_a, v_b, v, b, a = saved
    # return np.log1p(np.exp(-(v[a] @ v[b])))
    grad_exp_neg_v_a_at_v_b = grad_pair_loss_value / (1 + exp_neg_v_a_at_v_b)
    grad_neg_v_a_at_v_b = grad_exp_neg_v_a_at_v_b * exp_neg_v_a_at_v_b
    del exp_neg_v_a_at_v_b, grad_exp_neg_v_a_at_v_b
    grad_v_a_at_v_b = -grad_neg_v_a_at_v_b
    del grad_neg_v_a_at_v_b
    grad_v_a = matmul_vjp_x1(grad_v_a_at_v_b, v_a, v_b)
    grad_v_b = matmul_vjp_x2(grad_v_a_at_v_b, v_a, v_b)
    del grad_v_a_at_v_b, v_a, v_b
    grad_v = row_sparse_zeros(v)
    add_at(grad_v, b, grad_v_b)
    del grad_v_b
    add_at(grad_v, a, grad_v_a)
    return grad_v,
