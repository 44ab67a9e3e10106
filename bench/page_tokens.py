"""How many stored pages survive one game created and finished (the page cache's tokens).

    env -u REDIS_URL .venv/bin/python -m bench.page_tokens [--suffix _mine] [--sample 100]

On a copy of a ``bench.pages`` database (it *writes* one game to it: use your
own ``--suffix`` copy), in this process with LocMemCache: renders and stores
the lists, every engine's leaderboard page and API, ``--sample`` competitors'
pages (people and bots with a page, drawn with a fixed seed; the bench
databases have one of each) and the newest ``--sample`` finished games' pages;
then plays a Manila game for a bot with a page and two without by the real
write path (``bench.steady.play_one_game``: ``create_game``, the referee's
claim write, its ``advance`` finishing the game); then asks every
page again and counts, per kind, the pages still served from the cache.
Not a test: it reports what it sees.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from bench.pages import SIZES, _setup
from bench.steady import play_one_game


def _pages(sample: int, rng: random.Random) -> list[tuple[str, str]]:
    """(kind, path) of every page to store."""
    from django.urls import reverse

    import engines
    from games.models import Competitor, Game
    from people.models import Profile
    from web.stats.views import competitor_url

    pages = [("lists", "/"), ("lists", "/games/"), ("lists", "/api/v1/games/")]
    pages.append(("ladder overview", "/leaderboards/"))
    for engine in engines.all_engines():
        pages.append(("ladder page", reverse("tournaments:leaderboard", args=[engine.slug])))
        pages.append(("ladder API", f"/api/v1/leaderboards/{engine.slug}/"))
    bots = list(Competitor.objects.filter(bot__isnull=False).order_by("pk"))
    for competitor in rng.sample(bots, min(sample, len(bots))):
        pages.append(("bot page", competitor_url(competitor)))
    people = list(Profile.objects.select_related("user").order_by("pk"))
    for profile in rng.sample(people, min(sample, len(people))):
        pages.append(("person page", f"/people/{profile.user.get_username()}/"))
    finished = Game.objects.filter(status=Game.Status.FINISHED, listed=True)
    for pk in finished.order_by("-pk").values_list("pk", flat=True)[:sample]:
        pages.append(("game page", f"/games/{pk}/"))
    return pages


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--suffix", default="", help="the copy of the small bench database")
    parser.add_argument("--sample", type=int, default=100)
    args = parser.parse_args(argv)
    _setup(args.server, SIZES[1][0] + args.suffix)
    from django.conf import settings
    from django.test import Client

    settings.PAGECACHE_SECONDS = 3600
    rng = random.Random(17)
    pages = _pages(args.sample, rng)
    client = Client()
    for _, path in pages:
        assert client.get(path).status_code == 200, path
    stored = Counter(kind for kind, path in pages if client.get(path).get("X-Page-Cache") == "hit")
    from games.models import Competitor

    # One bot with a page (and its versions), two without: the other pages are unrelated.
    played = Competitor.objects.filter(bot__isnull=False).order_by("pk")[:1]
    players = [*played, *Competitor.objects.filter(kind="bot", bot__isnull=True).order_by("?")[:2]]
    game = play_one_game([c.pk for c in players], "manila", random.Random(1))
    kept = Counter(kind for kind, path in pages if client.get(path).get("X-Page-Cache") == "hit")
    print(f"game #{game} finished: {', '.join(c.name for c in players)}")
    print(f"{'page':<16} {'stored':>7} {'kept':>6}")
    for kind in sorted(stored):
        print(f"{kind:<16} {stored[kind]:>7} {kept[kind]:>6}")
    print(f"{'all':<16} {sum(stored.values()):>7} {sum(kept.values()):>6}")


if __name__ == "__main__":
    main()
