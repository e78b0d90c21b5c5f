"""Grading tools of the course: helpers for the notebooks' test cells and the nbgrader harness."""
