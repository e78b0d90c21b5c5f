"""Feedback that teaches without leaking: hidden tests never reach a student's feedback page.

nbgrader's ``generate_feedback`` renders the autograded notebook, whose test cells hold the
hidden tests again. :class:`HideHiddenTests` runs in that pipeline (see
``autograder/nbgrader_config.py``): it removes the hidden-test blocks with nbgrader's own
ClearHiddenTests and drops, from every error in a test cell, the traceback frames that
quote the test cell itself or the grading helpers. What stays is the failure message and
the frames of the student's own code.
"""
import os
import re

from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_HELPERS = "File " + os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the grading package


class HideHiddenTests(NbGraderPreprocessor):
    def preprocess(self, nb, resources):
        nb, resources = ClearHiddenTests(enforce_metadata=False).preprocess(nb, resources)
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution"):
                hidden = (f"Cell In[{cell.execution_count}]", _HELPERS, "    [... skipping hidden")
                for output in cell.get("outputs", []):
                    if output.output_type == "error":
                        output.traceback = [entry for entry in output.traceback[1:]
                                            if not _ANSI.sub("", entry).startswith(hidden)]
        return nb, resources
