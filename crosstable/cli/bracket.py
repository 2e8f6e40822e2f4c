"""`crosstable bracket`: the knockout bracket of a field.

    crosstable bracket --players 8 --format json            # random order, fresh seed
    crosstable bracket --players 8 --seed 20260725          # random order, reproducible
    crosstable bracket --players 6 --seeded --format table  # 1 v 8, 4 v 5…; top seeds get byes
    crosstable bracket --players-file club.csv --seeded     # seeded by rating
    crosstable bracket --tournament 3 --db club.db          # a stored knockout, as it stands

Random order (the portal's rule): the players are drawn into a random order
with ``random.Random(seed)`` and the 1st meets the 2nd, the 3rd the 4th… The
seed is printed; without ``--seed`` a fresh one is drawn. Seeded: seed 1 meets
the last seed, and the top seeds can only meet late; without a players file
the seeds are the starting numbers. With ``--tournament ID`` the command shows a
knockout of the tournament store instead (``--db`` or ``CROSSTABLE_DB`` names the
database): every match with its games, results and store round/board, the
champion and the places — :meth:`crosstable.service.knockout.KnockoutPlay.bracket_view`.
The JSON is described in docs/knockout.md.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from crosstable.cli import counted
from crosstable.cli.schedule_variants import read_players_file
from crosstable.core.errors import InputError
from crosstable.core.model import Player
from crosstable.core.pairing.knockout_bracket import (
    Bracket,
    numbered_players,
    random_bracket,
    round_name,
    seeded_bracket,
)

_MAX_PLAYERS = 1 << 16


def register(app: typer.Typer) -> None:
    """Add the ``bracket`` command to ``app``."""
    app.command("bracket")(bracket)


def bracket(
    players: Annotated[
        str | None, typer.Option("--players", "-n", help="Number of players (2 or more).")
    ] = None,
    players_file: Annotated[
        Path | None,
        typer.Option("--players-file", help="CSV (name,rating[,title]) or TRF file of players."),
    ] = None,
    seeded: Annotated[
        bool, typer.Option("--seeded", help="Seed by rating (1 v N…) instead of a random order.")
    ] = False,
    seed: Annotated[
        str | None, typer.Option("--seed", help="Seed of the random order (an integer).")
    ] = None,
    output: Annotated[str, typer.Option("--format", "-f", help="json or table.")] = "table",
    tournament: Annotated[
        int | None,
        typer.Option("--tournament", "-t", help="Show this stored knockout (tournament id)."),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option("--db", envvar="CROSSTABLE_DB", help="Database file or postgresql:// URL."),
    ] = None,
) -> None:
    """The knockout bracket: round 1's matches and byes, and which match feeds which."""
    if output not in ("json", "table"):
        raise InputError(f"--format {output!r}: use json or table", source="options")
    if tournament is not None:
        given = (
            [
                name
                for name, value in (("--players", players), ("--players-file", players_file))
                if value is not None
            ]
            + (["--seeded"] if seeded else [])
            + (["--seed"] if seed is not None else [])
        )
        if given:
            raise InputError(
                f"{given[0]} makes a new bracket; --tournament shows a stored one: "
                "give one or the other",
                source="options",
            )
        _stored(tournament, db, output)
        return
    field = _field(players, players_file)
    if seeded:
        if seed is not None:
            raise InputError(
                "--seed is the seed of a random order; a seeded bracket draws nothing",
                source="options",
            )
        result = seeded_bracket(field)
    else:
        number = secrets.randbelow(2**31) if seed is None else _integer("--seed", seed)
        result = random_bracket(field, number)
    if output == "json":
        typer.echo(json.dumps(result.to_json()))
        return
    Console().print(bracket_table(result))


def _field(players: str | None, players_file: Path | None) -> tuple[Player, ...]:
    if players_file is None:
        if players is None:
            raise InputError("give --players N or --players-file FILE", source="options")
        count = _integer("--players", players)
        if not 2 <= count <= _MAX_PLAYERS:
            raise InputError(
                f"--players {count}: a knockout has 2 to {_MAX_PLAYERS} players", source="options"
            )
        return numbered_players(count)

    field = read_players_file(players_file)
    if players is not None and _integer("--players", players) != len(field):
        raise InputError(
            f"--players {players}, but {players_file} lists {len(field)} players",
            source="options",
        )
    if len(field) < 2:
        raise InputError(
            f"{counted(len(field), 'player')}: a knockout needs 2", source=str(players_file)
        )
    return field


def _integer(option: str, text: str) -> int:
    cleaned = text.strip()
    digits = cleaned.removeprefix("-")
    if not digits.isascii() or not digits.isdigit():
        raise InputError(f"{option} {text!r}: not a whole number", source="options")
    return int(cleaned)


def bracket_table(result: Bracket) -> Table:
    """One column per round; each slot on the row of its first line's round-1 slot."""
    names = {p.start: _label(p) for p in result.players}
    how = "seeded" if result.seed is None else f"random order, seed {result.seed}"
    table = Table(
        title=f"Knockout of {len(result.players)} players ({how})",
        caption=_caption(result, names),
        show_lines=False,
    )
    for rnd in range(1, result.rounds + 1):
        table.add_column(round_name(result.size >> (rnd - 1)).capitalize())
    rows = result.size // 2
    cells = [[""] * result.rounds for _ in range(rows)]
    for s in result.slots:
        first = result.first_slot(s.round)
        row = (s.number - first) << (s.round - 1)
        if s.players is not None:
            bye = s.bye_player
            if bye is not None:
                text = f"{names[bye]} — bye"
            else:
                text = " v ".join(names[p] for p in s.players if p is not None)
        else:
            assert s.feeders is not None
            text = f"W{s.feeders[0]} v W{s.feeders[1]}"
        cells[row][s.round - 1] = f"{s.number}. {text}"
    for cell_row in cells:
        table.add_row(*cell_row)
    return table


def _label(player: Player) -> str:
    if not player.name:
        return str(player.start)
    rating = f" {player.rating}" if player.rating else ""
    return f"{player.start} {player.name}{rating}"


def _caption(result: Bracket, names: dict[int, str]) -> str:
    parts = ["W5 = winner of slot 5"]
    if result.byes:
        parts.append("byes: " + ", ".join(names[p] for p in result.byes))
    return "; ".join(parts)


# -- a stored knockout -------------------------------------------------------------------


def _stored(tournament: int, db: str | None, output: str) -> None:
    from crosstable.service import Service  # deferred: the service layer (start-up time)
    from crosstable.store import open_store  # deferred: SQLAlchemy (start-up time)

    store = open_store(db)
    try:
        view = Service(store).bracket_view(tournament)
    finally:
        store.close()
    if output == "json":
        typer.echo(json.dumps(view))
        return
    console = Console(highlight=False, soft_wrap=True)
    console.print(stored_table(view))
    for line in stored_notes(view):
        console.print(line, markup=False)


def stored_table(view: dict[str, Any]) -> Table:
    """One column per round; each match's cell: players, its games (store round R and
    board B, White–Black by starting number, result), score and who went on."""
    how = "seeded" if view["order"] == "seeded" else f"random order, seed {view['lots_seed']}"
    table = Table(
        title=(
            f"#{view['tournament']} {view['name']} ({view['status']}): knockout of "
            f"{view['players']} players ({how}; match {view['format']}"
            + "".join(f", {part.replace(':', ' ')}" for part in _parts(view["round_formats"]))
            + (", match for third place" if view["third_place_match"] else "")
            + f", tie rule {view['tie_rule']})"
        ),
        show_lines=True,
    )
    rounds = view["rounds"]
    for rnd in rounds:
        table.add_column(str(rnd["name"]).capitalize())
    rows = view["size"] // 2
    cells = [[""] * len(rounds) for _ in range(rows)]
    for index, rnd in enumerate(rounds):
        width = 1 << index  # round-1 slots per slot of this round
        first = view["size"] - (view["size"] >> index) + 1
        for match in rnd["matches"]:
            row = rows // 2 if match.get("third_place") else (match["slot"] - first) * width
            cells[row][index] = _match_cell(match)
        for bye in rnd["byes"]:
            cells[bye["slot"] - 1][0] = f"{bye['slot']}. {_who(bye)} — bye"
    for cell_row in cells:
        if any(cell_row):
            table.add_row(*cell_row)
    return table


def _parts(text: str) -> list[str]:
    return [part for part in text.split(",") if part]


def _who(person: dict[str, Any] | None) -> str:
    if person is None:
        return "?"
    return f"{person['start']} {person['name']}".strip()


def _match_cell(match: dict[str, Any]) -> str:
    top, bottom = match["players"]
    what = " (third place)" if match.get("third_place") else ""
    lines = [f"{match['slot']}.{what} {_who(top)} v {_who(bottom)}"]
    for game in match["games"]:
        where = f"R{game['round']} B{game['board']}" if game["round"] is not None else "due"
        kind = "" if game["kind"] == "regular" else f" {game['kind']}"
        result = game["result"] or "…"
        lines.append(f"  g{game['game']}{kind}, {where}: {game['white']}–{game['black']} {result}")
    if match["winner"] is not None:
        score = "–".join(_points(x) for x in match["score"])
        winner = top if top is not None and top["start"] == match["winner"] else bottom
        lines.append(f"  {score}: {_who(winner)} goes on ({match['decided_by']})")
    return "\n".join(lines)


def _points(value: float) -> str:
    whole = int(value)
    return str(whole) if value == whole else (f"{whole}½" if whole else "½")


def stored_notes(view: dict[str, Any]) -> list[str]:
    """Champion, places, and what is left to do (or what is wrong)."""
    notes: list[str] = []
    if view["problem"]:
        notes.append(f"problem: {view['problem']}")
    if view["champion"] is not None:
        notes.append(f"champion: {_who(view['champion'])}")
        if view["third_place"] is not None:
            notes.append(f"third place: {_who(view['third_place'])}")
        places = ", ".join(f"{p['place']}. {_who(p)}" for p in view["placings"] if p["place"])
        notes.append(f"places: {places}")
    if view["due"]:
        notes.append(
            f"{counted(len(view['due']), 'game')} due: continue the knockout "
            "(crosstable pair-round)"
        )
    if view["surplus"]:
        listed = ", ".join(f"round {g['round']} board {g['board']}" for g in view["surplus"])
        notes.append(f"no longer needed (continue the knockout to remove them): {listed}")
    return notes
