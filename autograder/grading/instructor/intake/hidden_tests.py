"""nbgrader's OverwriteCells, checking each locked cell against what the student was given.

``nbgrader generate_assignment`` records every cell in the gradebook before it removes the
hidden tests, so a test cell's recorded source and checksum hold them, while the released cell
does not. nbgrader's OverwriteCells compares the handed-in cell with that checksum, so every
untouched test cell with hidden tests printed "Attribute 'checksum' for cell test_... has
changed!" before the recorded source was put back (nbgrader issue 1961): a warning on every
honest notebook, which hides the ones that matter. :class:`RestoreHiddenTests` takes
OverwriteCells' place in the sanitizing step (``c.Autograde.sanitize_preprocessors`` in
``autograder/nbgrader_config.py``): a locked cell that holds exactly what the release gave gets
its hidden tests back first, so nbgrader's check finds it unchanged; a cell changed in any way
meets nbgrader's own check, warning and restore as before.
"""
import copy

from nbgrader import utils
from nbgrader.api import MissingEntry
from nbgrader.preprocessors import ClearHiddenTests, OverwriteCells


class RestoreHiddenTests(OverwriteCells):
    def preprocess_cell(self, cell, resources, cell_index):
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id is not None and utils.is_grade(cell):
            try:
                recorded = self.gradebook.find_source_cell(grade_id, self.notebook_id, self.assignment_id)
            except MissingEntry:  # OverwriteCells reports it
                recorded = None
            if recorded is not None and recorded.locked and cell.source == self._released(cell, recorded.source):
                cell.source = recorded.source
        return super().preprocess_cell(cell, resources, cell_index)

    def _released(self, cell, source: str) -> str:
        """``source`` as the release shows it in ``cell``: without its hidden tests (nbgrader's ClearHiddenTests,
        with this course's delimiters)."""
        given = copy.deepcopy(cell)
        given.source = source
        given, _ = ClearHiddenTests(parent=self).preprocess_cell(given, {}, 0)
        return given.source
