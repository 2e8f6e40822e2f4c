"""Blank papers for a club without a computer at the board: the FIDE Berger tables of 4 to
16 players (:func:`berger_pdf`, one page a size) and a blank crosstable of any size to
fill in by hand (:func:`blank_crosstable_pdf`), in the reader's language.

What they hold is the core's (:mod:`crosstable.core.schedule.blank`: the pairs of each
round, the sizes allowed); this module only draws. The blank crosstable is drawn by the
same grid as a tournament's (:func:`~crosstable.web.pdf.grid.opponents_grid`): one
table when it fits, split by its opponents' columns with the row headers repeated when
it is too wide.
"""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.core.schedule.blank import (
    BergerSheet,
    BlankRound,
    berger_sheet,
    berger_sheets,
    check_blank_crosstable,
)
from crosstable.web.i18n import gettext as _
from crosstable.web.pdf.document import Document, pdf_bytes
from crosstable.web.pdf.grid import opponents_grid

#: the font a blank crosstable is first tried in (points); it is portrait while it fits so
BLANK_SIZE = 9.0
#: the least width of the names' column on a blank crosstable (mm): room to write a name
NAME_ROOM = 45.0


def bye_text() -> str:
    """The free round's mark in a pair, in the reader's language: "(bye)", «(свободен)»."""
    return _("(bye)")


def pair_text(pair: tuple[int | None, int | None]) -> str:
    """``1 — 6`` (White first), or ``1 — bye`` for the free round."""
    white, black = (bye_text() if p is None else str(p) for p in pair)
    return f"{white} — {black}"


def berger_title(sheet: BergerSheet) -> str:
    return _("Berger table for %(n)s players", n=sheet.players)


def _players_box(pdf: Document, players: int) -> None:
    """The numbers and an empty line for each player's name, in two columns."""
    pdf.set_font("Sans", "B", 10)
    pdf.cell(0, 7, _("Players"))
    pdf.ln(8)
    half = -(-players // 2)
    rows = []
    for i in range(1, half + 1):
        other = i + half
        rows.append([str(i), "", str(other) if other <= players else "", ""])
    heads = ["№", _("Player"), "№", _("Player")]
    pdf.grid(heads, [12.0, 83.0, 12.0, 83.0], rows, size=10, height=8, left=(1, 3))


def _berger_page(pdf: Document, sheet: BergerSheet) -> None:
    pdf.add_page()
    pdf.heading(berger_title(sheet), 16)
    pdf.note(_("The left number plays White."), 11)
    if sheet.table != sheet.players:
        pdf.note(
            _(
                "%(n)s players use the table of %(table)s: whoever meets number %(table)s "
                "has the free round, marked “%(bye)s”.",
                n=sheet.players,
                table=sheet.table,
                bye=bye_text(),
            ),
            10,
        )
    boards = len(sheet.rounds[0].pairs)
    heads = [_("Round"), *(_("Board %(board)s", board=b) for b in range(1, boards + 1))]
    rows = blank_round_rows(sheet.rounds)
    widths, size = pdf.widths(
        heads, rows, size=12, flex=0, least=14.0, same=range(1, boards + 1), smallest=7
    )
    pdf.grid(heads, widths, rows, size=size, height=9, left=())
    pdf.ln(5)
    _players_box(pdf, sheet.players)


def berger_pdf(players: Sequence[int] | None = None) -> bytes:
    """The blank Berger tables of ``players`` (each 4 to 16), one page a size; all of
    them, 4 to 16, when ``players`` is None. A size outside is a RuleError."""
    sheets = berger_sheets() if players is None else tuple(map(berger_sheet, players))
    title = _("Berger tables") if players is None else berger_title(sheets[0])
    pdf = Document("P", title)
    for sheet in sheets:
        _berger_page(pdf, sheet)
    return pdf_bytes(pdf)


def blank_round_rows(rounds: Sequence[BlankRound]) -> list[list[str]]:
    """The rows a Berger page prints (the round, then each pair as text)."""
    return [[str(r.number), *map(pair_text, r.pairs)] for r in rounds]


def blank_crosstable_heads(players: int, tiebreaks: int) -> list[str]:
    heads = ["№", _("Player"), _("Title"), _("Rating")]
    heads += [str(i) for i in range(1, players + 1)]
    heads += [_("Pts"), *(_("TB %(k)s", k=k) for k in range(1, tiebreaks + 1)), _("Place")]
    return heads


def _orientation(heads: Sequence[str], rows: Sequence[Sequence[str]], players: int) -> str:
    """Portrait while the grid fits A4's width at :data:`BLANK_SIZE` points, else landscape."""
    probe = Document("P")
    widths, size = probe.widths(
        heads, rows, size=BLANK_SIZE, same=range(4, 4 + players), least=NAME_ROOM
    )
    room = probe.w - probe.l_margin - probe.r_margin
    return "P" if size >= BLANK_SIZE and sum(widths) <= room + 0.01 else "L"


def blank_crosstable_pdf(players: int, tiebreaks: int = 2) -> bytes:
    """A blank crosstable of ``players`` (2 to 100) with ``tiebreaks`` columns (0 to 6):
    №, name, title and rating to fill in, a column per opponent with the player's own
    square shaded, points, tie-breaks and place; portrait while it fits, landscape when
    wide, split over pages with the row headers repeated when too wide for one."""
    players, tiebreaks = check_blank_crosstable(players, tiebreaks)
    heads = blank_crosstable_heads(players, tiebreaks)
    rows = [[str(i), *([""] * (len(heads) - 1))] for i in range(1, players + 1)]
    title = _("Crosstable for %(n)s players", n=players)
    pdf = Document(_orientation(heads, rows, players), title)
    pdf.add_page()
    pdf.heading(title)
    blank = "____________________"
    pdf.note(
        " · ".join(
            f"{label}: {blank}"
            for label in (_("Tournament"), _("Venue"), _("Dates"), _("Chief arbiter"))
        ),
        9,
    )
    pdf.note(
        _(
            "Write each game's result in both players' rows: 1 a win, ½ a draw, 0 a loss; "
            "the shaded square is the player's own."
        ),
        8,
    )
    opponents_grid(
        pdf,
        heads,
        rows,
        lead=4,
        starts=list(range(1, players + 1)),
        size=BLANK_SIZE,
        least=NAME_ROOM,
        heights=(8.0, 6.0),
        written=NAME_ROOM,
    )
    return pdf_bytes(pdf)
