"""Skip-gram with negative sampling, as in a course assignment: a loss for one (center word,
outside word) pair, called once per outside word, reading a few rows of the embedding
matrices. The hand-written backward adds each call's rows into the gradients the caller owns
(``np.add.at`` for the negative samples, which may repeat)."""

import numpy as np

NAME = "word2vec negative sampling, per word"
WRT = ("center_vectors", "outside_vectors")


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def neg_sampling_loss(center_vec, outside_idx, outside_vectors, neg_indices):
    u_o = outside_vectors[outside_idx]
    u_k = outside_vectors[neg_indices]
    positive = -np.log(sigmoid(u_o @ center_vec))
    negative = -np.sum(np.log(sigmoid(-(u_k @ center_vec))))
    return positive + negative


def skipgram(center_idx, outside_idxs, center_vectors, outside_vectors, negatives):
    center_vec = center_vectors[center_idx]
    loss = 0.0
    for j in range(len(outside_idxs)):
        loss = loss + neg_sampling_loss(center_vec, outside_idxs[j], outside_vectors,
                                        negatives[j])
    return loss


def loss(center_vectors, outside_vectors, centers, contexts, negatives):
    total = 0.0
    for i in range(len(centers)):
        total = total + skipgram(centers[i], contexts[i], center_vectors, outside_vectors,
                                 negatives[i])
    return total / len(centers)


def neg_sampling_loss_and_grad(center_vec, outside_idx, outside_vectors, neg_indices):
    u_o = outside_vectors[outside_idx]
    u_k = outside_vectors[neg_indices]
    s_o = sigmoid(u_o @ center_vec)
    s_k = sigmoid(-(u_k @ center_vec))
    loss = -np.log(s_o) - np.sum(np.log(s_k))
    grad_center = (s_o - 1.0) * u_o + (1.0 - s_k) @ u_k
    grad_u_o = (s_o - 1.0) * center_vec
    grad_u_k = np.outer(1.0 - s_k, center_vec)
    return loss, grad_center, grad_u_o, grad_u_k


def loss_and_grad_by_hand(center_vectors, outside_vectors, centers, contexts, negatives):
    grad_center_vectors = np.zeros_like(center_vectors)
    grad_outside_vectors = np.zeros_like(outside_vectors)
    total = 0.0
    for i in range(len(centers)):
        center_vec = center_vectors[centers[i]]
        for j in range(len(contexts[i])):
            loss_j, grad_c, grad_o, grad_k = neg_sampling_loss_and_grad(
                center_vec, contexts[i][j], outside_vectors, negatives[i][j])
            total += loss_j
            grad_center_vectors[centers[i]] += grad_c
            grad_outside_vectors[contexts[i][j]] += grad_o
            np.add.at(grad_outside_vectors, negatives[i][j], grad_k)
    scale = 1.0 / len(centers)
    return total * scale, (grad_center_vectors * scale, grad_outside_vectors * scale)


def make_args(small=False):
    words, dim, batch, window, samples = (7, 3, 2, 2, 3) if small else (2000, 50, 5, 6, 10)
    rng = np.random.default_rng(1)
    center_vectors = 0.3 * rng.standard_normal((words, dim))
    outside_vectors = 0.3 * rng.standard_normal((words, dim))
    centers = [int(c) for c in rng.integers(0, words, batch)]
    contexts = [[int(o) for o in rng.integers(0, words, window)] for _ in range(batch)]
    negatives = [[rng.integers(0, words, samples) for _ in range(window)] for _ in range(batch)]
    return center_vectors, outside_vectors, centers, contexts, negatives
