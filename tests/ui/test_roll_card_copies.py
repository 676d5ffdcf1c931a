"""The roll card's kept pictures (game.client.whatgoesup.rollpanel) are lean and exact: the card's chrome is
painted strip by strip, never as one whole layer, and a copy of a card drawn whole keeps its plain rows as fills
and leaves out the bands a tumbling roll paints again; each gives the pixels the whole picture gave."""
import pygame
import pytest

from game.client.kit.style import CARD, Layout, draw_card
from game.client.whatgoesup import rollpanel


@pytest.mark.parametrize("screen, card_size", [((1280, 720), (780, 600)), ((3840, 2160), (2340, 1800)),
                                               ((1920, 1080), (1080, 450))])
def test_the_cards_strips_are_the_parts_of_the_whole_card(make_app, screen, card_size):
    app = make_app(screen)
    layout = app.layout
    rollpanel._CARDS.clear()
    margin = layout.px(24)
    target = pygame.Surface(screen)
    card = pygame.Rect((40, 30), card_size)
    rollpanel.cached_card(target, card, layout)
    inner, strips = rollpanel._CARDS[(card.size, layout)]
    whole = pygame.Surface((card.w + 2 * margin, card.h + 2 * margin), pygame.SRCALPHA)
    draw_card(whole, pygame.Rect(margin, margin, card.w, card.h), layout)
    mask = pygame.mask.from_threshold(whole.subsurface(inner), (*CARD, 255), (1, 1, 1, 1))
    assert mask.count() == inner.w * inner.h  # the middle is plain card, as judged band by band
    assert len(strips) == 4
    covered = 0
    for strip, (left, top) in strips:
        part = pygame.Rect((left, top), strip.get_size())
        assert pygame.image.tobytes(strip, "RGBA") == pygame.image.tobytes(whole.subsurface(part), "RGBA")
        covered += part.w * part.h
    assert covered + inner.w * inner.h == whole.get_width() * whole.get_height()


def test_a_card_copy_paints_back_what_was_drawn_and_keeps_little(make_app):
    app = make_app((3840, 2160))
    layout = app.layout
    screen = pygame.Surface((3840, 2160), 0, app.surface)
    screen.fill((30, 60, 90))
    card = pygame.Rect(700, 200, 2340, 1800)
    rollpanel.cached_card(screen, card, layout)
    font = pygame.font.Font(None, 120)
    for n, y in enumerate((300, 520, 1100, 1500)):  # words here and there, plain card between
        screen.blit(font.render(f"line {n}", True, (240, 230, 210)), (card.left + 120, y))
    band = pygame.Rect(card.left + 80, 700, card.w - 160, 300)
    pygame.draw.circle(screen, (200, 40, 40), band.center, 120)  # what a tumbling roll paints again
    r = layout.px(18) + 1
    pieces = (pygame.Rect(card.left, card.top + r, card.w, card.h - 2 * r),
              pygame.Rect(card.left + r, card.top, card.w - 2 * r, r),
              pygame.Rect(card.left + r, card.bottom - r, card.w - 2 * r, r))
    middle = rollpanel.card_middle(card, layout)
    assert middle is not None
    copy = rollpanel.CardCopy(screen, card, pieces, middle, repainted=(band,))
    kept = sum(p.get_width() * p.get_height() for _, p in copy.parts if p is not None)
    assert kept < card.w * card.h // 3 and any(p is None for _, p in copy.parts)
    again = pygame.Surface(screen.get_size(), 0, screen)
    again.fill((30, 60, 90))
    rollpanel.cached_card(again, card, layout, middle=False)
    copy.paint(again, card)
    for piece in pieces:
        outside_band = [part for part in rollpanel._outside(piece, band)]
        for part in outside_band:
            assert (pygame.image.tobytes(again.subsurface(part), "RGB")
                    == pygame.image.tobytes(screen.subsurface(part), "RGB")), part


def test_the_dice_details_bounds_are_found_band_by_band_the_same():
    """scenes.dice._bounds (what the roll's total, bar and legend painted on their sheet) searches a band of rows
    at a time: the same rect as the union of pygame's bounding rects over the whole mask."""
    from game.client.scenes import dice

    mask = pygame.mask.Mask((700, 300))
    assert dice._bounds(mask) == pygame.Rect(0, 0, 1, 1)
    for rect in (pygame.Rect(40, 10, 30, 5), pygame.Rect(300, 63, 200, 3), pygame.Rect(90, 120, 2, 150),
                 pygame.Rect(650, 299, 50, 1)):
        mask.draw(pygame.mask.Mask(rect.size, fill=True), rect.topleft)
        found = mask.get_bounding_rects()
        assert dice._bounds(mask) == found[0].unionall(found[1:])
