"""A copy ring's flags in the gradebook (grading.instructor.gradebook.flags), on SQLite and PostgreSQL.

The class of 10 of test_similar_pairs, with its ring of three (ana, ben, and fay, whose copy is renamed and
reordered), recorded as the grading command records it: the three are flagged as one group and nobody else is;
an assistant clears ben's flag in formgrader, the same hand-ins are compared and recorded again, and ben's flag
stays cleared while ana's and fay's stay set.
"""
from grading.instructor.gradebook import database, flags
from tests.autograder.instructor.intake.test_similar_pairs import CHAPTER, report, with_a_ring_of_three, write_intake

RING = ("ana", "ben", "fay")


def flagged(url: str) -> dict[str, bool]:
    with database.opened(url) as gradebook:
        return {s.student_id: s.notebooks[0].flagged for s in gradebook.find_assignment(CHAPTER).submissions}


def test_a_ring_in_a_class_of_ten_is_flagged_as_one_group_and_a_cleared_flag_stays_cleared(gradebook_url, tmp_path):
    answers = with_a_ring_of_three()
    with database.opened(gradebook_url) as gradebook:
        gradebook.add_assignment(CHAPTER)
        gradebook.add_notebook(CHAPTER, CHAPTER)
        for student in answers:
            gradebook.add_student(student)
            gradebook.add_submission(CHAPTER, student)
    write_intake(answers, tmp_path / "intake")

    def record() -> dict[str, dict]:
        notes = report(tmp_path / "intake", tmp_path / "out")
        flags.record(gradebook_url, CHAPTER, {student: (None, notes.get(student, [])) for student in answers})
        with database.opened(gradebook_url) as gradebook:
            return flags.load(gradebook, CHAPTER)

    entries = record()
    group = "answers nearly the same as those of a group of 3: ana, ben, fay"
    assert {s for s, entry in entries.items() if entry["flags"]} == set(RING), entries
    assert all(entries[s]["flags"][0].startswith(group) for s in RING), entries
    assert flagged(gradebook_url) == {student: student in RING for student in answers}

    with database.opened(gradebook_url) as gradebook:  # formgrader's Flagged? box, unticked
        gradebook.find_submission(CHAPTER, "ben").notebooks[0].flagged = False
        gradebook.db.commit()
    assert record() == entries
    assert flagged(gradebook_url) == {student: student in ("ana", "fay") for student in answers}
