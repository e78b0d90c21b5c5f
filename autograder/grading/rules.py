"""The syllabus's rules for graded functions, as data.

``FORBIDDEN`` maps each graded function to the library calls that would solve it
for the student. Using one, directly or through any alias, or running code from
the reference package, fails every test of that function.
"""
REFERENCE_PACKAGE = "seqmodels"

_LINEAR = ("torch.nn.functional.linear", "torch.nn.Linear", "torch.addmm")
_LOGSUMEXP = ("torch.logsumexp", "torch.Tensor.logsumexp", "torch.special.logsumexp")
_LOG_SOFTMAX = ("torch.log_softmax", "torch.Tensor.log_softmax", "torch.nn.functional.log_softmax",
                "torch.special.log_softmax", "torch.nn.LogSoftmax")

FORBIDDEN: dict[str, tuple[str, ...]] = {
    # 01 From tokens to vectors
    "onehot": ("torch.nn.functional.one_hot",),
    "embed": ("torch.nn.functional.embedding", "torch.embedding", "torch.nn.Embedding"),
    # 02 Pooling and composition (the pools have no single-call shortcut that respects a mask)
    "linear": _LINEAR,
    "sigmoid": ("torch.sigmoid", "torch.Tensor.sigmoid", "torch.nn.functional.sigmoid", "torch.special.expit",
                "torch.nn.Sigmoid"),
    # logaddexp(0, x) is softplus under another name
    "softplus": ("torch.nn.functional.softplus", "torch.nn.Softplus", "torch.logaddexp", *_LOGSUMEXP),
    "softmax": ("torch.softmax", "torch.Tensor.softmax", "torch.nn.functional.softmax", "torch.special.softmax",
                "torch.nn.Softmax", *_LOG_SOFTMAX, *_LOGSUMEXP),
    "log_softmax": (*_LOG_SOFTMAX, "torch.softmax", "torch.Tensor.softmax", "torch.nn.functional.softmax",
                    *_LOGSUMEXP),
    "ffnn": _LINEAR,
    # 03 Learning word embeddings
    "cosine_similarity": ("torch.nn.functional.cosine_similarity", "torch.cosine_similarity",
                          "torch.nn.CosineSimilarity"),
    # 04 Recurrent networks
    "clip_grad_norm": ("torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_norm",
                       "torch.nn.utils.get_total_norm", "torch.nn.utils.clip_grads_with_norm_"),
    # 05 Gated recurrent units: LSTM and GRU
    # 06 Bidirectional and deep RNNs
    # 07 Convolutional sequence models
    # 08 Positional encoding
    # 09 Connectionist temporal classification
    # 10 Sequence labelling with CRFs
    # 11 Sequence-to-sequence models and attention
}
