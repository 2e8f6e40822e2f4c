"""`crosstable engine --dutch …`: the command line of JaVaFo and bbpPairings.

Arbiter programs (Vega, Swiss-Manager style) call an external engine as::

    crosstable engine --dutch FILE.trf -p [OUT.txt]     pair the next round
    crosstable engine --dutch FILE.trf -c               check a finished event
    crosstable engine --dutch -g [CONFIG] -o OUT.trf [-s SEED]   generate

The pairing file has the number of lines that follow on its first line, then
"white black" per board in board order and "player 0" for the PAB, last.
CONFIG holds ``key=value`` lines (bbpPairings names): PlayersNumber,
RoundsNumber, DrawPercentage, ForfeitRate, HalfPointByeRate (a rate of k means
one in k), HighestRating, LowestRating.
"""

from __future__ import annotations

from pathlib import Path

import typer

from crosstable.cli.check import check_document, render
from crosstable.cli.files import write_atomically
from crosstable.cli.generate import generated_trf
from crosstable.cli.pair import request_from_document
from crosstable.cli.trf import read_document
from crosstable.core.errors import InputError, RuleError
from crosstable.core.pairing.dutch import Pairing, pair_round
from crosstable.core.pairing.dutch.generator import GeneratorSettings
from crosstable.formats.limits import MAX_PLAYERS, MAX_ROUNDS, is_number_text

_CONTEXT = {"allow_extra_args": True, "ignore_unknown_options": True}
_USAGE = (
    "use: engine --dutch FILE -p [OUT] | engine --dutch FILE -c | "
    "engine --dutch -g [CONFIG] -o OUT [-s SEED]"
)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("engine", context_settings=_CONTEXT, add_help_option=True)(engine)


def engine(ctx: typer.Context) -> None:
    """JaVaFo/bbpPairings-compatible command line (--dutch FILE -p [OUT] | -c | -g)."""
    args = list(ctx.args)
    if not args or args[0] != "--dutch":
        raise InputError(_USAGE, source="arguments")
    args = args[1:]
    if "-g" in args:
        _generate(args)
        return
    if len(args) >= 2 and args[1] == "-p" and len(args) <= 3:
        _pair(Path(args[0]), Path(args[2]) if len(args) == 3 else None)
        return
    if len(args) == 2 and args[1] == "-c":
        _check(Path(args[0]))
        return
    raise InputError(_USAGE, source="arguments")


def pairing_lines(pairing: Pairing) -> str:
    """The engine output format.

    >>> print(pairing_lines(Pairing(1, ((1, 3), (4, 2)), 5)), end="")
    3
    1 3
    4 2
    5 0
    """
    lines = [f"{w} {b}" for w, b in pairing.boards]
    if pairing.bye is not None:
        lines.append(f"{pairing.bye} 0")
    return "\n".join([str(len(lines)), *lines]) + "\n"


def _pair(file: Path, out: Path | None) -> None:
    text = pairing_lines(pair_round(request_from_document(read_document(file))))
    if out is None:
        typer.echo(text, nl=False)
    else:
        write_atomically(out, text)


def _check(file: Path) -> None:
    results = check_document(read_document(file))
    typer.echo(render(results))
    if any(not r.agrees for r in results):
        raise typer.Exit(1)


def _generate(args: list[str]) -> None:
    index = args.index("-g")
    rest = args[index + 1 :]
    config: Path | None = None
    if rest and rest[0] != "-o":
        config = Path(rest[0])
        rest = rest[1:]
    if index != 0 or len(rest) < 2 or rest[0] != "-o":
        raise InputError(_USAGE, source="arguments")
    out = Path(rest[1])
    seed = 0
    if len(rest) == 4 and rest[2] == "-s":
        seed = _integer(rest[3], "-s")
    elif len(rest) != 2:
        raise InputError(_USAGE, source="arguments")
    values = _config(config) if config else {}
    try:
        settings = GeneratorSettings(
            players=values.get("PlayersNumber", 30),
            rounds=values.get("RoundsNumber", 7),
            seed=seed,
            draw_rate=values.get("DrawPercentage", 30) / 100,
            forfeit_rate=_one_in(values.get("ForfeitRate", 0)),
            half_bye_rate=_one_in(values.get("HalfPointByeRate", 0)),
            highest_rating=values.get("HighestRating", 2400),
            lowest_rating=values.get("LowestRating", 1400),
        )
    except RuleError as error:
        raise InputError(str(error), source=str(config or "arguments")) from None
    write_atomically(out, generated_trf(settings))


def _one_in(rate: int) -> float:
    return 1 / rate if rate > 0 else 0.0


def _integer(text: str, what: str) -> int:
    if not is_number_text(text.removeprefix("-")):  # ASCII digits: int() takes "６" as 6
        raise InputError(f"{what} {text!r}: not a whole number", source="arguments")
    return int(text)


#: Bounds of the generator's settings (the TRF's 4-column starting number, 3-column round).
_BOUNDS = {"PlayersNumber": MAX_PLAYERS, "RoundsNumber": MAX_ROUNDS}


_KEYS = (
    "PlayersNumber",
    "RoundsNumber",
    "DrawPercentage",
    "ForfeitRate",
    "HalfPointByeRate",
    "HighestRating",
    "LowestRating",
    "RetiredRate",
)


def _config(path: Path) -> dict[str, int]:
    values: dict[str, int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        key, sep, value = text.partition("=")
        key = key.strip()
        if not sep or key not in _KEYS:
            raise InputError(f"unknown setting {key!r}", source=str(path), line=number, column=1)
        amount = value.strip()
        if not is_number_text(amount.removeprefix("-")):
            raise InputError(
                f"{key}: {amount!r} is not a whole number",
                source=str(path),
                line=number,
                column=len(key) + 2,
            )
        values[key] = int(amount)
        if key in _BOUNDS and values[key] > _BOUNDS[key]:
            raise InputError(
                f"{key}: {amount}: at most {_BOUNDS[key]}",
                source=str(path),
                line=number,
                column=len(key) + 2,
            )
    return values
