"""Due dates and late penalties: each rule takes off what it says, and the due date reaches nbgrader's gradebook."""
from datetime import datetime, timezone

import pytest
from grading.instructor.gradebook import database, deadlines

DAY = 86400


@pytest.mark.parametrize("rule, seconds_late, expected", [
    ("none", 3 * DAY, None),
    ("zero", 1, 17.0),  # the whole score
    ("10%/day", 1, 2.5),  # a day begun: 10% of the 25 points
    ("10%/day", 1.5 * DAY, 5.0),
    ("2.5%/hour", 3600 * 2 + 1, 1.875),
    ("50%/day", 10 * DAY, 17.0),  # never more than the score
    ("10%/day", 0, None),
])
def test_each_rule_takes_off_what_it_says(rule, seconds_late, expected):
    assert deadlines.penalty(rule, seconds_late, score=17.0, max_score=25.0) == expected


def test_an_unknown_rule_is_refused_before_anything_is_written(tmp_path):
    with pytest.raises(ValueError, match="none, zero, P%/day or P%/hour"):
        deadlines.record(database.url(tmp_path), "02_pooling", "2026-10-05T23:59", "10 percent")
    assert list(tmp_path.iterdir()) == []


def test_a_due_date_without_an_offset_is_local_time_and_one_with_an_offset_is_exact():
    assert deadlines.due_date("2026-10-05T23:59") == datetime(2026, 10, 5, 23, 59).astimezone(timezone.utc)
    assert deadlines.due_date("2026-10-05 23:59+02:00") == datetime(2026, 10, 5, 21, 59, tzinfo=timezone.utc)
    with pytest.raises(ValueError, match="cannot read the due date"):
        deadlines.due_date("next friday-ish")


def test_recording_keeps_the_rule_and_the_due_date_per_chapter_in_the_gradebook(gradebook_url, tmp_path, monkeypatch):
    url = gradebook_url
    deadlines.record(url, "02_pooling", "2026-10-05T23:59+00:00", "10%/day")
    deadlines.record(url, "08_positional", "2026-11-02T12:00+00:00")
    deadlines.record(url, "02_pooling", rule="zero")  # changes the rule, keeps the date
    monkeypatch.chdir(tmp_path)  # nothing is read from the current folder
    with database.opened(url) as gradebook:
        assert gradebook.find_assignment("02_pooling").duedate == datetime(2026, 10, 5, 23, 59)
        assert gradebook.find_assignment("08_positional").duedate == datetime(2026, 11, 2, 12, 0)
        rules = {chapter: deadlines.late_rule(gradebook, chapter) for chapter in ("02_pooling", "08_positional")}
    assert rules == {"02_pooling": "zero", "08_positional": "none"}
    assert sorted(p.name for p in tmp_path.iterdir()) == (["gradebook.db"] if url.startswith("sqlite") else [])
