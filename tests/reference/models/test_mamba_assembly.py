"""Chapter 14's demo (c) assembles the Mamba language model from a student's ``rms_norm`` and ``selective_scan``:
with the solution notebook's functions the model gives the same logits as with the package's, and it calls
them (every RMSNorm and every scan of the model), so that the demo measures the student's code."""
import nbformat
import torch
from torch.nn import functional as F

from grading.instructor.course import SOLUTIONS
from seqmodels.models.mamba import MambaLM

ANSWERS = ("rms_norm", "linear_scan", "selective_scan")  # selective_scan calls the notebook's linear_scan


def solution_functions() -> dict:
    """The answer cells of the solution notebook, run as the notebook runs them."""
    notebook = nbformat.read(SOLUTIONS / "14_ssm" / "14_ssm.ipynb", as_version=4)
    namespace = {"torch": torch, "F": F}
    for cell in notebook.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") in ANSWERS:
            exec(compile(cell.source, "14_ssm.ipynb", "exec"), namespace)
    return {name: namespace[name] for name in ANSWERS}


def counted(fn, calls: dict):
    def wrapper(*args, **kwargs):
        calls[fn.__name__] = calls.get(fn.__name__, 0) + 1
        return fn(*args, **kwargs)
    return wrapper


def test_the_solution_functions_give_the_package_models_logits():
    solution, calls = solution_functions(), {}
    torch.manual_seed(14)
    package = MambaLM(30, dim=16, layers=2, states=4).double()
    assembled = MambaLM(30, dim=16, layers=2, states=4, rms_norm_fn=counted(solution["rms_norm"], calls),
                        selective_scan_fn=counted(solution["selective_scan"], calls)).double()
    assembled.load_state_dict(package.state_dict())
    ids = torch.randint(30, (3, 21), generator=torch.Generator().manual_seed(1))
    torch.testing.assert_close(assembled(ids), package(ids), rtol=1e-10, atol=1e-10)
    assert calls == {"rms_norm": 3, "selective_scan": 2}, f"expected 2 blocks' norms + the final one and 2 scans, got {calls}"
    step_logits, _ = assembled.step(ids[:, 0], None)
    torch.testing.assert_close(step_logits, package(ids[:, :1])[:, 0], rtol=1e-10, atol=1e-10)
    assert calls["rms_norm"] == 6, "a generation step also runs the assembled RMSNorm (2 blocks and the final one)"
