"""book/make_pages.py, which is a script rather than a package module, loaded for the tests."""
import importlib.util

from grading.instructor.course import REPO

_spec = importlib.util.spec_from_file_location("make_pages", REPO / "book" / "make_pages.py")
make_pages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_pages)
