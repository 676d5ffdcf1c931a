"""The application shell: one window, one pygame_gui UIManager, a clock and a scene stack.

Every frame: each event goes to ``manager.process_events`` first, and only if pygame_gui did not
consume it does the top scene see it, then the app-wide shortcuts (F1/?, F11, Ctrl+Q).
Any exception inside the loop is logged to ``whatgoesup.log`` in the home folder and shown to the
player as an in-game error dialog, never as a raw traceback.
"""
from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Callable

import pygame
import pygame_gui

from game.client.kit import paths
from game.client.shell.scene import Scene, SceneStack
from game.client.shell.settings import Settings, load_settings, save_settings
from game.client.shell.sound import Sounds
from game.client.kit.style import Layout, font_px, load_theme_file, scaled_theme

log = logging.getLogger("whatgoesup")

Hook = Callable[[], None] | None


def setup_logging(home: Path) -> Path:
    """Send the ``whatgoesup`` logger to ``home/whatgoesup.log`` (or the temp folder if home is unwritable)."""
    for handler in list(log.handlers):
        if getattr(handler, "_whatgoesup", False):
            log.removeHandler(handler)
            handler.close()
    target = paths.log_path(home)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(target, encoding="utf-8")
    except OSError:
        target = Path(tempfile.gettempdir()) / "whatgoesup.log"
        handler = logging.FileHandler(target, encoding="utf-8")
    handler._whatgoesup = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    return target


class AppContext:
    """What scenes are given: the manager, layout, settings, sounds, the stack and the game hooks.

    ``on_new_game``, ``on_continue``, ``on_load`` and ``on_tutorial`` are wired by the game layer; a hook
    left as None disables its title-screen button.
    """

    def __init__(self, app: "App") -> None:
        self.app = app
        self.on_new_game: Hook = None
        self.on_continue: Hook = None
        self.on_load: Hook = None
        self.on_tutorial: Hook = None
        self.notices: list[str] = []

    # Read-through properties so scenes always see the current values.
    @property
    def manager(self) -> pygame_gui.UIManager:
        return self.app.manager

    @property
    def layout(self) -> Layout:
        return self.app.layout

    @property
    def settings(self) -> Settings:
        return self.app.settings

    @property
    def stack(self) -> SceneStack:
        return self.app.stack

    @property
    def sounds(self) -> Sounds:
        return self.app.sounds

    @property
    def log_path(self) -> Path:
        return self.app.log_path

    def make(self, name: str, **kwargs) -> Scene:
        """Build a registered scene by name, handing it this context."""
        return self.app.scene_types[name](self, **kwargs)

    def open(self, name: str, **kwargs) -> Scene:
        return self.stack.push(self.make(name, **kwargs))

    def back(self) -> None:
        self.stack.pop()

    def quit(self) -> None:
        self.app.running = False

    def update_settings(self, settings: Settings) -> str:
        """Save and apply new settings; returns a short status line for the player."""
        return self.app.apply_settings(settings)

    def toggle_rules(self) -> None:
        """F2: the rules reference over whatever is on screen (the game's own rules when a game is on)."""
        if self.stack.top is not None and self.stack.top.name == "rules_reference":
            self.stack.pop()
            return
        rules = None
        for scene in reversed(list(self.stack)):
            flow = getattr(scene, "flow", None)
            if flow is not None:
                rules = flow.session.engine.rules
                break
        self.open("rules_reference", rules=rules)

    def toggle_help(self) -> None:
        if self.stack.top is not None and self.stack.top.name == "help":
            self.stack.pop()
        else:
            self.open("help")


class SceneRegistry(dict):
    """Scene name -> scene class, registered by hand as ``module:Class`` and imported on first use.

    Importing a scene module can pull in the rules engine and its tables; doing that only when the
    scene is first opened keeps the title's first frame quick.
    """

    def __missing__(self, name: str) -> Callable[..., Scene]:
        where = SCENES.get(name)
        if where is None:
            raise KeyError(name)
        module, attr = where.split(":")
        import importlib

        found = getattr(importlib.import_module(module, __package__), attr)
        self[name] = found
        return found


#: Every scene the app can open by name; the game flow opens the rest itself, with their flow.
SCENES = {
    "title": "game.client.scenes.title:TitleScene",
    "settings": "game.client.scenes.settings_scene:SettingsScene",
    "help": "game.client.scenes.overlays:HelpOverlay",
    "error": "game.client.scenes.overlays:ErrorDialog",
    "dice": "game.client.scenes.dice:DiceRollScene",
    "new_game": "game.client.whatgoesup.new_game:NewGameScene",
    "load_game": "game.client.scenes.saveload:LoadScene",
    "rules_reference": "game.client.whatgoesup.rules_reference:RulesReferenceScene",
}


def _scene_types() -> SceneRegistry:
    return SceneRegistry()


class App:
    """The window and its loop. ``step`` runs one frame, so tests and screenshots can drive it."""

    FPS = 60
    GIVE_UP_AFTER = 3  # errors within GIVE_UP_WINDOW seconds
    GIVE_UP_WINDOW = 5.0

    def __init__(self, home: Path | None = None, size: tuple[int, int] | None = None,
                 fullscreen: bool | None = None) -> None:
        self.home = home or paths.home_dir()
        self.log_path = setup_logging(self.home)
        self.settings_path = paths.settings_path(self.home)
        self.settings, notice = load_settings(self.settings_path)
        pygame.display.init()
        pygame.font.init()
        font_px.cache_clear()  # fonts from an earlier pygame session are dead
        self.sounds = Sounds(self.settings.volume)
        want_fullscreen = self.settings.fullscreen if fullscreen is None else fullscreen
        self.surface = self._open_window(size or self.settings.window_size, want_fullscreen)
        pygame.display.set_caption("What Goes Up")
        self.layout = Layout(*self.surface.get_size(), self.settings.ui_scale)
        self.theme_data = load_theme_file(paths.THEME_PATH)
        self.manager = pygame_gui.UIManager(self.layout.size)  # the theme is loaded once, scaled, just below
        self._apply_theme_scale()
        self.clock = pygame.time.Clock()
        self.stack = SceneStack()
        self.context = AppContext(self)
        self.scene_types = _scene_types()
        if notice:
            self.context.notices.append(notice)
            log.warning("settings: %s", notice)
        self.running = True
        self.exit_code = 0
        self._recent_errors: list[float] = []
        #: Guides drawn over everything (the tutorial's spotlight): objects with handle_event(event) -> bool,
        #: update(dt) and draw(surface). They see events first but take only their own clicks.
        self.layers: list = []

    # ------------------------------------------------------------------ window and layout
    def _open_window(self, size: tuple[int, int], fullscreen: bool) -> pygame.Surface:
        if fullscreen:
            return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        return pygame.display.set_mode(size, pygame.RESIZABLE)

    def _apply_theme_scale(self) -> None:
        self.manager.get_theme().load_theme(scaled_theme(self.theme_data, self.layout.scale))

    def relayout(self) -> None:
        """Re-read the window size and rebuild fonts and widgets for it."""
        self.surface = pygame.display.get_surface()
        self.layout = Layout(*self.surface.get_size(), self.settings.ui_scale)
        self.manager.set_window_resolution(self.layout.size)
        self._apply_theme_scale()
        self.stack.relayout()

    def apply_settings(self, settings: Settings) -> str:
        old = self.settings
        self.settings = settings
        self.sounds.set_volume(settings.volume)
        if (old.window_size, old.fullscreen) != (settings.window_size, settings.fullscreen):
            self.surface = self._open_window(settings.window_size, settings.fullscreen)
        if (old.window_size, old.fullscreen, old.ui_scale) != (settings.window_size, settings.fullscreen,
                                                                settings.ui_scale):
            self.relayout()
        try:
            save_settings(settings, self.settings_path)
        except OSError as exc:
            log.warning("could not save settings: %s", exc)
            return f"Could not save settings ({exc.strerror}); they apply until you quit."
        return "Saved."

    # ------------------------------------------------------------------ frame
    def start(self, scene: str = "title", **kwargs) -> Scene:
        self.stack.clear()
        return self.stack.push(self.context.make(scene, **kwargs))

    def dispatch(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            if pygame.display.get_surface().get_size() != self.layout.size:
                self.relayout()
            return
        if any(layer.handle_event(event) for layer in list(self.layers)):
            return
        if self.manager.process_events(event):
            return
        if self.stack.handle_event(event):
            return
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_F1 or getattr(event, "unicode", "") == "?":
                self.context.toggle_help()
            elif event.key == pygame.K_F2:
                self.context.toggle_rules()
            elif event.key == pygame.K_F11:
                s = self.settings
                self.apply_settings(Settings(s.window_size, not s.fullscreen, s.ui_scale, s.animation_speed,
                                             s.volume))
            elif event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
                self.running = False

    def render(self) -> None:
        self.stack.draw(self.surface)
        self.manager.draw_ui(self.surface)
        for layer in self.layers:
            layer.draw(self.surface)

    def step(self, dt: float, events: list[pygame.event.Event] | None = None) -> None:
        """One frame: events, updates, drawing. Exceptions become the error dialog."""
        try:
            for event in (pygame.event.get() if events is None else events):
                self.dispatch(event)
                if not self.running:
                    return
            self.stack.update(dt)
            for layer in list(self.layers):
                layer.update(dt)
            self.manager.update(dt)
            self.render()
        except Exception as exc:  # noqa: BLE001 - the whole point: nothing reaches the player raw
            self.report_error(exc)

    def report_error(self, exc: BaseException) -> None:
        top = self.stack.top
        where = top.name if top is not None else "start-up"
        frames = traceback.extract_tb(exc.__traceback__)
        if frames:
            last = frames[-1]
            where = f"{where} scene, {Path(last.filename).name}:{last.lineno} in {last.name}"
        log.error("unexpected error in %s", where, exc_info=exc)
        now = time.monotonic()
        self._recent_errors = [t for t in self._recent_errors if now - t < self.GIVE_UP_WINDOW] + [now]
        if (top is not None and top.name == "error") or len(self._recent_errors) >= self.GIVE_UP_AFTER:
            self._give_up()
            return
        try:
            self.stack.push(self.context.make("error", what=f"{type(exc).__name__}: {exc}", where=where))
        except Exception:  # noqa: BLE001
            log.exception("the error dialog itself failed")
            self._give_up()

    def _give_up(self) -> None:
        print(f"What Goes Up hit a problem it could not recover from. Details are in {self.log_path}",
              file=sys.stderr)
        self.running = False
        self.exit_code = 1

    def run(self) -> int:
        first = True
        while self.running:
            dt = self.clock.tick(self.FPS) / 1000.0
            self.step(min(dt, 0.1))
            pygame.display.flip()
            if first:  # after the first frame is up: start the mixer and make the sounds
                first = False
                self.sounds.warm()
        self.stack.clear()
        return self.exit_code


def run_app(argv: list[str], setup: Callable[[AppContext], None] | None = None) -> int:
    """Open the window on the title screen and run until the player quits; returns the exit code.

    ``setup`` receives the context before the title opens: that is where the game layer wires
    ``on_new_game`` / ``on_continue`` / ``on_load``.
    """
    parser = argparse.ArgumentParser(prog="whatgoesup", description="What Goes Up: race your tiny people to the Moon.")
    parser.add_argument("--size", help="window size, e.g. 1600x900")
    parser.add_argument("--windowed", action="store_true", help="ignore the fullscreen setting")
    args = parser.parse_args(argv)
    size = None
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
            size = (max(640, w), max(360, h))
        except ValueError:
            parser.error(f"--size must look like 1600x900, not {args.size!r}")
    try:
        app = App(size=size, fullscreen=False if args.windowed else None)
    except Exception:  # noqa: BLE001
        log.exception("could not start")
        print(f"What Goes Up could not open its window. Details are in {paths.log_path()}", file=sys.stderr)
        return 1
    try:
        if setup is None:
            from game.client.whatgoesup.game_flow import wire as setup  # New game, Continue and Load on the title
        setup(app.context)
        app.start("title")
    except Exception as exc:  # noqa: BLE001
        app.report_error(exc)
    code = app.run()
    pygame.quit()
    return code


if __name__ == "__main__":
    raise SystemExit(run_app(sys.argv[1:]))
