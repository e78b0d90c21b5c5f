"""fused_ctc_loss against the readable ctc_loss (values and gradients with respect to the log-probabilities),
F.ctc_loss (through log_softmax, where the two conventions' gradients meet) and finite differences, on both
backends (``backend`` fixture: torch ops; Triton kernels where Triton runs)."""
import pytest
import torch
from torch.nn import functional as F

from seqmodels.structured.ctc import ctc_loss
from seqmodels.structured.ctc_fused import _alpha, _beta, fused_ctc_loss
from seqmodels.structured.triton_backend import triton_runs_on

DTYPES = [torch.float32, torch.float64]


def random_batch(device, dtype, seed=0):
    """T = 13 frames, 5 rows: a repeat (needs a blank between), a row shorter than T, an empty target, an
    impossible row ("3 3" in 2 frames), and padding holding ids no alphabet has."""
    g = torch.Generator().manual_seed(seed)
    T, B, C = 13, 5, 6
    logits = torch.randn(T, B, C, dtype=dtype, generator=g).to(device).requires_grad_(True)
    targets = torch.randint(1, C, (B, 7), generator=g)
    targets[1, :3] = torch.tensor([2, 2, 4])
    targets[4, :2] = 3
    target_lengths = torch.tensor([4, 3, 1, 0, 2])
    targets[torch.arange(7) >= target_lengths.unsqueeze(1)] = 99  # garbage past each row's length
    input_lengths = torch.tensor([13, 13, 8, 5, 2])
    return logits, targets.to(device), input_lengths.to(device), target_lengths.to(device)


def losses_and_grads(loss_fn, logits, *args, reduction="none"):
    log_probs = logits.log_softmax(-1)
    loss = loss_fn(log_probs, *args, reduction=reduction)
    return (loss, *torch.autograd.grad(loss.sum(), (log_probs, logits)))


def close(dtype):
    return {"rtol": 1e-5, "atol": 1e-7 if dtype == torch.float32 else 1e-12}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
def test_equals_the_readable_loss_and_its_gradients(backend, device, dtype, reduction):
    logits, *args = random_batch(device, dtype)
    ours = losses_and_grads(fused_ctc_loss, logits, *args, reduction=reduction)
    readable = losses_and_grads(ctc_loss, logits, *args, reduction=reduction)
    for a, b in zip(ours, readable):
        torch.testing.assert_close(a, b, **close(dtype))
    assert ours[0].dtype == dtype


@pytest.mark.parametrize("dtype", DTYPES)
def test_equals_pytorch_where_an_alignment_fits(backend, device, dtype):
    logits, targets, input_lengths, target_lengths = random_batch(device, dtype, seed=1)
    rows = slice(0, 4)  # the impossible row left out: F.ctc_loss's gradient there is not ctc_loss's
    logits = logits.detach()[:, rows].requires_grad_(True)
    flat = torch.cat([targets[b, :n] for b, n in enumerate(target_lengths[rows].tolist())])  # concatenated layout
    args = (input_lengths[rows], target_lengths[rows])
    ours = losses_and_grads(fused_ctc_loss, logits, flat, *args)
    theirs = losses_and_grads(F.ctc_loss, logits, flat, *args)
    tol = {"rtol": 1e-5, "atol": 1e-6} if dtype == torch.float32 else close(dtype)  # F's float32 γ is ~1e-6 off
    torch.testing.assert_close(ours[0], theirs[0], **tol)
    torch.testing.assert_close(ours[2], theirs[2], **tol)  # of the logits; F's of log_probs adds exp(lp)


def test_frames_past_a_row_and_impossible_rows_get_no_gradient(backend, device):
    logits, *args = random_batch(device, torch.float64)
    losses, grad, _ = losses_and_grads(fused_ctc_loss, logits, *args)
    assert torch.isinf(losses[4]) and torch.isfinite(losses[:4]).all()
    assert (grad[:, 4] == 0).all() and (grad[8:, 2] == 0).all() and (grad[5:, 3] == 0).all()
    # every frame of a row within its length spends exactly one unit of posterior: -Σ_c grad = Σ_s γ_t(s) = 1
    torch.testing.assert_close(-grad[:13, 0].sum(-1), torch.ones(13, dtype=torch.float64, device=device))


def test_the_backward_variables_give_the_true_gradient(backend, device):
    g = torch.Generator().manual_seed(2)
    log_probs = torch.randn(6, 2, 3, dtype=torch.float64, generator=g).log_softmax(-1).to(device).requires_grad_(True)
    targets, input_lengths, target_lengths = (torch.tensor(x, device=device)
                                              for x in ([[1, 1], [2, 0]], [6, 4], [2, 1]))
    loss = lambda lp: fused_ctc_loss(lp, targets, input_lengths, target_lengths, reduction="none")
    assert torch.autograd.gradcheck(loss, (log_probs,))  # against finite differences


@pytest.mark.parametrize("targets", [torch.zeros(0, 3, dtype=torch.long), torch.zeros(0, dtype=torch.long)],
                         ids=["padded", "concatenated"])
def test_an_empty_batch_has_no_losses(backend, device, targets):
    log_probs = torch.randn(5, 0, 4, device=device).log_softmax(-1)
    none = torch.zeros(0, dtype=torch.long, device=device)
    assert fused_ctc_loss(log_probs, targets.to(device), none, none, reduction="none").shape == (0,)


@pytest.mark.parametrize("dtype", DTYPES)
def test_one_frame_empty_targets_and_peaked_inputs(backend, device, dtype):
    g = torch.Generator().manual_seed(3)
    cases = [(torch.randn(1, 2, 3, dtype=dtype, generator=g), torch.tensor([[1], [0]]), [1, 1], [1, 0]),
             (1000 * torch.randn(9, 2, 4, dtype=dtype, generator=g), torch.tensor([[1, 2, 1], [3, 3, 0]]), [9, 7],
              [3, 2]),
             (torch.randn(4, 2, 3, dtype=dtype, generator=g), torch.zeros(2, 0, dtype=torch.long), [4, 2], [0, 0])]
    for logits, targets, input_lengths, target_lengths in cases:
        args = [torch.as_tensor(x, device=device) for x in (targets, input_lengths, target_lengths)]
        logits = logits.to(device).requires_grad_(True)
        for ours, readable in zip(losses_and_grads(fused_ctc_loss, logits, *args, reduction="sum"),
                                  losses_and_grads(ctc_loss, logits, *args, reduction="sum")):
            torch.testing.assert_close(ours, readable, **close(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_kernels_equal_their_torch_versions(device, dtype):
    """The Triton kernels against the torch recursions of the fallback, buffer for buffer."""
    if not triton_runs_on(torch.empty(0, device=device)):
        pytest.skip("needs Triton: on CUDA, or on the CPU under TRITON_INTERPRET=1")
    from seqmodels.structured.ctc_triton import ctc_alpha_triton, ctc_beta_triton
    g = torch.Generator().manual_seed(4)
    T, B, W = 11, 4, 9  # W = 2S+1 for S = 4, rows of 4, 2, 0 and 3 symbols
    emit = torch.randn(T, B, W, dtype=dtype, generator=g).log_softmax(-1).to(device)
    can_skip = (torch.rand(B, W, generator=g) < 0.5).to(device)
    input_lengths = torch.tensor([11, 6, 3, 1], device=device)
    extended_lengths = torch.tensor([9, 5, 1, 7], device=device)
    for ours, theirs in zip((*ctc_alpha_triton(emit, can_skip, input_lengths, extended_lengths),
                             ctc_beta_triton(emit, can_skip, input_lengths, extended_lengths)),
                            (*_alpha(emit, can_skip, input_lengths, extended_lengths),
                             _beta(emit, can_skip, input_lengths, extended_lengths))):
        torch.testing.assert_close(ours, theirs, **close(dtype))
