"""A knockout's bracket as PDF (:func:`bracket_pdf`): rounds as columns, a box per
match and lines from each match to the next, the champion and the match for third
place; then the places and every match with its games. What it draws is the
:class:`~crosstable.web.sheets.BracketSheet` the print page shows too."""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.web.i18n import gettext as _
from crosstable.web.pdf.document import Document, pdf_bytes
from crosstable.web.sheets import BracketBox, BracketSheet, Detail, first_slot, round_title


def _draw_box(pdf: Document, box: BracketBox, x: float, y: float, w: float, h: float) -> None:
    """A match box: a line per player (name left, score right), the winner in bold."""
    line_h = h / max(len(box.lines), 1)
    size = max(5.0, min(8.0, line_h * 2.0))
    for i, line in enumerate(box.lines):
        top = y + i * line_h
        pdf.set_xy(x, top)
        pdf.set_font("Sans", "B" if line.winner else "", size)
        score_w = 9.0 if line.score else 0.0
        name = f"{line.start}. {line.name}" if line.start is not None else line.name
        if box.bye:
            name = f"{name} — {_('bye')}"
        if line.start is None:
            pdf.set_text_color(120)
        pdf.cell(w - score_w, line_h, pdf.fit(name, w - score_w), border=1)
        pdf.set_text_color(0)
        if score_w:
            pdf.cell(score_w, line_h, line.score, border=1, align="C")


def bracket_pdf(
    sheet: BracketSheet, title: str, details: Sequence[Detail] = (), paper: str = "A4"
) -> bytes:
    """The bracket on A4 (or A3) landscape (rounds as columns, a box per match, lines from each
    match to the next), the champion and the match for third place; then the places and
    every match with its games, round and board."""
    pdf = Document("L", title, paper)
    pdf.add_page()
    pdf.heading(title)
    pdf.details(details)
    if sheet.champion:
        pdf.set_font("Sans", "B", 12)
        pdf.cell(0, 7, f"{_('Champion')}: {sheet.champion}")
        pdf.ln(8)
    if sheet.problem:
        pdf.note(sheet.problem)
    drawn = sheet.size // 2 <= 16 and bool(sheet.columns)  # else too small to read
    if drawn:
        _draw_bracket(pdf, sheet)
        pdf.set_y(pdf.h - 20)
    pdf.note(sheet.note, 7)
    if drawn:
        pdf.add_page()
    if sheet.places:
        pdf.heading(_("Places"), 12)
        pdf.grid(
            [_("Place"), _("Player")],
            [20, 120],
            [[place, f"{start}. {name}"] for place, start, name in sheet.places],
            size=9,
            left=(1,),
        )
        pdf.ln(4)
    pdf.heading(_("Matches"), 12)
    last = len(sheet.columns) - 1
    for index, (column, name) in enumerate(zip(sheet.columns, sheet.titles, strict=False)):
        matches = [b for b in column if not b.bye]
        if index == last and sheet.third_place is not None:
            matches.append(sheet.third_place)
        if not matches:
            continue
        if pdf.will_page_break(7 + _detail_height(matches[0])):
            pdf.add_page()
        pdf.set_font("Sans", "B", 10)
        pdf.cell(0, 7, name)
        pdf.ln(7)
        for box in matches:
            _match_detail(pdf, box)
    return pdf_bytes(pdf)


def _draw_bracket(pdf: Document, sheet: BracketSheet) -> None:
    rounds = len(sheet.columns)
    top = pdf.get_y() + 6
    bottom = pdf.h - 24
    left = 10.0
    gap = 6.0
    col_w = (pdf.w - 20 - gap * (rounds - 1)) / rounds
    unit = (bottom - top) / (sheet.size // 2)  # the height of one first-round slot
    box_h = min(12.0, unit * 0.8)
    pdf.set_font("Sans", "B", 8)
    centres: dict[int, tuple[float, float]] = {}  # slot → (x of the right edge, y)
    for rnd, (column, name) in enumerate(zip(sheet.columns, sheet.titles, strict=False), 1):
        x = left + (rnd - 1) * (col_w + gap)
        pdf.set_font("Sans", "B", 8)
        pdf.set_xy(x, top - 6)
        pdf.cell(col_w, 5, pdf.fit(name, col_w), align="C")
        span = unit * (1 << (rnd - 1))
        for box in column:
            centre = top + (box.index + 0.5) * span
            height = box_h / 2 if box.bye else box_h
            _draw_box(pdf, box, x, centre - height / 2, col_w, height)
            centres[box.slot] = (x + col_w, centre)
            if rnd > 1:
                first_before = first_slot(sheet.size, rnd - 1)
                for feeder in (2 * box.index, 2 * box.index + 1):
                    source = centres.get(first_before + feeder)
                    if source is None:
                        continue
                    mid = x - gap / 2
                    pdf.line(source[0], source[1], mid, source[1])
                    pdf.line(mid, source[1], mid, centre)
                    pdf.line(mid, centre, x, centre)
    if sheet.third_place is not None:
        x = left + (rounds - 1) * (col_w + gap)
        y = bottom - box_h - 2
        pdf.set_font("Sans", "B", 7)
        pdf.set_xy(x, y - 5)
        pdf.cell(col_w, 5, pdf.fit(round_title("", True), col_w), align="C")
        _draw_box(pdf, sheet.third_place, x, y, col_w, box_h)


def _detail_height(box: BracketBox) -> float:
    return 6 + 5 * (len(box.games) + bool(box.stages) + bool(box.how)) + 2


def _match_detail(pdf: Document, box: BracketBox) -> None:
    if pdf.will_page_break(_detail_height(box)):
        pdf.add_page()
    pdf.set_font("Sans", "B", 9)
    players = " – ".join(
        (f"{line.start}. {line.name}" if line.start is not None else line.name)
        + (f" {line.score}" if line.score else "")
        for line in box.lines
    )
    head = f"{_('Match')} {box.slot}: {players}"
    if box.third_place:
        head = f"{round_title('', True)} — {head}"
    pdf.cell(0, 6, pdf.fit(head, pdf.w - 20))
    pdf.ln(6)
    pdf.set_font("Sans", "", 8)
    for game in box.games:
        pdf.cell(8, 5, "")
        pdf.cell(28, 5, game.label)
        pdf.cell(70, 5, pdf.fit(f"{_('White')}: {game.white}  –  {_('Black')}: {game.black}", 70))
        pdf.cell(16, 5, game.result, align="C")
        pdf.cell(0, 5, game.where)
        pdf.ln(5)
    for text in (box.stages, box.how):
        if text:
            pdf.cell(8, 5, "")
            pdf.cell(0, 5, pdf.fit(text, pdf.w - 28))
            pdf.ln(5)
    pdf.ln(2)
