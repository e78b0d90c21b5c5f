"""Repairing a notebook's graded cells against its release: the grading command's and the self-check's.

The release knows every graded cell (its nbgrader metadata, and the text of the read-only and test
cells), so damage an editor or a student did to them costs no points: nbgrader metadata that is not
a dictionary (``"nbgrader": "solution"``, ``null``) or names a grade id the release does not have (an
edited ``grade_id``) is dropped, and every graded cell whose metadata is missing gets the release's
back (read-only and test cells by their text, answer cells by the functions they define, written
answers by their place); deleted read-only and test cells are put back, and graded cells go back
into the released order. Each repair leaves a note, which the grading command flags and the
self-check (grading.student.selfcheck) shows, so that the two say the same.
"""
import ast
import copy
import functools
import json
import re

import nbformat


def grade_ids(notebook: nbformat.NotebookNode) -> list[str]:
    """The grade ids of the cells whose nbgrader metadata is a dictionary, damaged or not, in order."""
    return [meta["grade_id"] for c in notebook.cells
            if isinstance(meta := c.metadata.get("nbgrader"), dict) and isinstance(meta.get("grade_id"), str)]


def match_to_release(notebook, release, own: set[str]) -> list[str]:
    """Drop damaged nbgrader metadata, then give every cell whose metadata is missing the release's; the notes.

    ``own`` are the grade ids that show the notebook is the release's chapter (_match_cleared_cells).
    """
    damaged = _drop_damaged_metadata(notebook, set(grade_ids(release)))
    matched = _match_cleared_cells(notebook, release, own)
    repaired = [gid for _, cell, _ in damaged if (gid := cell.metadata.get("nbgrader", {}).get("grade_id"))]
    notes = []
    if damaged:
        listed = "; ".join(f"cell {index + 1}: {why}" for index, _, why in damaged)
        notes.append(f"nbgrader's metadata of {len(damaged)} cells was damaged ({listed}); dropped it"
                     + (f" and matched {', '.join(repaired)} to the release by content" if repaired else ""))
    cleared = [gid for gid in matched if gid not in repaired]
    if cleared:
        shown = ", ".join(cleared[:6]) + (" ..." if len(cleared) > 6 else "")
        notes.append(f"nbgrader's metadata was missing from {len(cleared)} cells (removed by an editor?); "
                     f"matched them to the release by their content: {shown}")
    return notes


def _drop_damaged_metadata(notebook, released_ids: set[str]) -> list[tuple[int, nbformat.NotebookNode, str]]:
    """Remove nbgrader metadata that is not a dictionary or names no released grade id: (index, cell, what was wrong).

    nbgrader (its Validate button included) crashes on the first kind and fails the whole notebook
    on the second, although the release can tell which cell it was.
    """
    damaged = []
    for index, cell in enumerate(notebook.cells):
        meta = cell.metadata.get("nbgrader", {})
        if not isinstance(meta, dict):
            damaged.append((index, cell, f"{json.dumps(meta, default=str)[:60]} instead of a dictionary"))
        elif "grade_id" in meta and not (isinstance(meta["grade_id"], str) and meta["grade_id"] in released_ids):
            damaged.append((index, cell, f"grade id {str(meta['grade_id'])[:60]!r}, which the release does not have"))
        else:
            continue
        del cell.metadata["nbgrader"]
    return damaged


@functools.lru_cache(maxsize=4096)  # matching compares every free cell with every missing answer
def _functions(source: str) -> frozenset[str]:
    """Names of the functions a cell defines at its top level."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython magics, or an unfinished answer
        return frozenset(re.findall(r"^def\s+(\w+)", source, re.MULTILINE))
    return frozenset(s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)))


def _matched_by_content(released) -> bool:
    """Whether a released graded cell is recognised by content: read-only and test cells, answers defining functions."""
    meta = released.metadata["nbgrader"]
    return not meta.get("solution") or bool(released.cell_type == "code" and _functions(released.source))


def _same_content(released, cell) -> bool:
    """A read-only or test cell with the release's text, or a code cell defining the released answer's functions."""
    if cell.cell_type != released.cell_type or not _matched_by_content(released):
        return False
    if not released.metadata["nbgrader"].get("solution"):
        return cell.source.strip() == released.source.strip()
    return _functions(released.source) <= _functions(cell.source)


def _match_cleared_cells(notebook, release, own: set[str]) -> list[str]:
    """Give cells whose nbgrader metadata was removed the release's; the grade ids matched, in released order.

    Only graded cells missing from the notebook are matched, and only with cells that have no
    grade id and are not the release's own text. Read-only, test and answer cells match by
    content (_same_content). Once a cell of the chapter's ``own`` ids is there or matched, each
    remaining answer that defines no function (a written answer) takes the first free cell of
    its kind after the graded cell before it: a notebook with no content of the chapter is left alone.
    """
    present = {gid: i for i, c in enumerate(notebook.cells) if (gid := c.metadata.get("nbgrader", {}).get("grade_id"))}
    graded = [c for c in release.cells if "grade_id" in c.metadata.get("nbgrader", {})]
    narrative = {c.source.strip() for c in release.cells if "grade_id" not in c.metadata.get("nbgrader", {})}
    free = [i for i, c in enumerate(notebook.cells)
            if "grade_id" not in c.metadata.get("nbgrader", {}) and c.source.strip() not in narrative]
    place: dict[str, int] = {}
    for released in graded:
        gid = released.metadata["nbgrader"]["grade_id"]
        if gid not in present:
            index = next((i for i in free if i not in place.values()
                          and _same_content(released, notebook.cells[i])), None)
            if index is not None:
                place[gid] = index
    if (set(place) | set(present)) & own:
        previous = -1
        for released in graded:
            gid = released.metadata["nbgrader"]["grade_id"]
            if gid not in present and gid not in place and not _matched_by_content(released):
                index = next((i for i in free if i > previous and i not in place.values()
                              and notebook.cells[i].cell_type == released.cell_type), None)
                if index is not None:
                    place[gid] = index
            previous = present.get(gid, place.get(gid, previous))
    for released in graded:
        gid = released.metadata["nbgrader"]["grade_id"]
        if gid in place:
            notebook.cells[place[gid]].metadata["nbgrader"] = copy.deepcopy(released.metadata["nbgrader"])
    return [c.metadata["nbgrader"]["grade_id"] for c in graded if c.metadata["nbgrader"]["grade_id"] in place]


def restore_locked_cells(notebook, release, notes: list[str]) -> nbformat.NotebookNode:
    """Put back deleted tests and read-only cells, and put graded cells back in the released order.

    nbgrader restores the text of edited test cells but scores a deleted one 0 and runs cells
    in the order it finds them; a student should lose points for wrong answers only.
    """
    own = {c.metadata["nbgrader"]["grade_id"]: c for c in notebook.cells if "grade_id" in c.metadata.get("nbgrader", {})}
    released = {c.metadata["nbgrader"]["grade_id"]: c for c in release.cells if "grade_id" in c.metadata.get("nbgrader", {})}
    changed = [gid for gid in own if gid in released and is_locked(release, gid) and own[gid].source != released[gid].source]
    if changed:
        notes.append(f"read-only or test cells differ from the current release (edited, or an older release): "
                     f"{', '.join(changed)}; the grader runs the current ones")
    order = grade_ids(release)
    restored = [gid for gid in order if gid not in own and is_locked(release, gid)]
    if [gid for gid in grade_ids(notebook) if gid in order] != [gid for gid in order if gid in own]:
        notes.append("graded cells were out of order; put back in the released order")
    elif not restored:
        return notebook
    if restored:
        notes.append(f"restored deleted read-only or test cells: {', '.join(restored)}")
    extra_after: dict[str | None, list] = {}  # the student's own cells stay after the graded cell they followed
    anchor = None
    for cell in notebook.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
        if gid in released:
            anchor = gid
        else:
            extra_after.setdefault(anchor, []).append(cell)
    cells = list(extra_after.get(None, []))
    for gid in order:
        if gid in own:
            cells.append(own[gid])
        elif gid in restored:
            cells.append(copy.deepcopy(released[gid]))
        cells.extend(extra_after.get(gid, []))
    notebook.cells = cells
    return notebook


def is_locked(release, grade_id: str) -> bool:
    """Whether the release's cell ``grade_id`` is a read-only or test cell (answers are not locked)."""
    cell = next(c for c in release.cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)
    meta = cell.metadata["nbgrader"]
    return bool(meta.get("locked")) and not meta.get("solution")
