"""pygame_gui remembers each element's theming ids under a tuple of its id lists, not its own joined string key,
and works a new combination out by its own tree walk without making that key (kit.style.key_theming_ids_by_tuple,
installed by the app): the same ids as pygame_gui's own method, without a key of megabytes for every widget nested
in a scrolling container (nor 2.5 MB for each of the title's buttons)."""
import pygame
import pygame_gui
from pygame_gui.core.ui_appearance_theme import UIAppearanceTheme


def _nested_widgets(app) -> None:
    """A scrolling container holding buttons (its scroll bar's buttons nest four deep) and a drop-down."""
    manager = app.manager
    box = pygame_gui.elements.UIScrollingContainer(pygame.Rect(20, 20, 400, 200), manager,
                                                   object_id=pygame_gui.core.ObjectID("#box", "@panel"))
    box.set_scrollable_area_dimensions((380, 900))
    for n in range(6):
        pygame_gui.elements.UIButton(pygame.Rect(10, 10 + 60 * n, 300, 50), f"Row {n}", manager, container=box,
                                     object_id=pygame_gui.core.ObjectID(f"#row{n}", "@choice"))
    pygame_gui.elements.UIDropDownMenu(["One", "Two", "Three"], "One", pygame.Rect(450, 20, 300, 50), manager)
    for _ in range(3):
        app.step(1 / 30, [])


def test_theming_ids_are_pygame_guis_own_under_small_keys(make_app):
    app = make_app((1920, 1080))
    app.start("title")
    _nested_widgets(app)
    theme = app.manager.get_theme()
    remembered = theme.unique_theming_ids
    base, element, classes, objects = max(remembered, key=lambda key: len(key[1]))
    assert element[-1] == "button" and len(element) >= 3  # the scroll bar's buttons inside the container
    joined = str(list(base)).join(str(list(element)).join(str(list(classes))).join(str(list(objects))))
    assert len(joined) > 100_000  # what pygame_gui's own key for it would have been
    own = UIAppearanceTheme.build_all_combined_ids.keyed_by_string
    for key, ids in remembered.items():
        assert isinstance(key, tuple) and len(key) == 4
        assert all(part is None or isinstance(part, tuple) for part in key)
        lists = [None if part is None else list(part) for part in key]
        theme.unique_theming_ids = {}
        try:
            assert ids == own(theme, *lists)
        finally:
            theme.unique_theming_ids = remembered


def test_a_second_element_of_the_same_ids_gets_the_remembered_answer(make_app):
    app = make_app((1280, 720))
    app.start("title")
    first = pygame_gui.elements.UIButton(pygame.Rect(10, 10, 200, 50), "One", app.manager,
                                         object_id=pygame_gui.core.ObjectID("#same", "@kind"))
    second = pygame_gui.elements.UIButton(pygame.Rect(10, 70, 200, 50), "Two", app.manager,
                                          object_id=pygame_gui.core.ObjectID("#same", "@kind"))
    assert second.combined_element_ids is first.combined_element_ids
    assert second.combined_element_ids[:3] == ["#same", "@kind", "button"]
