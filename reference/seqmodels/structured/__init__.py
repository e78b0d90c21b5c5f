"""Structured losses and decoders over sequences: CTC and linear-chain CRFs.

The readable versions (``ctc.py``, ``crf.py``) are the chapters' references; beside them, fast paths with
the same results: ``fused_ctc_loss`` (α and β in Triton kernels where Triton runs, the gradient from them),
``crf_log_partition_scan`` (log Z by a log-depth scan, which ``crf_nll`` uses on a GPU) and
``crf_viterbi_fused`` (Viterbi in one Triton kernel)."""
from seqmodels.structured.crf import crf_viterbi_fused
from seqmodels.structured.crf_scan import crf_log_partition_scan
from seqmodels.structured.ctc_fused import fused_ctc_loss

__all__ = ["crf_log_partition_scan", "crf_viterbi_fused", "fused_ctc_loss"]
