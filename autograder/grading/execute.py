"""nbgrader's Execute preprocessor, with the limits and checks a whole class needs.

* Output is capped per cell (``max_output_bytes``): a flood of prints cannot exhaust the
  grader's memory; a test cell over the cap scores 0 and says so.
* A test cell never earns points by returning a number: nbgrader would count an
  ``execute_result`` as partial credit, and our tests end with ``passed(...);``, so
  any result a test cell shows came from an answer and is dropped.
* After the last cell, the runtime guard's report is read (grading.guard): when an
  answer tried to tamper with grading, or replaced something the tests rely on, every
  test scores 0 and says why.
* A memory error names the grader's memory limit.
"""
import json

from nbformat.v4 import new_code_cell, new_output
from nbgrader.preprocessors import Execute
from traitlets import Bool, Integer

TAMPERING = "GradingTampering"
GUARD_LINE = "GRADING-GUARD "  # grading.guard.report's line (not imported: the guard imports torch)


def is_test(cell) -> bool:
    meta = cell.metadata.get("nbgrader", {})
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def _error(ename: str, evalue: str) -> dict:
    # shaped like IPython's tracebacks (a rule, then the message), which feedback pages trim from the top
    return new_output("error", ename=ename, evalue=evalue, traceback=["-" * 75, f"{ename}: {evalue}"])


class GradingExecute(Execute):
    # nbgrader stops the whole notebook when output floods in faster than it is read; cap it instead
    raise_on_iopub_timeout = Bool(False).tag(config=True)
    max_output_bytes = Integer(1_000_000, help="Output kept per cell; beyond it a test cell scores 0.").tag(config=True)
    memory_limit_mb = Integer(0, help="The kernel's memory limit, named in memory errors (0: none)").tag(config=True)

    def preprocess(self, nb, resources=None, km=None):
        self._output_bytes: dict[int, int] = {}
        # asked twice: a stray interrupt (sent when an earlier cell ran out of time) can land in the first
        report_cells = [new_code_cell("from grading.guard import report\nreport()") for _ in range(2)]
        nb.cells += report_cells
        try:
            nb, resources = super().preprocess(nb, resources, km)
        finally:
            nb.cells = [cell for cell in nb.cells if not any(cell is r for r in report_cells)]
        problems = self._guard_problems([o for cell in report_cells for o in cell.outputs])
        if problems:
            reason = "this notebook tampered with grading, so no test counts: " + "; ".join(problems[:3])
            for cell in nb.cells:
                if is_test(cell):
                    cell.outputs.append(_error(TAMPERING, reason))
        return nb, resources

    @staticmethod
    def _guard_problems(outputs: list) -> list[str]:
        """The problems the guard reported in ``outputs`` (of the report cells), in its last report."""
        text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
        lines = [line for line in text.splitlines() if line.startswith(GUARD_LINE)]
        if not lines:
            # A limit (memory, time - under a flood of output, say) is named where it was hit, and the
            # checks that guard every test ran before it. Any other failure means grading code was broken.
            broken = [o for o in outputs if o.output_type == "error" and not _hit_a_limit(o)]
            if broken:
                return [f"the grader's final check could not run ({broken[0].ename}: grading code was changed)"]
            return []  # not an autograded run (no guard), or a limit was reached
        report = json.loads(lines[-1][len(GUARD_LINE):])
        return report["problems"] if report["installed"] else []

    def output(self, outs, msg, display_id, cell_index):
        size = len(json.dumps(msg.get("content", {})))
        total = self._output_bytes.get(cell_index, 0) + size
        self._output_bytes[cell_index] = total
        if total > self.max_output_bytes:
            if total - size <= self.max_output_bytes:  # the first message over the cap
                outs.append(new_output("stream", name="stdout",
                                       text=f"\n[output cut: more than {self.max_output_bytes:,} bytes]\n"))
            return None
        return super().output(outs, msg, display_id, cell_index)

    def on_cell_executed(self, **kwargs):
        super().on_cell_executed(**kwargs)
        cell, index = kwargs["cell"], kwargs["cell_index"]
        if is_test(cell):
            cell.outputs = [o for o in cell.outputs if o.output_type != "execute_result"]
            if self._output_bytes.get(index, 0) > self.max_output_bytes:
                cell.outputs.append(_error("OutputLimitExceeded", f"the test printed more than the grader's output "
                                                                  f"limit of {self.max_output_bytes:,} bytes"))
        if self.memory_limit_mb and any(o.output_type == "error" and _out_of_memory(o) for o in cell.outputs):
            cell.outputs.append(new_output("stream", name="stdout", text=f"(the grader's memory limit of "
                                                                         f"{self.memory_limit_mb} MB was reached)\n"))


_MEMORY_WORDS = ("allocate memory", "out of memory", "bad_alloc", "can't start new thread")


def _out_of_memory(output) -> bool:
    """Whether an error output says memory ran out (Python, the OS and PyTorch each word it differently)."""
    return output.ename == "MemoryError" or any(word in output.evalue.lower() for word in _MEMORY_WORDS)


def _hit_a_limit(output) -> bool:
    return output.ename == "CellTimeoutError" or _out_of_memory(output)
