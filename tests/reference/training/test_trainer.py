"""The trainer: losses drop, runs are reproducible, clipping bounds the step, checkpoints resume exactly, and a
schedule sets the rate of every update as PyTorch's AdamW with LambdaLR stepped by hand does."""

import os
import re
import subprocess
import sys

import matplotlib
import pytest
import torch
from torch import nn

from seqmodels.training import History, Trainer, make_loader, pick_device, to_device
from seqmodels.training.schedules import cosine_schedule
from seqmodels.training.weight_decay import adamw

matplotlib.use("Agg")


def regression_data(n=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, generator=g)
    y = x @ torch.tensor([1.0, -2.0, 0.5]) + 0.3
    return list(zip(x, y))


def collate(pairs):
    x, y = zip(*pairs)
    return torch.stack(x), torch.stack(y)


def step(model, batch):
    x, y = batch
    return nn.functional.mse_loss(model(x).squeeze(-1), y), len(y)


def make_trainer(seed=0, **kwargs):
    torch.manual_seed(seed)
    return Trainer(nn.Linear(3, 1), step, lr=0.05, device="cpu", seed=seed, progress=False, **kwargs)


def test_the_loss_drops_and_the_history_has_one_row_per_epoch():
    trainer = make_trainer()
    history = trainer.fit(make_loader(regression_data(), 16, collate), epochs=12)
    assert history["epoch"] == list(range(1, 13))
    assert history["train_loss"][-1] < 0.1 * history["train_loss"][0]
    assert all(rate > 0 for rate in history["tokens_per_s"])


def test_two_runs_with_the_same_seed_give_the_same_history():
    losses = [make_trainer(seed=3).fit(make_loader(regression_data(), 8, collate, seed=3), epochs=2)["train_loss"]
              for _ in range(2)]
    assert losses[0] == losses[1]


def test_evaluation_metrics_join_the_history_without_gradients():
    data = regression_data(seed=1)

    def evaluate(model):
        assert not torch.is_grad_enabled()
        x, y = collate(data)
        return {"val_loss": nn.functional.mse_loss(model(x).squeeze(-1), y)}

    history = make_trainer().fit(make_loader(regression_data(), 16, collate), epochs=3, evaluate=evaluate)
    assert len(history["val_loss"]) == 3 and history["val_loss"][-1] < history["val_loss"][0]


def test_gradient_clipping_bounds_the_global_norm():
    seen = []

    def exploding(model, batch):
        loss, tokens = step(model, batch)
        return 1e6 * loss, tokens

    trainer = Trainer(nn.Linear(3, 1), exploding, optimizer=None, device="cpu", clip_norm=0.5, progress=False)
    original = trainer.optimizer.step

    def spy():
        seen.append(torch.sqrt(sum(p.grad.pow(2).sum() for p in trainer.model.parameters())).item())
        original()

    trainer.optimizer.step = spy
    trainer.fit(make_loader(regression_data(), 16, collate), epochs=1)
    assert seen and max(seen) <= 0.5 + 1e-5


def test_a_diverging_loss_stops_with_a_clear_message():
    calls = []

    def nan_on_the_third_step(model, batch):
        calls.append(1)
        loss, tokens = step(model, batch)
        return (loss * float("nan") if len(calls) == 3 else loss), tokens

    trainer = Trainer(nn.Linear(3, 1), nan_on_the_third_step, device="cpu", progress=False)
    with pytest.raises(FloatingPointError, match="at step 3 of epoch 1: lower the learning rate"):
        trainer.fit(make_loader(regression_data(), 16, collate), epochs=1)


def test_a_checkpoint_resumes_exactly(tmp_path):
    def loader():
        return make_loader(regression_data(), 16, collate, seed=7)

    first = make_trainer(seed=7)
    first.fit(loader(), epochs=1)
    first.save(tmp_path / "ckpt.pt")
    resumed = make_trainer(seed=99)  # other initial weights: the checkpoint replaces them, and Adam's moments
    resumed.load(tmp_path / "ckpt.pt")
    resumed.fit(loader(), epochs=1)

    uninterrupted = make_trainer(seed=7)
    uninterrupted.fit(loader(), epochs=1)
    uninterrupted.fit(loader(), epochs=1)
    assert resumed.history["epoch"] == [1, 2]
    for a, b in zip(resumed.model.parameters(), uninterrupted.model.parameters()):
        torch.testing.assert_close(a, b, rtol=0, atol=0)


def test_a_schedule_sets_every_updates_rate_as_lambda_lr_stepped_by_hand():
    """The trainer with AdamW (weight decay) and the cosine schedule after warm-up against the same updates made
    by hand with torch.optim.AdamW and LambdaLR: the same weights after every epoch (no clipping)."""
    schedule = cosine_schedule(3, 12)
    torch.manual_seed(5)
    model, by_hand = nn.Linear(3, 1), nn.Linear(3, 1)
    by_hand.load_state_dict(model.state_dict())
    trainer = Trainer(model, step, optimizer=torch.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.1),
                      scheduler=schedule, clip_norm=None, device="cpu", progress=False)
    optimizer = torch.optim.AdamW(by_hand.parameters(), lr=0.05, weight_decay=0.1)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule)
    rates = []
    for epoch in range(3):  # 4 updates an epoch: past the warm-up and the whole cosine
        trainer.fit(make_loader(regression_data(), 16, collate, seed=epoch), epochs=1)
        for batch in make_loader(regression_data(), 16, collate, seed=epoch):
            rates.append(optimizer.param_groups[0]["lr"])
            optimizer.zero_grad()
            step(by_hand, batch)[0].backward()
            optimizer.step()
            scheduler.step()
        for ours, expected in zip(model.parameters(), by_hand.parameters(), strict=True):
            torch.testing.assert_close(ours, expected, rtol=1e-6, atol=1e-7)
    assert rates[2] == pytest.approx(0.05) and rates[-1] < 0.05 * 0.2  # warmed up, then decayed


def test_the_trainers_own_schedule_without_an_optimizer_scales_adams_base_rate():
    """scheduler= alone: Adam at lr times the factor of each update, the factor read at every optimizer step."""
    seen = []
    trainer = make_trainer(scheduler=lambda s: 1.0 / (s + 1))
    trainer.optimizer.register_step_pre_hook(lambda optimizer, *_: seen.append(optimizer.param_groups[0]["lr"]))
    trainer.fit(make_loader(regression_data(), 16, collate), epochs=2)
    assert seen == pytest.approx([0.05 / (s + 1) for s in range(8)])


def test_a_checkpoint_resumes_the_schedule_where_it_stopped(tmp_path):
    def loader():
        return make_loader(regression_data(), 16, collate, seed=7)

    first = make_trainer(seed=7, scheduler=cosine_schedule(2, 8))
    first.fit(loader(), epochs=1)
    first.save(tmp_path / "ckpt.pt")
    resumed = make_trainer(seed=99, scheduler=cosine_schedule(2, 8))
    resumed.load(tmp_path / "ckpt.pt")
    resumed.fit(loader(), epochs=1)
    uninterrupted = make_trainer(seed=7, scheduler=cosine_schedule(2, 8))
    uninterrupted.fit(loader(), epochs=1)
    uninterrupted.fit(loader(), epochs=1)
    for a, b in zip(resumed.model.parameters(), uninterrupted.model.parameters()):
        torch.testing.assert_close(a, b, rtol=0, atol=0)


def test_adamw_decays_the_matrices_and_leaves_the_vectors():
    """With zero gradients Adam's step is 0, so AdamW's update is its decoupled decay alone (Loshchilov & Hutter,
    Algorithm 2, line 12): θ <- θ (1 - lr λ) for the weight matrix, unchanged for the bias."""
    torch.manual_seed(0)
    layer = nn.Linear(3, 2)
    before = [p.detach().clone() for p in (layer.weight, layer.bias)]
    optimizer = adamw(layer, lr=0.1, weight_decay=0.5)
    for p in layer.parameters():
        p.grad = torch.zeros_like(p)
    optimizer.step()
    torch.testing.assert_close(layer.weight.detach(), before[0] * (1 - 0.1 * 0.5), rtol=1e-6, atol=0)
    torch.testing.assert_close(layer.bias.detach(), before[1], rtol=0, atol=0)
    assert optimizer.defaults["betas"] == (0.9, 0.95)


def test_the_progress_bar_reports_loss_and_tokens_per_second(capsys, monkeypatch):
    import seqmodels.training.trainer as trainer_module

    postfixes = []

    class Recording(trainer_module.progress_bar):
        def set_postfix(self, *args, **kwargs):
            postfixes.append(kwargs)
            return super().set_postfix(*args, **kwargs)

    monkeypatch.setattr(trainer_module, "progress_bar", Recording)
    monkeypatch.setattr(trainer_module, "REFRESH_SECONDS", 0.0)  # refresh after every step
    history = Trainer(nn.Linear(3, 1), step, device="cpu", progress=True).fit(
        make_loader(regression_data(), 16, collate))
    assert len(postfixes) == 4 and all({"loss", "tok_s"} <= set(p) for p in postfixes)
    assert postfixes[-1]["loss"] == f"{history['train_loss'][0]:.4f}"  # the running mean, the epoch's at the end
    assert capsys.readouterr().out.startswith("epoch 1/1  train loss ")  # the epoch's line


EPOCH_LINES = """
import os
import torch
from seqmodels.training import Trainer

batches = [(torch.randn(16, 3), torch.randn(16)) for _ in range(4)]
step = lambda model, batch: (torch.nn.functional.mse_loss(model(batch[0]).squeeze(-1), batch[1]), 16)
trainer = Trainer(torch.nn.Linear(3, 1), step, device="cpu")
trainer.fit(batches, epochs=2, evaluate=lambda model: {"validation_mse": 0.25})
trainer.fit(batches, epochs=1)
os._exit(0)  # no flush at exit: a line that was not flushed when printed is lost, as in a log read while training
"""


def test_each_epoch_prints_one_plain_line_when_stdout_is_not_a_terminal():
    """A script or a log (stdout a pipe): the bar goes to stderr, each epoch's line to stdout when the epoch ends."""
    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}  # as by default
    done = subprocess.run([sys.executable, "-c", EPOCH_LINES], env=buffered, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stdout and "epoch 1/2" in done.stderr  # the bar's description, on stderr only
    time_and_rate = r"  \d+\.\d\d s  [\d,]+ tokens/s"
    expected = [rf"epoch 1/2  train loss [\d.e+-]+  validation mse 0\.25{time_and_rate}",
                rf"epoch 2/2  train loss [\d.e+-]+  validation mse 0\.25{time_and_rate}",
                rf"epoch 3/3  train loss [\d.e+-]+{time_and_rate}"]  # a second fit counts on
    lines = done.stdout.splitlines()
    assert len(lines) == len(expected), done.stdout
    for line, pattern in zip(lines, expected):
        assert re.fullmatch(pattern, line), line


def test_without_progress_nothing_is_printed(capsys):
    make_trainer().fit(make_loader(regression_data(), 16, collate), epochs=2)
    assert capsys.readouterr() == ("", "")


def test_losses_are_read_back_only_when_the_progress_bar_refreshes(monkeypatch):
    """Reading a loss makes the CPU wait for the GPU: not after every step, or the GPU idles between steps."""
    import seqmodels.training.trainer as trainer_module

    real_item, real_tolist = torch.Tensor.item, torch.Tensor.tolist
    losses, read_after = [], []  # each step's loss value; how many steps had run when losses were read

    def counting_step(model, batch):
        loss, tokens = step(model, batch)
        losses.append(real_item(loss))
        return loss, tokens

    def recording(read):
        def spy(tensor):
            value = read(tensor)
            if set(value if isinstance(value, list) else [value]) & set(losses):  # not other reads (Adam's step)
                read_after.append(len(losses))
            return value
        return spy

    monkeypatch.setattr(trainer_module, "REFRESH_SECONDS", float("inf"))
    monkeypatch.setattr(torch.Tensor, "item", recording(real_item))
    monkeypatch.setattr(torch.Tensor, "tolist", recording(real_tolist))
    history = Trainer(nn.Linear(3, 1), counting_step, device="cpu", progress=False).fit(
        make_loader(regression_data(), 16, collate))
    assert len(losses) == 4 and read_after and set(read_after) == {4}  # read only after the epoch's last step
    assert history["train_loss"][0] > 0


def test_a_step_may_count_its_tokens_in_a_tensor():
    def tensor_tokens(model, batch):
        loss, tokens = step(model, batch)
        return loss, torch.tensor(tokens)

    with_ints = make_trainer().fit(make_loader(regression_data(), 16, collate), epochs=2)
    torch.manual_seed(0)
    trainer = Trainer(nn.Linear(3, 1), tensor_tokens, lr=0.05, device="cpu", seed=0, progress=False)
    with_tensors = trainer.fit(make_loader(regression_data(), 16, collate), epochs=2)
    assert with_tensors["train_loss"] == with_ints["train_loss"]


def test_learning_curves_plot_every_metric():
    history = History([{"epoch": 1, "train_loss": 2.0, "val_loss": 2.5, "tokens_per_s": 9.0, "seconds": 1.0},
                       {"epoch": 2, "train_loss": 1.0, "val_loss": 1.5, "tokens_per_s": 9.0, "seconds": 1.0}])
    ax = history.plot()
    assert [line.get_label() for line in ax.get_lines()] == ["train loss", "val loss"]
    assert [text.get_text() for text in ax.get_legend().get_texts()] == ["train loss", "val loss"]
    one = history.plot(["val_loss"])
    assert one.get_legend() is None and one.get_ylabel() == "val loss"


def test_devices_and_batches():
    assert pick_device("cpu") == torch.device("cpu")
    expected = "cuda" if torch.cuda.is_available() else None
    if expected:
        assert pick_device().type == "cuda"
    batch = {"x": torch.ones(2), "pair": (torch.zeros(1), 3)}
    moved = to_device(batch, torch.device("cpu"))
    assert moved["pair"][1] == 3 and moved["x"].device.type == "cpu"


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (bf16 autocast, pinned memory)")
def test_on_cuda_batches_are_pinned_and_the_forward_pass_runs_in_bf16():
    dtypes = []

    def spy_step(model, batch):
        x, y = batch
        out = model(x).squeeze(-1)
        dtypes.append(out.dtype)
        return nn.functional.mse_loss(out.float(), y), len(y)

    device = torch.device("cuda")
    loader = make_loader(regression_data(), 16, collate, device=device)
    assert loader.pin_memory
    trainer = Trainer(nn.Linear(3, 1), spy_step, device=device, progress=False)
    history = trainer.fit(loader, epochs=3)
    assert dtypes[0] == torch.bfloat16 and history["train_loss"][-1] < history["train_loss"][0]
