def grad_affine_loss(p, x, y):
    # prediction = x @ p.w + p.b
    p_w = p.w
    x_at_p_w = x @ p_w
    p_b = p.b
    prediction = x_at_p_w + p_b
    # return np.mean((prediction - y) ** 2)
    prediction_minus_y = prediction - y
    # the backward sweep reads only the shapes of these: let their elements go
    p_b = shape_only(p_b)
    prediction = shape_only(prediction)
    x_at_p_w = shape_only(x_at_p_w)
    grad_affine_loss_value = 1.0
    # return np.mean((prediction - y) ** 2)
    grad_prediction_minus_y_sq = unreduce(grad_affine_loss_value
                                          / element_count(prediction_minus_y), prediction_minus_y)
    grad_prediction_minus_y = grad_prediction_minus_y_sq * 2 * prediction_minus_y
    del prediction_minus_y
    grad_prediction = unbroadcast(grad_prediction_minus_y, prediction)
    del grad_prediction_minus_y
    # prediction = x @ p.w + p.b
    grad_x_at_p_w = unbroadcast(grad_prediction, x_at_p_w)
    grad_p_b = unbroadcast(grad_prediction, p_b)
    del grad_prediction
    grad_p_w = matmul_vjp_x2(grad_x_at_p_w, x, p_w)
    del grad_x_at_p_w, p_w
    grad_p = zeros_like_grad_with(p, {'w': grad_p_w, 'b': grad_p_b})
    return as_gradient(grad_p, p)
