"""How close the solution comes to each tolerance its chapter's tests state.

    .venv/bin/python bench/tolerances.py [CHAPTER ...] [--salt N] [--json PATH]

Grades each chapter's solution notebook with the trusted checker (visible and hidden tests, hidden
inputs salted with ``--salt``) and records every ``expect_tensor`` check it makes: the dtype, the
tolerance stated and applied (``grading.student.checks.tolerance``), the solution's largest error and
its ``use``, the largest ``|got - expected| / (atol + rtol |expected|)``: a check passes while its use
is at most 1. Prints a line per check; a float64 check whose tolerance would let float32 arithmetic
through (an allowed error of 5e-8 or more at the values' size) is marked ``loose``.
"""
import argparse
import json
import sys
from pathlib import Path

import torch

# This folder holds grading.py (a benchmark): keep it off sys.path so `grading` is the course's package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from grading.instructor.course import SOLUTIONS, chapters  # noqa: E402
from grading.instructor.verdicts.checker import check  # noqa: E402
from grading.student import checks  # noqa: E402

FLOAT32_SIZED = 5e-8  # float32 rounds values near 1 by up to 6e-8: a float64 check must allow less


def _test_cell() -> str:
    """The grade_id of the test cell that is comparing (the checker compiles each cell as ``<grade_id>``)."""
    frame = sys._getframe(2)
    while frame is not None and not frame.f_code.co_filename.startswith("<test"):
        frame = frame.f_back
    return frame.f_code.co_filename.strip("<>") if frame else "?"


def measured(records: list) -> callable:
    """expect_tensor, recording each check's tolerance and the solution's error before comparing."""
    original = checks.expect_tensor

    def expect_tensor(got, expected, call, *, atol=None, rtol=None, **options):
        if type(got) is torch.Tensor and type(expected) is torch.Tensor and got.shape == expected.shape:
            applied = checks.tolerance(expected.dtype, atol, rtol)
            a, b = got.detach().double().cpu(), expected.detach().double().cpu()
            error = torch.where(a == b, 0.0, (a - b).abs()).nan_to_num(float("inf"))  # equal infinities: no error
            allowed = applied[0] + applied[1] * b.abs()
            use = torch.where(error > 0, error / allowed, 0.0)  # inf where nothing is allowed but there is an error
            records.append({"cell": _test_cell(), "call": call, "dtype": str(expected.dtype).removeprefix("torch."),
                            "stated": [atol, rtol], "applied": list(applied),
                            "error": float(error.max()) if error.numel() else 0.0,
                            "use": float(use.max()) if use.numel() else 0.0,
                            "loose": expected.dtype == torch.float64 and bool(
                                (allowed > FLOAT32_SIZED * b.abs().clamp(min=1)).any())})
        return original(got, expected, call, atol=atol, rtol=rtol, **options)

    return expect_tensor


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapters", nargs="*", default=None)
    parser.add_argument("--salt", type=int, default=0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    results, failed = {}, False
    for chapter in args.chapters or chapters():
        records: list = []
        original, checks.expect_tensor = checks.expect_tensor, measured(records)
        try:
            solution = SOLUTIONS / chapter / f"{chapter}.ipynb"
            import nbformat

            verdicts = check(chapter, nbformat.read(solution, as_version=4), salt=args.salt)["verdicts"]
        finally:
            checks.expect_tensor = original
        lost = [cell for cell, verdict in verdicts.items() if not verdict["passed"]]
        failed |= bool(lost)
        results[chapter] = {"checks": records, "cells_failed": lost}
        for r in records:
            print(f"{chapter}  {r['dtype']:8} atol={r['applied'][0]:<7g} rtol={r['applied'][1]:<7g} "
                  f"error={r['error']:<9.2g} use={r['use']:<8.2g}{'  loose' if r['loose'] else ''}  {r['cell']}: {r['call']}")
        print(f"{chapter}: {len(records)} checks, largest use {max((r['use'] for r in records), default=0):.2g}, "
              f"{sum(r['loose'] for r in records)} loose float64 checks, cells failed: {lost or 'none'}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
