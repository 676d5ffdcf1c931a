"""The shared core every game uses: the engine interface, actions and chance, the seeded dice, sessions, saves and
YAML tables with file:line errors. Imports no game and never pygame."""
