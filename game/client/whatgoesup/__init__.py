"""What Goes Up's scenes: The Field, R&D, assembly, trading, the roll card, reports, the tutorial, the rules reference.

``game_flow`` decides which of them shows; ``entry`` is how the client hosts the game."""
