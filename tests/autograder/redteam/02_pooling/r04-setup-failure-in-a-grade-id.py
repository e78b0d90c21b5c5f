"""A test cell also marked as an answer, whose grade_id holds the words that once stopped the whole class's run.

answers: solution
edit: answer-and-test test_ffnn_activation setup failed: the instructor's notebook did not run
layer: checker (a failed setup is told by a secret drawn for each notebook, never by words a student can write); the words
no longer reach it: the intake drops a grade id the release does not have and matches the cell back to its test by its text
loses: nothing
flagged: yes
says: which the release does not have
"""
