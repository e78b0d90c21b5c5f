"""The answers of earlier chapters that a notebook's demos use: which are still missing, said once at set-up.

Each student notebook lists them in a cell after its set-up cell (the release writes it) and calls
:func:`check_earlier_answers` there, so that a student learns at the start, in one message, what the
demos will ask for, instead of at each demo that stops on the next missing function.
"""
import importlib.util


def check_earlier_answers(uses: dict[str, list[str]]) -> None:
    """Print one message naming the functions of ``uses`` (chapter -> graded functions that the demos use)
    that the running notebook does not define and the installed seqmodels does not hold; nothing if none."""
    if importlib.util.find_spec("seqmodels.answers") is None:  # the course's own seqmodels: every answer is in it
        return
    from seqmodels.answers import missing_earlier_answers

    message = missing_earlier_answers(uses)
    if message:
        print(message)
