"""The What Goes Up desktop client: pygame-ce + pygame_gui scenes that read game state and animate it.

Nothing in here decides an outcome: dice animations play toward values the rules engine already chose.
"""
