"""A new number of rounds of a started Swiss re-checks the last paired round.

The Dutch system pairs the final round by other rules than the rounds before it
(topscorers may get a third colour in a row or a colour difference above 2, and the
absolute criteria relax for them). So when a change of the number of rounds makes the
last paired round the final one, or makes it stop being the final one, that round is
paired again under the new number by the checker's own means (the same request and
comparison as ``crosstable check``) and compared with the round as published. Where
they differ, FIDE's checklist wants a level-3 warning that names what is wrong and,
once confirmed, a ``### Configuration @ Round n: …`` line in the TRF export.
"""

from __future__ import annotations

from crosstable.core.checker import Declared, Prohibition
from crosstable.core.checker.compare import compare_round
from crosstable.core.checker.findings import Finding
from crosstable.core.errors import RuleError
from crosstable.core.model import Colour
from crosstable.core.pairing.dutch.checker import played_pairing
from crosstable.core.pairing.dutch.engine import pair_round
from crosstable.core.pairing.dutch.from_tournament import before_round
from crosstable.core.text import Message
from crosstable.service.loading import Loaded
from crosstable.service.swiss.settings import initial_colour_of, swiss_settings
from crosstable.service.unit import Tx
from crosstable.service.warning_levels import FideWarning, Level

#: the code of the warning (level 3)
RECHECKED = "final-round-rechecked"


def final_round_findings(tx: Tx, paired: int, total: int) -> tuple[Finding, ...]:
    """How round ``paired`` as published breaks the Dutch rules when the tournament has
    ``total`` rounds (empty: it is the pairing the rules give)."""
    loaded = Loaded(tx.session, tx.tournament)
    tournament = loaded.tournament()
    details = tx.tournament.regulations or {}
    settings = swiss_settings(details)
    colour = settings.initial_colour or initial_colour_of(details)
    declared = Declared(
        initial_colour=colour if colour is not Colour.NONE else Colour.WHITE,
        prohibited=tuple(Prohibition(tuple(group)) for group in settings.forbidden),
        total_rounds=total,
    )
    played = played_pairing(tournament, paired)
    try:
        expected = pair_round(declared.request(before_round(tournament, paired), paired))
    except RuleError as error:
        message = f"the rules allow no pairing of round {paired}: {error}"
        return (Finding("no-pairing", message, paired),)
    return compare_round(paired, played.boards, played.bye, expected.boards, expected.bye)


def final_round_warning(tx: Tx, paired: int, old: int, new: int) -> FideWarning | None:
    """The level-3 warning when round ``paired`` — the final round under one of ``old``
    and ``new`` rounds and not under the other — no longer follows the rules; None when
    the round is not concerned or still follows them."""
    if paired < 1 or (paired != new and paired != old) or old == new:
        return None
    findings = final_round_findings(tx, paired, new)
    if not findings:
        return None
    listed = "; ".join(f.message for f in findings)
    if paired == new:
        head = Message(
            "round {round} becomes the final round, and its pairing breaks the rules of a "
            "final round: {listed}",
            round=paired,
            listed=listed,
        )
        trf = f"Configuration: round {paired} is now the final round; its pairing differs: "
    else:
        head = Message(
            "round {round} is no longer the final round, and its pairing breaks the rules of "
            "a round before the last: {listed}",
            round=paired,
            listed=listed,
        )
        trf = f"Configuration: round {paired} is no longer the final round; its pairing differs: "
    return FideWarning(
        code=RECHECKED,
        level=Level.CONFIRM,
        message=head,
        consequences=(
            Message("for the players: round {round} is played as published", round=paired),
            Message("for the rating officer: the TRF file names the differences"),
        ),
        trf=trf + listed,
        round=paired,
    )


__all__ = ["RECHECKED", "final_round_findings", "final_round_warning"]
