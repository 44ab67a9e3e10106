"""A competitor's games as JSON pages or one CSV."""
