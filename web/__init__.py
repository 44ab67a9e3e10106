"""The web layer: the only code that knows HTTP, templates, websockets and page caching.

Pages, the REST API, the play sockets and the admin read through the apps'
selectors and write through their services; nothing below imports this package."""
