"""Admin pages for ``botapi``; each model registers here as it is added."""
