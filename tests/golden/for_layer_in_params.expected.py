def grad_layers_loss(params, x, y):
    h = x
    # for layer in params:
    h_stack = []
    layer_b_stack = []
    h_at_layer_w_stack = []
    layer_w_stack = []
    layer_stack = []
    for i in range(len(params)):
        # for layer in params:
        layer = params[i]
        layer_stack.append(shape_only(layer))
        # h = np.tanh(h @ layer["w"] + layer["b"])
        layer_w = layer['w']
        layer_w_stack.append(layer_w)
        h_at_layer_w = h @ layer_w
        h_at_layer_w_stack.append(shape_only(h_at_layer_w))
        layer_b = layer['b']
        layer_b_stack.append(shape_only(layer_b))
        h_at_layer_w_plus_layer = h_at_layer_w + layer_b
        h_stack.append(h)
        h = np.tanh(h_at_layer_w_plus_layer)
    # return np.mean((h - y) ** 2)
    h_minus_y = h - y
    grad_layers_loss_value = 1.0
    # return np.mean((h - y) ** 2)
    grad_h_minus_y_sq = unreduce(grad_layers_loss_value / element_count(h_minus_y), h_minus_y)
    grad_h_minus_y = grad_h_minus_y_sq * 2 * h_minus_y
    del h_minus_y
    grad_h = unbroadcast(grad_h_minus_y, h)
    del grad_h_minus_y
    # for layer in params:
    grad_params = zero_slots(params)
    for i in reversed(range(len(params))):
        layer_b = layer_b_stack.pop()
        h_at_layer_w = h_at_layer_w_stack.pop()
        layer_w = layer_w_stack.pop()
        layer = layer_stack.pop()
        # h = np.tanh(h @ layer["w"] + layer["b"])
        grad_h_at_layer_w_plus_layer = grad_h * (1 - h ** 2)
        h = h_stack.pop()
        grad_h_at_layer_w = unbroadcast(grad_h_at_layer_w_plus_layer, h_at_layer_w)
        grad_layer_b = unbroadcast(grad_h_at_layer_w_plus_layer, layer_b)
        grad_h = matmul_vjp_x1(grad_h_at_layer_w, h, layer_w)
        grad_layer_w = matmul_vjp_x2(grad_h_at_layer_w, h, layer_w)
        grad_layer = zeros_like_grad_with(layer, {'w': grad_layer_w, 'b': grad_layer_b})
        # for layer in params:
        grad_params[i] = add_grads(grad_params[i], grad_layer)
    return as_gradient(grad_params, params)
