"""Generate the student notebooks (notebooks/<chapter>/) from the solutions with nbgrader.

Usage: python -m grading.release [CHAPTER ...]
"""
import sys

from grading.course import chapters, nbgrader


def release(chapter: str, *extra: str) -> None:
    """``nbgrader generate_assignment``: strip solutions and hidden tests, lock test cells, record checksums."""
    nbgrader("generate_assignment", chapter, "--force", *extra)


def main(argv: list[str]) -> None:
    for chapter in argv or chapters():
        release(chapter)
        print(f"released notebooks/{chapter}/")


if __name__ == "__main__":
    main(sys.argv[1:])
