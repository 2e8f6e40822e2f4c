"""A team league's papers as PDF, drawn from the data the team page shows
(:func:`crosstable.web.team_views.team_data`, a typed :class:`TeamsShown`; a match card
is the core's JSON of it):

* the team crosstable (:func:`team_table_pdf`): place, team, the score against each
  other team, match and game points, the team tie-breaks;
* the board prizes (:func:`board_prizes_pdf`): the best on each board;
* the match sheets (:func:`match_sheets_pdf`): one card per match of a round, the
  boards with their players and results, the score, and lines for the captains' and
  the arbiter's signatures.
"""

from __future__ import annotations

from fractions import Fraction

from crosstable.web.i18n import gettext as _
from crosstable.web.i18n import points_text
from crosstable.web.pdf.document import Document, pdf_bytes
from crosstable.web.team_views import Points, TeamsShown


def _points(value: Points | None, locale: str) -> str:
    return "" if value is None else points_text(Fraction(str(value)), locale)


def _names(data: TeamsShown) -> tuple[dict[int | None, str], dict[int | None, str]]:
    teams = {t.team: t.name for t in data.teams}
    players = {m.start: m.name for t in data.teams for m in t.members}
    return teams, players


def _table(pdf: Document, data: TeamsShown, locale: str) -> None:
    order = sorted(r.team for r in data.rows)
    heads = [_("Place"), _("Team"), *map(str, order), "MP", "GP", *data.tiebreaks]
    rows = []
    for r in data.rows:
        against = [
            "×"
            if other == r.team
            else " ".join(_points(p, locale) for p in r.against.get(str(other), ()))
            for other in order
        ]
        values = [_points(v, locale) for v in r.tiebreaks]
        rows.append(
            [
                str(r.place),
                f"{r.team}. {r.name}",
                *against,
                _points(r.MP, locale),
                _points(r.GP, locale),
                *values,
            ]
        )
    widths, size = pdf.widths(heads, rows, size=9)
    pdf.grid(heads, widths, rows, size=size, left=(1,))


def _prizes(pdf: Document, data: TeamsShown, locale: str) -> None:
    teams, players = _names(data)
    heads = [_("Board"), _("Place"), _("Player"), _("Team"), _("Points"), _("Games")]
    rows = [
        [
            str(p.board),
            str(p.place),
            f"{p.start}. {players.get(p.start, '')}",
            teams.get(p.team, ""),
            _points(p.points, locale),
            str(p.games),
        ]
        for p in data.board_prizes
    ]
    widths, size = pdf.widths(heads, rows, size=9)
    pdf.grid(heads, widths, rows, size=size, left=(2, 3))


def team_table_pdf(data: TeamsShown, title: str, locale: str) -> bytes:
    """The team crosstable (landscape), the board prizes under it."""
    pdf = Document("L", title)
    pdf.add_page()
    pdf.heading(f"{title} — {_('Team table')}")
    _table(pdf, data, locale)
    pdf.ln(5)
    pdf.heading(_("Board prizes"), 11)
    _prizes(pdf, data, locale)
    return pdf_bytes(pdf)


def board_prizes_pdf(data: TeamsShown, title: str, locale: str) -> bytes:
    """The board prizes alone."""
    pdf = Document("P", title)
    pdf.add_page()
    pdf.heading(f"{title} — {_('Board prizes')}")
    _prizes(pdf, data, locale)
    return pdf_bytes(pdf)


def match_sheets_pdf(
    data: TeamsShown, title: str, locale: str, round_number: int | None = None
) -> bytes:
    """A card per match (of one round, or of every round), to be filled in and signed."""
    teams, players = _names(data)
    pdf = Document("P", title)
    pdf.add_page()
    cards = [m for m in data.matches if round_number in (None, m["round"])]
    for card in cards:
        boards = len(card["boards"])
        if pdf.will_page_break(40 + 8 * boards):
            pdf.add_page()
        white, black = teams.get(card["white"], ""), teams.get(card["black"], "")
        pdf.heading(f"{title} — {_('Round')} {card['round']}: {white} – {black}", 12)
        heads = [_("Board"), white, black, _("Result")]
        rows = [
            [
                str(k),
                f"{b['white']}. {players.get(b['white'], '')}",
                f"{b['black']}. {players.get(b['black'], '')}",
                b["result"] or "",
            ]
            for k, b in enumerate(card["boards"], 1)
        ]
        score = [_points(card["score"][0], locale), _points(card["score"][1], locale)]
        rows.append(["", *score, ""] if card["finished"] else ["", "", "", ""])
        pdf.grid(heads, [16.0, 75.0, 75.0, 24.0], rows, size=10, height=8, left=(1, 2))
        pdf.ln(3)
        pdf.set_font("Sans", "", 9)
        for who in (_("Captain of %(team)s", team=white), _("Captain of %(team)s", team=black)):
            pdf.cell(95, 8, f"{who}: ____________________")
        pdf.ln(8)
        pdf.cell(0, 8, f"{_('Arbiter')}: ____________________")
        pdf.ln(12)
    if not cards:
        pdf.note(_("There are no matches yet."), 10)
    return pdf_bytes(pdf)


__all__ = ["board_prizes_pdf", "match_sheets_pdf", "team_table_pdf"]
