"""Tie-break lists: the presets and the rule that a list is locked once play starts.

* ``rr`` — FIDE's recommendation for individual round robins (C.02 2017):
  DE, WIN, SB, KS. C.07 itself sets no default order.
* ``sb-de-ks`` — the "usual order for a round robin" of seeds 001 and 004:
  Sonneborn-Berger, direct encounter, Koya.
* ``de-sb-ks`` — the order seed 003 quotes as FIDE's for round robins: direct
  encounter, Sonneborn-Berger, Koya.
* ``swiss`` — Buchholz first: BH/C1, BH, SB, DE, WIN.
* ``portal`` — the portal's order (seeds 000, 002): SB, then the average rating
  of the rated opponents met, unrounded (``ARO_RATED``).

Points always come first; ``PTS`` may be written at the head of a list (TRF
record 212) and is then only shown.

>>> preset("rr")
('DE', 'WIN', 'SB', 'KS')
>>> default_tiebreaks(System.SWISS_DUTCH)
('BH/C1', 'BH', 'SB', 'DE', 'WIN')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from crosstable.core.errors import RuleError
from crosstable.core.model import System, Tournament
from crosstable.core.text import Message
from crosstable.core.tiebreaks.spec import parse_codes

PRESETS: dict[str, tuple[str, ...]] = {
    "rr": ("DE", "WIN", "SB", "KS"),
    "sb-de-ks": ("SB", "DE", "KS"),
    "de-sb-ks": ("DE", "SB", "KS"),
    "swiss": ("BH/C1", "BH", "SB", "DE", "WIN"),
    "portal": ("SB", "ARO_RATED"),
    "portal-doubled": ("DSB", "ARO_RATED"),
    # the portal's Swiss (seed 002: places by points, then the Buchholz): the full
    # Buchholz first, then its cuts
    "portal-swiss": ("BH", "BH/C1", "BH/C2"),
}


def preset(name: str) -> tuple[str, ...]:
    """A preset by name (``rr``, ``sb-de-ks``, ``de-sb-ks``, ``swiss``, ``portal``…)."""
    try:
        return PRESETS[name.lower()]
    except KeyError:
        raise RuleError(
            "tie-break preset {name}: use one of {choices}",
            name=repr(name),
            choices=Message.joined(", ", sorted(PRESETS)),
        ) from None


def preset_or_codes(text: str) -> tuple[str, ...]:
    """A preset's list when ``text`` names one, else the codes written in ``text``.

    >>> preset_or_codes("sb-de-ks"), preset_or_codes("de, sb; ks")
    (('SB', 'DE', 'KS'), ('DE', 'SB', 'KS'))
    """
    raw = text.strip()
    if raw.lower() in PRESETS:
        return PRESETS[raw.lower()]
    return tuple(c.strip().upper() for c in raw.replace(";", ",").split(",") if c.strip())


#: the Buchholz family (C.07 8.1-8.3): BH, its cuts and medians, and the FIDE Buchholz
BUCHHOLZ_FAMILY = ("BH", "FB", "AOB")


def buchholz_warnings(system: System, codes: Sequence[str]) -> tuple[str, ...]:
    """A warning (not a refusal) for each Buchholz code chosen for a round robin.

    In a complete round robin everyone meets the same field, so a player's
    Buchholz is the field's total minus their own points: it only repeats the
    score order (seed 004: "do not use Buchholz in a round robin").

    >>> [w[:42] for w in buchholz_warnings(System.ROUND_ROBIN, ("BH/C1", "SB"))]
    ['Buchholz (BH/C1) is not for a round robin:']
    >>> buchholz_warnings(System.SWISS_DUTCH, ("BH",))
    ()
    """
    if system is not System.ROUND_ROBIN:
        return ()
    warnings = []
    for code in codes:
        base = code.strip().upper().split("/")[0]
        if base in BUCHHOLZ_FAMILY:
            warnings.append(
                Message(
                    (
                        "Buchholz ({code}) is not for a round robin: everyone meets the same "
                        "field, so it only repeats the score order; Sonneborn-Berger or direct "
                        "encounter tells equal players apart"
                    ),
                    code=code.strip().upper(),
                )
            )
    return tuple(warnings)


def default_tiebreaks(system: System) -> tuple[str, ...]:
    """The preset used when the regulations give no list."""
    return PRESETS["rr"] if system.has_predetermined_pairings else PRESETS["swiss"]


def has_started(tournament: Tournament) -> bool:
    """True once any result of round 1 (or later) is in."""
    for rnd in tournament.rounds:
        if rnd.byes and any(b.kind.value != "free" for b in rnd.byes):
            return True
        for game in rnd.games:
            if game.result is not None and game.result.is_decided:
                return True
    return False


def change_tiebreaks(
    tournament: Tournament, codes: str | Sequence[str], *, confirmed: bool = False
) -> Tournament:
    """A copy with a new tie-break list (fixed once round 1 starts).

    After the start the change takes FIDE's level-4 confirmation (the service asks
    for it: service/warning_levels.py) and is ``confirmed`` here; the old and the new
    list are kept in ``Settings.tiebreak_overrides``.
    """
    specs = parse_codes(codes)
    new = tuple(s.code for s in specs)
    settings = tournament.settings
    if new == settings.tiebreaks:
        return tournament
    overrides = settings.tiebreak_overrides
    if has_started(tournament):
        if not confirmed:
            raise RuleError(
                "the tie-break list is part of the published regulations and is locked once "
                "round 1 has started; changing it takes the arbiter's two-step confirmation"
            )
        old = ",".join(settings.tiebreaks) or "(none)"
        overrides = (*overrides, f"{old} -> {','.join(new)}")
    return replace(
        tournament, settings=replace(settings, tiebreaks=new, tiebreak_overrides=overrides)
    )
