"""``crosstable player expel N --round R --reason TEXT``: an arbiter expels a player.

An expulsion is a withdrawal whose reason is kept: the player's games without a result
from that round on are forfeited and no later round pairs them; a Swiss leaves them out
of its ranking and shows them apart as expelled; the TRF export writes an
``### Expelled @ Round n`` line; ``crosstable undo`` takes it back. Without a number,
``crosstable player expel --list`` lists the players expelled.
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
    said,
)


def register(player_app: typer.Typer) -> None:
    """Add ``expel`` to ``crosstable player``."""
    player_app.command("expel")(expel)


def expel(
    start: Annotated[
        int | None, typer.Argument(help="Starting number of the player expelled.")
    ] = None,
    round_: Annotated[
        int | None,
        typer.Option(
            "--round",
            help="The first round the player misses (default: their first round without a "
            "result, or the next one to pair).",
        ),
    ] = None,
    reason: Annotated[str, typer.Option(help="Why the arbiter expels the player.")] = "",
    list_: Annotated[bool, typer.Option("--list", help="List the players expelled.")] = False,
    tournament: TournamentOption = None,
    db: DbOption = None,
) -> None:
    """Expel a player from a round on, with the reason: a withdrawal kept as an expulsion
    (a Swiss leaves them out of its ranking); undo takes it back."""
    with open_service(db) as service:
        tid = current_tournament(service, tournament)
        header(service, tid)
        if list_ or start is None:
            expelled = service.expulsions(tid)
            if not expelled:
                console.print("no player is expelled")
            for item in expelled:
                console.print(
                    f"player {item.start}: expelled from round {item.from_round} ({item.reason})",
                    markup=False,
                )
            return
        said(service.expel(tid, start, from_round=round_, reason=reason, actor=actor()).summary)
