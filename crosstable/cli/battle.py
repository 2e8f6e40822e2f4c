"""Battle chess from the terminal (docs/battle.md).

``crosstable battle --setup-minutes 5`` makes the current tournament battle chess
(before the start; ``--off`` makes it classical again, ``--seed`` publishes a seed
of your own), ``crosstable battle`` alone shows its rules and which rounds' colours
are drawn; ``crosstable colours ROUND`` draws a round's colours now (the computer
also draws them by itself: round 1 at the start, the next round when a round is
complete). A set-up timeout is a result: ``crosstable result 2 1 setup-white``
(``setup-draw``, ``setup-white``, ``setup-black``).
"""

from __future__ import annotations

from typing import Annotated

import typer

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
from crosstable.core import battle as rules
from crosstable.core.errors import RuleError


def battle(
    setup_minutes: Annotated[
        int | None, typer.Option(help="Set-up time in minutes, 1 to 120.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="The seed the colours are drawn from (default: drawn).")
    ] = None,
    off: Annotated[bool, typer.Option("--off", help="Classical chess again.")] = False,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Make the tournament battle chess (colours drawn before each game), or show its rules."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        details = service.overview(tid).settings.regulations.as_json()
        if setup_minutes is None and seed is None and not off:
            _show(service, tid)
            return
        if off:
            if setup_minutes is not None or seed is not None:
                raise RuleError("--off: a classical tournament has no set-up time and no seed")
            for key in (rules.VARIANT, rules.SETUP_MINUTES, rules.SEED):
                details.pop(key, None)
        else:
            details[rules.VARIANT] = rules.BATTLE
            if setup_minutes is not None:
                details[rules.SETUP_MINUTES] = str(setup_minutes)
            if seed is not None:
                if seed < 0:
                    raise RuleError(f"--seed {seed}: a seed is 0 or more")
                details[rules.SEED] = str(seed)
        change = service.edit_regulations(tid, details=details, actor=actor())
        said(change.summary, change.replayed)
        _show(service, tid)


def _show(service: object, tid: int) -> None:
    found = service.battle_rules(tid)  # type: ignore[attr-defined]
    if found is None:
        console.print("classical chess: the colours come from the schedule")
        return
    setup = "no set-up time" if found.setup_minutes is None else f"{found.setup_minutes} min"
    console.print(f"battle chess: colours drawn before each round; set-up time {setup}")
    drawn = service.colours_drawn(tid) or {}  # type: ignore[attr-defined]
    done = [str(n) for n, yes in sorted(drawn.items()) if yes]
    if drawn:
        console.print("colours drawn for round " + (", ".join(done) if done else "none yet"))
    console.print(f"seed of the colours: {found.seed}")


def colours(
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="Round.")],
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Draw the colours of a battle-chess round now (recorded; `undo` takes it back)."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        change = service.draw_colours(tid, round_number, actor=actor())
        said(change.summary, change.replayed)
        pairings(service, tid, round_number)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("battle")(battle)
    app.command("colours")(colours)
