"""The class's secret mixed into the hidden tests' seeds (the checker's ``__salted__``).

Kept in the work folder, beside the gradebook, so that every grading of a class draws the same
hidden inputs: the grading command's, plain ``nbgrader autograde``'s and formgrader's Autograde
button's (``autograder/nbgrader_config.py`` gives it to TrustedVerdicts for ``classwork/``).
"""
import os
import secrets
import threading
from pathlib import Path

FILE = "hidden-test-salt"


def class_salt(workdir: Path) -> int:
    """GRADING_SALT, or the class's own, drawn the first time it is asked for and kept in ``workdir``."""
    if os.environ.get("GRADING_SALT"):
        return int(os.environ["GRADING_SALT"])
    path = workdir / FILE
    if not path.is_file():
        workdir.mkdir(parents=True, exist_ok=True)
        drawn = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}")
        drawn.write_text(str(secrets.randbits(62)))
        try:  # whole, at once, and only the first of the chapters graded at once draws it
            os.link(drawn, path)
        except FileExistsError:
            pass
        finally:
            drawn.unlink()
    return int(path.read_text())
