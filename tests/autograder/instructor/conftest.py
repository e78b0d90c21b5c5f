"""A class's gradebook on each database the course supports (SQLite, the embedded default, and PostgreSQL), and
formgrader as the course configures it."""
from pathlib import Path

import pytest
from nbgrader.apps.api import NbGraderAPI
from nbgrader.server_extensions.formgrader.formgrader import FormgradeExtension

from grading.instructor.course import REPO
from grading.instructor.gradebook import database


@pytest.fixture(params=["sqlite", "postgresql"])
def gradebook_url(request, tmp_path):
    """The ``db_url`` of an empty gradebook: SQLite in ``tmp_path``, or a fresh PostgreSQL database (tests.services)."""
    return database.url(tmp_path) if request.param == "sqlite" else request.getfixturevalue("postgresql_url")


@pytest.fixture
def formgrader(monkeypatch):
    """Start formgrader's extension with the course's configuration, as `make formgrader WORKDIR=...` loads it:
    on the class in ``workdir`` (GRADING_WORKDIR), or on classwork/ without one."""
    def start(workdir: Path | None = None) -> FormgradeExtension:
        monkeypatch.chdir(REPO)
        if workdir is None:
            monkeypatch.delenv("GRADING_WORKDIR", raising=False)
        else:
            monkeypatch.setenv("GRADING_WORKDIR", str(workdir))
        extension = FormgradeExtension()
        extension.root_dir = str(REPO)
        extension.initialize([])
        return extension
    return start


def formgrader_api(extension: FormgradeExtension) -> NbGraderAPI:
    """nbgrader's API as formgrader's pages and buttons call it."""
    return NbGraderAPI(extension.coursedir, extension.authenticator, parent=extension)
