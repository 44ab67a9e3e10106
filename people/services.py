"""What a person's account does: its competitor and its consent (the reads: ``people.selectors``).

Views and the sign-up adapter call these; they never write a profile or a
person competitor themselves.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games.models import Competitor

from .models import Profile


def ensure_person(user: Any) -> Profile:
    """The user's profile, with its person competitor; made on first call, exactly once.

    Sign-up calls it (``web.people.adapter``); accounts made another way (the
    admin, the demo, ``createsuperuser``) get theirs the first time they need
    it. Creating locks the user row and looks again, so two requests cannot
    both create one; the one-to-one links make the database refuse a second anyway.
    """
    profile = Profile.objects.filter(user=user).select_related("competitor").first()
    if profile is not None:
        return profile
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        profile = Profile.objects.filter(user=user).select_related("competitor").first()
        if profile is not None:
            return profile
        competitor = Competitor.objects.create(
            kind=Competitor.Kind.PERSON, name=user.get_username(), user=user
        )
        return Profile.objects.create(user=user, competitor=competitor)


def set_consent(user: Any, accepts_bot_opponents: bool) -> Profile:
    """Record whether the person accepts bot opponents in rated games."""
    profile = ensure_person(user)
    profile.accepts_bot_opponents = bool(accepts_bot_opponents)
    profile.save(update_fields=["accepts_bot_opponents", "updated_at"])
    return profile
