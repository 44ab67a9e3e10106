"""Browser tests of the Cargo Noir and Grog Island boards (issue 15)."""
