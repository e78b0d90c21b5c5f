"""A careless editor: a written answer's nbgrader metadata became null; the release knows it by its place.

answers: solution
edit: nbgrader-metadata written_cost_of_onehot null
loses: nothing
flagged: yes
says: matched written_cost_of_onehot to the release
"""
