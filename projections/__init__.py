"""Pure functions over a match's events and state: summaries, seat views and logs."""
