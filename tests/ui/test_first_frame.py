"""The title's first frame comes sooner without looking any different (``docs/performance.md``, start-up):
pygame_gui's queued looks wait until it is up, fonts are opened from their files, and the garbage collector
waits for it too."""
import gc

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.kit.style import queued_looks_held


def _bytes(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


def _first_frame(app, held: bool) -> bytes:
    app.start("title")
    if held:
        with queued_looks_held():
            app.step(1 / 30, [])
    else:
        app.step(1 / 30, [])
    return pygame.image.tobytes(app.surface, "RGB")


def test_the_first_frame_leaves_the_hovered_looks_to_the_next_frames_and_looks_the_same(make_app):
    eager = make_app((1920, 1080))
    eager_frame = _first_frame(eager, held=False)
    assert all(button.drawable_shape.states["hovered"].generated for button in eager.stack.top.buttons.values())
    eager_hovered = {key: _bytes(button.drawable_shape.states["hovered"].surface)
                     for key, button in eager.stack.top.buttons.items()}
    app = make_app((1920, 1080))
    assert _first_frame(app, held=True) == eager_frame
    buttons = app.stack.top.buttons
    assert not any(button.drawable_shape.states["hovered"].generated for button in buttons.values())
    assert all(button.drawable_shape.states_to_redraw_queue for button in buttons.values())
    app.step(1 / 30, [])  # held no more: each widget draws its next queued look, as pygame_gui does
    for key, button in buttons.items():
        assert button.drawable_shape.states["hovered"].generated, key
        assert _bytes(button.drawable_shape.states["hovered"].surface) == eager_hovered[key], key


def test_a_look_shown_while_held_is_drawn_at_once(make_app):
    app = make_app((1280, 720))
    app.start("title")
    shape = app.stack.top.buttons["new_game"].drawable_shape
    with queued_looks_held():
        shape.set_active_state("hovered")
        app.step(1 / 30, [])
        assert shape.states["hovered"].generated and shape.active_state.state_id == "hovered"
        assert "hovered" not in shape.states_to_redraw_queue


def test_fonts_are_opened_from_their_files_with_the_same_letters(make_app):
    app = make_app((1920, 1080))
    known = app.manager.get_theme().get_font_dictionary().known_font_paths
    files = [location for styles in known.values() for location, _ in styles]
    assert files and all(isinstance(location, str) and location.endswith(".ttf") for location in files)
    own = pygame_gui.UIManager(app.layout.size)  # pygame_gui's own way: each size read whole from the package
    own.get_theme().load_theme(_scaled_theme(app))
    looks = []
    for manager in (app.manager, own):
        button = pygame_gui.elements.UIButton(pygame.Rect(10, 10, 495, 72), "Rules reference", manager,
                                              object_id=ObjectID("#rules", "@menu_button"))
        looks.append(_bytes(button.drawable_shape.states["normal"].surface))
    assert looks[0] == looks[1]


def _scaled_theme(app):
    from game.client.kit.style import scaled_theme

    return scaled_theme(app.theme_data, app.layout.scale)


def test_the_client_starts_with_the_garbage_collector_waiting_for_the_first_frame(monkeypatch, make_app):
    import game.client.launch as launch
    from game.cli import run_client

    seen = []
    monkeypatch.setattr(launch, "run_app", lambda argv: seen.append(gc.isenabled()) or 0)
    assert run_client(["--windowed"]) == 0
    assert seen == [False] and gc.isenabled()
    app = make_app((1280, 720))
    gc.disable()
    try:
        app.after_first_frame()
        assert gc.isenabled()
    finally:
        gc.enable()


def test_big_widgets_alike_share_their_looks_and_each_is_what_it_would_draw(make_app):
    """At 3840x2160 the title's menu buttons are past the size pygame_gui keeps finished looks for: they share
    them (kit.style.keep_big_looks), and every button's look equals the one it draws anew at 4x."""
    from game.client.kit.style import BIG_LOOKS_KEPT, shared_looks

    app = make_app((3840, 2160))
    app.start("title")
    app.step(1 / 30, [])
    buttons = app.stack.top.buttons
    looks = shared_looks(buttons["new_game"].drawable_shape.shape_cache)
    assert looks and sum(4 * look.get_width() * look.get_height() for look in looks.values()) <= BIG_LOOKS_KEPT
    for key, button in buttons.items():
        shape = button.drawable_shape
        state = shape.active_state.state_id
        shared = _bytes(shape.states[state].surface)
        looks.clear()
        shape.redraw_state(state)  # nothing to share: drawn at 4x, as pygame_gui does
        assert _bytes(shape.states[state].surface) == shared, key


def test_the_stand_in_look_of_a_widget_changing_size_is_not_shared(make_app):
    app = make_app((3840, 2160))
    from game.client.kit.style import shared_looks

    button = pygame_gui.elements.UIButton(pygame.Rect(0, 0, 1200, 150), "Wide", app.manager)
    looks = shared_looks(button.drawable_shape.shape_cache)
    assert any(key.startswith("rounded_rectangle_1200_150_") for key in looks)
    button.set_dimensions((1300, 160))  # pygame_gui shows a plain stand-in until it rebuilds the shape
    assert not any(key.startswith("rounded_rectangle_1300_160_") for key in looks)


_TITLE_THEN_RULES = r"""
import sys
from game.client.launch import make_app
app = make_app(size=(1280, 720), fullscreen=False)
app.start("title")
app.step(1 / 30, [])
print("YAML AT THE FIRST FRAME", "yaml" in sys.modules, flush=True)
print("TITLE WORDS", sorted(button.text for button in app.stack.top.buttons.values()), flush=True)
engine = app.context.game().engine()  # the rules load: PyYAML is imported now
print("RULES", type(engine).__name__, "yaml" in sys.modules, flush=True)
"""


def test_the_title_is_drawn_before_pyyaml_is_imported_and_the_rules_still_load(tmp_path):
    """pygame_gui's first import leaves PyYAML for the rules (``kit/gui_import.yaml_left_for_the_rules``): the
    player's process draws the title without it, and the rules load it afterwards as ever."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    env = dict(os.environ, WHATGOESUP_HOME=str(tmp_path), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONPATH=str(repo))
    run = subprocess.run([sys.executable, "-c", _TITLE_THEN_RULES], cwd=repo, env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout.splitlines()
    assert "YAML AT THE FIRST FRAME False" in out
    assert any(line.startswith("TITLE WORDS [") and "'New game'" in line for line in out), out
    assert "RULES Engine True" in out, out


def test_a_pointer_resting_on_a_button_at_the_first_frame_sees_its_hovered_look_at_4k(make_app):
    """The window opens under the pointer: the first frame (its queued looks held) shows the button under it
    hovered, the same picture as a frame that held nothing, while the other buttons' hovered looks still wait."""
    from game.client.launch import wire_games

    looks = []
    for held in (False, True):
        app = make_app((3840, 2160))
        wire_games(app.context)  # New game enabled, as in a player's window
        app.start("title")
        button = app.stack.top.buttons["new_game"]
        pointer = pygame.event.Event(pygame.MOUSEMOTION, {"pos": button.rect.center, "rel": (1, 1),
                                                          "buttons": (0, 0, 0)})
        pygame.mouse.set_pos(button.rect.center)
        if held:
            with queued_looks_held():
                app.step(1 / 30, [pointer])
        else:
            app.step(1 / 30, [pointer])
        shape = button.drawable_shape
        assert shape.active_state.state_id == "hovered" and shape.states["hovered"].generated
        looks.append(_bytes(button.image))
        others = [b for key, b in app.stack.top.buttons.items() if key != "new_game"]
    assert looks[0] == looks[1]
    assert others and not any(b.drawable_shape.states["hovered"].generated for b in others)
