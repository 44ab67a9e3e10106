"""Admin pages for ``ratings``; each model registers here as it is added."""
