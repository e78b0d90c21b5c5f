"""The Python kernel nbgrader starts to grade a notebook: IPython under a memory cap.

    python -m grading.kernel -f CONNECTION_FILE

The cap (``GRADING_MEMORY_LIMIT_MB``, 0 for none) limits the kernel's address space, so an
answer that allocates without bound gets a MemoryError (its tests score 0) instead of
taking the machine, and the other students' notebooks are graded normally.
"""
import os
import resource

from ipykernel import kernelapp

KERNEL_NAME = "seqmodels-grading"


def kernelspec(python: str) -> dict:
    """The kernel.json that starts this launcher with ``python``."""
    return {"argv": [python, "-m", "grading.kernel", "-f", "{connection_file}"],
            "display_name": "Python 3 (grading, memory-capped)", "language": "python"}


def main() -> None:
    megabytes = int(os.environ.get("GRADING_MEMORY_LIMIT_MB", "0") or 0)
    if megabytes > 0:
        cap = megabytes * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
