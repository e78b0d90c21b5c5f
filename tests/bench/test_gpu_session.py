"""bench/gpu_session.py, the GPU day's one command, rehearsed on the CPU with --quick: every part runs and writes
its file, a part over its budget is stopped without losing the others, and nothing it imports (in any of its
processes: the parts, the notebook kernel, pytest) is missing from the GPU machine (bench/gpu_machine.toml).
No test here may have "cuda" in its name: the session's first part runs `pytest -k cuda` over tests/bench."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
import gpu_machine  # noqa: E402

# Put first on PYTHONPATH, this lists the top-level modules that every Python process of the session imports, as
# it imports them (a notebook's kernel is stopped without running atexit handlers).
RECORDER = '''import os, sys

_seen = set()
_log = os.path.join(os.environ["GPU_SESSION_IMPORT_LOG"], f"{os.getpid()}.txt")


def _record(event, args):
    if event == "import" and args[0].split(".")[0] not in _seen:
        _seen.add(args[0].split(".")[0])
        with open(_log, "a") as handle:
            handle.write(args[0].split(".")[0] + "\\n")


for _name in list(sys.modules):  # what the interpreter imported before this file
    _record("import", (_name,))
sys.addaudithook(_record)
'''
# present in every process here but not code of the session: this recorder, and .venv's editable-install finders
NOT_THE_SESSIONS = ("sitecustomize", "__editable__", "__main__", "__mp_main__")


def _tiny_notebook(path: Path) -> Path:
    """A notebook whose demo reports its scale and metric as the chapters' demos do."""
    source = "from seqmodels.tasks.demo_scale import report\nreport('cpu', test_accuracy=0.5)"
    cell = {"cell_type": "code", "execution_count": None, "id": "c0", "metadata": {}, "outputs": [], "source": source}
    path.write_text(json.dumps({"cells": [cell], "metadata": {"kernelspec": {"name": "python3", "language": "python",
                                "display_name": "Python 3"}}, "nbformat": 4, "nbformat_minor": 5}))
    return path


def _session(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, Path, list[set[str]]]:
    """Run the session with --quick; its result, its folder and the top-level modules each of its processes imported."""
    hooks, imports, out = tmp_path / "hooks", tmp_path / "imports", tmp_path / "out"
    hooks.mkdir()
    imports.mkdir()
    (hooks / "sitecustomize.py").write_text(RECORDER)
    env = {**os.environ, "GPU_SESSION_IMPORT_LOG": str(imports),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(hooks), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, str(BENCH / "gpu_session.py"), "--out", str(out), "--quick", *args],
                          env=env, capture_output=True, text=True, timeout=1800)
    return done, out, [{name for name in log.read_text().split() if not name.startswith(NOT_THE_SESSIONS)}
                       for log in imports.glob("*.txt")]


def test_gpu_session_rehearsal_writes_every_part_and_imports_only_what_the_gpu_machine_has(tmp_path):
    pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    notebook = _tiny_notebook(tmp_path / "demo.ipynb")
    done, out, processes = _session(tmp_path, "--notebook-paths", str(notebook))
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-3000:]

    expected = {"session.log", "session.json", "cuda-tests.json", "notebooks.json", "chapter12.json", "tasks.json",
                "training.json", "structured.json"}
    assert {p.name for p in out.iterdir()} == expected  # 8 files: what one device call brings back
    session = json.loads((out / "session.json").read_text())
    parts = ["cuda-tests", "notebooks", "chapter12", "chapter14", "tasks", "benchmarks", "tasks-cpu-anchor"]
    assert list(session["parts"]) == parts and all(p["status"] == "pass" for p in session["parts"].values())
    log = (out / "session.log").read_text()
    for part in parts[:-1]:  # each part's time printed, and its output in the log
        assert f"part {part}: pass in " in done.stdout and f"===== part {part}: pass in " in log

    tests = json.loads((out / "cuda-tests.json").read_text())["cuda_tests"]
    assert tests["passed"] and "skipped" in tests["summary"]  # no GPU here: the CUDA variants skip
    notebooks = json.loads((out / "notebooks.json").read_text())["notebooks"]
    assert notebooks[0]["gpu"]["passed"] and notebooks[0]["gpu"]["demo_results"] == [
        "demo at the cpu scale (cpu): test accuracy 0.500"]
    chapter12 = json.loads((out / "chapter12.json").read_text())
    assert {row["model"] for row in chapter12["training"]} == {"attention RNN (chapter 11)", "transformer"}
    assert all(row["seconds_per_epoch"] > 0 for row in chapter12["training"])
    assert set(chapter12["layer_cost"]["cpu"]["seconds"]) == {"LSTM", "encoder layer"}
    chapter14 = session["chapter14"]  # in session.json: a call brings back 8 files
    assert {row["view"] for row in chapter14["scan"]["rows"]} == {"loop over t", "parallel scan", "chunked",
                                                                   "fast path", "memory floor"}
    assert {(row["model"], row["tokens"]) for row in chapter14["generation_memory"]["rows"]} == {
        (model, tokens) for model in ("GPT, key-value cache", "Mamba LM, fixed state") for tokens in (4, 8)}
    row = json.loads((out / "tasks.json").read_text())["tasks"]["positions-none"]
    assert row["throughput_ratio"] > 0 and row["gpu_scale"]["metrics"] and row["cpu_anchor"]["metrics"]
    assert json.loads((out / "training.json").read_text())["tokens_per_s"]["nn.LSTM bare loop"] > 0
    assert json.loads((out / "structured.json").read_text())["ctc"]["ms"]["F.ctc_loss"] > 0

    # every process was recorded (the session, its parts, pytest, the notebook's kernel), and none of them imported
    # anything the GPU machine lacks; nor does any code the rehearsal skips (the notebooks, seqmodels) name one
    modules = set().union(*processes)
    assert {"report", "nbclient", "_pytest", "torch"} <= modules
    assert any({"ipykernel", "seqmodels"} <= imported for imported in processes)  # the kernel
    assert gpu_machine.not_there(modules) == []
    assert gpu_machine.not_there(gpu_machine.named_imports()) == []


def test_a_part_over_its_budget_is_stopped_and_the_parts_after_it_still_run(tmp_path):
    done, out, _ = _session(tmp_path, "--parts", "cuda-tests", "chapter12", "--budget", "cuda-tests=1")
    assert done.returncode == 1, done.stdout[-4000:] + done.stderr[-3000:]
    session = json.loads((out / "session.json").read_text())["parts"]
    assert session["cuda-tests"]["status"] == "timeout" and session["chapter12"]["status"] == "pass"
    assert json.loads((out / "cuda-tests.json").read_text())["status"] == "timeout"  # its file says why
    assert json.loads((out / "chapter12.json").read_text())["training"]
    assert "part cuda-tests: timeout in 1." in done.stdout and "stopped: over its budget of 1 s" in done.stdout
