"""The PDF document every download is drawn on (:mod:`crosstable.web.pdf`): A4 with the
Open Sans font shipped by ``ttf-opensans`` (Cyrillic included), a footer with the title
and the page, and the layout helpers: the heading and the tournament's details under it,
notes, text cut to a cell, and tables whose columns are as wide as their texts
(:meth:`Document.widths`) with the header repeated on every page (:meth:`Document.grid`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import ttf_opensans  # type: ignore[import-untyped]
from fpdf import FPDF

from crosstable.web.i18n import current, number_text
from crosstable.web.i18n import gettext as _
from crosstable.web.sheets import MARKS, WHITE_MARK, Detail

# -- the document ------------------------------------------------------------------------------


def _font_dir() -> Path:
    return Path(ttf_opensans.__file__).parent / "ttf"


#: Open Sans has no Armenian letters: an Armenian document is drawn in DejaVu Sans, cut
#: to the Latin, Greek, Cyrillic and Armenian blocks and the signs (fonts/LICENSE-DejaVu.txt)
ARMENIAN_FONTS = Path(__file__).parent / "fonts"
#: the languages whose letters Open Sans lacks
DEJAVU_LOCALES = frozenset({"hy"})


class Document(FPDF):
    def __init__(self, orientation: str = "P", title: str = "", paper: str = "A4") -> None:
        # paper: "A4", or "A3" for a wall chart
        super().__init__(orientation=orientation, unit="mm", format=paper)
        if current.get() in DEJAVU_LOCALES:
            self.add_font("Sans", "", str(ARMENIAN_FONTS / "DejaVuSansArmenian.ttf"))
            self.add_font("Sans", "B", str(ARMENIAN_FONTS / "DejaVuSansArmenian-Bold.ttf"))
        else:
            fonts = _font_dir()
            self.add_font("Sans", "", str(fonts / "OpenSans-Regular.ttf"))
            self.add_font("Sans", "B", str(fonts / "OpenSans-Bold.ttf"))
        self.set_title(title)
        self.set_creator("crosstable")
        self.set_auto_page_break(auto=True, margin=12)
        self.set_margins(10, 10, 10)
        self.footer_text = title

    def normalize_text(self, text: str) -> str:
        """Open Sans has no narrow no-break space (Russian dates: "2026 г."): a no-break
        space instead."""
        return super().normalize_text(text.replace("\u202f", "\u00a0"))

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

    def details(self, details: Sequence[Detail], size: int = 8) -> None:
        """The tournament under its title: "Venue: … · Dates: … · Arbiter: …", the
        tie-breaks in their order on a line of their own."""
        if not details:
            return
        self.set_font("Sans", "", size)
        tiebreaks = _("Tie-breaks")
        first = [d for d in details if d.label != tiebreaks]
        rest = [d for d in details if d.label == tiebreaks]
        for group in (first, rest):
            if group:
                text = " · ".join(f"{d.label}: {d.value}" for d in group)
                self.multi_cell(0, size * 0.5, text, new_x="LMARGIN", new_y="NEXT")
        self.ln(1)

    def widths(
        self,
        heads: Sequence[str],
        rows: Sequence[Sequence[str]],
        *,
        size: float,
        flex: int = 1,
        same: Sequence[int] = (),
        least: float = 30.0,
        smallest: float = 5.0,
    ) -> tuple[list[float], float]:
        """Column widths for :meth:`grid` and the font size that lets them fit: each column
        as wide as its widest text (the header in bold: a header is never cut while there
        is room, "Рейтинг" and not "Рейт…"), the columns ``same`` as wide as the widest of
        them, the table as wide as the page (a narrow one widened in proportion), the
        ``flex`` column (the names) at least ``least`` mm when the page is short of room
        (longer names are cut then). A table too wide gets a smaller font, down to
        ``smallest`` (a table still too wide is then wider than the page)."""
        room = self.w - self.l_margin - self.r_margin
        while True:
            pad = 2 * self.c_margin + 0.8
            self.set_font("Sans", "B", size)
            need = [self.get_string_width(h) + pad for h in heads]
            self.set_font("Sans", "", size)
            for row in rows:
                for j, value in enumerate(row):
                    need[j] = max(need[j], self.width_of(value) + pad)
            if same:
                widest = max(need[j] for j in same)
                for j in same:
                    need[j] = widest
            others = sum(w for j, w in enumerate(need) if j != flex)
            if others + max(least, need[flex]) <= room:
                need[flex] = max(least, need[flex])
                scale = room / sum(need)
                return [w * scale for w in need], size
            if others + least <= room or size <= smallest:
                need[flex] = max(least, room - others)
                return need, size
            size -= 0.5

    def note(self, text: str, size: int = 8) -> None:
        self.set_font("Sans", "", size)
        if any(mark in text for mark in MARKS):  # a legend naming the colours' marks
            self.marked(text, self.w - self.l_margin - self.r_margin, size * 0.5, "L")
            self.ln(size * 0.5)
        else:
            self.multi_cell(0, size * 0.5, text)
        self.ln(1)

    # -- the colours' marks: Open Sans has no ○ ●, so they are drawn

    def _mark_width(self) -> float:
        return self.font_size * 0.62 + 0.6

    def width_of(self, text: str) -> float:
        """The width ``text`` takes in the current font, a colour's mark as drawn."""
        marks = sum(text.count(mark) for mark in MARKS)
        plain = "".join(c for c in text if c not in MARKS)
        return self.get_string_width(plain) + marks * self._mark_width()

    def marked(self, text: str, width: float, height: float, align: str = "C") -> None:
        """``text`` in a cell ``width`` × ``height`` at the current position (no border),
        each ○ drawn as a hollow circle and each ● as a filled one, the rest as text."""
        x, y = self.get_x(), self.get_y()
        room = width - 2 * self.c_margin
        start = x + self.c_margin
        if align == "C":
            start += max(0.0, (room - self.width_of(text)) / 2)
        baseline = y + height / 2 + self.font_size * 0.35
        radius = self.font_size * 0.31
        at = start
        for part in re.split(f"([{''.join(MARKS)}])", text):
            if part in MARKS:
                self.set_line_width(0.2)
                self.set_fill_color(0)
                centre = at + self._mark_width() / 2
                style = "D" if part == WHITE_MARK else "F"  # White hollow, Black filled
                self.circle(centre, y + height / 2, radius, style=style)
                at += self._mark_width()
            elif part:
                self.text(at, baseline, part)
                at += self.get_string_width(part)
        self.set_xy(x + width, y)

    def fit(self, text: str, width: float) -> str:
        """``text`` cut (with …) to fit a cell ``width`` wide in the current font."""
        room = width - 2 * self.c_margin
        if self.get_string_width(text) <= room:
            return text
        while text and self.get_string_width(text + "…") > room:
            text = text[:-1]
        return text + "…"

    def grid(
        self,
        heads: Sequence[str],
        widths: Sequence[float],
        rows: Sequence[Sequence[str]],
        *,
        size: float = 8,
        height: float = 6,
        left: tuple[int, ...] = (1,),
        shade: Callable[[int, int], bool] | None = None,
    ) -> None:
        """A table with its header repeated on every page it runs over."""

        def header() -> None:
            self.set_font("Sans", "B", size)
            for head, w in zip(heads, widths, strict=True):
                self.cell(w, height, self.fit(head, w), border=1, align="C")
            self.ln()
            self.set_font("Sans", "", size)

        header()
        for i, row in enumerate(rows):
            if self.will_page_break(height):
                self.add_page()
                header()
            for j, (value, w) in enumerate(zip(row, widths, strict=True)):
                fill = shade is not None and shade(i, j)
                if fill:
                    self.set_fill_color(200)
                align = "L" if j in left else "C"
                if any(mark in value for mark in MARKS):
                    self.cell(w, height, "", border=1, fill=fill)
                    self.set_x(self.get_x() - w)
                    self.marked(value, w, height, align)
                else:
                    self.cell(w, height, self.fit(value, w), border=1, align=align, fill=fill)
            self.ln()


def pdf_bytes(pdf: FPDF) -> bytes:
    return bytes(pdf.output())


def number(value: Any, locale: str) -> str:
    return "" if value is None else number_text(value, locale)


def tb_number(code: str, value: Any, locale: str) -> str:
    """A tie-break value as the screens show it (DE 0, "not tied or not separated": –)."""
    return "–" if code == "DE" and value == 0 else number(value, locale)


def provisional_note(pdf: Document, provisional: bool, final: bool) -> None:
    if final:
        pdf.note(_("Final standings."))
    elif provisional:
        pdf.note(_("Provisional: tie-breaks change until the last game ends."))
