"""The sign-up form (allauth's, plus the consent question) and the consent form of the profile."""

from __future__ import annotations

from allauth.account.forms import SignupForm
from django import forms

CONSENT_LABEL = "I accept bot opponents in rated games"
CONSENT_HELP = (
    "Unticked, your rated games are against people only. Friendly (unrated) games with "
    "bots need no consent."
)
SIGNUP_CONSENT_HELP = CONSENT_HELP + " You can change it later on your profile."


class PersonSignupForm(SignupForm):
    """allauth's sign-up form with the consent question, unticked until the person ticks it."""

    accepts_bot_opponents = forms.BooleanField(
        required=False, label=CONSENT_LABEL, help_text=SIGNUP_CONSENT_HELP
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Asked last, after the account's own fields.
        self.fields["accepts_bot_opponents"] = self.fields.pop("accepts_bot_opponents")


class ConsentForm(forms.Form):
    accepts_bot_opponents = forms.BooleanField(
        required=False, label=CONSENT_LABEL, help_text=CONSENT_HELP
    )
