"""Near-copies of the reference implementation and of each other's answers, flagged (never penalised).

Each function an answer defines is compared with the reference package's function of the
same name, as token streams with names, strings and comments normalised away, so renaming
variables or rewording comments does not hide a copy.

Students' answers are compared with each other by copydetect (Bryson Lingenfelter's implementation of
the winnowing of Schleimer, Wilkerson and Aiken, *Winnowing: local algorithms for document
fingerprinting*, the method of MOSS): each student's answer cells, as one Python file, are
tokenised with names and strings replaced, cut into k-grams, hashed and winnowed into
fingerprints. Fingerprints of the code the students were given (the release notebook: stubs,
imports, the test cells' calls) are left out, and so are those shared by more students than a
copy ring would be (:func:`common`, as MOSS's ``-m``): short functions that everybody writes the
same way. :func:`pairs` lists two students whose remaining fingerprints mostly coincide.
"""
import ast
import csv
import difflib
import math
import importlib
import inspect
import io
import keyword
import textwrap
import tokenize
from pathlib import Path

import nbformat
from copydetect import CodeFingerprint, compare_files

from grading.student.rules import REFERENCE_PACKAGE

THRESHOLD = 0.9  # similarity from which an answer is flagged
MIN_TOKENS = 25  # shorter functions look alike whoever writes them


def shape(source: str) -> list[str]:
    """The function's tokens with identifiers, strings and comments replaced by placeholders."""
    tree = ast.parse(textwrap.dedent(source))
    for node in ast.walk(tree):  # docstrings say nothing about who wrote the code
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and ast.get_docstring(node):
            node.body = node.body[1:] or [ast.Pass()]
    tokens = []
    for token in tokenize.generate_tokens(io.StringIO(ast.unparse(tree)).readline):
        if token.type == tokenize.NAME:
            tokens.append(token.string if keyword.iskeyword(token.string) else "NAME")
        elif token.type == tokenize.STRING:
            tokens.append("STRING")
        elif token.type in (tokenize.OP, tokenize.NUMBER):
            tokens.append(token.string)
    return tokens


def similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, shape(a), shape(b), autojunk=False).ratio()


def near_copies(source: str) -> list[tuple[str, float]]:
    """(function name, similarity) for each function in ``source`` that nearly copies the reference's."""
    try:
        tree = ast.parse(source)
        reference = importlib.import_module(REFERENCE_PACKAGE)
    except (SyntaxError, ImportError):
        return []
    found = []
    for node in tree.body:
        original = getattr(reference, getattr(node, "name", ""), None)
        if not isinstance(node, ast.FunctionDef) or not inspect.isfunction(original):
            continue
        answer, model = ast.get_source_segment(source, node), inspect.getsource(original)
        if len(shape(answer)) >= MIN_TOKENS and (score := similarity(answer, model)) >= THRESHOLD:
            found.append((node.name, round(score, 2)))
    return found


# Pairs of students. k-grams of filtered code shorter than NOISE are never fingerprinted, any shared
# passage of GUARANTEE characters is found (copydetect's noise and guarantee thresholds).
NOISE, GUARANTEE = 25, 30
PAIR_THRESHOLD = 0.6  # share of each student's fingerprinted answer found in the other's
MIN_SHARED = 60  # characters of own filtered code in common (a one-line answer is 15 to 40): less is a coincidence
COMMON_SHARE = 0.1  # a passage in more than this share of the class (and more than two) is common code


def answer_code(notebook: nbformat.NotebookNode) -> str:
    """The code of a notebook's answer cells (nbgrader's solution cells), as one file."""
    return "\n\n".join(cell.source for cell in notebook.cells
                        if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution"))


def given_code(notebook: nbformat.NotebookNode) -> str:
    """Every code cell of the notebook handed out (the stubs included): nobody copied it from a classmate."""
    return "\n\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")


def _fingerprint(code: str, boilerplate=None) -> CodeFingerprint:
    return CodeFingerprint("answers.py", NOISE, GUARANTEE - NOISE + 1, boilerplate, fp=io.StringIO(code))


def common(prints: dict[str, CodeFingerprint]) -> set[int]:
    """Fingerprints more students share than a copy ring would: the class's common code."""
    most = max(2, math.floor(COMMON_SHARE * len(prints)))
    counts: dict[int, int] = {}
    for found in prints.values():
        for fingerprint in found.hashes:
            counts[fingerprint] = counts.get(fingerprint, 0) + 1
    return {fingerprint for fingerprint, count in counts.items() if count > most}


def own_lines(code: str, given: str) -> str:
    """The lines of ``code`` that are not lines of the given code (signatures, docstrings, stubs, blank lines)."""
    handed_out = {line.strip() for line in given.splitlines()}
    return "\n".join(line for line in code.splitlines() if line.strip() not in handed_out)


def pairs(answers: dict[str, str], given: str) -> list[tuple[str, str, float, float]]:
    """(student, student, share of the first's answer in the second's, and the other way) for near-copies."""
    answers = {student: own_lines(code, given) for student, code in answers.items()}
    given_prints = list(_fingerprint(given).hashes)  # what stays of it inside longer lines
    first = {student: _fingerprint(code, given_prints) for student, code in answers.items()}
    ignored = given_prints + sorted(common(first))
    prints = {student: _fingerprint(answers[student], ignored) for student in first}
    owners: dict[int, list[str]] = {}
    for student, found in prints.items():
        for fingerprint in found.hashes:
            owners.setdefault(fingerprint, []).append(student)
    candidates = {(a, b) for students in owners.values() for a in students for b in students if a < b}
    found = []
    for a, b in sorted(candidates):
        shared, (share_a, share_b), _ = compare_files(prints[a], prints[b])
        if shared >= MIN_SHARED and min(share_a, share_b) >= PAIR_THRESHOLD:
            found.append((a, b, round(float(share_a), 2), round(float(share_b), 2)))
    return found


REPORT = "similar-pairs.csv"


def class_report(folders: list[Path], chapter: str, given: nbformat.NotebookNode, out: Path) -> dict[str, list[str]]:
    """Pair the hand-ins ``<folder>/<student>/<chapter>/<chapter>.ipynb`` of a whole class; write ``out/REPORT``.

    Returns, per student paired, a flag for the instructor (never a penalty).
    """
    answers = {}
    for folder in folders:
        for path in sorted(folder.glob(f"*/{chapter}/{chapter}.ipynb")):
            try:
                answers[path.parents[1].name] = answer_code(nbformat.read(path, as_version=4))
            except (OSError, ValueError):  # unreadable hand-ins are the intake's to report
                continue
    found = pairs(answers, given_code(given))
    out.mkdir(parents=True, exist_ok=True)
    with (out / REPORT).open("w", newline="") as handle:
        table = csv.writer(handle)
        table.writerow(["student", "other_student", "share_of_student_in_other", "share_of_other_in_student"])
        table.writerows(found)
    notes: dict[str, list[str]] = {}
    for a, b, share_a, share_b in found:
        for student, other, share in ((a, b, share_a), (b, a, share_b)):
            notes.setdefault(student, []).append(
                f"answers nearly the same as {other}'s ({share:.0%} of them found there; {REPORT}); not penalised")
    return notes
