"""The sign-up form (allauth's, plus the consent question) and the consent form of the profile."""

from __future__ import annotations

from allauth.account.forms import SignupForm
from django import forms

CONSENT_LABEL = "I accept bot opponents in rated games"
CONSENT_HELP = (
    "Off: your rated games are against people only. Friendly (unrated) games with bots "
    "need no consent. You can change this on your profile at any time."
)


class PersonSignupForm(SignupForm):
    """allauth's sign-up form with the consent question, unticked until the person ticks it."""

    accepts_bot_opponents = forms.BooleanField(
        required=False, label=CONSENT_LABEL, help_text=CONSENT_HELP
    )


class ConsentForm(forms.Form):
    accepts_bot_opponents = forms.BooleanField(
        required=False, label=CONSENT_LABEL, help_text=CONSENT_HELP
    )
