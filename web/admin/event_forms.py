"""The organiser's forms in the admin: an event's settings are checked before anything is saved.

A setting the engine cannot play (a table of 6 at a game for 3-5), a table
range upside down or a time control of 0 would only surface when the first
round is paired, after entrants were gathered; here the form names the field
and what to change, and nothing is saved. The league-engine rule lives in
``Tournament.clean`` (the model), which a ModelForm runs too.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

import engines
from games.models import Competitor
from tournaments.formats import FormatError, tiebreaks
from tournaments.models import League, Tournament


def table_size_errors(
    engine_slug: str | None,
    options: Any,
    table_size: int | None,
    min_table_size: int | None,
    *,
    size_field: str,
    min_field: str,
) -> dict[str, str]:
    """Field -> message for a table range the engine cannot play (empty when it can).

    Both ends of the range go through the engine's own ``check_setup``, so a
    bad options object is named too, with the engine's message.
    """
    errors: dict[str, str] = {}
    if table_size is None or min_table_size is None:
        return errors
    if min_table_size > table_size:
        errors[min_field] = (
            f"the smallest table ({min_table_size}) cannot be larger than the table size "
            f"({table_size})"
        )
        return errors
    if not engine_slug:
        return errors
    try:
        rules = engines.get(engine_slug)
    except KeyError:
        return errors  # the engine field's own choice validation names it
    for field, size in ((min_field, min_table_size), (size_field, table_size)):
        if not rules.min_players <= size <= rules.max_players:
            errors[field] = (
                f"{rules.name} is played by {rules.min_players} to {rules.max_players} players, "
                f"not {size}"
            )
    if not errors:
        try:
            rules.check_setup(table_size, options if isinstance(options, dict) else None)
        except engines.InvalidGame as exc:
            errors["options"] = str(exc)
    if options is not None and not isinstance(options, dict):
        errors["options"] = "the engine options are a JSON object, e.g. {}"
    return errors


class TieBreaksField(forms.CharField):
    """The event's tie-breaks as names separated by commas, in order; a list in the model."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(value)
        return value

    def to_python(self, value: Any) -> list[str]:
        text = super().to_python(value) or ""
        names = [name.strip() for name in text.replace("\n", ",").split(",") if name.strip()]
        try:
            tiebreaks.check(names)
        except FormatError as exc:
            raise ValidationError(str(exc)) from None
        return names


class TournamentForm(forms.ModelForm):
    """A tournament's settings; the pairing and time-control ones are refused when unplayable."""

    tie_breaks = TieBreaksField(
        required=False,
        help_text="After points, in order, separated by commas; from: "
        f"{', '.join(tiebreaks.TIE_BREAKS)}. Empty: {', '.join(tiebreaks.DEFAULT)} "
        "(docs/formats.md, “Tie-breaks”).",
    )

    class Meta:
        model = Tournament
        exclude = ("seed",)  # the event seed never reaches a form

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        move_time = data.get("move_time_ms")
        if move_time is not None and move_time <= 0:
            self.add_error("move_time_ms", "a move needs time: give at least 1 ms")
        engine = data.get("engine", getattr(self.instance, "engine", None))
        size = data.get("table_size", self.instance.table_size)
        smallest = data.get("min_table_size", self.instance.min_table_size)
        options = data.get("options", self.instance.options)
        for field, message in table_size_errors(
            engine, options, size, smallest, size_field="table_size", min_field="min_table_size"
        ).items():
            self._error(field, message)
        rounds = data.get("rounds")
        if rounds is not None and rounds < 1:
            self.add_error("rounds", "an event has at least one round (or leave it empty)")
        bye = data.get("bye_points")
        if bye is not None and bye < 0:
            self.add_error("bye_points", "a bye earns 0 points or more (or leave it empty)")
        fmt = data.get("format", self.instance.format)
        advance = data.get("advance_per_table", self.instance.advance_per_table)
        knockout = fmt == Tournament.Format.KNOCKOUT and None not in (advance, smallest)
        if knockout and not 1 <= advance < smallest:
            self._error(
                "advance_per_table",
                f"a knockout table sends 1 to {smallest - 1} players through "
                f"(fewer than its smallest table, {smallest}), not {advance}",
            )
        return data

    def _error(self, field: str, message: str) -> None:
        """Attach to ``field`` when the form shows it, else to the form (a read-only setting)."""
        self.add_error(field if field in self.fields else None, message)


class LeagueForm(forms.ModelForm):
    """A league's settings; the arena's table range and time control are checked like an event's."""

    class Meta:
        model = League
        fields = "__all__"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        move_time = data.get("arena_move_time_ms")
        if move_time is not None and move_time <= 0:
            self.add_error("arena_move_time_ms", "a move needs time: give at least 1 ms")
        engine = data.get("engine", getattr(self.instance, "engine", None))
        for field, message in table_size_errors(
            engine,
            {},
            data.get("arena_table_size"),
            data.get("arena_min_table_size"),
            size_field="arena_table_size",
            min_field="arena_min_table_size",
        ).items():
            self.add_error(field if field in self.fields else None, message)
        return data


class AddEntrantsForm(forms.Form):
    """The competitors an organiser enters at once; the service refuses the ineligible."""

    competitors = forms.ModelMultipleChoiceField(
        queryset=Competitor.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text="Bots the league's pool takes. A bot must be active and play the event's "
        "engine. People are not listed: they enter themselves, on the event's page.",
    )
    approved = forms.BooleanField(
        required=False,
        initial=True,
        label="Approved",
        help_text="Untick to enter them as waiting for approval.",
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entered = tournament.entrants.values_list("competitor", flat=True)
        field = self.fields["competitors"]
        # Only what events.enter could take from the organiser: never a person (only they
        # enter themselves), and no bot at all in a people-only league.
        offered = Competitor.objects.filter(kind=Competitor.Kind.BOT).exclude(pk__in=entered)
        league = tournament.league
        if league is not None and league.pool == League.Pool.PEOPLE:
            offered = offered.none()
        field.queryset = offered.select_related("user", "bot").order_by("name", "pk")
        field.label_from_instance = competitor_label


def competitor_label(competitor: Competitor) -> str:
    """``name (bot: manila, batavia)``, ``name (house anchor search-32: ...)`` or
    ``name (person)``: what the organiser chooses by."""
    bot = getattr(competitor, "bot", None)
    if bot is not None and bot.anchor:
        return f"{competitor.name} (house anchor {bot.anchor}: {', '.join(bot.engines)})"
    if bot is not None:
        return f"{competitor.name} (bot: {', '.join(bot.engines)})"
    return f"{competitor.name} ({competitor.kind})"


class ReasonForm(forms.Form):
    """The reason an organiser gives for withdrawing, disqualifying or cancelling."""

    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=2000,
        help_text="Shown to the entrant's owner and on the event's page.",
    )

    def __init__(self, *args: Any, required: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].required = required
        if not required:
            self.fields["reason"].help_text = "Optional; shown on the event's page."

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason and self.fields["reason"].required:
            raise ValidationError("give a reason")
        return reason


def arena_refusal(league: League, competitor: Competitor) -> str | None:
    """Why ``competitor`` may not join ``league``'s arena, or None when it may.

    The league's pool keeps people-only, bots-only and mixed play apart, and
    a bot only plays the engines it declared.
    """
    if league.pool == League.Pool.BOTS and competitor.kind != Competitor.Kind.BOT:
        return f"{league} is for bots only; {competitor.name} is a person"
    if league.pool == League.Pool.PEOPLE and competitor.kind != Competitor.Kind.PERSON:
        return f"{league} is for people only; {competitor.name} is a bot"
    bot = getattr(competitor, "bot", None)
    if competitor.kind == Competitor.Kind.BOT:
        if bot is None:
            return f"{competitor.name} is not a registered bot"
        if league.engine not in bot.engines:
            return (
                f"{competitor.name} does not play {league.engine} "
                f"(it plays {', '.join(bot.engines)})"
            )
    return None
