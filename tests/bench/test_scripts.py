"""The benchmark scripts still run (tiny settings, on the CPU) and write the JSON they promise.
They are not timed here: the figures come from real runs, recorded in bench/README.md."""
import json
import os
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
    out = run("training.py", "--iterations", "2", "--rounds", "1", "--json", str(tmp_path / "t.json"))
    assert "device: cpu" in out and "nn.LSTM bare loop" in out and "1.00x" in out
    rates = json.loads((tmp_path / "t.json").read_text())["tokens_per_s"]
    assert set(rates) == {"nn.LSTM bare loop", "RecurrentLM, bare loop", "trainer (RecurrentLM)", "hand-written steps"}
    assert all(rate > 0 for rate in rates.values())


def test_structured_losses_agree_with_pytorch(tmp_path):
    out = run("structured.py", "--repeats", "1", "--json", str(tmp_path / "s.json"))
    results = json.loads((tmp_path / "s.json").read_text())
    assert "F.ctc_loss (anchor)" in out and "seqmodels fused_ctc_loss" in out
    assert set(results["ctc"]["ms"]) == {"F.ctc_loss", "ctc_loss", "fused_ctc_loss"}
    assert results["ctc"]["largest_relative_difference"] < 1e-5
    assert results["ctc"]["gradient_relative_difference"]["fused_ctc_loss"] < 1e-4  # to float64 F.ctc_loss
    if results["crf"] is None:
        pytest.skip("pytorch-crf (bench/requirements.txt) is not installed: the CRF rows were skipped")
    assert results["crf"]["relative_difference"] < 1e-5 and results["crf"]["identical_paths"]
    assert results["crf"]["identical_scores"] and "crf_viterbi_fused" in results["crf"]["ms"]


def test_tasks_trains_both_paths_and_the_cpu_anchor_and_reports_the_metric(tmp_path):
    out = run("tasks.py", "--hand-written", "--cpu-anchor", "--tasks", "positions-none", "--json", str(tmp_path / "k.json"))
    row = json.loads((tmp_path / "k.json").read_text())["tasks"]["positions-none"]
    assert "positions-none" in out and "vs CPU" in out
    assert set(row["fast"]["metrics"]) == set(row["hand_written"]["metrics"]) == {"test_accuracy"}
    assert row["fast"]["metrics"] == row["cpu_anchor"]["metrics"]  # same device, same scale: the same run
    assert all(row[path]["tokens_per_s"] > 0 for path in ("fast", "hand_written", "cpu_anchor"))


def test_embeddings_compares_with_gensim_on_the_same_benchmarks(tmp_path):
    out = run("embeddings.py", "--epochs", "1", "--rounds", "1", "--json", str(tmp_path / "e.json"))
    rows = json.loads((tmp_path / "e.json").read_text())["rows"]
    assert "gensim Word2Vec (anchor)" in out and "1.00x" in out
    assert set(rows) == {"gensim Word2Vec (anchor)", "seqmodels SkipGram"}
    # the same words: the same coverage of every benchmark
    coverage = {(r["analogy_questions"], r["wordsim353_pairs"], r["simlex999_pairs"]) for r in rows.values()}
    assert coverage == {(409, 109, 165)} and all(r["seconds"] > 0 for r in rows.values())


def test_scan_times_every_view_against_the_loop_and_the_memory_floor(tmp_path):
    out = run("scan.py", "--lengths", "64", "100", "--rounds", "1", "--json", str(tmp_path / "s.json"))
    rows = json.loads((tmp_path / "s.json").read_text())["rows"]
    views = ["loop over t", "parallel scan", "chunked", "fast path", "memory floor"]
    assert [(row["L"], row["view"]) for row in rows] == [(L, view) for L in (64, 100) for view in views]
    assert all(row["tokens_per_s"] > 0 for row in rows) and "fast path" in out and "GB/s" in out
    assert all(row["ratio_to_loop"] == 1.0 for row in rows if row["view"] == "loop over t")
    assert all(row["gb_per_s"] > 0 for row in rows if row["view"] == "memory floor")


def test_generation_memory_reads_the_cache_and_the_state_each_model_holds(tmp_path):
    out = run("generation_memory.py", "--preset", "tiny", "--tokens", "4", "40", "--json", str(tmp_path / "g.json"))
    results = json.loads((tmp_path / "g.json").read_text())
    facts, rows = results["facts"], {(row["model"], row["tokens"]): row for row in results["rows"]}
    assert "Mamba LM, fixed state" in out and set(rows) == {(model, tokens) for tokens in (4, 40)
                                                             for model in ("GPT, key-value cache", "Mamba LM, fixed state")}
    # by hand: keys and values of width 16 for the 8-token prompt and every new token, float32, 1 block; a Mamba
    # block of width 16 holds its inner width (2 · 16) times 16 states and the convolution's last 3 inputs, a view
    # that keeps the whole window of 4 alive
    for tokens in (4, 40):
        assert rows["GPT, key-value cache", tokens]["held_bytes"] == 2 * 1 * (8 + tokens) * 16 * 4
        assert rows["Mamba LM, fixed state", tokens]["held_bytes"] == facts["mamba_layers"] * 32 * (4 + 16) * 4
    assert all(row["tokens_per_s"] > 0 and "peak_bytes" not in row for row in rows.values())  # CUDA's only
    gpt, mamba = (facts["parameters"][name] for name in ("GPT, key-value cache", "Mamba LM, fixed state"))
    assert abs(mamba - gpt) <= 0.5 * gpt  # comparable sizes: the closest number of Mamba blocks


def _notebook(path: Path, *sources: str, grade_id: str | None = None) -> Path:
    """A minimal nbformat-4 notebook of code cells; the last one gets nbgrader metadata when grade_id is given."""
    cells = [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [], "source": s}
             for i, s in enumerate(sources)]
    if grade_id:
        cells[-1]["metadata"]["nbgrader"] = {"grade": True, "grade_id": grade_id, "locked": True, "points": 1,
                                             "schema_version": 3, "solution": False, "task": False}
    path.write_text(json.dumps({"cells": cells, "metadata": {"kernelspec": {"name": "python3", "language": "python",
                                "display_name": "Python 3"}}, "nbformat": 4, "nbformat_minor": 5}))
    return path


def test_gpu_check_runs_each_notebook_in_fresh_kernels_and_names_the_first_failing_cell(tmp_path):
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    # the kernel sees the course's packages, runs in the notebook's folder, and in the CPU column has no GPU
    # and the threads asked for; the table and the JSON name the cell that failed
    good = _notebook(tmp_path / "good.ipynb", "import json, os, torch, seqmodels\nfrom grading.student.checks import expect_equal",
                     "column = 'cpu' if os.environ.get('CUDA_VISIBLE_DEVICES') == '' else 'gpu'\n"
                     "facts = {'cwd': os.getcwd(), 'threads': torch.get_num_threads(), 'cuda': torch.cuda.is_available()}\n"
                     "open(f'facts-{column}.json', 'w').write(json.dumps(facts))")
    bad = _notebook(tmp_path / "bad.ipynb", "x = 1", "raise ValueError('wrong values\\nexpected: 1')", grade_id="test_bad")
    done = subprocess.run([sys.executable, str(BENCH / "gpu_check.py"), "--notebook-paths", str(good), str(bad),
                           "--no-tests", "--cpu-jobs", "2", "--cpu-threads", "1", "--json", str(tmp_path / "g.json")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr[-3000:]
    assert "FAIL" in done.stdout and "cell 1 (test_bad): ValueError: wrong values" in done.stdout
    report = json.loads((tmp_path / "g.json").read_text())
    rows = {row["notebook"]: row for row in report["notebooks"]}
    assert report["passed"] is False and report["cuda_tests"] is None
    assert rows["good"]["gpu"]["passed"] and rows["good"]["cpu"]["passed"] and rows["good"]["cpu"]["device"] == "cpu"
    for column in ("gpu", "cpu"):
        assert rows["bad"][column]["error"] == {"cell": 1, "grade_id": "test_bad", "ename": "ValueError",
                                                "evalue": "wrong values"}
        assert rows["good"][column]["seconds"] > 0
    cpu = json.loads((tmp_path / "facts-cpu.json").read_text())
    assert cpu == {"cwd": str(tmp_path), "threads": 1, "cuda": False}
    assert json.loads((tmp_path / "facts-gpu.json").read_text())["cuda"] == report["device"]["cuda"]


def test_gpu_check_starts_a_hung_kernel_once_more_then_says_it_never_started(tmp_path):
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    # a kernel that never answers (once, a start hung until the test above hit its limit): two short waits, then a
    # clear failure in place of a hang
    sys.path.insert(0, str(BENCH))
    import gpu_check

    spec = tmp_path / "kernels" / gpu_check.KERNEL_NAME
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({"argv": ["sleep", "600"], "display_name": "hangs", "language": "python"}))
    notebook = _notebook(tmp_path / "never.ipynb", "x = 1")
    outcome = gpu_check.run_notebook(notebook, dict(os.environ), tmp_path / "kernels", cell_timeout=60, start_timeout=3)
    assert not outcome["passed"] and outcome["error"]["cell"] is None
    assert outcome["error"]["evalue"].startswith("no cell ran: the kernel failed to start (3 s allowed), 2 times")
    assert 6 <= outcome["seconds"] < 120
