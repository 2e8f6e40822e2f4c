"""A running or finished tournament's TRF as outside programs read it.

A stored tournament knows more than its rounds: who withdrew from which round, which
byes were asked for a round not paired yet, whether it is finished. :func:`shape_export`
turns that into the file a rating officer, a pairing program (bbpPairings, JaVaFo,
py4swiss) or an arbiter's checker reads without complaint:

* rounds that have not begun (a round robin's later rounds, paired before round 1) are
  left out; ``XXR``/142 still say how many rounds are planned;
* a Swiss round still being played is left out: the file is the one a pairing program
  gets to pair that round (its pre-assigned byes and absences kept), so an outside
  program re-pairs it and can be compared with the pairing published;
* after a complete round of a Swiss with rounds still to play, the next round carries
  the byes asked for it (H, Z, F) and ``0000 - Z`` for each player who withdrew
  (TRF's "known absence"), so outside programs do not pair them;
* a game without a known result in a round that is written (a postponed or adjourned
  game) is ``?`` in TRF-2026, with record 162's ``X``; TRF-16 has no code for it, so
  the file stops before that round;
* the rank column holds the final places after the finish, else the current ones.

Each thing left out or marked is said in a note for the user (the command line prints
them); the file itself says nothing of it, so export → import → export is identical.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from crosstable.core.model import Bye, ByeKind, GameResult, Outcome, Round, Tournament
from crosstable.core.standings import compute_standings
from crosstable.core.standings.begun import result_in
from crosstable.core.text import Message
from crosstable.formats.json_io import tournament_from_json, tournament_to_json
from crosstable.formats.trf_model import TrfDocument

_PRE_ASSIGNED = frozenset({ByeKind.HALF, ByeKind.ZERO, ByeKind.FULL})
_UNKNOWN = GameResult(Outcome.UNKNOWN, Outcome.UNKNOWN)


@dataclass(frozen=True)
class ExportFacts:
    """What the store knows beyond the rounds.

    ``withdrawn_from``: player → the first round they do not play; ``requested``: byes
    asked for rounds not paired yet; ``places``: the final places (after the finish).
    """

    planned: int | None = None
    finished: bool = False
    withdrawn_from: Mapping[int, int] = field(default_factory=dict)
    requested: Sequence[Bye] = ()
    places: Mapping[int, int | None] | None = None
    # battle chess draws each round's colours before it: its rounds to come are kept
    keep_rounds_to_come: bool = False


def shape_export(
    doc: TrfDocument, facts: ExportFacts, edition: str = "trf2026"
) -> tuple[TrfDocument, list[Message]]:
    """The document as outside programs read it, and what was left out or marked."""
    tournament = doc.tournament
    rounds = list(tournament.rounds)
    notes: list[Message] = []
    swiss = not tournament.settings.system.has_predetermined_pairings
    while not swiss and not facts.keep_rounds_to_come and rounds and not _begun(rounds[-1]):
        rounds.pop()  # not begun (a round robin's later rounds)
    if len(rounds) < len(tournament.rounds):
        notes.append(
            Message(
                "rounds {first}–{last} have not begun: left out of the file",
                first=len(rounds) + 1,
                last=len(tournament.rounds),
            )
            if len(tournament.rounds) - len(rounds) > 1
            else Message("round {round} has not begun: left out of the file", round=len(rounds) + 1)
        )
    if not swiss and not facts.keep_rounds_to_come and rounds:
        waiting = sum(1 for g in rounds[-1].games if _playing(g.result))
        if waiting:  # the round being played: its results so far are not a round's
            notes.append(
                Message(
                    "round {round} is being played (games without a result: {count}): "
                    "left out of the file",
                    round=rounds.pop().number,
                    count=waiting,
                )
            )
    if not swiss and len(rounds) < len(tournament.rounds) and tournament.settings.rounds is None:
        # XXR/142 say how many rounds there are
        settings = replace(tournament.settings, rounds=tournament.rounds[-1].number)
        tournament = replace(tournament, settings=settings)
    pending: Round | None = None
    if swiss and rounds and any(_playing(g.result) for g in rounds[-1].games):
        current = rounds.pop()
        waiting = sum(1 for g in current.games if _playing(g.result))
        notes.append(
            Message(
                (
                    "round {round} is being played (games without a result: {count}): the "
                    "file is the one a pairing program gets for round {round}, its pairings "
                    "left out"
                ),
                round=current.number,
                count=waiting,
            )
        )
        pending = _next_round(current.number, current.byes, facts, tournament)
    elif swiss and not facts.finished:
        number = rounds[-1].number + 1 if rounds else 1
        if facts.planned is None or number <= facts.planned:
            pending = _next_round(number, (), facts, tournament)
    if edition == "trf16" and not facts.keep_rounds_to_come:
        rounds = _before_unknown(rounds, notes)
    elif not facts.keep_rounds_to_come and any(
        not result_in(g.result) for rnd in rounds for g in rnd.games
    ):
        marked = sum(1 for rnd in rounds for g in rnd.games if not result_in(g.result))
        rounds = [_marked(rnd) for rnd in rounds]
        notes.append(
            Message(
                "games without a result yet, written as ? (result not known, record 162 X): "
                "{count}",
                count=marked,
            )
        )
    played = replace(tournament, rounds=tuple(rounds))
    written = rounds + ([pending] if pending is not None and pending.byes else [])
    last = max((r.number for r in written), default=0)
    shaped = replace(
        doc,
        tournament=replace(tournament, rounds=tuple(written)),
        file_points={p.start: played.score(p.start) for p in tournament.players},
        file_ranks=_ranks(played, facts),
        round_dates={r: d for r, d in doc.round_dates.items() if r <= last},
    )
    if edition != "trf16" and shaped.unknown_result_points is None and _has_unknown(written):
        shaped = replace(shaped, unknown_result_points=Fraction(1, 2))
    return shaped, notes


def _begun(rnd: Round) -> bool:
    """A round with a result in, or without games (nothing to wait for)."""
    return not rnd.games or any(result_in(g.result) for g in rnd.games)


def _next_round(
    number: int, kept: Sequence[Bye], facts: ExportFacts, tournament: Tournament
) -> Round:
    """Round ``number`` as a pairing program gets it: the byes asked for it and the
    withdrawn players' absences, nothing else."""
    byes = {b.player: b for b in kept if b.kind in _PRE_ASSIGNED}
    for bye in facts.requested:
        if bye.round == number and bye.kind in _PRE_ASSIGNED:
            byes.setdefault(bye.player, bye)
    for start, first in facts.withdrawn_from.items():
        if first <= number and any(p.start == start for p in tournament.players):
            byes.setdefault(start, Bye(number, start, ByeKind.ZERO))
    return Round(number, (), tuple(byes[start] for start in sorted(byes)))


def _before_unknown(rounds: list[Round], notes: list[Message]) -> list[Round]:
    """TRF-16 has no code for a game without a result: stop before its round."""
    for index, rnd in enumerate(rounds):
        if any(not result_in(g.result) for g in rnd.games):
            notes.append(
                Message(
                    (
                        "TRF-16 has no code for a game without a result: the file stops "
                        "before round {round} (TRF-2026 writes such a game as ?)"
                    ),
                    round=rnd.number,
                )
            )
            return rounds[:index]
    return rounds


def _playing(result: GameResult | None) -> bool:
    """A game still being played: no result at all (an adjourned one, ``*``, is over for
    the round: a pairing program counts it as a draw, the file writes it as ?)."""
    return result is None or result.white is Outcome.PENDING


def _marked(rnd: Round) -> Round:
    games = tuple(g if result_in(g.result) else replace(g, result=_UNKNOWN) for g in rnd.games)
    return replace(rnd, games=games)


def _has_unknown(rounds: Sequence[Round]) -> bool:
    return any(
        g.result is not None and g.result.white is Outcome.UNKNOWN
        for rnd in rounds
        for g in rnd.games
    )


def _ranks(played: Tournament, facts: ExportFacts) -> dict[int, int | None]:
    """Each player's place, 1…N: the final places after the finish, else the current
    standings'. Players who share a place follow the standings' order (starting number),
    as every place in the column belongs to one player; a player the standings leave
    unranked (excluded by the withdrawal rule) comes after everyone ranked."""
    starts = [p.start for p in played.players]
    if facts.places is not None and all(facts.places.get(start) for start in starts):
        order = sorted(starts, key=lambda start: (facts.places[start] or 0, start))  # type: ignore[index]
    else:
        standings = compute_standings(played, final=facts.finished)
        listed = [row.start for row in standings.rows if row.rank is not None]
        order = listed + [s for s in (row.start for row in standings.rows) if s not in listed]
        order += [start for start in starts if start not in order]
    return {start: place for place, start in enumerate(order, start=1)}


#: header tags the store makes from its own values (service/trf_header.py); the others
#: (092 as written, 192, 172, 182, 222, 352, 362, unknown ones) are kept as read
_STORED_TAGS = frozenset(
    {"012", "022", "032", "042", "052", "062", "072", "082", "102", "112", "122", "132", "142"}
)
#: what a TRF holds that the store's rows do not: kept with an imported tournament
_KEPT = (
    "initial_colour",
    "xxc_flags",
    "standings_tiebreaks",
    "unknown_result_points",
    "byes",
    "accelerations",
    "fictitious_points",
    "prohibited",
    "forbidden_pairs",
    "absent",
    "abnormal_points",
    "teams",
    "national_records",
    "other_records",
    "comments",
)


def kept_records(doc: TrfDocument) -> dict[str, Any]:
    """The records of an imported file that the store has no rows for, as JSON values
    (kept in the tournament's regulations and written back by :func:`with_kept_records`)."""
    extras = tournament_to_json(doc)["trf"]
    kept = {name: extras[name] for name in _KEPT if extras.get(name) not in (None, [], {})}
    headers = {tag: text for tag, text in doc.headers.items() if tag not in _STORED_TAGS}
    if headers:
        kept["headers"] = headers
    return kept


def with_kept_records(doc: TrfDocument, kept: object, source: str = "regulations") -> TrfDocument:
    """``doc`` with the records :func:`kept_records` kept: a record the store itself
    fills (a Swiss's initial colour, its forbidden pairs) stays as the store says when
    the file had none."""
    if not isinstance(kept, dict) or not kept:
        return doc
    data = tournament_to_json(doc)
    extras = data["trf"]
    for name, value in kept.items():
        if name == "headers" and isinstance(value, dict):
            extras["headers"] = {
                **extras["headers"],
                **{t: v for t, v in value.items() if t not in _STORED_TAGS},
            }
        elif name == "comments" and isinstance(value, list):
            # the file's own comments, then the store's (### lines of confirmed
            # warnings, the schedule) that the file did not already say
            extras[name] = value + [c for c in extras.get(name) or [] if c not in value]
        elif name in _KEPT:
            extras[name] = value
    return tournament_from_json(data, source, lenient=True)
