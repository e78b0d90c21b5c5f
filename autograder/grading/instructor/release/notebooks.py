"""Generate the student notebooks (notebooks/<chapter>/) from the solutions with nbgrader.

Usage: python -m grading.instructor.release.notebooks [CHAPTER ...] [--force]

Each notebook's install cell (for Colab) is given the student repository that _config.yml names
(``COURSE_REPOSITORY``; left empty while it names the placeholder, and the cell then says what to
configure). After the set-up cell, a chapter whose graded functions build on each other gets a cell that gives
the kernel that graph, read from the solution as the grader reads it (``builds_on_cell``), so that a visible test
says "fix X first" as the feedback does; then a notebook whose demos use answers of earlier chapters lists them and
calls ``grading.student.earlier_answers.check_earlier_answers``, which says in one message which of them
the student's notebook and package still lack; the lists are recorded by running the solution notebooks
(grading.instructor.release.earlier_answers, ``make earlier-answers``), which the release does not do: it
names a chapter whose record is older than its solutions or the reference. A chapter whose solutions, nbgrader configuration and student
repository are unchanged since its last release is skipped (grading.instructor.freshness); ``--force``
releases it anyway.
"""
import json
import re
import sys
import textwrap
from pathlib import Path

import nbformat

from grading.instructor import freshness
from grading.instructor.course import NOTEBOOKS, REPO, SOLUTIONS, chapters, nbgrader, student_repository
from grading.instructor.release import earlier_answers
from grading.instructor.verdicts.checker import graded_functions
from grading.student import dependencies

_SECRET_REGION = re.compile(r"### BEGIN (SOLUTION|HIDDEN TESTS)\n(.*?)### END \1", re.DOTALL)
_REPOSITORY_LINE = re.compile(r'^COURSE_REPOSITORY = ".*"$', re.MULTILINE)


def release(chapter: str, *extra: str, directory: Path = NOTEBOOKS, repository: str | None = None) -> None:
    """``nbgrader generate_assignment`` into ``directory``: strip solutions and hidden tests, lock test cells,
    record checksums; then name ``repository`` (by default _config.yml's) in the install cell."""
    nbgrader("generate_assignment", chapter, "--force", f"--CourseDirectory.release_directory={directory}", *extra)
    url = student_repository() if repository is None else repository
    used = earlier_answers.uses(chapter)
    for path in (directory / chapter).glob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            cell.source = _REPOSITORY_LINE.sub(f'COURSE_REPOSITORY = "{url}"', cell.source)
        at = next(i for i, cell in enumerate(notebook.cells)
                  if cell.metadata.get("nbgrader", {}).get("grade_id") == "setup") + 1
        calls = dependencies.graded_calls(graded_functions(nbformat.read(SOLUTIONS / chapter / path.name, as_version=4)))
        notebook.cells[at:at] = ([builds_on_cell(calls)] if any(calls.values()) else []) + (
            earlier_answers_cells(used) if used else [])
        nbformat.write(notebook, path)


def builds_on_cell(calls: dict[str, set[str]]) -> nbformat.NotebookNode:
    """The cell that gives the kernel the chapter's graph of graded functions (grading.student.progress); a fixed
    id, so that a release is the same each time."""
    entries = "".join(f"        {json.dumps(name)}: {json.dumps(sorted(calls[name]))},\n" for name in sorted(calls))
    code = ("# Which exercises build on which: a test of one that fails because one it builds on fails its own\n"
            "# tests says to fix that one first.\n"
            "from grading.student.progress import builds_on\n\n"
            f"builds_on(\n    {{\n{entries}    }}\n)")
    return nbformat.v4.new_code_cell(code, id="builds-on")


def earlier_answers_cells(used: dict[str, list[str]]) -> list[nbformat.NotebookNode]:
    """The cells after the set-up cell that list the earlier chapters' answers the demos use (chapter -> names)
    and say which are still missing; fixed ids, so that a release is the same each time."""
    listed = "; ".join(f"chapter {chapter[:2]}'s {', '.join(f'`{name}`' for name in names)}"
                       for chapter, names in used.items())
    text = textwrap.fill(
        f"**Other chapters' answers.** This notebook's demos run your answers of other chapters: {listed}. The "
        "cell below says which of them this notebook does not have yet: paste those functions from your notebooks "
        "of those chapters into a cell after it, or ask your instructor to release those chapters' answers. The "
        "exercises themselves do not need them.", 100)
    entries = "".join(f"        {json.dumps(chapter)}: {json.dumps(names)},\n" for chapter, names in used.items())
    code = ("from grading.student.earlier_answers import check_earlier_answers\n\n"
            f"check_earlier_answers(\n    {{\n{entries}    }}\n)")
    return [nbformat.v4.new_markdown_cell(text, id="earlier-answers"),
            nbformat.v4.new_code_cell(code, id="earlier-answers-check")]


def _regions(chapter: str) -> tuple[dict[str, set[str]], set[str]]:
    """Lines of the chapter's solution notebooks inside each kind of secret region, and the lines outside."""
    inside: dict[str, set[str]] = {"SOLUTION": set(), "HIDDEN TESTS": set()}
    outside: set[str] = set()
    for source in (SOLUTIONS / chapter).glob("*.ipynb"):
        for cell in json.loads(source.read_text())["cells"]:
            text = "".join(cell["source"])
            for kind, body in _SECRET_REGION.findall(text):
                inside[kind] |= {line.strip() for line in body.splitlines() if len(line.strip()) > 12}
            outside |= {line.strip() for line in _SECRET_REGION.sub("", text).splitlines()}
    return inside, outside


def secret_lines(chapter: str, kinds: tuple[str, ...] = ("SOLUTION", "HIDDEN TESTS")) -> set[str]:
    """Lines that stand only inside the chapter's solution regions or hidden tests: none may be published.

    ``kinds`` picks the regions. Short lines (``return x``) and lines also present outside the
    regions are left out, so that a match in a student notebook or a web page is a real leak.
    A hidden-test line that any chapter shows openly (``g = torch.Generator().manual_seed(0)``) is
    no secret either; a solution line is, wherever else it stands, so an answer one chapter gives
    away in another is caught.
    """
    inside, outside = _regions(chapter)
    secret = set()
    if "SOLUTION" in kinds:
        secret |= inside["SOLUTION"] - outside
    if "HIDDEN TESTS" in kinds:
        shown_anywhere = set().union(*(_regions(other)[1] for other in chapters()))
        secret |= inside["HIDDEN TESTS"] - outside - shown_anywhere
    return secret


def leaked(secret: set[str], text: str) -> list[str]:
    """The ``secret`` lines that stand as whole lines in ``text`` (a published notebook, page or feedback).

    Whole lines, not substrings: formatted code splits a long call into short lines such as
    ``torch.randint(``, which visible code may well contain inside a longer line.
    """
    return sorted(secret & {line.strip() for line in text.splitlines()})


def _inputs(chapter: str) -> str:
    configs = [REPO / "nbgrader_config.py", REPO / "autograder" / "nbgrader_config.py", REPO / "requirements.txt"]
    return freshness.fingerprint(SOLUTIONS / chapter, *configs, student_repository().encode())


def main(argv: list[str]) -> None:
    force = "--force" in argv
    for chapter in [a for a in argv if a != "--force"] or chapters():
        digest = _inputs(chapter)
        if not force and freshness.unchanged(f"release-{chapter}", digest, NOTEBOOKS / chapter / f"{chapter}.ipynb"):
            print(f"notebooks/{chapter}/ is up to date")
            continue
        if earlier_answers.stale(chapter):
            print(f"note: {chapter}'s list of other chapters' answers was recorded before its solutions or the "
                  "reference changed: `make earlier-answers` records it again (it runs the solution notebook)")
        release(chapter)
        freshness.record(f"release-{chapter}", digest)
        print(f"released notebooks/{chapter}/")


if __name__ == "__main__":
    main(sys.argv[1:])
