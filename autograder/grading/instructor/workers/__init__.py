"""Grading workers: long-lived processes that run nbgrader's apps, one request at a time."""
