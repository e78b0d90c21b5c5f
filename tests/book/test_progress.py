"""Progress in the training demos: a live bar in the notebook, one line per epoch on the website.

Every demo that trains shows a progress bar while it trains and prints a line per epoch (the course's
Trainer does both unless told ``progress=False``; a demo with its own loop uses ``progress_bar``).
The bar is a text bar on stdout, never a widget, so a saved notebook keeps one output per run, the epoch
lines and the bar's final line, and no "Error displaying widget". The website is made from the executed
notebooks: book/make_pages.py drops the bars and keeps the epoch lines.
"""
import json
import re

import nbformat
import pytest
from nbclient import NotebookClient

from grading.instructor.course import SOLUTIONS
from tests.book.pages import make_pages


# (chapter, cell id): why that cell trains without a progress bar
WITHOUT_PROGRESS = {
    ("01_tokens", "c043"): "150 full-batch steps on a toy corpus of 20 word pairs, a twentieth of a second: "
                           "a bar would only flash",
    ("13_gpt", "d3681990c0d04846895402a7a7a42216"): "twelve fine-tuning runs of 10 to 95 steps, under a second "
                                                    "each on one CPU thread: a line per row of the table as it "
                                                    "comes, not 60 epoch lines and twelve bars that flash",
}
QUIET_TRAINER = re.compile(r"\bprogress\s*=\s*False")
OWN_TRAINING_LOOP = re.compile(r"\boptimizer\w*\.step\(")
EPOCH_LINE = re.compile(r"epoch \d+/\d+  train loss [\d.e+-]+( {2}[a-z ]+ [\d.e+-]+)*  \d+\.\d\d s  [\d,]+ tokens/s")


def demo_cells() -> list[tuple[str, nbformat.NotebookNode]]:
    """(chapter, cell) for every code cell of a solution notebook that is neither an answer nor a test."""
    cells = []
    for path in sorted(SOLUTIONS.glob("*/*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            grading = cell.metadata.get("nbgrader", {})
            if cell.cell_type == "code" and not grading.get("solution") and not grading.get("grade"):
                cells.append((path.parent.name, cell))
    return cells


def test_no_demo_silences_the_trainer():
    silenced = [f"{chapter} cell {cell.id}" for chapter, cell in demo_cells()
                if QUIET_TRAINER.search(cell.source) and (chapter, cell.id) not in WITHOUT_PROGRESS]
    assert not silenced, f"these demos train without a progress bar or epoch lines (progress=False): {silenced}"


def test_a_demo_with_its_own_training_loop_shows_a_progress_bar():
    loops = [(chapter, cell) for chapter, cell in demo_cells() if OWN_TRAINING_LOOP.search(cell.source)]
    assert loops, "no demo trains with its own loop: this check looks for the wrong thing"
    barless = [f"{chapter} cell {cell.id}" for chapter, cell in loops
               if "progress_bar(" not in cell.source and (chapter, cell.id) not in WITHOUT_PROGRESS]
    assert not barless, f"these demos train in their own loop without seqmodels.training.progress_bar: {barless}"


def test_the_exemptions_name_cells_that_exist():
    cells = {(chapter, cell.id) for chapter, cell in demo_cells()}
    assert set(WITHOUT_PROGRESS) <= cells, "an exemption names a cell that is gone: remove it"


def stream(name: str, text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_output("stream", name=name, text=text)


def test_the_page_keeps_the_epoch_lines_and_drops_every_kind_of_bar():
    widget = nbformat.v4.new_output("display_data", data={make_pages.WIDGET_VIEW: {"model_id": "1"},
                                                          "text/plain": "epoch 1/2:   0%|"})
    figure = nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0K"})
    text_bar = [stream("stderr", "\repoch 2/2:   0%|          | 0/4"),
                stream("stderr", "\repoch 2/2:  50%|#####     | 2/4"),
                stream("stderr", "\r                                  \r")]  # redrawn, then blanked as it closes
    kept_bar = [stream("stdout", "\repoch 1/2:  50%|█████     | 4/8 [00:00<00:00, 510.62it/s, loss=1.2659]"),
                stream("stdout", "\r                    \r"), stream("stdout", "epoch 1/2  train loss 0.5\n"),
                stream("stdout", "\repoch 2/2: 100%|██████████| 8/8 [00:01<00:00, 411.57it/s, loss=1.2574]\n"),
                stream("stdout", "\rrows: 12it [00:00, 340.10it/s]\n")]  # final states left (leave=True)
    outputs = [stream("stdout", "device: cpu\n"), widget, stream("stdout", "epoch 1/2  train loss 0.5\n"), *text_bar,
               stream("stdout", "epoch 2/2  train loss 0.4\n"), figure, *kept_bar,
               stream("stdout", "a line\r\nwith Windows ends\r\n")]
    assert make_pages.merged_streams(outputs) == [
        stream("stdout", "device: cpu\nepoch 1/2  train loss 0.5\nepoch 2/2  train loss 0.4\n"), figure,
        stream("stdout", "epoch 1/2  train loss 0.5\na line\r\nwith Windows ends\r\n")]


TRAINING = """
import torch
from seqmodels.training import Trainer

batches = [(torch.randn(16, 3), torch.randn(16)) for _ in range(4)]
step = lambda model, batch: (torch.nn.functional.mse_loss(model(batch[0]).squeeze(-1), batch[1]), 16)
trainer = Trainer(torch.nn.Linear(3, 1), step, device="cpu")
history = trainer.fit(batches, epochs=2, evaluate=lambda model: {"validation_mse": 0.25})
"""
WITHOUT_IPYWIDGETS = """
import sys

sys.modules["ipywidgets"] = None  # importing it now fails, as where it is not installed
"""


@pytest.mark.parametrize("kernel", ["with ipywidgets", "without ipywidgets"])
def test_a_demo_that_trained_in_a_kernel_keeps_one_output_and_its_page_one_line_per_epoch(kernel):
    """The trainer run in a kernel as make_pages runs the chapters: a text bar on stdout whether or not ipywidgets
    is there (no widget, which a saved notebook reopens as "Error displaying widget"), so the epoch lines and the
    bar's final line make one output once the streams are coalesced, as JupyterLab saves them; the page's output
    is the epoch lines alone."""
    cells = [TRAINING] if kernel == "with ipywidgets" else [WITHOUT_IPYWIDGETS, TRAINING]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    NotebookClient(nb, timeout=120, kernel_name="python3", extra_arguments=make_pages.KERNEL_OPTIONS).execute()
    raw = nb.cells[-1].outputs
    assert {(o.output_type, o.get("name")) for o in raw} == {("stream", "stdout")}, f"not one stream: {raw}"
    assert "ipywidgets" not in json.dumps(raw) and "widget" not in json.dumps(raw)
    shown = [line.rsplit("\r", 1)[-1] for line in "".join(o.text for o in raw).split("\n")]  # as Jupyter draws \r
    shown = [line for line in shown if line.strip()]
    assert [line.split("  ")[0] for line in shown] == ["epoch 1/2", "epoch 2/2", shown[-1].split("  ")[0]], shown
    assert "100%" in shown[-1] and "8/8" in shown[-1], f"the bar's final line is not kept last: {shown}"
    [printed] = make_pages.merged_streams(raw)
    assert printed.name == "stdout" and "\r" not in printed.text
    lines = printed.text.splitlines()
    assert [line.split("  ")[0] for line in lines] == ["epoch 1/2", "epoch 2/2"], printed.text
    assert all(EPOCH_LINE.fullmatch(line) and "validation mse 0.25" in line for line in lines), printed.text
