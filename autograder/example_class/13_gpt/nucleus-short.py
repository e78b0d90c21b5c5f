"""filter_logits keeps only the tokens whose running total stays below top_p, dropping the token that reaches it.

answers: solution
loses: test_filter_logits
hint: the token that reaches it is kept
"""
# %% filter_logits
def filter_logits(logits, temperature=1.0, top_k=None, top_p=None):
    log_p = torch.log_softmax(logits / temperature, dim=-1)
    if top_k is not None:
        kth = log_p.topk(min(top_k, log_p.shape[-1]), dim=-1).values[:, -1:]
        log_p = torch.log_softmax(log_p.masked_fill(log_p < kth, float("-inf")), dim=-1)
    if top_p is not None:
        sorted_log_p = log_p.sort(dim=-1, descending=True).values
        kept = (sorted_log_p.exp().cumsum(dim=-1) < top_p).sum(dim=-1, keepdim=True).clamp(min=1)
        last = sorted_log_p.gather(-1, kept - 1)
        log_p = torch.log_softmax(log_p.masked_fill(log_p < last, float("-inf")), dim=-1)
    return log_p
