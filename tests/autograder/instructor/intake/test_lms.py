"""Hand-ins as LMSs deliver them: every file found (zip files read as folders), and whose each is."""
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

import pytest

from grading.instructor.intake import lms
from tests.autograder.instructor.intake.hand_ins import zipped

CHAPTER = "02_pooling"


def write(folder: Path, files: dict[str, bytes | str]) -> Path:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return folder


def attributed(files: dict[str, bytes | str], tmp_path: Path, layout: str = "auto", id_pattern: str | None = None):
    hand_ins = lms.files(write(tmp_path / "in", files))
    layout = lms.detect(hand_ins) if layout == "auto" else layout
    lms.attribute(hand_ins, CHAPTER, layout, id_pattern)
    return layout, {str(h.path): h for h in hand_ins}


def test_zip_files_are_read_as_folders_nested_ones_too_and_litter_is_left_out(tmp_path):
    inner = zipped({"deep/02_pooling.ipynb": "{}"})
    write(tmp_path / "in", {"alice.zip": zipped({"02_pooling.ipynb": "a", "__MACOSX/._02_pooling.ipynb": "x",
                                                 "bob.zip": inner, "../escape.ipynb": "e"}),
                            ".DS_Store": "x", "carol/.ipynb_checkpoints/x.ipynb": "c", "carol/02.ipynb": "c",
                            "broken.zip": b"not a zip", "hollow.zip": zipped({"__MACOSX/x": "x"})})
    (tmp_path / "in" / "empty").mkdir()
    found = {str(h.path): h for h in lms.files(tmp_path / "in")}
    assert sorted(found) == ["alice.zip/02_pooling.ipynb", "alice.zip/bob.zip/deep/02_pooling.ipynb",
                             "alice.zip/escape.ipynb", "broken.zip", "carol/02.ipynb", "empty", "hollow.zip"]
    assert found["alice.zip/02_pooling.ipynb"].read() == b"a"
    assert found["alice.zip/bob.zip/deep/02_pooling.ipynb"].read() == b"{}"
    assert found["empty"].is_folder and found["hollow.zip"].is_folder and not found["carol/02.ipynb"].is_folder


def test_a_zip_file_is_an_input_like_a_folder(tmp_path):
    (tmp_path / "class.zip").write_bytes(zipped({"alice_02.ipynb": "a", "bob/02.ipynb": "b"}))
    assert sorted(str(h.path) for h in lms.files(tmp_path / "class.zip")) == ["alice_02.ipynb", "bob/02.ipynb"]


def test_canvas_names_give_the_login_the_user_id_and_the_late_mark(tmp_path):
    layout, found = attributed({"smithbob_340934_208490284_02_pooling.ipynb": "",
                                "jonesann_LATE_340935_208490285_02_pooling-1.ipynb": "",
                                "leeli_late_340936_208490286_work.zip": zipped({"02_pooling.ipynb": ""})}, tmp_path)
    assert layout == "canvas"
    bob = found["smithbob_340934_208490284_02_pooling.ipynb"]
    ann = found["jonesann_LATE_340935_208490285_02_pooling-1.ipynb"]
    assert (bob.student, bob.identity, bob.late) == ("smithbob", "340934", False)
    assert (ann.student, ann.identity, ann.late) == ("jonesann", "340935", True)
    li = found["leeli_late_340936_208490286_work.zip/02_pooling.ipynb"]
    assert (li.student, li.identity, li.late) == ("leeli", "340936", True)


def test_moodle_names_files_and_folders_by_full_name_and_participant_number(tmp_path):
    layout, found = attributed({"Alice Smith_1234_assignsubmission_file_/02_pooling.ipynb": "",
                                "Alice Jones_1235_assignsubmission_file_02_pooling.ipynb": "",
                                "Zoë O'Neil_1236_assignsubmission_onlinetext_/onlinetext.html": ""}, tmp_path)
    assert layout == "moodle"
    assert [(h.student, h.identity) for h in found.values()] == [("Alice-Jones", "1235"), ("Alice-Smith", "1234"),
                                                                 ("Zoë-O-Neil", "1236")]


def test_blackboard_names_give_the_username_and_the_attempt_time(tmp_path):
    layout, found = attributed({"Pooling 2_jdoe_attempt_2026-10-03-09-30-00_02_pooling.ipynb": "",
                                "Pooling 2_jdoe_attempt_2026-10-03-09-30-00.txt": "Name: J Doe"}, tmp_path)
    assert layout == "blackboard"
    local = datetime(2026, 10, 3, 9, 30).astimezone(timezone.utc).replace(tzinfo=None)  # the server's, read as ours
    assert {(h.student, h.submitted) for h in found.values()} == {("jdoe", local)}


def test_nbgraders_layout_takes_the_folder_as_the_id_and_its_timestamp(tmp_path):
    layout, found = attributed({"alice_smith/02_pooling/02_pooling.ipynb": "",
                                "alice_smith/02_pooling/timestamp.txt": "2026-10-05 12:00:00.000000 UTC",
                                "bob/01_tokens/02_pooling.ipynb": "", "bob/notes/02_pooling.ipynb": "",
                                "carol/02_pooling/timestamp.txt": "not a time", "carol/02_pooling/x.ipynb": ""},
                               tmp_path)
    assert layout == "nbgrader"
    alice = found["alice_smith/02_pooling/02_pooling.ipynb"]
    assert (alice.student, alice.submitted, alice.tier) == ("alice_smith", datetime(2026, 10, 5, 12), 0)
    assert found["bob/01_tokens/02_pooling.ipynb"].tier == 2 and found["bob/notes/02_pooling.ipynb"].tier == 1
    assert found["carol/02_pooling/x.ipynb"].submitted is None


def test_flat_names_give_the_id_before_the_first_underscore_and_the_whole_name_as_identity(tmp_path):
    layout, found = attributed({"alice_02_pooling_final.IPYNB": "", "Alice Smith_02.ipynb": "", "bob/x.ipynb": ""},
                               tmp_path)
    assert layout == "flat"
    assert [(h.student, h.identity) for h in found.values()] == [("Alice", "Alice Smith"), ("alice", "alice"),
                                                                 ("bob", "bob")]


def test_an_own_pattern_replaces_the_layouts(tmp_path):
    _, found = attributed({"2026-10-05T10:00+02:00 - s123 - x.ipynb": ""}, tmp_path, "flat",
                          r"^(?P<timestamp>\S+) - (?P<student>s\d+)")
    [hand_in] = found.values()
    assert (hand_in.student, hand_in.submitted) == ("s123", datetime(2026, 10, 5, 8))


def test_the_documented_canvas_pattern_tells_namesakes_apart_by_user_id(tmp_path):
    documented = r"^[^_]+_(?:(?P<late>(?i:late))_)?(?P<student>\d+)_"  # book/instructors.md
    _, found = attributed({"smithbob_340934_1_x.ipynb": "", "smithbob_LATE_340999_2_x.ipynb": ""}, tmp_path,
                          "canvas", documented)
    assert [(h.student, h.late) for h in found.values()] == [("340934", False), ("340999", True)]


def test_names_outside_the_convention_keep_their_own_name_as_id(tmp_path):
    _, found = attributed({"smithbob_340934_208490284_02.ipynb": "", "README.txt": ""}, tmp_path, "canvas")
    readme = found["README.txt"]
    assert (readme.student, readme.misnamed) == ("README", True)


@pytest.mark.parametrize("files, layout", [
    ({"alice_02.ipynb": "", "bob/x.ipynb": ""}, "flat"),
    ({"a/02_pooling/x.ipynb": "", "b.ipynb": ""}, "nbgrader"),
    ({"smithbob_1_2_x.ipynb": "", "stray.ipynb": ""}, "flat"),  # an LMS only when every name follows it
])
def test_the_layout_is_recognised_from_the_names(tmp_path, files, layout):
    assert lms.detect(lms.files(write(tmp_path / "in", files))) == layout


def test_stem_drops_document_and_archive_extensions_only():
    assert lms.stem("alice.ipynb.zip") == "alice" and lms.stem("Alice S. Smith_1_assignsubmission_file_") == \
        "Alice S. Smith_1_assignsubmission_file_"
    assert str(PurePosixPath(lms.stem("a.IPYNB"))) == "a"
