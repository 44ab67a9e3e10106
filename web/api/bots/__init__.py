"""The bots' API: owners register and manage bots; pull bots fetch turns and post moves."""
