"""The JSON API (OpenAPI at /api/openapi.json, docs at /api/docs): everything the pages do.

Apps and online game servers authenticate with ``Authorization: Bearer <token>``;
the pages' own scripts may use the session cookie plus the ``X-CSRF-Token`` header.
Errors are ``{"detail": "…"}`` with 401 (no or bad credentials), 403 (not allowed),
404 (no such thing), 409 (someone changed it first; ``current`` says what is
there), 422 (against the rules or malformed) and 429 (too many requests).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel

from crosstable.core.duration import estimate_duration
from crosstable.core.model import LotsMethod, Reason
from crosstable.core.scoring import points_json
from crosstable.core.text import Message
from crosstable.service import Change
from crosstable.service.players import duplicate_names
from crosstable.service.read_views import JsonObject, as_object
from crosstable.service.tiebreak_order import published_tiebreaks
from crosstable.web import explain_views
from crosstable.web.messages import translate
from crosstable.web.pairing_views import key_used, paired_rounds
from crosstable.web.routes import actions
from crosstable.web.routes import api_views as views
from crosstable.web.routes.api_models import (
    ConfirmIn,
    CorrectionIn,
    EntryIn,
    LotsIn,
    PairingIn,
    RecordIn,
    ReopenIn,
    ResultIn,
    RevertIn,
    TournamentIn,
    WithdrawIn,
)
from crosstable.web.routes.common import (
    MANAGERS,
    csrf,
    require_export_allowed,
    require_result_entry,
    require_role,
    require_user,
)
from crosstable.web.security import UNSAFE, Caller
from crosstable.web.site import site_of

router = APIRouter(prefix="/api/v1", tags=["api"])


def api_caller(request: Request) -> Caller:
    site = site_of(request)
    caller = site.caller(request)
    if caller.by_token and caller.user is None:
        raise HTTPException(status_code=401, detail="the API token is not valid")
    if not caller.by_token and request.method in UNSAFE and caller.user is not None:
        csrf(request)
    return caller


ApiCaller = Annotated[Caller, Depends(api_caller)]
#: identifiers and numbers in paths: positive, and small enough for any database
Num = Annotated[int, Path(ge=1, le=2_000_000_000)]


class ChangeOut(BaseModel):
    tournament: int
    seq: int
    kind: str
    summary: str
    replayed: bool = False
    #: what the organiser should know, e.g. two players of one name (never a refusal)
    warnings: list[str] = []


def change_out(change: Change) -> ChangeOut:
    """A change as the API answers it."""
    return ChangeOut(
        tournament=change.tournament_id,
        seq=change.seq,
        kind=change.kind,
        summary=change.summary,
        replayed=change.replayed,
    )


@router.get("/me")
def me(caller: ApiCaller) -> JsonObject:
    """The account behind the credentials (null when anonymous)."""
    user = caller.user
    if user is None:
        return views.MeShown(None).as_json()
    account = views.AccountShown(
        id=user.id,
        username=user.username,
        name=user.display_name,
        admin=user.is_admin,
        master=user.is_master,
    )
    return views.MeShown(account).as_json()


@router.get("/tournaments")
def tournaments(request: Request) -> list[JsonObject]:
    site = site_of(request)
    return [as_object(t) for t in site.service.tournaments()]


@router.post("/tournaments", status_code=201)
def create(body: TournamentIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Create a tournament (round robin, Swiss, knockout, Scheveningen) from its regulations
    (administrators and masters)."""
    site = site_of(request)
    require_user(caller)
    spec = actions.WizardSpec(
        name=body.name,
        format=body.format,
        point_system=body.point_system,
        bye_points=body.bye_points or "",
        tiebreaks=body.tiebreaks,
        withdrawal_rule=body.withdrawal_rule,
        time_control=body.time_control,
        start_date=body.start_date,
        end_date=body.end_date,
        players=tuple(p.info() for p in body.players),
        rounds=body.rounds,
        initial_colour=body.initial_colour,
        match_format=body.match_format,
        tie_rule=body.tie_rule,
        bracket=body.bracket,
        third_place=body.third_place,
        groups=body.groups,
        qualifiers_per_group=body.qualifiers_per_group,
        group_cycles=body.group_cycles,
        group_size=body.group_size,
        details=tuple(
            (key, value)
            for key, value in (
                ("venue", body.venue.strip()),
                ("federation", body.federation.strip()),
                ("organiser", body.organiser.strip()),
                ("arbiter", body.arbiter.strip()),
                ("finish", "" if body.finish == "auto" else body.finish),
                ("venue_kind", "" if body.venue_kind == "online" else body.venue_kind),
                ("ties", "" if body.ties == "shared" else body.ties),
                ("forfeits_in_tiebreaks", "" if body.forfeits_in_tiebreaks else "no"),
                ("variant", body.variant),  # battle chess (the service checks it)
                ("setup_minutes", "" if body.setup_minutes is None else str(body.setup_minutes)),
                ("schedule", "" if body.schedule == "berger" else body.schedule),
                ("capacity", "" if body.capacity is None else str(body.capacity)),
                ("initial_order", "" if body.initial_order == "rating" else body.initial_order),
                ("order_seed", "" if body.order_seed is None else str(body.order_seed)),
                ("even_field", "yes" if body.even_field else ""),
            )
            if value
        )
        + body.portal_details(),
    )
    ids = actions.create_tournaments(site, caller, spec)
    # a warning, not a refusal (e.g. Buchholz chosen for a round robin)
    return views.CreatedShown(ids=tuple(ids), id=ids[0], warnings=spec.warnings()).as_json()


@router.get("/tournaments/{tid}")
def tournament(tid: Num, request: Request) -> JsonObject:
    site = site_of(request)
    view, _table = site.service.crosstable(tid)
    access = site.accounts.access(tid)
    return views.TournamentShown(
        id=view.id,
        name=view.name,
        status=view.status,
        revision=view.revision,
        rounds=view.rounds,
        settings=view.settings.as_json(),
        # the order the regulations publish: the settings' own list, else the system's default
        tiebreak_order=tuple(published_tiebreaks(view.settings)),
        approval=access.approval,
        self_registration=access.self_registration,
        players=tuple(view.players),
    ).as_json()


@router.get("/tournaments/{tid}/standings")
def standings(tid: Num, request: Request) -> JsonObject:
    """Points, tie-breaks (provisional during play) and places."""
    site = site_of(request)
    view, table = site.service.crosstable(tid)
    if table.standings is None:
        return {"tiebreaks": [], "rows": [], "provisional": True, "revision": view.revision}
    body: JsonObject = table.standings.to_json()
    body["revision"] = view.revision
    return body


@router.get("/tournaments/{tid}/crosstable")
def crosstable(tid: Num, request: Request) -> JsonObject:
    """The crosstable by starting number: each opponent's results, points, tie-breaks, place."""
    site = site_of(request)
    view, table = site.service.crosstable(tid)
    lines = tuple(
        views.LineShown(
            start=line.start,
            name=line.name,
            rating=line.rating,
            results={
                str(opponent): tuple(views.CellShown(c.round, c.colour, c.text) for c in cells)
                for opponent, cells in sorted(line.cells.items())
            },
            points=points_json(line.points, "float"),
            tiebreaks={
                code: (None if v is None else points_json(v, "float"))
                for code, v in zip(table.tiebreaks, line.values, strict=False)
            },
            rank=line.rank,
        )
        for line in table.lines
    )
    return views.CrosstableShown(
        revision=view.revision,
        status=view.status,
        provisional=table.provisional,
        tiebreaks=tuple(table.tiebreaks),
        players=lines,
    ).as_json()


# how each value of a player was computed, in the request's language (crosstable/web/explain_views)
router.get("/tournaments/{tid}/players/{start}/explain")(explain_views.explain)


@router.get("/tournaments/{tid}/rounds/{rnd}")
def round_games(tid: Num, rnd: Num, request: Request) -> JsonObject:
    site = site_of(request)
    view, _table = site.service.crosstable(tid)
    if not 1 <= rnd <= view.rounds:
        raise HTTPException(status_code=404, detail=Message("there is no round {round}", round=rnd))
    drawn = site.service.colours_drawn(tid)  # battle chess: round → colours drawn yet
    return views.RoundShown(
        round=rnd,
        revision=view.revision,
        colours_drawn=True if drawn is None else bool(drawn.get(rnd)),
        games=tuple(
            views.RoundGameShown(
                board=g.board,
                white=g.white,
                black=g.black,
                white_name=g.white_name,
                black_name=g.black_name,
                result=g.result,
                white_report=g.white_report,
                black_report=g.black_report,
                disputed=g.disputed,
                version=g.version,
            )
            for g in view.games
            if g.round == rnd
        ),
        free=tuple(start for r, start in view.free_rounds if r == rnd),
    ).as_json()


@router.post("/tournaments/{tid}/rounds/{rnd}/boards/{board}/result")
def record(
    tid: Num, rnd: Num, board: Num, body: RecordIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    """Enter a result (organiser, helper, or a game server with their token). Repeating the
    same request (same idempotency key) answers with the first answer."""
    site = site_of(request)
    require_result_entry(site, caller, tid, rnd, board)
    site.report_limit.check_caller(caller, "results")  # a game server: its own limit
    if body.confirm:  # an adjourned game's decisive result, its warning confirmed
        return change_out(
            site.service.adjourned_result(
                tid, rnd, board, body.result, confirm=body.confirm, actor=caller.actor
            )
        )
    change = site.service.record_result(
        tid,
        rnd,
        board,
        body.result,
        actor=caller.actor,
        idempotency_key=body.idempotency_key,
        expected_version=body.expected_version,
        reason=None if body.reason is None else Reason(body.reason),
    )
    return change_out(change)


@router.post("/tournaments/{tid}/rounds/{rnd}/boards/{board}/report")
def report(
    tid: Num, rnd: Num, board: Num, body: ResultIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    """A player reports the result of their own game."""
    site = site_of(request)
    return change_out(
        actions.report(site, caller, tid, rnd, board, body.result, body.idempotency_key)
    )


@router.post("/tournaments/{tid}/rounds/{rnd}/boards/{board}/confirm")
def confirm(
    tid: Num, rnd: Num, board: Num, body: ConfirmIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    site = site_of(request)
    require_result_entry(site, caller, tid, rnd, board)
    return change_out(site.service.confirm_result(tid, rnd, board, body.result, actor=caller.actor))


@router.post("/tournaments/{tid}/rounds/{rnd}/boards/{board}/correct")
def correct(
    tid: Num, rnd: Num, board: Num, body: CorrectionIn, request: Request, caller: ApiCaller
) -> ChangeOut:
    site = site_of(request)
    require_result_entry(site, caller, tid, rnd, board)
    b = body
    change = site.service.correct_result(
        tid, rnd, board, b.result, expected=b.expected, actor=caller.actor, confirm=b.confirm
    )
    return change_out(change)


@router.post("/tournaments/{tid}/rounds/{rnd}/boards/{board}/reject")
def reject(tid: Num, rnd: Num, board: Num, request: Request, caller: ApiCaller) -> ChangeOut:
    site = site_of(request)
    require_result_entry(site, caller, tid, rnd, board)
    return change_out(site.service.reject_reports(tid, rnd, board, actor=caller.actor))


@router.post("/tournaments/{tid}/players", status_code=201)
def add_player(tid: Num, body: EntryIn, request: Request, caller: ApiCaller) -> ChangeOut:
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    info = body.info()
    registered = [p.name for p in site.service.overview(tid).players]
    out = change_out(site.service.add_player(tid, info, actor=caller.actor, confirm=body.confirm))
    out.warnings = [translate(w) for w in duplicate_names(registered, [info.name])]
    return out


@router.delete("/tournaments/{tid}/players/{number}")
def remove_player(
    tid: Num, number: Num, request: Request, caller: ApiCaller, confirm: str | None = None
) -> ChangeOut:
    """Remove a player before round 1 (a level-2 warning, 409, when a Swiss's rounds can
    then no longer all be played: send again with ``?confirm=TOKEN``)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.remove_player(tid, number, actor=caller.actor, confirm=confirm)
    site.accounts.unlink_entry(tid, number, actor=caller.actor)
    return change_out(change)


@router.post("/tournaments/{tid}/registration", status_code=201)
def register_self(tid: Num, request: Request, caller: ApiCaller) -> ChangeOut:
    """Register yourself (when the organiser opened self-registration and you are eligible)."""
    site = site_of(request)
    return change_out(actions.register_self(site, caller, tid))


@router.delete("/tournaments/{tid}/registration")
def unregister_self(tid: Num, request: Request, caller: ApiCaller) -> ChangeOut:
    """Withdraw your registration before the start."""
    site = site_of(request)
    return change_out(actions.unregister_self(site, caller, tid))


@router.post("/tournaments/{tid}/lots")
def draw_lots(tid: Num, body: LotsIn, request: Request, caller: ApiCaller) -> ChangeOut:
    """Starting numbers by lot (reproducible from the published seed), rating or by hand."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.draw_lots(
        tid, LotsMethod(body.method), seed=body.seed, order=tuple(body.order), actor=caller.actor
    )
    return change_out(change)


@router.post("/tournaments/{tid}/start")
def start(tid: Num, request: Request, caller: ApiCaller) -> ChangeOut:
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    return change_out(actions.start(site, caller, tid))


@router.post("/tournaments/{tid}/withdrawals")
def withdraw(tid: Num, body: WithdrawIn, request: Request, caller: ApiCaller) -> ChangeOut:
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    change = site.service.withdraw(tid, body.start, from_round=body.from_round, actor=caller.actor)
    return change_out(change)


@router.post("/tournaments/{tid}/finish")
def finish(tid: Num, request: Request, caller: ApiCaller) -> ChangeOut:
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    return change_out(site.service.finish(tid, actor=caller.actor))


@router.post("/tournaments/{tid}/undo")
def undo(tid: Num, request: Request, caller: ApiCaller, body: ReopenIn | None = None) -> ChangeOut:
    """Reopening a finished tournament needs ``reason`` and ``confirm`` (422 without)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    ask = body or ReopenIn(reason=None, confirm=False)
    return change_out(
        site.service.undo(tid, actor=caller.actor, reason=ask.reason, confirm=ask.confirm)
    )


@router.post("/tournaments/{tid}/revert")
def revert(tid: Num, body: RevertIn, request: Request, caller: ApiCaller) -> ChangeOut:
    """Reopening a finished tournament needs ``reason`` and ``confirm`` (422 without)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    reopen = site.service.revert_to
    return change_out(
        reopen(tid, body.seq, actor=caller.actor, reason=body.reason, confirm=body.confirm)
    )


@router.get("/tournaments/{tid}/history")
def history(tid: Num, request: Request) -> list[JsonObject]:
    site = site_of(request)
    return [
        # its summary in the Accept-Language's language
        as_object(replace(h, summary=translate(h.summary)))
        for h in site.service.history(tid)
    ]


@router.get("/tournaments/{tid}/export/{fmt}", response_model=None)
def export(
    tid: Num, fmt: Literal["trf2026", "trf16", "json"], request: Request, caller: ApiCaller
) -> Any:
    """TRF-2026, TRF-16 for arbiters' software, or the whole tournament as JSON;
    a battle-chess tournament's only for its organisers until it is finished."""
    site = site_of(request)
    require_export_allowed(site, caller, tid)
    if fmt == "json":
        return site.service.export_json(tid)
    return PlainTextResponse(site.service.export_trf(tid, fmt))


# -- Swiss: pairing round by round; byes -------------------------------------------------


class PairingOut(ChangeOut):
    round: int
    boards: list[list[int]]
    bye: int | None
    manual: bool
    warnings: list[str]

    @classmethod
    def of(cls, change: Change) -> PairingOut:
        """A published round's answer: the change, its boards and bye, its warnings."""
        data = change.data
        return cls(
            **change_out(change).model_dump(exclude={"warnings"}),
            round=int(data.get("round", 0)),
            boards=[list(b) for b in data.get("boards", [])],
            bye=data.get("bye"),
            manual=bool(data.get("manual")),
            warnings=[str(w) for w in data.get("warnings", [])],
        )


@router.get("/tournaments/{tid}/pairing")
def proposed_pairing(tid: Num, request: Request, caller: ApiCaller) -> JsonObject:
    """The Dutch system's pairing of the next Swiss round, not published (organisers)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    body: JsonObject = site.service.propose_round(tid).as_json()
    return body


@router.post("/tournaments/{tid}/pairing/review")
def review_pairing(tid: Num, body: PairingIn, request: Request, caller: ApiCaller) -> JsonObject:
    """Check a manual pairing without publishing it: 422 when it breaks the rules, else
    how it differs from the Dutch system's (empty: it is the engine's pairing)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    if body.boards is None:
        raise HTTPException(status_code=422, detail="give the boards to check")
    boards = [(b[0], b[1]) for b in body.boards]
    warnings = site.service.review_pairing(tid, boards, body.bye, allow_rematch=body.allow_rematch)
    return views.ReviewShown(manual=bool(warnings), warnings=tuple(warnings)).as_json()


@router.post("/tournaments/{tid}/pairing")
def publish_pairing(tid: Num, body: PairingIn, request: Request, caller: ApiCaller) -> PairingOut:
    """Publish the next Swiss round: the Dutch system's pairing (no boards) or your own
    (recorded as a manual pairing with its differences from the Dutch system's)."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    if body.round is not None and not key_used(site.service, tid, body.idempotency_key):
        paired = paired_rounds(site.service.crosstable(tid)[0])
        if body.round != paired + 1:
            raise HTTPException(
                status_code=409,
                detail=Message(
                    "round {round} cannot be published: the next round is {next}",
                    round=body.round,
                    next=paired + 1,
                ),
            )
    boards = None if body.boards is None else [(b[0], b[1]) for b in body.boards]
    change = site.service.publish_round(
        tid,
        boards,
        body.bye,
        allow_rematch=body.allow_rematch,
        actor=caller.actor,
        idempotency_key=body.idempotency_key,
        confirm=body.confirm,
    )
    return PairingOut.of(change)


# -- knockout ------------------------------------------------------------------------------


@router.get("/tournaments/{tid}/bracket")
def bracket(tid: Num, request: Request) -> JsonObject:
    """A knockout's bracket: rounds, matches, games, scores, winners, byes, champion, places."""
    site = site_of(request)
    view, _table = site.service.crosstable(tid)
    if view.settings.system != "knockout":
        raise HTTPException(status_code=422, detail="only a knockout has a bracket")
    if view.status == "registration":
        raise HTTPException(status_code=422, detail="the bracket is made at the start")
    return site.service.bracket_view(tid)


@router.post("/tournaments/{tid}/knockout/next")
def knockout_next(tid: Num, request: Request, caller: ApiCaller) -> ChangeOut:
    """Continue a knockout: add the tie-break games now due, or pair the next round."""
    site = site_of(request)
    require_role(site, caller, tid, MANAGERS)
    return change_out(site.service.pair_next_round(tid, actor=caller.actor))


@router.get("/calculator")
def calculator(
    players: int = Query(ge=3, le=200),
    time_control: str = Query("G/25 d5", max_length=60),
    evening: int = Query(180, ge=30, le=24 * 60),
    double: bool = False,
) -> JsonObject:
    """Rounds, games, boards and duration of a round robin before anything is created."""
    estimate = estimate_duration(players, time_control, evening_minutes=evening, double=double)
    return estimate.to_json()
