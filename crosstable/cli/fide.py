"""FIDE mode and FIDE's warning levels on the command line.

``crosstable fide-mode`` shows whether the current tournament is in FIDE mode;
``crosstable fide-mode --leave`` leaves it for good and ``crosstable tiebreaks CODES``
sets the tie-break list. An action that needs the arbiter's confirmation prints the
warning — its level, what changes for whom — and the token, and exits with status 2
having changed nothing; run it again with ``--confirm TOKEN`` (a level-4 warning asks
twice: the second run prints the second step's token).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from crosstable.cli.context import (
    DbOption,
    TournamentOption,
    actor,
    console,
    current_tournament,
    header,
    open_service,
    said,
)
from crosstable.core.tiebreaks.presets import preset_or_codes

if TYPE_CHECKING:
    from crosstable.service import Change
    from crosstable.service.warning_levels import ConfirmationNeeded

ConfirmOption = Annotated[
    str | None,
    typer.Option(
        "--confirm",
        metavar="TOKEN",
        help="The token a warning printed: confirms exactly that action (level 4: twice).",
    ),
]


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command(name="fide-mode")(fide_mode)
    app.command(name="tiebreaks")(tiebreaks)
    app.command(name="rounds")(rounds)
    app.command(name="report-correction")(report_correction)


def show_warning(asked: ConfirmationNeeded) -> None:
    """The warning as the terminal shows it, with the token to confirm it."""
    said_json = asked.as_json()
    step = f", step {asked.step} of {asked.steps}" if asked.steps > 1 else ""
    typer.echo(f"crosstable: warning (level {int(asked.level)}{step}):", err=True)
    if asked.stale:
        typer.echo("  the tournament changed since the token was given: read it again", err=True)
    for text in said_json["warnings"]:
        typer.echo(f"  {text}", err=True)
    if said_json["consequences"]:
        typer.echo("what changes, and for whom:", err=True)
        for text in said_json["consequences"]:
            typer.echo(f"  - {text}", err=True)
    typer.echo(f"nothing changed; to go on, run again with --confirm {asked.token}", err=True)


def confirmed(action: Callable[[], Change]) -> Change:
    """``action()``; a warning to confirm is printed and ends the command with status 2."""
    from crosstable.service.warning_levels import ConfirmationNeeded  # deferred: service layer

    try:
        return action()
    except ConfirmationNeeded as asked:
        show_warning(asked)
        raise typer.Exit(2) from None


def fide_mode(
    leave: Annotated[
        bool, typer.Option("--leave", help="Leave FIDE mode for good (level-4 warning).")
    ] = False,
    confirm: ConfirmOption = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Show whether the tournament is in FIDE mode, or leave it for good (--leave)."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        if leave:
            change = confirmed(lambda: service.leave_fide_mode(tid, confirm=confirm, actor=actor()))
            said(change.summary)
            return
        status = service.fide_mode(tid)
        if status.on:
            console.print("in FIDE mode")
        elif status.left_in_round is not None:
            console.print(f"not in FIDE mode: left in round {status.left_in_round}, for good")
        else:
            console.print("not in FIDE mode")


def tiebreaks(
    codes: Annotated[
        str, typer.Argument(help='Tie-break codes, e.g. "DE,WIN,SB,KS", or a preset name.')
    ],
    confirm: ConfirmOption = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Set the tie-break list (after the start: a level-4 warning to confirm twice)."""
    chosen = preset_or_codes(codes)
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        change = confirmed(
            lambda: service.edit_regulations(tid, tiebreaks=chosen, confirm=confirm, actor=actor())
        )
        said(change.summary, change.replayed)


def rounds(
    number: Annotated[int, typer.Argument(help="The new number of rounds of the Swiss.")],
    confirm: ConfirmOption = None,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Set the number of rounds of a Swiss (after the start: a level-4 warning to confirm twice)."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        change = confirmed(
            lambda: service.edit_regulations(tid, rounds=number, confirm=confirm, actor=actor())
        )
        said(change.summary, change.replayed)


def report_correction(
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="The game's round.")],
    board: Annotated[int, typer.Argument(metavar="BOARD", help="The game's board.")],
    result: Annotated[
        str,
        typer.Argument(
            metavar="RESULT", help="The result the rating report gives, e.g. 1-0; 'none' removes."
        ),
    ],
    reason: Annotated[str, typer.Option(help="Why the report differs (required).")] = "",
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Correct a game for the rating report only (the TRF export); the pairings and the
    standings keep the game as it stands. Then every correction kept is listed."""
    chosen = None if result.strip().lower() in ("none", "-", "") else result
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        change = service.correct_for_report(
            tid, round_number, board, chosen, reason=reason, actor=actor()
        )
        said(change.summary, change.replayed)
        for kept in service.report_corrections(tid):
            console.print(f"round {kept.round} board {kept.board}: {kept.label} ({kept.reason})")
