"""Intake: a class's hand-ins found, repaired and screened before grading (nbgrader folders, LMS downloads)."""
