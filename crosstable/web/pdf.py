"""PDF downloads (R-OR-5): the crosstable / wall chart, pairing lists, result slips and
winners' certificates, with fpdf2 and the Open Sans font shipped by ``ttf-opensans``
(Cyrillic included, so Russian names print; no system packages needed)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fpdf import FPDF

from crosstable.web.i18n import gettext as _
from crosstable.web.i18n import points_text
from crosstable.web.views import Crosstable


def _font_dir() -> Path:
    import ttf_opensans  # type: ignore[import-untyped]

    return Path(ttf_opensans.__file__).parent / "ttf"


class _Document(FPDF):
    def __init__(self, orientation: str = "P", title: str = "") -> None:
        super().__init__(orientation=orientation, unit="mm", format="A4")
        fonts = _font_dir()
        self.add_font("Sans", "", str(fonts / "OpenSans-Regular.ttf"))
        self.add_font("Sans", "B", str(fonts / "OpenSans-Bold.ttf"))
        self.set_title(title)
        self.set_creator("crosstable")
        self.set_auto_page_break(auto=True, margin=12)
        self.set_margins(10, 10, 10)
        self.footer_text = title

    def footer(self) -> None:
        self.set_y(-9)
        self.set_font("Sans", "", 7)
        self.set_text_color(120)
        self.cell(0, 4, f"{self.footer_text} · {self.page_no()}", align="C")
        self.set_text_color(0)

    def heading(self, text: str, size: int = 14) -> None:
        self.set_font("Sans", "B", size)
        self.multi_cell(0, size * 0.5, text)
        self.ln(2)


def _bytes(pdf: FPDF) -> bytes:
    return bytes(pdf.output())


def crosstable_pdf(table: Crosstable, title: str, locale: str) -> bytes:
    """Seed 000's table on A4 landscape: №, name, rating, a column per opponent, points,
    tie-breaks, place."""
    pdf = _Document("L", title)
    pdf.add_page()
    pdf.heading(title)
    if table.provisional:
        pdf.set_font("Sans", "", 8)
        pdf.cell(0, 5, _("Provisional: tie-breaks change until the last game ends."))
        pdf.ln(6)
    n = table.size
    width = pdf.w - 20
    fixed = 8 + 12 + 12 + 10 * len(table.tiebreaks) + 10
    cell = max(5.0, min(9.0, (width - fixed - 40) / max(n, 1)))
    name_w = max(30.0, width - fixed - cell * n)
    size = 8 if n <= 16 else 6
    pdf.set_font("Sans", "B", size)
    heads = ["№", _("Player"), _("Rating"), *[str(i) for i in range(1, n + 1)], _("Pts")]
    widths = [8, name_w, 12, *([cell] * n), 12]
    heads += [*table.tiebreaks, _("Place")]
    widths += [10] * len(table.tiebreaks) + [10]
    for head, w in zip(heads, widths, strict=True):
        pdf.cell(w, 6, head, border=1, align="C")
    pdf.ln()
    pdf.set_font("Sans", "", size)
    for line in table.lines:
        values: list[str] = [str(line.start), line.name, str(line.rating or "")]
        for opponent in range(1, n + 1):
            if opponent == line.start:
                values.append("×")
            else:
                values.append(" ".join(c.text for c in line.cells.get(opponent, ())))
        values.append(points_text(line.points, locale))
        for value in line.values:
            values.append(_number(value, locale))
        values.append(str(line.rank or ""))
        for index, (value, w) in enumerate(zip(values, widths, strict=True)):
            fill = index == 3 + line.start - 1
            if fill:
                pdf.set_fill_color(200)
            pdf.cell(w, 6, value, border=1, align="L" if index == 1 else "C", fill=fill)
        pdf.ln()
    return _bytes(pdf)


def _number(value: Any, locale: str) -> str:
    from crosstable.web.i18n import number_text

    return "" if value is None else number_text(value, locale)


def pairings_pdf(title: str, rounds: Sequence[tuple[int, Sequence[Any], Sequence[str]]]) -> bytes:
    """Pairing lists: for each round, board, White, Black, result (blank to fill in)."""
    pdf = _Document("P", title)
    for number, games, free in rounds:
        pdf.add_page()
        pdf.heading(f"{title} — {_('Round')} {number}")
        pdf.set_font("Sans", "B", 10)
        for head, w in ((_("Board"), 16), (_("White"), 75), (_("Black"), 75), (_("Result"), 24)):
            pdf.cell(w, 8, head, border=1, align="C")
        pdf.ln()
        pdf.set_font("Sans", "", 10)
        for g in games:
            pdf.cell(16, 8, str(g.board), border=1, align="C")
            pdf.cell(75, 8, f"{g.white}. {g.white_name}", border=1)
            pdf.cell(75, 8, f"{g.black}. {g.black_name}", border=1)
            pdf.cell(24, 8, g.result or "", border=1, align="C")
            pdf.ln()
        for name in free:
            pdf.ln(2)
            pdf.cell(0, 6, f"{_('Free round')}: {name}")
            pdf.ln()
    return _bytes(pdf)


def slips_pdf(title: str, number: int, games: Sequence[Any]) -> bytes:
    """Result slips, four to a page: board, players, boxes to tick, signatures."""
    pdf = _Document("P", title)
    pdf.set_auto_page_break(False)
    for index, g in enumerate(games):
        if index % 4 == 0:
            pdf.add_page()
        top = 10 + (index % 4) * 69
        pdf.set_xy(10, top)
        pdf.set_font("Sans", "B", 11)
        pdf.cell(0, 7, f"{title} · {_('Round')} {number} · {_('Board')} {g.board}")
        pdf.set_font("Sans", "", 10)
        pdf.set_xy(10, top + 10)
        pdf.cell(95, 7, f"{_('White')}: {g.white}. {g.white_name}")
        pdf.cell(95, 7, f"{_('Black')}: {g.black}. {g.black_name}")
        pdf.set_xy(10, top + 22)
        for label in ("1-0", "½-½", "0-1", "+/−", "−/+"):
            pdf.cell(8, 8, "", border=1)
            pdf.cell(26, 8, f" {label}")
        pdf.set_xy(10, top + 40)
        pdf.cell(95, 7, f"{_('Signature')}: ____________________")
        pdf.cell(95, 7, f"{_('Signature')}: ____________________")
        pdf.dashed_line(10, top + 64, pdf.w - 10, top + 64)
    if not games:
        pdf.add_page()
    return _bytes(pdf)


def certificates_pdf(title: str, winners: Sequence[tuple[int, str, str]], date: str) -> bytes:
    """A certificate per prize-winner: (place, name, points)."""
    pdf = _Document("L", title)
    pdf.set_auto_page_break(False)
    for place, name, points in winners:
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
        pdf.cell(0, 14, name, align="C")
        pdf.ln(18)
        pdf.set_font("Sans", "", 16)
        pdf.cell(0, 10, _("for place %(place)s in", place=place), align="C")
        pdf.ln(10)
        pdf.set_font("Sans", "B", 18)
        pdf.cell(0, 10, title, align="C")
        pdf.ln(12)
        pdf.set_font("Sans", "", 13)
        pdf.cell(0, 8, f"{_('Points')}: {points}   {date}", align="C")
    if not winners:
        pdf.add_page()
        pdf.heading(_("No places yet: certificates are printed when the tournament is finished."))
    return _bytes(pdf)
