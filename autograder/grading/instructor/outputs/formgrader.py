"""Formgrader's submission page says why the grading command flagged the hand-in.

The command keeps each hand-in's flags in the gradebook (grading.instructor.gradebook.flags:
repairs, suspected tampering, near-copies, what the checker blocked); formgrader showed only
its *Flagged?* tick, and the grading report at the top of the notebook, written before the
class was compared, said "Nothing to report". :class:`FlagReasons` runs in formgrader's
HTML exporter (``c.HTMLExporter.preprocessors`` in ``autograder/nbgrader_config.py``) and puts
the reasons in a first cell of the page the assistant grades on. It acts only on formgrader's
submission pages, which are rendered with the submission's id, student and assignment in their
resources: feedback pages, which use the same exporter settings, never show a student another
student's name.
"""
from nbconvert.preprocessors import Preprocessor
from nbformat.v4 import new_markdown_cell
from traitlets import Unicode

from grading.instructor.gradebook import flags
from grading.instructor.gradebook.database import opened
from grading.instructor.verdicts.preprocessor import as_markdown_text

FLAGS_TAG = "grading-flags"


class FlagReasons(Preprocessor):
    db_url = Unicode("", help="The gradebook whose flags formgrader's pages show").tag(config=True)

    def preprocess(self, nb, resources):
        student, chapter = resources.get("student"), resources.get("assignment_id")
        if resources.get("submission_id") is None or not (student and chapter and self.db_url):
            return nb, resources  # not a formgrader submission page
        with opened(self.db_url) as gradebook:
            entry = flags.load(gradebook, chapter).get(student)
        if entry and (entry["failed"] or entry["flags"]):
            reasons = ([f"could not be graded: {entry['failed']}"] if entry["failed"] else []) + entry["flags"]
            cell = new_markdown_cell("**Flagged by the grading command** (for graders; not on the student's "
                                     "feedback):\n\n" + "\n".join(f"- {as_markdown_text(r)}" for r in reasons))
            cell.metadata["tags"] = [FLAGS_TAG]
            nb.cells.insert(0, cell)
        return nb, resources
