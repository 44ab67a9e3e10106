"""Bot models (owner, endpoint, shared secret, status); the bot issue adds them."""
