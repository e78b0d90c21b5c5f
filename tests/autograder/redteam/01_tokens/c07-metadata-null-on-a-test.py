"""A careless editor: a test cell's nbgrader metadata became null; the release knows the cell by its text.

answers: solution
edit: nbgrader-metadata test_pad_batch_edges null
loses: nothing
flagged: yes
says: null instead of a dictionary
"""
