"""`crosstable demo` — a ready round robin to look at, in the terminal and in the browser.

1. Prints the shipped example (``crosstable/examples/club_rr6.trf``: the six
   players of seed 003's club round robin): the FIDE Berger pairing list of
   every round with its results, then the crosstable with Sonneborn-Berger and
   the FIDE round-robin tie-breaks, and seed 003's SB walk-through for one player.
2. Unless ``--no-serve``: serves the web demo on its own SQLite file (that
   six-player event finished, and a ten-player round robin in progress),
   printing the URL and a login. Stop it with Ctrl-C.

The demo database is built on the first start and kept afterwards: what users
made in the demo (tournaments, accounts, results) is still there after a
restart; ``--reset`` recreates it, and says so. The port is checked before the
database is touched, so a second ``demo`` while one runs stops with one line
naming the busy port (exit status 2) and leaves the running one alone.
"""

from __future__ import annotations

import os
import socket
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from crosstable.cli import serve as server
from crosstable.core.errors import CrosstableError, RuleError
from crosstable.core.model import GameResult, Tournament
from crosstable.core.schedule import berger_table
from crosstable.core.standings import compute_standings, crosstable_view
from crosstable.core.standings.compare import explain_player, why
from crosstable.core.tiebreaks.presets import PRESETS
from crosstable.formats.trf import parse_trf

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
    port: Annotated[
        int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")
    ] = 8000,
    reset: Annotated[
        bool,
        typer.Option(
            "--reset", help="Recreate the web demo's database (what was made in it is lost)."
        ),
    ] = False,
    series: Annotated[
        bool,
        typer.Option(
            "--series",
            help="A portal's series instead: a simulated season of three editions "
            "(postponement, groups, final, super-final) in the demo database, summarised.",
        ),
    ] = False,
) -> None:
    """A demo round robin: schedule, results, crosstable and tie-breaks; then the web app.

    The web demo's database is kept from one start to the next; --reset recreates it.
    With --series: a series' season is simulated in the demo database (--db, else the
    per-user demo file), summarised, and served unless --no-serve.
    """
    if serve:
        check_port(host, port)  # before anything is printed or touched
    if series:
        from crosstable.cli.demo_series import series_demo  # deferred: service and web layers

        database = demo_database(db)
        if reset:
            remove_database(database)
        series_demo(database, host, port, serve=serve, reset=reset)
        return
    typer.echo(render_example())
    if serve:
        _serve(db, host, port, reset=reset)


def render_example() -> str:
    """The example as text: pairing lists with results, crosstable, one SB explained."""
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


class PortBusyError(CrosstableError):
    """The demo's port is taken (another demo or server runs there)."""


def check_port(host: str, port: int) -> None:
    """PortBusyError unless a server could listen on ``host:port`` now."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        raise PortBusyError(f"--host {host}: {error.strerror or error}") from None
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        try:
            probe.bind(address)
        except OSError as error:
            raise PortBusyError(
                f"port {port} on {host} is busy ({error.strerror or error}): another demo "
                f"or server runs there; stop it, or choose another port with --port"
            ) from None


def demo_database(db: str | None) -> str:
    """The web demo's database: ``--db``, else the per-user demo file (its folder made)."""
    if db:
        return db
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    folder = base / "crosstable"
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / "demo.sqlite")


def remove_database(database: str) -> None:
    """Delete a SQLite demo database and its journal files (``--reset``)."""
    from crosstable.store import resolve_url  # deferred: SQLAlchemy (start-up time)

    url = resolve_url(database)
    if not url.startswith("sqlite:///") or url == "sqlite:///:memory:":
        raise RuleError(f"--reset recreates a SQLite file only, not {database}")
    path = url[len("sqlite:///") :]
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(path + suffix).unlink(missing_ok=True)


def _serve(db: str | None, host: str, port: int, *, reset: bool = False) -> None:
    try:
        from crosstable.service import Service  # deferred: the service layer (start-up time)
        from crosstable.store import open_store  # deferred: SQLAlchemy (start-up time)
        from crosstable.web.demo import build_demo, find_demo  # deferred: web layer
    except ImportError as error:
        typer.echo(
            f"\nThe web demo needs the web extra: pip install 'crosstable[web]' ({error.name})"
        )
        return
    database = demo_database(db)
    if reset:
        remove_database(database)
    store = open_store(database)
    with store:
        service = Service(store)
        made = None if reset else find_demo(service)
        if made is not None:
            said = f"Demo database {database} kept as it was left (--reset recreates it)."
        else:
            made = build_demo(service)
            said = (
                f"Demo database {database} recreated (--reset)."
                if reset
                else f"Demo database {database} created; it is kept from one start to the next."
            )
    url = f"http://{host}:{port}"
    banner = (
        f"\n{said}\n"
        f"Web demo: {url}{made['path']}  (finished event: {url}{made['finished_path']})\n"
        f"Sign in as {made['username']} / {made['password']}\n"
        "Stop with Ctrl-C."
    )
    server.run(database, host=host, port=port, banner=banner)
