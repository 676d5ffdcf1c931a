"""Scenes every hosted game shares: title, settings, save and load, the story log, pass the device, dice, and the
base of in-game scenes. They import no game."""
