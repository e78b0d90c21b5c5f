"""The transformer encoder-decoder: both paths agree (values and gradients); a student's blocks plug in;
with a tied output layer it is the model chapter 12's students assemble; padding and the future never reach
a prediction; greedy decoding stops at </s>; a few steps learn to copy."""
import pytest
import torch

from seqmodels.layers.transformer import decoder_block, transformer_encode
from seqmodels.models.transformer import TransformerSeq2Seq
from seqmodels.text.batching import pad_batch

SOURCE, SOURCE_MASK = pad_batch([[3, 4, 5, 6], [7, 8]])
TARGET_IN, TARGET_MASK = pad_batch([[2, 4, 5], [2, 6]])


def small_model(**options) -> TransformerSeq2Seq:
    torch.manual_seed(0)
    return TransformerSeq2Seq(10, 9, dim=8, heads=2, feedforward=12, layers=2, **options).double()


def test_paths_agree(assert_paths_agree):
    # the logits after padding, which no loss reads: through them the hand-written lookup would send a
    # gradient to the padding row, which nn.Embedding(padding_idx=0) never updates
    real = TARGET_MASK.unsqueeze(-1).double()
    assert_paths_agree(small_model(), SOURCE, SOURCE_MASK, TARGET_IN, TARGET_MASK, select=lambda logits: logits * real)


def test_the_hand_written_path_calls_the_functions_it_is_given():
    calls = []

    def my_encode(*args):
        calls.append("encode")
        return transformer_encode(*args)

    def my_decoder_block(*args):
        calls.append("decoder block")
        return decoder_block(*args)

    model = small_model(hand_written=True, encode_fn=my_encode, decoder_block_fn=my_decoder_block)
    model(SOURCE, SOURCE_MASK, TARGET_IN, TARGET_MASK)
    assert calls == ["encode", "decoder block", "decoder block"]


def assembled_logits(model, source, source_mask, target_in, target_mask):
    """Chapter 12's demo model as students assemble it from the graded functions (here the course's own):
    transformer_encode for the memory and, with no blocks, for the decoder's inputs (Eq. 5); the decoder
    blocks on the layers' state dicts; the target embedding as the output layer, logits = h Eᵀ."""
    def blocks(stack):
        return [layer.state_dict() for layer in stack]

    memory = transformer_encode(source, source_mask, model.source_embedding.weight, blocks(model.encoder_layers),
                                model.heads)
    E = model.target_embedding.weight
    y = transformer_encode(target_in, target_mask, E, [], model.heads)
    for params in blocks(model.decoder_layers):
        y = decoder_block(y, memory, target_mask, source_mask, params, model.heads)
    return y @ E.T


def test_with_a_tied_output_layer_it_is_the_model_students_assemble():
    # the oracle is the PyTorch-layer path: nn.TransformerEncoderLayer and nn.TransformerDecoderLayer
    model = small_model(tied_output=True).eval()
    real = TARGET_MASK.unsqueeze(-1)
    with torch.no_grad():
        expected = model(SOURCE, SOURCE_MASK, TARGET_IN, TARGET_MASK) * real
        got = assembled_logits(model, SOURCE, SOURCE_MASK, TARGET_IN, TARGET_MASK) * real
    torch.testing.assert_close(got, expected)
    untied = small_model()
    assert model.out is None
    assert sum(p.numel() for p in untied.parameters()) - sum(p.numel() for p in model.parameters()) == 9 * 8 + 9


def test_the_paths_agree_with_a_tied_output_layer(assert_paths_agree):
    real = TARGET_MASK.unsqueeze(-1).double()
    assert_paths_agree(small_model(tied_output=True), SOURCE, SOURCE_MASK, TARGET_IN, TARGET_MASK,
                       select=lambda logits: logits * real)


def test_padding_and_later_tokens_never_reach_a_prediction():
    model = small_model().eval()
    logits = model(SOURCE, SOURCE_MASK, TARGET_IN, TARGET_MASK)
    source, target = SOURCE.clone(), TARGET_IN.clone()
    source[1, 2:] = 9  # padding of the second source
    target[:, 2] = 7  # the last input of every row
    changed = model(source, SOURCE_MASK, target, TARGET_MASK)
    torch.testing.assert_close(changed[:, :2], logits[:, :2])


def test_cross_attention_is_a_distribution_over_the_real_source_positions_for_every_head():
    weights = small_model().cross_attention(SOURCE, SOURCE_MASK, TARGET_IN, TARGET_MASK)
    assert weights.shape == (2, 2, 3, 4)
    torch.testing.assert_close(weights.sum(-1), torch.ones(2, 2, 3, dtype=torch.float64))
    assert (weights[1, :, :, 2:] == 0).all()


@pytest.mark.parametrize("tied_output", [False, True])
def test_it_learns_to_copy_and_greedy_decoding_stops_at_eos(tied_output):
    torch.manual_seed(0)
    bos, eos = 2, 3
    sequences = [[4 + (i * 7 + j) % 5 for j in range(3)] for i in range(20)]
    source, source_mask = pad_batch(sequences)
    target_in, target_mask = pad_batch([[bos, *s] for s in sequences])
    target_out, _ = pad_batch([[*s, eos] for s in sequences])
    model = TransformerSeq2Seq(10, 10, dim=16, heads=2, feedforward=32, layers=1, tied_output=tied_output)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(100):
        loss = model.loss(source, source_mask, target_in, target_out, target_mask)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    guesses, maps = model.eval().greedy(source, source_mask, bos, eos, max_len=6)
    assert sum(g == [*s, eos] for g, s in zip(guesses, sequences)) >= 18, guesses
    assert maps.shape == (20, 2, 6, 3)
