"""Running a tournament from the terminal: ``crosstable new``, ``use``, ``tournaments``,
``draw``, ``start``, ``result``, ``withdraw``, ``finish`` and ``show`` (``player`` is in
:mod:`crosstable.cli.players`, ``undo`` and ``history`` in :mod:`crosstable.cli.history`,
``export`` and ``import`` in :mod:`crosstable.cli.exchange`).

Every command works on the database named by ``--db`` (or ``CROSSTABLE_DB``, or
the per-user default file) and on the tournament named by ``--tournament`` (or
the current one: the last created, imported or chosen with ``crosstable use``),
which every output names in its first line (:mod:`crosstable.cli.context`).
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from crosstable.cli.context import (
    CURRENT,
    DbOption,
    TournamentOption,
    actor,
    console,
    current_tournament,
    header,
    open_service,
    pairings,
    said,
)
from crosstable.cli.fide import ConfirmOption, confirmed
from crosstable.cli.new_details import (
    portal_swiss,
    rating_method_detail,
    schedule_detail,
    system_details_of,
)
from crosstable.core import battle as battle_rules
from crosstable.core.duration import parse_time_control
from crosstable.core.errors import RuleError
from crosstable.core.model import LotsMethod, RulesEdition, System, WithdrawalRule
from crosstable.core.schedule.kinds import SCHEDULE_KEY
from crosstable.core.scoring import PointSystem, points
from crosstable.core.tiebreaks.presets import buchholz_warnings, preset_or_codes

if TYPE_CHECKING:  # the store and services load only when a command needs them
    from crosstable.service import Service

# -- commands ------------------------------------------------------------------------


def new(
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    system: Annotated[
        str, typer.Option(help="round-robin, dutch (Swiss), knockout or scheveningen.")
    ] = "round-robin",
    cycles: Annotated[int, typer.Option(help="1: single round robin, 2: double…")] = 1,
    rounds: Annotated[
        int | None, typer.Option(help="Swiss: number of rounds (default ⌈log₂ N⌉).")
    ] = None,
    initial_colour: Annotated[
        str, typer.Option(help="Swiss: white or black for player 1 in round 1 (default: lot).")
    ] = "",
    forbidden: Annotated[
        str, typer.Option(help='Swiss: pairs that may not meet, e.g. "1-2,3-4".')
    ] = "",
    acceleration: Annotated[str, typer.Option(help="Swiss: baku (C.04.5.1).")] = "",
    schedule: Annotated[
        str,
        typer.Option(
            help="Round robin: berger (FIDE Berger tables, the default), circle or crenshaw "
            "(US Chess's Crenshaw-Berger tables)."
        ),
    ] = "",
    initial_order: Annotated[
        str,
        typer.Option(
            help="Swiss: rating (FIDE, the default), portal (unrated placed at random) or "
            "lot (players equal in rating and title placed by lot, not by name)."
        ),
    ] = "",
    order_seed: Annotated[
        str, typer.Option(help="Swiss, portal or lot order: the seed of the lot.")
    ] = "",
    even_field: Annotated[
        bool, typer.Option("--even-field", help="Swiss: refuse to start an odd field.")
    ] = False,
    match_format: Annotated[
        str | None, typer.Option(help="Knockout: games per match: 1, 2 or 2-at-once.")
    ] = None,
    tie_rule: Annotated[
        str | None,
        typer.Option(help="Knockout: lower-rated, lots, playoff or e.g. rapid:2,armageddon."),
    ] = None,
    bracket: Annotated[
        str | None, typer.Option(help="Knockout: seeded (1 v N) or random (by lot).")
    ] = None,
    capacity: Annotated[
        int | None,
        typer.Option(
            help="Knockout: a field of 2ⁿ players (2, 4, 8 … 512); registration closes "
            "when it is full."
        ),
    ] = None,
    points_: Annotated[
        str, typer.Option("--points", help="Point system WIN-DRAW-LOSS, e.g. 3-1-0.")
    ] = "1-0.5-0",
    bye_points: Annotated[
        str | None, typer.Option(help="Points for the free round of an odd field.")
    ] = None,
    tiebreaks: Annotated[
        str,
        typer.Option(
            "--tiebreaks",
            "--preset",
            help="FIDE codes in order, e.g. DE,SB,WIN, or a preset: rr, sb-de-ks, de-sb-ks, "
            "swiss, portal, portal-doubled (docs/tiebreaks.md).",
        ),
    ] = "",
    withdrawal: Annotated[str, typer.Option(help="fide-50, keep or annul.")] = "fide-50",
    rules: Annotated[str, typer.Option(help="C.07 edition: 2024 or 2026.")] = "2024",
    time_control: Annotated[str, typer.Option(help='e.g. "90+30".')] = "",
    start_date: Annotated[str | None, typer.Option(help="YYYY-MM-DD.")] = None,
    end_date: Annotated[str | None, typer.Option(help="YYYY-MM-DD.")] = None,
    no_swap: Annotated[
        bool, typer.Option("--no-swap", help="Keep the last rounds of cycle 1 in place.")
    ] = False,
    venue: Annotated[str, typer.Option(help="Where it is played (the city).")] = "",
    federation: Annotated[str, typer.Option(help="The organising federation, e.g. ARM.")] = "",
    arbiter: Annotated[str, typer.Option(help="The chief arbiter.")] = "",
    funding: Annotated[
        str, typer.Option(help="Who pays: sponsor, own_funds, entry_fees, other.")
    ] = "",
    sponsor: Annotated[str, typer.Option(help="The sponsor's name (with --funding sponsor).")] = "",
    sponsor_credit: Annotated[str, typer.Option(help="How the sponsor is credited.")] = "",
    level: Annotated[str, typer.Option(help="A class or level tournament: the level.")] = "",
    rating_method: Annotated[
        str, typer.Option(help="The rating that ranks: FIDE, NRO, FIDON, NIDOF or HBFN.")
    ] = "FIDE",
    deputy_arbiter: Annotated[
        str, typer.Option(help="Deputy chief arbiters, separated by semicolons.")
    ] = "",
    finish: Annotated[
        str,
        typer.Option(
            help="auto: it finishes by itself with its last result; confirm: by `finish`."
        ),
    ] = "auto",
    battle: Annotated[
        bool,
        typer.Option(
            "--battle", help="Battle chess: each game's colours drawn just before the game."
        ),
    ] = False,
    setup_minutes: Annotated[
        int | None, typer.Option(help="Battle chess: the set-up time in minutes.")
    ] = None,
    ties: Annotated[
        str,
        typer.Option(
            help="Players equal after the whole tie-break list: shared (share the place) "
            "or lots (drawn by the computer when the places are fixed)."
        ),
    ] = "shared",
    forfeits_in_tiebreaks: Annotated[
        str,
        typer.Option(
            help="yes: forfeits count as games in the tie-breaks (C.07 15.2); "
            "no: as unplayed rounds."
        ),
    ] = "yes",
    venue_kind: Annotated[
        str,
        typer.Option(
            help="online, or otb (over the board: 10 eligible players to start; "
            "its winner is a master)."
        ),
    ] = "online",
    long_event: Annotated[
        str,
        typer.Option(
            help="yes: the event lasts more than 30 days (players may get later ratings "
            "by round: `player rating`)."
        ),
    ] = "no",
    tiebreak_ratings: Annotated[
        str,
        typer.Option(
            help="An event over 30 days: rating-based tie-breaks read each player's first "
            "rating (first) or the rating of each game's round (per-round)."
        ),
    ] = "first",
    db: DbOption = None,
) -> None:
    """Create a tournament from its regulations; it becomes the current one."""
    from crosstable.service import Regulations  # deferred: the service layer (start-up time)

    chosen = _choice(System, _SYSTEM_ALIASES.get(system.strip().lower(), system), "system")
    details = system_details_of(
        chosen,
        rounds=rounds,
        initial_colour=initial_colour,
        forbidden=forbidden,
        acceleration=acceleration,
        match_format=match_format,
        tie_rule=tie_rule,
        bracket=bracket,
    )
    if schedule.strip():
        details[SCHEDULE_KEY] = schedule_detail(chosen, schedule)
    if capacity is not None:  # checked by the service (a knockout's, a power of two)
        if chosen is not System.KNOCKOUT:
            raise RuleError(f"--capacity is for knockout tournaments, not a {chosen.value}")
        details["capacity"] = str(capacity)
    details |= portal_swiss(chosen, initial_order, order_seed, even_field)
    details |= rating_method_detail(rating_method)
    deputies = "\n".join(part.strip() for part in deputy_arbiter.split(";") if part.strip())
    for key, value in (
        ("venue", venue),
        ("federation", federation),
        ("arbiter", arbiter),
        ("deputy_arbiter", deputies),
        *(("funding", funding), ("sponsor", sponsor), ("sponsor_credit", sponsor_credit)),
        ("level", level),
    ):
        if value.strip():
            details[key] = value.strip()
    if time_control.strip():  # refused here as the wizard and the API refuse it
        parse_time_control(time_control)
    if finish not in ("auto", "confirm"):
        raise RuleError(f"--finish {finish!r}: use auto or confirm")
    if finish == "confirm":
        details["finish"] = "confirm"
    for key, value, default in (
        ("ties", ties, "shared"),
        ("forfeits_in_tiebreaks", forfeits_in_tiebreaks, "yes"),
        ("venue_kind", venue_kind, "online"),
        ("long_event", long_event, "no"),
        ("tiebreak_ratings", tiebreak_ratings.replace("-", " "), "first"),
    ):
        if value.strip().lower() != default:  # (each checked by the service, naming it)
            details[key] = value.strip().lower()
    if setup_minutes is not None and not battle:
        raise RuleError("--setup-minutes is for battle chess: add --battle")
    if battle:
        details[battle_rules.VARIANT] = battle_rules.BATTLE
        if setup_minutes is not None:
            details[battle_rules.SETUP_MINUTES] = str(setup_minutes)
    regulations = Regulations(
        name=name,
        system=chosen,
        cycles=cycles,
        rounds=rounds,
        details=details,
        point_system=PointSystem.parse(points_),
        bye_points=None if bye_points is None else _points(bye_points, "--bye-points"),
        tiebreaks=preset_or_codes(tiebreaks),
        withdrawal_rule=_choice(WithdrawalRule, withdrawal, "withdrawal rule"),
        rules=_choice(RulesEdition, rules, "rules"),
        swap_last_rounds=not no_swap,
        time_control=time_control,
        start_date=_date(start_date, "--start-date"),
        end_date=_date(end_date, "--end-date"),
    )
    with open_service(db) as service:
        change = service.create_tournament(regulations, actor=actor())
        for warning in buchholz_warnings(chosen, regulations.tiebreaks):
            typer.echo(f"warning: {warning}", err=True)
        service.set_preference(CURRENT, str(change.tournament_id))
        header(service, change.tournament_id)
        said(change.summary)


def use(
    tournament: Annotated[int, typer.Argument(help="Tournament id.")],
    db: DbOption = None,
) -> None:
    """Make a tournament the current one."""
    with open_service(db) as service:
        service.overview(tournament)
        service.set_preference(CURRENT, str(tournament))
        header(service, tournament)
        console.print("is now the current tournament")


def tournaments(db: DbOption = None) -> None:
    """List the tournaments in the database (* marks the current one)."""
    with open_service(db) as service:
        current = service.preference(CURRENT)
        table = Table("", "id", "name", "system", "players", "status", "changes")
        for t in service.tournaments():
            mark = "*" if str(t.id) == current else ""
            table.add_row(
                mark, str(t.id), t.name, t.system, str(t.players), t.status, str(t.revision)
            )
        console.print(table)


def draw(
    by: Annotated[str, typer.Option(help="lot (random, seeded), rating or hand.")] = "lot",
    seed: Annotated[int | None, typer.Option(help="Seed of the drawing by lot.")] = None,
    order: Annotated[
        str, typer.Option(help="By hand: registration numbers in starting order, e.g. 3,1,2.")
    ] = "",
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Draw the starting numbers (recorded with the seed, so anyone can check it)."""
    methods = {"lot": LotsMethod.RANDOM, "random": LotsMethod.RANDOM}
    methods |= {"rating": LotsMethod.RATING, "hand": LotsMethod.MANUAL, "manual": LotsMethod.MANUAL}
    if by not in methods:
        raise RuleError(f"--by {by!r}: use lot, rating or hand")
    numbers = tuple(_int(part, "--order") for part in order.split(",") if part.strip())
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        change = service.draw_lots(tid, methods[by], seed=seed, order=numbers, actor=actor())
        said(change.summary)


def start(tournament: TournamentOption = None, db: DbOption = None) -> None:
    """Start the tournament: a round robin's schedule (FIDE Berger tables), a Swiss's
    rounds and initial colour, a knockout's bracket."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        change = service.start(tid, actor=actor())
        header(service, tid)  # as every command: the header first, then what happened
        said(change.summary)
        view = service.overview(tid)
        system = view.settings.system
        if system == System.SWISS_DUTCH.value:
            console.print("next: `crosstable pair-round` shows round 1's pairing for approval")
            return
        # a knockout sets up every game of its first matches; a round robin shows round 1
        last = max((g.round for g in view.games), default=1)
        for number in range(1, (last if system == System.KNOCKOUT.value else 1) + 1):
            pairings(service, tid, number)


def result(
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="Round.")],
    board: Annotated[int, typer.Argument(metavar="BOARD", help="Board.")],
    value: Annotated[
        str,
        typer.Argument(
            metavar="RESULT",
            help=(
                "1-0, ½-½ (1/2-1/2, 0.5-0.5, =), 0-1, +-, -+, --; an arbiter's 0.5-0, 0-0.5, "
                "0-0; played but not rated 1-0u, ½-½u, 0-1u (WL, DD, LW); * adjourned."
            ),
        ),
    ],
    correct: Annotated[
        bool, typer.Option("--correct", help="Replace a result already recorded.")
    ] = False,
    key: Annotated[
        str | None, typer.Option(help="Idempotency key: the same report twice counts once.")
    ] = None,
    confirm: ConfirmOption = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Record the result of a game (with --correct: change a recorded one); * records
    it as adjourned, and its real result later (decisive: confirm the warning)."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        if confirm is not None and not correct:  # an adjourned game's decisive result
            change = confirmed(
                lambda: service.adjourned_result(
                    tid, round_number, board, value, confirm=confirm, actor=actor()
                )
            )
        elif correct:
            change = confirmed(
                lambda: service.correct_result(
                    tid,
                    round_number,
                    board,
                    value,
                    actor=actor(),
                    idempotency_key=key,
                    confirm=confirm,
                )
            )
        else:
            change = confirmed(
                lambda: service.record_result(
                    tid, round_number, board, value, actor=actor(), idempotency_key=key
                )
            )
        said(change.summary, change.replayed)


def withdraw(
    start_number: Annotated[int, typer.Argument(metavar="START", help="Starting number.")],
    from_round: Annotated[int | None, typer.Option(help="First round not played.")] = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """A player withdraws: their remaining games become forfeits (or are annulled, as the
    regulations' withdrawal rule says)."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        change = service.withdraw(tid, start_number, from_round=from_round, actor=actor())
        said(change.summary)


def finish(tournament: TournamentOption = None, db: DbOption = None) -> None:
    """Every game has a result: fix the final places."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        said(service.finish(tid, actor=actor()).summary)
        view = service.overview(tid)
        if view.settings.system != System.KNOCKOUT.value:
            _standings(service, tid)
            return
        # a knockout's places come from the bracket, not from points
        table = Table("place", "start", "name", title="places", title_justify="left")
        for p in sorted(view.players, key=lambda p: (p.place is None, p.place or 0, p.start)):
            shown = "" if p.place is None else str(p.place)
            table.add_row(shown, str(p.start), p.name)
        console.print(table)


def show(
    round_number: Annotated[
        int | None, typer.Option("--round", "-r", help="Only this round's pairings.")
    ] = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Pairings with results, and the live standings."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        if round_number is not None:
            numbers = [round_number]
        else:  # the rounds paired so far (not those holding only byes asked for ahead)
            paired = service.tournament(tid).rounds
            numbers = [r.number for r in paired if r.games or _pairing_byes(r.byes)]
        for number in numbers:
            pairings(service, tid, number)
        _standings(service, tid)


def _pairing_byes(byes: Any) -> bool:
    """A round robin's free round or a Swiss's PAB: the round is paired."""
    return any(bye.kind.value in ("free", "U") for bye in byes)


def _standings(service: Service, tid: int) -> None:
    body = service.live_standings(tid)
    if not body:
        return
    codes: list[str] = list(body.get("tiebreaks", []))
    label = "standings" + (" (provisional)" if body.get("provisional") else "")
    table = Table("rank", "start", "name", "points", *codes, title=label, title_justify="left")
    for row in body["rows"]:
        values = [_shown(row.get(code)) for code in codes]
        table.add_row(
            _shown(row.get("rank")),
            str(row["start"]),
            str(row.get("name", "")),
            _shown(row["points"]),
            *values,
        )
    console.print(table)
    for lot in body.get("lots", []):  # the lots that broke a tie
        console.print(
            f"lots drawn, seed {lot['seed']}: players {', '.join(map(str, lot['players']))} "
            f"were equal on points and every tie-break; order {', '.join(map(str, lot['order']))}",
            markup=False,
            highlight=False,
        )


def _shown(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


_SYSTEM_ALIASES = {"swiss": "dutch", "rr": "round-robin", "roundrobin": "round-robin"}


def _choice(enum: Any, text: str, what: str) -> Any:
    try:
        return enum(text)
    except ValueError:
        choices = ", ".join(item.value for item in enum)
        raise RuleError(f"{what} {text!r}: use one of {choices}") from None


def _points(text: str, option: str) -> Fraction:
    try:
        return points(text)
    except (ValueError, ZeroDivisionError):
        raise RuleError(f"{option} {text!r}: not a number of points") from None


def _int(text: str, option: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise RuleError(f"{option}: {text.strip()!r} is not a number") from None


def _date(text: str | None, option: str) -> dt.date | None:
    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise RuleError(f"{option} {text!r}: write the date as YYYY-MM-DD") from None


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app`` (``undo`` and ``history`` are
    :mod:`crosstable.cli.history`'s, ``export`` and ``import``
    :mod:`crosstable.cli.exchange`'s)."""
    for function in (new, use, tournaments, draw, start, result, withdraw, finish):
        app.command()(function)
    app.command("show")(show)
