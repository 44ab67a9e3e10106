"""The competitor pages of bots (people's are under ``web.people``)."""
