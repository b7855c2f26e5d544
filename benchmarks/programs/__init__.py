"""Programs written the way public NumPy code with a hand-written backward pass is written
(course assignments' layers returning ``(out, cache)``, a textbook network's backprop over a
list of layers, a word2vec negative-sampling loss called once per word, a library's logistic
loss), each with its own hand-written forward+backward. ``benchmarks/real_programs.py`` times
``sg.grad`` of each loss against it; ``tests/test_real_programs.py`` checks they agree.

Each module defines:

    loss(...)                   the function handed to ``sg.grad``
    WRT                         the parameters differentiated
    loss_and_grad_by_hand(...)  the loss and the gradients of WRT, by hand (forward+backward)
    make_args(small)            arguments: the benchmark's sizes, or small ones for the tests
"""

from benchmarks.programs import batchnorm, conv_pool, logistic, mlp_layers, rnn_step, word2vec

PROGRAMS = (rnn_step, word2vec, mlp_layers, batchnorm, conv_pool, logistic)
