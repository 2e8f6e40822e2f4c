"""PDF downloads (R-OR-5): the crosstable / wall chart, pairing lists, result slips and
winners' certificates, with fpdf2 and the Open Sans font shipped by ``ttf-opensans``
(Cyrillic included, so Russian names print; no system packages needed).

Each system prints what its screen shows:

* a round robin: seed 000's grid, one column per opponent (:func:`crosstable_pdf`);
* a Swiss: its table by rounds — place, name, number, rating, each round as the
  opponent's number, the colour and the result, or the bye's kind; points and
  tie-breaks (:func:`swiss_pdf`, from :func:`crosstable.web.pairing_views.swiss_table`);
* a knockout: its bracket, the champion, the places and every match's games
  (:func:`bracket_pdf`, from the service's ``bracket_view`` through :func:`bracket_sheet`);
* a Scheveningen: the team grid, team A's players as rows and team B's as columns
  (:func:`teams_pdf`, from :func:`team_grid`).

What they print (:class:`~crosstable.web.sheets.Sheet`, ``BracketSheet``, ``TeamGrid``,
the details under the title…) is :mod:`crosstable.web.sheets`, shared with the print
pages (``templates/print_*.html``), so the paper and the PDF say the same thing; this
module only draws, on :class:`~crosstable.web.pdf_document.Document`. Nothing is
computed here that the screens do not compute.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from crosstable.web.i18n import gettext as _
from crosstable.web.i18n import points_text, tiebreak_head
from crosstable.web.pairing_views import SwissTable
from crosstable.web.pdf_document import (
    Document,
    pdf_bytes,
    provisional_note,
    tb_number,
)
from crosstable.web.sheets import (
    BracketBox,
    BracketSheet,
    Detail,
    Sheet,
    TeamGrid,
    Winner,
    first_slot,
    round_title,
    swiss_cell_text,
    swiss_legend,
)
from crosstable.web.views import Crosstable

# -- the crosstable, by system ------------------------------------------------------------------


def crosstable_pdf(
    table: Crosstable, title: str, locale: str, details: Sequence[Detail] = ()
) -> bytes:
    """Seed 000's table on A4 landscape: №, name, rating, a column per opponent, points,
    tie-breaks, place (a round robin), under the title and the tournament's details."""
    pdf = Document("L", title)
    pdf.add_page()
    pdf.heading(title)
    pdf.details(details)
    provisional_note(pdf, table.provisional, table.final)
    n = table.size
    heads = ["№", _("Player"), _("Rating"), *[str(i) for i in range(1, n + 1)], _("Pts")]
    heads += [*(tiebreak_head(code) for code in table.tiebreaks), _("Place")]
    rows: list[list[str]] = []
    for line in table.lines:
        values: list[str] = [str(line.start), line.name, str(line.rating or "")]
        for opponent in range(1, n + 1):
            if opponent == line.start:
                values.append("×")
            else:
                values.append(" ".join(c.text for c in line.cells.get(opponent, ())))
        values.append(points_text(line.points, locale))
        values.extend(
            tb_number(code, value, locale)
            for code, value in zip(table.tiebreaks, line.values, strict=True)
        )
        values.append(line.place)
        rows.append(values)
    opponents = range(3, 3 + n)
    widths, size = pdf.widths(heads, rows, size=8 if n <= 16 else 6, same=opponents)
    pdf.grid(
        heads,
        widths,
        rows,
        size=size,
        shade=lambda i, j: j == 3 + table.lines[i].start - 1,
    )
    return pdf_bytes(pdf)


def swiss_pdf(swiss: SwissTable, title: str, locale: str, details: Sequence[Detail] = ()) -> bytes:
    """The Swiss table on A4 landscape: place, name, №, rating, one column per round
    (opponent, colour, result, or the bye), points and tie-breaks, in ranking order."""
    pdf = Document("L", title)
    pdf.add_page()
    pdf.heading(title)
    pdf.details(details)
    provisional_note(pdf, swiss.provisional, swiss.final)
    rounds = len(swiss.rounds)
    heads = [_("Place"), _("Player"), "№", _("Rating"), *(str(r) for r in swiss.rounds)]
    heads += [_("Pts"), *(tiebreak_head(code) for code in swiss.tiebreaks)]
    rows = [
        [
            line.place,
            f"{line.title} {line.name}".strip(),
            str(line.start),
            str(line.rating or ""),
            *(swiss_cell_text(c) for c in line.cells),
            points_text(line.points, locale),
            *(
                tb_number(code, v, locale)
                for code, v in zip(swiss.tiebreaks, line.values, strict=True)
            ),
        ]
        for line in swiss.lines
    ]
    widths, size = pdf.widths(
        heads, rows, size=8 if rounds <= 11 else 6, same=range(4, 4 + rounds), least=35.0
    )
    pdf.grid(heads, widths, rows, size=size)
    pdf.ln(2)
    if swiss.planned:
        pdf.note(_("Round %(r)s of %(n)s paired.", r=rounds, n=swiss.planned))
    for text in [*swiss_legend(), *swiss.notes]:
        pdf.note(text, 7)
    return pdf_bytes(pdf)


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


def bracket_pdf(sheet: BracketSheet, title: str, details: Sequence[Detail] = ()) -> bytes:
    """The bracket on A4 landscape (rounds as columns, a box per match, lines from each
    match to the next), the champion and the match for third place; then the places and
    every match with its games, round and board."""
    pdf = Document("L", title)
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


def teams_pdf(
    grid: TeamGrid, table: Crosstable, title: str, locale: str, details: Sequence[Detail] = ()
) -> bytes:
    """A Scheveningen on A4 landscape: the team grid (team A's rows × team B's columns,
    each player's points, the team scores), then the individual standings."""
    pdf = Document("L", title)
    pdf.add_page()
    pdf.heading(title)
    pdf.details(details)
    a, b = grid.teams
    pdf.set_font("Sans", "B", 11)
    score = f"{points_text(grid.scores[0], locale)} – {points_text(grid.scores[1], locale)}"
    pdf.cell(0, 7, f"{a} {score} {b}")
    pdf.ln(8)
    n = len(grid.columns)
    heads = ["№", f"{a} \\ {b}", _("Rating"), *(f"{c.start}. {c.name}" for c in grid.columns)]
    heads.append(_("Pts"))
    rows = [
        [
            str(row.start),
            row.name,
            str(row.rating or ""),
            *cells,
            points_text(row.points, locale),
        ]
        for row, cells in zip(grid.rows, grid.cells, strict=True)
    ]
    rows.append(
        [
            "",
            f"{_('Pts')} ({b})",
            "",
            *(points_text(c.points, locale) for c in grid.columns),
            points_text(grid.scores[1], locale),
        ]
    )
    # the opponents' columns share what the rest leaves (their heads are names: cut if need be)
    widths, size = pdf.widths(heads[:3] + heads[-1:], [r[:3] + r[-1:] for r in rows], size=8)
    room = pdf.w - pdf.l_margin - pdf.r_margin
    fixed = [widths[0], min(widths[1], 70.0), widths[2]]
    cell = max(10.0, (room - sum(fixed) - widths[3]) / max(n, 1))
    widths = [*fixed, *([cell] * n), widths[3]]
    pdf.grid(heads, widths, rows, size=size)
    pdf.ln(4)
    _standings_table(
        pdf,
        table,
        locale,
        {line.start: a for line in grid.rows} | {line.start: b for line in grid.columns},
    )
    return pdf_bytes(pdf)


def _standings_table(
    pdf: Document, table: Crosstable, locale: str, team_of: Mapping[int, str]
) -> None:
    pdf.set_font("Sans", "B", 10)
    pdf.cell(0, 7, _("Standings"))
    pdf.ln(7)
    heads = [_("Place"), _("Player"), _("Team"), _("Pts"), *map(tiebreak_head, table.tiebreaks)]
    rows = [
        [
            line.place,
            f"{line.start}. {line.name}",
            team_of.get(line.start, ""),
            points_text(line.points, locale),
            *(
                tb_number(code, v, locale)
                for code, v in zip(table.tiebreaks, line.values, strict=True)
            ),
        ]
        for line in table.ranked_lines()
    ]
    widths, size = pdf.widths(heads, rows, size=8)
    pdf.grid(heads, widths, rows, size=size, left=(1, 2))
    provisional_note(pdf, table.provisional, table.final)


# -- pairing lists, slips, certificates -----------------------------------------------------------


def pairings_pdf(title: str, sheets: Sequence[Sheet]) -> bytes:
    """Pairing lists: a page per round — board, White, Black, result (blank to fill in);
    in a knockout the match and game of each board; then the byes by kind."""
    pdf = Document("P", title)
    for sheet in sheets:
        pdf.add_page()
        pdf.heading(f"{title} — {_('Round')} {sheet.round}")
        if sheet.knockout:
            heads = [_("Board"), _("Match"), _("White"), _("Black"), _("Result")]
            widths = [11.0, 66.0, 49.0, 49.0, 15.0]
        else:
            heads = [_("Board"), _("White"), _("Black"), _("Result")]
            widths = [16.0, 75.0, 75.0, 24.0]
        rows = []
        for b in sheet.boards:
            row = [str(b.board), f"{b.white}. {b.white_name}", f"{b.black}. {b.black_name}"]
            if sheet.knockout:
                row.insert(1, b.match)
            rows.append([*row, b.result])
        left = (1, 2, 3) if sheet.knockout else (1, 2)
        pdf.grid(heads, widths, rows, size=10 if not sheet.knockout else 8, height=8, left=left)
        if sheet.byes:
            pdf.ln(3)
            pdf.set_font("Sans", "", 10)
            for bye in sheet.byes:
                pdf.cell(0, 6, f"{bye.label}: {bye.start}. {bye.name}")
                pdf.ln(6)
    if not sheets:
        pdf.add_page()
        pdf.heading(_("No round is paired yet."))
    return pdf_bytes(pdf)


def slips_pdf(title: str, sheets: Sequence[Sheet]) -> bytes:
    """Result slips, four to a page, each round on new pages: round, board (and in a
    knockout the match and game), players, boxes to tick, signatures."""
    pdf = Document("P", title)
    pdf.set_auto_page_break(False)
    for sheet in sheets:
        for index, g in enumerate(sheet.boards):
            if index % 4 == 0:
                pdf.add_page()
            top = 10 + (index % 4) * 69
            pdf.set_xy(10, top)
            pdf.set_font("Sans", "B", 11)
            head = f"{title} · {_('Round')} {sheet.round} · {_('Board')} {g.board}"
            pdf.cell(0, 7, pdf.fit(head, pdf.w - 20))
            if g.match:
                pdf.set_xy(10, top + 7)
                pdf.set_font("Sans", "", 9)
                pdf.cell(0, 5, pdf.fit(g.match, pdf.w - 20))
            pdf.set_font("Sans", "", 10)
            pdf.set_xy(10, top + 13)
            pdf.cell(95, 7, pdf.fit(f"{_('White')}: {g.white}. {g.white_name}", 95))
            pdf.cell(95, 7, pdf.fit(f"{_('Black')}: {g.black}. {g.black_name}", 95))
            pdf.set_xy(10, top + 24)
            for label in ("1-0", "½-½", "0-1", "+/−", "−/+"):
                pdf.cell(8, 8, "", border=1)
                pdf.cell(26, 8, f" {label}")
            pdf.set_xy(10, top + 42)
            pdf.cell(95, 7, f"{_('Signature')}: ____________________")
            pdf.cell(95, 7, f"{_('Signature')}: ____________________")
            pdf.set_dash_pattern(dash=1, gap=1)
            pdf.line(10, top + 64, pdf.w - 10, top + 64)
            pdf.set_dash_pattern()
    if not any(sheet.boards for sheet in sheets):
        pdf.add_page()
    return pdf_bytes(pdf)


def certificates_pdf(title: str, winners: Sequence[Winner], date: str) -> bytes:
    """A certificate per prize-winner: the place, the name and (but in a knockout) the
    points."""
    pdf = Document("L", title)
    pdf.set_auto_page_break(False)
    for winner in winners:
        pdf.add_page()
        pdf.set_draw_color(120, 90, 20)
        pdf.set_line_width(1.5)
        pdf.rect(12, 12, pdf.w - 24, pdf.h - 24)
        pdf.set_y(40)
        pdf.set_font("Sans", "B", 34)
        pdf.cell(0, 18, _("Certificate"), align="C")
        pdf.ln(24)
        pdf.set_font("Sans", "", 16)
        pdf.cell(0, 10, _("awarded to"), align="C")
        pdf.ln(14)
        pdf.set_font("Sans", "B", 28)
        pdf.cell(0, 14, pdf.fit(winner.name, pdf.w - 30), align="C")
        pdf.ln(18)
        pdf.set_font("Sans", "", 16)
        pdf.cell(0, 10, _("for place %(place)s in", place=winner.place), align="C")
        pdf.ln(10)
        pdf.set_font("Sans", "B", 18)
        pdf.cell(0, 10, pdf.fit(title, pdf.w - 30), align="C")
        pdf.ln(12)
        pdf.set_font("Sans", "", 13)
        pdf.cell(0, 8, f"{winner.detail}   {date}".strip(), align="C")
    if not winners:
        pdf.add_page()
        pdf.heading(_("No places yet: certificates are printed when the tournament is finished."))
    return pdf_bytes(pdf)
