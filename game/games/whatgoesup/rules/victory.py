"""Victory conditions: the closed set of kinds that ``rules/scenarios.yaml`` picks from.

``after_flight_action`` ends a game the moment a "first to ..." goal is reached (timing order decides
who was first); ``end_of_turn`` checks the goals counted at the end of a turn (All Your Base) and the
turn limit. ``status`` is what the client shows during play: each program's progress in words.
"""
from __future__ import annotations

from typing import Optional

from game.games.whatgoesup.rules.scenarios import Victory
from game.games.whatgoesup.rules.shared import EngineHooks
from game.games.whatgoesup.rules.state import HOME, GameState

Ending = tuple[tuple[int, ...], str, str]  # winners, kind (goal or turn_limit), reason in words


class VictoryRules:
    def __init__(self, engine: EngineHooks):
        self.engine = engine
        self.rules = engine.rules
        self.board = engine.rules.board

    def victory(self, state: GameState) -> Victory:
        return self.rules.scenarios.victory(state.setup.victory)

    def _names(self, state: GameState, winners) -> str:
        return " and ".join(state.programs[i].name for i in winners)

    # ------------------------------------------------------------------ Space War
    def without_open_wars(self, state: GameState, winners: tuple[int, ...], reason: str) -> tuple[tuple[int, ...], str]:
        """The winners and the reason once open wars are counted: an open war is a defeat for every program
        in it, whatever else it achieved (the wiki's "New Spacewar")."""
        at_war = [p.index for p in state.programs if state.at_open_war(p.index)]
        if not at_war:
            return winners, reason
        kept = tuple(w for w in winners if w not in at_war)
        names = self._names(state, at_war)
        whom = {1: "it", 2: "both"}.get(len(at_war), "all of them")
        words = f" {names} {'is' if len(at_war) == 1 else 'are'} at open war: a defeat for {whom}."
        if kept != tuple(winners):
            words += (f" The win goes to {self._names(state, kept)}." if kept else " Nobody wins.")
        return kept, reason + words

    # ------------------------------------------------------------------ the goals
    def reached(self, state: GameState) -> tuple[int, ...]:
        """The programs that have reached a "first to ..." goal (empty for most_dots and hold_locations)."""
        v = self.victory(state)
        winners: set[int] = set()
        if v.kind == "walk_and_return":
            winners = {d.owner for d in state.derps
                       if not d.dead and d.location is HOME and v.body in d.walked_on}
        elif v.kind == "find_temple":
            if v.relic_mass:
                winners = {u.owner for u in state.upgoers if u.status == "landed" and u.relic_mass}
            else:
                winners = {p for what, p in state.achieved if what == f"temple:{v.body}"}
        elif v.kind == "map_and_return":
            winners = {p.index for p in state.programs if p.mapped_home(v.body) >= v.percent}
        return tuple(sorted(winners))

    def held_locations(self, state: GameState) -> dict[str, set[int]]:
        """For All Your Base: each location (orbit type) and the programs whose active Waylight is there."""
        v = self.victory(state)
        held: dict[str, set[int]] = {loc: set() for loc in v.locations}
        crafts = {u.id: u for u in state.upgoers if u.in_space or u.status == "written_off"}
        for item in state.items:
            craft = crafts.get(item.location) if item.location is not HOME else None
            if craft is None or not item.active or item.disabled or state.thing(item.thing_id).kind != "waylight":
                continue
            orbit = self.board.step(craft.location).orbit_type
            if orbit in held:
                held[orbit].add(item.owner)
        return held

    def after_flight_action(self, state: GameState) -> GameState:
        """End the game at once when someone has reached a "first to ..." goal."""
        if state.phase == "over" or state.rock is not None:
            return state
        v = self.victory(state)
        if v.kind in ("most_dots", "hold_locations"):
            return state
        winners = self.reached(state)
        if not winners:
            return state
        reason = f"{self._names(state, winners)} {'wins' if len(winners) == 1 else 'win'} {v.name}: " + self._goal_words(v)
        return self.engine.finish(state, winners, "goal", reason)

    def _goal_words(self, v: Victory) -> str:
        body = self.board.body(v.body).name if v.body else ""
        return {
            "walk_and_return": f"a derp walked on {body} and came home alive.",
            "find_temple": (f"the Temple's monolith is home from {body}." if v.relic_mass
                            else f"a derp reached the Temple on {body}."),
            "map_and_return": f"maps of {v.percent}% of {body} are home.",
        }.get(v.kind, "")

    def may_end_at_turn_end(self, state: GameState) -> bool:
        """Whether ``end_of_turn`` can end the game after this turn: only a victory that holds locations or a
        turn limit reached ends it then (the engine asks first, and builds the turn's end only then)."""
        limit = state.setup.turn_limit
        return self.victory(state).kind == "hold_locations" or (limit is not None and state.turn >= limit)

    def end_of_turn(self, state: GameState) -> Optional[Ending]:
        """The ending decided at the end of a turn, or None when play goes on."""
        if not self.may_end_at_turn_end(state):
            return None
        v = self.victory(state)
        if v.kind == "hold_locations":
            held = self.held_locations(state)
            if held and all(held.values()):
                counts = {p.index: sum(1 for owners in held.values() if p.index in owners) for p in state.programs}
                best = max(counts.values())
                winners = tuple(i for i, n in counts.items() if n == best)
                return winners, "goal", (f"Every location is taken: {self._names(state, winners)} "
                                         f"{'wins' if len(winners) == 1 else 'share the win'} {v.name} holding "
                                         f"{best} of {len(held)}.")
        limit = state.setup.turn_limit
        if limit is None or state.turn < limit:
            return None
        # Programs at open war cannot win: the best of the others does (without_open_wars says why).
        eligible = [p for p in state.programs if not state.at_open_war(p.index)]
        if not eligible:
            return (), "turn_limit", f"The game ends after turn {state.turn} and nobody wins."
        if v.kind == "most_dots":
            best = max(p.dots for p in eligible)
            winners = tuple(p.index for p in eligible if p.dots == best)
            return winners, "turn_limit", (f"The game ends after turn {state.turn}: {self._names(state, winners)} "
                                           f"{'wins' if len(winners) == 1 else 'share the win'} with {best} dots.")
        progress = {p.index: self.progress(state, p.index) for p in eligible}
        best = max(progress.values())
        leaders = [i for i, n in progress.items() if n == best]
        best_dots = max(state.programs[i].dots for i in leaders)
        winners = tuple(i for i in leaders if state.programs[i].dots == best_dots)
        return winners, "turn_limit", (f"Nobody reached {v.name} by turn {state.turn}: "
                                       f"{self._names(state, winners)} came closest and "
                                       f"{'wins' if len(winners) == 1 else 'share the win'}.")

    def progress(self, state: GameState, program: int) -> int:
        """How close a program is to the goal, as a number that orders programs (0 to 100)."""
        v = self.victory(state)
        if v.kind == "hold_locations":
            held = self.held_locations(state)
            return 100 * sum(1 for owners in held.values() if program in owners) // max(1, len(held))
        if v.kind == "map_and_return":
            return min(100, 100 * state.programs[program].mapped_home(v.body) // v.percent)
        return self.milestone(state, program)[0]

    def milestone(self, state: GameState, program: int) -> tuple[int, str]:
        """For a goal reached by milestones (a landing, a walk, the Temple): the milestone a program has
        reached, as the number that orders programs (0 to 100) and in words. Only the milestones count, not
        the way flown towards them, so the words name the milestone rather than a percentage."""
        v = self.victory(state)
        body = self.board.body(v.body).name if v.body else ""
        body = "the" + body[3:] if body.startswith("The ") else body  # read mid-sentence: "on the Moon"
        if v.kind == "walk_and_return":
            if any(d.owner == program and not d.dead and v.body in d.walked_on for d in state.derps):
                return 75, f"walked on {body}"
            if any(u.owner == program and v.body in u.bodies_landed for u in state.upgoers):
                return 50, f"landed on {body}"
            return 0, f"not on {body} yet"
        if v.kind == "find_temple":
            if any(u.owner == program and u.relic_mass for u in state.upgoers):
                return 90, "has the monolith aboard"
            if any(p == program for what, p in state.achieved if what.startswith("temple")):
                return 80, "reached the Temple"
            if any(u.owner == program and u.temple_found for u in state.upgoers):
                return 60, "found the Temple"
            mapped = state.programs[program].mapped(v.body)
            return min(50, mapped // 2), f"{mapped}% of {body} mapped"
        return 0, ""

    def status(self, state: GameState) -> list[str]:
        """One line per program for the client: the goal and how far each program has come."""
        v = self.victory(state)
        lines = []
        for p in state.programs:
            if v.kind == "most_dots":
                lines.append(f"{p.name}: {p.dots} dots")
            elif v.kind == "hold_locations":
                held = self.held_locations(state)
                mine = [self.board.orbit_type(loc).name for loc, owners in held.items() if p.index in owners]
                lines.append(f"{p.name}: holds {len(mine)} of {len(held)}" + (f" ({', '.join(mine)})" if mine else ""))
            elif v.kind == "map_and_return":
                lines.append(f"{p.name}: {p.mapped(v.body)}% mapped, {p.mapped_home(v.body)}% of {v.percent}% home")
            else:
                lines.append(f"{p.name}: {self.milestone(state, p.index)[1]}")
        return lines
