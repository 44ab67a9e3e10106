"""The password hashers of the tests and of the servers and workers they start.

Django's PBKDF2 (a million rounds) costs 0.4-0.7 s a hash on this project's
machines, paid by every factory password, login and failed guess; the tests
hash with MD5 first. The default hashers stay listed, so a hash made with them
still verifies. The servers and workers the tests start use them too
(``tests.tournaments.worker_settings``, ``tests.foundation.server_settings``):
they check the passwords of users the test process made.
"""

from __future__ import annotations

from django.conf import global_settings

FAST_PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]
