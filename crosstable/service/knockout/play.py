"""The use cases of a knockout: continue the bracket, its state, its view."""

from __future__ import annotations

from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.pairing.knockout import (
    Knockout,
)
from crosstable.core.text import Message
from crosstable.service.errors import NotFoundError
from crosstable.service.frame import Change, ChangeFrame, Done
from crosstable.service.knockout.games import InsertedGame, games_json, insert_games
from crosstable.service.knockout.replay import (
    Due,
    KnockoutState,
    check_knockout,
    games_text,
    replay,
    round_label,
    still_to_play,
)
from crosstable.service.knockout.settings import KIND
from crosstable.service.knockout.view import BracketView, bracket_of
from crosstable.service.loading import Loaded
from crosstable.service.read_views import JsonObject
from crosstable.service.teams.bughouse_knockout import (
    continue_pairs_knockout,
    is_pairs_knockout,
    pairs_bracket,
)
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow, TournamentRow

# -- use cases ---------------------------------------------------------------------------


class KnockoutPlay:
    """Use cases of a knockout: pair the next games and rounds of the bracket."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def pair_next_round(self, tournament_id: int, *, actor: str = "") -> Change:
        """Continue the knockout: add the tie-break games now due, or — when every match
        of the round is decided — the next round's matches."""

        def body(tx: Tx) -> Done:
            row = tx.tournament
            if is_pairs_knockout(row):  # the competitors are Bughouse pairs
                return continue_pairs_knockout(tx)
            check_knockout(row)
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
                over = Message(
                    "the knockout is over: {winner} won; finish it", winner=state.name(ko.champion)
                )
                if removed:
                    return Done(_after(removed, over), {"paired_round": None})
                raise RuleError(over)
            if ko.undecided():
                waiting = Message(
                    "{label} is not over: {still}", label=label, still=still_to_play(state)
                )
                if removed:
                    return Done(_after(removed, waiting), {"paired_round": None})
                raise RuleError(waiting)
            return _pair_round(tx, state, removed)

        return self.frame.change(tournament_id, KIND, body, actor=actor)

    def knockout_state(self, tournament_id: int) -> Knockout:
        """The engine's state, replayed from the stored games (RuleError when they
        disagree with the bracket, saying what to do)."""
        with self.frame.store.reading() as session:
            return _read(session, tournament_id).checked().knockout

    def bracket(self, tournament_id: int) -> BracketView:
        """The bracket for screens and the command line, typed (its ``as_json()`` is
        :meth:`bracket_view`)."""
        with self.frame.store.reading() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is not None and is_pairs_knockout(row):  # the competitors are pairs
                return pairs_bracket(session, row)
            state = _read(session, tournament_id)
            assert row is not None
            return bracket_of(row, state)

    def bracket_view(self, tournament_id: int) -> JsonObject:
        """The bracket as JSON (the API's and ``crosstable bracket --format json``;
        docs/knockout.md)."""
        return self.bracket(tournament_id).as_json()


def _read(session: Session, tournament_id: int) -> KnockoutState:
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        raise NotFoundError(
            "there is no tournament {tournament} in this database", tournament=tournament_id
        )
    return replay(session, Loaded(session, row))


def _remove(tx: Tx, state: KnockoutState) -> Message | None:
    """Delete the stored games no longer part of their match (no result); what was done."""
    if not state.surplus:
        return None
    text = games_text(state.surplus)
    for game in state.surplus:
        tx.delete(game)
    return Message("{games} no longer needed, removed", games=text)


def _after(removed: Message | None, summary: Message) -> Message:
    """``summary`` after the games removed first (if any)."""
    if removed is None:
        return summary
    return Message("{removed}; {summary}", removed=removed, summary=summary)


def _add_due(tx: Tx, state: KnockoutState, removed: Message | None) -> Done:
    by_start: dict[int, EntryRow] = state.entries
    inserted = insert_games(tx, state.due, by_start)
    ko = state.knockout
    slots = sorted({d.slot for d in state.due})
    listed = Message.joined(
        "; ",
        [
            Message(
                "slot {slot} ({top} v {bottom}): {games}",
                slot=slot,
                top=state.name(ko.match(slot).top),
                bottom=state.name(ko.match(slot).bottom),
                games=Message.joined(
                    ", ",
                    [
                        Message(
                            "{kind} game {number} at round {round} board {board}",
                            kind=d.game.kind.value,
                            number=d.game.number,
                            round=g.round,
                            board=g.board,
                        )
                        for d, g in zip(state.due, _sorted_like(state.due, inserted), strict=True)
                        if d.slot == slot
                    ],
                ),
            )
            for slot in slots
        ],
    )
    summary = Message(
        "{label}: games added — {games}", label=state.round_label(ko.round), games=listed
    )
    return Done(
        _after(removed, summary),
        {"paired_round": None, "knockout_round": ko.round, "games": games_json(inserted)},
    )


def _sorted_like(due: list[Due], inserted: list[InsertedGame]) -> list[InsertedGame]:
    """``inserted`` (sorted by round, slot, game) in the order of ``due``."""
    by_key = {(g.slot, g.game): g for g in inserted}
    return [by_key[(d.slot, d.game.number)] for d in due]


def _pair_round(tx: Tx, state: KnockoutState, removed: Message | None) -> Done:
    ko = state.knockout
    rnd = ko.round
    longest = max(len(ko.status(m.slot).games) for m in ko.matches if m.round == rnd)
    base = state.base[rnd] + longest
    paired = ko.pair_next_round()
    due = [Due(slot, game, base + game.number - 1) for slot, game in paired.pending_games()]
    inserted = insert_games(tx, due, state.entries)
    label = round_label(ko.bracket, rnd + 1)
    listed = Message.joined(
        ", ",
        [
            Message("{top} v {bottom}", top=state.name(m.top), bottom=state.name(m.bottom))
            for m in paired.matches
            if m.round == rnd + 1
        ],
    )
    first = min(d.round for d in due)
    summary = Message(
        "{label} paired (from round {round}): {matches}", label=label, round=first, matches=listed
    )
    return Done(
        _after(removed, summary),
        {"paired_round": rnd + 1, "knockout_round": rnd + 1, "games": games_json(inserted)},
    )
