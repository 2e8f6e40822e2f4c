"""The tie-breaks a tournament's picker offers, and those it refuses.

In a complete round robin everyone meets the same field, so a Buchholz (BH), a Fore
Buchholz (FB) and an Average of Opponents' Buchholz (AOB), with any modifier, only
repeat the score order. FIDE's checklist for tournament programs asks that a round
robin in FIDE mode does not offer them at all: the picker hides them and a list that
names one is refused (level 5). Outside FIDE mode they stay offered, with the advice
against them (:func:`crosstable.core.tiebreaks.presets.buchholz_warnings`); a Swiss
offers every tie-break.

>>> "BH" in offered_codes(System.ROUND_ROBIN, fide=True)
False
>>> "BH" in offered_codes(System.ROUND_ROBIN, fide=False), "BH" in offered_codes(
...     System.SWISS_DUTCH, fide=True)
(True, True)
>>> hidden_codes(System.ROUND_ROBIN, ("bh/c1", "SB", "AOB/F"), fide=True)
('BH/C1', 'AOB/F')
>>> "swiss" in offered_presets(System.ROUND_ROBIN, fide=True)
False
"""

from __future__ import annotations

from collections.abc import Sequence

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.text import Message
from crosstable.core.tiebreaks.base import REGISTRY
from crosstable.core.tiebreaks.presets import BUCHHOLZ_FAMILY, PRESETS
from crosstable.core.tiebreaks.spec import parse_code


def hides_buchholz(system: System, *, fide: bool) -> bool:
    """True when the picker of ``system`` hides the Buchholz family: a round robin in
    FIDE mode."""
    return fide and system is System.ROUND_ROBIN


def family_of(code: str) -> str:
    """The name a code is of, aliases read (``BH-C1`` is a Buchholz).

    >>> family_of("bh-c1"), family_of("SB")
    ('BH', 'SB')
    """
    return parse_code(code.strip()).name


def hidden_codes(system: System, codes: Sequence[str], *, fide: bool) -> tuple[str, ...]:
    """The codes of ``codes`` that the picker of ``system`` does not offer (as written,
    upper case)."""
    if not hides_buchholz(system, fide=fide):
        return ()
    return tuple(
        code.strip().upper()
        for code in codes
        if code.strip() and family_of(code) in BUCHHOLZ_FAMILY
    )


def offered_codes(system: System, *, fide: bool) -> tuple[str, ...]:
    """Every tie-break name the picker of ``system`` offers, sorted."""
    hidden = BUCHHOLZ_FAMILY if hides_buchholz(system, fide=fide) else ()
    return tuple(sorted(name for name in REGISTRY if name not in hidden))


def offered_presets(system: System, *, fide: bool) -> tuple[str, ...]:
    """The presets whose every code the picker of ``system`` offers, sorted."""
    return tuple(
        sorted(
            name for name, codes in PRESETS.items() if not hidden_codes(system, codes, fide=fide)
        )
    )


def check_offered(system: System, codes: Sequence[str], *, fide: bool) -> None:
    """Refuse a list that names a tie-break the picker of ``system`` does not offer
    (level 5 in FIDE mode: it cannot be confirmed)."""
    hidden = hidden_codes(system, codes, fide=fide)
    if hidden:
        raise RuleError(
            "{codes} cannot be chosen for a round robin in FIDE mode (level 5): everyone "
            "meets the same field, so a Buchholz only repeats the score order; choose "
            "Sonneborn-Berger, direct encounter or Koya",
            codes=Message.joined(", ", hidden),
        )


__all__ = [
    "check_offered",
    "family_of",
    "hidden_codes",
    "hides_buchholz",
    "offered_codes",
    "offered_presets",
]
