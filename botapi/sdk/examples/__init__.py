"""Example bots built with :mod:`botapi.sdk`; each runs with ``python -m``."""
