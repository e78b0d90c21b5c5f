"""Near-copies of the reference implementation and of each other's answers, flagged (never penalised).

Each function an answer defines is compared with the reference package's function of the
same name, as token streams with names, strings and comments normalised away, so renaming
variables or rewording comments does not hide a copy.

Students' answers are compared with each other by copydetect (Bryson Lingenfelter's implementation of
the winnowing of Schleimer, Wilkerson and Aiken, *Winnowing: local algorithms for document
fingerprinting*, the method of MOSS): each student's answer cells, as one Python file, are
tokenised with names and strings replaced, cut into k-grams, hashed and winnowed into
fingerprints. Fingerprints of the code the students were given (the release notebook: stubs,
imports, the test cells' calls) and of the instructor's solution are left out, and so are those
across two cells (:func:`_seams`) and those shared by more students than a copy ring would be
(:func:`common`, as MOSS's ``-m``): short functions that everybody writes the same way. :func:`pairs`
lists two students whose remaining fingerprints mostly coincide, and :func:`clusters` the rings of three or
more they form. copydetect's k-grams are
hashed with BLAKE2b (:func:`_stable_hashes`), so the same files give the same shares in every run.
"""
import ast
import csv
import difflib
import hashlib
import html
import importlib
import inspect
import io
import keyword
import math
import textwrap
import tokenize
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import nbformat
import numpy as np
from copydetect import CodeFingerprint, compare_files
from copydetect import utils as copydetect_utils

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
# A passage is the class's common code when more students have it than a copy ring would: more than a tenth of
# the class, and more than five students in a class of ten or more (half the class below ten, never two or fewer).
COMMON_SHARE, LARGEST_RING = 0.1, 5


@contextmanager
def _stable_hashes():
    """copydetect hashes its k-grams with Python's hash(), which each process salts anew (PYTHONHASHSEED), so the
    fingerprints winnowed, and the shares, changed from run to run; BLAKE2b gives the same hashes everywhere."""
    def hashed_kgrams(string: str, k: int) -> np.ndarray:
        return np.array([int.from_bytes(hashlib.blake2b(string[i:i + k].encode(), digest_size=8).digest(), "little",
                                        signed=True) for i in range(len(string) - k + 1)], dtype=np.int64)

    original, copydetect_utils.hashed_kgrams = copydetect_utils.hashed_kgrams, hashed_kgrams
    try:
        yield
    finally:
        copydetect_utils.hashed_kgrams = original


def answer_cells(notebook: nbformat.NotebookNode) -> list[str]:
    """The code of a notebook's answer cells (nbgrader's solution cells)."""
    return [cell.source for cell in notebook.cells
            if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution")]


def given_code(notebook: nbformat.NotebookNode) -> str:
    """Every code cell of the notebook handed out (the stubs included): nobody copied it from a classmate."""
    return "\n\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")


def _fingerprint(code: str, boilerplate=None) -> CodeFingerprint:
    return CodeFingerprint("answers.py", NOISE, GUARANTEE - NOISE + 1, boilerplate, fp=io.StringIO(code))


def _kgrams(code: str) -> list[int]:
    return copydetect_utils.hashed_kgrams(_fingerprint(code).filtered_code, NOISE).tolist()


def _seams(cells: list[str], code: str) -> set[int]:
    """The k-grams of ``code`` (the cells joined) that lie in no single cell."""
    return set(_kgrams(code)).difference(*(_kgrams(cell) for cell in cells))


def common(prints: dict[str, CodeFingerprint]) -> set[int]:
    """Fingerprints more students share than a copy ring would: the class's common code."""
    most = max(2, math.floor(COMMON_SHARE * len(prints)), min(LARGEST_RING, len(prints) // 2))
    counts: dict[int, int] = {}
    for found in prints.values():
        for fingerprint in found.hashes:
            counts[fingerprint] = counts.get(fingerprint, 0) + 1
    return {fingerprint for fingerprint, count in counts.items() if count > most}


def own_lines(code: str, given: str) -> str:
    """The lines of ``code`` that are not lines of the given code (signatures, docstrings, stubs, blank lines)."""
    handed_out = {line.strip() for line in given.splitlines()}
    return "\n".join(line for line in code.splitlines() if line.strip() not in handed_out)


@dataclass
class Pair:
    """Two students whose answers are near-copies: each one's share of fingerprinted answer found in the other's,
    and the matched passages, as (start, end) offsets in each one's own code (``code``)."""
    students: tuple[str, str]
    shares: tuple[float, float]
    code: tuple[str, str]
    matched: tuple[list[tuple[int, int]], list[tuple[int, int]]]


def pairs(answers: dict[str, list[str]], given: str, solution: list[str]) -> list[Pair]:
    """The near-copies among the students' answer cells, in the order of their names. Neither the code handed out
    (``given``) nor passages of the instructor's ``solution`` (its answer cells) count: the solution is the way many
    students write an answer, and an answer copied from it is the reference check's (:func:`near_copies`)."""
    with _stable_hashes():
        return _pairs(answers, given, solution)


def _pairs(answers: dict[str, list[str]], given: str, solution: list[str]) -> list[Pair]:
    cells = {student: [own_lines(cell, given) for cell in found] for student, found in answers.items()}
    answers = {student: "\n\n".join(found) for student, found in cells.items()}
    # what stays of the given code inside longer lines, and the solution's passages, with and without the given
    # lines: all their k-grams, not only those winnowed, as a student's window picks others
    given_prints = {*_kgrams(given), *(gram for cell in solution for gram in _kgrams(cell)),
                    *(gram for cell in solution for gram in _kgrams(own_lines(cell, given)))}
    # k-grams across two cells are where one answer ends and the next begins: rarer than either answer, evidence
    # of nothing (unique, as copydetect wants its boilerplate)
    left_out = {student: sorted(given_prints | _seams(cells[student], answers[student])) for student in answers}
    first = {student: _fingerprint(code, left_out[student]) for student, code in answers.items()}
    shared_by_many = common(first)
    prints = {student: _fingerprint(answers[student], sorted(set(left_out[student]) | shared_by_many))
              for student in first}
    owners: dict[int, list[str]] = {}
    for student, found in prints.items():
        for fingerprint in found.hashes:
            owners.setdefault(fingerprint, []).append(student)
    candidates = {(a, b) for students in owners.values() for a in students for b in students if a < b}
    found = []
    for a, b in sorted(candidates):
        shared, shares, slices = compare_files(prints[a], prints[b])
        if shared >= MIN_SHARED and min(shares) >= PAIR_THRESHOLD:
            matched = tuple([(int(start), int(end)) for start, end in zip(*ends)] for ends in slices)
            found.append(Pair((a, b), (round(float(shares[0]), 2), round(float(shares[1]), 2)),
                              (answers[a], answers[b]), matched))
    return found


def clusters(found: list[Pair]) -> list[list[str]]:
    """The students the pairs link, each group of three or more (a copy ring) once, sorted."""
    linked: dict[str, set[str]] = {}
    for pair in found:
        a, b = pair.students
        linked.setdefault(a, set()).add(b)
        linked.setdefault(b, set()).add(a)
    groups, seen = [], set()
    for start in sorted(linked):
        if start in seen:
            continue
        group, frontier = set(), [start]
        while frontier:
            student = frontier.pop()
            if student not in group:
                group.add(student)
                frontier.extend(linked[student] - group)
        seen |= group
        if len(group) >= 3:
            groups.append(sorted(group))
    return groups


REPORT, PAGE = "similar-pairs.csv", "similar-pairs.html"


def class_report(folders: list[Path], chapter: str, given: nbformat.NotebookNode, solution: nbformat.NotebookNode,
                 out: Path) -> dict[str, list[str]]:
    """Pair the hand-ins ``<folder>/<student>/<chapter>/<chapter>.ipynb`` of a whole class (``given``: the release
    notebook, ``solution``: the instructor's); write ``out/REPORT``
    (the shares) and ``out/PAGE`` (each pair's matched code side by side).

    Returns, per student paired, a flag for the instructor (never a penalty). It names the other student, or the
    group of a copy ring, and no share: a flag the instructor cleared stays cleared while the same students match.
    """
    answers = {}
    for folder in folders:
        for path in sorted(folder.glob(f"*/{chapter}/{chapter}.ipynb")):
            try:
                answers[path.parents[1].name] = answer_cells(nbformat.read(path, as_version=4))
            except (OSError, ValueError):  # unreadable hand-ins are the intake's to report
                continue
    found = pairs(answers, given_code(given), answer_cells(solution))
    rings = clusters(found)
    ring_of = {student: ring for ring in rings for student in ring}
    out.mkdir(parents=True, exist_ok=True)
    with (out / REPORT).open("w", newline="") as handle:
        table = csv.writer(handle)
        table.writerow(["student", "other_student", "share_of_student_in_other", "share_of_other_in_student",
                        "cluster"])
        table.writerows([*pair.students, *pair.shares, " ".join(ring_of.get(pair.students[0], []))]
                        for pair in found)
    (out / PAGE).write_text(similar_pairs_page(chapter, found, rings))
    notes: dict[str, list[str]] = {}
    for pair in found:
        for student, other in (pair.students, pair.students[::-1]):
            if student not in ring_of:
                notes.setdefault(student, []).append(
                    f"answers nearly the same as {other}'s ({REPORT}, {PAGE}); not penalised")
    for ring in rings:
        for student in ring:
            said = f"answers nearly the same as those of a group of {len(ring)}: {', '.join(ring)} ({REPORT}, {PAGE})"
            notes[student] = [said + "; not penalised"]
    return notes


def similar_pairs_page(chapter: str, found: list[Pair], rings: list[list[str]]) -> str:
    """An HTML page with each pair's own answer code side by side, the matched passages marked."""
    style = ("table{border-collapse:collapse;width:100%}td{vertical-align:top;width:50%;border:1px solid #ccc;"
             "padding:4px}pre{white-space:pre-wrap;margin:0}mark{background:#ffd27f}")
    parts = [(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{chapter}: similar answers</title>"
              f"<style>{style}</style></head><body>"), f"<h1>{chapter}: near-copies between students</h1>",
             ("<p>Each student's own answer code (without the lines of the notebook handed out); the passages found "
              "in the other's are marked. A flag, never a penalty: the instructor decides.</p>")]
    if rings:
        parts.append("<h2>Groups</h2><ul>" + "".join(f"<li>{html.escape(', '.join(ring))}</li>" for ring in rings)
                     + "</ul>")
    for pair in found:
        (a, b), (share_a, share_b) = pair.students, pair.shares
        parts.append(f"<h2 id='{html.escape(a)}--{html.escape(b)}'>{html.escape(a)} and {html.escape(b)}</h2>"
                     f"<table><tr><th>{html.escape(a)}: {share_a:.0%} found in {html.escape(b)}'s</th>"
                     f"<th>{html.escape(b)}: {share_b:.0%} found in {html.escape(a)}'s</th></tr><tr>"
                     + "".join(f"<td><pre>{_marked(code, spans)}</pre></td>"
                               for code, spans in zip(pair.code, pair.matched))
                     + "</tr></table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _marked(code: str, spans: list[tuple[int, int]]) -> str:
    text, at = [], 0
    for start, end in sorted(spans):
        start = max(start, at)
        text += [html.escape(code[at:start]), "<mark>", html.escape(code[start:end]), "</mark>"]
        at = max(at, end)
    return "".join(text) + html.escape(code[at:])
