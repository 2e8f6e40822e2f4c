"""PGN (issue 16 item 4; docs/pgn.md): games read and checked with python-chess, moves
stored per game, per round and for the whole tournament in one recorded change each
(undo takes it back), the PGN's result against the recorded one, and the tournament's
PGN read back by python-chess (the round trip). SQLite and PostgreSQL."""
# ruff: noqa: F811 - pytest fixtures imported from test_service_support

from __future__ import annotations

import io

import chess.pgn
import pytest
from test_service_support import db_url, service, started, store  # noqa: F401

from crosstable.core.errors import InputError, RuleError
from crosstable.formats.pgn import MAX_MOVES, read_games, tournament_game
from crosstable.service import PlayerInfo, Regulations, Service
from crosstable.web.messages import translate

MATE = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#"


def _game(white: str, black: str, result: str, moves: str = MATE, round_: str = "") -> str:
    header = f'[Round "{round_}"]\n' if round_ else ""
    return (
        f'{header}[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n{moves} {result}\n'
    )


def _boards(service: Service, tid: int, rnd: int) -> dict[int, tuple[str, str]]:
    return {
        g.board: (g.white_name, g.black_name) for g in service.overview(tid).games if g.round == rnd
    }


# -- reading ---------------------------------------------------------------------------


def test_a_game_reads_with_its_headers_moves_and_result() -> None:
    (game,) = read_games(_game("Carlsen, Magnus", "Anna", "1-0"))
    assert game.result == "1-0" and game.header("White") == "Carlsen, Magnus"
    assert game.moves == ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#")
    assert "4. Qxf7# 1-0" in game.text


def test_variations_are_left_out_comments_kept() -> None:
    (game,) = read_games("1. e4 {best by test} (1. d4 d5 (1... Nf6)) e5 *")
    assert game.moves == ("e4", "e5") and "best by test" in game.text and "d4" not in game.text


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("1. e4 e5 2. Ke3 *", "White's move 2, Ke3, is illegal"),
        ("1. e4 e5 2. Nf3 Ke7 3. Nc3 Ke8 4. Nb5 Nf6 5. Nd4 *", "White's move 5, Nd4, is ambiguous"),
        ("1. e4 e5 2. Nf3 Nc6 3. Bb5 Qh4 4. O-O Qxe1 *", "Black's move 4, Qxe1, is illegal"),
        ('[FEN "not a position"]\n\n1. e4 *', "the FEN header is not a position"),
        ('[Variant "Atomic"]\n\n1. e4 *', "the variant 'Atomic' is not played here"),
        ('[Result "2-0"]\n\n1. e4 *', "Result '2-0' is not 1-0, 0-1, 1/2-1/2 or *"),
    ],
)
def test_a_bad_game_is_refused_naming_the_game_and_the_move(text: str, said: str) -> None:
    with pytest.raises(InputError) as refused:
        read_games("1. d4 d5 *\n\n" + text, source="r.pgn")
    assert said in str(refused.value)
    assert str(refused.value).startswith("r.pgn:3: game 2")


def test_an_illegal_move_is_refused_in_russian_too() -> None:
    with pytest.raises(InputError) as refused:
        read_games("1. e4 e5 2. Ke3 *", source="r.pgn")
    assert translate(refused.value.text, "ru") == (
        "r.pgn:1: партия 1: ход белых 2, Ke3, невозможен"
    )


def test_too_many_moves_are_refused() -> None:
    shuffle = " ".join(
        f"{n}. {'Nf3' if n % 2 else 'Ng1'} {'Nf6' if n % 2 else 'Ng8'}"
        for n in range(1, MAX_MOVES + 2)
    )
    with pytest.raises(InputError, match=f"more than {MAX_MOVES} moves"):
        read_games(shuffle + " *")
    assert len(read_games(shuffle.rsplit(f" {MAX_MOVES + 1}.", 1)[0] + " *")[0].moves) == 1200


def test_a_file_over_the_size_limit_is_refused_before_it_is_read() -> None:
    with pytest.raises(InputError, match="larger than"):
        read_games("1. e4 *\n" * (600_000))


def test_the_tournament_headers_go_over_the_games_own() -> None:
    (game,) = read_games('[Event "Blitz"]\n[ECO "C20"]\n[Result "1-0"]\n\n' + MATE + " 1-0")
    text = tournament_game([("Event", "Club"), ("Round", "2.1"), ("Result", "0-1")], game.text)
    again = chess.pgn.read_game(io.StringIO(text))
    assert again is not None
    assert again.headers["Event"] == "Club" and again.headers["Round"] == "2.1"
    assert again.headers["ECO"] == "C20" and again.headers["Result"] == "0-1"


# -- one game --------------------------------------------------------------------------


def test_a_games_moves_set_its_result_in_one_change_that_undo_takes_back(
    service: Service,
) -> None:
    tid = started(service, 4)
    white, black = _boards(service, tid, 1)[1]
    change = service.record_moves(tid, 1, 1, _game(white, black, "1-0"))
    assert change.kind == "moves"
    assert change.summary == "round 1 board 1: 1-0 and the moves recorded from PGN (to move 4)"
    game = service.game_moves(tid, 1, 1)
    assert game.result == "1-0" and game.pgn is not None and "Qxf7#" in game.pgn
    assert service.standings(tid).rows[0].points == 1 if hasattr(service, "standings") else True
    assert service.history(tid)[-1].kind == "moves"
    service.undo(tid)
    game = service.game_moves(tid, 1, 1)
    assert game.result == "" and game.pgn is None
    assert service.verify(tid) == []


def test_moves_of_a_game_with_its_result_recorded_must_agree(service: Service) -> None:
    tid = started(service, 4)
    white, black = _boards(service, tid, 1)[1]
    service.record_result(tid, 1, 1, "0-1")
    with pytest.raises(InputError) as refused:
        service.record_moves(tid, 1, 1, _game(white, black, "1-0"))
    said = str(refused.value)
    assert "its result 1-0 is not the 0-1 recorded at round 1 board 1" in said
    assert "correct the result first" in said
    assert service.game_moves(tid, 1, 1).pgn is None
    # "*" agrees with any result: the moves only
    change = service.record_moves(tid, 1, 1, _game(white, black, "*"))
    assert change.summary == "round 1 board 1: moves recorded from PGN (to move 4)"
    assert service.game_moves(tid, 1, 1).result == "0-1"


def test_a_games_pgn_with_other_players_or_several_games_is_refused(service: Service) -> None:
    tid = started(service, 4)
    white, black = _boards(service, tid, 1)[1]
    with pytest.raises(InputError, match="its players are not those of round 1 board 1"):
        service.record_moves(tid, 1, 1, _game("Nobody", "Else", "1-0"))
    two = _game(white, black, "1-0") + "\n" + _game(white, black, "1-0")
    with pytest.raises(InputError, match="must hold one game, not 2"):
        service.record_moves(tid, 1, 1, two)
    with pytest.raises(InputError, match="has no moves"):
        service.record_moves(tid, 1, 1, f'[White "{white}"]\n[Result "1-0"]\n\n1-0')
    with pytest.raises(Exception, match="round 1 has no board 7"):
        service.record_moves(tid, 1, 7, _game(white, black, "1-0"))


def test_a_forfeit_has_no_moves(service: Service) -> None:
    tid = started(service, 4)
    white, black = _boards(service, tid, 1)[1]
    service.record_result(tid, 1, 1, "+-")
    with pytest.raises(InputError, match=r"was not played \(\+-\), so it has no moves"):
        service.record_moves(tid, 1, 1, _game(white, black, "1-0"))


def test_a_game_server_retrying_with_its_key_gets_the_first_answer(service: Service) -> None:
    tid = started(service, 4)
    white, black = _boards(service, tid, 1)[1]
    first = service.record_moves(tid, 1, 1, _game(white, black, "1-0"), idempotency_key="g1")
    again = service.record_moves(tid, 1, 1, _game(white, black, "1-0"), idempotency_key="g1")
    assert again.replayed and again.seq == first.seq
    with pytest.raises(Exception, match="idempotency key 'g1' was already used"):
        service.record_moves(tid, 1, 1, _game(white, black, "*", "1. d4"), idempotency_key="g1")


def test_moves_may_be_given_after_the_finish_when_the_results_agree(service: Service) -> None:
    tid = started(service, 4)
    for game in service.overview(tid).games:
        service.record_result(tid, game.round, game.board, "1-0")
    service.finish(tid)
    white, black = _boards(service, tid, 1)[1]
    change = service.record_moves(tid, 1, 1, _game(white, black, "1-0"))
    assert change.summary == "round 1 board 1: moves recorded from PGN (to move 4)"
    with pytest.raises(InputError, match="its result 0-1 is not the 1-0 recorded"):
        service.record_moves(tid, 1, 2, _game(*_boards(service, tid, 1)[2], "0-1"))


# -- a round, the whole tournament -----------------------------------------------------


def test_a_rounds_pgn_is_matched_by_names_and_round_headers(service: Service) -> None:
    tid = started(service, 4)
    boards = _boards(service, tid, 1)
    (w1, b1), (w2, b2) = boards[1], boards[2]
    surname_first = f"{b2}, X"  # "Surname, Name" with other words: matched by Round "1.2"
    text = (
        _game(w1.upper(), b1, "1/2-1/2", "1. e4 e5")
        + "\n"
        + _game(w2, surname_first, "*", "1. d4 d5", round_="1.2")
    )
    change = service.import_pgn(tid, text, round_number=1)
    assert change.summary == (
        "round 1: PGN read (games: 2, moves recorded: 2, results recorded: 1)"
    )
    assert service.game_moves(tid, 1, 1).result == "½-½"
    assert service.game_moves(tid, 1, 2).result == ""
    assert "1. d4 d5" in (service.game_moves(tid, 1, 2).pgn or "")
    assert service.games_with_moves(tid) == {(1, 1), (1, 2)}
    service.undo(tid)  # one change: both games' moves and the result
    assert service.games_with_moves(tid) == set()
    assert service.game_moves(tid, 1, 1).result == ""


def test_unmatched_ambiguous_and_doubled_games_are_refused_naming_them(service: Service) -> None:
    tid = started(service, 4)
    boards = _boards(service, tid, 1)
    (w1, b1), (w2, b2) = boards[1], boards[2]
    text = "\n".join(
        [
            _game("Nobody", "Else", "1-0"),  # game 1: no such players
            _game(b1, w1, "1-0"),  # game 2: colours the other way round
            _game(w2, b2, "1-0", round_="3.1"),  # game 3: another round
            _game(w2, b2, "*", round_="1.2"),  # game 4: fine
            _game(w2, b2, "*", round_="1.2"),  # game 5: board 2 is game 4's
        ]
    )
    with pytest.raises(InputError) as refused:
        service.import_pgn(tid, text, round_number=1)
    said = str(refused.value)
    assert 'game 1 (White "Nobody" – Black "Else", Round "?"): no board of round 1' in said
    assert "game 2 " in said and "the colours are the other way round" in said
    assert "game 3 " in said and "it is of round 3, not of round 1" in said
    assert "game 5 " in said and "round 1 board 2 is game 4's already" in said
    assert "game 4 " not in said
    assert service.games_with_moves(tid) == set()  # refused whole
    russian = translate(refused.value.text, "ru")
    assert "партия 1" in russian and "цвета наоборот" in russian


def test_the_same_pair_twice_in_a_round_needs_the_round_header(service: Service) -> None:
    """A double round robin's second cycle is another round, but a round can only have a
    pair once: several boards with the same pair need a Round "r.b" header."""
    tid = started(service, 4, cycles=2)
    text = "\n".join(_game(w, b, "*", round_="") for w, b in [_boards(service, tid, 1)[1]])
    change = service.import_pgn(tid, text, round_number=1)
    assert change.summary.startswith("round 1 board 1: moves recorded")
    with pytest.raises(InputError, match=r"which round it is of is not known"):
        service.import_pgn(tid, text)  # the whole tournament: the round must be given


def test_the_tournaments_pgn_reads_back_with_python_chess_and_imports_again(
    service: Service,
) -> None:
    regulations = Regulations(
        name='Club "Winter" 2026',
        time_control="90+30",
        start_date=None,
        details={"venue": "Moscow", "federation": "RUS"},
    )
    tid = service.create_tournament(regulations).tournament_id
    for name, rating, fide, title in [
        ("Carlsen, Magnus", 2830, "1503014", "GM"),
        ("Anna", 1900, "", ""),
        ("Boris", None, "", ""),
        ("Clara", 2100, "24116068", "WIM"),
    ]:
        service.add_player(tid, PlayerInfo(name, rating=rating, fide_id=fide, title=title))
    from crosstable.core.model import LotsMethod

    service.draw_lots(tid, LotsMethod.MANUAL, order=(1, 2, 3, 4))
    service.start(tid)
    games = [g for g in service.overview(tid).games if g.round == 1]
    first, second = games
    service.record_moves(tid, 1, first.board, _game(first.white_name, first.black_name, "1-0"))
    service.record_result(tid, 1, second.board, "-+")
    text = service.export_pgn(tid)
    handle = io.StringIO(text)
    read = []
    while (game := chess.pgn.read_game(handle)) is not None:
        assert game.errors == []
        read.append(game)
    # every game, with or without moves, but the forfeit: it was not played, and a game
    # database counts every record as a game played
    assert len(read) == len(service.overview(tid).games) - 1
    assert not any(g.headers["Round"] == f"1.{second.board}" for g in read)
    one = read[0].headers
    assert list(one)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert one["Event"] == 'Club "Winter" 2026' and one["Site"] == "Moscow RUS"
    assert one["Round"] == f"1.{first.board}" and one["Result"] == "1-0"
    assert one["TimeControl"] == "5400+30"
    carlsen = next(g for g in read if "Carlsen, Magnus" in (g.headers["White"], g.headers["Black"]))
    side = "White" if carlsen.headers["White"] == "Carlsen, Magnus" else "Black"
    assert carlsen.headers[f"{side}Elo"] == "2830" and carlsen.headers[f"{side}FideId"] == "1503014"
    assert carlsen.headers[f"{side}Title"] == "GM"
    assert [m.uci() for m in read[0].mainline_moves()][-1] == "h5f7"
    later = read[1]
    assert later.headers["Result"] == "*" and later.headers["Round"] == "2.1"
    # the file reads back into the tournament (every game matches its board by its Round
    # header, the results agree); the game is kept as the file has it, so reading it a
    # second time changes nothing
    first_read = service.import_pgn(tid, text)
    assert first_read.data == {"games": len(read), "moves": 1, "results": 0}
    assert service.import_pgn(tid, text).replayed
    assert service.export_pgn(tid) == text
    assert service.verify(tid) == []


def test_moves_go_into_the_tournament_document_and_come_back(service: Service) -> None:
    tid = started(service, 4)
    white, black = _boards(service, tid, 1)[1]
    service.record_moves(tid, 1, 1, _game(white, black, "1-0"))
    document = service.export_json(tid)
    assert any(g.get("moves") for g in document["games"])
    copy = service.import_json(document)
    assert "Qxf7#" in (service.game_moves(copy, 1, 1).pgn or "")
    assert service.verify(copy) == []


def test_no_moves_before_the_start(service: Service) -> None:
    tid = service.create_tournament(Regulations(name="Club")).tournament_id
    with pytest.raises(RuleError, match="has not started"):
        service.import_pgn(tid, "1. e4 *")


def test_the_moves_of_all_games_of_one_text_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """python-chess replays every move, so a text's time grows with its moves: the
    bound is on all of them (MAX_TOTAL_MOVES), not only per game."""
    import crosstable.formats.pgn as pgn

    monkeypatch.setattr(pgn, "MAX_TOTAL_MOVES", 10)
    six = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 *\n\n"
    assert len(read_games(six)[0].moves) == 12
    with pytest.raises(InputError, match="more than 10 moves in all the games of one PGN"):
        read_games(six + six, source="two.pgn")


def test_each_game_is_named_by_the_line_it_starts_on() -> None:
    """The lines are counted forwards through the text (they were the whole rest of the
    text split into lines per game: a 2 000-game file took minutes; docs/pgn.md)."""
    game = '[White "A"]\n[Black "B"]\n[Result "*"]\n\n*\n\n'
    games = read_games("% a comment line\n\n" + game * 2_000)
    assert len(games) == 2_000
    assert [g.line for g in games[:3]] == [3, 9, 15] and games[-1].line == 3 + 6 * 1_999
    with pytest.raises(InputError) as refused:
        read_games(game * 3 + "\n\n1. e4 e5 2. Ke3 *", source="x.pgn")
    assert str(refused.value).startswith("x.pgn:21: game 4: ")


def test_names_are_compared_by_their_words_digits_included() -> None:
    from crosstable.formats.pgn import names_agree, same_name

    assert same_name("CARLSEN, Magnus", "Magnus Carlsen")
    assert not same_name("Player 21", "Player 40")  # (digits were dropped: both "player")
    assert names_agree("Carlsen, M.", "Magnus Carlsen") and names_agree("", "Anna")
    assert not names_agree("Nobody", "Anna")


def test_a_moves_change_is_taken_by_the_live_table_in_one_step(service: Service) -> None:
    """Moves change no standing: the live table and the pages' read model take the
    change as they take a result (only the game's version moves on), not by a rebuild."""
    from crosstable.core.row_changes import read_changes
    from crosstable.service.live import results_only

    tid = started(service, 4)
    white, black = _boards(service, tid, 1)[1]
    service.record_moves(tid, 1, 1, _game(white, black, "*"))
    with service.store.reading() as session:
        from sqlalchemy import select

        from crosstable.store.models import EventRow

        changes = session.scalars(
            select(EventRow.changes).where(EventRow.tournament_id == tid, EventRow.kind == "moves")
        ).one()
    assert [set(c["after"]) for c in changes] == [{"moves"}]
    assert results_only(read_changes(changes))
    assert service.overview(tid).games[0].version == 2
