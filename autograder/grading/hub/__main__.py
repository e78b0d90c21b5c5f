"""The course server's command (``make hub``, ``make hub-stop``):

    python -m grading.hub up [--course autograder/hub/course.toml]     accounts, then every service
    python -m grading.hub down [--course ...]                          stop every service
    python -m grading.hub release CHAPTER [--course ...]               the chapter into the Assignments tab
    python -m grading.hub collect CHAPTER [--course ...]               each student's latest hand-in from the
        exchange, graded on the workers into the PostgreSQL gradebook (grading.instructor.grade)
    python -m grading.hub feedback CHAPTER [--course ...]              feedback pages brought up to date with the
        gradebook (written answers graded in formgrader) and released through the exchange
The last three run as the grader account (grading.hub.loop).

Must run as root (it makes accounts, and JupyterHub logs people in with PAM). A failure is one line.
"""
import argparse
import os
import sys
from pathlib import Path

from grading.hub import accounts, loop, services
from grading.hub.course import CourseError, load
from grading.instructor.course import REPO

DEFAULT_COURSE = REPO / "autograder" / "hub" / "course.toml"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["up", "down", "release", "collect", "feedback"])
    parser.add_argument("chapter", nargs="?", help="release, collect, feedback: the chapter, e.g. 01_tokens")
    parser.add_argument("--course", type=Path, default=DEFAULT_COURSE, help="the course configuration file")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("the course server needs root: it makes the course's accounts, and JupyterHub starts each person's "
              "server as that person (run `sudo make hub`)", file=sys.stderr)
        return 1
    try:
        course = load(args.course)
        if args.action == "up":
            made = accounts.make(course)
            if made:
                print(f"new accounts: {', '.join(sorted(made))} (passwords: "
                      f"{course.server.state / accounts.PASSWORDS}, readable by root only)")
            services.up(course)
        elif args.action == "down":
            services.down(course)
        else:
            if not args.chapter:
                parser.error(f"{args.action} needs a chapter, e.g. 01_tokens")
            steps = {"release": loop.release, "collect": loop.collect, "feedback": loop.release_feedback}
            return steps[args.action](course, args.chapter)
    except (CourseError, accounts.AccountError, services.ServiceError) as error:
        print(error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
