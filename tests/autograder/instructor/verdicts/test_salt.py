"""The class's hidden-test salt: drawn once per work folder, even by chapters graded at once."""
import threading
from concurrent.futures import ThreadPoolExecutor

from grading.instructor.verdicts.salt import class_salt


def test_chapters_graded_at_once_in_one_work_folder_draw_one_salt(tmp_path, monkeypatch):
    monkeypatch.delenv("GRADING_SALT", raising=False)
    for attempt in range(30):  # `make example-class` grades two chapters at once into classwork/example/
        folder, start = tmp_path / str(attempt), threading.Barrier(4)

        def draw(_):
            start.wait()
            return class_salt(folder)

        with ThreadPoolExecutor(4) as pool:
            salts = set(pool.map(draw, range(4)))
        assert len(salts) == 1 and salts == {class_salt(folder)}, salts
        assert [p.name for p in folder.iterdir()] == ["hidden-test-salt"]  # nothing half-written left behind
