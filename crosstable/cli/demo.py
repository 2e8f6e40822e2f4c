"""`crosstable demo` — a ready round robin to look at, in the terminal and in the browser.

1. Prints the shipped example (``crosstable/examples/club_rr6.trf``: the six
   players of seed 003's club round robin): the FIDE Berger pairing list of
   every round with its results, then the crosstable with Sonneborn-Berger and
   the FIDE round-robin tie-breaks, and seed 003's SB walk-through for one player.
2. Unless ``--no-serve``: builds the web demo on its own SQLite file (that
   six-player event finished, and a ten-player round robin in progress) and
   serves it, printing the URL and a login. Stop it with Ctrl-C.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from crosstable.core.model import GameResult, Tournament
from crosstable.core.schedule import berger_table

EXAMPLE = "club_rr6.trf"


def register(app: typer.Typer) -> None:
    """Add ``crosstable demo`` to ``app``."""
    app.command("demo")(demo)


def example_text() -> str:
    """The shipped example tournament (TRF-2026)."""
    return resources.files("crosstable").joinpath("examples", EXAMPLE).read_text("utf-8")


def demo(
    serve: Annotated[
        bool,
        typer.Option("--serve/--no-serve", help="Also start the web demo (default: yes)."),
    ] = True,
    db: Annotated[
        str | None,
        typer.Option("--db", help="SQLite file for the web demo (default: a per-user demo file)."),
    ] = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
) -> None:
    """A demo round robin: schedule, results, crosstable and tie-breaks; then the web app."""
    typer.echo(render_example())
    if serve:
        _serve(db, host, port)


def render_example() -> str:
    """The example as text: pairing lists with results, crosstable, one SB explained."""
    from crosstable.core.standings import compute_standings, crosstable_view
    from crosstable.core.standings.compare import explain_player, why
    from crosstable.core.tiebreaks.presets import PRESETS
    from crosstable.formats.trf import parse_trf

    document = parse_trf(example_text(), source=EXAMPLE)
    tournament = document.tournament
    title = tournament.name or "Demo round robin"
    lines = [f"{title} — {len(tournament.players)} players, FIDE Berger table", ""]
    lines += pairing_lists(tournament)
    standings = compute_standings(tournament, PRESETS["rr"], final=True)
    lines += ["", "Crosstable (FIDE round-robin tie-breaks: DE, WIN, SB, KS)", ""]
    lines.append(crosstable_view(tournament, standings).text())
    second, third = (row.start for row in standings.rows[1:3])
    sb = [e for e in explain_player(standings, second) if e.code == "SB"]
    lines += ["", *(e.text() for e in sb), "", why(standings, second, third)]
    return "\n".join(lines)


def pairing_lists(tournament: Tournament) -> list[str]:
    """Round by round, board by board, as the seeds print them: ``White — Black  result``."""
    schedule = berger_table(len(tournament.players))
    names = {p.start: p.name for p in tournament.players}
    results = {
        (game.round, game.white, game.black): game.result
        for rnd in tournament.rounds
        for game in rnd.games
    }
    lines = []
    for scheduled in schedule.rounds:
        lines.append(f"Round {scheduled.number}")
        for board, (white, black) in enumerate(scheduled.boards, start=1):
            result = results.get((scheduled.number, white, black))
            shown = _label(result)
            lines.append(
                f"  {board}. {white:>2} {names[white]:<18} — {black:>2} {names[black]:<18} {shown}"
            )
        if scheduled.bye is not None:
            lines.append(f"  free round: {scheduled.bye} {names[scheduled.bye]}")
    return lines


def _label(result: GameResult | None) -> str:
    return "" if result is None else result.label()


def _demo_database(db: str | None) -> str:
    if db:
        return db
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    folder = base / "crosstable"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "demo.sqlite"
    for suffix in ("", "-wal", "-shm"):  # a fresh demo every time
        Path(str(path) + suffix).unlink(missing_ok=True)
    return str(path)


def _serve(db: str | None, host: str, port: int) -> None:
    try:
        from crosstable.cli.serve import run
        from crosstable.service import Service
        from crosstable.store import open_store
        from crosstable.web.demo import build_demo
    except ImportError as error:
        typer.echo(
            f"\nThe web demo needs the web extra: pip install 'crosstable[web]' ({error.name})"
        )
        return
    database = _demo_database(db)
    store = open_store(database)
    with store:
        made = build_demo(Service(store))
    url = f"http://{host}:{port}"
    banner = (
        f"\nWeb demo: {url}{made['path']}  (finished event: {url}{made['finished_path']})\n"
        f"Sign in as {made['username']} / {made['password']}  — database {database}\n"
        "Stop with Ctrl-C."
    )
    run(database, host=host, port=port, banner=banner)
