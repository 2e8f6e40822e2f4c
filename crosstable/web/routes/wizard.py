"""The tournament wizard with a live preview (the calculator).

Every change of the form asks for ``/new/preview`` (htmx), which shows the
rounds, games, boards, the first round's pairings, the duration and the club
evenings needed — before anything is created.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from crosstable.core.advice import format_advice
from crosstable.core.duration import estimate_duration, format_hours, round_robin_arithmetic
from crosstable.core.errors import CrosstableError, RuleError
from crosstable.core.funding import SOURCES as FUNDING_SOURCES
from crosstable.core.pairing.knockout import MatchFormat, TieRule, seeded_bracket
from crosstable.core.pairing.knockout_bracket import bracket_size
from crosstable.core.pairing.knockout_groups import cross_seeded_lines
from crosstable.core.schedule.groups import plan_group_stage, stage_evenings
from crosstable.core.schedule.kinds import round_robin_table, schedule_kind
from crosstable.core.schedule.rating_groups import groups_rounds, rating_group_sizes
from crosstable.core.schedule.scheveningen import scheveningen
from crosstable.core.text import Message
from crosstable.service.rating_lists import RatingLists, rating_type_of
from crosstable.service.stage_view import group_letter
from crosstable.service.timed_start import check_capacity
from crosstable.web.contexts import FormValue
from crosstable.web.messages import error_text, translate
from crosstable.web.routes import actions
from crosstable.web.routes.common import CheckedForm, caller_of, integer, require_user, text
from crosstable.web.security import Caller

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
    #: the errors behind ``problems``, in order: what Create refuses
    errors: list[CrosstableError] = field(default_factory=list)
    hours: str = ""
    #: Swiss: the rounds are the default ⌈log₂ N⌉ (not typed in)
    default_rounds: bool = False
    #: Swiss: pairing-allocated byes per round (0 or 1)
    byes_per_round: int = 0
    #: knockout: lines of the bracket, byes of the top seeds, matches, games per match
    bracket_size: int = 0
    knockout_byes: list[int] = field(default_factory=list)
    matches: int = 0
    match_games: int = 0
    tie_note: str = ""
    #: Scheveningen: (team, players) in the order first met
    teams: list[tuple[str, int]] = field(default_factory=list)
    #: group stage + knockout: the knockout's round 1 by group places (A1, B2; "" a bye)
    knockout_pairs: list[tuple[str, str]] = field(default_factory=list)
    #: no players typed: the number only plans (the tournament is created without players)
    planned_only: bool = False
    #: warnings, not refusals (Buchholz chosen for a round robin)
    warnings: list[str] = field(default_factory=list)
    #: the format advice by field size (core/advice.py)
    advice: Any = None
    #: group stage + knockout: the evenings it needs
    stage_evenings: Any = None
    #: the tie-break list the tournament will publish, and whether it is its default
    tiebreaks: list[str] = field(default_factory=list)
    default_tiebreaks: bool = False

    def flag(self, error: CrosstableError) -> None:
        """A problem shown under the form, which Create refuses with the same message."""
        self.errors.append(error)
        self.problems.append(error_text(error))


#: the fewest players each format of the wizard can start with (what the start checks:
#: a round robin's Berger table needs 3, a Swiss, a knockout or a Scheveningen 2, quads 4;
#: a group stage's plan checks its groups)
MINIMUM = {
    "round-robin": 3,
    "double-round-robin": 3,
    "swiss": 2,
    "knockout": 2,
    "scheveningen": 2,
    "quads": 4,
    "groups": 3,
    "rating-groups": 3,
}
_FORMAT_NAMES = {
    "round-robin": "a round robin",
    "double-round-robin": "a double round robin",
    "swiss": "a Swiss",
    "knockout": "a knockout",
    "scheveningen": "a Scheveningen",
    "quads": "a quads event",
    "groups": "a group stage",
    "rating-groups": "a rating-groups event",
}


class TooFewPlayersError(RuleError):
    """The players typed cannot start the format (the wizard marks the players field)."""


def check_minimum(format_: str, players: int) -> None:
    """RuleError naming the players field when ``players`` cannot start ``format_``."""
    least = MINIMUM.get(format_, 3)
    if players < least:
        what = _FORMAT_NAMES.get(format_, "a round robin")
        raise TooFewPlayersError(
            "players: {format} needs at least {least} players, and the list has {players}",
            format=what,
            least=least,
            players=players,
        )
    actions.check_format_field(format_, players)  # and at most the cap


#: the regulations' rules the wizard asks for, with the value meant when not given: ties
#: left after the tie-breaks, forfeits in the tie-breaks, the kind
#: of event (online, or over the board)
_RULE_DETAILS = {"ties": "shared", "forfeits_in_tiebreaks": "yes", "venue_kind": "online"}


def spec_from_form(form: Mapping[str, FormValue], service: Any = None) -> actions.WizardSpec:
    """The wizard's form as what it creates; with ``service``, a player given with a FIDE
    id gets what the imported rating lists know of them where nothing was typed."""
    players = actions.parse_player_list(text(form, "list"))
    upload = form.get("csv")
    decoded = None
    if isinstance(upload, bytes) and upload.strip():
        read, decoded = actions.read_player_csv(upload)
        players.extend(read)
    if service is not None and any(p.fide_id for p in players):
        kind = rating_type_of(text(form, "time_control"))
        players = RatingLists(service).filled(players, kind)
    details = tuple(
        (key, text(form, key))
        for key in ("venue", "organiser", "arbiter", "sponsor", "sponsor_credit", "level")
        if text(form, key)
    )
    details += tuple(  # the FIDE rating ranks unless another method is chosen
        ("rating_method", method)
        for method in (text(form, "rating_method").upper(),)
        if method not in ("", "FIDE")
    )
    funding = [source for source in FUNDING_SOURCES if text(form, f"funding_{source}")]
    if funding:  # who pays (the regulations name it: seed 002)
        details += (("funding", ",".join(funding)),)
    if text(form, "battle") in ("on", "yes", "1", "true"):  # battle chess
        details += (("variant", "battle"),)
        if text(form, "setup_minutes"):
            details += (("setup_minutes", text(form, "setup_minutes")),)
    if text(form, "format") == "swiss":  # the portal's Swiss (seed 002), when chosen
        if text(form, "initial_order").lower() not in ("", "rating"):
            details += (("initial_order", text(form, "initial_order").lower()),)
        if text(form, "order_seed"):
            details += (("order_seed", text(form, "order_seed")),)
        if text(form, "even_field") in ("on", "yes", "1", "true"):
            details += (("even_field", "yes"),)
    round_robin = text(form, "format", "round-robin") in ("round-robin", "double-round-robin")
    if round_robin and text(form, "schedule").lower() not in ("", "berger"):  # circle
        details += (("schedule", text(form, "schedule").lower()),)
    if text(form, "format") == "knockout" and text(form, "capacity"):  # a field of 2ⁿ
        details += (("capacity", text(form, "capacity")),)
    if text(form, "finish_confirm") in ("on", "yes", "1", "true"):  # the seeds' last step
        details += (("finish", "confirm"),)
    for key, default in _RULE_DETAILS.items():  # checked by the service, naming the setting
        if text(form, key) and text(form, key).lower() != default:
            details += ((key, text(form, key).lower()),)
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
        group_size=integer(form, "group_size") or 6,
        rounds=integer(form, "rounds"),
        initial_colour=text(form, "initial_colour"),
        match_format=text(form, "match_format", "1") or "1",
        tie_rule=text(form, "tie_rule", "lower-rated") or "lower-rated",
        bracket=text(form, "bracket", "seeded") or "seeded",
        third_place=text(form, "third_place") in ("on", "yes", "1", "true"),
        encoding=decoded,
    )


def _date(raw: str) -> dt.date | None:
    if not raw:
        return None
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise RuleError("{raw} is not a date (YYYY-MM-DD)", raw=repr(raw)) from None


def preview(form: Mapping[str, FormValue], service: Any = None) -> Preview:
    """What the form would create, computed by the core (no manual calculation anywhere)."""
    try:
        spec = spec_from_form(form, service)
        count = len(spec.players) or (integer(form, "count") or 0)
        evening = integer(form, "evening") or 180
    except CrosstableError as error:
        refused = Preview(0, text(form, "format"))
        refused.flag(error)
        return refused
    result = Preview(count, spec.format, planned_only=not spec.players)
    try:
        actions.check_spec(spec)  # the regulations and the time control, as Create checks
        result.warnings = [translate(w) for w in spec.warnings()]
        if spec.format == "knockout":  # a field of 2ⁿ, and the players typed fit in it
            check_capacity("knockout", dict(spec.details), len(spec.players))
        else:  # the list the default choice resolves to, shown
            result.tiebreaks = list(spec.regulations().tiebreaks)
            result.default_tiebreaks = not spec.tiebreak_codes()
    except CrosstableError as error:
        result.flag(error)
        spec = replace(spec, time_control="")  # (flagged once, not again by the estimate)
    if count >= 2 and spec.format in ("round-robin", "double-round-robin"):
        result.advice = _advice(count, spec.time_control, evening)
    if count == 0:  # nothing typed: say so (the tournament is created without players)
        return result
    try:
        check_minimum(spec.format, count)
    except CrosstableError as error:
        result.flag(error)
        return result
    try:
        if spec.format == "swiss":
            _swiss_preview(result, spec, count, evening)
        elif spec.format == "knockout":
            _knockout_preview(result, spec, count, evening)
        elif spec.format in ("round-robin", "double-round-robin"):
            double = spec.format == "double-round-robin"
            arithmetic = round_robin_arithmetic(count)
            result.rounds = arithmetic.double_rounds if double else arithmetic.rounds
            result.games = arithmetic.double_games if double else arithmetic.games
            result.boards = arithmetic.boards
            kind = schedule_kind(dict(spec.details))
            first = round_robin_table(kind, count, 2 if double else 1).rounds[0]
            result.first_round = list(first.boards)
            result.bye = first.bye
            if spec.time_control:
                result.duration = estimate_duration(
                    count, spec.time_control, evening_minutes=evening, double=double
                )
                result.hours = format_hours(result.duration.total_minutes)
        elif spec.format == "scheveningen":
            result.teams = _teams(spec)
            if count % 2:
                raise RuleError("Scheveningen needs two teams of equal size (an even number)")
            _check_teams(result.teams, len(spec.players))
            schedule = scheveningen(count // 2)
            result.rounds = len(schedule.rounds)
            result.games = sum(len(r.boards) for r in schedule.rounds)
            result.boards = count // 2
            result.first_round = list(schedule.rounds[0].boards)
        elif spec.format in actions.RATING_GROUP_FORMATS:  # quads are the groups of four
            _rating_groups_preview(result, spec, count, evening)
        elif spec.format == "groups":
            plan = plan_group_stage(
                count,
                groups=spec.groups,
                cycles=spec.group_cycles,
                qualifiers_per_group=spec.qualifiers_per_group,
                games_per_match=MatchFormat.parse(spec.match_format or "1").games,
                third_place_match=spec.third_place,
            )
            result.plan = plan
            result.knockout_pairs = _cross_pairs(len(plan.group_sizes), plan.qualifiers_per_group)
            result.groups = list(plan.group_sizes)
            result.rounds = plan.total_rounds
            result.games = plan.total_games
            result.boards = sum(size // 2 for size in plan.group_sizes)
            if spec.time_control:
                _stage_evenings(result, spec, plan, evening)
    except CrosstableError as error:
        result.flag(error)
    return result


def _advice(count: int, time_control: str, evening: int) -> Any:
    """The format advice, its rating groups' evenings at the time control's rounds an
    evening (one round an evening when no time control is read)."""
    per_evening = 1
    if time_control:
        with contextlib.suppress(CrosstableError):  # (flagged once, by the check)
            estimate = estimate_duration(count, time_control, evening_minutes=evening)
            per_evening = estimate.rounds_per_evening
    return format_advice(count, rounds_per_evening=per_evening)


def _rating_groups_preview(
    result: Preview, spec: actions.WizardSpec, count: int, evening: int
) -> None:
    """Rating groups (quads: of four): the groups' sizes, the longest group's rounds, the
    games and boards of them all, and the evenings the longest group needs."""
    size = 4 if spec.format == "quads" else spec.group_size
    result.groups = list(rating_group_sizes(count, size))
    result.rounds = groups_rounds(result.groups)
    result.games = sum(n * (n - 1) // 2 for n in result.groups)
    result.boards = sum(n // 2 for n in result.groups)
    if spec.time_control:
        longest = max(result.groups)
        base = estimate_duration(longest, spec.time_control, evening_minutes=evening)
        result.duration = _per_rounds(base, result.rounds, result.rounds)
        result.hours = format_hours(result.duration.total_minutes)


def _stage_evenings(result: Preview, spec: actions.WizardSpec, plan: Any, evening: int) -> None:
    """The evenings of a group stage + knockout: the groups' rounds at the time control's
    rounds an evening, an evening per knockout round, a reserve (core stage_evenings)."""
    base = estimate_duration(max(plan.group_sizes), spec.time_control, evening_minutes=evening)
    result.stage_evenings = stage_evenings(plan, base.rounds_per_evening)


def _swiss_preview(result: Preview, spec: actions.WizardSpec, count: int, evening: int) -> None:
    """A Swiss: ⌈log₂ N⌉ rounds unless the organiser says otherwise, N/2 boards."""
    default = max(1, (count - 1).bit_length())
    rounds = spec.rounds or default
    result.default_rounds = spec.rounds is None
    if rounds >= count:
        raise RuleError(
            (
                "{rounds} rounds need at least {players} players (nobody meets anyone twice); "
                "with {count} players a Swiss has at most {most} rounds"
            ),
            rounds=rounds,
            players=rounds + 1,
            count=count,
            most=count - 1,
        )
    result.rounds = rounds
    result.boards = count // 2
    result.games = rounds * result.boards
    result.byes_per_round = count % 2
    if spec.time_control:
        base = estimate_duration(count, spec.time_control, evening_minutes=evening)
        result.duration = _per_rounds(base, rounds, rounds)
        result.hours = format_hours(result.duration.total_minutes)


def _knockout_preview(result: Preview, spec: actions.WizardSpec, count: int, evening: int) -> None:
    """A knockout: the bracket's size, the top seeds' byes, rounds, matches and games."""
    match_format = MatchFormat.parse(spec.match_format or "1")
    tie_rule = TieRule.parse(spec.tie_rule or "lower-rated")
    size = bracket_size(count)
    result.bracket_size = size
    result.rounds = size.bit_length() - 1
    result.matches = count - 1
    result.match_games = match_format.games
    result.games = result.matches * match_format.games
    bracket = seeded_bracket(count)
    result.knockout_byes = sorted(bracket.byes)
    result.first_round = [
        (top, bottom)
        for top, bottom in (s.players for s in bracket.first_round_matches if s.players)
        if top is not None and bottom is not None
    ]
    played = len(result.first_round)
    result.boards = played * (match_format.games if match_format.at_once else 1)
    result.tie_note = tie_rule.label()
    if spec.time_control:
        base = estimate_duration(max(count, 3), spec.time_control, evening_minutes=evening)
        sittings = result.rounds * (1 if match_format.at_once else match_format.games)
        result.duration = _per_rounds(base, result.rounds, sittings)
        result.hours = format_hours(result.duration.total_minutes)


def _cross_pairs(groups: int, qualifiers: int) -> list[tuple[str, str]]:
    """Round 1 of the knockout after the groups, by group and place (the core's
    cross-seeding: A1 v B2, B1 v A2 …); an empty side is a bye."""
    if groups * qualifiers < 2:
        return []
    keys = [[100 * g + place for place in range(1, qualifiers + 1)] for g in range(groups)]
    lines, _seeding = cross_seeded_lines(keys)
    label = {key: f"{group_letter(key // 100)}{key % 100}" for group in keys for key in group}
    return [
        (label.get(top or 0, ""), label.get(bottom or 0, ""))
        for top, bottom in zip(lines[::2], lines[1::2], strict=True)
    ]


def _per_rounds(base: Any, rounds: int, sittings: int) -> Any:
    """A round robin's duration estimate redone for ``sittings`` rounds of play."""
    total = base.round_minutes * sittings
    return replace(
        base,
        rounds=rounds,
        total_minutes=total,
        evenings=math.ceil(sittings / base.rounds_per_evening),
    )


def _teams(spec: actions.WizardSpec) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for player in spec.players:
        counts[player.team] = counts.get(player.team, 0) + 1
    return list(counts.items())


def _check_teams(teams: list[tuple[str, int]], typed: int) -> None:
    """Two teams of equal size, every typed player in one (a count alone plans only)."""
    if not typed:
        return
    missing = dict(teams).get("", 0)
    if missing:
        raise RuleError(
            (
                "players without a team: {count}; add the team as the fifth column (name; rating; "
                "title; federation; team)"
            ),
            count=missing,
        )
    if len(teams) != 2:
        raise RuleError("a Scheveningen has two teams, not {count}", count=len(teams))
    (a, size_a), (b, size_b) = teams
    if size_a != size_b:
        raise RuleError(
            "the teams differ in size: {a} {size_a}, {b} {size_b}",
            a=a,
            size_a=size_a,
            b=b,
            size_b=size_b,
        )


def require_organiser(caller: Caller) -> None:
    """The role creating a tournament needs (an administrator or a master): 401 for a
    visitor, 403 for anyone else. The wizard's page and its preview check it too."""
    require_user(caller)
    if caller.user is None or not caller.user.may_organise:
        raise HTTPException(
            status_code=403,
            detail="only administrators and masters (winners of an over-the-board event) "
            "may organise tournaments",
        )


@router.get("/new", response_class=HTMLResponse)
def wizard(request: Request) -> Response:
    site, caller = caller_of(request)
    require_organiser(caller)
    empty = preview({"time_control": "G/25 d5"})  # what the empty form would create
    return site.page(
        request,
        "wizard.html",
        caller=caller,
        preview=empty,
        values={},
        levels=site.accounts.levels().names,
    )


@router.post("/new/preview", response_class=HTMLResponse)
def wizard_preview(request: Request, form: CheckedForm) -> Response:
    site, caller = caller_of(request)
    require_organiser(caller)  # before any work: the preview plans up to the field's cap
    return site.page(request, "_preview.html", caller=caller, preview=preview(form, site.service))


@router.post("/new")
def create(request: Request, form: CheckedForm) -> Response:
    """Create what the preview shows; a refusal shows the form again, as it was typed,
    with the message (and the players field marked when the field is too small)."""
    site, caller = caller_of(request)
    try:
        spec = spec_from_form(form, site.service)
        shown = preview(form, site.service)  # one check: what the preview flags is refused
        if shown.errors:
            raise shown.errors[0]
        ids = actions.create_tournaments(site, caller, spec)
    except CrosstableError as error:
        message = error_text(error)
        return site.page(
            request,
            "wizard.html",
            status_code=422,
            caller=caller,
            preview=preview(form, site.service),
            values={k: v for k, v in form.items() if isinstance(v, str)},
            error=message,
            error_field="list" if isinstance(error, TooFewPlayersError) else "",
            levels=site.accounts.levels().names,
        )
    said: list[object] = [Message("created: {ids}", ids=", ".join(str(i) for i in ids))]
    said += [note for note in (actions.encoding_note(spec.encoding),) if note]
    said += list(spec.warnings())
    request.session["flash"] = {"kind": "ok", "text": translate(Message.joined(" ", said))}
    return RedirectResponse(f"/t/{ids[0]}/manage", status_code=303)
