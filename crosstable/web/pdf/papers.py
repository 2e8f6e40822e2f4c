"""The papers of the tournament hall as PDF: pairing lists (:func:`pairings_pdf`),
result slips (:func:`slips_pdf`) and winners' certificates (:func:`certificates_pdf`),
drawn from the :class:`~crosstable.web.sheets.Sheet` and
:class:`~crosstable.web.sheets.Winner` values the print pages show too."""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.web.i18n import gettext as _
from crosstable.web.pdf.document import Document, pdf_bytes
from crosstable.web.sheets import Sheet, Winner, by_name, colour_name, name_key, undrawn_text


def _by_board(pdf: Document, title: str, sheet: Sheet) -> None:
    pdf.heading(f"{title} — {_('Round')} {sheet.round}")
    if sheet.knockout:
        heads = [_("Board"), _("Match"), _("White"), _("Black"), _("Result")]
        widths = [11.0, 66.0, 49.0, 49.0, 15.0]
    else:
        heads = [_("Board"), _("White"), _("Black"), _("Result")]
        widths = [16.0, 75.0, 75.0, 24.0]
    if sheet.undrawn:  # battle chess: nobody has White until the computer draws
        heads = [_("Board"), _("Player"), _("Player"), _("Result")]
        pdf.note(_("Players (colours drawn before the game)"), 10)
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


def _by_name(pdf: Document, title: str, sheet: Sheet) -> None:
    """The round's list by player name: player, board, colour, opponent."""
    pdf.heading(f"{title} — {_('Round')} {sheet.round} — {_('By name')}")
    heads = [_("Player"), _("Board"), _("Colour"), _("Opponent")]
    rows = []
    for n in by_name(sheet):
        player = f"{n.start}. {n.name}" if n.start is not None else n.name
        if n.board is None:
            rows.append([player, "", "", n.bye])
        else:
            rows.append(
                [
                    player,
                    str(n.board),
                    colour_name(n.colour, sheet.undrawn),
                    f"{n.opponent}. {n.opponent_name}",
                ]
            )
    if sheet.undrawn:  # the colour column says that the colours are drawn before the game
        pdf.grid(heads, [62.0, 14.0, 52.0, 62.0], rows, size=8, height=8, left=(0, 3))
    else:
        pdf.grid(heads, [75.0, 16.0, 24.0, 75.0], rows, size=10, height=8, left=(0, 3))


def pairings_pdf(title: str, sheets: Sequence[Sheet], names: bool = False) -> bytes:
    """Pairing lists: a page per round — board, White, Black, result (blank to fill in);
    in a knockout the match and game of each board; then the byes by kind. With
    ``names`` (the hall's set) each round's list by player name follows on
    a page of its own."""
    pdf = Document("P", title)
    for sheet in sheets:
        pdf.add_page()
        _by_board(pdf, title, sheet)
        if names:
            pdf.add_page()
            _by_name(pdf, title, sheet)
    if not sheets:
        pdf.add_page()
        pdf.heading(_("No round is paired yet."))
    return pdf_bytes(pdf)


def checkin_pdf(title: str, round_number: int, players: Sequence[tuple[int, str]]) -> bytes:
    """The check-in sheet of a round: the players by name, each with a box
    to sign in before the round."""
    pdf = Document("P", title)
    pdf.add_page()
    pdf.heading(f"{title} — {_('Round')} {round_number} — {_('Check-in')}")
    pdf.note(_("Sign in the box next to your name before the round starts."), 10)
    heads = ["№", _("Player"), _("Signature")]
    ordered = sorted(players, key=lambda p: (name_key(p[1]), p[1], p[0]))
    rows = [[str(start), name, ""] for start, name in ordered]
    pdf.grid(heads, [14.0, 100.0, 76.0], rows, size=11, height=11, left=(1,))
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
            if sheet.undrawn:  # battle chess before the draw of colours
                pdf.cell(95, 7, pdf.fit(f"{g.white}. {g.white_name}", 95))
                pdf.cell(95, 7, pdf.fit(f"{g.black}. {g.black_name}", 95))
                pdf.set_xy(10, top + 18)
                pdf.set_font("Sans", "", 8)
                pdf.cell(0, 5, undrawn_text())
                pdf.set_font("Sans", "", 10)
            else:
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
