"""The settings a team TRF declares (:mod:`.trf_plan`): the match points of 362, the
kind of team tournament of 192 (else the games' shape), the team tie-breaks of 202, and
the error that names a team record."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import Round
from crosstable.core.scoring import PointSystem
from crosstable.core.teams import team_tiebreak
from crosstable.formats.trf_model import TrfDocument


class TeamFileError(InputError):
    """A team record that is bad or contradicts the games: the source names the record."""

    def __init__(self, message: str, /, *, source: str, record: str, **params: object) -> None:
        # (no parameter is named line or column: the location is the record's)
        super().__init__(message, source=f"{source} (record {record})", **params)  # type: ignore[arg-type]


def match_points_of(doc: TrfDocument, source: str) -> PointSystem:
    text = doc.headers.get("362", "").strip()
    if not text:
        return PointSystem(Fraction(2), Fraction(1), Fraction(0))
    values = {"TW": Fraction(2), "TD": Fraction(1), "TL": Fraction(0)}
    words = text.replace("TW", " TW ").replace("TD", " TD ").replace("TL", " TL ").split()
    for symbol, amount in zip(words[::2], words[1::2], strict=False):
        if symbol not in values:
            raise TeamFileError(
                "{symbol}: TW, TD or TL", source=source, record="362", symbol=repr(symbol)
            )
        try:
            values[symbol] = Fraction(amount.replace(",", "."))
        except (ValueError, ZeroDivisionError):
            raise TeamFileError(
                "{symbol} {amount}: not a number",
                source=source,
                record="362",
                symbol=symbol,
                amount=repr(amount),
            ) from None
    if len(words) % 2:
        raise TeamFileError(
            "{text}: a value after each of TW, TD, TL", source=source, record="362", text=repr(text)
        )
    return PointSystem(values["TW"], values["TD"], values["TL"])


def kind_of(doc: TrfDocument) -> tuple[str | None, int, str]:
    """From 192: ``"rr"`` or ``"swiss"`` (None: not said), cycles, the primary score."""
    code = doc.headers.get("192", "").strip().upper()
    primary = "MP"
    if "TEAM" not in code:
        return None, 1, primary
    if code.endswith("DOUBLEROUNDROBIN"):
        return "rr", 2, primary
    if code.endswith("ROUNDROBIN"):
        return "rr", 1, primary
    scores = [part for part in code.split("_") if part in ("MP", "GP")]
    if scores:
        primary = scores[0]
    return "swiss", 1, primary


def shape_of(rounds: Sequence[Round], owner: dict[int, int], teams: int) -> tuple[str, int]:
    met: dict[frozenset[int], int] = {}
    for rnd in rounds:
        for pair in {frozenset((owner[g.white], owner[g.black])) for g in rnd.games}:
            met[pair] = met.get(pair, 0) + 1
    pairs = teams * (teams - 1) // 2
    counts = set(met.values())
    per_cycle = teams - 1 + teams % 2
    if len(met) == pairs and len(counts) == 1 and rounds:
        cycles = counts.pop()
        if len(rounds) == cycles * per_cycle:
            return "rr", cycles
    return "swiss", 1


def tiebreaks_of(doc: TrfDocument, defaults: tuple[str, ...], notes: list[str]) -> tuple[str, ...]:
    listed = list(doc.tournament.settings.tiebreaks)
    if not listed:
        return defaults
    try:
        return tuple(team_tiebreak(code).code for code in listed)
    except RuleError:
        notes.append(
            f"the tie-breaks of 202 ({','.join(listed)}) are not all team tie-breaks this "
            f"program computes: {','.join(defaults)} instead"
        )
        return defaults


__all__ = ["TeamFileError", "kind_of", "match_points_of", "shape_of", "tiebreaks_of"]
