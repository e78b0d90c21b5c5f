"""The course server's configuration file (grading.hub.course): people from the roster, names that can be accounts."""
import pytest

from grading.hub.course import CourseError, load

CANVAS = 'Student,ID,SIS User ID,SIS Login ID,Section\n"Lovelace, Ada",1001,S1,ada,A\n'
MOODLE = "First name,Last name,ID number,Institution,Department,Email address\nAda,Lovelace,7,,,ada@example.org\n"


def course_file(tmp_path, roster: str, more: str = "") -> str:
    (tmp_path / "roster.csv").write_text(roster)
    path = tmp_path / "course.toml"
    path.write_text(f'course_id = "nlp"\ninstructors = ["prof"]\nassistants = ["ta"]\nroster = "roster.csv"\n{more}')
    return path


def test_a_canvas_roster_gives_the_students_their_canvas_ids_as_account_names(tmp_path):
    course = load(course_file(tmp_path, CANVAS, 'students = ["late-joiner"]\n'))
    assert course.people == ["prof", "ta", "lovelaceada", "late-joiner"]
    assert (course.grader_account, course.formgrade_group) == ("grader-nlp", "formgrade-nlp")


def test_a_moodle_rosters_full_names_are_refused_naming_them(tmp_path):
    with pytest.raises(CourseError, match=r"not valid account names .*: Ada-Lovelace"):
        load(course_file(tmp_path, MOODLE))


def test_a_person_on_two_lists_is_refused(tmp_path):
    with pytest.raises(CourseError, match="named more than once: ta"):
        load(course_file(tmp_path, CANVAS, 'students = ["ta"]\n'))


def test_an_unknown_server_setting_is_refused_naming_the_known_ones(tmp_path):
    with pytest.raises(CourseError, match=r"\[server\] has no setting hub_prot .*known: state, hub_port"):
        load(course_file(tmp_path, CANVAS, "[server]\nhub_prot = 8000\n"))
