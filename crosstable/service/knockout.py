"""Knockout tournaments in the store: the bracket, its matches and tie-breaks (issue 6).

The core engine (:mod:`crosstable.core.pairing.knockout`) decides everything; the
store holds only what the arbiter sees — games and byes — and the engine's state
is *replayed* from them whenever it is needed. Nothing else is stored, so undo,
revert, export and import need nothing special.

How a knockout lives in the tables (docs/knockout.md, "In the tournament store"):

* The settings are the regulations' details: ``match_format`` (``1``, ``2``,
  ``2-at-once``…), ``tie_rule`` (``lower-rated``, ``lots``, ``playoff``,
  ``rapid:2,blitz:2,armageddon``…), ``bracket`` (``seeded``: 1 v N by starting
  number; ``random``: drawn) and ``lots_seed``, the seed of every lot (the random
  bracket, colours, a tie decided by lot). The start writes them back normalised,
  with the seed it drew, so they are recorded.
* Every game is an ordinary :class:`GameRow` with ``match`` = the bracket slot and
  ``match_game`` = the game's number within the match. **Store rounds are
  sittings**: game *n* of every match of knockout round *r* is in store round
  ``base(r) + n − 1``, where ``base(1) = 1`` and the next knockout round starts
  right after the longest match of the round before. A player therefore plays at
  most once per store round — what the core :class:`~crosstable.core.model.Tournament`,
  the live standings and TRF require. With one-game matches store round = knockout
  round. Boards are numbered 1… in bracket order within each store round.
* A first-round bye (a top seed without an opponent) is a :class:`ByeRow` of kind
  ``"U"`` in store round 1.
* The service sets up every game that is certain to be played (both games of a
  two-game match at the start); tie-break games and the next round's matches are
  added by :meth:`KnockoutPlay.pair_next_round` ("continue the knockout").
"""

from __future__ import annotations

import random as _random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.model import Player, Reason, System
from crosstable.core.pairing.knockout import (
    Bracket,
    BracketOrder,
    Knockout,
    MatchFormat,
    MatchGame,
    MatchRules,
    TieRule,
    parse_round_formats,
    random_bracket,
    round_formats_label,
    round_name,
    seeded_bracket,
)
from crosstable.service.base import Change, Done, ServiceBase
from crosstable.service.errors import NotFoundError
from crosstable.service.history import effective
from crosstable.service.loading import Loaded, player_of, result_label, result_of
from crosstable.service.unit import Tx
from crosstable.store.models import ByeRow, EntryRow, EventRow, GameRow, RoundRow, TournamentRow

#: the event kind of :meth:`KnockoutPlay.pair_next_round`
KIND = "knockout"
#: the regulations' details a knockout reads (and the start writes back, normalised)
DETAILS = ("match_format", "tie_rule", "bracket", "lots_seed", "round_formats", "third_place")


# -- settings --------------------------------------------------------------------------


def knockout_rules(details: Mapping[str, Any], *, seed: int | None = None) -> MatchRules:
    """The match rules from the regulations' details (clear errors naming the setting)."""
    text = str(details.get("match_format") or "1")
    try:
        fmt = MatchFormat.parse(text)
    except RuleError as error:
        raise RuleError(f"regulations, match_format {text!r}: {error}") from None
    rule = str(details.get("tie_rule") or "lower-rated")
    try:
        tie = TieRule.parse(rule)
    except RuleError as error:
        raise RuleError(f"regulations, tie_rule {rule!r}: {error}") from None
    rounds = str(details.get("round_formats") or "")
    try:
        formats = parse_round_formats(rounds)
    except RuleError as error:
        raise RuleError(f"regulations, round_formats {rounds!r}: {error}") from None
    third = str(details.get("third_place") or "no").strip().lower()
    if third not in _YES_NO:
        raise RuleError(f"regulations, third_place {third!r}: use yes or no")
    if seed is None:
        seed = recorded_seed(details)
        if seed is None:
            raise RuleError("regulations: lots_seed is missing (the start records it)")
    return MatchRules(fmt, tie, seed, ahead=True, round_formats=formats, third_place=_YES_NO[third])


_YES_NO = {"yes": True, "true": True, "1": True, "no": False, "false": False, "0": False}


def recorded_seed(details: Mapping[str, Any]) -> int | None:
    """``lots_seed`` of the regulations (None when not set)."""
    text = str(details.get("lots_seed") or "").strip()
    if not text:
        return None
    digits = text.removeprefix("-")
    if not digits.isdigit():
        raise RuleError(f"regulations, lots_seed {text!r}: not a whole number")
    return int(text)


def bracket_order(details: Mapping[str, Any]) -> BracketOrder:
    text = str(details.get("bracket") or "seeded").strip().lower()
    if text not in ("seeded", "random"):
        raise RuleError(f"regulations, bracket {text!r}: use seeded or random")
    return BracketOrder(text)


def knockout_bracket(players: tuple[Player, ...], order: BracketOrder, seed: int) -> Bracket:
    """Seeded: 1 v N by starting number (the rating order after lots drawn by rating);
    random: the order drawn from ``seed`` (1st v 2nd, 3rd v 4th…)."""
    if order is BracketOrder.RANDOM:
        return random_bracket(players, seed)
    return seeded_bracket(players, seeding=[p.start for p in players])


# -- the state replayed from the store -------------------------------------------------


class KnockoutMismatchError(RuleError):
    """The stored games no longer agree with what the bracket's rules give."""


@dataclass(frozen=True, slots=True)
class Due:
    """A game the engine has set up that the store does not hold yet."""

    slot: int
    game: MatchGame
    round: int  # the store round (sitting) it belongs in


@dataclass(slots=True)
class KnockoutState:
    """A knockout replayed from the store: the engine's value and how the rows map to it."""

    knockout: Knockout
    #: (slot, game number) → the stored game
    stored: dict[tuple[int, int], GameRow]
    #: knockout round → its first store round
    base: dict[int, int]
    #: games set up by the engine, not stored yet (tie-breaks to add)
    due: list[Due] = field(default_factory=list)
    #: stored games without a result that are no longer part of their match
    surplus: list[GameRow] = field(default_factory=list)
    #: why the replay stopped early (a result changed after the next round was paired…)
    problem: str | None = None
    #: starting number → entry
    entries: dict[int, EntryRow] = field(default_factory=dict)
    tournament_id: int = 0
    #: replayed to check a correction before it is made (the messages say so)
    correcting: bool = False

    @property
    def cause(self) -> str:
        if self.correcting:
            return "this correction changes who went on"
        return "a result was changed after the pairing"

    def name(self, start: int | None) -> str:
        if start is None:
            return "?"
        entry = self.entries.get(start)
        return f"{start} {entry.name}" if entry is not None else str(start)

    def round_label(self, rnd: int) -> str:
        return round_label(self.knockout.bracket, rnd)

    def checked(self) -> KnockoutState:
        if self.problem is not None:
            raise KnockoutMismatchError(self.problem)
        return self


def round_label(bracket: Bracket, rnd: int) -> str:
    """``the quarter-final``, ``the final``, ``round 1 (round of 32)``."""
    name = round_name(bracket.size >> (rnd - 1))
    return f"round {rnd} ({name})" if name.startswith("round of") else f"the {name}"


def replay(session: Session, loaded: Loaded, *, correcting: bool = False) -> KnockoutState:
    """The engine's state from the stored games, results and byes (never raises for a
    disagreement: it stops there and says so in ``problem``)."""
    row = loaded.row
    _check_knockout(row)
    if row.status == "registration":
        raise RuleError("the knockout has not started: draw lots and start it first")
    details = row.regulations or {}
    rules = knockout_rules(details)
    ordered = sorted(loaded.entries, key=lambda e: e.start or 0)
    players = tuple(player_of(entry) for entry in ordered)
    bracket = knockout_bracket(players, bracket_order(details), rules.seed)
    entries = {entry.start: entry for entry in ordered if entry.start is not None}
    state = KnockoutState(
        Knockout.start(bracket, rules),
        {},
        {1: 1},
        entries=entries,
        tournament_id=row.id,
        correcting=correcting,
    )
    try:
        _replay(session, loaded, state)
    except KnockoutMismatchError as problem:
        state.problem = str(problem)
    return state


def _check_knockout(row: TournamentRow) -> None:
    if row.system != System.KNOCKOUT.value:
        raise RuleError(f"tournament {row.id} is a {row.system} tournament, not a knockout")


def _replay(session: Session, loaded: Loaded, state: KnockoutState) -> None:
    ko = state.knockout
    bracket = ko.bracket
    start_of = {entry.number: entry.start for entry in loaded.entries}
    for game in loaded.games:
        where = f"round {game.round} board {game.board}"
        if game.match is None or game.match_game is None:
            raise KnockoutMismatchError(f"{where} is not a game of the bracket (no match slot)")
        last = ko.third_place_slot if ko.rules.third_place else bracket.size - 1
        if not 1 <= game.match <= last:
            raise KnockoutMismatchError(f"{where}: there is no slot {game.match} in the bracket")
        state.stored[(game.match, game.match_game)] = game
    byes = sorted(start_of[b.player] or 0 for b in loaded.byes if b.round == 1)
    if byes != sorted(bracket.byes) or any(b.round != 1 for b in loaded.byes):
        raise KnockoutMismatchError(
            "the byes stored do not match the bracket's "
            f"({_starts(byes)} stored, {_starts(bracket.byes)} in the bracket): "
            "were the bracket settings or the players changed after the start?"
        )
    by_slot: dict[int, dict[int, GameRow]] = {}
    for (slot, number), game in state.stored.items():
        by_slot.setdefault(slot, {})[number] = game
    rnd = 1
    while True:
        matches = [m for m in ko.matches if m.round == rnd]
        base = state.base[rnd]
        for m in matches:
            stored = by_slot.get(m.slot, {})
            for number in sorted(stored):
                game = stored[number]
                players = {start_of[game.white], start_of[game.black]}
                if players != set(m.players):
                    raise KnockoutMismatchError(_changed_players(session, state, m.slot, rnd, game))
            for number in sorted(stored):
                game = stored[number]
                if game.result is None:
                    continue
                try:
                    ko = ko.record(m.slot, number, result_of(game.result))
                except RuleError:
                    raise KnockoutMismatchError(
                        _unexpected_result(state, ko, m.slot, game)
                    ) from None
        for m in matches:
            status = ko.status(m.slot)
            engine = {g.number: g for g in status.games}
            for number, game in sorted(by_slot.get(m.slot, {}).items()):
                expected = engine.get(number)
                if expected is None:
                    state.surplus.append(game)  # no result: record() refused the others
                    continue
                white, black = start_of[game.white], start_of[game.black]
                if (white, black) != (expected.white, expected.black):
                    raise KnockoutMismatchError(
                        f"round {game.round} board {game.board} (slot {m.slot}, game {number}) "
                        f"is stored as {state.name(white)} – {state.name(black)}, but the lot "
                        f"gives White to {state.name(expected.white)}: were the knockout "
                        "settings (lots_seed, match_format, tie_rule) changed after the start?"
                    )
                if game.round != base + number - 1:
                    raise KnockoutMismatchError(
                        f"round {game.round} board {game.board} (slot {m.slot}, game {number}) "
                        f"belongs in round {base + number - 1}: the games of "
                        f"{state.round_label(rnd)} were changed after it was paired"
                    )
            for waiting in status.pending:
                if (m.slot, waiting.number) not in state.stored:
                    state.due.append(Due(m.slot, waiting, base + waiting.number - 1))
        state.knockout = ko
        if rnd == bracket.rounds:
            break
        following = [s.number for s in bracket.round_slots(rnd + 1)]
        if not any(s in by_slot for s in following):
            break
        open_matches = ko.undecided(rnd)
        if open_matches or state.due or state.surplus:
            first = open_matches[0] if open_matches else None
            what = (
                f"slot {first.slot} ({state.name(first.top)} v {state.name(first.bottom)}) "
                "has no winner"
                if first is not None
                else "tie-break games are due or games are left over"
            )
            raise KnockoutMismatchError(
                f"{state.round_label(rnd + 1)} is paired, but in {state.round_label(rnd)} {what} "
                f"now: {state.cause}. {_undo_hint(session, state, rnd)}"
            )
        longest = max(len(ko.status(m.slot).games) for m in matches)
        state.base[rnd + 1] = base + longest
        ko = ko.pair_next_round()
        state.knockout = ko
        rnd += 1
    reached = {m.slot for m in ko.matches}
    stray = sorted(slot for slot in by_slot if slot not in reached)
    if stray:
        game = min(by_slot[stray[0]].values(), key=lambda g: g.match_game or 0)
        raise KnockoutMismatchError(
            f"round {game.round} board {game.board} is a game of slot {stray[0]}, "
            "which is not paired yet: the games were changed behind the knockout's back"
        )


def _starts(values: tuple[int, ...] | list[int]) -> str:
    return ", ".join(str(v) for v in values) or "none"


def _changed_players(
    session: Session, state: KnockoutState, slot: int, rnd: int, game: GameRow
) -> str:
    ko = state.knockout
    match = ko.match(slot)
    where = f"round {game.round} board {game.board}"
    start_of = {e.number: e.start for e in state.entries.values()}
    stored = f"{state.name(start_of.get(game.white))} – {state.name(start_of.get(game.black))}"
    if rnd == 1:
        return (
            f"{where} (slot {slot}) is stored as {stored}, but the bracket pairs "
            f"{state.name(match.top)} v {state.name(match.bottom)}: were the bracket settings "
            "or the starting numbers changed after the start?"
        )
    return (
        f"{state.round_label(rnd)} was paired with {stored} at {where} (slot {slot}), but the "
        f"results of {state.round_label(rnd - 1)} now send {state.name(match.top)} and "
        f"{state.name(match.bottom)} there: "
        + (
            state.cause
            if state.correcting
            else "a result (or a rating that a tie rule used) was changed after the pairing"
        )
        + f". {_undo_hint(session, state, rnd - 1)}"
    )


def _unexpected_result(state: KnockoutState, ko: Knockout, slot: int, game: GameRow) -> str:
    where = f"round {game.round} board {game.board} (slot {slot}, game {game.match_game})"
    status = ko.status(slot)
    if state.correcting:
        return (
            f"this correction would leave {where} with a result ({result_label(game.result)}) "
            "outside its match (the match would end before it): clear that result first"
        )
    if status.decided:
        return (
            f"{where} has a result ({result_label(game.result)}), but the match was decided "
            f"before it ({state.name(status.winner)} goes on): a result before it was "
            "corrected. Clear this result (correct it to no result) or undo the correction."
        )
    return (
        f"{where} has a result ({result_label(game.result)}), but the game is not part of "
        "the match as its other results stand: a result before it was corrected. Clear this "
        "result (correct it to no result) or undo the correction."
    )


def _undo_hint(session: Session, state: KnockoutState, rnd: int) -> str:
    """How to take back the pairing of round ``rnd + 1``."""
    label = state.round_label(rnd + 1)
    seq = pairing_event(session, state.tournament_id, rnd + 1)
    if state.correcting:
        back = f"#{seq - 1}" if seq is not None else "the event"
        return (
            f"Undo back to {back} first, just before {label} was paired "
            f"(service.revert_to{'' if seq is None else f' / `crosstable undo --to {seq - 1}`'}; "
            "nothing leaves the history), then make this correction and continue the knockout."
        )
    if seq is None:
        return f"Correct the result back, or undo back to before {label} was paired."
    return (
        f"Correct the result back, or undo back to #{seq - 1}, just before {label} was "
        f"paired (service.revert_to / `crosstable undo --to {seq - 1}`; the results entered "
        "since are taken back too, nothing leaves the history), then correct the result "
        "and continue the knockout."
    )


def pairing_event(session: Session, tournament_id: int, rnd: int) -> int | None:
    """The event (still in force) that paired knockout round ``rnd``."""
    events = list(
        session.scalars(
            select(EventRow).where(EventRow.tournament_id == tournament_id).order_by(EventRow.seq)
        )
    )
    live = set(effective(events))
    found = [
        e.seq
        for e in events
        if e.seq in live and e.kind == KIND and e.data.get("paired_round") == rnd
    ]
    return found[-1] if found else None


# -- starting --------------------------------------------------------------------------


def start_knockout(tx: Tx, loaded: Loaded, *, random: _random.Random | None = None) -> Done:
    """Fix the bracket and the settings (written back into the regulations), insert
    round 1's games and byes, status → running. ``random`` draws ``lots_seed`` when the
    regulations do not give one (the service's injected source)."""
    row = tx.tournament
    _check_knockout(row)
    details = dict(row.regulations or {})
    seed = recorded_seed(details)
    if seed is None:
        seed = (random or _random.Random()).randrange(1, 10**9)
    rules = knockout_rules(details, seed=seed)
    order = bracket_order(details)
    ordered = sorted(loaded.entries, key=lambda e: e.start or 0)
    players = tuple(player_of(entry) for entry in ordered)
    bracket = knockout_bracket(players, order, seed)
    ko = Knockout.start(bracket, rules)
    details.update(
        match_format=rules.format.label(),
        tie_rule=rules.tie_rule.label(),
        bracket=order.value,
        lots_seed=str(seed),
        round_formats=round_formats_label(rules.round_formats),
        third_place="yes" if rules.third_place else "no",
    )
    tx.update(row, regulations=details)
    by_start = {entry.start: entry for entry in ordered if entry.start is not None}
    tx.insert(RoundRow(number=1, cycle=1))
    tx.flush()
    due = [Due(slot, game, game.number) for slot, game in ko.pending_games()]
    inserted = _insert_games(tx, due, by_start)
    for start in bracket.byes:
        tx.insert(ByeRow(round=1, player=by_start[start].number, kind="U"))
    tx.flush()
    tx.update(row, status="running")
    how = "seeded" if order is BracketOrder.SEEDED else f"random order, seed {seed}"
    byes = ", ".join(f"{s} {by_start[s].name}" for s in bracket.byes)
    summary = (
        f"knockout started: {len(players)} players, {bracket.rounds} rounds ({how}; "
        f"match {rules.format.label()}"
        + "".join(f", {name} {fmt.label()}" for name, fmt in rules.round_formats)
        + (", a match for third place" if rules.third_place else "")
        + f", tie rule {rules.tie_rule.label()}); "
        f"{round_label(bracket, 1)}: {len(ko.matches)} match(es)"
        + (f", byes: {byes}" if byes else "")
    )
    return Done(
        summary,
        {
            "rounds": bracket.rounds,
            "paired_round": 1,
            "lots_seed": seed,
            "games": inserted,
            "byes": list(bracket.byes),
        },
    )


def _insert_games(tx: Tx, due: list[Due], by_start: dict[int, EntryRow]) -> list[dict[str, Any]]:
    """Insert ``due`` games (rounds as needed; boards after the last of each round, in
    bracket order). A game of a player who withdrew before it is a forfeit at once."""
    tid = tx.tournament_id
    rounds = set(tx.session.scalars(select(RoundRow.number).where(RoundRow.tournament_id == tid)))
    boards: dict[int, int] = {}
    for number, board in tx.session.execute(
        select(GameRow.round, GameRow.board).where(GameRow.tournament_id == tid)
    ):
        boards[number] = max(boards.get(number, 0), board)
    new_rounds = sorted({d.round for d in due} - rounds)
    for number in new_rounds:
        tx.insert(RoundRow(number=number, cycle=1))
    if new_rounds:
        tx.flush()
    inserted: list[dict[str, Any]] = []
    for d in sorted(due, key=lambda d: (d.round, d.slot, d.game.number)):
        board = boards.get(d.round, 0) + 1
        boards[d.round] = board
        white, black = by_start[d.game.white], by_start[d.game.black]
        result = _forfeit(white, black, d.round)
        tx.insert(
            GameRow(
                round=d.round,
                board=board,
                white=white.number,
                black=black.number,
                result=result,
                reason=Reason.NO_SHOW.value if result else Reason.NORMAL.value,
                version=1,
                match=d.slot,
                match_game=d.game.number,
            )
        )
        inserted.append(
            {
                "round": d.round,
                "board": board,
                "slot": d.slot,
                "game": d.game.number,
                "kind": d.game.kind.value,
                "white": d.game.white,
                "black": d.game.black,
                "result": result_label(result) if result else None,
            }
        )
    tx.flush()
    return inserted


def _forfeit(white: EntryRow, black: EntryRow, rnd: int) -> str | None:
    """The forfeit result of a game whose player withdrew before ``rnd`` (both: none)."""
    gone_white = white.withdrawn_from is not None and white.withdrawn_from <= rnd
    gone_black = black.withdrawn_from is not None and black.withdrawn_from <= rnd
    if gone_white and not gone_black:
        return "-+"
    if gone_black and not gone_white:
        return "+-"
    return None


# -- hooks for Play.correct_result and Play.finish -------------------------------------


def check_knockout_correction(tx: Tx) -> None:
    """Refuse a correction (already applied in ``tx``) that would change who went on
    from a round whose next round is paired, or leave a result outside its match.

    Meant for :meth:`crosstable.service.play.Play.correct_result`: call it right after
    the game's update, for a knockout; the RuleError rolls the correction back. A
    correction inside the current round (say, one that makes tie-break games
    unnecessary) passes: :meth:`KnockoutPlay.pair_next_round` removes those games.
    """
    row = tx.tournament
    if row.system != System.KNOCKOUT.value or row.status == "registration":
        return
    tx.flush()
    state = replay(tx.session, Loaded(tx.session, row), correcting=True)
    if state.problem is not None:
        raise RuleError(f"correction refused: {state.problem}")


def withdraw_waiting(tx: Tx, loaded: Loaded, entry: EntryRow) -> Done:
    """A knockout player with no game to play right now (waiting for the next round,
    or for a match's next games) withdraws: every game the bracket gives them later is
    inserted as a forfeit loss when it is paired (for ``Play.withdraw``)."""
    state = replay(tx.session, loaded).checked()
    ko = state.knockout
    start = loaded.start_of(entry.number)
    if ko.finished:
        raise RuleError(
            f"player {start} {entry.name} has no game left to play: the knockout is over"
        )
    lost = ko.eliminated_in(start)
    if lost is not None:
        raise RuleError(
            f"player {start} {entry.name} is out of the knockout already "
            f"(lost in {state.round_label(lost)}): there is nothing to withdraw from"
        )
    first = max((r.number for r in loaded.rounds), default=0) + 1
    tx.update(entry, withdrawn_from=first)
    return Done(
        f"player {start} {entry.name} withdrew: their next game is a forfeit",
        {"start": start, "from_round": first, "forfeits": 0},
    )


# -- finishing -------------------------------------------------------------------------


def knockout_places(tx: Tx, loaded: Loaded) -> dict[int, int]:
    """Final places from the bracket, by starting number (for ``Play.finish``).

    The champion is 1st, the loser of the final 2nd; players who lost in the same
    round share the places of that round and each gets the best of them: both losing
    semi-finalists 3 (places 3–4), the quarter-final losers 5 (5–8), and so on; after
    a match for third place its winner is 3rd and its loser 4th. Refused while the
    final (or the match for third place) is undecided, while games no longer needed
    are stored, or when the games disagree with the bracket.
    """
    state = replay(tx.session, loaded).checked()
    ko = state.knockout
    if not ko.finished:
        raise RuleError(f"the knockout is not over: {_still_to_play(state)}")
    if state.surplus:
        raise RuleError(
            f"{_games_text(state.surplus)} no longer needed: continue the knockout to remove "
            "them, then finish"
        )
    return {start: int(place.split("-")[0]) for start, place in ko.placings().items() if place}


# -- use cases ---------------------------------------------------------------------------


class KnockoutPlay(ServiceBase):
    """Use cases of a knockout: pair the next games and rounds of the bracket."""

    def pair_next_round(self, tournament_id: int, *, actor: str = "") -> Change:
        """Continue the knockout: add the tie-break games now due, or — when every match
        of the round is decided (R-KO-2) — the next round's matches."""

        def body(tx: Tx) -> Done:
            row = tx.tournament
            _check_knockout(row)
            if row.status == "finished":
                raise RuleError("the knockout is finished; undo the finish first")
            loaded = Loaded(tx.session, row)
            state = replay(tx.session, loaded).checked()
            removed = _remove(tx, state)
            if state.due:
                return _add_due(tx, state, removed)
            ko = state.knockout
            label = state.round_label(ko.round)
            if ko.finished:
                assert ko.champion is not None
                over = f"the knockout is over: {state.name(ko.champion)} won; finish it"
                if removed:
                    return Done(f"{removed}; {over}", {"paired_round": None})
                raise RuleError(over)
            if ko.undecided():
                waiting = f"{label} is not over: {_still_to_play(state)}"
                if removed:
                    return Done(f"{removed}; {waiting}", {"paired_round": None})
                raise RuleError(waiting)
            return _pair_round(tx, state, removed)

        return self._change(tournament_id, KIND, body, actor=actor)

    def knockout_state(self, tournament_id: int) -> Knockout:
        """The engine's state, replayed from the stored games (RuleError when they
        disagree with the bracket, saying what to do)."""
        with self.store.reading() as session:
            return _read(session, tournament_id).checked().knockout

    def bracket_view(self, tournament_id: int) -> dict[str, Any]:
        """The bracket for screens and the command line (JSON-able; docs/knockout.md)."""
        with self.store.reading() as session:
            state = _read(session, tournament_id)
            row = session.get(TournamentRow, tournament_id)
            assert row is not None
            return _view(row, state)


def _read(session: Session, tournament_id: int) -> KnockoutState:
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        raise NotFoundError(f"there is no tournament {tournament_id} in this database")
    return replay(session, Loaded(session, row))


def _remove(tx: Tx, state: KnockoutState) -> str:
    """Delete the stored games no longer part of their match (no result); what was done."""
    if not state.surplus:
        return ""
    text = _games_text(state.surplus)
    for game in state.surplus:
        tx.delete(game)
    return f"{text} no longer needed, removed"


def _add_due(tx: Tx, state: KnockoutState, removed: str) -> Done:
    by_start: dict[int, EntryRow] = state.entries
    inserted = _insert_games(tx, state.due, by_start)
    ko = state.knockout
    slots = sorted({d.slot for d in state.due})
    listed = "; ".join(
        f"slot {slot} ({state.name(ko.match(slot).top)} v {state.name(ko.match(slot).bottom)}): "
        + ", ".join(
            f"{d.game.kind.value} game {d.game.number} at round {g['round']} board {g['board']}"
            for d, g in zip(state.due, _sorted_like(state.due, inserted), strict=True)
            if d.slot == slot
        )
        for slot in slots
    )
    summary = f"{state.round_label(ko.round)}: games added — {listed}"
    if removed:
        summary = f"{removed}; {summary}"
    return Done(summary, {"paired_round": None, "knockout_round": ko.round, "games": inserted})


def _sorted_like(due: list[Due], inserted: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``inserted`` (sorted by round, slot, game) in the order of ``due``."""
    by_key = {(g["slot"], g["game"]): g for g in inserted}
    return [by_key[(d.slot, d.game.number)] for d in due]


def _pair_round(tx: Tx, state: KnockoutState, removed: str) -> Done:
    ko = state.knockout
    rnd = ko.round
    longest = max(len(ko.status(m.slot).games) for m in ko.matches if m.round == rnd)
    base = state.base[rnd] + longest
    paired = ko.pair_next_round()
    due = [Due(slot, game, base + game.number - 1) for slot, game in paired.pending_games()]
    inserted = _insert_games(tx, due, state.entries)
    label = round_label(ko.bracket, rnd + 1)
    listed = ", ".join(
        f"{state.name(m.top)} v {state.name(m.bottom)}"
        for m in paired.matches
        if m.round == rnd + 1
    )
    first = min(d.round for d in due)
    summary = f"{label} paired (from round {first}): {listed}"
    if removed:
        summary = f"{removed}; {summary}"
    return Done(summary, {"paired_round": rnd + 1, "knockout_round": rnd + 1, "games": inserted})


def _still_to_play(state: KnockoutState) -> str:
    """``enter the results of round 2 boards 1 and 3 first`` (or the tie-breaks to add)."""
    ko = state.knockout
    waiting = [
        state.stored[(m.slot, g.number)]
        for m in ko.undecided()
        for g in ko.status(m.slot).pending
        if (m.slot, g.number) in state.stored
    ]
    if waiting:
        return f"enter the results of {_games_text(waiting)} first"
    if state.due:
        return "tie-break games are due: continue the knockout to add them"
    return "no game is waiting"  # pragma: no cover - an undecided match has a game


def _games_text(games: list[GameRow]) -> str:
    """``round 2 boards 1 and 3, round 3 board 2``."""
    by_round: dict[int, list[int]] = {}
    for game in sorted(games, key=lambda g: (g.round, g.board)):
        by_round.setdefault(game.round, []).append(game.board)
    parts = []
    for rnd, boards in by_round.items():
        numbers = [str(b) for b in boards]
        joined = (
            numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]
        )
        parts.append(f"round {rnd} board{'s' if len(numbers) > 1 else ''} {joined}")
    return ", ".join(parts)


# -- the view --------------------------------------------------------------------------


def _view(row: TournamentRow, state: KnockoutState) -> dict[str, Any]:
    ko = state.knockout
    bracket = ko.bracket
    rules = ko.rules

    def person(start: int | None) -> dict[str, Any] | None:
        if start is None:
            return None
        entry = state.entries.get(start)
        if entry is None:
            return {"start": start, "name": "", "rating": None}
        return {"start": start, "name": entry.name, "rating": entry.rating}

    rounds = []
    for rnd in range(1, bracket.rounds + 1):
        matches = []
        for s in bracket.round_slots(rnd):
            if s.is_bye:
                continue
            item: dict[str, Any] = {"slot": s.number, "next": s.next}
            if s.feeders is not None:
                item["from"] = list(s.feeders)
                known = [ko.winner_of(f) for f in s.feeders]
            else:
                known = list(s.players or (None, None))
            matches.append(_match_item(state, item, known, person))
        if rnd == bracket.rounds and rules.third_place and rnd >= 2:
            semis = bracket.slot(bracket.size - 1).feeders
            assert semis is not None
            if not any(bracket.slot(n).is_bye for n in semis):
                item = {"slot": ko.third_place_slot, "next": None, "from": list(semis)}
                item["third_place"] = True
                known = [ko.loser_of(n) for n in semis]
                matches.append(_match_item(state, item, known, person))
        byes = (
            [
                {**(person(s.bye_player) or {}), "slot": s.number}
                for s in bracket.round_slots(1)
                if s.bye_player is not None
            ]
            if rnd == 1
            else []
        )
        rounds.append(
            {
                "round": rnd,
                "name": round_name(bracket.size >> (rnd - 1)),
                "first_store_round": state.base.get(rnd),
                "matches": matches,
                "byes": byes,
            }
        )
    placings = ko.placings()
    return {
        "tournament": row.id,
        "name": row.name,
        "status": row.status,
        "players": len(bracket.players),
        "size": bracket.size,
        "order": bracket.order.value,
        "lots_seed": rules.seed,
        "format": rules.format.label(),
        "tie_rule": rules.tie_rule.label(),
        "round": ko.round,
        "rounds": rounds,
        "champion": person(ko.champion),
        "third_place": person(ko.third_place),
        "third_place_match": rules.third_place,
        "round_formats": round_formats_label(rules.round_formats),
        "placings": [
            {**(person(start) or {}), "place": placings[start]}
            for start in sorted(placings, key=lambda s: (_place_key(placings[s]), s))
        ],
        "due": [
            {"slot": d.slot, "game": d.game.number, "kind": d.game.kind.value, "round": d.round}
            for d in state.due
        ],
        "surplus": [{"round": g.round, "board": g.board} for g in state.surplus],
        "problem": state.problem,
    }


def _match_item(
    state: KnockoutState,
    item: dict[str, Any],
    known: list[int | None],
    person: Any,
) -> dict[str, Any]:
    """One match of the view: players, games (where stored), scores, who goes on."""
    ko = state.knockout
    slot = item["slot"]
    paired = next((m for m in ko.matches if m.slot == slot), None)
    if paired is None:
        item.update(
            players=[person(p) for p in known],
            format=None,
            games=[],
            score=None,
            winner=None,
            decided_by=None,
        )
        return item
    status = paired.status(ko.rules)
    games = []
    for g in status.games:
        stored = state.stored.get((slot, g.number))
        games.append(
            {
                "game": g.number,
                "kind": g.kind.value,
                "round": stored.round if stored is not None else None,
                "board": stored.board if stored is not None else None,
                "white": g.white,
                "black": g.black,
                "result": g.result.label() if g.result is not None else None,
            }
        )
    item.update(
        players=[person(paired.top), person(paired.bottom)],
        format=(paired.format or ko.rules.format).label(),
        games=games,
        score=[_number(x) for x in status.score],
        stage_scores=[[_number(a), _number(b)] for a, b in status.stage_scores],
        winner=status.winner,
        decided_by=status.decided_by or None,
    )
    return item


def _place_key(place: str) -> int:
    return int(place.split("-")[0]) if place else 10**9


def _number(value: Any) -> int | float:
    return int(value.numerator) if value.denominator == 1 else float(value)


__all__ = [
    "DETAILS",
    "KIND",
    "Due",
    "KnockoutMismatchError",
    "KnockoutPlay",
    "KnockoutState",
    "check_knockout_correction",
    "knockout_bracket",
    "knockout_places",
    "knockout_rules",
    "replay",
    "start_knockout",
]
