"""Feedback that teaches without leaking, says what is not final, and works offline.

nbgrader's ``generate_feedback`` renders the autograded notebook, whose test cells hold the
hidden tests again. :class:`HideHiddenTests` runs in that pipeline (see
``autograder/nbgrader_config.py``): it removes the hidden-test blocks with nbgrader's own
ClearHiddenTests and drops, from every error in a test cell, the traceback frames that
quote the test cell itself or the grading helpers. What stays is the failure message and
the frames of the student's own code.

:class:`AwaitingManualGrades` puts a note at the top of the page while written answers are
not graded yet (the score in the page's heading counts them as 0 until they are), or changed
since they were graded (their grades are kept and counted until reviewed), and says how late a
hand-in was and what the late penalty took off.

:class:`FeedbackPage` is nbgrader's HTML exporter with MathJax 3 inlined in each page in place
of nbgrader's script tag for a CDN, so that the math is typeset where the page is opened
without a network (a page sent through an LMS, say) and the page stays a single file. The
script is the SVG build with every TeX extension (it needs no font files), from the pinned
django-static-mathjax package the website bundles too (book/_ext/offline_math.py); it adds
about 2.3 MB to each page.
"""
import functools
import re
from pathlib import Path

import mathjax
from nbconvert.exporters import HTMLExporter
from nbformat.v4 import new_markdown_cell
from nbgrader.api import Gradebook
from nbconvert.preprocessors import Preprocessor
from nbgrader.preprocessors import ClearHiddenTests
from traitlets import Bool

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_HELPERS = "File " + str(Path(__file__).resolve().parents[2])  # the grading package
AWAITING_TAG = "awaiting-manual-grades"
MATHJAX = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5" / "tex-svg-full.js"
# nbconvert's MathJax block (base/mathjax.html.j2), which nbgrader's feedback template includes
_CDN_MATHJAX = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.DOTALL)
# as nbconvert configures MathJax 2 for notebooks: $...$ and \(...\) inline, equation numbers as in AMS
_MATHJAX_CONFIG = ('window.MathJax = {tex: {inlineMath: [["$", "$"], ["\\\\(", "\\\\)"]], processEscapes: true, '
                   'tags: "ams"}, svg: {fontCache: "global"}};')


class PageStep(Preprocessor):
    """A step of the feedback pipeline, on by default as nbgrader's are.

    Not nbgrader's NbGraderPreprocessor: it redefines ``display_data_priority`` without making it
    configurable, and the HTML exporter configures it for every step, so each feedback run warned
    "Config option `display_data_priority` not recognized".
    """

    enabled = Bool(True, help="Whether to use this step").tag(config=True)


class HideHiddenTests(PageStep):
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


class AwaitingManualGrades(PageStep):
    """A first cell saying which written answers the instructor has not graded yet (from nbgrader's gradebook)."""

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        with Gradebook(info["db_url"]) as gradebook:
            notebook = gradebook.find_submission_notebook(info["notebook"], info["assignment"], info["student"])
            # a grade given by hand whose answer changed since is kept and counted (gradebook.regrade)
            waiting = [(grade.name, grade.max_score) for grade in notebook.grades
                       if grade.needs_manual_grade and grade.manual_score is None]
            review = [grade for grade in notebook.grades if grade.needs_manual_grade and grade.manual_score is not None]
            overridden = [grade.name for grade in review if grade.auto_score is not None]  # test cells
            review = [grade.name for grade in review if grade.auto_score is None]
            seconds_late, penalty = notebook.assignment.total_seconds_late, notebook.late_submission_penalty
        notes = []
        if waiting:
            points = sum(score for _, score in waiting)
            notes.append(f"**Not final yet: {points:g} points of written answers await grading** "
                         f"({', '.join(name for name, _ in waiting)}). The score above counts them as 0 "
                         "until your instructor has graded them.")
        if review:
            notes.append(f"**Not final yet: written answers changed since they were graded, to review** "
                         f"({', '.join(review)}). The score above counts the grades they had.")
        if overridden:
            notes.append(f"**Not final yet: your answers changed since your instructor set these tests' scores, "
                         f"to review** ({', '.join(overridden)}). The score above counts the scores they set.")
        for text in notes:
            cell = new_markdown_cell(text)
            cell.metadata["tags"] = [AWAITING_TAG]
            nb.cells.insert(0, cell)
        if seconds_late > 0:  # how late, beside the penalty nbgrader's heading shows
            lost = f": the late penalty takes off {penalty:g} points" if penalty else ""
            late = f"**Handed in {seconds_late / 3600:.1f} h after the due date**{lost}."
            nb.cells.insert(0, new_markdown_cell(late))
        return nb, resources


@functools.cache
def _offline_mathjax() -> str:
    source = MATHJAX.read_text()
    if re.search(r"</?script", source, re.IGNORECASE):  # would end the inline script early
        raise RuntimeError(f"{MATHJAX} cannot be inlined in a page: it contains a script tag")
    return f"<script>{_MATHJAX_CONFIG}</script>\n<script>{source}</script>"


class FeedbackPage(HTMLExporter):
    """nbgrader's feedback page (``c.GenerateFeedback.exporter_class``) with MathJax inlined, not from a CDN."""

    def from_notebook_node(self, nb, resources=None, **kw):
        page, resources = super().from_notebook_node(nb, resources, **kw)
        page, found = _CDN_MATHJAX.subn(lambda _: _offline_mathjax(), page, count=1)
        if not found:
            raise RuntimeError("the feedback template no longer loads MathJax where FeedbackPage expects it")
        return page, resources
