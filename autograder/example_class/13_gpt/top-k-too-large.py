"""filter_logits passes top_k to torch.topk as it is, which raises when top_k exceeds the vocabulary (the cut then keeps every token).

answers: solution
loses: test_filter_logits
hint: none
"""
# %% filter_logits
def filter_logits(logits, temperature=1.0, top_k=None, top_p=None):
    log_p = torch.log_softmax(logits / temperature, dim=-1)
    if top_k is not None:
        kth = log_p.topk(top_k, dim=-1).values[:, -1:]
        log_p = torch.log_softmax(log_p.masked_fill(log_p < kth, float("-inf")), dim=-1)
    if top_p is not None:
        sorted_log_p = log_p.sort(dim=-1, descending=True).values
        p = sorted_log_p.exp()
        kept = ((p.cumsum(dim=-1) - p) < top_p).sum(dim=-1, keepdim=True).clamp(min=1)
        last = sorted_log_p.gather(-1, kept - 1)
        log_p = torch.log_softmax(log_p.masked_fill(log_p < last, float("-inf")), dim=-1)
    return log_p
