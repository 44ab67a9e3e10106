"""The lobby's pages, JSON and buttons; the rules are in ``lobby.services``."""
