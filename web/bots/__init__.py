"""The bot owner's pages: health, reactivation, latency chart, move log, versions, alerts."""
