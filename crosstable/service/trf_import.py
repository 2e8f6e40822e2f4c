"""A TRF import that re-checks what it imports, through FIDE's warning levels.

Before a tournament report becomes a tournament, every round it holds is re-checked
against its system's rules (:func:`crosstable.core.checker.check_event`, with what
the file declares: :func:`crosstable.formats.trf_declared.declared_of`): a round robin
against its table, a Swiss re-paired by the Dutch system with the file's initial
colour, accelerations and prohibited pairings; then the rank column against the
declared tie-break order. Each round that fails, and places that do not follow the
order, are a level-3 warning: nothing is stored until the arbiter confirms; once
confirmed, the import's history line names them and the TRF export writes each as a
``### Import @ Round n: …`` line.

What the reader had to assume or work around (a system named nowhere, a number of
rounds taken from the rounds played, a colour taken from the opponent's entry …) is
in the document's warnings, which every surface shows with the import; what the
check could not rebuild (a system whose pairings it does not make) is in
:attr:`ImportCheck.notes`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crosstable.core.checker import CheckReport, Finding, check_event
from crosstable.core.errors import InputError, RuleError
from crosstable.core.model import Colour, System
from crosstable.core.schedule.kinds import schedule_header
from crosstable.core.text import Message
from crosstable.core.tiebreaks.presets import buchholz_warnings
from crosstable.formats.trf_declared import declared_of, file_initial_colour
from crosstable.formats.trf_export import kept_records
from crosstable.formats.trf_model import TrfDocument
from crosstable.service.battle import battle_from_trf
from crosstable.service.teams.trf_plan import is_team_file, plan_team_import
from crosstable.service.teams.trf_rows import store_team_plan, team_kept_records
from crosstable.service.warning_levels import FideWarning, Level, settle

if TYPE_CHECKING:
    from crosstable.service.facade import Service
    from crosstable.service.frame import Change

#: the warning codes of a re-checked import
ROUND_CODE = "import-round"
PLACES_CODE = "import-places"
BUCHHOLZ_CODE = "import-buchholz"
#: how many findings of one round a warning names (the rest are counted)
SHOWN = 5

_METHODS = {
    "berger": Message("the FIDE Berger table"),
    "circle": Message("the circle method's table"),
    "crenshaw": Message("the Crenshaw-Berger table"),
    "dutch": Message("the FIDE Dutch system"),
}


@dataclass(frozen=True, slots=True)
class ImportCheck:
    """The re-check of an imported file: its report, the warnings it raises (level 3)
    and what the check assumed or could not do."""

    report: CheckReport
    warnings: tuple[FideWarning, ...]
    notes: tuple[str, ...]


def check_trf_import(doc: TrfDocument, source: str = "import") -> ImportCheck:
    """Every round of ``doc`` against its system's rules, and its places against the
    declared tie-breaks; an unknown tie-break code in 202/212 is refused, naming them."""
    try:
        report = check_event(doc.tournament, declared_of(doc))
    except RuleError as error:
        raise InputError(str(error), source=f"{source} (records 202/212)") from None
    drawn = battle_from_trf(doc.headers) is not None  # battle chess: colours are drawn
    warnings = []
    for verdict in report.rounds:
        findings = [f for f in verdict.findings if not (drawn and f.kind == "colours")]
        if findings:
            warnings.append(_round_warning(verdict.round, report.method, findings))
    ranks = report.ranks
    if ranks is not None and ranks.findings:
        warnings.append(_places_warning(ranks.after, ranks.tiebreaks, ranks.findings))
    advice = buchholz_import_warning(doc)  # importing is not choosing: kept, confirmed
    if advice is not None:
        warnings.append(advice)
    return ImportCheck(report, tuple(warnings), report.notes)


def buchholz_import_warning(doc: TrfDocument) -> FideWarning | None:
    """A level-3 warning when an imported round robin declares a Buchholz tie-break
    (a round robin's picker in FIDE mode does not offer one; the file keeps it)."""
    settings = doc.tournament.settings
    declared = tuple(settings.tiebreaks or doc.standings_tiebreaks or ())
    said = buchholz_warnings(settings.system, declared)
    if not said:
        return None
    order = ",".join(declared)
    return FideWarning(
        code=BUCHHOLZ_CODE,
        level=Level.CONFIRM,
        message=Message(
            "the imported round robin declares the tie-breaks {tiebreaks}: {advice}",
            tiebreaks=order,
            advice=said[0],
        ),
        trf=f"Import: Buchholz declared for a round robin ({order}), kept as imported",
        round=1,
    )


def _listed(findings: Sequence[Finding]) -> str:
    said = [f.message for f in findings[:SHOWN]]
    if len(findings) > SHOWN:
        said.append(f"and {len(findings) - SHOWN} more")
    return "; ".join(said)


def _round_warning(number: int, method: str, findings: Sequence[Finding]) -> FideWarning:
    listed = _listed(findings)
    rules = _METHODS.get(method) or Message("the rules of {method}", method=method)
    return FideWarning(
        code=ROUND_CODE,
        level=Level.CONFIRM,
        message=Message(
            "imported round {round} does not follow {rules}: {findings}",
            round=number,
            rules=rules,
            findings=listed,
        ),
        trf=f"Import: {rules} not followed: {listed}",
        round=number,
    )


def _places_warning(
    after: int, tiebreaks: Sequence[str], findings: Sequence[Finding]
) -> FideWarning:
    listed = _listed(findings)
    order = ",".join(tiebreaks)
    return FideWarning(
        code=PLACES_CODE,
        level=Level.CONFIRM,
        message=Message(
            "the imported places after round {round} do not follow the tie-break order "
            "{tiebreaks}: {findings}",
            round=after,
            tiebreaks=order,
            findings=listed,
        ),
        trf=f"Import: places not in the order {order}: {listed}",
        round=after,
    )


def import_notes(doc: TrfDocument) -> list[str]:
    """What the re-check had to assume, or could not check, because the file does not
    say it (TRF-06 and TRF-16 have no record for some of it): shown with the import."""
    if is_team_file(doc):  # what the team import read from the games, not the records
        try:
            return list(plan_team_import(doc).notes)
        except (InputError, RuleError):
            return []  # (the import refuses it, naming why)
    tournament = doc.tournament
    system = tournament.settings.system
    notes = []
    if system is System.SWISS_DUTCH and tournament.rounds and doc.initial_colour is None:
        colour = "black" if file_initial_colour(doc) is Colour.BLACK else "white"
        notes.append(
            f"no initial colour (152 or XXC): {colour} for player 1, as round 1 shows, "
            "is what the rounds are re-checked with"
        )
    if system not in (System.SWISS_DUTCH, System.ROUND_ROBIN):
        notes.append(
            f"the pairings of a {system.value} tournament are not re-checked "
            "(round robins and Dutch Swiss are)"
        )
    if battle_from_trf(doc.headers) is not None:
        notes.append(
            "battle chess: each game's colours were drawn, so only who met whom is "
            "re-checked against the table"
        )
    ranked = any(rank for rank in doc.file_ranks.values())
    if ranked and not (doc.standings_tiebreaks or tournament.settings.tiebreaks):
        notes.append(
            "the file declares no tie-break order (202 or 212): its places are not re-checked"
        )
    return notes


def fingerprint(doc: TrfDocument) -> str:
    """What a confirmation of this file's import is tied to: its tournament and records."""
    said = repr((doc.tournament, sorted(doc.headers.items()), kept_records(doc)))
    return hashlib.sha256(said.encode()).hexdigest()[:20]


def import_trf(
    service: Service,
    doc: TrfDocument,
    *,
    actor: str = "",
    source: str = "",
    confirm: str | None = None,
) -> Change:
    """Import ``doc`` as a new tournament once its re-check is clean or confirmed.

    A round that breaks its system's rules (or places out of the declared order) is a
    level-3 warning: :class:`~crosstable.service.warning_levels.ConfirmationNeeded`
    with the token to send back, and nothing stored. The confirmed warnings are kept
    with the import's event (its history line names them; the TRF export writes them
    as ``### Import @ Round n: …``)."""
    stated = schedule_header(c.text for c in doc.comments)  # ### Schedule: …
    if is_team_file(doc):  # a team tournament: its teams, matches and line-ups
        plan = plan_team_import(doc, source or "import")
        return service.exchange.import_tournament(  # (a team file is no battle chess)
            plan.tournament,
            actor=actor,
            source=source,
            headers=doc.headers | stated,
            records=team_kept_records(doc),
            rows=lambda tx: store_team_plan(tx, plan, doc.initial_colour),
        )
    checked = check_trf_import(doc, source or "import")
    confirmed = settle(0, 0, f"import {fingerprint(doc)}", checked.warnings, confirm)
    return service.import_tournament(
        doc.tournament,
        actor=actor,
        source=source,
        headers=doc.headers | stated,
        records=kept_records(doc),
        warnings=confirmed,
    )


__all__ = [
    "PLACES_CODE",
    "ROUND_CODE",
    "ImportCheck",
    "check_trf_import",
    "import_notes",
    "import_trf",
]
