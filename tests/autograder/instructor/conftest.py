"""A class's gradebook on each database the course supports: SQLite (the embedded default) and PostgreSQL."""
import pytest

from grading.instructor.gradebook import database


@pytest.fixture(params=["sqlite", "postgresql"])
def gradebook_url(request, tmp_path):
    """The ``db_url`` of an empty gradebook: SQLite in ``tmp_path``, or a fresh PostgreSQL database (tests.services)."""
    return database.url(tmp_path) if request.param == "sqlite" else request.getfixturevalue("postgresql_url")
