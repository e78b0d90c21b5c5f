"""Forbidden shortcuts: sacrebleu for bleu, F.scaled_dot_product_attention (which multi_head_attention then runs too), F.layer_norm (which add_and_norm then runs too).

answers: solution
loses: test_bleu_example test_bleu_brevity test_bleu_edges test_sdpa_example test_sdpa_masks test_sdpa_edges test_mha_torch test_mha_causal test_layer_norm_torch test_layer_norm_edges test_add_and_norm
hint: builds on your layer_norm
hint: builds on your scaled_dot_product_attention
"""
# %% bleu
from sacrebleu.metrics import BLEU


def bleu(candidate, references, max_n=4):
    scorer = BLEU(tokenize="none", smooth_method="none", max_ngram_order=max_n, effective_order=True)
    return scorer.sentence_score(" ".join(candidate), [" ".join(r) for r in references]).score / 100


# %% scaled_dot_product_attention
def scaled_dot_product_attention(Q, K, V, mask=None, causal=False):
    allowed = torch.ones(Q.shape[1], K.shape[1], dtype=torch.bool, device=Q.device)
    if causal:
        allowed = allowed.tril()
    if mask is not None:
        allowed = allowed & (mask.unsqueeze(-2) if mask.dim() == 2 else mask)
    out = F.scaled_dot_product_attention(Q, K, V, attn_mask=allowed)
    weights = torch.softmax((Q @ K.transpose(-2, -1) / math.sqrt(Q.shape[-1])).masked_fill(~allowed, float("-inf")), -1)
    return out, weights


# %% layer_norm
def layer_norm(x, gamma, beta, eps=1e-5):
    return F.layer_norm(x, (x.shape[-1],), gamma, beta, eps)
