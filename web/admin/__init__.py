"""The admin site's pages, one module per app whose rows it shows.

Django's autodiscovery imports this package (``web.admin``) once every app is
ready; importing each module registers its pages on the project's site.
"""

from web.admin import bots, chat, events, games, leagues, lobby, people, ratings, users

__all__ = ["bots", "chat", "events", "games", "leagues", "lobby", "people", "ratings", "users"]
