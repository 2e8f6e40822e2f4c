"""Print-ready pages (CSS for paper) and PDF downloads; exports (R-OR-5)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from crosstable.web import i18n
from crosstable.web import pdf as pdfs
from crosstable.web.routes.common import caller_of

router = APIRouter(include_in_schema=False)


def _pdf(data: bytes, name: str) -> Response:
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def _winners(table: object) -> list[tuple[int, str, str]]:
    lines = table.ranked_lines()  # type: ignore[attr-defined]
    return [
        (line.rank, line.name, i18n.points_text(line.points))
        for line in lines
        if line.rank is not None and line.rank <= 3
    ]


@router.get("/t/{tid}/print", response_class=HTMLResponse)
def print_index(tid: int, request: Request) -> Response:
    site, caller = caller_of(request)
    from crosstable.web.routes.pages import _context

    return site.page(request, "print_index.html", caller=caller, **_context(site, caller, tid))


@router.get("/t/{tid}/print/{what}", response_class=HTMLResponse)
def print_page(tid: int, what: str, request: Request, round: int = 0) -> Response:
    """``crosstable`` (wall chart), ``pairings``, ``slips`` or ``certificates``."""
    site, caller = caller_of(request)
    if what not in ("crosstable", "pairings", "slips", "certificates"):
        raise HTTPException(status_code=404, detail="unknown print page")
    from crosstable.web.routes.pages import _context

    context = _context(site, caller, tid)
    view = context["t"]
    rounds = [round] if round else list(range(1, view.rounds + 1))
    by_round = [
        (r, [g for g in view.games if g.round == r], [s for rr, s in view.free_rounds if rr == r])
        for r in rounds
    ]
    return site.page(
        request,
        f"print_{what}.html",
        caller=caller,
        by_round=by_round,
        winners=_winners(context["table"]),
        **context,
    )


@router.get("/t/{tid}/pdf/{name}")
def pdf(tid: int, name: str, request: Request, round: int = 0) -> Response:
    site, _caller = caller_of(request)
    view, table = site.tables.get(tid)
    locale = i18n.current.get()
    names = {p.start: p.name for p in view.players}
    if name == "crosstable.pdf":
        return _pdf(pdfs.crosstable_pdf(table, view.name, locale), name)
    if name in ("pairings.pdf", "slips.pdf"):
        rounds = [round] if round else list(range(1, view.rounds + 1))
        if not view.rounds:
            raise HTTPException(status_code=404, detail="there are no rounds yet")
        parts = [
            (
                r,
                [g for g in view.games if g.round == r],
                [names.get(s, "") for rr, s in view.free_rounds if rr == r],
            )
            for r in rounds
        ]
        if name == "pairings.pdf":
            return _pdf(pdfs.pairings_pdf(view.name, parts), name)
        number = rounds[0]
        return _pdf(pdfs.slips_pdf(view.name, number, parts[0][1]), f"slips-{number}.pdf")
    if name == "certificates.pdf":
        winners = _winners(table) if view.status == "finished" else []
        date = i18n.date_text(view.settings.get("end_date") or "", locale)
        return _pdf(pdfs.certificates_pdf(view.name, winners, date), name)
    raise HTTPException(status_code=404, detail="unknown PDF")


@router.get("/t/{tid}/export/{fmt}")
def export(tid: int, fmt: str, request: Request) -> Response:
    """TRF-2026, TRF-16 or JSON, as a download."""
    site, _caller = caller_of(request)
    if fmt == "json":
        return JSONResponse(
            site.service.export_json(tid),
            headers={"Content-Disposition": f'attachment; filename="tournament-{tid}.json"'},
        )
    if fmt not in ("trf2026", "trf16"):
        raise HTTPException(status_code=404, detail="export formats: trf2026, trf16, json")
    return PlainTextResponse(
        site.service.export_trf(tid, fmt),
        headers={"Content-Disposition": f'attachment; filename="tournament-{tid}-{fmt}.trf"'},
    )
