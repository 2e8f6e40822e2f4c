"""Small events where the FIDE Dutch rules in force (C.04.3, 2026) decide a
pairing that the 2017 text, as py4swiss follows it, pairs differently.

Each file in tests/data/dutch/ is a random event from the cross-check
(``python bench/bench_dutch.py --crosscheck``), cut before the round to pair.
The comment of each test gives the rule that decides it; the expected pairing
is worked out from that rule (the other boards are the same for every reading).
"""

from __future__ import annotations

from pathlib import Path

from crosstable.cli.pair import request_from_document
from crosstable.core.pairing.dutch import pair_round
from crosstable.formats.trf import read_trf

HERE = Path(__file__).parent / "data" / "dutch"


def _pairing(name: str) -> tuple[list[list[int]], int | None]:
    pairing = pair_round(request_from_document(read_trf(HERE / f"{name}.trf")))
    return [list(board) for board in pairing.boards], pairing.bye


def test_c5_gives_the_pab_to_the_lowest_score_possible() -> None:
    # Last round, 7 players. Only 1 (4.0), 3 (3.0) and 4 (2.5) may take the
    # PAB (C2: 2, 5, 6 and 7 already had one). C5 asks for the lowest score
    # with which the rest can still be paired: 4 (2.5) can take it, so the top
    # players float down to 6 and 5 instead of pairing 3-4 and giving the PAB
    # to the leader (the 2017 text had no C5: py4swiss gives it to 1).
    boards, bye = _pairing("c5_pab_lowest_score")
    assert bye == 4
    assert boards == [[1, 6], [3, 5], [7, 2]]


def test_c9_gives_the_pab_to_the_candidate_with_fewest_unplayed_games() -> None:
    # Round 7, PAB at 2.0: 11 and 18 are the eligible players on that score
    # (17 and 19 had a PAB). 11 played all six rounds, 18 took a half-point
    # bye in round 4. C9 minimises the PAB recipient's unplayed games, so 11
    # gets it and 18 plays 15 (py4swiss, without C9, gives it to 18).
    boards, bye = _pairing("c9_pab_fewest_unplayed")
    assert bye == 11
    assert [15, 18] in boards
    assert boards == [
        [1, 6],
        [4, 2],
        [5, 8],
        [9, 3],
        [13, 10],
        [12, 14],
        [20, 19],
        [21, 17],
        [15, 18],
    ]


def test_a_zero_point_bye_is_no_downfloat() -> None:
    # Round 5. The 2.0 scoregroup is 4, 5 and 8; 4 met 8 already, so either
    # 4-5 (8 floats) or 5-8 (4 floats). 8 downfloated two rounds ago (C16);
    # 4 was absent last round with a zero-point bye, which under art. 1.4.3
    # (2026) is no downfloat, because it scores no more than a loss. So 4
    # floats (to 9) and 5-8 play. Under the 2017 text "a player who does not
    # play receives a downfloat" 4 would count under C14 and 8 would float.
    # A forfeit loss is the same case (no game, no points).
    boards, bye = _pairing("zero_point_bye_no_downfloat")
    assert [5, 8] in boards
    assert [4, 9] in boards
    assert boards == [[1, 3], [5, 8], [4, 9], [11, 10]]
    assert bye == 7


def test_c8_counts_next_bracket_pairs_of_a_complete_pairing_only() -> None:
    # Round 5, 9 players, PAB at 2.0 (C5: 6, 8 and 9 at 1.0 had a PAB). In the
    # 3.0 scoregroup 1 has met 2, 3 and 4, so one pair and two floaters: 2-4
    # (1 and 3 float), 2-3 (1 and 4) or 3-4 (1 and 2). Pairing 1-7 and 4-5 in
    # the 2.0 bracket would make two pairs there, but then nobody at 2.0 is
    # left for the PAB, which C4/C5 rank above C8: with the PAB on 5 or 7
    # every choice gives one pair at 2.0, so C8 ties. C14 then counts floaters
    # who also floated down last round: 1 and 4 did, 2 and 3 did not, which
    # rules out 2-3; of 2-4 and 3-4 the generation order takes 2-4 (S1 = {2}
    # with the fewest exchanges). py4swiss counts the two pairs at 2.0 and
    # floats 1 and 4.
    boards, bye = _pairing("c8_next_bracket_with_completion")
    assert [4, 2] in boards
    assert boards == [[4, 2], [1, 7], [6, 3], [9, 8]]
    assert bye == 5
