"""filter_logits applies the top_p cut before the top_k cut (the syllabus: top_k first, then top_p on the renormalised probabilities).

answers: solution
loses: test_filter_logits
hint: top_k first, renormalised (0.625, 0.375), then top_p on those
"""
# %% filter_logits
def filter_logits(logits, temperature=1.0, top_k=None, top_p=None):
    log_p = torch.log_softmax(logits / temperature, dim=-1)
    if top_p is not None:
        sorted_log_p = log_p.sort(dim=-1, descending=True).values
        p = sorted_log_p.exp()
        kept = ((p.cumsum(dim=-1) - p) < top_p).sum(dim=-1, keepdim=True).clamp(min=1)
        last = sorted_log_p.gather(-1, kept - 1)
        log_p = torch.log_softmax(log_p.masked_fill(log_p < last, float("-inf")), dim=-1)
    if top_k is not None:
        kth = log_p.topk(min(top_k, log_p.shape[-1]), dim=-1).values[:, -1:]
        log_p = torch.log_softmax(log_p.masked_fill(log_p < kth, float("-inf")), dim=-1)
    return log_p
