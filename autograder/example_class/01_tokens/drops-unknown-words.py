"""encode skips words missing from the vocabulary instead of mapping them to [UNK]; pad_batch pads on the left.

answers: solution
loses: test_encode_decode_unk test_encode_decode_more test_pad_batch_aziz test_pad_batch_edges
hint: unknown words get the id of [UNK]
hint: the padding goes at the end
"""
# %% encode_decode
def encode(tokens, vocab, unk="[UNK]"):
    return [vocab[token] for token in tokens if token in vocab]


def decode(ids, vocab):
    token_of = {index: token for token, index in vocab.items()}
    return [token_of[index] for index in ids]


# %% pad_batch
import torch


def pad_batch(seqs, pad_id=0):
    longest = max(len(seq) for seq in seqs)
    ids = torch.full((len(seqs), longest), pad_id, dtype=torch.long)
    mask = torch.zeros((len(seqs), longest), dtype=torch.bool)
    for row, seq in enumerate(seqs):
        if seq:
            ids[row, longest - len(seq):] = torch.tensor(seq, dtype=torch.long)
            mask[row, longest - len(seq):] = True
    return ids, mask
