"""Admin pages for ``tournaments``; each model registers here as it is added."""
