"""encode looks up "[UNK]" whatever unk it is given; the mask is guessed from the ids (a real token equal to pad_id is lost).

answers: solution
loses: test_encode_decode_more test_pad_batch_edges
hint: even a real token equal to pad_id
"""
# %% encode_decode
def encode(tokens, vocab, unk="[UNK]"):
    return [vocab.get(token, vocab["[UNK]"]) for token in tokens]


def decode(ids, vocab):
    token_of = {index: token for token, index in vocab.items()}
    return [token_of[index] for index in ids]


# %% pad_batch
import torch


def pad_batch(seqs, pad_id=0):
    longest = max(len(seq) for seq in seqs)
    ids = torch.tensor([seq + [pad_id] * (longest - len(seq)) for seq in seqs], dtype=torch.long)
    return ids, ids != pad_id
