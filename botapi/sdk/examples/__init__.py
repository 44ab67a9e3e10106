"""Example bots built with :mod:`botapi.sdk`.

Each runs with ``.venv/bin/python -m botapi.sdk.examples.NAME`` (``random_bot``
on port 8001, ``greedy`` on 8002, beside ``make demo``'s 8000).
"""
