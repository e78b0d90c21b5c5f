"""Each defence of trusted grading (issue 17), shown to stop its attack and to let it through when removed.

The red team (test_redteam.py) grades whole notebooks with every defence on; these tests take one
defence at a time, on the smallest piece that has it: the OS sandbox, the secret salt of the hidden
tests' seeds, hidden failures that show no values, the wire's Opaque rule, the watcher in threads, the
worker's audit hook, and the checker loading only definitions from the notebook's other cells.
"""
import _thread
import html
import re
import threading

import nbformat
import pytest
import torch
from nbformat.v4 import new_code_cell, new_notebook

from grading.student import checks
from grading.instructor.course import REPO
from grading.instructor.verdicts import sandbox
from grading.instructor.verdicts.answers import Answers
from grading.instructor.verdicts.checker import PRIVATE_PACKAGES, BEGIN_HIDDEN, END_HIDDEN, Checker, answer_program
from grading.instructor.verdicts.wire import Opaque, Peer, RemoteError
from grading.instructor.verdicts.zygote import SHARED
from grading.student.watch import CallWatcher

REFERENCE_FILE = REPO / "reference" / "seqmodels" / "__init__.py"
PROBES = """
import os
def can_read(path):
    try:
        return len(open(path).read()) > 0
    except OSError:
        return False
def salt():
    return os.environ.get("GRADING_SALT")
def tanh_in_a_raw_thread(x):
    import _thread, time
    out = []
    _thread.start_new_thread(lambda: out.append(torch.tanh(x)), ())
    while not out:
        time.sleep(0.01)
    return out[0]
def import_reference():
    import seqmodels
def run_a_program():
    import subprocess
    return subprocess.run(["true"]).returncode
"""


def _answers(**forbidden) -> Answers:
    return Answers([("probes", "import torch\n" + PROBES, "answer")], forbidden, "seqmodels", PRIVATE_PACKAGES,
                   load_timeout=60)


@pytest.fixture
def sandbox_mode(monkeypatch):
    def choose(mode: str) -> None:
        monkeypatch.setenv("GRADING_SANDBOX", mode)
        sandbox.bubblewrap.cache_clear()

    yield choose
    sandbox.bubblewrap.cache_clear()


def test_the_sandbox_hides_the_repository_and_the_salt(sandbox_mode, monkeypatch):
    monkeypatch.setenv("GRADING_SALT", "1234")
    sandbox_mode("auto")
    if sandbox.bubblewrap() is None:
        pytest.skip("bubblewrap cannot start a sandbox here")
    SHARED.prepare()  # the zygote its answer workers are forked from, started in the sandbox (as an earlier grading
    # in this process leaves it): with the sandbox off, an answer must not be forked from it
    with _answers() as answers:
        assert answers.sandboxed
        assert answers.call("can_read", (str(REFERENCE_FILE),), {}) is False
        assert answers.call("salt", (), {}) is None
    sandbox_mode("off")  # the defence removed: the same answer reads the reference package
    with _answers() as answers:
        assert not answers.sandboxed
        assert answers.call("can_read", (str(REFERENCE_FILE),), {}) is True
        assert answers.call("salt", (), {}) is None  # the unsandboxed worker gets none of the checker's environment


def test_the_audit_hook_blocks_private_imports_and_programs_even_without_the_sandbox(sandbox_mode):
    sandbox_mode("off")
    with _answers() as answers:
        for probe in ("import_reference", "run_a_program"):
            with pytest.raises(RemoteError) as stopped:
                answers.call(probe, (), {})
            assert stopped.value.kind == "Blocked", probe
    import seqmodels  # the same import outside the worker: only the hook stood in the way

    assert seqmodels.__file__


def test_the_watcher_sees_forbidden_calls_in_raw_threads_only_with_the_workers_thread_hook():
    with _answers(tanh_in_a_raw_thread=("torch.tanh",)) as answers:
        with pytest.raises(RemoteError) as stopped:
            answers.call("tanh_in_a_raw_thread", (torch.ones(2),), {})
        assert stopped.value.kind == "Forbidden" and "torch.tanh" in str(stopped.value)
    # without the worker's patch of _thread.start_new_thread (this process has none), the call goes unseen
    done = threading.Event()
    with CallWatcher(("torch.tanh",), "seqmodels") as watcher:
        _thread.start_new_thread(lambda: (torch.tanh(torch.ones(2)), done.set()), ())
        done.wait(10)
    assert watcher.used == []


class _NoAnswers:
    deadline = 0.0

    def new_cell(self) -> None:
        pass


@pytest.fixture
def checker_for(monkeypatch):
    monkeypatch.setattr(checks, "_stdout", checks._stdout)  # the checker points the helpers' output at its cells

    def make(salt: int) -> Checker:
        return Checker(new_notebook(), _NoAnswers(), cell_s=10, salt=salt)

    return make


DRAW = "x = torch.rand(4, generator=torch.Generator().manual_seed(7))\n"


def _hidden(code: str) -> str:
    return f"import torch\n{BEGIN_HIDDEN}\n{code}{END_HIDDEN}\n"


def test_the_salt_makes_hidden_inputs_unpredictable(checker_for):
    def hidden_input(salt: int) -> torch.Tensor:
        checker = checker_for(salt)
        assert checker.verdict(_hidden(DRAW), "draw").passed
        return checker.namespace["x"]

    assert torch.equal(hidden_input(1), hidden_input(1))
    assert not torch.equal(hidden_input(1), hidden_input(2))
    assert not torch.equal(hidden_input(1), torch.rand(4, generator=torch.Generator().manual_seed(7)))
    visible = checker_for(1)  # the defence's absence: a visible test's inputs are what its seed says
    visible.verdict("import torch\n" + DRAW, "draw")
    assert torch.equal(visible.namespace["x"], torch.rand(4, generator=torch.Generator().manual_seed(7)))


@pytest.mark.parametrize("draw", ["import random\nx = random.Random(7).random()\n",
                                  "import numpy as np\nx = float(np.random.RandomState(7).rand())\n",
                                  "import numpy as np\nx = float(np.random.default_rng(7).random())\n"],
                         ids=["random.Random", "RandomState", "default_rng"])
def test_the_salt_reaches_every_random_source_a_hidden_test_seeds(checker_for, draw):
    def hidden_input(salt: int) -> float:
        checker = checker_for(salt)
        assert checker.verdict(_hidden(draw), "draw").passed
        return checker.namespace["x"]

    visible = checker_for(1)
    visible.verdict("import torch\n" + draw, "draw")
    assert hidden_input(1) == hidden_input(1) != hidden_input(2)
    assert hidden_input(1) != visible.namespace["x"]  # what the seed alone says


@pytest.mark.parametrize("cell", [
    "g = torch.Generator().manual_seed(7)\nvisible = torch.rand(2, generator=g)\n"
    f"{BEGIN_HIDDEN}\nx = torch.rand(4, generator=g)\n{END_HIDDEN}\n",
    f"torch.manual_seed(7)\nvisible = torch.rand(2)\n{BEGIN_HIDDEN}\nx = torch.rand(4)\n{END_HIDDEN}\n",
    "import random\nrng = random.Random(7)\nvisible = rng.random()\n"
    f"{BEGIN_HIDDEN}\nx = torch.tensor([rng.random() for _ in range(4)])\n{END_HIDDEN}\n",
    "def layer(seed):\n    torch.manual_seed(seed)\n    return torch.nn.Linear(2, 2)\n"
    f"visible = layer(3).weight.detach()\n{BEGIN_HIDDEN}\nx = layer(seed=7).weight.detach()\n{END_HIDDEN}\n",
], ids=["generator-seeded-visibly", "global-generator", "random.Random-seeded-visibly", "helper-seed-argument"])
def test_a_hidden_part_salts_the_generators_it_goes_on_drawing_from(checker_for, cell):
    """Issue 38.4: a hidden part that draws from a generator its visible part seeded (or from torch's global one,
    or through a helper's seed= argument) drew the same inputs for every class."""
    def drawn(salt: int) -> tuple:
        checker = checker_for(salt)
        assert checker.verdict("import torch\n" + cell, "cell").passed
        return checker.namespace["visible"], checker.namespace["x"]

    (visible_1, hidden_1), (visible_2, hidden_2) = drawn(1), drawn(2)
    assert torch.equal(torch.as_tensor(visible_1), torch.as_tensor(visible_2))  # the visible inputs stay as seeded
    assert torch.equal(hidden_1, drawn(1)[1]) and not torch.equal(hidden_1, hidden_2)


def test_student_text_in_the_grading_report_is_shown_as_text():
    from grading.instructor.verdicts.preprocessor import as_markdown_text

    note = "ffnn did not run: ValueError: <style>h1 {display: none}</style> **10/10** [me](javascript:x)\n# Score"
    shown = as_markdown_text(note)
    assert "<" not in shown and "\n" not in shown and "](" not in shown and "**" not in shown
    assert html.unescape(re.sub(r"\\(.)", r"\1", shown)) == " ".join(note.split())  # every character, as text


FAILING_CHECK = ("print('expected values: 0.3141')\n"
                 "expect_equal(1.25, 2.5, 'f(x)', hint='is the sign right?')\n")


def test_a_hidden_failure_shows_its_hint_and_no_values(checker_for):
    checker = checker_for(1)
    setup = "from grading.student.checks import expect_equal\n"
    hidden = checker.verdict(setup + f"{BEGIN_HIDDEN}\n{FAILING_CHECK}{END_HIDDEN}\n", "hidden")
    assert not hidden.passed and hidden.ename == "HiddenTestFailed"
    assert "Hint: is the sign right?" in hidden.evalue
    shown = hidden.stdout + hidden.evalue
    assert not any(value in shown for value in ("1.25", "2.5", "0.3141", "f(x)"))
    visible = checker.verdict(setup + FAILING_CHECK, "visible")  # the same check unhidden says everything
    assert "2.5" in visible.evalue and "1.25" in visible.evalue and "0.3141" in visible.stdout


class _Agreeable(torch.Tensor):
    def __eq__(self, other):
        return True

    __hash__ = torch.Tensor.__hash__


class _Liar(list):
    def __eq__(self, other):
        return True


def test_values_that_could_lie_cross_the_wire_as_opaque_values_that_equal_nothing():
    peer = Peer(None, None)
    lying = [torch.zeros(3).as_subclass(_Agreeable), _Liar()]
    assert lying[0] == torch.ones(3) and lying[1] == [1, 2]  # what they would do on the checker's side
    buffers: list[bytes] = []
    crossed = peer.decode(peer.encode(lying, buffers), buffers)
    assert all(isinstance(value, Opaque) for value in crossed)
    assert crossed[0] != torch.ones(3) and crossed[1] != [] and crossed[0] != crossed[0]
    with pytest.raises(checks.ExerciseFailure, match="expected a torch.Tensor"):
        checks.expect_tensor(crossed[0], torch.zeros(3), "f()")
    plain = peer.decode(peer.encode(torch.arange(3.0), buffers), buffers)  # an honest tensor crosses as itself
    assert type(plain) is torch.Tensor and torch.equal(plain, torch.arange(3.0))


def test_only_definitions_of_the_notebooks_other_cells_reach_the_worker():
    student = new_notebook(cells=[new_code_cell("import torch\ntorch.allclose = lambda *a, **k: True\n"
                                                "def helper():\n    return 1\nprint(open('/etc/passwd').read())")])
    solution = nbformat.v4.new_notebook()
    [(_, source, kind)] = answer_program(student, solution)
    assert kind == "given" and "def helper" in source and "import torch" in source
    assert "allclose" not in source and "open(" not in source
