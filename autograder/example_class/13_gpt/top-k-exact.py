"""filter_logits keeps exactly top_k tokens (torch.topk's indices), dropping tokens tied with the k-th; and sample_tokens samples from the raw logits, ignoring temperature, top_k and top_p.

answers: solution
loses: test_filter_logits test_sample_tokens
hint: a token tied with the last one kept is kept too
hint: sample_tokens builds on your filter_logits
"""
# %% filter_logits
def filter_logits(logits, temperature=1.0, top_k=None, top_p=None):
    log_p = torch.log_softmax(logits / temperature, dim=-1)
    if top_k is not None:
        keep = torch.zeros_like(log_p, dtype=torch.bool)
        keep.scatter_(-1, log_p.topk(min(top_k, log_p.shape[-1]), dim=-1).indices, True)
        log_p = torch.log_softmax(log_p.masked_fill(~keep, float("-inf")), dim=-1)
    if top_p is not None:
        sorted_log_p = log_p.sort(dim=-1, descending=True).values
        p = sorted_log_p.exp()
        kept = ((p.cumsum(dim=-1) - p) < top_p).sum(dim=-1, keepdim=True).clamp(min=1)
        last = sorted_log_p.gather(-1, kept - 1)
        log_p = torch.log_softmax(log_p.masked_fill(log_p < last, float("-inf")), dim=-1)
    return log_p


# %% sample_tokens
def sample_tokens(logits, generator, temperature=1.0, top_k=None, top_p=None):
    return torch.multinomial(torch.softmax(logits, dim=-1), 1, generator=generator)[:, 0]
