"""A step of the main job is skipped only while its inputs are byte for byte the same and its outputs exist."""
from grading.instructor import freshness


def test_a_step_is_redone_when_an_input_changes_or_an_output_is_gone(tmp_path, monkeypatch):
    monkeypatch.setattr(freshness, "STAMPS", tmp_path / "stamps")
    inputs, output = tmp_path / "inputs", tmp_path / "out.txt"
    (inputs / "sub").mkdir(parents=True)
    (inputs / "sub" / "a.py").write_text("x = 1\n")
    output.write_text("done")
    digest = freshness.fingerprint(inputs, b"options")
    assert not freshness.unchanged("step", digest, output)  # never run
    freshness.record("step", digest)
    assert freshness.unchanged("step", freshness.fingerprint(inputs, b"options"), output)

    assert freshness.fingerprint(inputs, b"other options") != digest
    (inputs / "sub" / "a.py").write_text("x = 2\n")
    assert not freshness.unchanged("step", freshness.fingerprint(inputs, b"options"), output)
    (inputs / "sub" / "a.py").write_text("x = 1\n")
    (inputs / "sub" / "b.py").write_text("")  # a new file is a change too
    assert not freshness.unchanged("step", freshness.fingerprint(inputs, b"options"), output)
    (inputs / "sub" / "b.py").unlink()
    output.unlink()
    assert not freshness.unchanged("step", freshness.fingerprint(inputs, b"options"), output)


def test_caches_and_build_leftovers_are_not_inputs(tmp_path):
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "m.py").write_text("pass\n")
    before = freshness.fingerprint(tmp_path)
    (tmp_path / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"\0")
    assert freshness.fingerprint(tmp_path) == before
