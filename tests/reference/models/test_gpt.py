"""The GPT's fast path (F.scaled_dot_product_attention) against nn.TransformerEncoderLayer's own forward with a
causal mask, and against its hand-written path (gpt_block); generation with the key-value cache against
rerunning the whole prefix (same generator, same tokens), learned positions and RoPE, the fast and the
hand-written cache; the functions it is given (a student's) do the work; the classifier reads the last real
token, whatever padding follows. The open models' options (RMSNorm, SwiGLU) against the blocks written
with nn.MultiheadAttention, RMSNorm in float64 by its formula and SwiGLU by Shazeer's, and their parameter
counts against GPT-2's."""
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


def rms_by_formula(x, weight, eps=1e-5):
    return x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight  # Zhang & Sennrich, Eq. 4


@pytest.mark.parametrize("norm, ffn", [("rms", "gelu"), ("layer", "swiglu"), ("rms", "swiglu")])
def test_the_open_model_options_match_their_formulas(norm, ffn, device):
    """Pre-norm blocks written out: nn.MultiheadAttention (causal mask) for attention, RMSNorm by its formula,
    the SwiGLU network as (x W · σ(x W)) ⊗ (x V), then W2, and the GELU network and layer norm as PyTorch's."""
    model = small_gpt(norm=norm, ffn=ffn).to(device)
    with torch.no_grad():  # gains away from 1, so that a norm that ignores them is caught
        for parameter in model.parameters():
            if parameter.dim() == 1:
                parameter.uniform_(0.5, 1.5)
    ids = torch.randint(0, 40, (3, 11), device=device)

    def normalise(module, x):
        return rms_by_formula(x, module.weight) if norm == "rms" else module(x)

    x = model.embedding(ids) + model.position_embedding(torch.arange(11, device=device))
    causal = torch.ones(11, 11, dtype=torch.bool, device=device).triu(1)
    for layer in model.blocks:
        normed = normalise(layer.norm1, x)
        x = x + layer.self_attn(normed, normed, normed, attn_mask=causal, need_weights=False)[0]
        normed = normalise(layer.norm2, x)
        if ffn == "swiglu":
            gate, up = (normed @ w.T for w in layer.linear1.weight.chunk(2))
            x = x + (gate * torch.sigmoid(gate) * up) @ layer.linear2.weight.T
        else:
            x = x + layer.linear2(torch.nn.functional.gelu(layer.linear1(normed)))
    expected = normalise(model.final_norm, x) @ model.embedding.weight.T
    torch.testing.assert_close(model(ids), expected)
    generated = model.generate(ids[:, :4], 6, torch.Generator(device).manual_seed(1))  # the cache agrees too
    assert torch.equal(generated, model.generate(ids[:, :4], 6, torch.Generator(device).manual_seed(1), cache=False))


def count_parameters(model):
    return sum(p.numel() for p in model.parameters())


def test_the_options_keep_the_parameter_count():
    """RMSNorm drops the norms' biases (D each); SwiGLU at swiglu_width stays within half a hidden unit's weights
    of the GELU network; RoPE drops the table of max_len x D positions."""
    D, layers, max_len = 16, 2, 48
    gpt2 = count_parameters(small_gpt())
    assert count_parameters(small_gpt(norm="rms")) == gpt2 - (2 * layers + 1) * D
    # the nearest SwiGLU width to F = 32 is 22: 3·16·22 = 1,056 weights a block against GELU's 2·16·32 + 32 + 16 = 1,072
    assert count_parameters(small_gpt(ffn="swiglu")) == gpt2 - layers * (1072 - 1056)
    assert count_parameters(small_gpt(positions="rope")) == gpt2 - max_len * D
    with pytest.raises(ValueError, match="layer norms and a GELU network"):
        GPT(10, norm="rms", hand_written=True)
    with pytest.raises(ValueError, match="ffn must be one of"):
        GPT(10, ffn="relu")
