"""Print-ready pages (CSS for paper) and PDF downloads; exports.

Every system prints what its screen shows (the data come from the same places):

* the crosstable / wall chart: a round robin's grid (:mod:`crosstable.web.views`), a
  Swiss's table by rounds (:func:`crosstable.web.pairing_views.swiss_table`), a
  knockout's bracket (the service's ``bracket_view``), a Scheveningen's team grid;
* pairing lists and result slips per round, the byes named by kind (pairing-allocated,
  half-point, zero-point, full-point, the free round of an odd round robin; a
  knockout's bye to round 2), and in a knockout the match and game of every board;
* winners' certificates from the final places (a knockout: the bracket's places).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from crosstable.core.text import Message
from crosstable.service import Service
from crosstable.service.queries import TournamentView
from crosstable.service.rating_figures import rating_figures
from crosstable.web import i18n, pairing_views
from crosstable.web import pdf as pdfs
from crosstable.web import sheets as paper
from crosstable.web.contexts import TemplateContext
from crosstable.web.i18n import gettext as _
from crosstable.web.routes.common import (
    caller_of,
    page_context,
    pdf_download,
    require_export_allowed,
)
from crosstable.web.sheets import Board, ByeLine, Sheet, Winner
from crosstable.web.site import Site
from crosstable.web.views import PlayerLine

router = APIRouter(include_in_schema=False)

PAGES = ("crosstable", "pairings", "slips", "certificates", "ratings")


# -- what is printed ---------------------------------------------------------------------


def bye_kinds(service: Service, view: TournamentView) -> dict[tuple[int, int], str]:
    """(round, starting number) → the kind of the bye: ``U``, ``H``, ``F``, ``Z`` (the
    byes the service lists) or ``free`` (the free round of an odd round robin)."""
    kinds = {(b.round, b.start): b.kind for b in pairing_views.byes(service, view.id)}
    for rnd, start in view.free_rounds:
        kinds.setdefault((rnd, start), "free")
    return kinds


def player_byes(site: Site, view: TournamentView, line: PlayerLine) -> dict[int, str]:
    """The player page's rounds without a game: round → what it was, in the reader's
    language (a bye by its kind, or "not paired"). A knockout lists only the bye to
    round 2: its other rounds without a game are sittings the player was not in."""
    knockout = pairing_views.is_knockout(view)
    kinds = bye_kinds(site.service, view)
    out: dict[int, str] = {}
    for rnd in line.free_rounds:
        kind = kinds.get((rnd, line.start), "")
        if knockout and not kind:
            continue
        out[rnd] = paper.bye_label(kind, knockout)
    return out


def printed_rounds(view: TournamentView) -> list[int]:
    """The rounds with published pairings (a Swiss's round holding only byes asked for in
    advance is not paired yet)."""
    if pairing_views.is_swiss(view) or pairing_views.is_knockout(view):
        return list(range(1, pairing_views.paired_rounds(view) + 1))
    return list(range(1, view.rounds + 1))


def _chosen_rounds(view: TournamentView, number: int) -> list[int]:
    rounds = printed_rounds(view)
    if not number:
        return rounds
    if not rounds:
        raise HTTPException(status_code=404, detail="there are no rounds yet")
    if number not in rounds:
        raise HTTPException(
            status_code=404,
            detail=Message(
                "there is no round {round} (rounds 1–{rounds})", round=number, rounds=rounds[-1]
            ),
        )
    return [number]


def _knockout_matches(site: Site, view: TournamentView, rnd: int) -> dict[int, str]:
    """Board → "Semi-final · Match 5 · rapid 3" (the round view's board labels)."""
    found = pairing_views.knockout_round(site.service, view, rnd)
    return {
        board: " · ".join(
            (
                paper.round_title(m.round_name, m.slot == found.size),
                f"{_('Match')} {m.slot}",
                f"{paper.game_kind(m.kind)} {m.game}",
            )
        )
        for board, m in found.ko_boards.items()
    }


def sheets(site: Site, view: TournamentView, rounds: list[int]) -> list[Sheet]:
    """Each round's boards and byes, as the pairing lists and slips print them."""
    knockout = pairing_views.is_knockout(view)
    kinds = bye_kinds(site.service, view)
    names = {p.start: p.name for p in view.players}
    drawn = site.service.colours_drawn(view.id)  # battle chess: round → colours drawn
    out = []
    for rnd in rounds:
        matches = _knockout_matches(site, view, rnd) if knockout else {}
        boards = tuple(
            Board(
                g.board,
                g.white,
                g.white_name,
                g.black,
                g.black_name,
                g.result or "",
                matches.get(g.board, ""),
            )
            for g in view.games
            if g.round == rnd
        )
        byes = sorted(
            (
                ByeLine(start, names.get(start, ""), kind, paper.bye_label(kind, knockout))
                for (r, start), kind in kinds.items()
                if r == rnd
            ),
            key=lambda b: (paper.BYE_ORDER.get(b.kind, 9), b.start),
        )
        out.append(Sheet(rnd, boards, tuple(byes), drawn is not None and not drawn.get(rnd)))
    return out


def winners(site: Site, view: TournamentView, table: Any) -> list[Winner]:
    """The prize-winners of a finished tournament (places 1–3): a knockout's from its
    bracket (both losing semi-finalists share 3–4 unless a match for third place was
    played), the others' from the final standings, with their points."""
    if view.status != "finished":
        return []
    if pairing_views.is_knockout(view):
        bracket = pairing_views.bracket_shown(site.service, view)
        return [
            Winner(p.place.replace("-", "–"), p.player.name)
            for p in (() if bracket is None else bracket.placings)
            if p.place and int(p.place.split("-")[0]) <= 3
        ]
    return [
        Winner(str(line.rank), line.name, f"{_('Points')}: {i18n.points_text(line.points)}")
        for line in table.ranked_lines()
        if line.rank is not None and line.rank <= 3
    ]


def wall_chart(site: Site, view: TournamentView, table: Any) -> TemplateContext:
    """What the crosstable print page and PDF show for this system: ``swiss`` (the Swiss
    table), ``bracket`` (the bracket laid out for paper), ``team_grid`` (a
    Scheveningen's), or nothing more (a round robin's grid is ``table``)."""
    if pairing_views.is_swiss(view):
        return {"swiss": pairing_views.SWISS_TABLES.get(site.service, view, table)}
    if pairing_views.is_knockout(view):
        bracket = pairing_views.bracket_shown(site.service, view)
        return {"bracket": None if bracket is None else paper.bracket_sheet(bracket)}
    if pairing_views.system_of(view) == pairing_views.SCHEVENINGEN:
        numbers = pairing_views.teams(site.service, view.id)
        team_of = {p.start: numbers.get(p.number, "") for p in view.players if p.start}
        return {"team_grid": paper.team_grid(table, team_of)}
    return {}


# -- the pages ------------------------------------------------------------------------------


@router.get("/t/{tid}/print", response_class=HTMLResponse)
def print_index(tid: int, request: Request) -> Response:
    site, caller = caller_of(request)
    context = page_context(site, caller, tid)
    return site.page(
        request,
        "print_index.html",
        caller=caller,
        printed=printed_rounds(context["t"]),
        **context,
    )


@router.get("/t/{tid}/print/{what}", response_class=HTMLResponse)
def print_page(tid: int, what: str, request: Request, round: int = 0) -> Response:
    """``crosstable`` (wall chart), ``pairings``, ``slips``, ``certificates`` or
    ``ratings`` (the FIDE rating report)."""
    site, caller = caller_of(request)
    if what not in PAGES:
        raise HTTPException(status_code=404, detail="unknown print page")
    context = page_context(site, caller, tid)
    view, table = context["t"], context["table"]
    extra: TemplateContext = {}
    if what == "crosstable":
        extra = wall_chart(site, view, table)
        extra["details"] = paper.tournament_details(view.settings, tuple(table.tiebreaks))
        extra["cell_text"] = paper.swiss_cell_text
        extra["legend"] = paper.swiss_legend() if "swiss" in extra else []
    elif what in ("pairings", "slips"):
        extra["sheets"] = sheets(site, view, _chosen_rounds(view, round))
    elif what == "ratings":  # the rating report
        extra["figures"] = rating_figures(site.service, tid)
    else:
        extra["winners"] = winners(site, view, table)
        extra["date"] = i18n.date_text(view.settings.end_date or "")
    return site.page(request, f"print_{what}.html", caller=caller, **extra, **context)


@router.get("/t/{tid}/pdf/{name}")
def pdf(tid: int, name: str, request: Request, round: int = 0) -> Response:
    site, _caller = caller_of(request)
    view, table = site.service.crosstable(tid)
    locale = i18n.current.get()
    if name == "crosstable.pdf":
        chart = wall_chart(site, view, table)
        details = paper.tournament_details(view.settings, tuple(table.tiebreaks))
        if chart.get("swiss") is not None:
            return pdf_download(pdfs.swiss_pdf(chart["swiss"], view.name, locale, details), name)
        if chart.get("bracket") is not None:
            return pdf_download(pdfs.bracket_pdf(chart["bracket"], view.name, details), name)
        if chart.get("team_grid") is not None:
            grid = chart["team_grid"]
            return pdf_download(pdfs.teams_pdf(grid, table, view.name, locale, details), name)
        return pdf_download(pdfs.crosstable_pdf(table, view.name, locale, details), name)
    if name in ("pairings.pdf", "slips.pdf"):
        if not printed_rounds(view):
            raise HTTPException(status_code=404, detail="there are no rounds yet")
        chosen = sheets(site, view, _chosen_rounds(view, round))
        if name == "pairings.pdf":
            return pdf_download(pdfs.pairings_pdf(view.name, chosen), name)
        filename = f"slips-{round}.pdf" if round else name
        return pdf_download(pdfs.slips_pdf(view.name, chosen), filename)
    if name == "certificates.pdf":
        date = i18n.date_text(view.settings.end_date or "", locale)
        data = pdfs.certificates_pdf(view.name, winners(site, view, table), date)
        return pdf_download(data, name)
    raise HTTPException(status_code=404, detail="unknown PDF")


@router.get("/t/{tid}/export/{fmt}")
def export(tid: int, fmt: str, request: Request) -> Response:
    """TRF-2026, TRF-16 or JSON, as a download."""
    site, caller = caller_of(request)
    require_export_allowed(site, caller, tid)
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
