"""What ``crosstable --help`` lists, known without importing the commands: each top-level
command's name, the module of :mod:`crosstable.cli` that defines it, and its line of help.

The command line imports a command's module only when that command runs, so that
``--help``, ``version`` and a command that needs no database start at once instead of
importing SQLAlchemy, numpy and the whole service layer first. A module's ``register(app)``
adds its commands; :func:`crosstable.cli.full_command` loads every one of them, and
``tests/test_cli_startup.py`` checks this list against what the modules define (names,
order and help), so the two cannot drift apart.
"""

# ruff: noqa: E501 - one command a line, its help as ``--help`` prints it

from __future__ import annotations

#: (command, module, one line of help), in the order ``--help`` lists them: the commands,
#: then the groups of commands
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("duration", "duration", "Rounds, games and hours of a round robin; club evenings needed."),
    ("standings", "standings", "Standings with FIDE tie-breaks (C.07), live or final."),
    (
        "race",
        "race",
        "Who can still finish first (or in the top K): clinched, possible or eliminated.",
    ),
    ("pair", "pair", "Pair the next round of a Swiss tournament (FIDE Dutch system, 2026 rules)."),
    (
        "engine",
        "engine",
        "JaVaFo/bbpPairings-compatible command line (--dutch FILE -p [OUT] | -c | -g).",
    ),
    (
        "demo",
        "demo",
        "A demo round robin: schedule, results, crosstable and tie-breaks; then the web app.",
    ),
    ("new", "tournament", "Create a tournament from its regulations; it becomes the current one."),
    ("use", "tournament", "Make a tournament the current one."),
    (
        "tournaments",
        "tournament",
        "List the tournaments in the database (* marks the current one).",
    ),
    (
        "draw",
        "tournament",
        "Draw the starting numbers (recorded with the seed, so anyone can check it).",
    ),
    (
        "start",
        "tournament",
        "Start the tournament: a round robin's schedule (FIDE Berger tables), a Swiss's rounds and initial colour, a knockout's bracket.",
    ),
    (
        "result",
        "tournament",
        "Record the result of a game (with --correct: change a recorded one); * records it as adjourned, and its real result later (decisive: confirm the warning).",
    ),
    (
        "withdraw",
        "tournament",
        "A player withdraws: their remaining games become forfeits (or are annulled, as the regulations' withdrawal rule says).",
    ),
    ("finish", "tournament", "Every game has a result: fix the final places."),
    (
        "fide-mode",
        "fide",
        "Show whether the tournament is in FIDE mode, or leave it for good (--leave).",
    ),
    (
        "tiebreaks",
        "fide",
        "Set the tie-break list (after the start: a level-4 warning to confirm twice).",
    ),
    (
        "rounds",
        "fide",
        "Set the number of rounds of a Swiss (after the start: a level-4 warning to confirm twice).",
    ),
    (
        "report-correction",
        "fide",
        "Correct a game for the rating report only (the TRF export); the pairings and the standings keep the game as it stands. Then every correction kept is listed.",
    ),
    ("undo", "history", "Undo the last change (or, with --to N, everything after change #N)."),
    (
        "history",
        "history",
        "Every change, oldest first: who, when, what (struck through: undone).",
    ),
    ("show", "tournament", "Pairings with results, and the live standings."),
    (
        "export",
        "exchange",
        "Export the whole tournament: JSON (with its history) or a FIDE TRF file.",
    ),
    (
        "import",
        "exchange",
        "Import a tournament (JSON export with its history, or TRF); it becomes current.",
    ),
    (
        "serve",
        "serve",
        "Run the web application: live crosstables, results, print pages, JSON API.",
    ),
    (
        "check",
        "check",
        "Check every round's pairing against the tournament's system and the places against its tie-break order.",
    ),
    ("generate", "generate", "Write a random, fully paired Swiss tournament as a TRF file."),
    (
        "bracket",
        "bracket",
        "The knockout bracket: round 1's matches and byes, and which match feeds which.",
    ),
    (
        "pair-round",
        "rounds",
        "Pair the next round: a Swiss's proposal (publish it with --publish), or the next games of a knockout; a round robin's round by hand with --round N --hand 1-4,2-3. Games without a result are recorded as adjourned when the round is published (a level-2 warning: run again with --confirm TOKEN).",
    ),
    (
        "bye",
        "rounds",
        "Swiss: a player will not play a round (a bye), or with --cancel will after all.",
    ),
    (
        "battle",
        "rounds",
        "Make the tournament battle chess (colours drawn before each game), or show its rules.",
    ),
    (
        "colours",
        "rounds",
        "Draw the colours of a battle-chess round now (recorded; `undo` takes it back).",
    ),
    (
        "knockout-stage",
        "stages",
        "Create the knockout stage of a group stage + knockout event from its finished groups (--tournament: any group), or show the event (--show).",
    ),
    (
        "tick",
        "tick",
        "Do every step that is due now (series, tournaments' starts, knockout rounds), once.",
    ),
    (
        "autostart",
        "autostart",
        "Start a tournament by the clock: the time, a knockout's field of 2ⁿ, daily rounds.",
    ),
    (
        "restore",
        "backup",
        "Restore the SQLite database from a backup (checked first; the current one is backed up).",
    ),
    (
        "ratings",
        "ratings",
        "FIDE rating changes (B.02): per player games rated, expected score, K, change, TPR, average rating of opponents; first-rating figures for unrated players.",
    ),
    (
        "norms",
        "ratings",
        "Title norms (B.01): who made a GM/IM/WGM/WIM norm or can still make one.",
    ),
    (
        "organisers",
        "accounts",
        "A tournament's organisers and helpers, and who of them plays; add or remove one.",
    ),
    (
        "schedule",
        "schedule",
        "Round-robin schedules: FIDE Berger tables, the circle method, Crenshaw-Berger tables, checks.",
    ),
    (
        "blank",
        "blank",
        "Blank papers as PDF: FIDE Berger tables (4 to 16 players) and a blank crosstable.",
    ),
    ("trf", "trf", "Check and convert FIDE Tournament Report Files (TRF-16, TRF-2026, TRF(x))."),
    ("player", "players", "Register, list, edit and remove players."),
    (
        "team",
        "teams",
        "Team round robins and Swiss: teams, players in board order, line-ups, team standings.",
    ),
    (
        "bughouse",
        "bughouse",
        "Bughouse: pairs on two boards; round robin, Swiss or knockout; the match rule; standings.",
    ),
    (
        "series",
        "series",
        "A series' calendar slots, stage groups and stage plan; series in a database.",
    ),
    (
        "ratinglist",
        "rating_list",
        "Rating lists: import FIDE's TXT/XML list or a national CSV, look players up, fill and update a tournament's players.",
    ),
    ("pgn", "pgn", "PGN: the tournament's games as one file, and games' moves read from a file."),
    (
        "game-server",
        "game_servers",
        "Game servers' API tokens: their own limit, the tournaments granted to them.",
    ),
    (
        "fair-play",
        "fair_play",
        "Fair play: flag an account for computer help, clear the flag, show its record.",
    ),
    (
        "account",
        "accounts",
        "Accounts: eligibility counts and their adjustment, the master status.",
    ),
    ("levels", "levels", "Classes and levels: the rating bands, a player's level."),
    (
        "backup",
        "backup",
        "Back the SQLite database up now and print the file written; `backup list` lists them.",
    ),
    ("offline", "offline", "The tournament app that runs in the browser alone (Pyodide)."),
)

#: modules whose ``register`` adds to another module's group instead of the top level:
#: (the module, the group module's attribute it registers on)
EXTENSIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "series": (("series_results", "series_app"),),
    "players": (("expulsion", "player_app"),),
}


def module_of(name: str) -> str | None:
    """The module that defines the top-level command ``name`` (None: no such command).

    >>> module_of("result"), module_of("ratinglist"), module_of("nonsense")
    ('tournament', 'rating_list', None)
    """
    for command, module, _help in COMMANDS:
        if command == name:
            return module
    return None
