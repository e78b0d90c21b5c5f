"""Collecting a class's submissions, and repairing what would cost an honest student points.

Every hand-in in the input (a folder or a zip file, in any layout of grading.instructor.intake.lms) belongs to
one Submission per student id, which becomes either a notebook ready for nbgrader, with a note
of every repair, or the reason it cannot be graded (it scores 0, and the student's feedback
page says why). Nothing raises, and nothing in the input is written.

Repaired, then graded on their merits: a notebook saved as UTF-16 or UTF-32, with a
byte-order mark or in Windows-1252; a notebook whose metadata an editor removed; cells whose
nbgrader metadata was removed, damaged or given another grade id, and deleted, reordered or
edited test and read-only cells (grading.student.repair, which the self-check runs too); a
notebook under another name or extension, in another folder or in a zip file. Several notebooks of the chapter from one
student: the newest is graded, and the others are named in the notes.
"""
import codecs
import functools
import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import nbformat

from grading.instructor.intake import lms
from grading.instructor.course import NOTEBOOKS, chapters, intake_directory
from grading.instructor.intake.lms import HandIn
from grading.instructor.intake.similarity import near_copies
from grading.student.repair import grade_ids, match_to_release, restore_locked_cells
from grading.student.screen import keep_from_running, screened_cells

_BYTE_ORDER_MARKS = ((codecs.BOM_UTF32_LE, "UTF-32"), (codecs.BOM_UTF32_BE, "UTF-32"), (codecs.BOM_UTF8, "UTF-8-sig"),
                     (codecs.BOM_UTF16_LE, "UTF-16"), (codecs.BOM_UTF16_BE, "UTF-16"))
# which of the first four bytes are zero, for text without a byte-order mark (JSON starts with ASCII)
_ZEROS = {(False, True, True, True): "UTF-32-LE", (True, True, True, False): "UTF-32-BE",
          (False, True, False, True): "UTF-16-LE", (True, False, True, False): "UTF-16-BE"}


@dataclass
class Submission:
    student: str
    hand_ins: list[HandIn]  # every file this student id handed in
    layout: str = "flat"
    source: HandIn | None = None  # the file graded, once prepare() has chosen it
    notes: list[str] = field(default_factory=list)  # what the instructor should know; graded anyway
    fatal: str | None = None  # why it cannot be graded (it scores 0)
    absent: bool = False  # only other chapters' folders, none holding this chapter's notebook: not handed in

    @property
    def flagged(self) -> bool:
        return bool(self.notes) or self.fatal is not None

    @property
    def submitted(self) -> datetime | None:
        """When the graded file was handed in, as the LMS or nbgrader recorded it (UTC)."""
        return self.source.submitted if self.source else None


@dataclass
class _Reading:
    notebook: nbformat.NotebookNode | None
    problem: str | None = None  # why it is not a notebook of the chapter
    notes: list[str] = field(default_factory=list)


def released_notebook(chapter: str) -> Path:
    return NOTEBOOKS / chapter / f"{chapter}.ipynb"


def collect(folder: Path, chapter: str, layout: str = "auto", id_pattern: str | None = None) -> list[Submission]:
    """One Submission per student id in ``folder`` (a folder or a zip file), sorted by id.

    ``layout`` is one of grading.instructor.intake.lms.LAYOUTS; ``id_pattern`` replaces its file-name pattern.
    Two people behind one student id (two LMS numbers) are refused, naming both files.
    """
    hand_ins = lms.files(folder)
    layout = lms.detect(hand_ins) if layout == "auto" else layout
    lms.attribute(hand_ins, chapter, layout, id_pattern)
    by_student: dict[str, list[HandIn]] = {}
    for hand_in in hand_ins:
        if not (layout == "nbgrader" and hand_in.path.name == lms.TIMESTAMP):
            by_student.setdefault(hand_in.student, []).append(hand_in)
    submissions = []
    for student, own in sorted(by_student.items()):
        submission = Submission(student, own, layout)
        people = sorted({h.identity for h in own if h.identity})
        if len(people) > 1:
            first, second = (next(h for h in own if h.identity == person) for person in people[:2])
            submission.fatal = (f"two people handed in as {student}, {first.identity} ({first.path}) and "
                                f"{second.identity} ({second.path}); neither is graded: tell them apart with "
                                "--id-pattern, e.g. a student group that takes the whole name or the LMS's number")
        submissions.append(submission)
    return submissions


def writes_into(folder: Path, workdir: Path) -> str | None:
    """Why grading ``folder`` with results in ``workdir`` would write into it; None when it would not.

    ``<workdir>/submitted`` (``nbgrader collect``'s) may be graded: the command writes its copies elsewhere.
    """
    folder, workdir = folder.resolve(), workdir.resolve()
    if folder == workdir or folder in workdir.parents:
        return f"the work folder {workdir} is inside {folder}"
    written = next((d for d in (intake_directory(workdir), workdir / "autograded", workdir / "feedback",
                                workdir / "release") if d == folder or d in folder.parents), None)
    return f"{folder} is inside {written}, which grading writes" if written else None


def prepare(submission: Submission, chapter: str) -> nbformat.NotebookNode | None:
    """Choose, read and repair the submission's notebook; None (with ``fatal`` set) when none can be graded."""
    if submission.fatal:
        return None
    release = nbformat.read(released_notebook(chapter), as_version=4)
    notebook = _choose(submission, chapter, release)
    if notebook is None:
        return None
    notebook = restore_locked_cells(notebook, release, submission.notes)
    _screen_answers(notebook, release, submission)
    return notebook


def _choose(submission: Submission, chapter: str, release) -> nbformat.NotebookNode | None:
    """The newest notebook of the chapter, from where the layout puts it if there is one there; notes on the choice."""
    ranked = sorted(sorted(submission.hand_ins, key=lambda h: h.when, reverse=True), key=lambda h: h.tier)
    readings = {h: _read(h, release, chapter) for h in ranked if h.tier < 2}
    usable = [h for h, reading in readings.items() if reading.notebook is not None]
    if not usable:  # perhaps saved into another chapter's folder
        elsewhere = {h: _read(h, release, chapter) for h in ranked if h.tier == 2}
        usable = [h for h, reading in elsewhere.items() if reading.notebook is not None]
        readings |= {h: elsewhere[h] for h in usable}
    if not usable and submission.layout == "nbgrader" and all(h.tier == 2 for h in submission.hand_ins):
        submission.absent = True  # `nbgrader collect` keeps every chapter's hand-ins: this one is not among them
        return None
    if not usable:
        submission.fatal = _why_not(submission, chapter, readings)
        return None
    chosen = submission.source = usable[0]
    ignored = [str(h.path) for h in readings if h is not chosen and h.tier <= chosen.tier
               and (h in usable or h.path.suffix.lower() == ".ipynb")]
    if ignored:
        submission.notes.append(f"{len(ignored) + 1} notebooks handed in; graded the newest {chapter} notebook, "
                                f"{chosen.path} (ignored {', '.join(ignored)})")
    submission.notes += readings[chosen].notes + _place_notes(submission, chosen, chapter)
    return readings[chosen].notebook


def _place_notes(submission: Submission, chosen: HandIn, chapter: str) -> list[str]:
    """What was unusual about the graded file's name and place."""
    notes = []
    if submission.layout == "nbgrader":
        if chosen.tier:
            notes.append(f"found {chosen.path}, not in {submission.student}/{chapter}/; graded it")
        if chosen.path.name != f"{chapter}.ipynb":
            notes.append(f"renamed {chosen.path.name} to {chapter}.ipynb")
    elif chosen.path.suffix != ".ipynb":
        notes.append(f"{chosen.path} is a notebook despite its file name extension; graded it")
    if chosen.misnamed and submission.layout != "flat":
        notes.append(f"{chosen.path} does not follow {submission.layout}'s names; the student id is its name")
    if chosen.late:
        notes.append("the LMS marks it late, and its download does not say when: apply the late policy in the LMS")
    return notes


def _why_not(submission: Submission, chapter: str, readings: dict[HandIn, _Reading]) -> str:
    """The reason given for a student none of whose files is a notebook of the chapter."""
    own = [h for h in readings if h.tier == 0]
    if not own:
        return f"no notebook for {chapter} was submitted"
    first = next((h for h in own if h.path.suffix.lower() == ".ipynb"), own[0])
    others = [str(h.path) for h in own if h is not first]
    listed = ", ".join(others[:5]) + (" ..." if len(others) > 5 else "")
    return readings[first].problem + (f" (also handed in: {listed})" if others else "")


def _read(hand_in: HandIn, release, chapter: str) -> _Reading:
    """The notebook in a file, repaired, if it is one of the chapter; else why not."""
    name = hand_in.path
    if hand_in.is_folder:
        return _Reading(None, f"the folder {name} is empty")
    if hand_in.size > lms.MAX_BYTES:
        return _Reading(None, f"{name} is larger than {lms.MAX_BYTES // 10**6} MB")
    try:
        raw = hand_in.read()
    except Exception as error:  # noqa: BLE001 - an unreadable file or zip member (encrypted, corrupt): its reason
        return _Reading(None, f"{name} could not be read ({error})")
    if not raw.strip():
        return _Reading(None, f"{name} is an empty file")
    notes: list[str] = []
    try:
        data = json.loads(_decoded(raw, notes))
        if not (isinstance(data, dict) and isinstance(data.get("cells", data.get("worksheets")), list)):
            return _Reading(None, f"{name} is JSON but not a Jupyter notebook (it has no list of cells)")
        notebook = nbformat.reads(json.dumps(_completed(data, notes)), as_version=4)
        for cell in notebook.cells:  # Windows line ends (an editor's, or git's) are no edit of a cell
            cell.source = cell.source.replace("\r\n", "\n")
    except Exception as error:  # noqa: BLE001 - json, nbformat's validation and conversion raise many kinds
        return _Reading(None, f"{name} is not a valid notebook ({(str(error).splitlines() or [''])[0][:120]})")
    own = _own_ids(chapter)
    ids = set(grade_ids(notebook))
    if not ids & own and (other := _chapter_of(ids)):  # before the repair drops the ids this release does not have
        return _Reading(None, f"{name} is the notebook of chapter {other}, not {chapter}")
    notes += match_to_release(notebook, release, own)
    if not set(grade_ids(notebook)) & own:
        return _Reading(None, f"{name} is not a {chapter} notebook (none of its graded cells are there)")
    return _Reading(notebook, None, notes)


def _decoded(raw: bytes, notes: list[str]) -> str:
    """The text of a file in any encoding editors save notebooks in; a note unless it was plain UTF-8."""
    marked = next((encoding for mark, encoding in _BYTE_ORDER_MARKS if raw.startswith(mark)), None)
    encoding = marked or _ZEROS.get(tuple(byte == 0 for byte in raw[:4]))
    if encoding:
        notes.append("began with a byte-order mark; read without it" if encoding == "UTF-8-sig"
                     else f"saved as {encoding.removesuffix('-LE').removesuffix('-BE')}; read as such")
        return raw.decode(encoding, errors="replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        notes.append("not saved as UTF-8; read as Windows-1252 (accented letters may differ)")
        return raw.decode("cp1252", errors="replace")


def _completed(data: dict, notes: list[str]) -> dict:
    """The notebook with the keys nbformat requires that editors and scripts drop put back."""
    if "worksheets" in data:
        notes.append("converted from notebook format 3")
        return data
    missing = []
    if not isinstance(data.get("metadata"), dict):
        data["metadata"] = {}
        missing.append("the notebook's metadata")
    if "nbformat" not in data or "nbformat_minor" not in data:
        data.setdefault("nbformat", 4)
        data.setdefault("nbformat_minor", 4)
        missing.append("its format version")
    cells = data["cells"] = [cell for cell in data["cells"] if isinstance(cell, dict)]
    bare = [cell for cell in cells if not isinstance(cell.get("metadata"), dict)]
    for index, cell in enumerate(cells):
        cell.setdefault("cell_type", "code" if "outputs" in cell else "markdown")
        cell.setdefault("source", "")
        if cell in bare:
            cell["metadata"] = {}
        if cell["cell_type"] == "code":
            cell.setdefault("outputs", [])
            cell.setdefault("execution_count", None)
        if data["nbformat_minor"] >= 5:
            cell.setdefault("id", f"cell-{index}")
    if bare:
        missing.append(f"the metadata of {len(bare)} cells")
    if missing:
        notes.append(f"put back what was missing: {', '.join(missing)}")
    return data


@functools.cache
def _released_ids(chapter: str) -> frozenset[str]:
    """The grade ids of a chapter's release (read once per process)."""
    release = released_notebook(chapter)
    return frozenset(grade_ids(nbformat.read(release, as_version=4))) if release.is_file() else frozenset()


def _own_ids(chapter: str) -> frozenset[str]:
    """The grade ids no other chapter's release has (not ``setup``): the evidence that a notebook is this chapter's."""
    return _released_ids(chapter).difference(*(_released_ids(c) for c in chapters() if c != chapter))


def _chapter_of(ids: set[str]) -> str | None:
    return next((chapter for chapter in chapters() if ids & _own_ids(chapter)), None)


def _screen_answers(notebook, release, submission: Submission) -> None:
    """Keep answer cells that could tamper with grading from running (grading.student.screen); note near-copies."""
    submission.notes += keep_from_running(notebook, release)
    for cell, where in screened_cells(notebook, release):
        for name, score in near_copies(cell.source):
            submission.notes.append(f"{name} in {where} is a near-copy of the reference implementation "
                                    f"(similarity {score:.2f})")
