"""What the intake and the screens found in each hand-in, kept after the run: a file, and nbgrader's flag.

``<workdir>/<chapter>/flags.json`` holds, per student whose hand-in was read, why it could not
be graded (``failed``, or null) and its flags (``flags``: repairs, suspected tampering,
near-copies of the reference, what the checker blocked)::

    {"alice": {"failed": null, "flags": ["the notebook is a near-copy ..."]}}

Each run rewrites the entries of the students in its input and keeps the others. The grades
CSV shows both (grading.instructor.outputs.export), and nbgrader's own flag of the submitted notebook
(formgrader's *Flagged?* column) follows the flags: it is set when a hand-in's flags appear or
change, cleared when they are gone, and left as it is when they are unchanged, so that the
instructor's own flagging or unflagging in formgrader stands until the hand-in changes.
"""
import json
import os
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry

FILE = "flags.json"


def chapter_folder(workdir: Path, chapter: str) -> Path:
    """Where the chapter's grades, LMS files and flags go."""
    return workdir / chapter


def load(workdir: Path, chapter: str) -> dict[str, dict]:
    path = chapter_folder(workdir, chapter) / FILE
    return json.loads(path.read_text()) if path.is_file() else {}


def record(workdir: Path, chapter: str, found: dict[str, tuple[str | None, list[str]]]) -> None:
    """Keep each student's (failure, flags) in flags.json and update nbgrader's flag where they changed."""
    before = load(workdir, chapter)
    entries = {**before, **{student: {"failed": failed, "flags": notes} for student, (failed, notes) in found.items()}}
    folder = chapter_folder(workdir, chapter)
    folder.mkdir(parents=True, exist_ok=True)
    written = folder / f"{FILE}.{os.getpid()}"
    written.write_text(json.dumps(entries, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    written.replace(folder / FILE)  # whole, at once
    changed = {student: _flagged(entries[student]) for student in found if entries[student] != before.get(student)}
    with Gradebook(f"sqlite:///{workdir / 'gradebook.db'}") as gradebook:
        for student, flagged in changed.items():
            try:
                submission = gradebook.find_submission(chapter, student)
            except MissingEntry:
                continue
            for notebook in submission.notebooks:
                notebook.flagged = flagged
        gradebook.db.commit()


def _flagged(entry: dict) -> bool:
    return bool(entry["failed"] or entry["flags"])
