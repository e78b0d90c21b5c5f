"""A test cell also marked as an answer, whose grade_id holds the words that once stopped the whole class's run.

answers: solution
edit: answer-and-test test_ffnn_activation setup failed: the instructor's notebook did not run
layer: checker (a failed setup is told by a secret drawn for each notebook, never by words a student can write)
status: failed
"""
