"""Reference implementation of the course "Neural sequence models for NLP".

Every graded function of the syllabus lives here under the name the syllabus gives
it, in a module named after the concept it implements. The chapter notebooks
import their helpers from this package; the autograder compares student answers
with it.
"""
from seqmodels.layers.embedding import embed, onehot
from seqmodels.text.batching import pad_batch
from seqmodels.text.vocab import PAD, UNK, build_vocab, decode, encode

__all__ = ["PAD", "UNK", "build_vocab", "decode", "embed", "encode", "onehot", "pad_batch"]
