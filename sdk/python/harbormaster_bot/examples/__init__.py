"""Example bots built with :mod:`harbormaster_bot`.

Each runs with ``.venv/bin/python -m harbormaster_bot.examples.NAME`` (``random_bot``
on port 8001, ``greedy`` on 8002, beside ``make demo``'s 8000).
"""
