"""The command line: ``python main.py [command]``.

With no command the desktop client starts (pygame is imported only then). Commands:
``check-rules [DIR]``, ``replay FILE [--json] [--strict]``, ``simulate``, ``bench`` and ``shots DIR``.
No traceback reaches a user: an unexpected error prints one line and the path of a log file.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import traceback
from datetime import datetime
from pathlib import Path
from typing import Optional, Sequence

from game.core.words import counted

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def _out(text: str = "") -> None:
    print(text, flush=True)


def _err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# ------------------------------------------------------------------ check-rules
def rules_summary(rules) -> str:
    kinds = len(rules.components.kinds)
    schemes = len(rules.dice.schemes)
    parts = [f"{kinds} component kinds", f"{schemes} dice schemes", f"{len(rules.peoples.peoples)} peoples",
             f"{len(rules.options.options)} optional rules", f"{len(rules.prestige.firsts)} firsts"]
    # Tables that other parts of the rules add (the board, the flight table), counted when present.
    steps = getattr(getattr(rules, "board", None), "steps", None)
    if steps is not None:
        parts.append(f"{len(steps)} board steps")
    consequences = getattr(getattr(rules, "flight", None), "consequences", None)
    if consequences is not None:
        parts.append(f"{len(consequences)} failure consequences")
    scenarios = getattr(rules, "scenarios", None)
    if scenarios is not None:
        parts.append(f"{counted(len(scenarios.scenarios), 'scenario')}, {counted(len(scenarios.victories), 'victory condition')}")
    return f"rules OK: {rules.edition.name}, {', '.join(parts)}; digest {rules.digest}"


def rules_folder(args, folder_arg: str) -> Optional[str]:
    """The What Goes Up rules folder a command names: ``--edition ID`` (a shipped edition) or a folder
    (``folder_arg``), not both; None for the default edition. An unknown edition is a usage error."""
    folder_given = getattr(args, folder_arg, None)
    edition = getattr(args, "edition", None)
    if edition is None:
        return folder_given
    if getattr(args, "game", "whatgoesup") != "whatgoesup":
        _usage(args, "argument --edition: What Goes Up only")
    if folder_given is not None:
        _usage(args, "argument --edition: give an edition or a rules folder, not both")
    from game.core.interface import UnknownEdition
    from game.games.whatgoesup.rules.editions import edition_folder
    try:
        return str(edition_folder(edition))
    except UnknownEdition as exc:
        _usage(args, f"argument --edition: {exc}")
    return None


def cmd_check_rules(args) -> int:
    if args.game == "cosmoforce":
        return cosmoforce_check_rules(args)
    from game.games.whatgoesup.rules.tables import check_rules
    rules, problems = check_rules(rules_folder(args, "dir"))
    if rules is None:
        for line in problems:
            _out(line)
        _err(f"{counted(len(problems), 'problem')} in the rules")
        return EXIT_FAIL
    _out(rules_summary(rules))
    return EXIT_OK


# ------------------------------------------------------------------ replay
def state_summary(engine, state) -> dict:
    """The plain-data summary ``replay`` prints."""
    programs = []
    for p in state.programs:
        programs.append({
            "index": p.index, "name": p.name, "people": p.people, "dots": p.dots, "points": p.points,
            "luck": p.luck, "fuel": p.fuel_stock, "rations": p.rations_stock,
            "things": [{"id": t.id, "name": t.name, "kind": t.kind, "mass": t.mass, "rating": str(t.rating)}
                       for t in state.things_of(p.index)],
            "derps": [{"id": d.id, "name": d.name, "skills": [d.piloting, d.engineering, d.stamina],
                       "condition": d.condition} for d in state.derps if d.owner == p.index],
            "upgoers": [{"id": u.id, "name": u.name, "status": u.status, "location": u.location}
                        for u in state.upgoers_of(p.index)],
        })
    summary = {"turn": state.turn, "phase": state.phase, "programs": programs}
    outcome = engine.outcome(state) if state.phase == "over" else None
    if outcome is not None:
        summary["outcome"] = {"winners": list(outcome.winners), "reason": outcome.reason,
                              "scores": list(outcome.scores)}
    return summary


def summary_text(summary: dict) -> str:
    lines = [f"Turn {summary['turn']}, phase {summary['phase']}"]
    for p in summary["programs"]:
        lines.append(f"{p['name']} ({p['people']}): {p['dots']} dots, {p['points']} points, luck {p['luck']}, "
                     f"fuel {p['fuel']}, rations {p['rations']}")
        for t in p["things"]:
            lines.append(f"  thing {t['id']} {t['name']} ({t['kind']}, mass {t['mass']}): {t['rating']}")
        for d in p["derps"]:
            lines.append(f"  derp {d['id']} {d['name']} {'/'.join(map(str, d['skills']))} {d['condition']}")
        for u in p["upgoers"]:
            lines.append(f"  Upgoer {u['id']} {u['name']}: {u['status']} at {u['location']}")
    if "outcome" in summary:
        lines.append(f"Game over: {summary['outcome']['reason']}")
    return "\n".join(lines)


def cmd_replay(args) -> int:
    if args.game == "cosmoforce":
        return cosmoforce_replay(args)
    from game.games.whatgoesup.rules.engine import Engine
    from game.games.whatgoesup.rules.tables import load_rules
    from game.core.saves import SaveError, edited_notice, load_game
    folder = rules_folder(args, "rules")
    engine = Engine(load_rules(folder))
    try:  # load_game reads only a regular file of sane size: never a pipe, a device or a folder
        # Unless told which rules to use, a save replays under the edition it records.
        loaded = load_game(args.file, engine, allow_mismatch=args.allow_mismatch, strict=args.strict,
                           follow_edition=folder is None)
    except SaveError as exc:
        _err(f"cannot replay: {exc}")
        return EXIT_FAIL
    engine = loaded.engine or engine
    if loaded.edited:
        _err(f"{args.file}: {edited_notice(loaded.edited_rolls)}")
    summary = state_summary(engine, loaded.final)
    summary["actions"] = len(loaded.actions)
    summary["edited_rolls"] = len(loaded.edited_rolls)
    if args.json:
        _out(json.dumps(summary))
    else:
        _out(f"{args.file}: {len(loaded.actions)} actions replayed")
        _out(summary_text(summary))
    return EXIT_OK


# ------------------------------------------------------------------ simulate
def _check_simulate_choices(args, rules) -> None:
    """The options whose valid values come from the rules (victories, difficulties): a usage error if wrong."""
    victories = [v.id for v in rules.scenarios.victories]
    if args.victory not in victories:
        args.parser.error(f"argument --victory: unknown victory '{args.victory}' (choose from {', '.join(victories)})")
    if args.mode == "stop-the-rock" and args.victory != "most_dots":
        args.parser.error("argument --victory: Stop The Rock has its own ending; --victory does not apply to it")
    if args.difficulty is None:
        return
    if args.mode != "stop-the-rock":
        args.parser.error("argument --difficulty: only Stop The Rock has difficulties (add --mode stop-the-rock)")
    levels = [d.id for d in rules.scenarios.scenario("stop_the_rock").difficulties]
    if args.difficulty not in levels:
        args.parser.error(f"argument --difficulty: unknown difficulty '{args.difficulty}' "
                          f"(choose from {', '.join(levels)})")


def cmd_simulate(args) -> int:
    if args.game == "cosmoforce":
        return cosmoforce_simulate(args)
    from game.games.whatgoesup.rules.engine import Engine, IllegalSetup
    from game.games.whatgoesup.rules.tables import load_rules
    from game.games.whatgoesup.sim import default_setup, simulate
    engine = Engine(load_rules(rules_folder(args, "rules")))

    def progress(result) -> None:
        if result.failure is not None:
            _out(f"INVARIANT BROKEN: {result.failure}")
        elif not args.json and args.verbose:
            _out(f"seed {result.seed}: {len(result.actions)} actions, turn {result.turns}")

    _check_simulate_choices(args, engine.rules)
    players = args.players if args.players is not None else (1 if args.mode == "stop-the-rock" else 2)
    if args.turns is None:
        chosen = next(v for v in engine.rules.scenarios.victories if v.id == args.victory)
        args.turns = chosen.suggested_turns or 20
    try:
        engine.check_setup(default_setup(engine, players, args.turns, victory=args.victory,
                                         scenario="stop_the_rock" if args.mode == "stop-the-rock" else None,
                                         difficulty=args.difficulty, options=tuple(args.option)))
    except IllegalSetup as exc:  # anything the checks above missed is still a usage error, not a crash
        args.parser.error(str(exc))
    summary = simulate(engine, args.games, args.seed, players=players, turns=args.turns,
                       progress=progress, bot=args.bot, mode=args.mode, victory=args.victory,
                       difficulty=args.difficulty, check=not args.no_checks, jobs=args.jobs,
                       options=tuple(args.option))
    data = summary.to_data()
    data["edition"] = engine.rules.edition.id  # the rules the games were played under
    if not args.json:
        _out(f"{counted(data['games'], 'game')}, {data['actions']} actions, {data['turns']} turns in "
             f"{data['seconds']} s ({data['actions_per_second']} actions/s), "
             f"{counted(data['invariant_failures'], 'invariant failure')}; {data['launches']} launches, "
             f"{data['landings']} landings, {data['booms']} Booms, {data['derps_lost']} derps lost, "
             f"{data['firsts']} firsts; {data['wins']} won, {data['losses']} lost {data['outcomes']}"
             + (f"; the invariant checks took {data['check_seconds']} s, "
                f"{100 * data['check_share']:.0f}% of the {data['play_seconds']} s of play" if data['checks'] else "")
             + (f"; underped: {data['underped_launches']} launches, {data['underped_firsts']} firsts, "
                f"{data['systems_lost']} systems lost" if "underped" in args.option else ""))
    _out(json.dumps(data))
    return EXIT_FAIL if summary.invariant_failures else EXIT_OK


# ------------------------------------------------------------------ Cosmoforce (--game cosmoforce)
def _cosmoforce_engine(folder):
    from game.games.cosmoforce.rules.engine import Engine
    from game.games.cosmoforce.rules.tables import load_rules
    return Engine(load_rules(folder))


def cosmoforce_check_rules(args) -> int:
    from game.games.cosmoforce.rules.tables import check_rules, rules_summary
    rules, problems = check_rules(args.dir)
    if rules is None:
        for line in problems:
            _out(line)
        _err(f"{counted(len(problems), 'problem')} in the rules")
        return EXIT_FAIL
    _out(rules_summary(rules))
    return EXIT_OK


def cosmoforce_replay(args) -> int:
    from game.core.saves import SaveError, load_game
    from game.games.cosmoforce.summary import state_summary, summary_text
    engine = _cosmoforce_engine(args.rules)
    try:
        loaded = load_game(args.file, engine, allow_mismatch=args.allow_mismatch,
                           strict=getattr(args, "strict", False))
    except SaveError as exc:
        _err(f"cannot replay: {exc}")
        return EXIT_FAIL
    summary = state_summary(engine, loaded.final)
    summary["actions"] = len(loaded.actions)
    if args.json:
        _out(json.dumps(summary))
    else:
        _out(f"{args.file}: {len(loaded.actions)} actions replayed")
        _out(summary_text(summary))
    return EXIT_OK


def cosmoforce_simulate(args) -> int:
    from game.games.cosmoforce.rules.engine import IllegalSetup
    from game.games.cosmoforce.sim import default_setup, simulate
    for given, default, name in ((args.mode, "normal", "--mode"), (args.victory, "most_dots", "--victory"),
                                 (args.difficulty, None, "--difficulty")):
        if given != default:
            return _usage(args, f"argument {name}: What Goes Up only (Cosmoforce fights until one side is left)")
    engine = _cosmoforce_engine(args.rules)
    players = args.players if args.players is not None else 2
    rounds = args.turns if args.turns is not None else 30
    bot = "random" if args.bot == "random" else "captain"
    try:
        engine.new_game(default_setup(engine, args.seed, players, args.ships, args.designs, args.teams, rounds))
    except IllegalSetup as exc:
        return _usage(args, str(exc))

    def progress(result) -> None:
        if result.failure is not None:
            _out(f"INVARIANT BROKEN: {result.failure}")
        elif not args.json and args.verbose:
            outcome = engine.outcome(result.final)
            _out(f"seed {result.seed}: {len(result.actions)} actions, round {result.final.turn}: "
                 f"{outcome.reason if outcome else 'unfinished'}")

    summary = simulate(engine, args.games, args.seed, players=players, ships=args.ships, bot=bot,
                       designs=args.designs, teams=args.teams, round_limit=rounds, progress=progress)
    data = summary.to_data()
    if not args.json:
        _out(f"{counted(data['games'], 'fight')}, {data['actions']} actions, {data['rounds']} rounds in {data['seconds']} s "
             f"({data['actions_per_second']} actions/s), {counted(data['invariant_failures'], 'invariant failure')}; "
             f"{data['decided']} decided, {data['ceasefires']} ceasefires, {data['draws']} undecided; "
             f"wins by class {data['wins_by_class']} (ships by class {data['ships_by_class']})")
    _out(json.dumps(data))
    return EXIT_FAIL if summary.invariant_failures else EXIT_OK


def _usage(args, message: str) -> int:
    parser = getattr(args, "parser", None)
    if parser is not None:
        parser.error(message)
    _err(message)
    return EXIT_USAGE


def _add_edition_option(p, text: str = "a shipped edition of What Goes Up's rules (2014, the default, or 2013) "
                                          "instead of a rules folder") -> None:
    p.add_argument("--edition", default=None, metavar="ID", help=text)


def _add_game_option(p) -> None:
    p.add_argument("--game", choices=("whatgoesup", "cosmoforce"), default="whatgoesup",
                   help="which game (default whatgoesup); cosmoforce reads rules/cosmoforce/")


# ------------------------------------------------------------------ bench
def cmd_bench(args) -> int:
    from game.tools.bench import run_bench
    data = run_bench(args.rules, quick=args.quick, part=args.part)
    if not args.json:
        for name, value in data["figures"].items():
            aim = f"  aim {value['aim']}: {'met' if value['met'] else 'NOT met'}" if "aim" in value else ""
            wall = f" (wall {value['wall']})" if value["wall"] is not None else ""
            _out(f"{name}: {value['cpu']} {value['unit']} by CPU time{wall}{aim}")
        _out(f"aims met: {data['aims_met']}")
    _out(json.dumps(data))
    return EXIT_OK


# ------------------------------------------------------------------ shots and the client
def cmd_shots(args) -> int:
    try:
        from game.tools.shots import render_shots
    except ModuleNotFoundError as exc:
        return _missing_ui(exc, "screenshots")
    files = render_shots(Path(args.dir), workers=args.jobs)
    for f in files or ():
        _out(str(f))
    return EXIT_OK


def run_client(argv: Sequence[str]) -> int:
    # The cyclic garbage collector waits for the title's first frame (App.after_first_frame turns it on again):
    # importing pygame, pygame_gui and the client and building the title makes objects by the hundred thousand and
    # few cycles, and the collections it would run meanwhile cost that frame ~9 ms.
    gc.disable()
    try:
        try:
            from game.client.launch import run_app
        except ModuleNotFoundError as exc:
            return _missing_ui(exc, "the desktop client")
        result = run_app(list(argv))
    finally:
        gc.enable()
    return result if isinstance(result, int) else EXIT_OK


def _missing_ui(exc: ModuleNotFoundError, what: str) -> int:
    name = exc.name or str(exc)
    if name.startswith("pygame"):
        _err(f"{what} needs {name}, which is not installed (pip install pygame-ce pygame_gui); "
             f"the other commands work without it (python main.py --help)")
    elif name.startswith("game.ui"):
        _err(f"{what} is not available in this build ({name} is missing); "
             f"the other commands work (python main.py --help)")
    else:
        raise exc
    return EXIT_FAIL


# ------------------------------------------------------------------ plumbing
def whole_number(low: int, high: int):
    """An argparse type: a whole number from ``low`` to ``high``; anything else is a usage error."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}, not '{text}'") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high}, not {value}")
        return value
    parse.__name__ = "whole number"
    return parse


def folder(text: str) -> str:
    """An argparse type: an existing folder."""
    if not Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"'{text}' is not a folder")
    return text


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="whatgoesup", description="What Goes Up: tiny peoples racing to the Moon. "
                                     "With no command, the desktop game starts "
                                     "(its options, such as --windowed or --size 1600x900, go to the client).")
    sub = parser.add_subparsers(dest="command", metavar="command")

    p = sub.add_parser("check-rules", help="check a rules folder and summarise it")
    p.add_argument("dir", nargs="?", default=None, help="rules folder (default: the shipped rules)")
    _add_edition_option(p)
    _add_game_option(p)
    p.set_defaults(func=cmd_check_rules, parser=p)

    p = sub.add_parser("replay", help="replay a save and print the final state")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--rules", default=None, help="rules folder (default: the shipped rules)")
    p.add_argument("--allow-mismatch", action="store_true", help="replay even if the rules digest differs")
    p.add_argument("--strict", action="store_true",
                   help="refuse a save whose recorded rolls are not the ones its seed gives (an edited save)")
    _add_edition_option(p, "replay under this shipped edition (default: the edition the save records)")
    _add_game_option(p)
    p.set_defaults(func=cmd_replay, parser=p)

    p = sub.add_parser("simulate", help="play bot games and check invariants after every action")
    p.add_argument("--games", type=whole_number(1, 100_000), default=10, help="games to play (1 to 100000)")
    p.add_argument("--seed", type=whole_number(0, 2**63 - 1), default=1, help="the first game's seed (from 0)")
    p.add_argument("--players", type=whole_number(1, 4), default=None,
                   help="programs per game, 1 to 4 (default 2; 1 for stop-the-rock)")
    p.add_argument("--turns", type=whole_number(1, 1000), default=None,
                   help="turn limit, 1 to 1000 (default: the victory's suggested_turns in rules/scenarios.yaml, "
                        "else 20)")
    p.add_argument("--mode", choices=("normal", "stop-the-rock"), default="normal",
                   help="stop-the-rock: the cooperative scenario, ended by the rock (saved or impact)")
    p.add_argument("--victory", default="most_dots", help="a victory condition of rules/scenarios.yaml")
    p.add_argument("--difficulty", default=None, help="stop-the-rock difficulty (gentle, normal, hard)")
    p.add_argument("--option", action="append", default=[], metavar="ID",
                   help="What Goes Up: switch an optional rule of rules/options.yaml on (repeatable), e.g. space_war")
    p.add_argument("--json", action="store_true", help="print only the JSON summary")
    p.add_argument("--verbose", action="store_true", help="one line per game")
    p.add_argument("--bot", choices=("program", "random", "landing", "raider"), default="program",
                   help="program: plays a space program, flies and pursues the victory condition (default); "
                        "random: uniform legal actions; landing: random, weighted towards landings; raider: "
                        "the program bot that, under --option space_war, docks with rivals, starts fights and "
                        "arms some craft with a Waylight or probe to open fire")
    p.add_argument("--rules", type=folder, default=None, help="rules folder (default: the shipped rules)")
    _add_edition_option(p)
    p.add_argument("--no-checks", action="store_true",
                   help="skip the invariant checks after every action (to measure what they cost)")
    p.add_argument("--jobs", type=whole_number(1, 64), default=1,
                   help="worker processes, 1 to 64 (default 1); the same seed gives the same summary")
    _add_game_option(p)
    p.add_argument("--ships", type=int, default=1, help="Cosmoforce: ships per player (default 1)")
    p.add_argument("--designs", choices=("ready", "random"), default="ready",
                   help="Cosmoforce: ready-made ships from rules/cosmoforce/ships.yaml (default) or random rosters")
    p.add_argument("--teams", action="store_true", help="Cosmoforce: two teams (odd and even seats) instead of "
                                                        "every captain for themselves")
    p.set_defaults(func=cmd_simulate, parser=p)

    p = sub.add_parser("bench", help="run the benchmark suite")
    p.add_argument("--json", action="store_true", help="print only the JSON line")
    p.add_argument("--quick", action="store_true", help="fewer and smaller repetitions (for tests)")
    p.add_argument("--part", choices=("all", "engine", "client"), default="all",
                   help="all figures (default), or only the engine's or the client's")
    p.add_argument("--rules", default=None)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("shots", help="render screenshots of the client into a folder")
    p.add_argument("dir")
    p.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1),
                   help="processes to render with (default: one per core, at most 4)")
    p.set_defaults(func=cmd_shots)
    return parser


def log_file() -> Path:
    from game.core.saves import saves_folder
    return saves_folder() / "whatgoesup.log"


def _report_crash(exc: BaseException) -> int:
    path = log_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as f:
            f.write(f"--- {datetime.now().isoformat(timespec='seconds')} {' '.join(sys.argv)}\n")
            f.write("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
        where = f"details in {path}"
    except OSError:
        where = "and the log file could not be written"
    _err(f"whatgoesup: unexpected error: {type(exc).__name__}: {exc} ({where})")
    return EXIT_FAIL


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
            return run_client(argv)  # the client's own options, e.g. --windowed --size 1600x900
        parser = build_parser()
        args = parser.parse_args(argv)
        if getattr(args, "func", None) is None:
            parser.print_help()
            return EXIT_USAGE
        return args.func(args)
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except SystemExit:
        raise
    except Exception as exc:  # the last line of defence: one line for the user, the rest in the log
        try:
            from game.core.yamlnodes import RulesError
            if isinstance(exc, RulesError):
                _err("the rules cannot be loaded:\n" + str(exc))
                return EXIT_FAIL
        except ImportError:
            pass
        return _report_crash(exc)
