"""The static screen: honest answers pass untouched; each way of tampering is named with its line."""
import json

import pytest

from grading.instructor.course import SOLUTIONS, chapters
from grading.student.screen import screen


def answer_cells():
    for chapter in chapters():
        for path in sorted((SOLUTIONS / chapter).glob("*.ipynb")):
            for cell in json.loads(path.read_text())["cells"]:
                meta = cell["metadata"].get("nbgrader", {})
                if cell["cell_type"] == "code" and meta.get("solution"):
                    yield f"{chapter}/{meta['grade_id']}", "".join(cell["source"])


@pytest.mark.parametrize("name, source", list(answer_cells()))
def test_the_instructors_answers_pass_the_screen(name, source):
    assert screen(source) == [], name


HONEST = [
    "import math\nimport itertools\nfrom collections import Counter, defaultdict\nimport torch.nn.functional as F",
    "import numpy as np\nimport torch\nx = np.zeros(3)\nx[0] = 1",
    "class Tagger(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.w = 1\n\n"
    "    def forward(self, x):\n        return getattr(self, 'w') * x",
    'if __name__ == "__main__":\n    print(len([1]))',
    "def f(x):\n    return x  # exec() in a comment is fine\n\ns = 'eval is just a word here'",
    "def broken(:\n    pass",  # a syntax error fails when it runs, with Python's message
]


@pytest.mark.parametrize("source", HONEST)
def test_ordinary_code_is_not_flagged(source):
    assert screen(source) == []


ATTACKS = {
    "exec('x = 1')": "uses `exec`",
    "f = eval": "uses `eval`",
    "m = __import__('os')": "uses `__import__`",
    "import os": "imports `os`",
    "import sys as s": "imports `sys`",
    "from importlib import import_module": "imports from `importlib`",
    "from grading.student.checks import call": "imports from `grading.student.checks`",
    "import seqmodels": "reference package",
    "from seqmodels.text import vocab": "reference package",
    "torch.allclose = lambda *a, **k: True": "changes `torch.allclose`",
    "import math\nmath.isclose = max": "changes `math.isclose`",
    "torch.Tensor.__eq__ = None": "__eq__",
    "def expect_equal(*a):\n    pass": "redefines `expect_equal`",
    "passed = print": "redefines `passed`",
    "import numpy as torch": "redefines `torch`",
    "np = None": "redefines `np`",
    "globals()['call'] = 1": "uses `globals`",
    "vars(torch)['allclose'] = 1": "uses `vars`",
    "x = torch.sys.modules": "`.sys`",
    "getattr(torch, '__dict__')": "spells out `__dict__`",
    "().__class__.__base__.__subclasses__()": "`.__subclasses__`",
    "class A:\n    def __eq__(self, other):\n        return True": "defines `__eq__`",
    "get_ipython().showtraceback = None": "uses `get_ipython`",
    "setattr(torch, 'allclose', max)": "uses `setattr`",
    "open('../../gradebook.db', 'w')": "uses `open`",
    "%env X=1": "IPython magic",
    "!rm -rf /": "IPython magic",
    "from torch import *": "imports *",
}


@pytest.mark.parametrize("source, problem", ATTACKS.items())
def test_each_attack_is_named_with_its_line(source, problem):
    findings = screen(source)
    assert any(problem in str(f) for f in findings), f"{source!r}: {[str(f) for f in findings]}"
    assert all(str(f).startswith("line ") for f in findings)
