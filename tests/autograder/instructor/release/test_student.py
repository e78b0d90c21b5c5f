"""The student release holds no answer: no line of a solution or hidden test, no body of a graded function whose
answers are not released, no instructor's file; its seqmodels runs the student's functions, and a released
chapter's functions as the reference does."""
import ast
import hashlib
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import torch

import seqmodels
from grading.instructor.release import earlier_answers
from grading.instructor.release import student as student_release
from grading.instructor.course import REPO, chapters
from grading.instructor.release.notebooks import leaked, secret_lines
from seqmodels.structured.crf import crf_viterbi_batch
from seqmodels.structured.ctc_fused import fused_ctc_loss

INSTRUCTOR_ONLY = ("solutions", "classwork", "example_class", "instructor", "bench", "tests")
TEXT = {".py", ".ipynb", ".md", ".txt", ".toml", ".json", ".cfg", ".yml", ".yaml", ""}


@pytest.fixture(scope="module")
def graded() -> dict[str, str]:
    return {name: chapter for name, (chapter, _) in student_release.graded_chapters().items()}


@pytest.fixture(scope="module")
def releases(tmp_path_factory) -> dict[str, Path]:
    """``first``: before any deadline; ``01 out``: chapter 01's answers released on the command line;
    ``unstripped``: every chapter's answers, so the reference as it is (what the checks below must catch)."""
    folders = {name: tmp_path_factory.mktemp(name.replace(" ", "_")) / "release" for name in ("first", "01 out")}
    student_release.build(folders["first"], {})
    assert student_release.main([str(folders["01 out"]), "--answers", "01_tokens"]) == 0
    folders["unstripped"] = tmp_path_factory.mktemp("unstripped") / "release"
    student_release.build(folders["unstripped"], {chapter: "" for chapter in chapters()})
    return folders


def released_in(name: str) -> set[str]:
    """The chapters whose answers the release ``name`` ships (the command line adds those of the configuration)."""
    if name == "01 out":
        return {"01_tokens", *student_release.configured_answers()}
    return set(chapters()) if name == "unstripped" else set()


def text_of(path: Path) -> str:
    if path.suffix == ".ipynb":
        return "\n".join("".join(cell["source"]) for cell in json.loads(path.read_text())["cells"])
    return path.read_text()


def files(release: Path) -> list[Path]:
    return [p for p in release.rglob("*") if p.is_file() and p.suffix in TEXT]


@pytest.fixture(scope="module")
def reference(graded) -> tuple[dict[str, set[str]], set[str]]:
    """Per chapter, the body lines of its graded functions in the reference (no docstring, comment or line of
    12 characters or fewer) less the generic ones; and the generic lines: those of the code that ships
    whatever is released (the reference outside the graded functions, the withheld code and private helpers),
    and those that the student notebooks show outside any chapter's solutions (``L = x.shape[1]``)."""
    secret: dict[str, set[str]] = {chapter: set() for chapter in chapters()}
    solutions = set().union(*(secret_lines(chapter, ("SOLUTION",)) for chapter in chapters()))
    shipped = {line.strip() for notebook in (REPO / "notebooks").glob("*/*.ipynb")
               for line in text_of(notebook).splitlines()} - solutions
    for path in sorted((REPO / "reference" / "seqmodels").rglob("*.py")):
        module = student_release.module_name(path.relative_to(REPO / "reference"))
        lines, tree = path.read_text().splitlines(), ast.parse(path.read_text())
        withheld = set()
        for qualified, node in student_release._definitions(tree, module):
            name = qualified.rpartition(".")[2]
            body = range(node.lineno, node.end_lineno + 1)
            if isinstance(node, ast.FunctionDef) and name in graded and qualified == f"{module}.{name}":
                first, last = student_release._body_lines(node)
                secret[graded[name]] |= {lines[i - 1].strip() for i in range(first, last + 1)}
                withheld |= set(body)
            elif qualified in student_release.DERIVED or (student_release._private(name)
                                                          and qualified == f"{module}.{name}"):  # a private helper
                withheld |= set(body)
        if module not in student_release.WITHHELD_MODULES:
            shipped |= {line.strip() for i, line in enumerate(lines, 1) if i not in withheld}
    return ({chapter: {line for line in lines - shipped if len(line) > 12 and not line.startswith("#")}
             for chapter, lines in secret.items()}, shipped)


def test_the_release_holds_what_students_run(releases):
    release = releases["first"]
    for path in ("notebooks/01_tokens/01_tokens.ipynb", "autograder/grading/__init__.py", "autograder/pyproject.toml",
                 "autograder/grading/student/checks.py", "reference/pyproject.toml", "reference/seqmodels/answers.py",
                 "reference/seqmodels/train.py", "requirements.txt", "requirements-data.txt", "binder/requirements.txt",
                 "binder/postBuild", "README.md"):
        assert (release / path).is_file(), f"{path} is missing"
    data = student_release.package_data()  # the package's data files: chapter 09's demo reads the spoken words
    assert REPO / "reference/seqmodels/data/spoken_words.npz.xz" in data
    assert all((release / path.relative_to(REPO)).read_bytes() == path.read_bytes() for path in data)
    assert "nbgrader" not in (release / "autograder" / "pyproject.toml").read_text()
    requirements = (release / "requirements.txt").read_text()
    assert "-e ./reference" in requirements and "torch==" in requirements and "\nnbgrader==" in requirements  # Validate
    readme = (release / "README.md").read_text()
    assert "pip install --no-deps -r requirements-data.txt" in readme
    assert "python -m grading.student.selfcheck notebooks/01_tokens/01_tokens.ipynb" in readme
    assert (release / "autograder/grading/student/selfcheck.py").is_file()
    copies = release / "autograder/grading/student/released"  # what the self-check repairs against: each notebook given
    assert sorted(p.stem for p in copies.glob("*.ipynb")) == sorted(p.name for p in (release / "notebooks").iterdir())
    assert (copies / "01_tokens.ipynb").read_bytes() == (REPO / "notebooks/01_tokens/01_tokens.ipynb").read_bytes()
    assert ".venv/" in (release / ".gitignore").read_text().splitlines()  # the README creates .venv in the release
    assert student_release.TOOLS_OFF in readme and student_release.TOOLS_OFF in (release / "binder/postBuild").read_text()


def test_the_students_jupyter_shows_validate_but_not_the_instructors_tools(tmp_path):
    """The release's command, read back by Jupyter itself (in a configuration folder of the test's own)."""
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path)}
    subprocess.run([sys.executable, "-m", "grading.student.jupyter_tools", "--user"], env=env, check=True)
    jupyter = Path(sys.executable).parent / "jupyter"
    lab = subprocess.run([str(jupyter), "labextension", "list"], env=env, capture_output=True, text=True).stderr
    disabled = lab.split("Disabled extensions:")[1]
    for name in ("formgrader", "create-assignment", "course-list", "assignment-list", "menu"):  # menu: else empty
        assert f"@jupyter/nbgrader:{name}" in disabled, lab
    assert "validate-assignment" not in disabled
    code = ("from jupyter_server.extension.config import ExtensionConfigManager as M; import sys; "
            "print(M(read_config_path=[sys.argv[1]]).get_jpserver_extensions())")
    server = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
    extensions = ast.literal_eval(server.stdout)
    assert {name.rpartition(".")[2] for name, on in extensions.items() if not on} == {
        "formgrader", "course_list", "assignment_list"}


def test_the_students_set_up_in_the_docs_switches_the_instructors_tools_off():
    """The website's students page and the README's student workflow give the release README's command."""
    for page in ("README.md", "book/students.md"):
        assert student_release.TOOLS_OFF in (REPO / page).read_text(), f"{page} does not say {student_release.TOOLS_OFF}"


def test_the_docs_name_every_chapter_whose_notebook_holds_earlier_answers():
    """README and the instructors' page quote what ``held_back`` computes, so that no such chapter goes unsaid."""
    said = student_release.held_back_text(student_release.held_back(set()))
    assert "chapter 12's chapter 11's" in said
    for page in ("README.md", "book/instructors.md"):
        assert said in " ".join((REPO / page).read_text().split()), f"{page} does not say: {said}"


def test_no_file_of_the_instructors_side(releases):
    private = {hashlib.sha256(p.read_bytes()).hexdigest() for folder in ("solutions", "autograder/example_class",
                                                                         "autograder/grading/instructor", "bench")
               for p in (REPO / folder).rglob("*") if p.is_file() and p.stat().st_size > 200
               and student_release.STUDENT_FILES not in p.parents}  # those are the student seqmodels' own
    for name, release in releases.items():
        for path in release.rglob("*"):
            parts = path.relative_to(release).parts
            assert not set(parts) & set(INSTRUCTOR_ONLY), f"{name} release ships {path.relative_to(release)}"
            if path.is_file():
                assert hashlib.sha256(path.read_bytes()).hexdigest() not in private, f"{path} is an instructor's file"


@pytest.mark.parametrize("name", ["first", "01 out"])
def test_no_solution_or_hidden_test_line(releases, reference, name):
    """Lines that the package's code shipped in any case also has (``for _ in range(max_len):`` of a model's
    greedy decoding) are no secret."""
    released, (_, shipped) = released_in(name), reference
    kinds = {c: ("HIDDEN TESTS",) if c in released else ("SOLUTION", "HIDDEN TESTS") for c in chapters()}
    secrets = {chapter: secret_lines(chapter, kinds[chapter]) - shipped for chapter in chapters()}
    for path in files(releases[name]):
        text = text_of(path)
        for chapter, secret in secrets.items():
            shown = leaked(secret, text)
            assert not shown, f"{path.relative_to(releases[name])} shows {chapter}'s secret lines {shown[:3]}"


@pytest.mark.parametrize("name, leaks", [("first", False), ("01 out", False), ("unstripped", True)])
def test_no_reference_body_of_a_graded_function_whose_answers_are_out(releases, reference, name, leaks):
    """The unstripped package (every answer released) must be caught for every chapter: the check is not vacuous."""
    release = releases[name]
    texts = [text_of(path) for path in files(release)]
    unreleased = set(chapters()) - (released_in(name) if not leaks else set())
    found = {chapter: sorted({line for text in texts for line in leaked(lines, text)})
             for chapter, lines in reference[0].items() if chapter in unreleased}
    if leaks:
        assert all(found.values()), f"the check misses the reference of {[c for c, f in found.items() if not f]}"
    else:
        assert not any(found.values()), f"the {name} release shows reference code: {found}"


def test_notebooks_that_show_answers_wait_for_them(releases):
    """Chapter 06 gives chapter 05's LSTM and chapter 12 chapter 11's attention: each comes with those answers."""
    first = sorted(p.name for p in (releases["first"] / "notebooks").iterdir())
    assert "06_bidirectional" not in first and "12_transformer" not in first and "05_lstm_gru" in first
    assert "chapter 06: its notebook gives the answers of chapter 05" in (releases["first"] / "README.md").read_text()
    assert sorted(p.name for p in (releases["unstripped"] / "notebooks").iterdir()) == chapters()


def run_with_the_release(release: Path, script: str) -> str:
    """Run ``script`` as ``__main__`` (a notebook's namespace) where only the release's packages are found:
    ``-S`` skips site-packages' .pth files, which put this repository's editable packages on the path."""
    libraries = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    path = os.pathsep.join([str(release / "reference"), str(release / "autograder"), *libraries])
    done = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True, cwd=release,
                          env={**os.environ, "PYTHONPATH": path, "OMP_NUM_THREADS": "1"}, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_chapter_05_lists_the_earlier_answers_its_demos_use_and_names_the_missing_ones_at_once(releases, capsys):
    """Before any deadline chapter 05's notebook lists chapter 01's and 04's functions after its set-up cell, and
    running the set-up names every missing one in one message; a function that the notebook defines, or that a
    released chapter ships, is not missing, and with the course's own seqmodels nothing is said."""
    assert earlier_answers.uses("05_lstm_gru") == {"01_tokens": ["build_vocab", "encode", "pad_batch"],
                                                   "04_rnn": ["lm_pairs"]}
    notebook = "notebooks/05_lstm_gru/05_lstm_gru.ipynb"
    released = json.loads((releases["first"] / notebook).read_text())["cells"]
    cells, ids = ["".join(cell["source"]) for cell in released], [cell.get("id") for cell in released]
    setup = next(i for i, source in enumerate(cells) if "RUN_SLOW_DEMOS = " in source)
    at = ids.index("earlier-answers")
    assert ids[setup + 1:at] in ([], ["builds-on"]) and ids[at + 1] == "earlier-answers-check", ids[setup:at + 2]
    listing, check = cells[at:at + 2]
    assert "other chapters: chapter 01's `build_vocab`, `encode`, `pad_batch`; chapter 04's `lm_pairs`." in " ".join(
        listing.split())
    set_up = cells[setup] + "\n" + check
    out = run_with_the_release(releases["first"], set_up)
    assert out.count("\n") == 1 and "Still missing for this notebook's demos: chapter 01's build_vocab, encode, " \
        "pad_batch; chapter 04's lm_pairs. Paste your functions" in out, out
    own_encode = run_with_the_release(releases["first"], "def encode(tokens, vocab):\n    return []\n" + set_up)
    assert "chapter 01's build_vocab, pad_batch; chapter 04's lm_pairs." in own_encode, own_encode
    assert "demos: chapter 04's lm_pairs." in run_with_the_release(releases["01 out"], set_up)
    every_one = "".join(f"def {name}(*args):\n    return None\n" for name in ("build_vocab", "encode", "pad_batch",
                                                                             "lm_pairs"))
    assert run_with_the_release(releases["first"], every_one + set_up) == ""
    exec(compile(check, "check", "exec"), {})  # this repository's seqmodels holds every answer
    assert capsys.readouterr().out == ""


def test_the_reference_is_not_importable_beside_the_release(releases):
    empty = releases["first"] / "notebooks"  # a folder without packages: seqmodels must come from nowhere else
    out = run_with_the_release(empty, "import importlib.util; print(importlib.util.find_spec('seqmodels'))")
    assert out.strip() == "None"


def test_graded_functions_raise_naming_their_chapter(releases, graded):
    release = str(releases["first"])
    out = run_with_the_release(releases["first"], f"""
import inspect, json, seqmodels, grading
assert seqmodels.__file__.startswith({release!r}) and grading.__file__.startswith({release!r})
messages = {{}}
for name in {sorted(graded)!r}:
    function = getattr(seqmodels, name)
    required = [p for p in inspect.signature(function).parameters.values() if p.default is p.empty]
    try:
        function(*[None] * len(required))
    except NotImplementedError as error:
        messages[name] = str(error)
print(json.dumps(messages))
""")
    messages = json.loads(out)
    for name, chapter in graded.items():
        assert f"`{name}` is a graded function of chapter {chapter[:2]}; define it in your notebook" in messages.get(
            name, ""), f"{name}: {messages.get(name)}"


def test_a_graded_function_runs_the_notebooks_own(releases):
    out = run_with_the_release(releases["first"], """
import seqmodels
from seqmodels import lstm_step, sum_pool

def lstm_step(x, h, c, W_ih, W_hh, b_ih, b_hh):
    return "the student's", x

print(seqmodels.lstm_step(1, 2, 3, 4, 5, 6, 7))

def sum_pool(x, mask):  # a student's function that calls the package's: no endless recursion
    return seqmodels.sum_pool(x, mask)

try:
    seqmodels.sum_pool(1, 2)
except RecursionError as error:
    print(error)

def beam_search(step, bos, eos, beam_size, max_len, alpha=0.0):
    return "the student's beam"

print(seqmodels.beam_search(None, 0, 1, 2, 3))
try:
    seqmodels.beam_search(None, 0, 1, 2, 3, attention=lambda prefix: None, beta=0.5)
except NotImplementedError as error:
    print(error)
""")
    lines = out.splitlines()
    assert lines[0] == "(\"the student's\", 1)"
    assert "your `sum_pool` calls the course's `sum_pool`" in lines[1]
    assert lines[2] == "the student's beam"
    assert "`beam_search` with attention, beta" in lines[3] and "chapter 11's answers" in lines[3]


def test_fast_paths_run_the_students_graded_function(releases, tmp_path):
    """crf_viterbi_fused (the tagger's decoding) and fused_ctc_loss fall back to the notebook's crf_viterbi and
    ctc_loss; gru_encode, written as lstm_encode is, is withheld with chapter 05."""
    g = torch.Generator().manual_seed(0)
    emissions, transitions, start, end = (torch.randn(*shape, generator=g) for shape in ((2, 4, 3), (3, 3), (3,), (3,)))
    mask = torch.tensor([[True] * 4, [True, True, False, False]])
    log_probs = torch.randn(6, 2, 4, generator=g).log_softmax(-1)
    torch.save((emissions, mask, transitions, start, end, log_probs), tmp_path / "inputs.pt")
    out = run_with_the_release(releases["first"], f"""
import itertools, json, torch
from torch.nn import functional as F
from seqmodels.layers.gated import gru_encode
from seqmodels.structured import crf_viterbi_fused, fused_ctc_loss

def crf_viterbi(emissions, transitions, start, end):  # brute force, as a student might check it
    def score(tags):
        return float(start[tags[0]] + sum(emissions[i, t] for i, t in enumerate(tags))
                     + sum(transitions[a, b] for a, b in zip(tags, tags[1:])) + end[tags[-1]])
    best = max(itertools.product(range(emissions.shape[1]), repeat=emissions.shape[0]), key=score)
    return list(best), score(best)

def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean"):
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction)

emissions, mask, transitions, start, end, log_probs = torch.load({str(tmp_path / "inputs.pt")!r})
paths, scores = crf_viterbi_fused(emissions, mask, transitions, start, end)
loss = fused_ctc_loss(log_probs, torch.tensor([[1, 2], [3, 0]]), [6, 5], [2, 1], reduction="none")
try:
    gru_encode(None, None, None)
except NotImplementedError as error:
    withheld = str(error)
print(json.dumps([paths, scores, loss.tolist(), withheld]))
""")
    paths, scores, loss, withheld = json.loads(out)
    expected_paths, expected_scores = crf_viterbi_batch(emissions, mask, transitions, start, end)
    assert paths == expected_paths
    assert scores == pytest.approx(expected_scores, abs=1e-5)
    expected_loss = fused_ctc_loss(log_probs, torch.tensor([[1, 2], [3, 0]]), [6, 5], [2, 1], reduction="none")
    assert loss == pytest.approx(expected_loss.tolist(), abs=1e-5)
    assert "`gru_encode` computes what `lstm_encode` of chapter 05 does" in withheld


def test_released_answers_work_as_the_reference(releases, graded, tmp_path):
    calls = {"build_vocab": ([["the", "cat"], ["the", "dog", "dog"]],),
             "encode": (["the", "otter"], {"[UNK]": 1, "the": 2}),
             "decode": ([2, 1], {"[PAD]": 0, "[UNK]": 1, "the": 2}), "pad_batch": ([[3, 4, 5], [6]],),
             "onehot": (torch.tensor([[0, 2], [1, 1]]), 3),
             "embed": (torch.tensor([2, 0]), torch.arange(6.0).view(3, 2))}
    assert set(calls) == {name for name, chapter in graded.items() if chapter == "01_tokens"}
    torch.save(calls, tmp_path / "calls.pt")
    out = run_with_the_release(releases["01 out"], f"""
import torch, seqmodels
results = {{name: getattr(seqmodels, name)(*args) for name, args in torch.load({str(tmp_path / "calls.pt")!r}).items()}}
try:
    seqmodels.mean_pool(None, None)
except NotImplementedError as error:
    results["mean_pool"] = str(error)
torch.save(results, {str(tmp_path / "results.pt")!r})
""")
    assert not out
    results = torch.load(tmp_path / "results.pt")
    for name, args in calls.items():
        expected, got = getattr(seqmodels, name)(*args), results[name]
        assert repr(got) == repr(expected), f"{name}{args}: {got!r}, the reference gives {expected!r}"
    assert "graded function of chapter 02" in results["mean_pool"]


def test_a_later_build_replaces_a_release_but_keeps_its_git(releases, tmp_path):
    release = releases["first"]
    (release / ".git").mkdir()
    (release / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (release / "notebooks" / "stale.ipynb").write_text("{}")
    student_release.build(release, {})
    assert (release / ".git" / "HEAD").is_file() and not (release / "notebooks" / "stale.ipynb").exists()
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("not a release")
    with pytest.raises(ValueError, match="holds files, and no student release"):
        student_release.build(other, {})
    with pytest.raises(ValueError, match="holds the course itself"):
        student_release.build(REPO, {})
