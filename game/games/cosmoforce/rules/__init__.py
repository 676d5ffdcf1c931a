"""Cosmoforce's pure rules engine: immutable state, small actions, the tables as typed objects.

Never imports pygame or ``random``: the app rolls the dice (``game.core.dice_rng``).
"""
