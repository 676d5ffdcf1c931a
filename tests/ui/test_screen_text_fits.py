"""Every button and label of the screens a newcomer meets shows its whole text, at the three window sizes
the game is looked at in (a projector's 1280x720 up to 4K)."""

import pygame_gui
import pytest

from ui_sizes import SIZES


def clipped_texts(app) -> list[tuple[str, tuple[int, int], tuple[int, int]]]:
    """Visible pygame_gui buttons and labels whose text is wider or taller than their rectangle."""
    problems = []
    for element in app.manager.get_sprite_group().sprites():
        if isinstance(element, (pygame_gui.elements.UIButton, pygame_gui.elements.UILabel)) and element.visible:
            if not element.text or element.font is None:
                continue
            width, height = element.font.size(element.text)
            if width > element.rect.width - 4 or height > element.rect.height:
                problems.append((element.text, (width, height), element.rect.size))
    return problems


@pytest.mark.parametrize("size", SIZES)
def test_rules_reference_section_buttons_show_their_whole_title(make_app, size):
    app = make_app(size=size)
    app.start("title")
    scene = app.context.open("rules_reference")
    app.step(0.016, [])
    titles = [s.title for s in scene.sections]
    assert "Underped craft" in titles  # the optional rule's section, named as New game's button names it
    assert clipped_texts(app) == []


@pytest.mark.parametrize("size", SIZES)
def test_zoom_buttons_never_sit_on_a_roll_card_opened_with_the_field(make_app, size):
    """A roll already rolled when the Field opens (a loaded game, the tutorial's lessons) draws its card with no
    animation of the Field's own; the zoom buttons hid only under an animated card and covered its 'Fail!'."""
    import pygame

    from game.tools.field_shots import _shot_field, _to_rolled_boom, open_field

    app = make_app(size=size)
    scene = _shot_field(app)
    _to_rolled_boom(app, scene)
    reopened = open_field(app, scene.session)
    for _ in range(3):
        app.step(1 / 30, [])
    state = reopened.session.state
    assert reopened.roll_panel.visible(state)
    card = reopened.roll_panel.card_rect(state)
    shown = [pygame.Rect(b.rect) for b in reopened.zoom_buttons if b.visible]
    assert not any(card.colliderect(rect) for rect in shown)


@pytest.mark.parametrize("size", SIZES)
def test_new_game_shows_every_word_and_each_drop_downs_arrow(make_app, size):
    """The drop-downs' arrow button grows with the window (at 4K a 20-pixel button showed a speck of its arrow) and
    is drawn in a font that has the arrow (Noto Sans has none: it was a missing-glyph box)."""
    from game.client.whatgoesup.entry import wire

    app = make_app(size=size)
    wire(app.context)
    app.start("title")
    scene = app.context.open("new_game")
    app.step(0.016, [])
    arrows = [b for b in app.manager.get_sprite_group().sprites()
              if isinstance(b, pygame_gui.elements.UIButton) and b.text in ("▼", "▲") and b.visible]
    assert arrows, scene
    assert app.theme_data["drop_down_menu.#expand_button"]["font"]["name"] == "fira_code_symbols"  # has the arrow
    for arrow in arrows:  # the arrow is drawn as large as the window's other words, not at a fixed 14 pixels
        assert arrow.font.size(arrow.text)[1] >= 0.4 * arrow.rect.h
    assert clipped_texts(app) == []


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_fails_choices_are_read_whole_on_the_roll_card(make_app, size, monkeypatch):
    """The tutorial's 'choose what it costs' lesson: the card says the whole choice (wrapped), not 'lose 1 derp-turn(…'."""
    from game.client.kit import text as kit_text
    from game.tools.tutorial_shots import TUTORIAL_SHOTS

    app = make_app(size=size)
    dict(TUTORIAL_SHOTS)["tutorial_fail_choice"](app)
    field = next(s for s in app.stack if s.name == "field")
    accept = field.roll_panel.accept_text(field.session.state)
    assert accept.startswith("If you accept this Fail, you choose to ") and ":" not in accept
    drawn: list[str] = []
    real = kit_text.draw_text
    monkeypatch.setattr(kit_text, "draw_text", lambda surface, line, *a, **k: (drawn.append(line),
                                                                                 real(surface, line, *a, **k))[1])
    field.repaint()  # a settled card is painted once and then copied: paint it again for the recorder
    app.step(1 / 30, [])
    start = next(i for i, line in enumerate(drawn) if line.startswith("If you accept"))
    shown = " ".join(drawn[start:start + len(drawn)])
    assert accept in shown


def test_counts_read_as_words_not_with_a_bracketed_plural():
    """'lose 1 derp-turn(s) of rations', 'pays 1 point(s)', '7 save(s)': counted properly instead."""
    from game.client.whatgoesup import glossary
    from game.client.whatgoesup.explain import consequence_sentence
    from game.client.whatgoesup.game_flow import shipped_engine

    rules = shipped_engine().rules
    choice = consequence_sentence(rules, "duration_capsule", "fail")
    assert "1 derp-turn of rations" in choice and "(s)" not in choice
    assert "(s)" not in glossary.explain("dots", rules) and "(s)" not in glossary.explain("programming", rules)


def test_the_story_names_built_parts_without_their_ids():
    """The engine's build line carries the new items' ids ('builds 1 x Big Hopper (I8)'); the story shows the names."""
    from game.client.kit.text import without_ids
    from game.client.scenes.logview import log_html
    from game.tools.flow_shots import scripted_session

    import tempfile
    from pathlib import Path

    session = scripted_session(Path(tempfile.mkdtemp()) / "saves")
    built = [e.event.text for e in session.log if " builds " in e.event.text]
    assert built and "(I" in built[0]  # the engine's words, as saved
    story = log_html(session.log, session.state.programs)
    assert without_ids(built[0]).rstrip(".") in story and "(I" not in story
    assert without_ids("Cleo builds 2 x Pod (I3, I4) for 4 points.") == "Cleo builds 2 x Pod for 4 points."


def test_the_endings_firsts_count_their_dots():
    """A first on its winner's own card says what was won and its dots, not 'First - multi-turn mission: Ayla is
    first! (...)' (victory_screen shot, 1280x720)."""
    from game.client.whatgoesup.story_words import first_won

    line = "First - multi-turn mission: Ayla is first! (Frog-1 stays up over a turn) +2 dot(s) at the end of the turn."
    assert first_won(line) == "Multi-turn mission: Frog-1 stays up over a turn (+2 dots)"
    assert first_won(line.replace("+2", "+1")).endswith("(+1 dot)")
    told = ("Prestige First - mission step: Hop Agency is first by an underped craft! (Rock Transit) +1 dot at the "
            "end of the turn.")
    assert first_won(told) == "Mission step: Rock Transit, by an underped craft (+1 dot)"
    assert first_won("Hop Agency hires Clover.") == "Hop Agency hires Clover."  # any other line as the story tells it


@pytest.mark.parametrize("size", SIZES)
def test_the_roll_cards_help_line_wraps_instead_of_shrinking(make_app, size, monkeypatch):
    """'Boom for now: 3 stamina points can still make it OK (Pip's Engineering, then ...)' shrank to ~12 px at
    1280x720; it is read whole, every rescue named, at a readable size (two lines when one is too short)."""
    from game.client.kit import style
    from game.client.whatgoesup import rollpanel
    from game.tools.field_shots import _shot_field, _to_rolled_boom

    app = make_app(size=size)
    scene = _shot_field(app)
    _to_rolled_boom(app, scene)
    prompt = scene.roll_panel.help_prompt(scene.session.state)
    assert prompt.startswith("Boom for now:") and "Engineering" in prompt
    drawn: list[tuple[str, int]] = []
    real = rollpanel.draw_text
    monkeypatch.setattr(rollpanel, "draw_text", lambda surface, line, font, *a, **k: (
        drawn.append((line, font.get_height())), real(surface, line, font, *a, **k))[1])
    scene.repaint()  # a settled card is painted once and then copied: paint it again for the recorder
    app.step(1 / 30, [])
    words = [(line, h) for line, h in drawn if line and line in prompt]
    assert " ".join(line for line, _ in words) == prompt  # the whole list of rescues
    readable = style.font_px(scene.context.layout.px(16), True).get_height()
    assert all(h >= readable for _, h in words)


@pytest.mark.parametrize("size", SIZES)
def test_the_trade_lists_reach_down_to_the_buttons_and_key_the_derps_numbers(make_app, size, monkeypatch):
    """The part lists stopped ~100 px above Back and showed a half row; 'Derp: Tuber 0/0/2' had no key."""
    from game.client.whatgoesup import trade
    from game.tools.flow_shots import shot_trade

    app = make_app(size=size)
    shot_trade(app)
    scene = app.stack.top
    layout = scene.context.layout
    top, height = scene.list_area()
    assert (height + 4) % trade.ROW == 0  # whole rows only
    lists_bottom = layout.rect(0, top, 10, height).bottom
    back = scene.buttons["back"].rect
    assert 0 < back.top - lists_bottom <= layout.px(40)
    assert any(key.startswith("pick:give:derp:") or key.startswith("pick:take:derp:") for key in scene.buttons)
    drawn: list[str] = []
    real = trade.draw_text
    monkeypatch.setattr(trade, "draw_text", lambda surface, text, *a, **k: (drawn.append(text),
                                                                            real(surface, text, *a, **k))[1])
    scene.still.forget()  # the trade screen paints its words once per change: have them painted again
    app.step(1 / 30, [])
    assert trade.DERP_KEY in drawn and trade.DERP_KEY == "Derps: Piloting/Engineering/Stamina"
    assert clipped_texts(app) == []


@pytest.mark.parametrize("size", SIZES)
def test_a_damaged_saves_line_says_it_in_a_players_words(make_app, size, monkeypatch):
    """'... (JSON: Unterminated string starting at)' ended the broken save's line; now the player reads that
    the save is damaged and can't be read, and the parser's words sit apart, dim, on the next line."""
    from game.client.scenes import saveload
    from game.tools.flow_shots import shot_load_corrupt

    app = make_app(size=size)
    shot_load_corrupt(app)
    scene = app.stack.top
    broken = next(info for info in scene.infos if not info.ok)
    assert broken.error == "the save is damaged or cut short, so it can't be read"
    assert broken.detail.startswith("JSON line 1, column ") and "Unterminated string" in broken.detail
    drawn: list[str] = []
    for name in ("draw_wrapped", "draw_text"):
        real = getattr(saveload, name)
        monkeypatch.setattr(saveload, name, lambda surface, text, *a, real=real, **k: (
            drawn.append(text), real(surface, text, *a, **k))[1])
    app.step(1 / 30, [])
    assert f"Cannot be loaded: {broken.error}" in drawn
    assert not any("JSON" in text for text in drawn if text.startswith("Cannot be loaded"))
    assert f"({broken.detail})" in drawn  # whole, at the end of the row, dim


@pytest.mark.parametrize("size", SIZES)
def test_every_keyboard_help_line_is_drawn_at_one_size(make_app, size, monkeypatch):
    """The F2 and Field-keys lines shrank below the others ('... / End the go': the Field's button says Done)."""
    from game.client.scenes import overlays
    from game.tools.shots import shot_help

    app = make_app(size=size)
    shot_help(app)
    scene = app.stack.top
    described = {what for _, what in scene.shortcuts()}
    assert "On the Field: Launch, Move on, Coast, Done" in described
    heights: dict[str, int] = {}
    real = overlays.draw_text
    monkeypatch.setattr(overlays, "draw_text", lambda surface, text, font, *a, **k: (
        heights.__setitem__(text, font.get_height()) if text in described else None,
        real(surface, text, font, *a, **k))[1])
    scene.draw(app.surface)
    assert set(heights) == described and len(set(heights.values())) == 1


def test_the_engines_story_counts_its_nouns():
    """The engine wrote '1 derp(s) aboard', 'container(s)', 'for 1 points'; it counts with game.core.words now
    (the client's kit.words is the same function), and the banners still read its firsts."""
    from pathlib import Path

    from game.client.kit.words import counted as client_counted
    from game.client.whatgoesup.effects import first_banner
    from game.core.words import counted
    from game.games.whatgoesup.rules.actions import BuyConsumables
    from game.games.whatgoesup.rules.flight.ship_combat import ShipFire

    assert client_counted is counted
    assert str(ShipFire("missile", 1)) == "fire 1 missile" and str(ShipFire("laser", 2)) == "fire 2 lasers"
    assert str(BuyConsumables("fuel", 1)) == "buy 1 fuel container"
    story = (Path(__file__).resolve().parents[1] / "golden" / "rnd_game.txt").read_text("utf-8")
    assert "for 1 point." in story and "0 derps aboard" in story
    assert "(s)" not in story and " 1 points" not in story
    line = "Prestige First - mission step: Spudnik is first! (Orbital Insertion) +1 dot at the end of the turn."
    assert first_banner(line) == "Spudnik is first! Mission step: Orbital Insertion (+1 dot)"


def test_firsts_won_in_play_read_plainly_in_the_turn_report_and_the_ending(home):
    """Ayla's craft moves on into Synchronous Orbit, where nobody has been (a real move of the demo game): her
    report and her story at the end list the two firsts by what was won, with their dots."""
    from game.client.whatgoesup.ending import game_story
    from game.client.whatgoesup.report import turn_report
    from game.client.whatgoesup.shipped import shipped_engine
    from game.core.session import GameSession
    from game.games.whatgoesup.rules.actions import Roll
    from game.games.whatgoesup.rules.flight_actions import Burn, Move
    from game.tools.field_shots import build_demo_state

    engine = shipped_engine()
    state = build_demo_state(engine)
    session = GameSession(engine, state.setup, 7, states=(state,), saves_dir=home)
    session.dice.roll = lambda engine, state: Roll(3)  # Bram's craft heads home on forced rolls first
    session.apply(Move(state.flight.active))
    session.apply(Burn("reentry"))
    for _ in range(3):
        session.roll()
    session.apply(Move(session.state.flight.active))
    wanted = ["Mission step: Synchronous Orbit (+1 dot)", "Orbit type: Synchronous orbit (+1 dot)"]
    assert turn_report(session.state, session.log, 3)[0].firsts == wanted
    assert game_story(engine, session.state, session.log)[0].firsts == wanted
