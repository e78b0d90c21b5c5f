"""The gradebook's companions: due dates and late penalties, flags for the instructor."""
