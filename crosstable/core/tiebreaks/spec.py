"""Tie-break codes as written in regulations and TRF records 202/212.

A code is ``NAME[/modifier…]`` (C.07 art. 14, TieBreakServer syntax):

==========  ===============================================================
``/C1``     Cut-1: drop the least significant value (``/C2``: two of them)
``/M1``     Median-1: drop the least, then the most significant value
``/L-1``    Koya limit moved down by half a point (``/L+2`` up by a point;
            ``/L0.5`` in points; ``/L60%`` as a share of the maximum)
``/P``      count forfeits as games (DE in a Swiss event, C.07 6.1.1)
``/R``      reverse the order (TPN, RTNG)
``/F``      AOB on Fore Buchholz instead of Buchholz
``/U1000``  an unrated player counts as rated 1000 (C.07 art. 10)
``/V2026``  this tie-break follows another edition of C.07
==========  ===============================================================

>>> spec = parse_code("BH/C1")
>>> spec.name, spec.cut_low, spec.code
('BH', 1, 'BH/C1')
>>> parse_code("ks/l-1").limit_steps
-1
>>> parse_code("BH/X")
Traceback (most recent call last):
...
crosstable.core.errors.RuleError: tie-break BH/X: unknown modifier /X
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from crosstable.core.errors import RuleError
from crosstable.core.model import RulesEdition

# The names this package knows, with the aliases other programs write.
ALIASES = {
    "POINTS": "PTS",
    "BH-C1": "BH",  # handled in parse_code: the "-C1" suffix becomes /C1
    "SNO": "TPN",
    "RTG": "RTNG",
    "GE": "REP",
    "AROR": "ARO_RATED",
    "SB2": "DSB",
}

# The modifier letters, as written after the slash.
CUT = "C"
MEDIAN = "M"
LIMIT = "L"
FORFEITS = "P"
REVERSE = "R"
FORE = "F"
UNRATED = "U"

# The tie-breaks this package computes, by name, with the modifiers each accepts.
# Every tie-break class adds its line when it is registered (``base.register``).
KNOWN: dict[str, frozenset[str]] = {}

_LIMIT = re.compile(r"^L(?P<sign>[+-]?)(?P<number>\d+(?:\.\d+)?)(?P<percent>%?)$")


@dataclass(frozen=True, slots=True)
class TieBreakSpec:
    """One parsed tie-break code; ``code`` is the text as given (the JSON key)."""

    code: str
    name: str
    cut_low: int = 0
    cut_high: int = 0
    limit_steps: int = 0  # Koya: half-point steps (C.07 14.5)
    limit_points: Fraction | None = None  # Koya: shift in points (``/L0.5``)
    limit_percent: Fraction | None = None  # Koya: threshold as a share of the maximum
    forfeits_as_games: bool = False  # /P
    reverse: bool = False  # /R
    fore: bool = False  # /F
    unrated_rating: int | None = None  # /U<rating>
    edition: RulesEdition | None = None  # /V2024, /V2026

    @property
    def modified(self) -> bool:
        """True when a cut or median modifier applies."""
        return bool(self.cut_low or self.cut_high)


def parse_code(text: str) -> TieBreakSpec:
    """Parse one tie-break code such as ``SB``, ``BH/C1``, ``KS/L-1`` or ``ARO/U1000``."""
    code = text.strip()
    if not code:
        raise RuleError("tie-break code is empty")
    parts = code.upper().split("/")
    head = parts[0]
    mods = parts[1:]
    head = head.split(":")[0]  # ":MP"/":GP" point types only matter for teams
    if "-" in head:  # "BH-C1", "ARO-M1": the C.07 article names
        head, _, suffix = head.partition("-")
        mods.insert(0, suffix)
    name = ALIASES.get(head, head)
    if name not in KNOWN:
        known = ", ".join(sorted(KNOWN))
        raise RuleError(
            "tie-break {code}: unknown code {head} (known: {known})",
            code=code,
            head=repr(head),
            known=known,
        )
    fields: dict[str, object] = {}
    for mod in mods:
        _apply_modifier(code, mod, fields)
    spec = TieBreakSpec(code=code, name=name, **fields)  # type: ignore[arg-type]
    _check_modifiers(spec, KNOWN[name])
    return spec


def _check_modifiers(spec: TieBreakSpec, accepted: frozenset[str]) -> None:
    """Reject modifiers the tie-break does not define."""
    given = {
        CUT: spec.cut_low and not spec.cut_high,
        MEDIAN: bool(spec.cut_high),
        LIMIT: spec.limit_steps or spec.limit_points is not None or spec.limit_percent is not None,
        FORFEITS: spec.forfeits_as_games,
        REVERSE: spec.reverse,
        FORE: spec.fore,
        UNRATED: spec.unrated_rating is not None,
    }
    for mod, used in given.items():
        if used and mod not in accepted:
            raise RuleError(
                "tie-break {code}: {name} has no /{modifier} modifier",
                code=spec.code,
                name=spec.name,
                modifier=mod,
            )


def parse_codes(text: str | Sequence[str]) -> list[TieBreakSpec]:
    """A comma-separated list (or a list of codes); ``PTS`` may lead it (record 212)."""
    items = text.split(",") if isinstance(text, str) else list(text)
    return [parse_code(item) for item in items if item.strip()]


def _apply_modifier(code: str, mod: str, fields: dict[str, object]) -> None:
    if mod == "":
        raise RuleError("tie-break {code}: empty modifier", code=code)
    kind, rest = mod[0], mod[1:]
    if kind in "CM" and rest.isdigit():
        count = int(rest)
        if kind == "C":
            fields["cut_low"] = count
        else:
            fields["cut_low"] = count
            fields["cut_high"] = count
        return
    if kind == "L":
        match = _LIMIT.match(mod)
        if match is None:
            raise RuleError(
                "tie-break {code}: limit /{modifier} — write /L-1, /L+2, /L0.5 or /L60%",
                code=code,
                modifier=mod,
            )
        number = match["number"]
        negative = match["sign"] == "-"
        if match["percent"]:
            fields["limit_percent"] = Fraction(number)
        elif "." in number:
            fields["limit_points"] = -Fraction(number) if negative else Fraction(number)
        else:
            fields["limit_steps"] = -int(number) if negative else int(number)
        return
    if mod == "P":
        fields["forfeits_as_games"] = True
        return
    if mod == "R":
        fields["reverse"] = True
        return
    if mod == "F":
        fields["fore"] = True
        return
    if kind == "U" and rest.isdigit():
        fields["unrated_rating"] = int(rest)
        return
    if kind == "V" and rest.isdigit():
        year = int(rest)
        editions = {2024: RulesEdition.C07_2024, 2026: RulesEdition.C07_2026}
        if year not in editions:
            raise RuleError(
                "tie-break {code}: edition /{modifier} — use /V2024 or /V2026",
                code=code,
                modifier=mod,
            )
        fields["edition"] = editions[year]
        return
    raise RuleError("tie-break {code}: unknown modifier /{modifier}", code=code, modifier=mod)
