"""What the course's text says about itself: one symbol for the number of heads (chapters 11-13 and the notation
page), chapter 13's symbols on the notation page, no jargon of the course's developers in a chapter, and the
README and the website's intro naming every chapter of solutions/."""
import json
import re

import pytest

from grading.instructor.course import REPO, SOLUTIONS, chapters

NOTATION = (REPO / "book" / "notation.md").read_text()
NUMBERS = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen".split()
# A word of each chapter's topic that the opening paragraphs of the README and of the website's intro must name.
TOPICS = {"01": "token", "02": "pooling", "03": "embeddings", "04": "recurrent", "05": "LSTM", "06": "bidirectional",
          "07": "convolutional", "08": "positional", "09": "CTC", "10": "CRF", "11": "attention", "12": "Transformer",
          "13": "GPT", "14": "state-space"}
ATTENTION_CHAPTERS = ("11_seq2seq", "12_transformer", "13_gpt")


def cells(chapter: str, kind: str | None = None) -> list[str]:
    notebook = json.loads((SOLUTIONS / chapter / f"{chapter}.ipynb").read_text())
    return ["".join(cell["source"]) for cell in notebook["cells"] if kind in (None, cell["cell_type"])]


def notation_rows(symbol: str) -> str:
    """The notation page's table rows whose first column is ``symbol`` (a letter may mean one thing in some
    chapters and another elsewhere), one a line."""
    rows = [line for line in NOTATION.splitlines() if line.startswith(f"| {symbol} |")]
    assert rows, f"book/notation.md has no row for {symbol}"
    return "\n".join(rows)


@pytest.mark.parametrize("chapter", ATTENTION_CHAPTERS)
def test_the_number_of_heads_is_H_in_every_attention_chapter(chapter):
    """Chapter 11 once wrote h heads of D/h columns and chapter 12 H heads of D/H."""
    lower = [text for text in cells(chapter) if re.search(r"D\s*/\s*h\b|\$h\$ (heads|attentions|projections)", text)]
    assert not lower, f"{chapter} writes the number of heads h (D/h); the course writes H (D/H): {lower[0][:300]}"


def test_the_multi_head_diagram_writes_H():
    drawing = (REPO / "book" / "diagrams" / "attention.py").read_text()
    assert "D/h" not in drawing, "book/diagrams/attention.py labels the heads h (D/h); the course writes H"


def test_the_notation_page_names_the_heads_H_for_chapters_11_to_13():
    row = next((row for row in notation_rows("$H$").splitlines() if "heads" in row), "")
    assert all(n in row.rsplit("|", 2)[1] for n in ("11", "12", "13")), f"no row for H heads in 11-13: {row}"
    assert not [line for line in NOTATION.splitlines() if line.startswith("| $h$ |")], "heads are H, not h"


@pytest.mark.parametrize("symbol, says", [
    (r"$\theta_i$", "RoPE"), ("$m$, $n$", "13"), ("$T$", "13"), ("$k$", "top-k"), ("$p$", "top-p"),
    ("`</w>`", "end-of-word"),
])
def test_the_notation_page_names_chapter_13s_symbols(symbol, says):
    assert says in notation_rows(symbol), f"book/notation.md's row for {symbol} should say {says!r}"


def test_chapter_13_keeps_T_for_the_temperature():
    """T once was both the temperature and the number of generated tokens (its written answers)."""
    counted = [text for text in cells("13_gpt") if re.search(r"\$T\$ tokens|T\^[23]", text)]
    assert not counted, f"13_gpt writes T for a number of tokens; T is the temperature: {counted[0][:300]}"


@pytest.mark.parametrize("chapter", chapters())
def test_no_chapter_speaks_of_the_gpu_day(chapter):
    """A student does not know what "the GPU day" is: a chapter says what was measured, on what."""
    said = [text for text in cells(chapter, "markdown") if re.search(r"GPU day|not measured yet", text)]
    assert not said, f"{chapter} says 'GPU day' or 'not measured yet': {said[0][:400]}"


@pytest.mark.parametrize("page", ["README.md", "book/intro.md"])
def test_the_readme_and_the_intro_name_every_chapter(page):
    text = (REPO / page).read_text()
    opening = text.split("\n\n")[1]  # the paragraph under the title
    missing = [chapter for chapter in chapters()
               if TOPICS.get(chapter[:2], f"<no topic word for {chapter} in TOPICS>") not in opening]
    assert not missing, f"{page}'s opening paragraph names no topic of {missing}: {opening!r}"
    counts = re.findall(rf"\b(?:all|the) ({'|'.join(NUMBERS)}|\d+) chapters", text)
    wrong = [count for count in counts if count not in (str(len(chapters())), NUMBERS[len(chapters()) - 1])]
    assert not wrong, f"{page} counts {wrong} chapters; solutions/ has {len(chapters())}"


def test_the_intro_lists_every_chapter():
    listed = re.findall(r"\]\(chapters/(\d\d_\w+)\)", (REPO / "book" / "intro.md").read_text())
    assert listed == chapters(), f"book/intro.md's table lists {listed}, solutions/ has {chapters()}"
