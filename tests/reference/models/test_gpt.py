"""The GPT's fast path (F.scaled_dot_product_attention) against nn.TransformerEncoderLayer's own forward with a
causal mask, and against its hand-written path (gpt_block); generation with the key-value cache against
rerunning the whole prefix (same generator, same tokens), learned positions and RoPE, the fast and the
hand-written cache; the functions it is given (a student's) do the work; the classifier reads the last real
token, whatever padding follows."""
import pytest
import torch
from seqmodels.layers.gpt import attend_with_cache, gpt_block
from seqmodels.layers.rotary import rope
from seqmodels.layers.sampling import sample_tokens
from seqmodels.models.gpt import GPT, GPTClassifier


def small_gpt(**options):
    torch.manual_seed(0)
    return GPT(40, dim=16, heads=4, feedforward=32, layers=2, max_len=48, **options).double()


def test_fast_path_matches_pytorchs_layers_and_the_hand_written_blocks():
    model = small_gpt()
    ids = torch.randint(0, 40, (3, 11))
    x = model.embedding(ids) + model.position_embedding(torch.arange(11))
    causal = torch.ones(11, 11, dtype=torch.bool).triu(1)
    for layer in model.blocks:
        x = layer(x, src_mask=causal, is_causal=True)
    expected = model.final_norm(x) @ model.embedding.weight.T
    torch.testing.assert_close(model(ids), expected)
    model.hand_written = True
    torch.testing.assert_close(model(ids), expected)


@pytest.mark.parametrize("positions, hand_written", [("learned", False), ("rope", False), ("learned", True)])
def test_the_cache_generates_what_rerunning_the_prefix_does(positions, hand_written, device):
    # the oracle reruns the whole prefix through the fast path, checked against PyTorch's layers above
    model = small_gpt(positions=positions).to(device)
    prompt = torch.randint(0, 40, (2, 5), device=device)
    runs = []
    for cache in (True, False):
        model.hand_written = hand_written and cache
        runs.append(model.generate(prompt, 20, torch.Generator(device).manual_seed(3), temperature=0.9, top_p=0.95,
                                   cache=cache))
    assert runs[0].shape == (2, 25) and torch.equal(runs[0][:, :5], prompt)
    assert torch.equal(*runs)


def test_the_functions_it_is_given_do_the_work():
    calls = []

    def counted(name, fn):
        def run(*args, **kwargs):
            calls.append(name)
            return fn(*args, **kwargs)
        return run

    functions = {name: counted(name, fn) for name, fn in
                 [("block_fn", gpt_block), ("rope_fn", rope), ("attend_fn", attend_with_cache),
                  ("sample_fn", sample_tokens)]}
    prompt = torch.randint(0, 40, (1, 2))
    model = small_gpt(hand_written=True, **functions)
    model(prompt)
    assert calls == ["block_fn"] * 2
    calls.clear()
    model.generate(prompt, 2, torch.Generator().manual_seed(0))  # 2 prompt positions and 1 new one, 2 blocks
    assert calls == ["attend_fn"] * 4 + ["sample_fn"] + ["attend_fn"] * 2 + ["sample_fn"]
    calls.clear()
    small_gpt(positions="rope", **functions)(prompt)
    assert calls == ["rope_fn"] * 4  # queries and keys, 2 blocks


def test_both_paths_agree_with_gradients(assert_paths_agree):
    assert_paths_agree(small_gpt(), torch.randint(0, 40, (3, 9)), torch.ones(3, 9, dtype=torch.bool))
    with pytest.raises(ValueError, match="rotary"):
        GPT(10, positions="rope", hand_written=True)


def test_learned_positions_refuse_what_does_not_fit():
    model = small_gpt()
    with pytest.raises(ValueError, match="learned positions"):
        model.generate(torch.zeros(1, 40, dtype=torch.long), 10, torch.Generator())


def test_the_classifier_reads_the_last_real_token():
    classifier = GPTClassifier(small_gpt(), 2).double()
    ids = torch.randint(1, 40, (2, 7))
    mask = torch.arange(7) < torch.tensor([[7], [4]])
    padded = ids.masked_fill(~mask, 0)
    out = classifier(padded, mask)
    torch.testing.assert_close(out[1], classifier(ids[1:, :4], mask[1:, :4])[0])
    assert not torch.allclose(classifier(ids[:1, :5], mask[:1, :5]), out[:1])
