"""What the intake and the screens found in each hand-in, kept after the run: in the gradebook, and nbgrader's flag.

The gradebook's ``course_flags`` (grading.instructor.gradebook.database) holds, per chapter and
student whose hand-in was read, why it could not be graded (``failed``, or null) and its flags
(repairs, suspected tampering, near-copies of the reference or of another student's, what the
checker blocked). The export writes them out as ``<workdir>/<chapter>/flags.json``::

    {"alice": {"failed": null, "flags": ["the notebook is a near-copy ..."]}}

Each run rewrites the entries of the students in its input and keeps the others. The grades
CSV shows both (grading.instructor.outputs.export), and nbgrader's own flag of the submitted notebook
(formgrader's *Flagged?* column) follows the flags: it is set when a hand-in's flags appear or
change, cleared when they are gone, and left as it is when they are unchanged, so that the
instructor's own flagging or unflagging in formgrader stands until the hand-in changes.
"""
import json
from pathlib import Path

from nbgrader.api import MissingEntry
from sqlalchemy import select

from grading.instructor.gradebook.database import FLAGS, TABLES, opened

FILE = "flags.json"


def chapter_folder(workdir: Path, chapter: str) -> Path:
    """Where the chapter's grades, LMS files and flags go."""
    return workdir / chapter


def load(gradebook, chapter: str) -> dict[str, dict]:
    """The chapter's entries in ``gradebook`` (nbgrader's Gradebook), by student: {"failed": ..., "flags": [...]}."""
    TABLES.create_all(gradebook.engine)
    found = gradebook.db.execute(select(FLAGS).where(FLAGS.c.assignment == chapter)).all()
    return {row.student: {"failed": row.failed, "flags": json.loads(row.flags)} for row in found}


def write(folder: Path, entries: dict[str, dict]) -> Path:
    """The entries as ``flags.json`` in ``folder``, written whole at once; its path."""
    written = folder / f"{FILE}.part"
    written.write_text(json.dumps(entries, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return written.replace(folder / FILE)


def record(db_url: str, chapter: str, found: dict[str, tuple[str | None, list[str]]]) -> None:
    """Keep each student's (failure, flags) in the gradebook and update nbgrader's flag where they changed."""
    with opened(db_url) as gradebook:
        before = load(gradebook, chapter)
        for student, (failed, notes) in found.items():
            entry = {"failed": failed, "flags": notes}
            if entry == before.get(student):
                continue
            where = (FLAGS.c.assignment == chapter, FLAGS.c.student == student)
            values = {"failed": failed, "flags": json.dumps(notes, ensure_ascii=False)}
            gradebook.db.execute(FLAGS.update().where(*where).values(**values) if student in before
                                 else FLAGS.insert().values(assignment=chapter, student=student, **values))
            try:
                submission = gradebook.find_submission(chapter, student)
            except MissingEntry:
                continue
            for notebook in submission.notebooks:
                notebook.flagged = bool(failed or notes)
        gradebook.db.commit()
