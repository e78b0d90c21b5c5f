"""A grading worker of the course server: grading.instructor.workers.queue with its broker from the environment.

The broker's URL carries Redis's password; a command line is public on this machine (``ps``), a process's
environment only its owner's, so the course server passes it as GRADING_BROKER.
"""
import os
import sys

from grading.instructor.workers import queue

if __name__ == "__main__":
    queue.main(["--broker", os.environ["GRADING_BROKER"], *sys.argv[1:]])
