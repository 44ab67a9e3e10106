"""The tournament and league pages and the standings CSV."""
