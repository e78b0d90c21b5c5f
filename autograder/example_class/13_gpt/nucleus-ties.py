"""filter_logits keeps exactly the tokens of the nucleus in sorted order (scattering a mask over the sorted indices), so of two tokens tied at the top_p edge one is dropped, by position.

answers: solution
loses: test_filter_logits
hint: a token tied with the last one kept is kept too
"""
# %% filter_logits
def filter_logits(logits, temperature=1.0, top_k=None, top_p=None):
    log_p = torch.log_softmax(logits / temperature, dim=-1)
    if top_k is not None:
        kth = log_p.topk(min(top_k, log_p.shape[-1]), dim=-1).values[:, -1:]
        log_p = torch.log_softmax(log_p.masked_fill(log_p < kth, float("-inf")), dim=-1)
    if top_p is not None:
        sorted_log_p, order = log_p.sort(dim=-1, descending=True)
        p = sorted_log_p.exp()
        in_nucleus = (p.cumsum(dim=-1) - p) < top_p
        in_nucleus[:, 0] = True
        keep = torch.zeros_like(in_nucleus).scatter(-1, order, in_nucleus)
        log_p = torch.log_softmax(log_p.masked_fill(~keep, float("-inf")), dim=-1)
    return log_p
