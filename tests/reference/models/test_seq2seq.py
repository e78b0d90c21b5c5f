"""The attention encoder-decoder: both paths agree; weights are a distribution over real source positions;
greedy decoding stops at </s>; a few steps learn to copy."""
import torch

from seqmodels.decoding.search import beam_search, greedy_decode
from seqmodels.models.seq2seq import AttentionSeq2Seq
from seqmodels.text.batching import pad_batch

SOURCE, SOURCE_MASK = pad_batch([[3, 4, 5, 6], [7, 8]])
TARGET_IN, TARGET_MASK = pad_batch([[2, 4, 5], [2, 6]])


def test_paths_agree(assert_paths_agree):
    torch.manual_seed(0)
    model = AttentionSeq2Seq(10, 9, dim=4, hidden=5, attention=3).double()
    assert_paths_agree(model, SOURCE, SOURCE_MASK, TARGET_IN, TARGET_MASK, select=lambda out: out[0])


def test_attention_weights_sum_to_one_over_real_source_tokens():
    torch.manual_seed(0)
    _, weights = AttentionSeq2Seq(10, 9, dim=4, hidden=5, attention=3)(SOURCE, SOURCE_MASK, TARGET_IN, TARGET_MASK)
    torch.testing.assert_close(weights.sum(-1), torch.ones(2, 3))
    assert (weights[1, :, 2:] == 0).all()


def test_next_token_log_probs_match_the_teacher_forced_logits_in_any_call_order():
    torch.manual_seed(0)
    model = AttentionSeq2Seq(10, 9, dim=4, hidden=5, attention=3).double()
    prefixes = [[2, 4, 5, 6], [2], [2, 4], [2, 7, 1], [2, 4, 5, 6]]  # a long one first: its parents are not cached yet
    step = model.next_token_log_probs(SOURCE[0])
    for prefix in prefixes:
        target, mask = pad_batch([prefix])
        logits, _ = model(SOURCE[:1], SOURCE_MASK[:1], target, mask)
        torch.testing.assert_close(step(prefix), logits[0, -1].log_softmax(-1))


def test_the_attention_function_gives_the_teacher_forced_weights_of_the_same_step():
    torch.manual_seed(0)
    model = AttentionSeq2Seq(10, 9, dim=4, hidden=5, attention=3).double()
    step, attention = model.decoding_functions(SOURCE[0])
    for prefix in [[2, 4, 5], [2], [2, 7]]:
        target, mask = pad_batch([prefix])
        logits, weights = model(SOURCE[:1], SOURCE_MASK[:1], target, mask)
        torch.testing.assert_close(attention(prefix), weights[0, -1])
        torch.testing.assert_close(step(prefix), logits[0, -1].log_softmax(-1))


def test_it_learns_to_copy_and_greedy_decoding_stops_at_eos():
    torch.manual_seed(0)
    bos, eos = 2, 3
    sequences = [[4 + (i * 7 + j) % 5 for j in range(3)] for i in range(20)]
    source, source_mask = pad_batch(sequences)
    target_in, target_mask = pad_batch([[bos, *s] for s in sequences])
    target_out, _ = pad_batch([[*s, eos] for s in sequences])
    model = AttentionSeq2Seq(10, 10, dim=8, hidden=16, attention=8)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
    for _ in range(150):
        loss = model.loss(source, source_mask, target_in, target_out, target_mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    guesses, maps = model.greedy(source, source_mask, bos, eos, max_len=6)
    assert sum(g == [*s, eos] for g, s in zip(guesses, sequences)) >= 18, guesses
    assert maps.shape == (20, 6, 3)
    step = model.next_token_log_probs(source[0])
    assert greedy_decode(step, bos, eos, max_len=6) == guesses[0]
    assert beam_search(step, bos, eos, beam_size=3, max_len=6)[0][0] == [*sequences[0], eos]
