"""A person's pages: the profile, the public person page, sign-up (allauth's adapter and forms)."""
