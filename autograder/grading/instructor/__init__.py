"""Runs only on the instructor's machine: trusts the course repository, never a student's code, which it runs only in the sandbox."""
