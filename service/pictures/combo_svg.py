"""SVG pictures of Castle Combo tableaux, drawn with drawsvg: each a 3x3 grid of cards."""

from __future__ import annotations

import drawsvg as draw

from service.results.combo import ComboCardView, ComboCell, ComboStateOutput

_W, _H, _GAP, _PAD = 120, 150, 8, 24
_COLOURS = {"castle": ("#2f5d8a", "#dfe9f3"), "village": ("#5b8a2f", "#e6f1dc")}
_SHIELD = {"nobility": "#8e44ad", "faith": "#f1c40f", "scholarship": "#2e86c1",
           "military": "#c0392b", "craftsmanship": "#a0522d", "peasantry": "#27ae60"}


def _card(x: float, y: float, cell: ComboCell, card: ComboCardView | None,
          purse_gold: int) -> draw.Group:
    group = draw.Group(class_="card", data_card=cell.card)
    if cell.face_down or card is None:
        group.append(draw.Rectangle(x, y, _W, _H, rx=8, fill="#7a6a58", stroke="#333",
                                    class_="face-down"))
        group.append(draw.Text(f"~{cell.card}", 14, x + _W / 2, y + _H / 2, fill="#f7f3ea",
                               text_anchor="middle"))
        return group
    banner, body = _COLOURS[card.location]
    group.append(draw.Rectangle(x, y, _W, _H, rx=8, fill=body, stroke=banner, stroke_width=3))
    group.append(draw.Rectangle(x, y, _W, 26, rx=8, fill=banner))
    group.append(draw.Circle(x + 14, y + 13, 10, fill="#f4d03f", stroke="#333"))
    group.append(draw.Text(str(card.cost), 13, x + 14, y + 18, text_anchor="middle",
                           font_weight="bold"))
    group.append(draw.Text(card.id, 13, x + _W - 8, y + 18, text_anchor="end", fill="white",
                           font_weight="bold"))
    for i, shield in enumerate(card.shields):
        group.append(draw.Rectangle(x + 8 + 22 * i, y + 34, 18, 20, rx=4,
                                    fill=_SHIELD[shield]))
        # the initial too, so the shield reads without its colour
        group.append(draw.Text(shield[0].upper(), 11, x + 17 + 22 * i, y + 48,
                               text_anchor="middle", fill="white", font_weight="bold"))
    group.append(draw.Text(card.name, 10, x + _W / 2, y + 74, text_anchor="middle"))
    if card.messenger:
        group.append(draw.Text("➜ messenger", 9, x + _W - 8, y + 48, text_anchor="end"))
    if card.capacity:
        group.append(draw.Text(f"purse {purse_gold}/{card.capacity} gold", 10, x + _W / 2,
                               y + 96, text_anchor="middle"))
    group.append(draw.Text(f"{cell.points} pts", 18, x + _W / 2, y + _H - 16,
                           text_anchor="middle", font_weight="bold"))
    return group


def tableaux(view: ComboStateOutput) -> draw.Drawing:
    """The view's tableaux drawn: one 3x3 grid per player, side by side, with the points each
    card scores (if the game ended now) and the tableau's total."""
    items = view.tableaux
    purses = {p.name: p.purses for p in view.players}
    for final in view.scores or []:  # at the end, the purses with the leftover gold put on
        purses[final.player] = final.purses
    block = 3 * _W + 2 * _GAP + 2 * _PAD
    drawing = draw.Drawing(block * max(1, len(items)), 3 * _H + 2 * _GAP + 3 * _PAD + 20,
                           font_family="sans-serif")
    drawing.append(draw.Rectangle(0, 0, drawing.width, drawing.height, fill="#f7f3ea"))
    for n, tableau in enumerate(items):
        left = n * block + _PAD
        drawing.append(draw.Text(f"{tableau.player} — {tableau.score} points", 18, left,
                                 _PAD + 4, font_weight="bold"))
        for r, row in enumerate(tableau.cells):
            for c, cell in enumerate(row):
                if cell is None:
                    continue
                x = left + c * (_W + _GAP)
                y = 2 * _PAD + 10 + r * (_H + _GAP)
                drawing.append(_card(x, y, cell, view.cards.get(cell.card),
                                     purses[tableau.player].get(cell.card, 0)))
    return drawing
