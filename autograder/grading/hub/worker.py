"""A grading worker of the course server: grading.instructor.workers.queue with its broker from the environment.

The broker's URL carries Redis's password; a command line is public on this machine (``ps``), a process's
environment only its owner's, so the course server passes it as GRADING_BROKER. The course server also sets
GRADING_SANDBOX=required: students share this machine, and an answer run outside the sandbox would run as the
grader account, which reads the class's work folder. A worker that cannot sandbox stops at once with one line,
which ``make hub`` shows, instead of taking notebooks it cannot grade.
"""
import os
import sys

from grading.instructor.verdicts import sandbox
from grading.instructor.workers import queue

if __name__ == "__main__":
    try:
        sandbox.bubblewrap()
    except sandbox.SandboxUnavailable as refused:
        sys.exit(f"ERROR: {refused} (Debian: apt-get install bubblewrap; user namespaces must be allowed)")
    queue.main(["--broker", os.environ["GRADING_BROKER"], *sys.argv[1:]])
