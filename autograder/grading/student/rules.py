"""The syllabus's rules for graded functions, as data.

``FORBIDDEN`` maps each graded function to the library calls that would solve it
for the student. Using one, directly or through any alias, or running code from
the reference package, fails every test of that function. ``"f(arg)"`` forbids the
Python function or module class ``f`` only when it is called with ``arg`` set (not
None, 0 or False).
"""
REFERENCE_PACKAGE = "seqmodels"

_LINEAR = ("torch.nn.functional.linear", "torch.nn.Linear", "torch.addmm")
_LOGSUMEXP = ("torch.logsumexp", "torch.Tensor.logsumexp", "torch.special.logsumexp")
_LOG_SOFTMAX = ("torch.log_softmax", "torch.Tensor.log_softmax", "torch.nn.functional.log_softmax",
                "torch.special.log_softmax", "torch.nn.LogSoftmax")
_ATTENTION = ("torch.nn.functional.scaled_dot_product_attention", "torch.nn.MultiheadAttention",
              "torch.nn.functional.multi_head_attention_forward", "torch._native_multi_head_attention")
_LAYER_NORM = ("torch.nn.functional.layer_norm", "torch.layer_norm", "torch.native_layer_norm", "torch.nn.LayerNorm")
# PyTorch's transformer layers, and the fused op an encoder layer runs in evaluation
_TRANSFORMER = ("torch.nn.TransformerEncoderLayer", "torch.nn.TransformerEncoder", "torch.nn.TransformerDecoderLayer",
                "torch.nn.TransformerDecoder", "torch.nn.Transformer", "torch._transformer_encoder_layer_fwd")

_SOFTMAX = ("torch.softmax", "torch.Tensor.softmax", "torch.nn.functional.softmax", "torch.special.softmax",
            "torch.nn.Softmax", *_LOG_SOFTMAX, *_LOGSUMEXP)
_CROSS_ENTROPY = ("torch.nn.functional.cross_entropy", "torch.nn.functional.nll_loss", "torch.nn.CrossEntropyLoss",
                  "torch.nn.NLLLoss", *_LOG_SOFTMAX)
_RNN = ("torch.nn.RNNCell", "torch.rnn_tanh_cell", "torch.nn.RNN", "torch.rnn_tanh")
_LSTM = ("torch.nn.LSTM", "torch.nn.LSTMCell", "torch.lstm", "torch.lstm_cell", "torch.quantized_lstm_cell",
         "torch._lstm_mps")
# F.convNd is torch.convNd; unfold cuts out every window in one call; the max-pool layers pool over time in one
_CONVOLUTION = ("torch.nn.functional.conv1d", "torch.nn.functional.conv2d", "torch.nn.functional.conv3d",
                "torch.nn.functional.conv_transpose1d", "torch.nn.functional.conv_transpose2d", "torch.convolution",
                "torch.nn.Conv1d", "torch.nn.Conv2d", "torch.nn.Conv3d", "torch.nn.ConvTranspose1d",
                "torch.nn.ConvTranspose2d", "torch._convolution", "torch.cudnn_convolution",
                "torch.mkldnn_convolution", "torch.conv_tbc")  # the ops under F.convNd, reachable from torch too
_UNFOLD = ("torch.nn.functional.unfold", "torch.Tensor.unfold", "torch.nn.Unfold")
_MAX_POOL = ("torch.nn.functional.max_pool1d", "torch.nn.functional.adaptive_max_pool1d", "torch.max_pool1d",
             "torch.adaptive_max_pool1d", "torch.nn.MaxPool1d", "torch.nn.AdaptiveMaxPool1d")
# NumPy's functions that an answer would compute with outside autograd (the FFT, the convolution, the cumulative
# ones, the conversion from a tensor)
_NUMPY = ("numpy.fft.fft", "numpy.fft.rfft", "numpy.fft.irfft", "numpy.fft.ifft", "numpy.convolve", "numpy.cumsum",
          "numpy.cumprod", "numpy.asarray", "numpy.array", "torch.Tensor.numpy")
_CTC = ("torch.nn.functional.ctc_loss", "torch.nn.CTCLoss", "torch.ctc_loss", "torch._ctc_loss")

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
    "softmax": _SOFTMAX,
    "log_softmax": (*_LOG_SOFTMAX, "torch.softmax", "torch.Tensor.softmax", "torch.nn.functional.softmax",
                    *_LOGSUMEXP),
    "ffnn": _LINEAR,
    # 03 Learning word embeddings
    "cosine_similarity": ("torch.nn.functional.cosine_similarity", "torch.cosine_similarity",
                          "torch.nn.CosineSimilarity"),
    # 04 Recurrent networks (a loss/softmax that the student's own log-sum-exp must replace; PyTorch's RNN cells)
    "rnn_step": _RNN,
    "rnn_encode": _RNN,
    "sequence_nll": _CROSS_ENTROPY,
    "perplexity": _CROSS_ENTROPY,
    "temperature_softmax": _SOFTMAX,
    "clip_grad_norm": ("torch.nn.utils.clip_grad_norm_", "torch.nn.utils.clip_grad_norm",
                       "torch.nn.utils.get_total_norm", "torch.nn.utils.clip_grads_with_norm_"),
    # 05 Gated recurrent units: LSTM and GRU (torch._VF.* are these same builtins; lerp is gate_update in one call)
    "gate_update": ("torch.lerp", "torch.Tensor.lerp", "torch.Tensor.lerp_"),
    "lstm_step": _LSTM,
    "gru_step": ("torch.nn.GRU", "torch.nn.GRUCell", "torch.gru", "torch.gru_cell", "torch.quantized_gru_cell"),
    "lstm_encode": _LSTM,
    # constructing a layer and counting its parameters is the shortcut (RNNBase/RNNCellBase: every such layer)
    "count_parameters": ("torch.nn.RNN", "torch.nn.LSTM", "torch.nn.GRU", "torch.nn.RNNBase", "torch.nn.RNNCell",
                         "torch.nn.LSTMCell", "torch.nn.GRUCell", "torch.nn.RNNCellBase"),
    # 06 Bidirectional and deep RNNs (reverse_padded and stack have no one-call shortcut; flip is allowed)
    "bilstm_encode": _LSTM,
    # 07 Convolutional sequence models
    "conv2d": (*_CONVOLUTION, *_UNFOLD),
    "conv1d_same": _CONVOLUTION,
    "max_over_time": _MAX_POOL,
    "char_cnn_word_vector": (*_CONVOLUTION, *_MAX_POOL),
    # 08 Positional encoding
    # (no PyTorch call computes the encodings; the pairwise-distance one-liner is the shortcut to forbid)
    "relative_distances": ("torch.cdist",),
    # 09 Connectionist temporal classification
    # (the loss and its forward variables; collapsing and best-path decoding have no one-call shortcut)
    "ctc_alpha": _CTC,
    "ctc_loss": _CTC,
    # 10 Sequence labelling with CRFs (logsumexp and max are building blocks here; pytorch-crf's module is the shortcut)
    **{name: ("torchcrf.CRF",) for name in ("hmm_viterbi", "crf_score", "crf_log_partition", "crf_nll", "crf_viterbi")},
    # 11 Sequence-to-sequence models and attention
    "scaled_dot_product_attention": _ATTENTION,
    "multi_head_attention": _ATTENTION,
    "layer_norm": _LAYER_NORM,
    "add_and_norm": _LAYER_NORM,
    # (softmax is allowed in every attention; the searches and additive attention have no one-call shortcut;
    # sacrebleu, installed for the reference's tests, is the shortcut for bleu)
    "bleu": ("sacrebleu.sentence_bleu", "sacrebleu.corpus_bleu", "sacrebleu.metrics.bleu.BLEU"),
    # 12 The Transformer (the FFN is chapter 02's ffnn at every position, under ffnn's rule; a block is built of
    # attention and layer norm, so PyTorch's versions of those are shortcuts for it as much as its layer is)
    "position_wise_ffn": _LINEAR,
    "attention_heads": _ATTENTION,
    **{name: (*_TRANSFORMER, *_ATTENTION, *_LAYER_NORM) for name in ("encoder_block", "decoder_block",
                                                                     "transformer_encode")},
    # the loss with label smoothing in one call: "(label_smoothing)" forbids them only when given a label_smoothing
    # (the syllabus's words; plain cross-entropy plus the smoothing term is a right answer); the schedule has no
    # one-call shortcut
    "label_smoothed_nll": ("torch.nn.functional.cross_entropy(label_smoothing)",
                           "torch.nn.CrossEntropyLoss(label_smoothing)"),
    # 13 Subword tokens and generative Transformer language models (bpe_train, bpe_encode and rope have no PyTorch
    # shortcut; the tokenizers library's BPE is one for the first two)
    "bpe_train": ("tokenizers.Tokenizer", "tokenizers.models.BPE", "tokenizers.trainers.BpeTrainer"),
    "bpe_encode": ("tokenizers.Tokenizer", "tokenizers.models.BPE"),
    "gpt_block": (*_TRANSFORMER, *_ATTENTION, *_LAYER_NORM),
    "attend_with_cache": _ATTENTION,
    # 14 State-space models (rms_norm's shortcut is PyTorch's RMSNorm; causal_conv_fft must not hand the convolution
    # to chapter 07's conv1d; NumPy would compute outside autograd's sight; the scans, the discretisation, the kernel
    # and linear attention have no one-call shortcut in PyTorch)
    "rms_norm": ("torch.nn.functional.rms_norm", "torch.rms_norm", "torch.nn.RMSNorm"),
    "causal_conv_fft": (*_CONVOLUTION, *_NUMPY),
    "linear_scan": _NUMPY,
    "selective_scan": _NUMPY,
}
