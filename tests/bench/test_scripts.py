"""The benchmark scripts still run (tiny settings, on the CPU) and write the JSON they promise.
They are not timed here: the figures come from real runs, recorded in bench/README.md."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCH / script), "--device", "cpu", *args],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_training_prints_every_row_with_its_ratio(tmp_path):
    out = run("training.py", "--iterations", "2", "--no-compile", "--json", str(tmp_path / "t.json"))
    assert "device: cpu" in out and "nn.LSTM bare loop" in out and "1.00x" in out
    rates = json.loads((tmp_path / "t.json").read_text())["tokens_per_s"]
    assert set(rates) == {"nn.LSTM bare loop", "RecurrentLM, bare loop", "trainer (RecurrentLM)", "hand-written steps"}
    assert all(rate > 0 for rate in rates.values())


def test_structured_losses_agree_with_pytorch(tmp_path):
    out = run("structured.py", "--repeats", "1", "--json", str(tmp_path / "s.json"))
    results = json.loads((tmp_path / "s.json").read_text())
    assert "F.ctc_loss (anchor)" in out
    assert results["ctc"]["largest_relative_difference"] < 1e-5
    if results["crf"] is None:
        pytest.skip("pytorch-crf (bench/requirements.txt) is not installed: the CRF rows were skipped")
    assert results["crf"]["relative_difference"] < 1e-5 and results["crf"]["identical_paths"]


def test_tasks_trains_both_paths_and_reports_the_metric(tmp_path):
    out = run("tasks.py", "--hand-written", "--tasks", "positions-none", "--json", str(tmp_path / "k.json"))
    row = json.loads((tmp_path / "k.json").read_text())["tasks"]["positions-none"]
    assert "positions-none" in out
    assert set(row["fast"]["metrics"]) == set(row["hand_written"]["metrics"]) == {"test_accuracy"}
