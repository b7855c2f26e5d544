def jvp_rnn_loss(Wx, Wh, xs, target, tangent_Wx, tangent_Wh):
    h = np.zeros(Wh.shape[0])
    # for t in range(xs.shape[0]):
    tangent_h = zeros_like_grad(h)
    for t in range(xs.shape[0]):
        # h = np.tanh(xs[t] @ Wx + h @ Wh)
        xs_t_at_Wx = xs[t] @ Wx
        tangent_xs_t_at_Wx = np.matmul(xs[t], tangent_Wx)
        h_at_Wh = h @ Wh
        tangent_h_at_Wh = np.matmul(tangent_h, Wh) + np.matmul(h, tangent_Wh)
        xs_t_at_Wx_plus_h_at_Wh = xs_t_at_Wx + h_at_Wh
        tangent_xs_t_at_Wx_plus_h_at_Wh = (broadcast_like(tangent_xs_t_at_Wx,
                                                          xs_t_at_Wx_plus_h_at_Wh)
                                           + broadcast_like(tangent_h_at_Wh,
                                                            xs_t_at_Wx_plus_h_at_Wh))
        h = np.tanh(xs_t_at_Wx_plus_h_at_Wh)
        tangent_h = tangent_xs_t_at_Wx_plus_h_at_Wh * (1 - h ** 2)
    # return np.sum((h - target) ** 2)
    h_minus_target = h - target
    tangent_h_minus_target = broadcast_like(tangent_h, h_minus_target)
    h_minus_target_sq = h_minus_target ** 2
    tangent_h_minus_target_sq = tangent_h_minus_target * 2 * h_minus_target
    rnn_loss_value = np.sum(h_minus_target_sq)
    tangent_rnn_loss_value = np.sum(tangent_h_minus_target_sq)
    return rnn_loss_value, tangent_rnn_loss_value
