"""Reference implementation of the course "Neural sequence models for NLP".

Every graded function of the syllabus lives here under the name the syllabus gives
it, in a module named after the concept it implements, and is re-exported here
(``seqmodels.mean_pool``), as is the one algorithm a chapter shows without grading it
(``ctc_prefix_beam_search``). The chapter notebooks import their helpers from this
package; the autograder compares student answers with it.
"""
from seqmodels.decoding.search import beam_search, greedy_decode
from seqmodels.embeddings.glove import glove_loss
from seqmodels.embeddings.similarity import analogy, cosine_similarity, most_similar
from seqmodels.embeddings.word2vec import negative_sampling_loss, noise_distribution, skipgram_pairs
from seqmodels.layers.activations import log_softmax, sigmoid, softmax, softplus
from seqmodels.layers.attention import (additive_attention, attention_heads, multi_head_attention,
                                       scaled_dot_product_attention)
from seqmodels.layers.bidirectional import bilstm_encode, reverse_padded
from seqmodels.layers.convolution import char_cnn_word_vector, conv1d_same, conv2d, max_over_time, receptive_field
from seqmodels.layers.embedding import embed, onehot
from seqmodels.layers.gated import gate_update, gru_step, lstm_encode, lstm_step
from seqmodels.layers.gpt import attend_with_cache, gpt_block
from seqmodels.layers.linear import ffnn, linear
from seqmodels.layers.linear_attention import linear_attention
from seqmodels.layers.long_convolution import causal_conv_fft
from seqmodels.layers.normalization import add_and_norm, layer_norm, rms_norm
from seqmodels.layers.parameters import count_parameters
from seqmodels.layers.pooling import max_pool, mean_pool, sum_pool
from seqmodels.layers.positional import (add_positions, binary_pe, offset_pe, pe_shift_matrix, relative_distances,
                                         sinusoidal_pe)
from seqmodels.layers.recurrent import rnn_encode, rnn_step
from seqmodels.layers.rotary import rope
from seqmodels.layers.sampling import filter_logits, sample_tokens, temperature_softmax
from seqmodels.layers.scan import linear_scan
from seqmodels.layers.selective import selective_scan
from seqmodels.layers.stacking import stack
from seqmodels.layers.state_space import discretize, ssm_kernel
from seqmodels.layers.transformer import decoder_block, encoder_block, position_wise_ffn, transformer_encode
from seqmodels.metrics.bleu import bleu
from seqmodels.structured.crf import crf_log_partition, crf_nll, crf_score, crf_viterbi, hmm_viterbi
from seqmodels.structured.ctc import (ctc_alpha, ctc_collapse, ctc_extend, ctc_greedy_decode, ctc_loss,
                                     ctc_prefix_beam_search)
from seqmodels.text.batching import pad_batch
from seqmodels.text.bpe import bpe_encode, bpe_train
from seqmodels.text.lm_pairs import lm_pairs
from seqmodels.text.vocab import PAD, UNK, build_vocab, decode, encode
from seqmodels.training.clipping import clip_grad_norm
from seqmodels.training.losses import label_smoothed_nll, perplexity, sequence_nll
from seqmodels.training.schedules import warmup_rate

__all__ = [
    # 01 From tokens to vectors
    "PAD", "UNK", "build_vocab", "decode", "embed", "encode", "onehot", "pad_batch",
    # 02 Pooling and composition
    "ffnn", "linear", "log_softmax", "max_pool", "mean_pool", "sigmoid", "softmax", "softplus", "sum_pool",
    # 03 Learning word embeddings
    "analogy", "cosine_similarity", "glove_loss", "most_similar", "negative_sampling_loss", "noise_distribution",
    "skipgram_pairs",
    # 04 Recurrent networks
    "clip_grad_norm", "lm_pairs", "perplexity", "rnn_encode", "rnn_step", "sequence_nll", "temperature_softmax",
    # 05 Gated recurrent units: LSTM and GRU
    "count_parameters", "gate_update", "gru_step", "lstm_encode", "lstm_step",
    # 06 Bidirectional and deep RNNs
    "bilstm_encode", "reverse_padded", "stack",
    # 07 Convolutional sequence models
    "char_cnn_word_vector", "conv1d_same", "conv2d", "max_over_time", "receptive_field",
    # 08 Positional encoding
    "add_positions", "binary_pe", "offset_pe", "pe_shift_matrix", "relative_distances", "sinusoidal_pe",
    # 09 Connectionist temporal classification
    "ctc_alpha", "ctc_collapse", "ctc_extend", "ctc_greedy_decode", "ctc_loss", "ctc_prefix_beam_search",
    # 10 Sequence labelling with CRFs
    "crf_log_partition", "crf_nll", "crf_score", "crf_viterbi", "hmm_viterbi",
    # 11 Sequence-to-sequence models and attention
    "add_and_norm", "additive_attention", "beam_search", "bleu", "greedy_decode", "layer_norm", "multi_head_attention",
    "scaled_dot_product_attention",
    # 12 The Transformer
    "attention_heads", "decoder_block", "encoder_block", "label_smoothed_nll", "position_wise_ffn",
    "transformer_encode", "warmup_rate",
    # 13 Subword tokens and generative Transformer language models
    "attend_with_cache", "bpe_encode", "bpe_train", "filter_logits", "gpt_block", "rope", "sample_tokens",
    # 14 State-space models: recurrences that train like convolutions
    "causal_conv_fft", "discretize", "linear_attention", "linear_scan", "rms_norm", "selective_scan", "ssm_kernel",
]
