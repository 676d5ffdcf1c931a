"""Cosmoforce: light ship-to-ship space combat (after the Cosmoforce mini-game), its bots and harnesses."""
