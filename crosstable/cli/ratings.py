"""`crosstable ratings FILE` and `crosstable norms FILE` (FIDE B.02 and B.01; docs/ratings.md).

``ratings --format json`` prints ``{"rating_type": …, "rating_type_from": …, "year": …,
"players": [{"start": 1, "games_rated": 5, "expected": 3.77, "k": 20, "change": 4.6,
"change_rounded": 5, "tpr": …, "aro": …, "initial": null | {…}, "games": [...]}, …]}``;
``norms --format json`` prints
``{"players": [{"start": 1, "name": …, "norms": [{"norm": "GM", "status": …}, …]}, …]}``.
A TRF does not say how many rated games a player had before or whether they ever
reached 2400: K follows the rating and the birth year unless ``--k`` or ``--new`` say
otherwise.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from crosstable.cli.standings import start_numbers
from crosstable.cli.trf import Lenient, echo_warnings, read_document
from crosstable.core.duration import parse_time_control
from crosstable.core.errors import InputError, RuleError
from crosstable.core.norms import check_json, large_swiss, tournament_norms
from crosstable.core.ratings import (
    PlayerHistory,
    PlayerRating,
    RatingType,
    player_json,
    rate_tournament,
    rating_type_for,
)
from crosstable.core.tiebreaks.explain import show
from crosstable.formats.json_io import tournament_year
from crosstable.formats.trf_model import TrfDocument

FORMATS = ("json", "table")
TYPES = {t.value: t for t in RatingType}
_STATUS_SHOWN = ("made", "secured", "possible")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command(name="ratings")(ratings)
    app.command(name="norms")(norms)


def ratings(
    file: Annotated[Path, typer.Argument(help="Tournament Report File (or tournament JSON)")],
    output: Annotated[str, typer.Option("--format", help="json or table")] = "table",
    rating_type: Annotated[
        str | None,
        typer.Option(
            "--type",
            help="standard, rapid or blitz (default: from the file's time control, else standard)",
        ),
    ] = None,
    year: Annotated[
        int | None,
        typer.Option("--year", help="The tournament's year (under-18 K); default from the file"),
    ] = None,
    k: Annotated[
        str | None,
        typer.Option("--k", help="K as the rating list gives it, e.g. 3=40,7=10"),
    ] = None,
    new: Annotated[
        str | None,
        typer.Option("--new", help="Players with fewer than 30 rated games before, e.g. 4,9"),
    ] = None,
    period: Annotated[
        str | None,
        typer.Option(
            "--period-games",
            help="Rated games on the same rating list outside this event (K x n <= 700), e.g. 3=12",
        ),
    ] = None,
    lenient: Lenient = False,
) -> None:
    """FIDE rating changes (B.02): per player games rated, expected score, K, change,
    TPR, average rating of opponents; first-rating figures for unrated players."""
    _format(output)
    kind = None if rating_type is None else TYPES.get(rating_type.strip().lower())
    if rating_type is not None and kind is None:
        raise InputError(
            "--type {value}: use standard, rapid or blitz",
            value=repr(rating_type),
            source="options",
        )
    document = read_document(file, lenient=lenient)
    echo_warnings(file, document)
    kind, kind_from = _rating_type(file, _time_control(document), kind)
    size = len(document.tournament.players)
    history: dict[int, PlayerHistory] = {}
    for start in start_numbers(new, size, "--new"):
        history[start] = PlayerHistory(rated_games_before=0)
    for start, value in _pairs(period, size, "--period-games", "N", 0, 999).items():
        history[start] = replace(history.get(start, PlayerHistory()), games_in_period=value)
    for start, value in _pairs(k, size, "--k", "K", 1, 40).items():
        history[start] = replace(history.get(start, PlayerHistory()), k=value)
    when = year if year is not None else tournament_year(document)
    rows = rate_tournament(document.tournament, rating_type=kind, year=when, history=history)
    if output == "json":
        payload = {
            "rating_type": kind.value,
            "rating_type_from": kind_from,
            "year": when,
            "players": [player_json(r) for r in rows],
        }
        typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        typer.echo(render_ratings(rows, kind, when, kind_from))


def norms(
    file: Annotated[Path, typer.Argument(help="Tournament Report File (or tournament JSON)")],
    output: Annotated[str, typer.Option("--format", help="json or table")] = "table",
    rounds: Annotated[
        int | None,
        typer.Option("--rounds", help="Rounds planned (default: the file's XXR/142 or rounds)"),
    ] = None,
    exempt: Annotated[
        bool,
        typer.Option(
            "--federation-exempt",
            help="The federation rule is waived (B.01 1.4.3a-d: a national championship's "
            "final, a zonal, a large international Swiss)",
        ),
    ] = False,
    every: Annotated[
        bool, typer.Option("--all", help="Every check, with the requirements not met")
    ] = False,
    host: Annotated[
        str | None,
        typer.Option(
            "--host",
            help="The host federation (default: the file's 032); a Swiss with 20 rated "
            "players of 3 other federations, 10 of them GM/IM/WGM/WIM, waives the "
            "federation rule",
        ),
    ] = None,
    lenient: Lenient = False,
) -> None:
    """Title norms (B.01): who made a GM/IM/WGM/WIM norm or can still make one."""
    _format(output)
    if rounds is not None and not 1 <= rounds <= 99:
        raise InputError("--rounds {rounds}: give 1 to 99", rounds=rounds, source="options")
    document = read_document(file, lenient=lenient)
    echo_warnings(file, document)
    where = (host if host is not None else document.headers.get("032", "")).strip().upper()
    waived = "given" if exempt else ""
    if not exempt and where and large_swiss(document.tournament, where):
        exempt, waived = True, f"a Swiss with 20 or more rated players from outside {where}"
    rows = tournament_norms(
        document.tournament,
        federation_exempt=exempt,
        planned_rounds=rounds,
        time_control=_time_control(document),
    )
    if output == "json":
        payload = {
            "federation_rule_waived": waived or None,
            "players": [
                {
                    "start": r.start,
                    "name": r.name,
                    "norms": [
                        check_json(c) for c in r.checks if every or c.status in _STATUS_SHOWN
                    ],
                }
                for r in rows
            ],
        }
        typer.echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    lines = []
    for row in rows:
        for c in row.checks:
            if not every and c.status not in _STATUS_SHOWN:
                continue
            figures = f"{show(c.score)}/{c.games}"
            if c.average is not None:
                figures += f", Ra {c.average}"
            if c.performance is not None:
                figures += f", Rp {c.performance}"
            if c.counts_as and c.counts_as != c.games:
                figures += f"; counts as {c.counts_as} games"
            status = c.status
            if c.made_after_round is not None:
                status += f" after round {c.made_after_round}"
            line = f"{row.start:>4}  {row.name}: {c.norm} norm {status} ({figures})"
            if c.status == "possible" and c.still_needed is not None:
                line += f"; needs {show(c.still_needed)} from {c.games_left} games left"
                if c.estimate:
                    line += " if the next opponents average the same"
            if c.failures:
                line += "; not met: " + "; ".join(c.failures)
            lines.append(line)
    if not lines:
        lines.append("no norm made and none still possible")
    if waived and waived != "given":
        lines.append(f"the federation rule is waived: {waived}")
    typer.echo("\n".join(lines))


def render_ratings(
    rows: tuple[PlayerRating, ...], kind: RatingType, year: int | None, kind_from: str = ""
) -> str:
    headers = ["No", "Name", "Rtg", "Games", "Score", "Exp", "K", "Change", "New", "TPR", "ARO"]
    lines = []
    notes = []
    for r in rows:
        if r.rating is None:
            first = r.initial
            shown = "—" if first is None or first.rating is None else str(first.rating)
            state = "" if first is None or first.published else " (not published)"
            lines.append(
                [str(r.start), r.name, "unrated", str(r.games_rated), show(r.score), "", "",
                 "", f"first {shown}{state}", _opt(r.tpr), _opt(r.aro)]
            )  # fmt: skip
            if first is not None and first.note:
                notes.append(f"{r.start}: {first.note}")
            continue
        change = "" if r.change is None else f"{float(r.change):+.1f}"
        new = "" if r.change_rounded is None else str(r.rating + r.change_rounded)
        lines.append(
            [str(r.start), r.name, str(r.rating), str(r.games_rated), show(r.score),
             f"{float(r.expected):.2f}", "" if r.k is None else str(r.k.value), change, new,
             _opt(r.tpr), _opt(r.aro)]
        )  # fmt: skip
    widths = [max([len(h)] + [len(line[i]) for line in lines]) for i, h in enumerate(headers)]
    out = []
    for line in [headers, *lines]:
        cells = [
            text.ljust(width) if i == 1 else text.rjust(width)
            for i, (text, width) in enumerate(zip(line, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
    out.append("")
    out.append(
        f"FIDE {kind.value} rating"
        + (f" ({kind_from})" if kind_from not in ("--type", "default") else "")
        + ", B.02 as in force from 1 March 2024"
        + ("" if year is None else f"; K for {year}")
        + "; forfeits and unplayed games are not rated"
    )
    out.extend(f"note: {n}" for n in notes)
    return "\n".join(out)


def _rating_type(
    file: Path, time_control: str, chosen: RatingType | None
) -> tuple[RatingType, str]:
    """The list the games count for: as chosen, else by the time control, else standard."""
    if chosen is not None:
        return chosen, "--type"
    if not time_control.strip():
        return RatingType.STANDARD, "default"
    try:
        control = parse_time_control(time_control)
    except RuleError:  # TRF 122 is free text
        return RatingType.STANDARD, f"default (time control {time_control.strip()!r} not read)"
    found = rating_type_for(control.minutes_per_player)
    if found is None:
        raise InputError(
            "time control {control}: 3 minutes or less for 60 moves is not FIDE-rated; "
            "give --type to rate it anyway",
            control=control.notation(),
            source=str(file),
        )
    return found, f"time control {control.notation()}"


def _time_control(document: TrfDocument) -> str:
    """The event's time control: the tournament's own setting, else TRF-2026's 222 or
    TRF's 122 (free text: read when it reads as a time control)."""
    control: str = document.tournament.settings.time_control or document.headers.get(
        "222", document.headers.get("122", "")
    )
    return control


def _opt(value: int | None) -> str:
    return "" if value is None else str(value)


def _format(output: str) -> None:
    if output not in FORMATS:
        raise InputError(
            "--format {value}: use json or table", value=repr(output), source="options"
        )


def _pairs(
    text: str | None, size: int, option: str, name: str, low: int, high: int
) -> dict[int, int]:
    out: dict[int, int] = {}
    if text is None or not text.strip():
        return out
    for part in text.split(","):
        start, sep, value = part.partition("=")
        value = value.strip()
        if not sep or not (
            value.isascii() and value.isdigit() and len(value) <= 4 and low <= int(value) <= high
        ):
            raise InputError(
                "{option} {text}: {part} is not START={name} with {name} {low} to {high}",
                option=option,
                text=repr(text),
                part=repr(part.strip()),
                name=name,
                low=low,
                high=high,
                source="options",
            )
        (number,) = start_numbers(start, size, option)
        out[number] = int(value)
    return out
