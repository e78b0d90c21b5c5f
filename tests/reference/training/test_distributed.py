"""Data-parallel training: ranks share every batch; under torchrun (gloo, CPU processes) one process gives
exactly the plain run's numbers and two processes follow it.

The torchrun runs execute this file as a script (the ``__main__`` block at the end): each process trains
a small regression model through a method other than ``forward`` and then runs ``seqmodels.train``'s
``main`` on sentiment for one epoch, and saves what it got in ``OUT/rank<R>.pt``. The same script run
plainly gives the 1-process figures. Every run has one CPU thread per process, so numbers compare.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torch.distributed as dist
from torch import nn
from torch.nn import functional as F

from seqmodels.training import Trainer, distributed, make_loader

TASK = "sentiment"  # the fastest task: ~1 s an epoch on a CPU
TORCHRUN = Path(sys.executable).with_name("torchrun")
NO_TORCHRUN = not (dist.is_available() and dist.is_gloo_available())
# Sentiment's loss is a mean over sentences and its 32-sentence batches split evenly, so the 2-process
# weights follow the 1-process ones up to float rounding (seen: 1.5e-7 after an epoch), and so do the
# accuracies (seen: equal; allowed: 2 of the 400 sentences). Its history's train_loss weights each
# shard's mean by its tokens (words), which the two halves of a batch hold unevenly (seen: 4e-4 apart).
WEIGHTS_ATOL, TRAIN_LOSS_ATOL, ACCURACY_ATOL = 1e-5, 2e-3, 0.005


def batches_of(loader):
    return [list(batch) for batch in loader]


@pytest.mark.parametrize("world_size", [2, 3])
def test_ranks_split_every_batch_of_the_seeded_shuffle_into_disjoint_shards(world_size):
    def loader():
        return make_loader(list(range(40)), 8, list, seed=5)

    plain, shards = loader(), [distributed.loader_shard(loader(), r, world_size) for r in range(world_size)]
    for _ in range(2):  # each epoch draws a new order, the same on every rank
        global_batches = batches_of(plain)
        rank_batches = [batches_of(shard) for shard in shards]
        assert all(len(batches) == len(global_batches) == len(shard) for batches, shard in zip(rank_batches, shards))
        for step, batch in enumerate(global_batches):
            parts = [batches[step] for batches in rank_batches]
            assert sorted(sum(parts, [])) == sorted(batch)  # together: exactly the 1-process batch
            assert max(map(len, parts)) - min(map(len, parts)) <= 1


def test_a_final_batch_smaller_than_the_ranks_is_left_out_on_every_rank():
    shards = [distributed.loader_shard(make_loader(list(range(17)), 8, list), r, 3) for r in range(3)]
    assert [len(shard) for shard in shards] == [2, 2, 2]  # batches of 8, 8 and 1
    assert all(len(batches_of(shard)) == 2 for shard in shards)


def test_cuda_means_the_local_rank_s_gpu_only_under_torchrun(monkeypatch):
    cuda = torch.device("cuda")
    for name in distributed.TORCHRUN:
        monkeypatch.delenv(name, raising=False)
    assert distributed.local_device(cuda) == cuda and distributed.is_main()
    for name, value in zip(distributed.TORCHRUN, ("2", "1", "1")):  # WORLD_SIZE, RANK, LOCAL_RANK
        monkeypatch.setenv(name, value)
    assert distributed.local_device(cuda) == torch.device("cuda:1") and not distributed.is_main()
    assert distributed.local_device(torch.device("cpu")) == torch.device("cpu")


def test_without_torchrun_the_trainer_starts_no_process_group(monkeypatch):
    for name in distributed.TORCHRUN:
        monkeypatch.delenv(name, raising=False)
    loader = make_loader([(torch.randn(3), torch.randn(())) for _ in range(8)], 4, regression_collate)
    assert distributed.shard(loader) is loader
    Trainer(Regression(), regression_step, device="cpu", progress=False).fit(loader)
    assert not dist.is_initialized()


# the models the torchrun processes train


class Regression(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(3, 1)
        self.unused = nn.Parameter(torch.zeros(2))  # no step touches it

    def loss(self, x, y):
        return F.mse_loss(self.linear(x).squeeze(-1), y)


def regression_collate(pairs):
    x, y = zip(*pairs)
    return torch.stack(x), torch.stack(y)


def regression_step(model, batch):
    return model.loss(*batch), len(batch[1])  # not forward: the gradients must be averaged all the same


def probe(out: Path) -> None:
    """What one process trains and records (run by torchrun, or plainly for the 1-process figures)."""
    import seqmodels.train

    g = torch.Generator().manual_seed(0)
    x = torch.randn(64, 3, generator=g)
    data = list(zip(x, x @ torch.tensor([1.0, -2.0, 0.5]) + 0.3))
    torch.manual_seed(0)
    regression = Trainer(Regression(), regression_step, lr=0.05, device="cpu", progress=False)
    regression.fit(make_loader(data, 16, regression_collate), epochs=3)

    trainers, results = [], []

    class Recording(Trainer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            trainers.append(self)

    def recording_train(*args, train=seqmodels.train.train, **kwargs):
        results.append(train(*args, **kwargs))
        return results[-1]

    seqmodels.train.Trainer, seqmodels.train.train = Recording, recording_train
    assert seqmodels.train.main([TASK, "--device", "cpu", "--epochs", "1"]) == 0
    assert not dist.is_initialized()  # main destroyed the process group
    (trainer,) = trainers

    def figures(history):  # without the timings
        return [{k: v for k, v in row.items() if k not in ("seconds", "tokens_per_s")} for row in history.rows]

    torch.save({"regression": {"state": regression.model.state_dict(), "history": figures(regression.history),
                               "unused_grad": regression.model.unused.grad,
                               "unused_stepped": regression.model.unused in regression.optimizer.state},
                "task": {"state": trainer.model.state_dict(), "metrics": results[0],
                         "history": figures(trainer.history)}},
               out / f"rank{distributed.rank()}.pt")


def launch(out: Path, processes: int | None, *args: str) -> subprocess.Popen:
    """This file as a probe (or ``args``, if given, instead), plainly or under torchrun with ``processes``."""
    out.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in distributed.TORCHRUN}
    env["OMP_NUM_THREADS"] = "1"
    program = list(args) or [__file__, str(out)]
    torchrun = [str(TORCHRUN)] if TORCHRUN.exists() else [sys.executable, "-m", "torch.distributed.run"]
    command = [sys.executable, *program] if processes is None else \
        [*torchrun, "--standalone", f"--nproc_per_node={processes}", *program]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finished(process: subprocess.Popen) -> str:
    output, _ = process.communicate(timeout=300)
    assert process.returncode == 0, output[-3000:]
    return output


def load(out: Path, rank: int = 0) -> dict:
    return torch.load(out / f"rank{rank}.pt", weights_only=True)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The probe's results plainly, under torchrun with 1 process and with 2 (rank 0 and rank 1), and the
    output of ``torchrun --nproc_per_node=2 -m seqmodels.train``: launched together, as they mostly wait."""
    if NO_TORCHRUN:
        pytest.skip("this PyTorch build has no torch.distributed with gloo, which torchrun needs here")
    root = tmp_path_factory.mktemp("torchrun")
    processes = {"plain": launch(root / "plain", None), "one": launch(root / "one", 1), "two": launch(root / "two", 2),
                 "cli": launch(root / "cli", 2, "-m", "seqmodels.train", TASK, "--device", "cpu", "--epochs", "1")}
    outputs = {name: finished(process) for name, process in processes.items()}
    return {"plain": load(root / "plain"), "one": load(root / "one"),
            "two": [load(root / "two", rank) for rank in range(2)], "cli": outputs["cli"]}


def assert_identical(a, b):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            assert_identical(a[key], b[key])
    elif isinstance(a, torch.Tensor):
        torch.testing.assert_close(a, b, rtol=0, atol=0)
    else:
        assert a == b


def test_one_process_under_torchrun_gives_the_plain_run_s_numbers_bit_for_bit(runs):
    assert_identical(runs["one"], runs["plain"])


def test_two_processes_hold_the_same_weights_and_metrics(runs):
    assert_identical(runs["two"][1], runs["two"][0])  # evaluation ran on both ranks, on the same weights


def test_two_processes_follow_the_one_process_run(runs):
    two, plain = runs["two"][0], runs["plain"]
    for name in ("regression", "task"):
        for key, weights in plain[name]["state"].items():
            torch.testing.assert_close(two[name]["state"][key], weights, rtol=0, atol=WEIGHTS_ATOL)
    # the regression's loss is a mean over examples and its steps weigh examples: the history agrees too
    for row, expected in zip(two["regression"]["history"], plain["regression"]["history"]):
        assert row["train_loss"] == pytest.approx(expected["train_loss"], rel=1e-5)
    (row,), (expected,) = two["task"]["history"], plain["task"]["history"]
    assert row["train_loss"] == pytest.approx(expected["train_loss"], abs=TRAIN_LOSS_ATOL)
    assert row["validation_accuracy"] == pytest.approx(expected["validation_accuracy"], abs=ACCURACY_ATOL)
    assert two["task"]["metrics"] == pytest.approx(plain["task"]["metrics"], abs=ACCURACY_ATOL)


def test_a_parameter_no_step_uses_keeps_no_gradient_as_in_one_process(runs):
    for run in (runs["plain"], *runs["two"]):
        assert run["regression"]["unused_grad"] is None and not run["regression"]["unused_stepped"]
        assert not run["regression"]["state"]["unused"].any()


def test_torchrun_two_processes_on_the_command_line_print_the_metrics_once(runs):
    lines = runs["cli"].replace("\r", "\n").splitlines()
    (metrics,) = [line for line in lines if line.startswith(f"{TASK} on cpu: ")]
    assert len([line for line in lines if line.startswith("epoch 1/1  train loss ")]) == 1
    accuracy = float(metrics.rsplit(" ", 1)[1])
    assert accuracy == pytest.approx(runs["plain"]["task"]["metrics"]["test_accuracy"], abs=ACCURACY_ATOL)


if __name__ == "__main__":
    probe(Path(sys.argv[1]))
