"""The theme loads cleanly; screenshots are written."""
import json
import os
import warnings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pygame_gui  # noqa: E402

from game.client.kit.paths import THEME_PATH  # noqa: E402
from game.client.kit.style import scaled_theme  # noqa: E402


def test_theme_is_valid_json_and_loads_without_warnings():
    data = json.loads(THEME_PATH.read_text(encoding="utf-8"))
    pygame.init()  # fonts too: run alone, no earlier test has started them
    pygame.display.init()
    pygame.display.set_mode((320, 200))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        manager = pygame_gui.UIManager((320, 200), str(THEME_PATH))
        assert manager.get_theme().validate_theme_data(data) == []
        manager.get_theme().load_theme(scaled_theme(data, 2.5))
        pygame_gui.elements.UIButton(pygame.Rect(0, 0, 825, 135), "Hi", manager,
                                     object_id=pygame_gui.core.ObjectID(class_id="@menu_button"))


def test_render_shots_writes_pngs(tmp_path):
    from game.tools.shots import SHOTS, SIZED_SHOTS, render_shots

    files = render_shots(tmp_path, workers=2)  # shared out among processes, returned in registration order
    sizes = [(name, (1280, 720)) for name, _ in SHOTS] + [(name, size) for name, size, _ in SIZED_SHOTS]
    assert [f.stem for f in files] == [name for name, _ in sizes]
    for f, (_, size) in zip(files, sizes):
        assert f.stat().st_size > 5000
        assert pygame.image.load(str(f)).get_size() == size


def test_every_key_lesson_is_shot_at_each_window_size():
    """The tutorial's key lessons are registered at 1280x720, 1920x1080 and 3840x2160 (4K was looked at by hand)."""
    from game.tools.shots import SHOTS, SIZED_SHOTS
    from game.tools.tutorial_shots import KEY_LESSONS

    at = {name: (1280, 720) for name, _ in SHOTS}
    at.update((name, size) for name, size, _ in SIZED_SHOTS)
    for lesson, _, _ in KEY_LESSONS:
        assert at[f"tutorial_{lesson}"] == (1280, 720)
        assert at[f"tutorial_{lesson}_1920"] == (1920, 1080)
        assert at[f"tutorial_{lesson}_3840"] == (3840, 2160)
