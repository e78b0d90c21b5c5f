"""Hand-ins as learning management systems deliver them: the files of a folder or zip, and whose each is.

The input is read, never written: a zip file (the input itself, or any file in it) is read in
memory as the folder of files it holds, under its own name (``alice.zip/01_tokens.ipynb``).
Each top-level entry of the input (a file, a folder, a zip file) is one person's hand-in; its
name says whose, by the layout's convention:

==============  =====================================================================  ================
layout          top-level names                                                        student id
==============  =====================================================================  ================
``nbgrader``    ``<student>/<chapter>/<file>`` (``nbgrader collect``; ``timestamp.txt``)  ``<student>``
``canvas``      ``<name>_[LATE_]<user id>_<submission id>_<file>``                     ``<name>``
``moodle``      ``<Full Name>_<participant id>_assignsubmission_file_<file>``, a file,  ``Full-Name``
                or a folder of that name ("download submissions in folders")
``blackboard``  ``<assignment>_<username>_attempt_<YYYY-MM-DD-HH-MM-SS>[_<file>]``     ``<username>``
``flat``        ``<student>_<anything>`` (``--id-pattern`` for other names)             ``<student>``
==============  =====================================================================  ================

Assumptions, from the LMSs' downloads as documented and as other tools parse them: Canvas
puts ``late`` (any case) after the name of a hand-in made after the due date, and gives no
time; Moodle's number is the participant's number in that assignment, and the download
gives no time; Blackboard's time is the server's local time, read here in this machine's
time zone (set ``TZ`` to change it); nbgrader's ``timestamp.txt`` is UTC unless it says
otherwise. A pattern is a regular expression searched in the top-level name without its
file extension, with a ``student`` group and optionally ``identity`` (the LMS's number for
the person: two people behind one student id are refused), ``late`` and ``timestamp``.
"""
import io
import os
import re
import time
import unicodedata
import zipfile
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Callable

from dateutil import parser as dateparser
from nbgrader.utils import parse_utc

from grading.instructor.course import chapters

# the identity is the whole name before the first "_", so that "Alice Smith_..." and "Alice Jones_..."
# are two people behind the id "Alice", refused, and not one student's two hand-ins
DEFAULT_ID_PATTERN = r"^(?P<identity>(?P<student>[^_\s]+)[^_]*)"
PATTERNS = {
    "canvas": r"^(?P<student>[^_]+)_(?:(?P<late>(?i:late))_)?(?P<identity>\d+)_\d+_",
    "moodle": r"^(?P<student>.+?)_(?P<identity>\d+)_assignsubmission_[a-z]+_",
    "blackboard": r"^.+_(?P<student>[^_]+)_attempt_(?P<timestamp>\d{4}(?:-\d\d){5})(?:_|$)",
    "flat": DEFAULT_ID_PATTERN,
}
LAYOUTS = ("auto", "nbgrader", *PATTERNS)
MAX_BYTES = 100_000_000  # a larger file is not read (no notebook of this course comes near)
TIMESTAMP = "timestamp.txt"  # nbgrader's record of when a submission was made
_NESTED_ZIPS = 3  # zip files inside zip files are opened this deep
_DOCUMENT_SUFFIXES = {".ipynb", ".json", ".txt", ".zip", ".py", ".html", ".pdf"}


@dataclass(eq=False)
class HandIn:
    """One file of the input, and what its place in the input says about it."""
    path: PurePosixPath  # relative to the input, zip files' contents under the zip file's name
    read: Callable[[], bytes]
    mtime: float
    size: int
    student: str = ""
    identity: str | None = None  # the LMS's number for the person who handed it in
    submitted: datetime | None = None  # when, as recorded by the LMS or nbgrader (UTC, naive)
    late: bool = False  # the LMS says it was late, without saying when (Canvas)
    misnamed: bool = False  # its name does not follow the layout's convention
    tier: int = 0  # 0 where the layout puts a notebook, 1 elsewhere, 2 in another chapter's folder
    is_folder: bool = False  # stands for an empty top-level folder, so that it too gets a row

    @property
    def when(self) -> datetime:
        return self.submitted or datetime.fromtimestamp(self.mtime, timezone.utc).replace(tzinfo=None)


def files(source: Path) -> list[HandIn]:
    """Every file of a folder or zip file, zip files inside it read as folders, and each empty top-level folder.

    Hidden files and what operating systems leave in folders and archives are left out.
    """
    if source.is_file():
        return _members(zipfile.ZipFile(source), PurePosixPath(), 0)
    found = []
    for root, folders, names in os.walk(source):
        folders[:] = sorted(f for f in folders if not _litter(f))
        for name in sorted(n for n in names if not _litter(n)):
            path = Path(root) / name
            try:
                mtime, size = path.stat().st_mtime, path.stat().st_size
            except OSError:  # a broken link: reading it will say why
                mtime, size = 0.0, 0
            relative = PurePosixPath(path.relative_to(source).as_posix())
            found += _expanded(HandIn(relative, path.read_bytes, mtime, size), 0)
    tops = {h.path.parts[0] for h in found}
    return found + [HandIn(PurePosixPath(entry.name), bytes, entry.stat().st_mtime, 0, is_folder=True)
                    for entry in sorted(source.iterdir())
                    if entry.is_dir() and not _litter(entry.name) and entry.name not in tops]


def _litter(name: str) -> bool:
    return name.startswith((".", "~$")) or name in ("__MACOSX", "__pycache__", "Thumbs.db", "desktop.ini")


def _expanded(hand_in: HandIn, depth: int) -> list[HandIn]:
    """A zip file as the files it holds (an empty one as an empty folder), any other file as itself."""
    if hand_in.path.suffix.lower() != ".zip" or depth >= _NESTED_ZIPS or hand_in.size > MAX_BYTES:
        return [hand_in]
    try:
        archive = zipfile.ZipFile(io.BytesIO(hand_in.read()))
    except (zipfile.BadZipFile, OSError, ValueError):
        return [hand_in]  # not a readable zip: a file whose reason will say so
    return _members(archive, hand_in.path, depth + 1) or [replace(hand_in, is_folder=True)]


def _members(archive: zipfile.ZipFile, prefix: PurePosixPath, depth: int) -> list[HandIn]:
    found = []
    for member in archive.infolist():
        parts = [p for p in member.filename.replace("\\", "/").split("/") if p not in ("", ".", "..")]
        if not member.is_dir() and parts and not any(_litter(p) for p in parts):
            found += _expanded(HandIn(prefix.joinpath(*parts), partial(archive.read, member),
                                      time.mktime(member.date_time + (0, 0, -1)), member.file_size), depth)
    return found


def stem(name: str) -> str:
    """A top-level name without its document or archive extensions (``alice.ipynb.zip`` -> ``alice``)."""
    path = PurePosixPath(name)
    while path.suffix.lower() in _DOCUMENT_SUFFIXES:
        path = path.with_suffix("")
    return path.name


def detect(hand_ins: list[HandIn]) -> str:
    """The layout of the input: an LMS whose convention every top-level name follows, nbgrader's, or flat."""
    tops = {stem(h.path.parts[0]) for h in hand_ins}
    for name in ("moodle", "blackboard", "canvas"):
        if tops and all(re.search(PATTERNS[name], top) for top in tops):
            return name
    known = set(chapters())
    return "nbgrader" if any(len(h.path.parts) > 2 and h.path.parts[1] in known for h in hand_ins) else "flat"


def attribute(hand_ins: list[HandIn], chapter: str, layout: str, id_pattern: str | None = None) -> None:
    """Set each hand-in's student, identity, time and tier from its place in the input."""
    pattern = re.compile(id_pattern or PATTERNS.get(layout, DEFAULT_ID_PATTERN))
    times = _nbgrader_times(hand_ins) if layout == "nbgrader" else {}
    known = set(chapters())
    for hand_in in hand_ins:
        top, *inside = hand_in.path.parts
        folders = [stem(p) for p in inside[:-1]]
        if layout == "nbgrader" and (inside or hand_in.is_folder):  # <student>/<chapter>/...
            hand_in.student = top
            hand_in.submitted = times.get((top, inside[0])) if inside else None
            hand_in.tier = 0 if folders[:1] == [chapter] else 2 if set(folders) & (known - {chapter}) else 1
            continue
        match = pattern.search(stem(top))
        groups = match.groupdict() if match else {}
        hand_in.student = student_id(groups.get("student") or stem(top))
        hand_in.misnamed = match is None
        hand_in.identity = groups.get("identity")
        hand_in.late = bool(groups.get("late"))
        hand_in.submitted = _lms_time(groups.get("timestamp"))
        hand_in.tier = 2 if set(folders) & (known - {chapter}) else 0


def student_id(name: str) -> str:
    """A name as a student id for nbgrader's folders: spaces and other separators become "-"; an accented letter is
    one character (NFC), as a roster writes it, whether the zip file's name spelt it so or as letter and accent."""
    return re.sub(r"[^\w.@-]+", "-", unicodedata.normalize("NFC", name).strip()).strip("-") or "unnamed"


def _nbgrader_times(hand_ins: list[HandIn]) -> dict[tuple[str, str], datetime | None]:
    """(student, chapter folder): the time in nbgrader's timestamp.txt there."""
    times = {}
    for hand_in in hand_ins:
        if len(hand_in.path.parts) == 3 and hand_in.path.name == TIMESTAMP:
            try:
                times[hand_in.path.parts[:2]] = parse_utc(hand_in.read().decode("utf-8", "replace").strip())
            except (ValueError, OverflowError):
                times[hand_in.path.parts[:2]] = None
    return times


def _lms_time(text: str | None) -> datetime | None:
    """A time from a file name as UTC: Blackboard's ``2026-10-05-23-59-00`` or ISO 8601; local unless it says."""
    if not text:
        return None
    try:
        moment = datetime.strptime(text, "%Y-%m-%d-%H-%M-%S") if re.fullmatch(r"\d{4}(-\d\d){5}", text) \
            else dateparser.parse(text)
    except (ValueError, OverflowError):
        return None
    return moment.astimezone(timezone.utc).replace(tzinfo=None)  # a naive time is taken as local time
