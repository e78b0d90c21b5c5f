"""perplexity averages each sentence's perplexity instead of exponentiating the mean NLL over all real tokens.

answers: solution
loses: test_perplexity
hint: not a mean of the sentences' perplexities
"""
# %% perplexity
def perplexity(logits, targets, mask):
    token_nll = torch.logsumexp(logits, dim=-1) - logits.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    sentence_nll = (token_nll * mask).sum(dim=1) / mask.sum(dim=1)
    return torch.exp(sentence_nll).mean()
