"""The tables of a tournament as PDF, one per system, each as its screen shows it:

* a round robin: seed 000's grid, one column per opponent (:func:`crosstable_pdf`);
* a Swiss: its table by rounds — place, name, number, rating, each round as the
  opponent's number, the colour and the result, or the bye's kind; points and
  tie-breaks (:func:`swiss_pdf`, from :func:`crosstable.web.pairing_views.swiss_table`);
* a Scheveningen: the team grid, team A's players as rows and team B's as columns,
  then the individual standings (:func:`teams_pdf`, from
  :func:`crosstable.web.sheets.team_grid`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from crosstable.web.i18n import gettext as _
from crosstable.web.i18n import points_text, tiebreak_head
from crosstable.web.messages import translate
from crosstable.web.pairing_views import SwissTable
from crosstable.web.pdf.document import Document, pdf_bytes, provisional_note, tb_number
from crosstable.web.pdf.grid import opponents_grid
from crosstable.web.sheets import Detail, TeamGrid, swiss_cell_text, swiss_legend
from crosstable.web.views import Crosstable


def crosstable_pdf(
    table: Crosstable,
    title: str,
    locale: str,
    details: Sequence[Detail] = (),
    paper: str = "A4",
) -> bytes:
    """Seed 000's table on A4 (or ``paper`` A3: the wall chart) landscape: №, name,
    rating, a column per opponent, points, tie-breaks, place (a round robin), under the
    title and the tournament's details. A table too wide for the page at a legible size is
    split (:func:`~crosstable.web.pdf.grid.opponents_grid`): its opponents' columns in
    parts, each part on pages of its own with the row headers (№, name, rating) and the
    place repeated, the points and tie-breaks in the last part — every column printed,
    nothing past the page's edge."""
    pdf = Document("L", title, paper)
    pdf.add_page()
    pdf.heading(title)
    pdf.details(details)
    provisional_note(pdf, table.provisional, table.final)
    n = table.size
    lead = ["№", _("Player"), _("Rating")]
    heads = [*lead, *[str(i) for i in range(1, n + 1)], _("Pts")]
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
    starts = [line.start for line in table.lines]
    opponents_grid(pdf, heads, rows, lead=3, starts=starts, size=8 if n <= 16 else 7)
    return pdf_bytes(pdf)


def swiss_pdf(
    swiss: SwissTable,
    title: str,
    locale: str,
    details: Sequence[Detail] = (),
    paper: str = "A4",
) -> bytes:
    """The Swiss table (the progress chart) on A4 (or A3) landscape: place, name, №,
    rating, one column per round (opponent, colour, result, or the bye), points and
    tie-breaks, in ranking order."""
    pdf = Document("L", title, paper)
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
    for text in [*swiss_legend(), *(translate(note) for note in swiss.notes)]:
        pdf.note(text, 7)
    return pdf_bytes(pdf)


def teams_pdf(
    grid: TeamGrid,
    table: Crosstable,
    title: str,
    locale: str,
    details: Sequence[Detail] = (),
    paper: str = "A4",
) -> bytes:
    """A Scheveningen on A4 (or A3) landscape: the team grid (team A's rows × team B's columns,
    each player's points, the team scores), then the individual standings."""
    pdf = Document("L", title, paper)
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
