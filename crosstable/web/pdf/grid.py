"""A round robin's grid on paper, one column per opponent: as one table when it fits the
page at a legible size, else split over pages by its opponents' columns with the row
headers repeated. A tournament's crosstable (:mod:`.tables`) and the blank paper
crosstable (:mod:`.blanks`) are both drawn by :func:`opponents_grid`.

The columns are: ``lead`` row headers (№, name, …), then one column per opponent
(``n`` of them), then the tail (points, tie-breaks) whose last column (the place) is
repeated on every part of a split table.
"""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.web.i18n import gettext as _
from crosstable.web.pdf.document import Document

#: the smallest font a table is printed in (points): below it, a wide round robin's
#: opponent columns are split over pages instead
LEGIBLE = 6.0

#: a grid set at this size or larger has the taller rows
FULL = 8.0

#: the longest a name's column gets when a wide table is split (a longer name is cut)
NAME_CAP = 60.0


def opponents_grid(
    pdf: Document,
    heads: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    lead: int,
    starts: Sequence[int],
    size: float,
    least: float = 30.0,
    heights: tuple[float, float] = (6.0, 4.5),
    written: float = 0.0,
) -> None:
    """The grid at the current position: ``starts`` holds each row's starting number (its
    own square is shaded). ``size`` is the font to try first; the names' column (1) is at
    least ``least`` mm; rows are ``heights[0]`` mm at :data:`FULL` points or more, else
    ``heights[1]`` mm; a split grid's names' column is at least ``written`` mm (room to
    write a name by hand on a blank). A grid too wide for the page at :data:`LEGIBLE`
    points is split: its opponents' columns in parts, each part on pages of its own with
    the row headers and the place repeated, the points and tie-breaks in the last part."""
    n = len(starts)
    widths, fitted = pdf.widths(
        heads, rows, size=size, same=range(lead, lead + n), least=least, smallest=LEGIBLE
    )
    room = pdf.w - pdf.l_margin - pdf.r_margin
    if sum(widths) <= room + 0.01:
        pdf.grid(
            heads,
            widths,
            rows,
            size=fitted,
            height=heights[0] if fitted >= FULL else heights[1],
            shade=lambda i, j: j == lead + starts[i] - 1,
        )
        return
    _split(pdf, list(heads), rows, lead, starts, written, heights[1])


def _split(
    pdf: Document,
    heads: list[str],
    rows: Sequence[Sequence[str]],
    lead: int,
    starts: Sequence[int],
    written: float,
    height: float,
) -> None:
    size, n = LEGIBLE, len(starts)
    room = pdf.w - pdf.l_margin - pdf.r_margin
    pad = 2 * pdf.c_margin + 0.8
    pdf.set_font("Sans", "B", size)
    need = [pdf.width_of(h) + pad for h in heads]
    pdf.set_font("Sans", "", size)
    for row in rows:
        need = [max(w, pdf.width_of(value) + pad) for w, value in zip(need, row, strict=True)]
    widest = max(need[lead : lead + n])
    need[lead : lead + n] = [widest] * n
    need[1] = min(max(need[1], written), NAME_CAP)  # a long name is cut
    column = need[lead]
    tail = need[lead + n :]  # points, tie-breaks, place
    every = sum(need[:lead]) + tail[-1]  # on every part: the row headers and the place
    fits = max(1, int((room - every) / column))
    fits_last = max(1, int((room - every - sum(tail[:-1])) / column))
    parts = 1
    while (parts - 1) * fits + fits_last < n:
        parts += 1
    last = min(fits_last, -(-n // parts))
    share = -(-(n - last) // (parts - 1)) if parts > 1 else 0
    bounds, first = [], 1
    for index in range(parts):
        count = last if index == parts - 1 else min(share, n - last - (first - 1))
        bounds.append((first, first + count - 1))
        first += count
    for index, (low, high) in enumerate(bounds):
        final = index == len(bounds) - 1
        picked = [*range(lead), *range(lead - 1 + low, lead + high)]
        picked += list(range(lead + n, len(heads))) if final else [len(heads) - 1]
        if index:
            pdf.add_page()
        pdf.note(_("Opponents %(first)s–%(last)s of %(n)s", first=low, last=high, n=n))
        columns = tuple(picked)

        def own(i: int, k: int, columns: tuple[int, ...] = columns) -> bool:
            return columns[k] == lead + starts[i] - 1  # the player's own square

        pdf.grid(
            [heads[j] for j in picked],
            [need[j] for j in picked],
            [[row[j] for j in picked] for row in rows],
            size=size,
            height=height,
            shade=own,
        )
