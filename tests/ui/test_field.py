"""The Field, headless: drag-and-drop moves, the flight panel, the roll panel with exact odds and
mid-roll help, zoom and pan, and drawing at 1280x720 and 3840x2160."""
from __future__ import annotations

import pygame
import pygame_gui
import pytest

from game.games.whatgoesup.rules.actions import Roll
from game.games.whatgoesup.rules.flight_actions import AcceptRoll, Burn, Move, UseSkill
from game.games.whatgoesup.rules.planning import destination
from game.client.scenes.dice import percent_text
from game.client.whatgoesup.field import FieldScene
from game.tools.field_shots import build_demo_state, open_field
from game.client.whatgoesup.game_flow import shipped_engine

DT = 1 / 30


@pytest.fixture(scope="module")
def demo_state():
    return build_demo_state(shipped_engine())


@pytest.fixture
def field(make_app, home, demo_state):
    def _open(size=(1280, 720)):
        from game.core.session import GameSession

        app = make_app(size)
        session = GameSession(shipped_engine(), demo_state.setup, 7, states=(demo_state,), saves_dir=home)
        scene = open_field(app, session)
        assert isinstance(scene, FieldScene)
        frames(app, 3)
        return app, session, scene
    return _open


def frames(app, n=1, events=None):
    for i in range(n):
        app.step(DT, events if (events and i == 0) else [])
        top = app.stack.top
        assert top is not None and top.name != "error", getattr(top, "what", "")


def press(app, element):
    frames(app, 1, [pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, {"ui_element": element})])


def key(app, k):
    frames(app, 1, [pygame.event.Event(pygame.KEYDOWN, {"key": k, "mod": 0, "unicode": "", "scancode": 0})])


def drag(app, start, end):
    start, end = (int(start[0]), int(start[1])), (int(end[0]), int(end[1]))
    mid = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
    events = [
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": start, "button": 1}),
        pygame.event.Event(pygame.MOUSEMOTION, {"pos": mid, "rel": (mid[0] - start[0], mid[1] - start[1]),
                                                "buttons": (1, 0, 0)}),
        pygame.event.Event(pygame.MOUSEMOTION, {"pos": end, "rel": (end[0] - mid[0], end[1] - mid[1]),
                                                "buttons": (1, 0, 0)}),
    ]
    for e in events:
        frames(app, 1, [e])
    frames(app, 1, [pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": end, "button": 1})])


def active_marker(scene):
    uid = scene.session.state.flight.active
    return uid, scene.markers.screen_pos[uid]


def button_for(panel_buttons, kind):
    return next(b for b, a in panel_buttons.items() if isinstance(a, kind))


def roll_to_burn(app, session, scene):
    """Drag the active craft onto the polar orbit: move on, then burn (a thruster roll is pending)."""
    uid, pos = active_marker(scene)
    drag(app, pos, scene.board_view.step_screen("polar_1"))
    assert session.waiting_for_dice


def test_drag_to_a_lit_step_applies_the_action(field):
    app, session, scene = field()
    state = session.state
    legal = session.legal_actions()
    lit = {s for a in legal for s in destination(session.engine, state, a)}
    assert "low_burn_2" in lit and "low_burn_2" in scene.targets
    uid, pos = active_marker(scene)
    drag(app, pos, scene.board_view.step_screen("low_burn_2"))
    assert session.actions[-1] == Move(uid)
    assert session.state.flight.mode == "junction"


def test_drag_onto_a_burn_destination_moves_then_burns(field):
    app, session, scene = field()
    roll_to_burn(app, session, scene)
    assert isinstance(session.actions[-2], Move) and session.actions[-1] == Burn("polar_1")


def test_drag_to_an_illegal_step_snaps_back_with_the_reason(field):
    app, session, scene = field()
    before = len(session.actions)
    uid, pos = active_marker(scene)
    drag(app, pos, scene.board_view.step_screen("lunar_surface"))
    assert len(session.actions) == before
    assert "cannot go to Lunar Surface" in scene.toast_text
    assert scene.toast_kind == "error"
    assert scene.markers.at[uid] == session.state.upgoer(uid).location


def test_flight_panel_buttons_apply_their_actions(field):
    app, session, scene = field()
    buttons = scene.flight_panel.buttons
    labels = sorted(b.text for b in buttons)
    assert "Move on" in labels and "Write off" in labels
    press(app, button_for(buttons, Move))
    assert isinstance(session.actions[-1], Move)
    buttons = scene.flight_panel.buttons
    assert any(b.text.startswith("Burn: Polar plane change (") and b.text.endswith(" fuel)") for b in buttons)
    press(app, next(b for b, a in buttons.items() if isinstance(a, Burn) and a.to == "polar_1"))
    assert session.actions[-1] == Burn("polar_1")
    assert session.waiting_for_dice
    assert not scene.flight_panel.buttons  # while the dice card is up, the roll comes first


def test_roll_panel_shows_exact_odds_then_rolls(field):
    app, session, scene = field()
    roll_to_burn(app, session, scene)
    odds = session.engine.flight_rules.roll_odds(session.state)
    text = scene.roll_panel.odds_line(session.state)
    for outcome, p in odds.items():
        assert f"{outcome.label} {percent_text(p)}" in text
    assert sum(odds.values()) == 1
    roll_button = next(b for b, what in scene.roll_panel.buttons.items() if what == "roll")
    assert roll_button.text.startswith("Roll")
    key(app, pygame.K_SPACE)
    assert isinstance(session.actions[-1], Roll)
    show = scene.roll_panel.show
    assert show is not None and show.dice.total == session.actions[-1].value
    scheme = session.engine.rules.dice.scheme(session.state.setup.dice)
    assert show.dice.faces == scheme.faces_for(session.actions[-1].value)
    frames(app, 120)  # lands, then goes back to the Field on its own (or waits for a decision)


def test_help_buttons_appear_on_a_failed_roll_and_apply(field):
    app, session, scene = field()
    roll_to_burn(app, session, scene)
    pending = session.state.flight.roll
    fail_value = pending.effective().fail  # lowest Fail
    session.dice.roll = lambda engine, state: Roll(fail_value)  # the app's dice, fixed for the test
    key(app, pygame.K_SPACE)
    key(app, pygame.K_SPACE)  # skip the animation
    frames(app, 2)
    assert scene.roll_panel.pending(session.state) == "help"
    offered = list(scene.roll_panel.buttons.values())
    assert any(isinstance(a, UseSkill) and a.skill == "piloting" for a in offered)
    assert any(isinstance(a, AcceptRoll) for a in offered)
    button = next(b for b, a in scene.roll_panel.buttons.items() if isinstance(a, UseSkill))
    press(app, button)
    assert isinstance(session.actions[-1], UseSkill)
    roll = session.state.flight.roll
    assert roll is None or roll.kind != "burn"  # the lowest Fail, moved by Piloting 2 or 3: OK, settled
    frames(app, 3)


def test_after_a_boom_the_card_says_who_can_move_the_roll_and_what_it_becomes(field):
    """A Boom on the burn: the card names the crew's best rescue and its cost, each button names the derp,
    the skill and what the roll becomes; pressing one moves the rolled value and the dice card shows it."""
    app, session, scene = field()
    roll_to_burn(app, session, scene)
    boom = session.state.flight.roll.rating.boom
    session.dice.roll = lambda engine, state: Roll(boom)  # the lowest Boom
    key(app, pygame.K_SPACE)
    key(app, pygame.K_SPACE)
    frames(app, 2)
    panel = scene.roll_panel
    assert panel.pending(session.state) == "help"
    prompt = panel.help_prompt(session.state)
    assert prompt.startswith("Boom for now: ") and "can still make it OK" in prompt and "Engineering" in prompt
    spends = {b: a for b, a in panel.buttons.items() if isinstance(a, UseSkill)}
    assert spends and all(a.skill == "engineering" for a in spends.values())  # Piloting waits for a Fail
    button, action = next(iter(spends.items()))
    derp = session.state.derp(action.derp)
    moved_to = max(boom - derp.engineering, session.state.flight.roll.rating.fail)
    assert button.text.startswith(derp.name.split()[0] + ": ") and f"to {moved_to} (Fail)" in button.text
    press(app, button)
    frames(app, 2)
    roll = session.state.flight.roll
    assert roll.value == boom and roll.judged_value() == moved_to
    assert panel.show.dice.counted == moved_to and panel.show.dice.outcome == "fail"
    assert any(isinstance(a, UseSkill) and a.skill == "piloting" for a in panel.buttons.values())


def test_zoom_and_pan_keep_the_board_on_screen(field):
    app, session, scene = field()
    view, area = scene.board_view, scene.board_rect
    for _ in range(12):
        key(app, pygame.K_PLUS)
    for _ in range(40):
        key(app, pygame.K_RIGHT)
        key(app, pygame.K_DOWN)
    overlap = view.board_screen_rect().clip(area)
    assert overlap.w >= area.w // 4 and overlap.h >= area.h // 4
    for _ in range(30):
        frames(app, 1, [pygame.event.Event(pygame.MOUSEWHEEL, {"x": 0, "y": -1, "flipped": False})])
        key(app, pygame.K_MINUS)
    overlap = view.board_screen_rect().clip(area)
    assert overlap.w > 0 and overlap.h > 0
    key(app, pygame.K_f)
    assert area.contains(view.board_screen_rect().inflate(-4, -4))


def test_static_layer_is_cached_between_frames(field):
    app, session, scene = field()
    builds = scene.board_view.cache_builds
    frames(app, 10)
    assert scene.board_view.cache_builds == builds
    key(app, pygame.K_PLUS)
    assert scene.board_view.cache_builds == builds + 1


def test_marker_click_opens_its_card(field):
    app, session, scene = field()
    uid, pos = active_marker(scene)
    pos = (int(pos[0]), int(pos[1]))
    frames(app, 1, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": pos, "button": 1})])
    frames(app, 1, [pygame.event.Event(pygame.MOUSEBUTTONUP, {"pos": pos, "button": 1})])
    assert scene.selected == uid
    # the card shows the craft drawn as it flies, beside its words and inside the board
    rocket = scene.detail_rocket_rect
    assert scene.board_rect.contains(rocket) and rocket.h > 0


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)])
def test_nothing_crashes_at_small_and_4k_sizes(field, size):
    app, session, scene = field(size)
    assert app.stack.top is scene
    roll_to_burn(app, session, scene)
    key(app, pygame.K_SPACE)
    frames(app, 5)
    key(app, pygame.K_SPACE)
    frames(app, 60)
    assert app.stack.top.name != "error"
    assert app.running


def test_the_field_offers_a_trade_between_moves_and_opens_the_trade_scene(field):
    """Issue 13, 6c: trading is open while a craft takes its activities, so the Field offers it."""
    from game.client.whatgoesup.flightpanel import TRADE, TRADE_LABEL
    from game.client.whatgoesup.trade import TradeScene

    app, session, scene = field()
    trade = next(b for b, where in scene.flight_panel.nav.items() if where == TRADE)
    assert trade.text == TRADE_LABEL
    press(app, trade)
    top = app.stack.top
    assert isinstance(top, TradeScene) and top.program == session.state.upgoer(session.state.flight.active).owner
    top.amounts["give"]["points"] = 1
    assert session.refusal(top.offer()) is None
    press(app, top.buttons["propose"])
    assert session.state.pending_trade is not None and session.state.phase == "flight"


def test_shedding_and_recovering_parts_go_through_their_choosers(make_app, home):
    """Issue 13, 6h: the Field groups what a craft can throw overboard behind "Shed mass…"; a part shed beside
    another craft floats there, and "EVA: bring … aboard" fetches it back."""
    from game.core.session import GameSession
    from game.games.whatgoesup.rules.flight_actions import Recover, Shed
    from tests.test_flight_rules import pair_in_orbit

    state = pair_in_orbit(b=dict(mods=("capsule", "thruster", "eva_pack", "waylight")))[0]
    app = make_app((1280, 720))
    session = GameSession(shipped_engine(), state.setup, 7, states=(state,), saves_dir=home)
    scene = open_field(app, session)
    frames(app, 3)
    panel = scene.flight_panel
    assert not any(isinstance(a, Shed) for a in panel.buttons.values())  # behind one button
    press(app, next(b for b, where in panel.nav.items() if where and where[0] == "Shed"))
    panel = scene.flight_panel
    light = next(b for b, a in panel.buttons.items() if isinstance(a, Shed) and a.items
                 and session.state.thing(session.state.item(a.items[0]).thing_id).kind == "waylight")
    assert light.text.startswith("Throw out Waylight")
    press(app, light)
    assert isinstance(session.actions[-1], Shed)
    frames(app, 3)
    recover = next(b for b, a in scene.flight_panel.buttons.items() if isinstance(a, Recover))
    assert recover.text.startswith("EVA: bring Waylight") and recover.text.endswith("aboard")
    press(app, recover)
    assert isinstance(session.actions[-1], Recover) and session.waiting_for_dice


def test_a_craft_launched_as_two_separates_through_its_chooser(make_app, home):
    """Issue 13, 6e: "Separate…" lists the ways to split a craft carrying two capsules; choosing one splits it."""
    from game.core.session import GameSession
    from game.games.whatgoesup.rules.flight_actions import Separate
    from tests.test_fidelity_smaller import twin_in_orbit

    state = twin_in_orbit()[0]
    app = make_app((1280, 720))
    session = GameSession(shipped_engine(), state.setup, 7, states=(state,), saves_dir=home)
    scene = open_field(app, session)
    frames(app, 3)
    press(app, next(b for b, where in scene.flight_panel.nav.items() if where and where[0] == "Separate"))
    choices = {b.text: a for b, a in scene.flight_panel.buttons.items() if isinstance(a, Separate)}
    assert sorted(choices)[0].startswith("No crew: ") and len(choices) == 3
    press(app, next(b for b, a in scene.flight_panel.buttons.items() if a == choices[sorted(choices)[0]]))
    assert isinstance(session.actions[-1], Separate)
    assert any(u.name == "Twin 2" and u.docked_with for u in session.state.upgoers)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
def test_the_panel_says_where_the_craft_is_and_what_it_may_do_in_sentences(make_app, home, size):
    """'Low Orbit. Your go: act here, then move on.', not 'Low Orbit: before moving: act here, then move on':
    where the craft is, then what it may do, on at most the panel's two lines."""
    from game.client.kit.text import wrap_text
    from game.client.kit.style import font_px
    from game.client.whatgoesup.shipped import shipped_engine
    from game.tools.field_shots import demo_session, open_field

    app = make_app(size)
    scene = open_field(app, demo_session(shipped_engine(), saves_dir=home))
    app.step(1 / 30, [])
    state = scene.state
    line = scene.craft_doing(state, state.upgoer(state.flight.active))
    assert line == "Low Orbit. Your go: act here, then move on."
    assert line.count(":") <= 1
    inner_w = scene.panel_rect().inflate(-app.layout.px(28), 0).w
    assert len(wrap_text(line, font_px(app.layout.px(16)), inner_w)) <= 2


def test_a_crafts_card_names_the_kinds_of_its_parts_as_the_rules_write_them():
    """The card of a craft clicked on the board read 'Puffer RCS (rcs, mass 1)' (field_marker_card): the
    kind's name lowered whole. Letters said one by one stay capitals; the rest is lower case in a sentence."""
    from game.client.kit.words import in_sentence
    from game.client.whatgoesup.markers import upgoer_details
    from game.client.whatgoesup.shipped import shipped_engine

    engine = shipped_engine()
    state = build_demo_state(engine)
    texts = [text for _, text in upgoer_details(engine, state, state.flight.active)]
    assert "Puffer RCS (RCS, mass 1): Fail 12 / Boom 17 · 2 uses left" in texts
    assert "Kicker thruster (thruster, mass 1): Fail 11 / Boom 17" in texts
    assert [in_sentence(n) for n in ("Lower stage", "RCS", "EVA pack", "Probe / escape tower")] == [
        "lower stage", "RCS", "EVA pack", "probe / escape tower"]


def test_a_drags_hint_names_where_the_craft_goes_and_the_move_before_a_burn(field):
    """Dragged onto Polar Orbit, the hint read 'Burn: Polar plane change (2 fuel)' (field_drag shot): the
    junction's burn, not where the craft ends up, and not the move on to the junction the drop also makes."""
    app, session, scene = field()
    uid, pos = active_marker(scene)
    target = scene.board_view.step_screen("polar_1")
    app.step(1 / 30, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, {"pos": pos, "button": 1})])
    app.step(1 / 30, [pygame.event.Event(pygame.MOUSEMOTION, {"pos": target, "rel": (0, 0), "buttons": (1, 0, 0)})])
    assert scene.dragging == uid and scene.hover_step == "polar_1"
    from game.client.whatgoesup.flightpanel import burn_fuel_cost

    cost = burn_fuel_cost(session.engine, scene.target_states["polar_1"], uid)  # as the panel's button says it
    assert scene.drop_words("polar_1") == f"Move on, then burn to Polar Orbit: Polar plane change ({cost} fuel)"
    assert scene.drop_words("low_burn_2") == "Move on to Polar plane change"
