"""A game's moves (docs/pgn.md): PGN given per game, per round or for
the whole tournament, and the tournament's PGN.

Every upload is read and checked first (:func:`crosstable.formats.pgn.read_games`:
bounded, each move legal), then matched to the boards, then stored in ONE recorded
change (``moves``): the game rows' ``moves`` column, and a result where the game had
none yet — so one undo takes back what one upload did. The rules of a result:

* PGN's ``*`` (game not finished, or the result not in the file) agrees with any
  recorded result and sets none;
* ``1-0``, ``0-1`` and ``1/2-1/2`` must be the result recorded; when the game has no
  result yet, the PGN's is recorded with the moves (while the tournament is running;
  in battle chess the result is recorded first, as its colours are drawn around it);
* a game that was not played (a forfeit, a set-up timeout) has no moves; a PGN game
  without moves that says its result is accepted (so the tournament's own PGN reads
  back).

A round's or a tournament's games are matched to boards by their ``Round "r.b"``
header, else by the White and Black names (the same words in any order, case
ignored); a game that matches no board, several, or a board another game of the file
took is refused, naming its number in the file and its headers.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import undefer

from crosstable.core import battle as battle_rules
from crosstable.core.errors import InputError, RuleError
from crosstable.core.text import Message
from crosstable.formats.pgn import (
    PgnGame,
    names_agree,
    pgn_time_control,
    read_games,
    same_name,
    tournament_game,
)
from crosstable.service.errors import NotFoundError
from crosstable.service.finishing import finish_by_itself
from crosstable.service.frame import Change, ChangeFrame, Done
from crosstable.service.loading import result_label
from crosstable.service.unit import Tx
from crosstable.store.models import EntryRow, GameRow, RoundRow, TournamentRow

#: PGN's result of a played game's stored result codes
PGN_RESULTS = {"10": "1-0", "01": "0-1", "==": "1/2-1/2"}
_CODES = {pgn: code for code, pgn in PGN_RESULTS.items()}
#: forfeits: games not played, left out of the tournament's PGN (PGN has no result for
#: "not played", and a game database counts every game record as a game played)
FORFEITS = frozenset({"+-", "-+", "--"})
#: how the tournament's PGN writes a game that was not played (no PGN result says so)
UNPLAYED = {
    "+-": ("1-0", "Black did not come: White wins by forfeit"),
    "-+": ("0-1", "White did not come: Black wins by forfeit"),
    "--": ("*", "neither player came: both lose by forfeit"),
    "WL": ("1-0", "battle chess: only White finished setting up"),
    "LW": ("0-1", "battle chess: only Black finished setting up"),
    "DD": ("1/2-1/2", "battle chess: neither finished setting up"),
}
#: an arbiter's result short of a game, and a game played but not rated (outside battle
#: chess): PGN's own result where it has one, else * with the result in words
DECIDED = {
    "=0": ("*", "the arbiter decided ½-0"),
    "0=": ("*", "the arbiter decided 0-½"),
    "00": ("*", "the arbiter decided 0-0: both players lose"),
    "WL": ("1-0", "played, not rated"),
    "LW": ("0-1", "played, not rated"),
    "DD": ("1/2-1/2", "played, not rated"),
    "DL": ("*", "the arbiter decided ½-0; not rated"),
    "LD": ("*", "the arbiter decided 0-½; not rated"),
    "LL": ("*", "the arbiter decided 0-0; not rated"),
}
#: problems listed in one refusal at most
_MOST_PROBLEMS = 10
_ROUND_BOARD = re.compile(r"^\s*(\d{1,4})\s*\.\s*(\d{1,4})\s*$")
_ROUND_ONLY = re.compile(r"^\s*(\d{1,4})\s*$")


@dataclass(frozen=True, slots=True)
class GameMoves:
    """A game with its moves, for the game page."""

    round: int
    board: int
    white: int | None
    black: int | None
    white_name: str
    black_name: str
    #: the stored result in the usual spelling (``1-0``), "" while none
    result: str
    #: the kept PGN (None: no moves given)
    pgn: str | None


@dataclass(frozen=True, slots=True)
class _Board:
    game: GameRow
    white: EntryRow
    black: EntryRow

    @property
    def where(self) -> Message:
        return Message("round {round} board {board}", round=self.game.round, board=self.game.board)


class PgnPlay:
    """The moves of a tournament's games: upload, read, export."""

    def __init__(self, frame: ChangeFrame) -> None:
        self.frame = frame

    def record_moves(
        self,
        tournament_id: int,
        round_number: int,
        board: int,
        pgn: str,
        *,
        actor: str = "",
        idempotency_key: str | None = None,
        source: str = "<input>",
    ) -> Change:
        """The moves of one game (a PGN of exactly one game), and its result if it had
        none; one recorded change. A game server posts the game it played here."""
        games = read_games(pgn, source=source)
        if len(games) != 1:
            raise InputError(
                "a game's PGN must hold one game, not {count}", source=source, count=len(games)
            )
        (game,) = games
        if not game.moves:
            raise InputError("{game}: the PGN has no moves", source=source, game=game.label)
        # (the request kept for a repeated idempotency key names the game by its digest,
        # so the event does not hold the PGN twice)
        digest = hashlib.sha256(game.text.encode("utf-8")).hexdigest()
        request = {"op": "moves", "round": round_number, "board": board, "pgn": digest}

        def body(tx: Tx) -> Done:
            boards = _boards(tx, round_number)
            spot = next((b for b in boards if b.game.board == board), None)
            if spot is None:
                raise NotFoundError(
                    "round {round} has no board {board} (boards 1–{boards})",
                    round=round_number,
                    board=board,
                    boards=max((b.game.board for b in boards), default=0),
                )
            problem = _disagreement(game, spot)
            if problem is not None:
                raise InputError(problem, source=source)
            return _store(tx, [(game, spot)], source, round_number)

        return self.frame.change(
            tournament_id,
            "moves",
            body,
            actor=actor,
            idempotency_key=idempotency_key,
            request=request,
        )

    def import_pgn(
        self,
        tournament_id: int,
        pgn: str,
        *,
        round_number: int | None = None,
        actor: str = "",
        source: str = "<input>",
    ) -> Change:
        """The games of a PGN file matched to the boards of ``round_number`` (None: of
        every round; then each game needs its round in a ``Round`` header), stored in
        one recorded change; refused whole if any game does not match exactly one board."""
        games = read_games(pgn, source=source)
        if not games:
            raise InputError("the PGN holds no game", source=source)

        def body(tx: Tx) -> Done:
            boards = _boards(tx, round_number)
            if not boards:
                if round_number is None:
                    raise RuleError("the tournament has no games yet")
                raise RuleError("round {round} has no games", round=round_number)
            pairs = _match(games, boards, round_number, source)
            return _store(tx, pairs, source, round_number)

        return self.frame.change(tournament_id, "moves", body, actor=actor)

    def clear_moves(
        self, tournament_id: int, round_number: int, board: int, *, actor: str = ""
    ) -> Change:
        """Take a game's moves away (its result stays); a recorded change."""

        def body(tx: Tx) -> str:
            game = tx.session.get(
                GameRow, (tx.tournament_id, round_number, board), options=[undefer(GameRow.moves)]
            )
            where = Message("round {round} board {board}", round=round_number, board=board)
            if game is None:
                raise NotFoundError("there is no game at {where}", where=where)
            if not tx.update(game, moves=None):
                raise RuleError("{where} has no moves", where=where)
            return Message("{where}: moves removed", where=where)

        return self.frame.change(tournament_id, "moves", body, actor=actor)

    def game_moves(self, tournament_id: int, round_number: int, board: int) -> GameMoves:
        """One game with its kept PGN, for the game page."""
        with self.frame.store.reading() as session:
            row = _tournament(session, tournament_id)
            game = session.get(
                GameRow, (row.id, round_number, board), options=[undefer(GameRow.moves)]
            )
            where = Message("round {round} board {board}", round=round_number, board=board)
            if game is None:
                raise NotFoundError("there is no game at {where}", where=where)
            entries = _entries(session, row.id)
            white, black = entries[game.white], entries[game.black]
            return GameMoves(
                round=game.round,
                board=game.board,
                white=white.start,
                black=black.start,
                white_name=white.name,
                black_name=black.name,
                result=result_label(game.result) if game.result else "",
                pgn=game.moves,
            )

    def games_with_moves(self, tournament_id: int) -> set[tuple[int, int]]:
        """The (round, board) of every game that has moves."""
        with self.frame.store.reading() as session:
            query = select(GameRow.round, GameRow.board).where(
                GameRow.tournament_id == tournament_id, GameRow.moves.is_not(None)
            )
            return {(r, b) for r, b in session.execute(query)}

    def export_pgn(self, tournament_id: int) -> str:
        """The tournament's games as one PGN: round by round, board by board, each with
        the Seven Tag Roster (``Round "r.b"``), the players' titles, Elo and FIDE ids,
        ``EventDate`` and ``TimeControl`` where known; a game without moves is listed
        with its result; a forfeit is no game and is left out (the TRF and the crosstable
        carry it)."""
        with self.frame.store.reading() as session:
            row = _tournament(session, tournament_id)
            entries = _entries(session, row.id)
            dates = {
                number: date
                for number, date in session.execute(
                    select(RoundRow.number, RoundRow.date).where(RoundRow.tournament_id == row.id)
                )
            }
            games = session.scalars(
                select(GameRow)
                .where(GameRow.tournament_id == row.id)
                .order_by(GameRow.round, GameRow.board)
                .options(undefer(GameRow.moves))
            ).all()
            texts = [
                _exported(row, entries, dates.get(game.round), game)
                for game in games
                if game.result not in FORFEITS  # not a game: a database would count it
            ]
        return "\n\n".join(texts) + ("\n" if texts else "")


def _tournament(session: Any, tournament_id: int) -> TournamentRow:
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        raise NotFoundError(
            "there is no tournament {tournament} in this database", tournament=tournament_id
        )
    return row  # type: ignore[no-any-return]


def _entries(session: Any, tournament_id: int) -> dict[int, EntryRow]:
    query = select(EntryRow).where(EntryRow.tournament_id == tournament_id)
    return {entry.number: entry for entry in session.scalars(query)}


def _boards(tx: Tx, round_number: int | None) -> list[_Board]:
    """The games a PGN may go to: of one round (None: all), with their players."""
    row = tx.tournament
    if row.status == "registration":
        raise RuleError("the tournament has not started: there are no games yet")
    query = (
        select(GameRow)
        .where(GameRow.tournament_id == row.id)
        .order_by(GameRow.round, GameRow.board)
        .options(undefer(GameRow.moves))
    )
    if round_number is not None:
        rounds = tx.session.scalars(
            select(RoundRow.number).where(RoundRow.tournament_id == row.id)
        ).all()
        if round_number not in rounds:
            raise NotFoundError(
                "there is no round {round} in this tournament (rounds 1–{rounds})",
                round=round_number,
                rounds=len(rounds),
            )
        query = query.where(GameRow.round == round_number)
    entries = _entries(tx.session, row.id)
    return [_Board(g, entries[g.white], entries[g.black]) for g in tx.session.scalars(query)]


def _round_board(game: PgnGame) -> tuple[int | None, int | None]:
    value = game.header("Round")
    found = _ROUND_BOARD.match(value)
    if found:
        return int(found.group(1)), int(found.group(2))
    found = _ROUND_ONLY.match(value)
    if found:
        return int(found.group(1)), None
    return None, None


def _disagreement(game: PgnGame, spot: _Board) -> Message | None:
    """Why ``game`` cannot be ``spot``'s (its names say other players), or None."""
    white, black = game.header("White"), game.header("Black")
    if names_agree(white, spot.white.name) and names_agree(black, spot.black.name):
        return None
    return Message(
        "{game}: its players are not those of {where} ({white} – {black})",
        game=game.label,
        where=spot.where,
        white=spot.white.name,
        black=spot.black.name,
    )


def _match(
    games: list[PgnGame], boards: list[_Board], round_number: int | None, source: str
) -> list[tuple[PgnGame, _Board]]:
    """Each game with its board; refused (every problem named) unless each matches one."""
    problems: list[Message] = []
    pairs: list[tuple[PgnGame, _Board]] = []
    taken: dict[tuple[int, int], PgnGame] = {}
    by_spot = {(b.game.round, b.game.board): b for b in boards}
    for game in games:
        found, problem = _one(game, boards, by_spot, round_number)
        if problem is None and found is not None:
            spot = (found.game.round, found.game.board)
            other = taken.get(spot)
            if other is not None:
                problem = Message(
                    "{game}: {where} is game {other}'s already",
                    game=game.label,
                    where=found.where,
                    other=other.index,
                )
            else:
                taken[spot] = game
                pairs.append((game, found))
        if problem is not None:
            problems.append(problem)
            if len(problems) >= _MOST_PROBLEMS:
                break
    if problems:
        raise InputError(Message.joined("; ", problems), source=source)
    return pairs


def _one(
    game: PgnGame,
    boards: list[_Board],
    by_spot: dict[tuple[int, int], _Board],
    round_number: int | None,
) -> tuple[_Board | None, Message | None]:
    rnd, board = _round_board(game)
    if round_number is not None and rnd is not None and rnd != round_number:
        return None, Message(
            "{game}: it is of round {other}, not of round {round}",
            game=game.label,
            other=rnd,
            round=round_number,
        )
    wanted = rnd if rnd is not None else round_number
    if wanted is None:
        return None, Message(
            '{game}: which round it is of is not known (give a Round "r.b" header)',
            game=game.label,
        )
    if board is not None:
        spot = by_spot.get((wanted, board))
        if spot is None:
            return None, Message(
                "{game}: round {round} has no board {board}",
                game=game.label,
                round=wanted,
                board=board,
            )
        return spot, _disagreement(game, spot)
    white, black = game.header("White"), game.header("Black")
    here = [b for b in boards if b.game.round == wanted]
    found = [b for b in here if same_name(white, b.white.name) and same_name(black, b.black.name)]
    if len(found) == 1:
        return found[0], None
    if found:
        return None, Message(
            '{game}: several boards of round {round} have these players; give a Round "r.b" header',
            game=game.label,
            round=wanted,
        )
    swapped = [b for b in here if same_name(white, b.black.name) and same_name(black, b.white.name)]
    if swapped:
        return None, Message(
            "{game}: at {where} the colours are the other way round",
            game=game.label,
            where=swapped[0].where,
        )
    return None, Message(
        "{game}: no board of round {round} has these players", game=game.label, round=wanted
    )


def _store(
    tx: Tx, pairs: list[tuple[PgnGame, _Board]], source: str, round_number: int | None
) -> Done:
    """Check each game's result against the board's, then store moves and results."""
    row = tx.tournament
    problems: list[Message] = []
    plan: list[tuple[GameRow, str | None, str | None]] = []
    for game, spot in pairs:
        stored = spot.game
        code = stored.result
        new_result: str | None = None
        if code in PGN_RESULTS or code is None:
            if game.result != "*" and code is not None and PGN_RESULTS[code] != game.result:
                problems.append(_mismatch(game, spot, code))
                continue
            if code is None and game.result != "*":
                if row.status != "running":
                    problems.append(
                        Message(
                            "{game}: {where} has no result and the tournament is {status}",
                            game=game.label,
                            where=spot.where,
                            status=row.status,
                        )
                    )
                    continue
                if battle_rules.is_battle(row.regulations):
                    problems.append(
                        Message(
                            "{game}: in battle chess record the result of {where} first, "
                            "then its moves",
                            game=game.label,
                            where=spot.where,
                        )
                    )
                    continue
                new_result = _CODES[game.result]
        else:  # not played, or an arbiter's result / a game played but not rated
            played = code in DECIDED and not battle_rules.is_battle(row.regulations)
            if game.moves and not played:
                problems.append(
                    Message(
                        "{game}: {where} was not played ({result}), so it has no moves",
                        game=game.label,
                        where=spot.where,
                        result=result_label(code),
                    )
                )
                continue
            expected = (DECIDED if played else UNPLAYED).get(code, ("*", ""))[0]
            if game.result not in ("*", expected):
                problems.append(_mismatch(game, spot, code))
                continue
        moves = game.text if game.moves else None
        plan.append((stored, moves, new_result))
        if len(problems) >= _MOST_PROBLEMS:
            break
    if problems:
        raise InputError(Message.joined("; ", problems), source=source)
    with_moves = results = 0
    for stored, moves, new_result in plan:
        values: dict[str, object] = {}
        if moves is not None:
            values["moves"] = moves
        if new_result is not None:
            values |= {"result": new_result, "reason": "normal"}
        had = stored.moves
        if values and tx.update(stored, **values):
            with_moves += moves is not None and had != moves
            results += new_result is not None
    if len(pairs) == 1:
        game, spot = pairs[0]
        if results:
            summary: str = Message(
                "{where}: {result} and the moves recorded from PGN (to move {count})",
                where=spot.where,
                result=game.result.replace("1/2", "½"),
                count=(len(game.moves) + 1) // 2,
            )
        else:
            summary = Message(
                "{where}: moves recorded from PGN (to move {count})",
                where=spot.where,
                count=(len(game.moves) + 1) // 2,
            )
    else:
        scope: Message = (
            Message("the tournament")
            if round_number is None
            else Message("round {round}", round=round_number)
        )
        summary = Message(
            "{scope}: PGN read (games: {games}, moves recorded: {moves}, "
            "results recorded: {results})",
            scope=scope,
            games=len(pairs),
            moves=with_moves,
            results=results,
        )
    done = Done(summary, {"games": len(pairs), "moves": with_moves, "results": results})
    return finish_by_itself(tx, done) if results else done


def _mismatch(game: PgnGame, spot: _Board, code: str) -> Message:
    return Message(
        "{game}: its result {pgn} is not the {recorded} recorded at {where}; correct the "
        "result first",
        game=game.label,
        pgn=game.result,
        recorded=result_label(code),
        where=spot.where,
    )


def _pgn_date(iso: str | None) -> str:
    return iso.replace("-", ".") if iso else ""


def _exported(
    row: TournamentRow, entries: dict[int, EntryRow], date: str | None, game: GameRow
) -> str:
    white, black = entries[game.white], entries[game.black]
    details = row.regulations or {}
    site = " ".join(
        str(part).strip()
        for part in (details.get("venue", ""), details.get("federation", ""))
        if str(part).strip()
    )
    comment = ""
    if game.result is None:
        result = "*"
    elif game.result in PGN_RESULTS:
        result = PGN_RESULTS[game.result]
    else:
        result, comment = UNPLAYED.get(game.result, ("*", ""))
        if game.result in DECIDED and not battle_rules.is_battle(details):
            result, comment = DECIDED[game.result]
    headers = [
        ("Event", row.name),
        ("Site", site),
        ("Date", _pgn_date(date or row.start_date)),
        ("Round", f"{game.round}.{game.board}"),
        ("White", white.name),
        ("Black", black.name),
        ("Result", result),
        ("WhiteTitle", white.title),
        ("BlackTitle", black.title),
        ("WhiteElo", str(white.rating) if white.rating else ""),
        ("BlackElo", str(black.rating) if black.rating else ""),
        ("WhiteFideId", white.fide_id),
        ("BlackFideId", black.fide_id),
        ("EventDate", _pgn_date(row.start_date)),
        ("TimeControl", pgn_time_control(row.time_control or "")),
    ]
    return tournament_game(headers, game.moves, comment).strip()


__all__ = ["PGN_RESULTS", "GameMoves", "PgnPlay"]
