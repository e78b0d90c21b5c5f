"""A test cell's grade_id edited: nbgrader failed the whole notebook ("the nbgrader metadata may be corrupted");
the release knows the cell by its text, so it is repaired, flagged, and keeps every point.

answers: solution
edit: grade-id test_encode_decode_unk test_encode_decode_unk_mine
loses: nothing
flagged: yes
says: grade id 'test_encode_decode_unk_mine', which the release does not have
"""
