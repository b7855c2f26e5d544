def grad_step_loop(w, xs):
    h = np.zeros(xs.shape[1])
    # for t in range(xs.shape[0]):
    step_h_saved_stack = []
    for t in range(xs.shape[0]):
        # h, _cache = step(h, xs[t], w)
        step_h, step_h_saved = forward_step(h, xs[t], w)
        step_h_saved_stack.append(step_h_saved)
        h, _cache = step_h
    # return np.sum(h ** 2)
    h_sq = shape_of_elementwise(h, 2)
    grad_step_loop_value = 1.0
    # return np.sum(h ** 2)
    grad_h_sq = unreduce(grad_step_loop_value, h_sq)
    grad_h = grad_h_sq * 2 * h
    del h
    # for t in range(xs.shape[0]):
    grad_w = zeros_like_grad(w)
    for t in reversed(range(xs.shape[0])):
        # h, _cache = step(h, xs[t], w)
        grad_step_h = [grad_h, None]
        step_h_saved = step_h_saved_stack.pop()
        grads_step = backward_step(grad_step_h, step_h_saved)
        grad_h = grads_step[0]
        grad_w = add_grads(grad_w, grads_step[1])
    return as_gradient(grad_w, w)


def forward_step(h, x, w):
    # new_h = np.tanh(h * w + x)
    h_times_w = h * w
    new_h = np.tanh(h_times_w + x)
    cache = h, new_h
    # return new_h, cache
    result = new_h, no_cotangent(cache)
    # the backward sweep reads only the shapes of these: let their elements go
    h_times_w = shape_only(h_times_w)
    return result, (new_h, h_times_w, h, w)


def backward_step(grad_result, saved):
    new_h, h_times_w, h, w = saved
    # return new_h, cache
    grad_new_h = grad_result[0]
    # new_h = np.tanh(h * w + x)
    grad_h_times_w_plus_x = grad_new_h * (1 - new_h ** 2)
    del grad_new_h, new_h
    grad_h_times_w = unbroadcast(grad_h_times_w_plus_x, h_times_w)
    del grad_h_times_w_plus_x
    grad_h = unbroadcast(grad_h_times_w * w, h)
    grad_w = unbroadcast(grad_h_times_w * h, w)
    return grad_h, grad_w
