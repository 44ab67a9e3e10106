"""The "create a table" form: it only reads the fields; :mod:`lobby.services` decides.

Seats beyond the host's are ``seat_1`` … ``seat_4``: empty means open for a
person, otherwise a bot's number. Only the first ``players - 1`` count; the
service refuses whatever the rules refuse, and the view puts its sentence on
the field it concerns.
"""

from __future__ import annotations

from typing import Any

from django import forms

import engines
from lobby import time_controls

MAX_OTHER_SEATS = max(e.max_players for e in engines.all_engines()) - 1
SEAT_FIELDS = [f"seat_{n}" for n in range(1, MAX_OTHER_SEATS + 1)]

FIELD_OF_CODE = {
    "bad_engine": "engine",
    "bad_players": "num_players",
    "bad_time_control": "time_control",
    "consent_needed": "rated",
    "rated_refused": "rated",
}
"""Which field a service refusal belongs to; other refusals go above the form."""


class CreateTableForm(forms.Form):
    engine = forms.ChoiceField(choices=lambda: [(e.slug, e.name) for e in engines.all_engines()])
    num_players = forms.TypedChoiceField(
        label="Players",
        coerce=int,
        choices=[(n, str(n)) for n in range(2, MAX_OTHER_SEATS + 2)],
        initial=3,
    )
    time_control = forms.ChoiceField(choices=time_controls.choices, initial=time_controls.DEFAULT)
    rated = forms.BooleanField(required=False, label="Rated")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in SEAT_FIELDS:
            self.fields[name] = forms.CharField(required=False, max_length=20)

    def seats(self) -> list[int | None]:
        """The other seats in order (None: open for a person), as many as the players say."""
        data = self.cleaned_data
        wanted = data["num_players"] - 1
        seats: list[int | None] = []
        for name in SEAT_FIELDS[:wanted]:
            value = (data.get(name) or "").strip()
            if not value or value == "open":
                seats.append(None)
            elif value.isdigit():
                seats.append(int(value))
            else:
                raise forms.ValidationError(f"{value!r} is not a bot's number")
        return seats

    def seat_values(self) -> list[str]:
        """What each seat's select had, to choose it again when the form comes back."""
        source = self.data if self.is_bound else {}
        return [str(source.get(name, "") or "") for name in SEAT_FIELDS]
