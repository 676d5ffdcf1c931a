"""One package per game: its pure rules engine in ``rules/`` and its computer players and harnesses beside it."""
