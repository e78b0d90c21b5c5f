"""The S4D layer's convolution against its own recurrence stepped in float64; the Mamba block's and the language
model's parallel forward (convolution and selective scan over the whole sequence) against their step-by-step
generation path; gradients reach every parameter; generation keeps a state whose size does not grow."""
import torch

from seqmodels.models.mamba import MambaBlock, MambaLM, S4DLayer


def test_s4d_layer_convolution_equals_its_recurrence(device):
    torch.manual_seed(0)
    layer = S4DLayer(3, 4).double().to(device)
    with torch.no_grad():
        layer.log_delta.copy_(torch.tensor([-2.0, -1.0, 0.0]))  # large steps too, so every state matters
    u = torch.randn(2, 9, 3, dtype=torch.float64, device=device)
    h, stepped = None, []
    for t in range(9):
        y, h = layer.step(u[:, t], h)
        stepped.append(y)
    torch.testing.assert_close(layer(u), torch.stack(stepped, dim=1))


def test_mamba_block_forward_equals_its_steps_and_trains(device):
    torch.manual_seed(1)
    block = MambaBlock(8, states=4).double().to(device)
    x = torch.randn(2, 11, 8, dtype=torch.float64, device=device)
    state, stepped = None, []
    for t in range(11):
        y, state = block.step(x[:, t], state)
        stepped.append(y)
    out = block(x)
    torch.testing.assert_close(out, torch.stack(stepped, dim=1))
    out.pow(2).sum().backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in block.parameters())


def test_language_model_steps_agree_and_its_state_does_not_grow():
    torch.manual_seed(2)
    model = MambaLM(20, dim=16, layers=2, states=4).double()
    ids = torch.randint(20, (1, 12))
    states, logits = None, []
    for t in range(12):
        step_logits, states = model.step(ids[:, t], states)
        logits.append(step_logits)
        size = sum(tensor.numel() for state in states for tensor in state)
        assert t == 0 or size == first_size
        first_size = size
    torch.testing.assert_close(model(ids), torch.stack(logits, dim=1))
    generated = model.generate(ids[:, :3], 5, torch.Generator().manual_seed(0))
    assert generated.shape == (1, 8) and torch.equal(generated[:, :3], ids[:, :3])


def test_the_time_invariant_ablation_is_causal_and_every_parameter_trains(device):
    torch.manual_seed(3)
    model = MambaLM(20, dim=8, layers=2, states=4, selective=False).double().to(device)
    assert not any(hasattr(block, "x_proj") for block in model.blocks), "selective=False has no Δ, B, C projections"
    ids = torch.randint(20, (2, 10), device=device)
    changed = ids.clone()
    changed[:, 6:] = (changed[:, 6:] + 1) % 20
    torch.testing.assert_close(model(changed)[:, :6], model(ids)[:, :6])  # a later token changes no earlier logit
    assert not torch.allclose(model(changed)[:, 6:], model(ids)[:, 6:])
    model.loss(ids[:, :-1], ids[:, 1:]).backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
