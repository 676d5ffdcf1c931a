"""What a player can type or choose: the one place the client's fields and the save loader both read.

The new-game screen, R&D and assembly cap their text fields at these lengths, and a save holding a
longer name (or a character a text field cannot produce) is refused when it is loaded.
"""
from __future__ import annotations

#: A space program's name (the new-game screen).
PROGRAM_NAME_MAX = 28
#: A part invented in R&D, and a derp hired there.
PART_NAME_MAX = 32
DERP_NAME_MAX = 32
#: An Upgoer's name (assembly).
UPGOER_NAME_MAX = 30
#: A design's planned burns, fuel and rations. The fuel preview works back through every planned burn,
#: one fuel point at a time, so its cost grows steeply with the burns and the dry mass (rations weigh):
#: 50 burns of a 5,000-mass craft take 16 s, 100 burns of a tiny one 10 s. At these limits the worst
#: design is checked in about 0.4 s; no real mission comes near them.
PLANNED_BURNS_MAX = 30
DESIGN_FUEL_MAX = 10_000
DESIGN_RATIONS_MAX = 1_000
