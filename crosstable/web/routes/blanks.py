"""Blank papers (no tournament needed): the FIDE Berger tables of 4 to 16 players and a
blank crosstable of any size, as PDF in the reader's language, a page that links them,
and the blank Berger table as JSON.

* ``GET /print/blank``: the page, with a form for the crosstable's size;
* ``GET /print/blank/berger.pdf?players=N`` (``all`` or nothing: every size, a page each);
* ``GET /print/blank/crosstable.pdf?players=N&tiebreaks=K``;
* ``GET /api/v1/blank/berger/{players}``: the same table as JSON.

A size outside the range, or not a number, is the core's RuleError: a 422 with the
message in the reader's language (the error page, or ``{"detail": …}`` for the API).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from crosstable.core.schedule.blank import (
    BERGER_SIZES,
    CROSSTABLE_SIZES,
    MAX_TIEBREAKS,
    berger_sheet,
    whole_number,
)
from crosstable.service.read_views import JsonObject
from crosstable.web.pdf.blanks import berger_pdf, blank_crosstable_pdf
from crosstable.web.routes.common import pdf_download
from crosstable.web.site import site_of

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api/v1", tags=["api"])


@router.get("/print/blank")
def blank_page(request: Request, players: str = "") -> Response:
    """The blank papers: a Berger table per size, every one at once, a blank crosstable
    (its size filled in from ``players`` when that is a size it takes)."""
    size = int(players) if players.isdigit() and int(players) in CROSSTABLE_SIZES else None
    return site_of(request).page(
        request,
        "print_blank.html",
        sizes=list(BERGER_SIZES),
        low=CROSSTABLE_SIZES.start,
        high=CROSSTABLE_SIZES.stop - 1,
        most=MAX_TIEBREAKS,
        players=size,
    )


@router.get("/print/blank/berger.pdf")
def blank_berger_pdf(players: str = "all") -> Response:
    """Blank Berger tables: one size (4 to 16), or every size with ``all``."""
    if players.strip().lower() in ("", "all"):
        return pdf_download(berger_pdf(), "berger-tables.pdf")
    count = whole_number(players, "players")
    return pdf_download(berger_pdf([count]), f"berger-{count}.pdf")


@router.get("/print/blank/crosstable.pdf")
def blank_crosstable(players: str = "", tiebreaks: str = "2") -> Response:
    """A blank crosstable of ``players`` (2 to 100) with ``tiebreaks`` columns (0 to 6)."""
    count = whole_number(players, "players")
    columns = whole_number(tiebreaks, "tie-breaks")
    return pdf_download(blank_crosstable_pdf(count, columns), f"crosstable-{count}.pdf")


@api_router.get("/blank/berger/{players}")
def blank_berger_json(players: str) -> JsonObject:
    """The blank Berger table of ``players`` (4 to 16): ``{"players", "table", "rounds":
    [{"round", "pairs": [[white, black], …], "bye"}]}``, the free round of an odd field
    as ``null`` in its pair, board 1 first, the left number White."""
    return berger_sheet(whole_number(players, "players")).to_json()
