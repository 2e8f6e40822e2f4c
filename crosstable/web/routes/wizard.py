"""The tournament wizard with a live preview (the calculator, R-RR-3, R-RR-16).

Every change of the form asks for ``/new/preview`` (htmx), which shows the
rounds, games, boards, the first round's pairings, the duration and the club
evenings needed — before anything is created.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.core.errors import CrosstableError, RuleError
from crosstable.web.routes import actions
from crosstable.web.routes.common import CheckedForm, caller_of, integer, require_user, text

router = APIRouter(include_in_schema=False)


@dataclass
class Preview:
    players: int
    format: str
    rounds: int = 0
    games: int = 0
    boards: int = 0
    first_round: list[tuple[int, int]] = field(default_factory=list)
    bye: int | None = None
    duration: Any = None
    groups: list[int] = field(default_factory=list)
    plan: Any = None
    problems: list[str] = field(default_factory=list)
    hours: str = ""


def spec_from_form(form: dict[str, Any]) -> actions.WizardSpec:
    players = actions.parse_player_list(text(form, "list"))
    upload = form.get("csv")
    if isinstance(upload, bytes) and upload.strip():
        players.extend(actions.parse_player_csv(upload))
    details = tuple(
        (key, text(form, key)) for key in ("venue", "organiser", "arbiter") if text(form, key)
    )
    tiebreaks = text(form, "tiebreak_list") if text(form, "tiebreaks") == "custom" else ""
    return actions.WizardSpec(
        name=text(form, "name"),
        format=text(form, "format", "round-robin") or "round-robin",
        point_system=text(form, "point_system", "1-0.5-0") or "1-0.5-0",
        bye_points=text(form, "bye_points"),
        tiebreaks=tiebreaks or text(form, "tiebreaks", "rr"),
        withdrawal_rule=text(form, "withdrawal_rule", "fide-50") or "fide-50",
        time_control=text(form, "time_control"),
        start_date=_date(text(form, "start_date")),
        end_date=_date(text(form, "end_date")),
        players=tuple(players),
        details=details,
        groups=integer(form, "groups") or 4,
        qualifiers_per_group=integer(form, "qualifiers") or 1,
        group_cycles=integer(form, "group_cycles") or 2,
    )


def _date(raw: str) -> dt.date | None:
    if not raw:
        return None
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise RuleError(f"{raw!r} is not a date (YYYY-MM-DD)") from None


def preview(form: dict[str, Any]) -> Preview:
    """What the form would create, computed by the core (no manual calculation anywhere)."""
    from crosstable.core.duration import estimate_duration, format_hours, round_robin_arithmetic
    from crosstable.core.schedule import berger_schedule

    try:
        spec = spec_from_form(form)
    except CrosstableError as error:
        return Preview(0, text(form, "format"), problems=[str(error)])
    count = len(spec.players) or (integer(form, "count") or 0)
    result = Preview(count, spec.format)
    evening = integer(form, "evening") or 180
    try:
        spec.regulations().settings()
    except CrosstableError as error:
        result.problems.append(str(error))
    if count < 3:
        result.problems.append("a round robin needs at least 3 players")
        return result
    try:
        if spec.format in ("round-robin", "double-round-robin"):
            double = spec.format == "double-round-robin"
            arithmetic = round_robin_arithmetic(count)
            result.rounds = arithmetic.double_rounds if double else arithmetic.rounds
            result.games = arithmetic.double_games if double else arithmetic.games
            result.boards = arithmetic.boards
            first = berger_schedule(count, 2 if double else 1).rounds[0]
            result.first_round = list(first.boards)
            result.bye = first.bye
            if spec.time_control:
                result.duration = estimate_duration(
                    count, spec.time_control, evening_minutes=evening, double=double
                )
                result.hours = format_hours(result.duration.total_minutes)
        elif spec.format == "scheveningen":
            if count % 2:
                raise RuleError("Scheveningen needs two teams of equal size (an even number)")
            from crosstable.core.schedule.scheveningen import scheveningen

            schedule = scheveningen(count // 2)
            result.rounds = len(schedule.rounds)
            result.games = sum(len(r.boards) for r in schedule.rounds)
            result.boards = count // 2
            result.first_round = list(schedule.rounds[0].boards)
        elif spec.format == "quads":
            from crosstable.core.schedule.quads import group_rounds, quad_sizes

            result.groups = list(quad_sizes(count))
            result.rounds = max(group_rounds(size) for size in result.groups)
            result.games = sum(size * (size - 1) // 2 for size in result.groups)
            result.boards = sum(size // 2 for size in result.groups)
        elif spec.format == "groups":
            from crosstable.core.schedule.groups import plan_group_stage

            plan = plan_group_stage(
                count,
                groups=spec.groups,
                cycles=spec.group_cycles,
                qualifiers_per_group=spec.qualifiers_per_group,
            )
            result.plan = plan
            result.groups = list(plan.group_sizes)
            result.rounds = plan.total_rounds
            result.games = plan.total_games
            result.boards = sum(size // 2 for size in plan.group_sizes)
    except CrosstableError as error:
        result.problems.append(str(error))
    return result


@router.get("/new", response_class=HTMLResponse)
def wizard(request: Request) -> Response:
    site, caller = caller_of(request)
    require_user(caller)
    if caller.user is None or not caller.user.may_organise:
        raise HTTPException(
            status_code=403,
            detail="only administrators and masters (winners of an over-the-board event) "
            "may organise tournaments",
        )
    empty = preview({"count": "6", "time_control": "G/25 d5"})
    return site.page(request, "wizard.html", caller=caller, preview=empty)


@router.post("/new/preview", response_class=HTMLResponse)
def wizard_preview(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    return site.page(request, "_preview.html", caller=caller, preview=preview(form))


@router.post("/new")
def create(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    spec = spec_from_form(form)
    ids = actions.create_tournaments(site, caller, spec)
    request.session["flash"] = {
        "kind": "ok",
        "text": f"created: {', '.join(str(i) for i in ids)}",
    }
    return RedirectResponse(f"/t/{ids[0]}/manage", status_code=303)
