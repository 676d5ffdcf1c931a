"""Cosmoforce's scenes: the new-game screen, the ship sheet, the combat field and its dice."""
