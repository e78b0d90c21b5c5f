"""filter_logits takes log(softmax(x)) for the log-probabilities: a probability that underflows to 0 becomes -inf, so with logits of +-1000 a token is removed that no cut removes.

answers: solution
loses: test_filter_logits
hint: log(softmax(x)) is -inf where a probability underflows to 0
"""
# %% filter_logits
def filter_logits(logits, temperature=1.0, top_k=None, top_p=None):
    log_p = torch.log(torch.softmax(logits / temperature, dim=-1))
    if top_k is not None:
        kth = log_p.topk(min(top_k, log_p.shape[-1]), dim=-1).values[:, -1:]
        log_p = torch.log(torch.softmax(log_p.masked_fill(log_p < kth, float("-inf")), dim=-1))
    if top_p is not None:
        sorted_log_p = log_p.sort(dim=-1, descending=True).values
        p = sorted_log_p.exp()
        kept = ((p.cumsum(dim=-1) - p) < top_p).sum(dim=-1, keepdim=True).clamp(min=1)
        last = sorted_log_p.gather(-1, kept - 1)
        log_p = torch.log(torch.softmax(log_p.masked_fill(log_p < last, float("-inf")), dim=-1))
    return log_p
