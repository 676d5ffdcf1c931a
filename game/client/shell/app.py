"""The application shell: one window, one pygame_gui UIManager, a clock and a scene stack.

Every frame: each event goes to ``manager.process_events`` first, and only if pygame_gui did not
consume it does the top scene see it, then the app-wide shortcuts (F1/?, F11, Ctrl+Q).
Any exception inside the loop is logged to ``whatgoesup.log`` in the home folder and shown to the
player as an in-game error dialog, never as a raw traceback.
"""
from __future__ import annotations

import gc
import logging
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Optional

import pygame

from game.client.kit.gui_import import yaml_left_for_the_rules

with yaml_left_for_the_rules():  # the player's path imports pygame_gui here first
    import pygame_gui

from game.client.kit import paths
from game.client.kit.backdrop import forget_layers
from game.client.kit.kept_fonts import let_pygame_gui_keep_words, stop_recording_words
from game.client.kit.kept_looks import KeptLooks
from game.client.shell.kept_widgets import WidgetBlit, changed_widget_rects, draw_widgets_within, widget_blits
from game.client.shell.scene import Scene, SceneStack
from game.client.shell.settings import Settings, fit_window, load_settings, save_settings
from game.client.shell.sound import Sounds
from game.client.kit.style import (Layout, draw_rare_shape_states_when_shown, drop_shape_scratch_after_each_state,
                                   forget_fonts, keep_big_looks, key_theming_ids_by_tuple, load_theme_file,
                                   queued_looks_held, read_fonts_from_their_files, scaled_theme)

log = logging.getLogger("whatgoesup")

Hook = Callable[[], None] | None


@dataclass(frozen=True)
class GameEntry:
    """A game the client hosts, as the shared scenes see it (registered by the game's own client package).

    ``engine()`` gives the engine for its shipped rules (it loads them on first use); ``start(context,
    session)`` plays a session of it and returns the game's flow. ``reference`` names the registered scene of
    its rules reference (opened with ``rules=`` and ``section=``); ``turn_word`` is what the game calls a turn
    ("Round" in Cosmoforce). Its saves live in ``saves_subfolder`` of the saves folder ("" for the folder
    itself); ``save_words(state)`` says in a line where a saved game stands (the Load screen's rows) and
    ``save_name(state)`` is a save's suggested name. ``wire(context)`` (again) puts the title's hooks for it
    in place (Continue only with a save); it must stay light, since the title's first frame runs it and needs
    neither the engine nor the game's flow. ``story_labels`` names, for the story's legend, the kinds of story
    line the game writes (kind -> words); ``shortcuts`` are the keys only this game has, for the help card
    (keys, what they do).
    """

    id: str
    title: str
    engine: Callable[[], Any]
    start: Callable[["AppContext", Any], Any]
    reference: str = ""
    turn_word: str = "Turn"
    saves_subfolder: str = ""
    save_words: Callable[[Any], str] = lambda state: ""
    save_name: Callable[[Any], str] = lambda state: "save"
    wire: Callable[["AppContext"], None] = lambda context: None
    story_labels: Mapping[str, str] = field(default_factory=dict)
    shortcuts: tuple[tuple[tuple[str, ...], str], ...] = ()


#: glibc's mallopt() option that sets the size from which an allocation is mapped on its own.
_M_MMAP_THRESHOLD = -3
BIG_ALLOCATION = 2 * 1024 * 1024


def give_back_big_allocations() -> bool:
    """On Linux with glibc: map every allocation of ``BIG_ALLOCATION`` or more on its own, so that it goes back
    to the system when freed. Left alone, glibc raises that threshold after the first big free (up to 32 MiB),
    and from then on the many surface-sized scratch surfaces of pygame and pygame_gui come from the heap,
    which keeps what they leave between its live blocks: the title then R&D at 3840x2160 peaked at 371 MiB,
    335 MiB with this set after the title's first frame (frame times unchanged). True when the setting took;
    elsewhere nothing changes."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        return bool(ctypes.CDLL(None).mallopt(_M_MMAP_THRESHOLD, BIG_ALLOCATION))
    except (OSError, AttributeError):  # not glibc (musl has no such option): keep its own policy
        return False


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
        #: Whether the title's Tutorial button should read "Resume tutorial" (wired by the game layer).
        self.tutorial_resumable: Optional[Callable[[], bool]] = None
        self.games: dict[str, GameEntry] = {}
        #: The title's hooks for the hosted games after the first (whose hooks are the on_* above), by game id:
        #: "new_game", "continue", "load", "tutorial" (callables, or None for a disabled button) and the words
        #: "tagline" and "credit". The title's game chooser reads them.
        self.game_hooks: dict[str, dict[str, Any]] = {}
        #: The game chosen on the title (None: the first hosted game).
        self.chosen_game: Optional[str] = None
        self.notices: list[str] = []

    def register_game(self, entry: GameEntry) -> None:
        """Host ``entry``: the shared scenes (load, continue) reach the game only through it."""
        self.games[entry.id] = entry

    def game(self, game_id: Optional[str] = None) -> GameEntry:
        """The hosted game ``game_id`` (default: the first registered); KeyError names what is hosted."""
        if not self.games:
            raise KeyError("no game is registered with the client")
        if game_id is None:
            return next(iter(self.games.values()))
        if game_id not in self.games:
            raise KeyError(f"unknown game {game_id!r} (hosted: {', '.join(self.games)})")
        return self.games[game_id]

    def start_game(self, session, game_id: Optional[str] = None):
        """Leave whatever is on screen and play ``session``; returns the game's flow."""
        return self.game(game_id).start(self, session)

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

    def shown_path(self, path: Path) -> str:
        """``path`` in the words a player finds it by (``App.shown_path``)."""
        return self.app.shown_path(path)

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

    def game_on_screen(self) -> tuple[Optional[str], Any]:
        """The game being played under the top of the stack and its rules, or the title's chosen game and None."""
        for scene in reversed(list(self.stack)):
            flow = getattr(scene, "flow", None)
            if flow is not None:
                engine = flow.session.engine
                return engine.game_id, engine.rules
        return self.chosen_game if self.chosen_game in self.games else None, None

    def open_reference(self, game_id: Optional[str] = None, rules: Any = None, section: str = "") -> Optional[Scene]:
        """Open ``game_id``'s rules reference (default: the game on screen) at ``section`` (default: its first);
        None when that game has none."""
        if game_id is None:
            game_id, on_screen = self.game_on_screen()
            rules = rules if rules is not None else on_screen
        entry = self.game(game_id)
        if not entry.reference:
            return None
        kwargs: dict[str, Any] = {"rules": rules}
        if section:
            kwargs["section"] = section
        return self.open(entry.reference, **kwargs)

    def toggle_rules(self) -> None:
        """F2: the rules reference over whatever is on screen (the game's own rules when a game is on)."""
        if self.stack.top is not None and self.stack.top.name == "rules_reference":
            self.stack.pop()
            return
        self.open_reference()

    def toggle_help(self) -> None:
        if self.stack.top is not None and self.stack.top.name == "help":
            self.stack.pop()
        else:
            self.open("help")


class SceneRegistry(dict):
    """Scene name -> scene class, given as ``"module:Class"`` and imported on first use.

    The table comes from the top of the client (``game.client.launch``), so the shell names no scene.
    Importing a scene module can pull in a rules engine and its tables; doing that only when the scene is
    first opened keeps the title's first frame quick.
    """

    def __init__(self, table: Mapping[str, str]) -> None:
        super().__init__()
        self.table = dict(table)

    def __missing__(self, name: str) -> Callable[..., Scene]:
        where = self.table.get(name)
        if where is None:
            raise KeyError(name)
        module, attr = where.split(":")
        import importlib

        found = getattr(importlib.import_module(module), attr)
        self[name] = found
        return found


class App:
    """The window and its loop. ``step`` runs one frame, so tests and screenshots can drive it."""

    FPS = 60
    #: Frames a second while the window is minimised: nothing is drawn, the app only keeps up with events.
    HIDDEN_FPS = 5
    GIVE_UP_AFTER = 3  # errors within GIVE_UP_WINDOW seconds
    GIVE_UP_WINDOW = 5.0

    def __init__(self, scenes: Mapping[str, str], home: Path | None = None, size: tuple[int, int] | None = None,
                 fullscreen: bool | None = None, shown_home: Path | None = None) -> None:
        """``scenes`` maps the names scenes are opened by to ``"module:Class"`` (see ``game.client.launch``).
        ``shown_home`` is the folder the player is told about for a file in ``home`` (default ``home``
        itself; the shots tool's app keeps its files in a temporary folder and names the player's)."""
        self.home = home or paths.home_dir()
        self.shown_home = shown_home or self.home
        self.log_path = setup_logging(self.home)
        self.settings_path = paths.settings_path(self.home)
        first_start = not self.settings_path.exists()
        self.settings, notice = load_settings(self.settings_path)
        pygame.display.init()
        pygame.font.init()
        forget_fonts()  # fonts from an earlier pygame session are dead
        forget_layers()  # and the backdrops' layers were made for its window
        self.sounds = Sounds(self.settings.volume, self.settings.music)
        want_fullscreen = self.settings.fullscreen if fullscreen is None else fullscreen
        if size is None:  # no size asked for: the saved one, kept on this screen, or most of it the first time
            size = fit_window(None if first_start else self.settings.window_size, self.desktop_size())
        self.surface = self._open_window(size, want_fullscreen)
        pygame.display.set_caption("What Goes Up")
        self.layout = Layout(*self.surface.get_size(), self.settings.ui_scale)
        self.theme_data = load_theme_file(paths.THEME_PATH)
        drop_shape_scratch_after_each_state()  # the largest part of a 4K scene's peak memory otherwise
        draw_rare_shape_states_when_shown()  # and the next largest: looks most widgets never show
        keep_big_looks()  # widgets alike share their looks at any size (the 4K title's menu draws one face, not 7)
        key_theming_ids_by_tuple()  # pygame_gui's own keys grew to megabytes per nested widget
        self.kept_looks = KeptLooks(self.home, paths.THEME_PATH)
        self.kept_looks.load()  # the title's buttons copied from the last run's, not drawn at 4x
        let_pygame_gui_keep_words()  # and their words copied too, not laid out by FreeType
        self._frames_drawn = 0
        self.manager = pygame_gui.UIManager(self.layout.size)  # the theme is loaded once, scaled, just below
        read_fonts_from_their_files(self.manager)
        self._apply_theme_scale()
        self.clock = pygame.time.Clock()
        self.stack = SceneStack()
        self.context = AppContext(self)
        self.scene_types = SceneRegistry(scenes)
        if notice:
            self.context.notices.append(notice)
            log.warning("settings: %s", notice)
        self.running = True
        self.exit_code = 0
        self._recent_errors: list[float] = []
        #: Guides drawn over everything (the tutorial's spotlight): objects with handle_event(event) -> bool,
        #: update(dt) and draw(surface). They see events first but take only their own clicks.
        self.layers: list = []
        #: The scene drawn alone last frame (None: the next frame is drawn whole) and where the widgets were.
        self._drawn_alone: Optional[Scene] = None
        self._widgets: list[pygame.Rect] = []
        #: What pygame_gui drew last frame (``widget_blits``), to tell which widgets changed since.
        self._blits: Optional[list[WidgetBlit]] = None

    # ------------------------------------------------------------------ window and layout
    @staticmethod
    def desktop_size() -> Optional[tuple[int, int]]:
        """The size of the desktop the window opens on (None when the display cannot say)."""
        try:
            sizes = pygame.display.get_desktop_sizes()
        except pygame.error:
            return None
        return tuple(sizes[0]) if sizes else None  # type: ignore[return-value]

    def toggle_fullscreen(self) -> None:
        """F11: fullscreen on the desktop, or back to the window size kept in the settings."""
        self.apply_settings(replace(self.settings, fullscreen=not self.settings.fullscreen))

    def _open_window(self, size: tuple[int, int], fullscreen: bool) -> pygame.Surface:
        self.draw_whole_next_frame()  # a new window
        if fullscreen:
            return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        return pygame.display.set_mode(size, pygame.RESIZABLE)

    def _apply_theme_scale(self) -> None:
        self.manager.get_theme().load_theme(scaled_theme(self.theme_data, self.layout.scale))

    def relayout(self) -> None:
        """Re-read the window size and rebuild fonts and widgets for it."""
        self.surface = pygame.display.get_surface()
        self.draw_whole_next_frame()  # a new surface
        self.layout = Layout(*self.surface.get_size(), self.settings.ui_scale)
        self.manager.set_window_resolution(self.layout.size)
        self._apply_theme_scale()
        self.stack.relayout()

    def apply_settings(self, settings: Settings) -> str:
        old = self.settings
        self.settings = settings
        self.sounds.set_volume(settings.volume)
        self.sounds.set_music(settings.music)
        if (old.window_size, old.fullscreen) != (settings.window_size, settings.fullscreen):
            self.surface = self._open_window(fit_window(settings.window_size, self.desktop_size()),
                                             settings.fullscreen)
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
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            self.sounds.play("button")  # a soft click for every button, whichever scene it is in
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
                self.toggle_fullscreen()
            elif event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
                self.running = False

    def render(self) -> None:
        """Draw the frame: the scenes, then pygame_gui's widgets, then the guides. A top scene drawn alone
        that was also drawn last frame may redraw only what changed: with the widgets that did not change kept
        as drawn (``Scene.redraw_changes``; the others are then blitted only where it redrew), or under every
        widget (``Scene.draw_changes``)."""
        top = self.stack.top
        visible = self.manager.get_sprite_group().visible
        blits = widget_blits(visible)
        alone = top is not None and not top.is_overlay and not self.layers
        again = alone and top is self._drawn_alone
        redrawn = None
        if again and blits is not None and self._blits is not None:
            redrawn = top.redraw_changes(self.surface, changed_widget_rects(self._blits, blits))
        widgets = [blit[0].get_rect(topleft=(int(blit[1][0]), int(blit[1][1]))).inflate(2, 2) for blit in visible]
        if redrawn is not None:
            draw_widgets_within(self.surface, blits, redrawn)
        else:
            if not (again and top.draw_changes(self.surface, self._widgets + widgets)):
                self.stack.draw(self.surface)
            self.manager.draw_ui(self.surface)
        self._drawn_alone = top if alone else None
        self._widgets, self._blits = widgets, blits
        for layer in self.layers:
            layer.draw(self.surface)

    def draw_whole_next_frame(self) -> None:
        """Draw the next frame whole (no scene is asked to redraw only its changes)."""
        self._drawn_alone = None

    def step(self, dt: float, events: list[pygame.event.Event] | None = None, draw: bool = True) -> None:
        """One frame: events, updates, drawing (unless ``draw`` is false: the next drawn frame is then drawn
        whole). Exceptions become the error dialog."""
        try:
            for event in (pygame.event.get() if events is None else events):
                self.dispatch(event)
                if not self.running:
                    return
            self.stack.update(dt)
            self.sounds.update()
            for layer in list(self.layers):
                layer.update(dt)
            self.manager.update(dt)
            if draw:
                self.render()
                self._frames_drawn += 1
                if self._frames_drawn == self.RECORD_LOOKS_FRAMES:
                    self.kept_looks.stop_recording()
                elif self._frames_drawn == self.KEEP_LOOKS_AT_FRAME:
                    self.kept_looks.save()
            else:
                self.draw_whole_next_frame()
        except Exception as exc:  # noqa: BLE001 - the whole point: nothing reaches the player raw
            self.report_error(exc)

    def shown_path(self, path: Path) -> str:
        """``path`` as a player finds it (``paths.shown_path``); a file in the app's home is named in
        ``shown_home``."""
        try:
            path = self.shown_home / Path(path).relative_to(self.home)
        except ValueError:
            pass
        return paths.shown_path(path)

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

    #: The looks drawn in the first frames are recorded to be kept (the title's, its hovered looks drawn one a
    #: frame after the first): not those of a scene opened later, which would hold megabytes at 4K until written.
    RECORD_LOOKS_FRAMES = 10
    #: The frame after which the looks recorded are kept on disk (``KeptLooks.save``): past the frames a player
    #: waits on at start (the bench's ``app_cpu_to_frame_30_s``).
    KEEP_LOOKS_AT_FRAME = 60

    def after_first_frame(self) -> None:
        """What waits until the first frame is up: the mixer and the sounds (made on a thread of their own),
        the words' recording for the kept looks' file stopped,
        giving big allocations back to the system from now on (``give_back_big_allocations``; from the start it
        costs the first frame ~15 ms at 1920x1080 in fresh pages), and the cyclic garbage collector (the command
        line starts the client with it off, ``game.cli.run_client``). The collector comes back first, so nothing
        that fails after it can leave it off."""
        gc.enable()
        stop_recording_words()  # the first frame's are kept; a scene opened before the file is written keeps none
        self.sounds.warm_soon()
        give_back_big_allocations()

    def run(self) -> int:
        first = True
        while self.running:
            top = self.stack.top
            seen = pygame.display.get_active()  # False while the window is minimised or hidden
            rate = (min(self.FPS, top.frame_rate) if top is not None else self.FPS) if seen else self.HIDDEN_FPS
            dt = self.clock.tick(rate) / 1000.0
            if first:
                with queued_looks_held():  # the widgets' other looks show on none of the first frame's pixels
                    self.step(min(dt, 0.1), draw=seen)
            else:
                self.step(min(dt, 0.1), draw=seen)
            if seen:
                pygame.display.flip()
            if first:
                first = False
                self.after_first_frame()
        self.stack.clear()
        return self.exit_code
