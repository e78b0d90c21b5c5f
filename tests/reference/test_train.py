"""The command line: every task is listed, trains on the CPU and reports its metric."""
import math

import pytest
import torch

from seqmodels.tasks import TASKS
from seqmodels.train import main, train
from tests.conftest import NO_GPU


def test_help_lists_every_task(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert all(name in text for name in TASKS)


@pytest.mark.parametrize("hand_written", [False, True])
def test_sentiment_trains_and_beats_chance(capsys, hand_written):
    assert main(["sentiment", "--device", "cpu", "--epochs", "3", *(["--hand-written"] if hand_written else [])]) == 0
    line = [line for line in capsys.readouterr().out.splitlines() if line.startswith("sentiment on cpu")][-1]
    accuracy = float(line.rsplit(" ", 1)[1])
    assert accuracy > 0.7, line


@pytest.mark.parametrize("task", sorted(TASKS))
def test_every_task_runs_an_epoch_and_reports_its_test_metric(capsys, task, device):
    assert main([task, "--device", device, "--epochs", "1"]) == 0
    assert f"{task} on {device}: test_" in capsys.readouterr().out


@pytest.mark.skipif(not torch.cuda.is_available(), reason=NO_GPU)
@pytest.mark.parametrize("task", sorted(TASKS))
def test_every_task_runs_its_hand_written_path_on_cuda(task):
    assert all(math.isfinite(value) for value in train(task, device="cuda", epochs=1, hand_written=True,
                                                        progress=False).values())


@pytest.mark.parametrize("cell", ["lstm", "gru"])
def test_a_gated_network_carries_the_first_symbol_across_the_sequence(cell):
    result = train(f"long-range-{cell}", device="cpu", progress=False)  # the task's own number of epochs
    assert result["test_accuracy"] > 0.9, result


def test_an_unknown_task_is_refused_with_the_list(capsys):
    with pytest.raises(SystemExit):
        main(["translation"])
    assert "invalid choice" in capsys.readouterr().err


def test_attention_learns_to_normalise_dates():
    result = train("dates-attention", device="cpu", progress=False)  # the task's own number of epochs
    assert result["test_exact_match"] > 0.9, result


def test_a_transformer_learns_to_normalise_dates_too():
    result = train("dates-transformer", device="cpu", progress=False)  # the task's own number of epochs
    assert result["test_exact_match"] > 0.85, result


def test_cuda_graphs_without_the_hand_written_path_or_a_gpu_is_refused(capsys):
    with pytest.raises(SystemExit):
        main(["char-lm", "--device", "cpu", "--cuda-graphs"])
    assert "--cuda-graphs needs --hand-written and a CUDA device" in capsys.readouterr().err


def test_the_gpu_scale_builds_a_wider_model_on_more_data():
    from seqmodels.tasks.base import SCALES
    small, large = (TASKS["positions-learned"].build(device=torch.device("cpu"), scale=SCALES[name])
                    for name in ("cpu", "gpu"))
    parameters = [sum(p.numel() for p in setup.model.parameters()) for setup in (small, large)]
    assert parameters[1] > 3.5 * parameters[0]  # four times as wide
    assert len(large.train.dataset) == 8 * len(small.train.dataset)
    assert large.train.batch_size == 8 * small.train.batch_size
