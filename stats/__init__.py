"""Competitor pages: statistics of a bot or a person from the database, their charts and exports."""
