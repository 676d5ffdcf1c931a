"""Trading: propose a trade to another program, and the partner's answer on their own turn of the device.

The proposer picks a partner, then what each side hands over (points, dots, fuel, rations, built
parts, blueprints, derps). The engine checks the offer when it is proposed and again when accepted;
its reason is shown whenever it refuses.
"""
from __future__ import annotations

import pygame
import pygame_gui

from game.games.whatgoesup.rules.actions import AnswerTrade, OfferTrade
from game.games.whatgoesup.rules.state import HOME, TradeBundle

from game.client.scenes.game_scene import GameScene
from game.client.scenes.still_scene import StillScene
from game.client.whatgoesup.names import copy_labels
from game.client.kit.draw import draw_program_marker, program_colour
from game.client.kit.text import draw_wrapped
from game.client.kit.widgets import draw_status
from game.client.kit.words import counted
from game.client.kit.style import ACCENT_HOT, ACCENT_LIGHT, BAND_COLOURS, INK, INK_DIM, draw_card, draw_text, fit_font, font_px

TOP = 84
ROW = 44  # one pickable row of a list (a 40-pixel button and its gap), in virtual pixels
DERP_KEY = "Derps: Piloting/Engineering/Stamina"  # the numbers after a derp's name, as R&D heads them
AMOUNTS = (("points", "Points"), ("dots", "Dots"), ("fuel", "Fuel"), ("rations", "Rations"))
SIDES = ("give", "take")


def bundle_words(state, bundle: TradeBundle) -> str:
    """What one side of a trade hands over, in words: amounts counted properly, parts by name."""
    parts = [counted(amount, noun) for noun, amount in (("point", bundle.points), ("dot", bundle.dots),
                                                         ("fuel", bundle.fuel), ("derp-turn of rations", bundle.rations))
             if amount]
    names = copy_labels(state, [state.item(i) for i in bundle.items])
    parts += [names[i] for i in bundle.items]
    parts += [f"the blueprint of {state.thing(t).name}" for t in bundle.blueprints]
    parts += [state.derp(d).name for d in bundle.derps]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


class TradeScene(StillScene, GameScene):
    name = "trade"

    def __init__(self, context, flow, program: int) -> None:
        super().__init__(context, flow)
        self.program = program
        others = [p.index for p in flow.state.programs if p.index != program]
        self.partner = others[0] if others else program
        self.reset()

    def reset(self) -> None:
        self.amounts = {side: {k: 0 for k, _ in AMOUNTS} for side in SIDES}
        self.picked: dict[str, set[tuple[str, str]]] = {side: set() for side in SIDES}  # (what, id)

    @property
    def state(self):
        return self.flow.session.state

    def owner_of(self, side: str) -> int:
        return self.program if side == "give" else self.partner

    def bundle(self, side: str) -> TradeBundle:
        picked = self.picked[side]
        a = self.amounts[side]
        return TradeBundle(points=a["points"], dots=a["dots"], fuel=a["fuel"], rations=a["rations"],
                           items=tuple(sorted(i for w, i in picked if w == "item")),
                           blueprints=tuple(sorted(i for w, i in picked if w == "blueprint")),
                           derps=tuple(sorted(i for w, i in picked if w == "derp")))

    def offer(self) -> OfferTrade:
        return OfferTrade(self.partner, self.bundle("give"), self.bundle("take"))

    def tradeables(self, owner: int) -> list[tuple[str, str, str]]:
        """(what, id, words) for everything ``owner`` could hand over; parts by name (and copy), never by id."""
        state = self.state
        engine = self.flow.session.engine
        out = []
        items = state.items_of(owner)
        names = copy_labels(state, items)
        for item in items:
            out.append(("item", item.id, f"Part: {names[item.id]} {engine.item_rating(state, item)}"))
        for thing in state.things_of(owner):
            out.append(("blueprint", thing.id, f"Blueprint: {thing.name} {thing.rating}"))
        for derp in state.derps_of(owner):
            if derp.location is HOME:
                out.append(("derp", derp.id, f"Derp: {derp.name} {derp.piloting}/{derp.engineering}/{derp.stamina}"))
        return out

    # ------------------------------------------------------------------ widgets
    def column_x(self, side: str) -> tuple[float, float]:
        vw = self.context.layout.virtual_width
        w = (vw - 48 - 16) / 2
        return (24 if side == "give" else 24 + w + 16), w

    def list_area(self) -> tuple[int, int]:
        """(top, height) of the pickable lists in virtual pixels: every whole row that fits above the bottom
        buttons (the cards close just under them)."""
        vh = self.context.layout.virtual_height
        top = TOP + 110 + len(AMOUNTS) * 46 + 6
        room = vh - 24 - 56 - 16 - 12 - top
        return top, max(1, room // ROW) * ROW - 4

    def message_rect(self) -> pygame.Rect:
        """The band between Back and Propose: the offer's summary, and the messages over it for a while."""
        layout = self.context.layout
        vw, vh = layout.virtual_width, layout.virtual_height
        return layout.rect(248, vh - 24 - 60, vw - 248 - 300, 64)

    def build_ui(self) -> None:
        super().build_ui()
        layout, manager = self.context.layout, self.context.manager
        vw, vh = layout.virtual_width, layout.virtual_height
        x = 200.0
        for p in self.state.programs:
            if p.index == self.program:
                continue
            b = self.add_button(f"partner:{p.index}", layout.rect(x, TOP, 220, 44), p.name)
            if p.index == self.partner:
                b.select()
            x += 230
        for side in SIDES:
            cx, cw = self.column_x(side)
            for n, (key, label) in enumerate(AMOUNTS):
                y = TOP + 110 + n * 46
                self.add_button(f"amt:{side}:{key}:-1", layout.rect(cx + cw - 16 - 152, y, 40, 40), "-")
                self.add_button(f"amt:{side}:{key}:1", layout.rect(cx + cw - 16 - 40, y, 40, 40), "+")
            list_top, list_h = self.list_area()
            scroll = pygame_gui.elements.UIScrollingContainer(layout.rect(cx + 16, list_top, cw - 32, list_h), manager,
                                                              container=self.root, allow_scroll_x=False)
            rows = self.tradeables(self.owner_of(side))
            for n, (what, some_id, text) in enumerate(rows):
                b = self.add_button(f"pick:{side}:{what}:{some_id}", layout.rect(0, n * ROW, cw - 32 - 20, 40), text,
                                    container=scroll)
                if (what, some_id) in self.picked[side]:
                    b.select()
            scroll.set_scrollable_area_dimensions((layout.px(cw - 32 - 20), max(1, layout.px(len(rows) * ROW))))
        self.add_button("back", layout.rect(24, vh - 24 - 56, 200, 56), "Back", "@menu_button")
        self.add_button("propose", layout.rect(vw - 24 - 260, vh - 24 - 56, 260, 56), "Propose the trade",
                        "@menu_button")

    def on_button(self, key: str) -> None:
        parts = key.split(":")
        if parts[0] == "partner":
            self.partner = int(parts[1])
            self.reset()
            self.relayout()
        elif parts[0] == "amt":
            side, what, delta = parts[1], parts[2], int(parts[3])
            self.amounts[side][what] = max(0, self.amounts[side][what] + delta)
        elif parts[0] == "pick":
            side, what, some_id = parts[1], parts[2], parts[3]
            self.picked[side] ^= {(what, some_id)}
            button = self.buttons[key]
            button.select() if (what, some_id) in self.picked[side] else button.unselect()
        elif key == "back":
            self.context.back()
        elif key == "propose":
            self.propose()

    def propose(self) -> bool:
        return self.flow.act(self.offer(), self)

    def status_rect(self) -> pygame.Rect:
        """Where messages show: over the offer's summary between the bottom buttons (no widget there)."""
        return self.message_rect()

    def draw_toast(self, surface: pygame.Surface) -> None:
        if self.toast_time > 0 and self.toast_text:
            draw_status(surface, self.status_rect(), self.toast_text, self.toast_kind, self.context.layout)

    def still_key(self) -> tuple:
        """The partner and the offer as picked so far."""
        return (self.partner, tuple(tuple(a.items()) for a in self.amounts.values()),
                tuple(tuple(sorted(p)) for p in self.picked.values()))

    # ------------------------------------------------------------------ drawing
    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        state = self.state
        me = state.programs[self.program]
        partner = state.programs[self.partner]
        self.draw_header(surface, "Propose a trade", me, me.name)
        head = font_px(layout.px(20), True)
        draw_text(surface, "Trade with", head, ACCENT_LIGHT, (layout.px(24), layout.px(TOP + 22)), anchor="midleft")
        body = font_px(layout.px(18))
        for side in SIDES:
            cx, cw = self.column_x(side)
            list_top, list_h = self.list_area()
            rect = layout.rect(cx, TOP + 60, cw, list_top + list_h + 12 - (TOP + 60))
            owner = state.programs[self.owner_of(side)]
            draw_card(surface, rect, layout, edge=program_colour(owner))
            title = "You give" if side == "give" else f"You ask {partner.name} for"
            title_font = fit_font(title, rect.w - layout.px(40), layout.px(20), bold=True)
            draw_text(surface, title, title_font, ACCENT_LIGHT, (rect.left + layout.px(16), rect.top + layout.px(12)))
            if any(what == "derp" for what, _, _ in self.tradeables(owner.index)):  # what 'Tuber 0/0/2' means
                room = rect.w - layout.px(48) - title_font.size(title)[0]
                key_font = fit_font(DERP_KEY, room, layout.px(16))
                draw_text(surface, DERP_KEY, key_font, INK_DIM,
                          (rect.right - layout.px(16), rect.top + layout.px(12) + title_font.get_height() // 2),
                          anchor="midright")
            have = {"points": owner.points, "dots": owner.dots, "fuel": owner.fuel_stock, "rations": owner.rations_stock}
            for n, (key, label) in enumerate(AMOUNTS):
                y = layout.px(TOP + 110 + n * 46 + 20)
                text = f"{label} (has {have[key]})"
                draw_text(surface, text, fit_font(text, rect.w - layout.px(200), layout.px(18)), INK,
                          (rect.left + layout.px(16), y), anchor="midleft")
                draw_text(surface, str(self.amounts[side][key]), font_px(layout.px(20), True), INK,
                          (layout.px(cx + cw - 16 - 96), y), anchor="center")
        offer = self.offer()
        summary = (f"{me.name} gives {bundle_words(state, offer.give)}; {partner.name} gives "
                   f"{bundle_words(state, offer.take)}.")
        box = self.message_rect()
        why = self.flow.session.refusal(offer)
        colour = ACCENT_HOT if why else INK
        draw_wrapped(surface, summary + (f" Not possible: {why}." if why else f" {partner.name} will be asked."),
                     body, colour, box, 3)


class TradeAnswerScene(StillScene, GameScene):
    """The partner sees the offer on their own turn of the device and accepts or declines."""

    name = "trade_answer"
    flow_main = True

    def refresh(self) -> None:
        self.relayout()

    def build_ui(self) -> None:
        super().build_ui()
        layout = self.context.layout
        card = self.card_rect()
        for key, text, right in (("accept", "Accept", 40), ("decline", "Decline", 280)):
            self.add_button(key, layout.corner_rect(card, 220, 56, right, 30), text, "@menu_button")

    def card_rect(self) -> pygame.Rect:
        return self.context.layout.centred_rect(820, 470)

    def on_button(self, key: str) -> None:
        if key in ("accept", "decline"):
            self.flow.act(AnswerTrade(key == "accept"), self)

    def draw_content(self, surface: pygame.Surface) -> None:
        layout = self.context.layout
        state = self.flow.state
        offer = state.pending_trade
        if offer is None:
            return
        proposer, partner = state.programs[offer.proposer], state.programs[offer.partner]
        self.draw_header(surface, "A trade offer", partner, partner.name)
        card = self.card_rect()
        draw_card(surface, card, layout, edge=program_colour(proposer))
        inner = card.inflate(-layout.px(80), -layout.px(60))
        draw_program_marker(surface, proposer.index, (inner.left + layout.px(14), inner.top + layout.px(18)), layout.px(14),
                    program_colour(proposer))
        head = f"{proposer.name} offers you a trade"
        draw_text(surface, head, fit_font(head, inner.w - layout.px(40), layout.px(28), bold=True), ACCENT_LIGHT,
                  (inner.left + layout.px(40), inner.top + layout.px(18)), anchor="midleft")
        y = inner.top + layout.px(60)
        label = font_px(layout.px(18), True)
        body = font_px(layout.px(19))
        for title, bundle, colour in (("You receive", offer.give, BAND_COLOURS["ok"]),
                                      ("You hand over", offer.take, BAND_COLOURS["fail"])):
            draw_text(surface, title, label, colour, (inner.left, y))
            y += label.get_linesize()
            words = bundle_words(state, bundle)
            y = draw_wrapped(surface, words[0].upper() + words[1:] + ".", body, INK,
                             pygame.Rect(inner.left, y, inner.w, layout.px(90)), 3) + layout.px(14)
        draw_wrapped(surface, "Parts keep the rating they have now; a blueprint is a copy you can research yourself.",
                     font_px(layout.px(16)), INK_DIM, pygame.Rect(inner.left, y, inner.w, layout.px(44)), 2)
