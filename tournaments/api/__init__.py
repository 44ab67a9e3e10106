"""The game API under /api/v1/games/: create games, read their public record, verify them."""
