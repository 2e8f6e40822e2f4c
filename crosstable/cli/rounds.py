"""Round by round from the terminal: ``crosstable pair-round`` and ``crosstable bye``.

``pair-round`` shows the next round of a Swiss as the FIDE Dutch system pairs it,
for approval; ``--publish`` publishes it. ``--board 3=5-8`` (any number of them)
and ``--bye N`` change the proposal: the result is the organiser's own pairing,
checked against the rules and, when it differs from the Dutch system's,
published with the differences recorded as warnings in the history. In a
knockout, ``pair-round`` continues the bracket (tie-break games, or the next
round once every match is decided). ``bye`` enters (or with ``--cancel`` takes
back) a half-, zero- or full-point bye for a Swiss round not paired yet.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from crosstable.cli import battle
from crosstable.cli.context import (
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
from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.schedule.hand_round import parse_boards

if TYPE_CHECKING:
    from crosstable.service import Service
    from crosstable.service.swiss import RoundProposal

_BOARD = re.compile(r"^\s*(\d+)\s*=\s*(\d+)\s*[-–]\s*(\d+)\s*$")
_ABSENT = {
    "H": "half-point bye",
    "Z": "zero-point bye",
    "F": "full-point bye",
    "withdrawn": "withdrew",
}


def pair_round(
    publish: Annotated[
        bool, typer.Option("--publish", help="Publish the pairing (default: only show it).")
    ] = False,
    board: Annotated[
        list[str] | None,
        typer.Option(
            "--board",
            metavar="BOARD=WHITE-BLACK",
            help="Swiss: put WHITE against BLACK on BOARD instead (starting numbers), "
            "e.g. 3=5-8; repeat for more boards.",
        ),
    ] = None,
    bye: Annotated[
        int | None, typer.Option("--bye", help="Swiss: give the PAB to this player instead.")
    ] = None,
    allow_rematch: Annotated[
        bool, typer.Option("--allow-rematch", help="Swiss: publish a manual rematch anyway.")
    ] = False,
    key: Annotated[
        str | None, typer.Option(help="Idempotency key: the same request twice counts once.")
    ] = None,
    output: Annotated[str, typer.Option("--format", help="table or json.")] = "table",
    confirm: ConfirmOption = None,
    edit: Annotated[
        bool,
        typer.Option(
            "--edit",
            help="Swiss: Edit pairings — open the round's manual-pairing phase (with "
            "--round, reopen the last published round, none of its games played).",
        ),
    ] = False,
    validate: Annotated[
        bool,
        typer.Option(
            "--validate",
            help="Swiss: Validate pairings — close the manual-pairing phase by publishing "
            "the pairing shown (same options as --publish).",
        ),
    ] = False,
    round_number: Annotated[
        int | None,
        typer.Option(
            "--round",
            help="With --edit: the published round to reopen; with --hand: the round robin's "
            "round to pair by hand.",
        ),
    ] = None,
    hand: Annotated[
        str | None,
        typer.Option(
            "--hand",
            metavar="W-B,W-B,…",
            help="Round robin: pair --round N by hand, boards in order by starting numbers "
            "(e.g. 1-4,2-3; an odd field's player left out has the free round); the cycle's "
            "other unplayed rounds are re-planned so every pair meets once.",
        ),
    ] = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Pair the next round: a Swiss's proposal (publish it with --publish), or the
    next games of a knockout; a round robin's round by hand with --round N --hand 1-4,2-3.
    Games without a result are recorded as adjourned when the round is published (a
    level-2 warning: run again with --confirm TOKEN)."""
    if output not in ("table", "json"):
        raise RuleError(f"--format {output!r}: use table or json")
    changes = list(board or [])
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        system = service.overview(tid).settings["system"]
        if system == System.KNOCKOUT.value:
            if changes or bye is not None or allow_rematch:
                raise RuleError("--board, --bye and --allow-rematch are for Swiss tournaments")
            _knockout(service, tid, output)
            return
        if hand is not None:
            _hand_round(service, tid, system, round_number, hand, output, confirm)
            return
        if system != System.SWISS_DUTCH.value:
            raise RuleError(
                f"a {system} is paired at the start: every round is in `crosstable show`"
            )
        if edit:  # the manual-pairing phase's start (service/pairing_phase.py)
            opened = service.edit_pairings(tid, round_number, actor=actor())
            if output == "json":
                typer.echo(json.dumps(opened.data | {"seq": opened.seq, "state": "editing"}))
                return
            header(service, tid)
            said(opened.summary)
            return
        earlier = None if not (publish and key) else service.published_with_key(tid, key)
        if earlier is not None:  # a retry of a publication that went through
            if output == "json":
                typer.echo(json.dumps(earlier.data | {"seq": earlier.seq, "replayed": True}))
                return
            header(service, tid)
            said(earlier.summary, replayed=True)
            return
        proposal = service.propose_round(tid)
        manual = bool(changes) or bye is not None
        boards, pab = _manual(proposal, changes, bye) if manual else (proposal.boards, proposal.bye)
        warnings = (
            service.review_pairing(tid, boards, pab, allow_rematch=allow_rematch) if manual else []
        )
        if validate:  # the phase's end: published, compared with the engine's pairing
            change = confirmed(
                lambda: service.validate_pairings(
                    tid,
                    boards if manual else None,
                    pab if manual else None,
                    allow_rematch=allow_rematch,
                    actor=actor(),
                    confirm=confirm,
                )
            )
        if publish and not validate:
            change = confirmed(  # games without a result: adjourned after a level-2 warning
                lambda: service.publish_round(
                    tid,
                    boards if manual else None,
                    pab if manual else None,
                    allow_rematch=allow_rematch,
                    actor=actor(),
                    idempotency_key=key,
                    confirm=confirm,
                )
            )
        if publish or validate:
            if output == "json":
                typer.echo(json.dumps(change.data | {"seq": change.seq}))
                return
            header(service, tid)
            said(change.summary, change.replayed)
            pairings(service, tid, int(change.data["round"]))
            return
        if output == "json":
            shown = proposal.as_json() | {
                "boards": [list(b) for b in boards],
                "bye": pab,
                "manual": bool(warnings),
                "warnings": warnings,
                "published": False,
                "phase": service.pairing_phase(tid),
            }
            typer.echo(json.dumps(shown))
            return
        header(service, tid)
        _show_proposal(service, tid, proposal, boards, pab, warnings)
        if service.pairing_phase(tid)["state"] == "editing":
            console.print(
                f"round {proposal.round}: pairings open for editing — close the phase with "
                "`crosstable pair-round --validate` (same options)"
            )


def _hand_round(
    service: Service,
    tid: int,
    system: str,
    number: int | None,
    hand: str,
    output: str,
    confirm: str | None,
) -> None:
    """A round robin's round paired by hand (service/round_robin_hand.py)."""
    if system != System.ROUND_ROBIN.value:
        raise RuleError("--hand pairs a round robin's round: a Swiss uses --board and --bye")
    if number is None:
        raise RuleError("--hand needs --round N: the round to pair by hand")
    boards = parse_boards(hand)
    change = confirmed(
        lambda: service.pair_round_robin_round(tid, number, boards, actor=actor(), confirm=confirm)
    )
    if output == "json":
        typer.echo(json.dumps(change.data | {"seq": change.seq, "summary": change.summary}))
        return
    header(service, tid)
    said(change.summary, change.replayed)
    pairings(service, tid, number)


def _manual(
    proposal: RoundProposal, changes: list[str], bye: int | None
) -> tuple[tuple[tuple[int, int], ...], int | None]:
    """The proposal with the organiser's boards put in (players they move leave the
    boards they had; whoever is left without a board is reported by the check)."""
    placed: dict[int, tuple[int, int]] = {}
    for text in changes:
        match = _BOARD.match(text)
        if match is None:
            raise RuleError(f"--board {text!r}: write BOARD=WHITE-BLACK, e.g. 3=5-8")
        number, white, black = (int(part) for part in match.groups())
        if not 1 <= number <= max(len(proposal.boards), 1):
            raise RuleError(
                f"--board {text!r}: round {proposal.round} has boards 1–{len(proposal.boards)}"
            )
        if number in placed:
            raise RuleError(f"--board: board {number} is given twice")
        placed[number] = (white, black)
    named = {start for pair in placed.values() for start in pair}
    if bye is not None:
        named.add(bye)
    boards: dict[int, tuple[int, int]] = {}
    for number, pair in enumerate(proposal.boards, 1):
        if number in placed:
            boards[number] = placed[number]
        elif not (set(pair) & named):
            boards[number] = pair
    pab = bye if bye is not None else proposal.bye
    if bye is None and proposal.bye in named:
        pab = None
    return tuple(boards[n] for n in sorted(boards)), pab


def _show_proposal(
    service: Service,
    tid: int,
    proposal: RoundProposal,
    boards: tuple[tuple[int, int], ...],
    pab: int | None,
    warnings: list[str],
) -> None:
    view = service.overview(tid)
    names = {p.start: p.name for p in view.players}
    points = {
        row["start"]: row["points"] for row in (service.live_standings(tid) or {}).get("rows", [])
    }

    def who(start: int) -> str:
        score = points.get(start)
        shown = "" if score is None else f" ({score:g})"
        return f"{start} {names.get(start, '?')}{shown}"

    kind = "manual pairing" if warnings else "the Dutch system's pairing"
    table = Table(
        "board",
        "white",
        "black",
        title=f"round {proposal.round}: {kind}, not published",
        title_justify="left",
    )
    for number, (white, black) in enumerate(boards, 1):
        table.add_row(str(number), who(white), who(black))
    if pab is not None:
        table.add_row("", who(pab), "PAB")
    for start, why in proposal.absent:
        table.add_row("", who(start), _ABSENT.get(why, why))
    console.print(table)
    for warning in warnings:
        console.print(f"[yellow]warning:[/yellow] {warning}", highlight=False)
    console.print("publish it with `crosstable pair-round --publish` (same options)")


def _knockout(service: Service, tid: int, output: str) -> None:
    before = {g.round for g in service.overview(tid).games}
    change = service.pair_next_round(tid, actor=actor())
    if output == "json":
        typer.echo(json.dumps(change.data | {"seq": change.seq, "summary": change.summary}))
        return
    header(service, tid)
    said(change.summary, change.replayed)
    for number in sorted({g.round for g in service.overview(tid).games} - before):
        pairings(service, tid, number)


def bye(
    start_number: Annotated[int, typer.Argument(metavar="START", help="Starting number.")],
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="A round not paired yet.")],
    kind: Annotated[
        str, typer.Option("--kind", help="H half-point, Z zero-point, F full-point.")
    ] = "H",
    cancel: Annotated[bool, typer.Option("--cancel", help="Take the bye back.")] = False,
    confirm: ConfirmOption = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Swiss: a player will not play a round (a bye), or with --cancel will after all."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        if cancel:
            change = service.cancel_bye(tid, start_number, round_number, actor=actor())
        else:
            change = confirmed(  # a full-point or a second half-point bye: FIDE's warning
                lambda: service.request_bye(
                    tid, start_number, round_number, kind, actor=actor(), confirm=confirm
                )
            )
        said(change.summary, change.replayed)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("pair-round")(pair_round)
    app.command("bye")(bye)
    battle.register(app)  # battle chess's commands
