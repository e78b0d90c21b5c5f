"""Draw the course's diagrams of mechanisms and keep every copy of them up to date.

Each diagram is drawn by a function of this folder's modules (the drawing kit is `draw.py`) and
exists in two forms, made from the same drawing:

- `book/diagrams/<name>.svg`, committed, which the website shows (book/make_pages.py points the
  chapter pages at it);
- a PNG attachment `<name>.png` of the markdown cell of the solution notebook that shows it,
  `![alt text](attachment:<name>.png)`, so that a notebook displays its diagrams wherever it is
  opened, with no file beside it (nbgrader copies attachments into the student notebooks).

Usage, from the repository root:

    python book/diagrams/make_diagrams.py           # redraw every SVG and refresh the attachments
    python book/diagrams/make_diagrams.py --check   # only report what is out of date (exit status 1)

Adding a diagram: write its function, add it to DIAGRAMS under a name that starts with its
chapter's number, put `![alt text](attachment:<name>.png)` and a caption into a markdown cell of
the chapter's solution notebook, run this script, then `make release`.
"""
import base64
import io
import re
import sys
from pathlib import Path

import nbformat
import numpy as np
from matplotlib.image import imread

import attention
import cooccurrence
import gpt
import language_model
import order
import recurrent
import search
import state_space
import structured
import words
from draw import render

HERE = Path(__file__).resolve().parent
SOLUTIONS = HERE.parents[1] / "solutions"
# ![alt text](attachment:<name>.png), where the alt text may hold brackets one level deep ("[PAD]").
ATTACHMENT = re.compile(r"!\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(attachment:([\w.-]+)\.png\)")

DIAGRAMS = {
    "01_one_hot_embedding": words.one_hot_embedding,
    "02_pooling": words.pooling,
    "02_feed_forward": words.feed_forward,
    "03_skip_gram": words.skip_gram,
    "03_glove_cooccurrence": cooccurrence.glove_cooccurrence,
    "04_unrolled_rnn": recurrent.unrolled_rnn,
    "04_rnn_language_model": language_model.rnn_language_model,
    "05_lstm_cell": recurrent.lstm_cell,
    "05_gru_cell": recurrent.gru_cell,
    "06_bidirectional": recurrent.bidirectional,
    "06_stacked": recurrent.stacked,
    "07_convolution": order.convolution,
    "08_clocks": order.clocks,
    "09_ctc_lattice": structured.ctc_lattice,
    "10_crf_trellis": structured.crf_trellis,
    "11_encoder_decoder_attention": attention.encoder_decoder_attention,
    "11_beam_search": search.beam_search_tree,
    "11_multi_head_attention": attention.multi_head_attention,
    "12_transformer_block": attention.transformer_block,
    "13_bpe_merges": gpt.bpe_merges,
    "13_causal_mask": gpt.causal_mask,
    "13_kv_cache": gpt.kv_cache,
    "14_two_views": state_space.two_views,
    "14_scan_tree": state_space.scan_tree,
    "14_selective_ssm": state_space.selective_ssm,
}


def drawings() -> dict[str, tuple[bytes, bytes]]:
    """Every diagram as (SVG, PNG) bytes, drawn afresh."""
    return {name: render(draw(), name) for name, draw in DIAGRAMS.items()}


def same_picture(attachment: dict, png: bytes) -> bool:
    """Whether a cell's attachment shows the pixels of `png` (another PNG encoder may pack them differently)."""
    encoded = attachment.get("image/png")
    if encoded is None:
        return False
    return np.array_equal(imread(io.BytesIO(base64.b64decode(encoded))), imread(io.BytesIO(png)))


def stale_attachments(notebook: nbformat.NotebookNode, pngs: dict[str, bytes]) -> list[tuple[int, str]]:
    """(cell index, diagram) of every diagram that a markdown cell shows with another picture than the current one."""
    return [(index, name) for index, cell in enumerate(notebook.cells) if cell.cell_type == "markdown"
            for _, name in ATTACHMENT.findall(cell.source)
            if name in pngs and not same_picture(cell.get("attachments", {}).get(f"{name}.png", {}), pngs[name])]


def main(check: bool) -> int:
    drawn = drawings()
    out_of_date = []
    for name, (svg, _) in drawn.items():
        path = HERE / f"{name}.svg"
        if not path.is_file() or path.read_bytes() != svg:
            out_of_date.append(f"book/diagrams/{name}.svg")
            if not check:
                path.write_bytes(svg)
    pngs = {name: png for name, (_, png) in drawn.items()}
    chapters = {name[:2] for name in drawn}
    for path in sorted(p for chapter in chapters for p in SOLUTIONS.glob(f"{chapter}_*/{chapter}_*.ipynb")):
        notebook = nbformat.read(path, as_version=4)  # read just before writing: others may edit other cells
        stale = stale_attachments(notebook, pngs)
        out_of_date += [f"{path.relative_to(SOLUTIONS.parent)}: attachment {name}.png" for _, name in stale]
        if stale and not check:
            for index, name in stale:
                encoded = base64.b64encode(pngs[name]).decode()
                notebook.cells[index].setdefault("attachments", {})[f"{name}.png"] = {"image/png": encoded}
            nbformat.write(notebook, path)
    for item in out_of_date:
        print(("out of date: " if check else "updated: ") + item)
    return 1 if check and out_of_date else 0


if __name__ == "__main__":
    sys.exit(main(check="--check" in sys.argv[1:]))
