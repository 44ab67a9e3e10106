"""factory-boy factories shared by the whole suite; each app's models add theirs here."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

DEFAULT_PASSWORD = "a-long-test-password"


class UserFactory(factory.django.DjangoModelFactory):
    """A person with a usable password (``DEFAULT_PASSWORD`` unless given)."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password(DEFAULT_PASSWORD)

    class Params:
        admin = factory.Trait(is_staff=True, is_superuser=True)
