"""A knockout replayed from the store: the engine's state and how the stored rows map to it.

Nothing but games and byes is stored (see :mod:`crosstable.service.knockout`); the engine's
state is replayed from them whenever it is needed. A disagreement (a result changed after
the next round was paired…) stops the replay and says what to do.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.model import System
from crosstable.core.pairing.knockout import (
    Bracket,
    Knockout,
    MatchGame,
    round_name,
)
from crosstable.core.text import Message
from crosstable.service.history import effective
from crosstable.service.knockout.settings import (
    KIND,
    knockout_bracket,
    knockout_settings,
)
from crosstable.service.loading import Loaded, player_of, result_label, result_of
from crosstable.store.models import EntryRow, EventRow, GameRow, TournamentRow

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
    if name.startswith("round of"):
        return Message(
            "round {round} (round of {players})", round=rnd, players=bracket.size >> (rnd - 1)
        )
    return f"the {name}"  # (the final, the semi-final…: a text of the catalogue)


def replay(session: Session, loaded: Loaded, *, correcting: bool = False) -> KnockoutState:
    """The engine's state from the stored games, results and byes (never raises for a
    disagreement: it stops there and says so in ``problem``)."""
    row = loaded.row
    check_knockout(row)
    if row.status == "registration":
        raise RuleError("the knockout has not started: draw lots and start it first")
    settings = knockout_settings(row.regulations)
    rules = settings.rules()
    ordered = sorted(loaded.entries, key=lambda e: e.start or 0)
    players = tuple(player_of(entry) for entry in ordered)
    bracket = knockout_bracket(players, settings.bracket, rules.seed)
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
        state.problem = problem.text  # (the message, its template kept)
    return state


def check_knockout(row: TournamentRow) -> None:
    if row.system != System.KNOCKOUT.value:
        raise RuleError(
            "tournament {tournament} is a {system} tournament, not a knockout",
            tournament=row.id,
            system=row.system,
        )
    if str((row.regulations or {}).get("bughouse") or "").strip():
        raise RuleError(
            "tournament {tournament} is a knockout of Bughouse pairs: continue it with "
            "crosstable bughouse pair (or its page's button)",
            tournament=row.id,
        )


def _replay(session: Session, loaded: Loaded, state: KnockoutState) -> None:
    ko = state.knockout
    bracket = ko.bracket
    start_of = {entry.number: entry.start for entry in loaded.entries}
    for game in loaded.games:
        where = Message("round {round} board {board}", round=game.round, board=game.board)
        if game.match is None or game.match_game is None:
            raise KnockoutMismatchError(
                "{where} is not a game of the bracket (no match slot)", where=where
            )
        last = ko.third_place_slot if ko.rules.third_place else bracket.size - 1
        if not 1 <= game.match <= last:
            raise KnockoutMismatchError(
                "{where}: there is no slot {slot} in the bracket", where=where, slot=game.match
            )
        state.stored[(game.match, game.match_game)] = game
    byes = sorted(start_of[b.player] or 0 for b in loaded.byes if b.round == 1)
    if byes != sorted(bracket.byes) or any(b.round != 1 for b in loaded.byes):
        raise KnockoutMismatchError(
            (
                "the byes stored do not match the bracket's ({stored} stored, {bracket} in the "
                "bracket): were the bracket settings or the players changed after the start?"
            ),
            stored=_starts(byes),
            bracket=_starts(bracket.byes),
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
                        (
                            "round {round} board {board} (slot {slot}, game {game}) is stored as "
                            "{white} – {black}, but the lot gives White to {lot}: were the "
                            "knockout settings (lots_seed, match_format, tie_rule) changed after "
                            "the start?"
                        ),
                        round=game.round,
                        board=game.board,
                        slot=m.slot,
                        game=number,
                        white=state.name(white),
                        black=state.name(black),
                        lot=state.name(expected.white),
                    )
                if game.round != base + number - 1:
                    raise KnockoutMismatchError(
                        (
                            "round {round} board {board} (slot {slot}, game {game}) belongs in "
                            "round {base}: the games of {label} were changed after it was paired"
                        ),
                        round=game.round,
                        board=game.board,
                        slot=m.slot,
                        game=number,
                        base=base + number - 1,
                        label=state.round_label(rnd),
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
                Message(
                    "slot {slot} ({top} v {bottom}) has no winner",
                    slot=first.slot,
                    top=state.name(first.top),
                    bottom=state.name(first.bottom),
                )
                if first is not None
                else "tie-break games are due or games are left over"
            )
            raise KnockoutMismatchError(
                "{label} is paired, but in {earlier} {what} now: {cause}. {hint}",
                label=state.round_label(rnd + 1),
                earlier=state.round_label(rnd),
                what=what,
                cause=state.cause,
                hint=_undo_hint(session, state, rnd),
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
            (
                "round {round} board {board} is a game of slot {slot}, which is not paired yet: "
                "the games were changed behind the knockout's back"
            ),
            round=game.round,
            board=game.board,
            slot=stray[0],
        )


def _starts(values: tuple[int, ...] | list[int]) -> str:
    return ", ".join(str(v) for v in values) or "none"


def _changed_players(
    session: Session, state: KnockoutState, slot: int, rnd: int, game: GameRow
) -> str:
    ko = state.knockout
    match = ko.match(slot)
    where = Message("round {round} board {board}", round=game.round, board=game.board)
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


def still_to_play(state: KnockoutState) -> str:
    """``enter the results of round 2 boards 1 and 3 first`` (or the tie-breaks to add)."""
    ko = state.knockout
    waiting = [
        state.stored[(m.slot, g.number)]
        for m in ko.undecided()
        for g in ko.status(m.slot).pending
        if (m.slot, g.number) in state.stored
    ]
    if waiting:
        return Message("enter the results of {games} first", games=games_text(waiting))
    if state.due:
        return "tie-break games are due: continue the knockout to add them"
    return "no game is waiting"  # pragma: no cover - an undecided match has a game


def games_text(games: list[GameRow]) -> str:
    """``round 2 boards 1 and 3, round 3 board 2``."""
    by_round: dict[int, list[int]] = {}
    for game in sorted(games, key=lambda g: (g.round, g.board)):
        by_round.setdefault(game.round, []).append(game.board)
    parts = []
    for rnd, boards in by_round.items():
        numbers = [str(b) for b in boards]
        if len(numbers) == 1:
            parts.append(Message("round {round} board {board}", round=rnd, board=numbers[0]))
            continue
        joined = Message("{first} and {last}", first=", ".join(numbers[:-1]), last=numbers[-1])
        parts.append(Message("round {round} boards {boards}", round=rnd, boards=joined))
    return Message.joined(", ", parts)
