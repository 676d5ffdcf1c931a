"""The kit's tooltips: every window's UIManager gets the readable card, whatever managers came before it."""
import gc

import pygame


def test_each_new_manager_gets_the_readable_tooltip_card(make_app):
    """Managers made and let go one after another (as tests and the shots' windows do) are each themed: a new
    manager that Python puts at a dead one's address is not taken for it (pygame_gui's own tooltip, a
    see-through column 170 pixels wide, would show instead)."""
    import pygame_gui

    from game.client.kit.glossary import TIP_WIDTH, ensure_tip_theme
    from game.client.kit.style import Layout

    make_app((1920, 1080))  # a display and pygame_gui's fonts
    layout = Layout(1920, 1080)
    wanted = str(max(200, round(TIP_WIDTH * round(layout.scale, 3))))
    addresses, widths = set(), []
    for _ in range(12):
        manager = pygame_gui.UIManager((1920, 1080))
        addresses.add(id(manager))
        ensure_tip_theme(manager, layout)
        widths.append(manager.get_theme().get_misc_data("rect_width", ["tool_tip"]))
        del manager
        gc.collect()
    assert widths == [wanted] * 12, (widths, len(addresses))
