"""A knockout of Bughouse pairs in the store: the start, the matches set up, the replay.

A knockout of pairs is a knockout tournament (``system = knockout``) whose details say
``competitors: team``, ``team_boards: 2`` and ``bughouse`` (the match rule), next to the
individual knockout's settings (``match_format``, ``tie_rule``, ``round_formats``,
``third_place``, ``bracket``, ``lots_seed``: one parser,
:class:`crosstable.core.system_settings.KnockoutSettings`). The knockout engine
(:mod:`crosstable.core.pairing.knockout`) runs the bracket of the pairs' numbers; each
of its games is a Bughouse match of two boards (the pair drawn White has White on its
first board, Black on its second), and the match result by the rule (``sum`` or the
first finished game) is the engine's game result. So a tied match goes on exactly as
an individual knockout's tied game does: the tie rule's extra stages (two more
matches, sudden death, armageddon: each a Bughouse match) or its decider (the
lower-rated pair, lots).

How it is stored, as the individual knockout (:mod:`crosstable.service.knockout`):

* the start numbers the pairs by their rating (the average of their two players',
  then the reserve's, then the name, as a Swiss of pairs), their players pair by pair;
  a seeded bracket puts pair 1 against the last;
* both boards of a knockout game are game rows with ``match`` = the bracket slot and
  ``match_game`` = the game's number in the match; store rounds are sittings (game *n*
  of knockout round *r* in store round ``base(r) + n − 1``); a match takes two boards
  of its store round, numbered in bracket order; a pair with a first-round bye has a
  pairing-allocated bye for both its players in store round 1;
* nothing else is stored: the engine's state is replayed from the games, results and
  the first-finished marks whenever it is needed, so undo and revert need nothing of
  their own.

The public functions (what the service and an import of a Bughouse knockout call):

* :func:`bughouse_knockout_details`: the regulations' details of a new event;
* :func:`start_bughouse_knockout`: the start, in a change of the tournament;
* :func:`replay_pairs`: the engine's state from the rows (a
  :class:`crosstable.service.knockout.KnockoutState` whose competitors are the pairs);
* :func:`continue_pairs_knockout`: set up the matches now due (tie-break matches, or
  the next round once every match of the round is decided);
* :func:`pairs_bracket`: the bracket view (the individual knockout's
  :class:`~crosstable.service.knockout.view.BracketView`, its players the pairs);
* :func:`pairs_places` and :func:`check_pairs_correction`: the finish's places (each
  player gets their pair's) and the check of a corrected result.
"""

from __future__ import annotations

import random as _random
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from crosstable.core.errors import RuleError
from crosstable.core.model import Game, GameResult, Player, System
from crosstable.core.pairing.knockout import Knockout
from crosstable.core.system_settings import KnockoutSettings
from crosstable.core.teams.bughouse import (
    BUGHOUSE_BOARDS,
    BughouseRules,
    bughouse_details,
    bughouse_settings,
    is_bughouse,
    pair_rating,
)
from crosstable.core.teams.bughouse_pairing import seat_pairs
from crosstable.core.teams.matches import Match, team_of
from crosstable.core.teams.roster import Team
from crosstable.core.teams.swiss import initial_order
from crosstable.core.text import Message
from crosstable.service.frame import Done
from crosstable.service.knockout.games import final_places
from crosstable.service.knockout.replay import (
    Due,
    KnockoutMismatchError,
    KnockoutState,
    games_text,
    round_label,
    still_to_play,
)
from crosstable.service.knockout.settings import knockout_bracket
from crosstable.service.knockout.view import BracketView, bracket_of
from crosstable.service.loading import Loaded
from crosstable.service.read_views import JsonObject
from crosstable.service.teams.rows import core_teams, team_rows
from crosstable.service.teams.start import number_teams
from crosstable.service.unit import Tx
from crosstable.store.models import ByeRow, EntryRow, GameRow, RoundRow, TournamentRow
from crosstable.store.team_models import LineupRow

#: the event kind of a knockout of pairs continued (tie-break matches or the next round)
KIND = "bughouse-knockout"


def is_pairs_knockout(row: TournamentRow) -> bool:
    """The tournament is a knockout of Bughouse pairs."""
    return row.system == System.KNOCKOUT.value and is_bughouse(row.regulations or {})


def bughouse_knockout_details(
    rule: str,
    *,
    match_format: str = "1",
    tie_rule: str = "lower-rated",
    round_formats: str = "",
    third_place: bool = False,
    bracket: str = "seeded",
    scoring: str = "2-1-0",
    primary: str = "MP",
    tiebreaks: Sequence[str] = (),
) -> dict[str, str]:
    """The regulations' details of a new knockout of pairs (checked: a bad value names
    its setting). Under the ``first`` rule the organiser finishes it, as a round robin of
    pairs under that rule.

    >>> d = bughouse_knockout_details("sum", match_format="2", tie_rule="playoff")
    >>> d["bughouse"], d["match_format"], d["tie_rule"], d["team_boards"]
    ('sum', '2', 'rapid:2,blitz:2,armageddon', '2')
    """
    details = bughouse_details(rule, scoring=scoring, primary=primary, tiebreaks=tiebreaks)
    settings = KnockoutSettings.from_details(
        {
            "match_format": match_format,
            "tie_rule": tie_rule,
            "round_formats": round_formats,
            "third_place": "yes" if third_place else "no",
            "bracket": bracket,
        }
    )
    return details | settings.to_details()


# -- the start ---------------------------------------------------------------------------


def start_bughouse_knockout(tx: Tx, loaded: Loaded, random: _random.Random | None) -> Done:
    """Number the pairs by rating and their players pair by pair, fix the bracket and
    the settings (written back into the regulations, the seed of lots drawn from
    ``random`` unless given), seat round 1's matches and the byes; status → running."""
    row = tx.tournament
    details = dict(row.regulations or {})
    team, _rules = bughouse_settings(details)
    rows = team_rows(tx.session, row.id)
    teams = core_teams(rows, loaded.by_number, team)  # every pair complete
    if len(teams) < 2:
        raise RuleError("a knockout of pairs needs at least two pairs")
    members = {m.entry for pair in rows.members.values() for m in pair}
    for entry in loaded.entries:
        if entry.number not in members:
            raise RuleError(
                "player {player} is in no team: add the players with their teams",
                player=entry.name,
            )
    by_name = {t.name: t for t in rows.teams}
    number_teams(tx, loaded, rows, [by_name[t.name] for t in initial_order(teams, 2)])
    tx.flush()
    pairs = core_teams(rows, loaded.by_number, team)
    settings = KnockoutSettings.from_details(details, strict=False)
    seed = settings.lots_seed
    if seed is None:
        seed = (random or _random.Random()).randrange(1, 10**9)
    settings = settings.with_seed(seed)
    rules = settings.rules()
    bracket = knockout_bracket(_players(pairs), settings.bracket, seed)
    ko = Knockout.start(bracket, rules)
    details.update(settings.to_details(complete=True))
    tx.update(row, regulations=details)
    tx.insert(RoundRow(number=1, cycle=1))
    tx.flush()
    due = [Due(slot, game, game.number) for slot, game in ko.pending_games()]
    inserted = insert_matches(tx, pairs, due)
    entry_of = {e.start: e.number for e in loaded.entries if e.start is not None}
    for start in bracket.byes:
        for player in pairs[start - 1].starts[:BUGHOUSE_BOARDS]:
            tx.insert(ByeRow(round=1, player=entry_of[player], kind="U"))
    tx.update(row, status="running")
    tx.flush()
    names = {p.start: p.name for p in pairs}
    byes = Message.joined(
        ", ", [Message("{start} {name}", start=s, name=names[s]) for s in bracket.byes]
    )
    return Done(
        Message(
            "knockout of pairs started: {pairs} pairs, {rounds} rounds (match {format}, tie "
            "rule {tie_rule}); {first}: {matches} match(es){byes}",
            pairs=len(pairs),
            rounds=bracket.rounds,
            format=rules.format.label(),
            tie_rule=rules.tie_rule.label(),
            first=round_label(bracket, 1),
            matches=len(ko.matches),
            byes=Message(", byes: {byes}", byes=byes) if bracket.byes else "",
        ),
        {
            "rounds": bracket.rounds,
            "paired_round": 1,
            "lots_seed": seed,
            "pairs": [p.name for p in pairs],
            "matches": [m.as_json() for m in inserted],
            "byes": list(bracket.byes),
        },
    )


def _players(pairs: Sequence[Team]) -> tuple[Player, ...]:
    """The pairs as the bracket's players: numbered as the pairs, rated by their average."""
    return tuple(Player(p.start, p.name, pair_rating(p)) for p in pairs)


@dataclass(frozen=True, slots=True)
class SeatedMatch:
    """A knockout game seated as a Bughouse match: its store round and two boards, the
    bracket's slot and game, the game's kind and the pairs (White's first)."""

    round: int
    boards: tuple[int, int]
    slot: int
    game: int
    kind: str
    white: int
    black: int

    def as_json(self) -> JsonObject:
        """As the change's data keeps it."""
        return {
            "round": self.round,
            "boards": list(self.boards),
            "slot": self.slot,
            "game": self.game,
            "kind": self.kind,
            "white": self.white,
            "black": self.black,
        }


def insert_matches(tx: Tx, pairs: Sequence[Team], due: Sequence[Due]) -> list[SeatedMatch]:
    """Seat the ``due`` knockout games as Bughouse matches: two boards each, after the
    last board of their store round, in bracket order (new store rounds as needed)."""
    tid = tx.tournament_id
    session = tx.session
    rounds = set(session.scalars(select(RoundRow.number).where(RoundRow.tournament_id == tid)))
    boards: dict[int, int] = {}
    for number, board in session.execute(
        select(GameRow.round, GameRow.board).where(GameRow.tournament_id == tid)
    ):
        boards[number] = max(boards.get(number, 0), board)
    for number in sorted({d.round for d in due} - rounds):
        tx.insert(RoundRow(number=number, cycle=1))
    tx.flush()
    entries = session.scalars(select(EntryRow).where(EntryRow.tournament_id == tid))
    entry_of = {e.start: e.number for e in entries if e.start is not None}
    team_number = {t.start: t.number for t in team_rows(session, tid).teams}
    inserted: list[SeatedMatch] = []
    for d in sorted(due, key=lambda d: (d.round, d.slot, d.game.number)):
        first = boards.get(d.round, 0) + 1
        seated = seat_pairs(d.round, pairs, [(d.game.white, d.game.black)], first_board=first)
        for game in seated.games:
            tx.insert(
                GameRow(
                    round=d.round,
                    board=game.board,
                    white=entry_of[game.white],
                    black=entry_of[game.black],
                    result=None,
                    reason="normal",
                    version=1,
                    match=d.slot,
                    match_game=d.game.number,
                )
            )
        boards[d.round] = first + BUGHOUSE_BOARDS - 1
        for side in (d.game.white, d.game.black):
            for board, player in enumerate(pairs[side - 1].starts[:BUGHOUSE_BOARDS], 1):
                tx.insert(
                    LineupRow(
                        round=d.round, team=team_number[side], board=board, entry=entry_of[player]
                    )
                )
        inserted.append(
            SeatedMatch(
                d.round,
                (first, first + 1),
                d.slot,
                d.game.number,
                d.game.kind.value,
                d.game.white,
                d.game.black,
            )
        )
    tx.flush()
    return inserted


# -- the replay --------------------------------------------------------------------------


def _pair_entries(pairs: Sequence[Team]) -> dict[int, EntryRow]:
    """The pairs as the knockout view's "entries" (name and rating by pair number); the
    rows are never added to a session."""
    return {
        p.start: EntryRow(number=p.start, start=p.start, name=p.name, rating=pair_rating(p))
        for p in pairs
    }


def replay_pairs(
    session: Session, loaded: Loaded, *, correcting: bool = False
) -> tuple[KnockoutState, list[Team]]:
    """The engine's state replayed from the stored matches, their results and the
    first-finished marks, and the pairs (numbered as in the bracket). A disagreement
    stops the replay and is said in the state's ``problem``."""
    row = loaded.row
    if not is_pairs_knockout(row):
        raise RuleError("tournament {tournament} is not a knockout of pairs", tournament=row.id)
    if row.status == "registration":
        raise RuleError("the knockout has not started: start it first")
    team, rules = bughouse_settings(row.regulations or {})
    pairs = core_teams(team_rows(session, row.id), loaded.by_number, team)
    settings = KnockoutSettings.from_details(row.regulations or {}, strict=False)
    ko_rules = settings.rules()
    bracket = knockout_bracket(_players(pairs), settings.bracket, ko_rules.seed)
    state = KnockoutState(
        Knockout.start(bracket, ko_rules),
        {},
        {1: 1},
        entries=_pair_entries(pairs),
        tournament_id=row.id,
        correcting=correcting,
    )
    try:
        _replay(loaded, state, pairs, rules)
    except KnockoutMismatchError as problem:
        state.problem = problem.text
    return state, pairs


def _replay(loaded: Loaded, state: KnockoutState, pairs: list[Team], rules: BughouseRules) -> None:
    ko = state.knockout
    owner = team_of(pairs)
    core = {(g.round, g.board): g for r in loaded.tournament().rounds for g in r.games}
    boards: dict[tuple[int, int], list[GameRow]] = {}
    for row in loaded.games:
        if row.match is None or row.match_game is None:
            raise KnockoutMismatchError(
                "round {round} board {board} is not a game of the bracket (no match slot)",
                round=row.round,
                board=row.board,
            )
        boards.setdefault((row.match, row.match_game), []).append(row)
    for key, rows in boards.items():
        state.stored[key] = min(rows, key=lambda r: r.board)
    used: set[tuple[int, int]] = set()
    rnd = 1
    while True:
        progressed = True
        while progressed:
            progressed = False
            for slot, game in ko.pending_games():
                key = (slot, game.number)
                if key in used or key not in boards:
                    continue
                games = sorted((core[(r.round, r.board)] for r in boards[key]), key=_board)
                result = _match_result(games, owner, game.white, game.black, rules, slot)
                if result is None:
                    continue
                ko = ko.record(slot, game.number, result)
                used.add(key)
                progressed = True
        state.knockout = ko
        if rnd == ko.bracket.rounds:
            break
        following = {s.number for s in ko.bracket.round_slots(rnd + 1)}
        if not any(slot in following for slot, _n in boards):
            break
        open_matches = ko.undecided()
        if open_matches:
            m = open_matches[0]
            raise KnockoutMismatchError(
                "{next} was paired, but slot {slot} ({top} v {bottom}) of {label} has no winner "
                "now ({cause}): correct the result back, or undo back to before the pairing",
                next=round_label(ko.bracket, rnd + 1),
                slot=m.slot,
                top=state.name(m.top),
                bottom=state.name(m.bottom),
                label=state.round_label(rnd),
                cause=state.cause,
            )
        longest = max(len(ko.status(m.slot).games) for m in ko.matches if m.round == rnd)
        state.base[rnd + 1] = state.base[rnd] + longest
        ko = ko.pair_next_round()
        rnd += 1
    state.knockout = ko
    for slot, game in ko.pending_games():
        if (slot, game.number) not in boards:
            base = state.base.get(ko.match(slot).round, state.base[rnd])
            state.due.append(Due(slot, game, base + game.number - 1))
    for key, rows in sorted(boards.items()):
        if key in used or any(key == (s, g.number) for s, g in ko.pending_games()):
            continue
        if any(r.result is not None for r in rows):
            raise KnockoutMismatchError(
                "round {round} board {board} (slot {slot}, game {game}) has a result, but its "
                "match is not one the bracket plays now ({cause}): clear the result or undo",
                round=rows[0].round,
                board=rows[0].board,
                slot=key[0],
                game=key[1],
                cause=state.cause,
            )
        state.surplus.extend(rows)


def _board(game: Game) -> int:
    return game.board


def _match_result(
    games: Sequence[Game],
    owner: dict[int, int],
    white: int,
    black: int,
    rules: BughouseRules,
    slot: int,
) -> GameResult | None:
    """The knockout game's result (White pair first) from its Bughouse match; None
    while the match is undecided. The match must be between the pairs the bracket
    seats there."""
    first = games[0]
    sides = (owner.get(first.white), owner.get(first.black))
    if set(sides) != {white, black} or len(games) != BUGHOUSE_BOARDS:
        raise KnockoutMismatchError(
            "round {round} board {board} (slot {slot}) is not the match of pairs {white} and "
            "{black} the bracket seats there: a result was changed after the pairing; undo "
            "back to before it",
            round=first.round,
            board=first.board,
            slot=slot,
            white=white,
            black=black,
        )
    match = Match(first.round, 1, sides[0] or 0, sides[1] or 0, tuple(games), owner)
    result = rules.match_result(match)
    if result is None or sides[0] == white:
        return result
    return GameResult(result.black, result.white)


# -- the use cases' bodies ---------------------------------------------------------------


def continue_pairs_knockout(tx: Tx) -> Done:
    """Continue the knockout of pairs in ``tx``'s tournament: remove the matches no
    longer needed, seat the tie-break matches now due, or — when every match of the
    round is decided — the next round's matches."""
    row = tx.tournament
    if row.status == "finished":
        raise RuleError("the knockout is finished; undo the finish first")
    loaded = Loaded(tx.session, row)
    state, pairs = replay_pairs(tx.session, loaded)
    state.checked()
    removed = None
    if state.surplus:
        removed = Message("{games} no longer needed, removed", games=games_text(state.surplus))
        for game in state.surplus:
            tx.delete(game)
        tx.flush()
    ko = state.knockout
    label = state.round_label(ko.round)
    if state.due:
        inserted = insert_matches(tx, pairs, state.due)
        listed = _listed(state, inserted)
        summary = Message("{label}: matches added — {matches}", label=label, matches=listed)
        matches = [m.as_json() for m in inserted]
        data = {"paired_round": None, "knockout_round": ko.round, "matches": matches}
        return Done(_after(removed, summary), data)
    if ko.finished:
        assert ko.champion is not None
        winner = state.name(ko.champion)
        over = Message("the knockout is over: {winner} won; finish it", winner=winner)
        if removed is None:
            raise RuleError(over)
        return Done(_after(removed, over), {"paired_round": None})
    if ko.undecided():
        waiting = Message("{label} is not over: {still}", label=label, still=still_to_play(state))
        if removed is None:
            raise RuleError(waiting)
        return Done(_after(removed, waiting), {"paired_round": None})
    rnd = ko.round
    longest = max(len(ko.status(m.slot).games) for m in ko.matches if m.round == rnd)
    base = state.base[rnd] + longest
    paired = ko.pair_next_round()
    due = [Due(slot, game, base + game.number - 1) for slot, game in paired.pending_games()]
    inserted = insert_matches(tx, pairs, due)
    state.knockout = paired
    summary = Message(
        "{label} paired (from round {round}): {matches}",
        label=round_label(ko.bracket, rnd + 1),
        round=base,
        matches=_listed(state, inserted),
    )
    matches = [m.as_json() for m in inserted]
    return Done(
        _after(removed, summary),
        {"paired_round": rnd + 1, "knockout_round": rnd + 1, "matches": matches},
    )


def _listed(state: KnockoutState, inserted: list[SeatedMatch]) -> Message:
    return Message.joined(
        ", ",
        [
            Message(
                "{kind} match: {white} v {black} at round {round} boards {first} and {second}",
                kind=m.kind,
                white=state.name(m.white),
                black=state.name(m.black),
                round=m.round,
                first=m.boards[0],
                second=m.boards[1],
            )
            for m in inserted
        ],
    )


def _after(removed: Message | None, summary: Message) -> Message:
    if removed is None:
        return summary
    return Message("{removed}; {summary}", removed=removed, summary=summary)


def pairs_bracket(session: Session, row: TournamentRow) -> BracketView:
    """The bracket of pairs as the individual knockout's view (its players the pairs)."""
    state, _pairs = replay_pairs(session, Loaded(session, row))
    return bracket_of(row, state)


def pairs_places(tx: Tx, loaded: Loaded) -> dict[int, int]:
    """Final places by starting number, every player of a pair (reserves too) with the
    pair's place from the bracket; refused while the knockout is not over."""
    state, pairs = replay_pairs(tx.session, loaded)
    places = final_places(state)
    return {
        member.start: places[pair.start]
        for pair in pairs
        if pair.start in places
        for member in pair.members
    }


def check_pairs_correction(tx: Tx) -> None:
    """Refuse a correction (already applied in ``tx``) that changes who went on from a
    round whose next round is paired."""
    row = tx.tournament
    if row.status == "registration":
        return
    tx.flush()
    state, _pairs = replay_pairs(tx.session, Loaded(tx.session, row), correcting=True)
    if state.problem is not None:
        raise RuleError("correction refused: {problem}", problem=state.problem)


__all__ = [
    "KIND",
    "SeatedMatch",
    "bughouse_knockout_details",
    "check_pairs_correction",
    "continue_pairs_knockout",
    "insert_matches",
    "is_pairs_knockout",
    "pairs_bracket",
    "pairs_places",
    "replay_pairs",
    "start_bughouse_knockout",
]
