"""Rating models (current rating per scope, change per game); the ratings issue adds them."""
