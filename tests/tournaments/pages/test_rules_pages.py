"""The rules pages: one per game, every number the engine's, and linked where people play.

The numbers are checked against the engines' own constants, imported here:
each sentence that states a figure is looked for with the figure taken from
the engine, and no number may appear on a page that is not one of its
engine's figures (a typo such as "31 pesos" fails).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from types import ModuleType

import pytest
from django.test import Client

import engines
from engines.batavia import rules as batavia
from engines.cargo_noir import data as cargo_noir
from engines.grog_island import data as grog_island
from engines.manila import data as manila
from games.models import Competitor
from games.services import create_game
from web.rules.views import GAMES

pytestmark = pytest.mark.django_db


BLOCKS = frozenset({"td", "th", "tr", "li", "p", "h1", "h2", "h3", "section", "table"})


class Text(HTMLParser):
    """The text of the page's ``<article id="rules">``; cells, items and paragraphs apart."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if self.depth:
            self.depth += 1
            if tag in BLOCKS:
                self.parts.append(" ")
        elif tag == "article" and ("id", "rules") in attrs:
            self.depth = 1

    def handle_endtag(self, tag):
        if self.depth:
            self.depth -= 1
            if tag in BLOCKS:
                self.parts.append(" ")

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)


def page_text(slug: str) -> str:
    response = Client().get(f"/rules/{slug}/")
    assert response.status_code == 200
    parser = Text()
    parser.feed(response.content.decode())
    return re.sub(r"\s+", " ", "".join(parser.parts))


def figures_of(*modules: ModuleType) -> set[int]:
    """Every integer a module's constants hold, however nested (the engine's figures)."""
    found: set[int] = set()

    def walk(value, depth=0):
        if depth > 4:
            return
        if isinstance(value, bool):
            return
        if isinstance(value, int):
            found.add(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(k, depth + 1)
                walk(v, depth + 1)
        elif isinstance(value, tuple | list | set | frozenset):
            for v in value:
                walk(v, depth + 1)

    for module in modules:
        for name, value in vars(module).items():
            if not name.startswith("_"):
                walk(value)
    return found


def numbers_on(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"(?<![\w.])\d+(?![\w.]*\d)", text)}


def players(slug: str) -> set[int]:
    engine = engines.get(slug)
    return set(range(engine.min_players, engine.max_players + 1))


EXTRA = {
    # Figures the engine computes rather than stores: player counts, and for Batavia the
    # pirates' thresholds (a function), the card total, the letters in the game.
    "manila": {manila.accomplices_per_player(3), manila.accomplices_per_player(4)},
    "batavia": {
        batavia.pirate_threshold(3),
        batavia.pirate_threshold(4),
        batavia.CARDS_PER_COMPANY * batavia.NUM_COMPANIES,
        batavia.FACE_UP_AT_START + 1,
        batavia.TRACK_LENGTH - 4,
    },
    "cargo_noir": {cargo_noir.rounds_for(3), cargo_noir.rounds_for(4)},
    "grog_island": {
        len(grog_island.BUILDINGS),
        len(grog_island.PARROT_DECK),
        len(grog_island.OBJECTIVE_DECK),
        len(grog_island.OBJECTIVE_KINDS),
        len(grog_island.BUILDINGS_ON[0]),
    },
}
MODULES = {
    "manila": (manila,),
    "batavia": (batavia,),
    "cargo_noir": (cargo_noir,),
    "grog_island": (grog_island,),
}


@pytest.mark.parametrize("slug", GAMES)
def test_every_number_on_a_rules_page_is_one_of_its_engines_figures(slug) -> None:
    allowed = figures_of(*MODULES[slug]) | players(slug) | EXTRA[slug]
    stray = numbers_on(page_text(slug)) - allowed
    assert not stray, f"{slug}: numbers not among the engine's figures: {sorted(stray)}"


@pytest.mark.parametrize("slug", GAMES)
def test_a_rules_page_has_a_first_game_section_and_names_the_player_counts(slug) -> None:
    text = page_text(slug)
    assert "Your first game" in text
    assert "Pieces and numbers" in text and "End and scoring" in text


def has(text: str, *phrases: str) -> None:
    for phrase in phrases:
        assert phrase in text, f"missing: {phrase!r}"


def test_manilas_numbers_are_the_engines() -> None:
    text = page_text("manila")
    for i, good in enumerate(manila.GOODS):
        seats = ", ".join(map(str, manila.SEAT_COSTS[i]))
        has(text, f"{good} {seats} {manila.BOAT_PAYOUT[i]}")
    has(
        text,
        f"each player starts with {manila.START_CASH}",
        " → ".join(map(str, manila.PRICE_TRACK)),
        f"never less than {manila.MIN_SHARE_COST}",
        f"There are {manila.SHARES_PER_GOOD} shares of each good",
        f"mortgaged for {manila.MORTGAGE_VALUE} pesos",
        f"redeemed for {manila.REDEEM_COST}",
        f"add up to exactly {manila.START_SUM}",
        f"from 0 to {manila.MAX_START}",
        f"spaces 0 to {manila.ROUTE_END}",
        f"has {manila.MOVEMENTS} movements",
        f"takes {manila.INSURANCE_BONUS} pesos from the bank",
        f"{manila.accomplices_per_player(3)} accomplices with 3 players",
        f"{manila.accomplices_per_player(4)} with 4 or 5 players",
        f"dealt {manila.DEALT_PER_PLAYER} shares",
        f"{manila.DEALT_PER_GOOD} shares of each good",
        f"the {manila.SHARES_PER_GOOD - manila.DEALT_PER_GOOD} left of each good",
        "pays its accomplice " + ", ".join(map(str, manila.DOCK_PAYOUT[:2]))
        + f" or {manila.DOCK_PAYOUT[2]}",
        f"any price reaches {manila.END_PRICE}",
        f"minus {manila.REDEEM_COST} for every mortgaged share",
        f"Pirate ship ({manila.PIRATE_SEATS} places: captain, then second pirate) "
        f"{manila.PIRATE_COST}",
    )  # fmt: skip
    docks = " / ".join(map(str, manila.SPACE_COST[0:3]))
    has(text, f"Harbor docks A / B / C {docks}", f"Insurance office {manila.SPACE_COST[8]}")


def test_batavias_numbers_are_the_engines() -> None:
    text = page_text("batavia")
    row = " ".join(str(g) for g in batavia.CONVERSION_GOLD[1:])
    has(text, f"gold {row}")
    for good, (alone, tied) in batavia.GOOD_MAJORITY.items():
        has(text, f"{good} {alone} {tied}")
    has(
        text,
        f"{batavia.NUM_COMPANIES} companies and {batavia.NUM_GOODS} goods",
        f"{batavia.TRACK_LENGTH} trading posts, {batavia.NUM_GOODS} per company",
        f"{batavia.CARDS_PER_COMPANY * batavia.NUM_COMPANIES} ship cards, "
        f"{batavia.CARDS_PER_COMPANY} of each company",
        f"{batavia.STARTING_LETTERS} letters of exchange",
        f"{batavia.CRATES} crates",
        f"blocks of {batavia.BLOCK} spaces",
        f"Spaces 1 to {batavia.FACE_UP_AT_START} are face up",
        f"dealt {batavia.HAND_SIZE} cards",
        f"draws {batavia.DRAW_COUNT} cards",
        f"(1 to {batavia.DIE_FACES})",
        f"at least {batavia.pirate_threshold(3)} with 3 players, or "
        f"{batavia.pirate_threshold(4)} with 4 or 5",
        f"the next {batavia.BLOCK} posts are turned up",
        f"worth {batavia.FINAL_HEX_GOLD} gold",
        f"{batavia.LETTERS_MOST} alone, {batavia.LETTERS_TIED} each when tied",
        f"the final hex: {batavia.FINAL_HEX_GOLD}",
        f"each seal held: {batavia.SEAL_GOLD}",
    )


def test_cargo_noirs_numbers_are_the_engines() -> None:
    text = page_text("cargo_noir")
    for port in cargo_noir.PORTS:
        has(text, f"{port.name} {port.slots} {port.min_players}")
    for card in cargo_noir.CARDS:
        limit = f" {card.per_player}" if card.per_player else ""
        has(text, f"{card.name} {card.copies} {card.cost} {card.vp}{limit}")
    has(
        text,
        "all different " + " ".join(map(str, cargo_noir.DIFFERENT_VALUES)),
        "all the same " + " ".join(map(str, cargo_noir.SAME_VALUES)),
        f"{len(cargo_noir.GOODS)} goods, {cargo_noir.TOKENS_PER_GOOD} tokens each",
        f"shows {cargo_noir.BLACK_MARKET_SIZE} goods",
        f"{cargo_noir.START_SHIPS} ships, {cargo_noir.START_COINS} coins, a warehouse of "
        f"{cargo_noir.WAREHOUSE_BASE_SLOTS} places ({cargo_noir.WAREHOUSE_SLOTS_PER_CARD} more",
        f"brings back {cargo_noir.CASINO_COINS} coins",
        f"Casino: take {cargo_noir.CASINO_COINS} coins",
        f"a Syndicate {cargo_noir.SYNDICATE_COINS} coins",
        f"{cargo_noir.rounds_for(3)} rounds with 2 or 3 players and "
        f"{cargo_noir.rounds_for(4)} rounds with 4 or 5",
        f"more than {cargo_noir.CARDS[cargo_noir.CARGO_SHIP].per_player} of each of them",
    )


def test_grog_islands_numbers_are_the_engines() -> None:
    text = page_text("grog_island")
    for kind, (vp, where) in grog_island.BUILDING_TYPES.items():
        label = grog_island.BUILDING_LABELS[kind]
        has(text, f"{label} {len(where)} {vp} {', '.join(where)}")
    for colour, good in grog_island.GOOD_NAMES.items():
        has(text, f"{colour} {good}")
    ships = {name: (buys, most) for name, buys, most in grog_island.SHIPS}
    has(
        text,
        f"up to {ships['two_coins'][1]} goods, {ships['two_coins'][0].split(':')[1]} coins each",
        f"up to {ships['three_coins'][1]} goods, {ships['three_coins'][0].split(':')[1]} coins",
        f"exactly {ships['four_coins'][1]} good for {ships['four_coins'][0].split(':')[1]} coins",
        f"up to {ships['treasure'][1]} goods, 1 treasure card each",
        f"up to {ships['parrot'][1]} goods, 1 parrot card each",
        f"{len(grog_island.BUILDINGS)} buildings, {len(grog_island.BUILDINGS_ON[0])} on each",
        f"a bid track of {len(grog_island.BID_SPACES)} spaces; {grog_island.LOCKS} locks",
        f"{grog_island.SHIP_SPACES} merchant ships on {grog_island.SHIP_SPACES} spaces",
        f"{len(grog_island.PARROT_DECK)} parrot cards: "
        f"{grog_island.PARROT_DECK.count('hold')} hold the bid and "
        f"{grog_island.PARROT_DECK.count('set_yellow')} set this die",
        f"{len(grog_island.OBJECTIVE_DECK)} objective cards: 2 of each of "
        f"{len(grog_island.OBJECTIVE_KINDS)} objectives",
        f"Crew: {grog_island.CREW[2]} each with 2 or 3 players, {grog_island.CREW[4]} each with 4",
        f"starts with {grog_island.START_COINS} coins",
        f"{grog_island.BUILDING_COST} goods per building",
        f"replaced by {grog_island.SUBSTITUTE} goods",
        f"dealt {grog_island.OBJECTIVES_DEALT} objective cards and keeps "
        f"{grog_island.OBJECTIVES_KEPT}",
        f"1 point per {grog_island.COINS_PER_VP} coins",
        f"{grog_island.MAJORITY_VP} points for the most crew",
        f"or {grog_island.PRESENCE_VP} points for having crew",
        f"ghost ship with {grog_island.GHOST_CREW} ghost crew",
        f"plus {grog_island.TREASURE_MAX} per treasure card",
    )
    counts = {v: grog_island.TREASURE_DECK.count(v) for v in (1, 2, 3)}
    has(text, f"{counts[1]} worth 1, {counts[2]} worth 2, {counts[3]} worth 3 coins")
    assert grog_island.CREW[2] == grog_island.CREW[3]


def test_the_index_lists_every_game_and_an_unknown_game_is_not_found() -> None:
    client = Client()
    index = client.get("/rules/").content.decode()
    for slug in GAMES:
        assert f'href="/rules/{slug}/"' in index
        assert engines.get(slug).name in index
    assert client.get("/rules/chess/").status_code == 404


def test_the_lobby_and_the_play_page_link_to_the_rules(django_user_model) -> None:
    lobby = Client().get("/lobby/").content.decode()
    for slug in GAMES:
        assert f'href="/rules/{slug}/"' in lobby
    people = [
        Competitor.objects.create(
            kind="person", name=f"r{i}", user=django_user_model.objects.create(username=f"r{i}")
        )
        for i in range(3)
    ]
    game = create_game("batavia", people, seed="rules-link")
    play = Client().get(f"/games/{game.pk}/play/").content.decode()
    board_at = play.index('id="board"')
    link_at = play.index('href="/rules/batavia/#numbers"')
    assert 0 < board_at - link_at < 400, "the rules link sits just before the board"
