"""Collecting a class's submissions from a messy folder, and repairing what nbgrader would mis-grade.

Two layouts are understood: nbgrader's ``<folder>/<student>/<chapter>/*.ipynb``, and a flat
folder of notebooks as an LMS download gives them, with the student id in the file name
(``--id-pattern``, a regular expression with a ``student`` group). Each submission becomes
either a notebook ready for nbgrader, with a note of every repair, or a reason why it cannot
be graded; nothing raises.
"""
import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from grading.course import NOTEBOOKS, chapters
from grading.screen import screen
from grading.similarity import near_copies

DEFAULT_ID_PATTERN = r"^(?P<student>[^_\s]+)"


@dataclass
class Submission:
    student: str
    source: Path | None  # the file handed in (None: nothing was)
    from_lms: bool = False  # found in a flat folder, where the LMS names every file its own way
    notes: list[str] = field(default_factory=list)  # what the instructor should know; graded anyway
    fatal: str | None = None  # why it cannot be graded (it scores 0)

    @property
    def flagged(self) -> bool:
        return bool(self.notes) or self.fatal is not None


def _grade_ids(notebook: nbformat.NotebookNode) -> list[str]:
    return [c.metadata["nbgrader"]["grade_id"] for c in notebook.cells if "grade_id" in c.metadata.get("nbgrader", {})]


def released_notebook(chapter: str) -> Path:
    return NOTEBOOKS / chapter / f"{chapter}.ipynb"


def collect(folder: Path, chapter: str, id_pattern: str = DEFAULT_ID_PATTERN) -> list[Submission]:
    """One Submission per student: the newest notebook they handed in for ``chapter``."""
    candidates: dict[str, list[Path]] = {}
    missing = []
    layout_dirs = [d for d in sorted(folder.iterdir()) if d.is_dir() and not d.name.startswith(".")]
    flat = not layout_dirs or bool(list(folder.glob("*.ipynb")))
    if not flat:  # nbgrader's submitted/<student>/<chapter>/
        for student_dir in layout_dirs:
            files = sorted((student_dir / chapter).glob("*.ipynb")) if (student_dir / chapter).is_dir() else []
            if files:
                candidates[student_dir.name] = files
            else:
                missing.append(student_dir.name)
    else:
        pattern = re.compile(id_pattern)
        for path in sorted(folder.glob("*.ipynb")):
            match = pattern.search(path.stem)
            student = match.group("student") if match else path.stem
            candidates.setdefault(student, []).append(path)

    submissions = [Submission(s, None, fatal=f"no notebook for {chapter} was submitted") for s in missing]
    for student, files in sorted(candidates.items()):
        newest = max(files, key=lambda p: (p.stat().st_mtime, p.name))
        submission = Submission(student, newest, from_lms=flat)
        if len(files) > 1:
            others = ", ".join(p.name for p in files if p != newest)
            submission.notes.append(f"{len(files)} notebooks handed in; graded the newest, {newest.name} (ignored {others})")
        submissions.append(submission)
    return sorted(submissions, key=lambda s: s.student)


def _chapter_of(ids: set[str]) -> str | None:
    for other in chapters():
        release = released_notebook(other)
        if release.is_file() and ids & set(_grade_ids(nbformat.read(release, as_version=4))):
            return other
    return None


def prepare(submission: Submission, chapter: str) -> nbformat.NotebookNode | None:
    """Read and repair the submission; None (with ``fatal`` set) when it cannot be graded."""
    if submission.fatal:
        return None
    raw = submission.source.read_bytes()
    if not raw.strip():
        submission.fatal = f"{submission.source.name} is an empty file"
        return None
    try:
        notebook = nbformat.reads(raw.decode("utf-8", errors="replace"), as_version=4)
    except (json.JSONDecodeError, nbformat.reader.NotJSONError, ValueError, KeyError, TypeError) as error:
        submission.fatal = f"{submission.source.name} is not a valid notebook ({str(error).splitlines()[0][:120]})"
        return None
    release = nbformat.read(released_notebook(chapter), as_version=4)
    ids = set(_grade_ids(notebook))
    if not ids & set(_grade_ids(release)):
        other = _chapter_of(ids)
        submission.fatal = (f"{submission.source.name} is the notebook of chapter {other}, not {chapter}" if other
                            else f"{submission.source.name} is not a {chapter} notebook (none of its graded cells are there)")
        return None
    if not submission.from_lms and submission.source.name != f"{chapter}.ipynb":
        submission.notes.append(f"renamed {submission.source.name} to {chapter}.ipynb")
    notebook = _restore_locked_cells(notebook, release, submission)
    _screen_answers(notebook, release, submission)
    return notebook


def _screen_answers(notebook, release, submission: Submission) -> None:
    """Keep answer cells that could tamper with grading from running (grading.screen); note near-copies."""
    locked = {gid for gid in _grade_ids(release) if _is_locked(release, gid)}
    released_code = {c.source for c in release.cells if c.cell_type == "code"}  # demos may use the reference
    for cell in notebook.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if cell.cell_type != "code" or gid in locked or (cell.source in released_code and not gid):
            continue
        where = f"cell {gid}" if gid else "a cell added to the notebook"
        findings = screen(cell.source)
        if findings:
            reason = (f"The grader did not run this cell: {findings[0]} of your answer. This exercise scores 0; "
                      "remove that and hand in again, or ask your instructor.")
            cell.source = f"raise RuntimeError({reason!r})\n" + cell.source
            submission.notes.append(f"tampering suspected in {where}, not run: " + "; ".join(map(str, findings[:3])))
        for name, score in near_copies(cell.source):
            submission.notes.append(f"{name} in {where} is a near-copy of the reference implementation "
                                    f"(similarity {score:.2f})")


def _restore_locked_cells(notebook, release, submission: Submission) -> nbformat.NotebookNode:
    """Put back deleted tests and read-only cells, and put graded cells back in the released order.

    nbgrader restores the text of edited test cells but scores a deleted one 0 and runs cells
    in the order it finds them; a student should lose points for wrong answers only.
    """
    own = {c.metadata["nbgrader"]["grade_id"]: c for c in notebook.cells if "grade_id" in c.metadata.get("nbgrader", {})}
    released = {c.metadata["nbgrader"]["grade_id"]: c for c in release.cells if "grade_id" in c.metadata.get("nbgrader", {})}
    changed = [gid for gid in own if gid in released and _is_locked(release, gid) and own[gid].source != released[gid].source]
    if changed:
        submission.notes.append(f"read-only or test cells differ from the current release (edited, or an older release): "
                                f"{', '.join(changed)}; the grader runs the current ones")
    order = _grade_ids(release)
    restored = [gid for gid in order if gid not in own and _is_locked(release, gid)]
    if [gid for gid in _grade_ids(notebook) if gid in order] != [gid for gid in order if gid in own]:
        submission.notes.append("graded cells were out of order; put back in the released order")
    elif not restored:
        return notebook
    if restored:
        submission.notes.append(f"restored deleted read-only or test cells: {', '.join(restored)}")
    extra_after: dict[str | None, list] = {}  # the student's own cells stay after the graded cell they followed
    anchor = None
    for cell in notebook.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid in released:
            anchor = gid
        else:
            extra_after.setdefault(anchor, []).append(cell)
    cells = list(extra_after.get(None, []))
    for gid in order:
        if gid in own:
            cells.append(own[gid])
        elif gid in restored:
            cells.append(copy.deepcopy(released[gid]))
        cells.extend(extra_after.get(gid, []))
    notebook.cells = cells
    return notebook


def _is_locked(release, grade_id: str) -> bool:
    cell = next(c for c in release.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    meta = cell.metadata["nbgrader"]
    return bool(meta.get("locked")) and not meta.get("solution")
