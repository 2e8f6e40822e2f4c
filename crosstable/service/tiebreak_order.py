"""The tie-break order a tournament publishes in its regulations.

The regulations name the order from the moment the tournament exists, before any lot
is drawn: the tournament's own list, or — when the organiser gave none — the one its
standings will use, its system's default (:func:`crosstable.core.tiebreaks.default_tiebreaks`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from crosstable.core.model import Settings, System
from crosstable.core.text import Message
from crosstable.core.tiebreaks import default_tiebreaks
from crosstable.core.tiebreaks.picker import check_offered
from crosstable.core.tiebreaks.presets import buchholz_warnings, preset
from crosstable.service.details import Details
from crosstable.service.fide_mode import current_round, in_fide_mode, regulations_fide_mode
from crosstable.service.players import check_tiebreaks
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level


def published_tiebreaks(settings: Mapping[str, object]) -> tuple[str, ...]:
    """The tie-break codes in order, as a tournament's settings (its view's) give them.

    >>> published_tiebreaks({"system": "round-robin", "tiebreaks": ["DE", "SB"]})
    ('DE', 'SB')
    >>> published_tiebreaks({"system": "round-robin", "tiebreaks": []}) == default_tiebreaks(
    ...     System.ROUND_ROBIN)
    True
    >>> published_tiebreaks({"system": "dutch"}) == default_tiebreaks(System.SWISS_DUTCH)
    True
    """
    listed = settings.get("tiebreaks") or ()
    own = tuple(str(code) for code in listed) if isinstance(listed, list | tuple) else ()
    return own or default_tiebreaks(System(str(settings.get("system") or System.ROUND_ROBIN.value)))


def creation_tiebreaks(
    system: System, details: Details | None, given: Sequence[str]
) -> tuple[str, ...]:
    """The list a new tournament stores: the one given, else the portal's own default
    where the portal's rules name one (a Swiss with the portal's initial order: the
    full Buchholz first, then its cuts), else none (the standings then use the
    system's default, published as such).

    >>> creation_tiebreaks(System.SWISS_DUTCH, {"initial_order": "portal"}, ())
    ('BH', 'BH/C1', 'BH/C2')
    >>> creation_tiebreaks(System.SWISS_DUTCH, {}, ()), creation_tiebreaks(
    ...     System.SWISS_DUTCH, {"initial_order": "portal"}, ("SB",))
    ((), ('SB',))
    """
    if given:
        return tuple(given)
    order = str((details or {}).get("initial_order") or "").strip().lower()
    if system is System.SWISS_DUTCH and order == "portal":
        return preset("portal-swiss")
    return ()


def with_creation_tiebreaks(settings: Settings, details: Details | None) -> Settings:
    """A new tournament's settings with its tie-break list checked (each code known, each
    once, none a round robin in FIDE mode does not offer) and, when none is given, the
    portal's default where its rules name one."""
    given = check_tiebreaks(settings.tiebreaks)
    fide = regulations_fide_mode(settings.system, details)
    check_offered(settings.system, given, fide=fide)
    return replace(settings, tiebreaks=creation_tiebreaks(settings.system, details, given))


def tiebreak_change_warning(
    system: System, old: tuple[str, ...], new: tuple[str, ...], round_number: int
) -> FideWarning:
    """The level-4 warning of a change of the published tie-break list after round 1:
    the old and the new list, and what changes for whom; the TRF keeps the old list.

    >>> w = tiebreak_change_warning(System.ROUND_ROBIN, ("DE", "SB"), ("SB",), 2)
    >>> int(w.level), w.trf
    (4, 'Tie-breaks: changed after round 1; old list DE,SB; new list SB')
    """
    before = old or default_tiebreaks(system)
    return FideWarning(
        code="tiebreaks-after-start",
        level=Level.TWO_STEP,
        message=Message(
            "the tie-break list was published before round 1: changing it from {old} to {new}",
            old=",".join(before),
            new=",".join(new) or ",".join(default_tiebreaks(system)),
        ),
        consequences=(
            Message(
                "for players with equal points: their order in the standings may change, "
                "and with it prizes, titles and qualification places"
            ),
            Message(
                "for everybody: the regulations, the standings and the TRF file show the new "
                "list; the TRF keeps the old one in a ### line"
            ),
        ),
        trf=f"Tie-breaks: changed after round 1; old list {','.join(before)}; new list "
        f"{','.join(new) or ','.join(default_tiebreaks(system))}",
        round=round_number,
    )


def buchholz_warning(
    system: System, codes: tuple[str, ...], round_number: int
) -> FideWarning | None:
    """A level-3 warning when a Buchholz tie-break is chosen for a round robin (it only
    repeats the score order there); None otherwise."""
    said = buchholz_warnings(system, codes)
    if not said:
        return None
    return FideWarning(
        code="buchholz-round-robin",
        level=Level.CONFIRM,
        message=Message("{warning}", warning=said[0]),
        trf=f"Tie-breaks: Buchholz chosen for a round robin ({','.join(codes)})",
        round=round_number,
    )


def tiebreak_warnings(
    tx: Tx, settings: Settings, new: Settings, changing: Sequence[str], started: bool
) -> list[FideWarning]:
    """The warnings an edit of the regulations raises on the tie-break list: a change
    after the start (level 4), a Buchholz chosen for a round robin (level 3; refused in
    FIDE mode, where the picker does not offer it)."""
    if "tiebreaks" not in changing:
        return []
    check_offered(new.system, new.tiebreaks, fide=in_fide_mode(tx.session, tx.tournament))
    number = current_round(tx.session, tx.tournament)
    found = []
    if started:
        found.append(tiebreak_change_warning(new.system, settings.tiebreaks, new.tiebreaks, number))
    buchholz = buchholz_warning(new.system, new.tiebreaks, number)
    if buchholz is not None:
        found.append(buchholz)
    return found
