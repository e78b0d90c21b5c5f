"""An alternative correct student: explicit loops and dictionaries instead of Counter, indexing and comparisons.

answers: solution
loses: nothing
"""
# %% build_vocab
def build_vocab(corpus, min_freq=1, max_size=None, specials=("[PAD]", "[UNK]")):
    counts = {}
    for document in corpus:
        for token in document:
            if token not in specials:
                counts[token] = counts.get(token, 0) + 1
    words = sorted(counts, key=lambda token: (-counts[token], token))
    words = [token for token in words if counts[token] >= min_freq]
    if max_size is not None:
        words = words[:max_size]
    vocab = {}
    for token in list(specials) + words:
        vocab[token] = len(vocab)
    return vocab


# %% encode_decode
def encode(tokens, vocab, unk="[UNK]"):
    ids = []
    for token in tokens:
        ids.append(vocab[token] if token in vocab else vocab[unk])
    return ids


def decode(ids, vocab):
    tokens = [None] * len(vocab)
    for token, index in vocab.items():
        tokens[index] = token
    return [tokens[index] for index in ids]


# %% pad_batch
import torch


def pad_batch(seqs, pad_id=0):
    longest = max(len(seq) for seq in seqs)
    ids = torch.tensor([list(seq) + [pad_id] * (longest - len(seq)) for seq in seqs], dtype=torch.long)
    mask = torch.tensor([[True] * len(seq) + [False] * (longest - len(seq)) for seq in seqs], dtype=torch.bool)
    return ids.view(len(seqs), longest), mask.view(len(seqs), longest)


# %% onehot
def onehot(ids, V):
    codes = torch.zeros(ids.numel(), V, device=ids.device)
    for row, index in enumerate(ids.flatten().tolist()):
        codes[row, index] = 1.0
    return codes.view(*ids.shape, V)


# %% embed
def embed(ids, E):
    rows = [E[index] for index in ids.flatten().tolist()]
    return torch.stack(rows).view(*ids.shape, E.shape[1]) if rows else E[:0].view(*ids.shape, E.shape[1])
