"""Work done before is not done again: each step of the main job keeps a fingerprint of what it read.

`make` with nothing changed should take seconds, not minutes. So the steps that cost time per
chapter (the student notebooks, the graded example class, the executed chapter pages) record a
fingerprint of their inputs in a stamp file under ``_build/stamps/`` and skip a chapter whose
inputs have the same fingerprint as last time, provided that what they wrote is still there.
"""
import hashlib
from pathlib import Path

from grading.instructor.course import REPO

STAMPS = REPO / "_build" / "stamps"
_NOT_INPUTS = ("__pycache__", ".egg-info", ".ipynb_checkpoints")


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*") if p.is_file() and not any(part.endswith(_NOT_INPUTS) for part in p.parts))


def fingerprint(*inputs: Path | bytes) -> str:
    """16 hex digits of SHA-256 over files, every file under folders (with its path) and raw bytes."""
    digest = hashlib.sha256()
    for item in inputs:
        if isinstance(item, bytes):
            digest.update(item)
            continue
        for path in _files(item):
            digest.update(str(path.relative_to(REPO) if path.is_relative_to(REPO) else path).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def unchanged(step: str, digest: str, *outputs: Path) -> bool:
    """Whether ``step`` last ran on inputs with this fingerprint and its ``outputs`` still exist."""
    stamp = STAMPS / step
    return stamp.is_file() and stamp.read_text() == digest and all(path.exists() for path in outputs)


def record(step: str, digest: str) -> None:
    """Note that ``step`` has just run on inputs with this fingerprint."""
    STAMPS.mkdir(parents=True, exist_ok=True)
    (STAMPS / step).write_text(digest)
