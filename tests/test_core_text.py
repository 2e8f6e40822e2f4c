"""Messages that carry their own parameters (issue 14 item 4): the English text is what an
f-string made, the template and the parameters survive JSON and pickling, every error
keeps them, and the web translates one by a gettext lookup of its template."""

from __future__ import annotations

import json
import pickle
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crosstable.core.errors import CrosstableError, InputError, RuleError, ScheduleError
from crosstable.core.text import Message
from crosstable.service.errors import ConflictError, NotFoundError


def test_the_english_text_is_the_f_strings() -> None:
    round_, board, result = 3, 2, "1-0"
    where = Message("round {round} board {board}", round=round_, board=board)
    message = Message("{where} already has {result}", where=where, result=result)
    assert message == f"round {round_} board {board} already has {result}"
    assert type(str(message)) is str and isinstance(message, str)
    assert message.template == "{where} already has {result}"
    assert message.params == {"where": where, "result": "1-0"}
    assert message.params["where"].params == {"round": 3, "board": 2}  # numbers stay numbers
    points, share = "2½", 0.5
    assert Message("{points} points, {share} of them", points=points, share=share) == (
        f"{points} points, {share} of them"
    )
    # a constant is its own template, braces and all
    assert Message("no {such} value").template == "no {such} value" == Message("no {such} value")


def test_a_list_keeps_its_items() -> None:
    items = [Message("round {round}", round=1), "Anna", Message("round {round}", round=2)]
    listed = Message.joined("; ", items)
    assert listed == "round 1; Anna; round 2"
    assert listed.is_list and not items[0].is_list
    assert list(listed.params.values()) == items
    russian = {"round {round}": "тур {round}"}
    assert listed.render(lambda t: russian.get(t, t), str) == "тур 1; Anna; тур 2"
    assert Message.joined(", ", []) == ""
    assert Message.joined("{x}", ["a", "b"]) == "a{x}b"  # (a brace in the separator)


def test_render_translates_the_template_and_each_value() -> None:
    russian = {
        "{count} games have no result yet: {listed}": "партий без результата: {count} ({listed})",
        "round {round} board {board}": "тур {round}, доска {board}",
        "running": "идёт",
    }
    seen: list[object] = []

    def number(value: object) -> str:
        seen.append(value)
        return str(value).replace(".", ",")

    listed = Message.joined(
        ", ", [Message("round {round} board {board}", round=r, board=1) for r in (1, 2)]
    )
    message = Message("{count} games have no result yet: {listed}", count=2, listed=listed)
    assert message.render(lambda t: russian.get(t, t), number) == (
        "партий без результата: 2 (тур 1, доска 1, тур 2, доска 1)"
    )
    assert Message("it is {status}, {share}", status="running", share=0.5).render(
        lambda t: russian.get(t, t), number
    ) == ("it is идёт, 0,5")
    assert 0.5 in seen and 2 in seen


def message_trees() -> st.SearchStrategy[Message]:
    names = st.sampled_from(["round", "board", "where", "count", "value"])
    leaves = st.one_of(
        st.text(max_size=8),
        st.integers(-(10**6), 10**6),
        st.fractions(max_denominator=4),
        st.floats(allow_nan=False, allow_infinity=False),
        st.booleans(),
        st.none(),
    )

    def message(children: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
        return st.one_of(
            st.builds(
                lambda text, params: Message(
                    text + " ".join("{" + name + "}" for name in params), **params
                ),
                st.text(max_size=10),
                st.dictionaries(names, children, max_size=3),
            ),
            st.builds(
                Message.joined, st.sampled_from(["; ", ", "]), st.lists(children, max_size=3)
            ),
        )

    tree = st.recursive(leaves, message, max_leaves=8)
    return st.builds(lambda value: Message("{value}", value=value), tree)


@settings(max_examples=150, deadline=None)
@given(message_trees())
def test_json_round_trip(message: Message) -> None:
    stored = json.loads(json.dumps(message.to_json()))
    back = Message.from_json(stored)
    assert back == message
    assert back.template == message.template
    assert back.to_json() == message.to_json()
    assert back.params == message.params


def test_pickling_keeps_the_template() -> None:
    message = Message("{where} has {n}", where=Message("round {r}", r=1), n=Fraction(1, 2))
    back = pickle.loads(pickle.dumps(message))
    assert back == message and back.template == message.template
    assert back.params == message.params
    error = pickle.loads(pickle.dumps(RuleError("there is no round {round}", round=4)))
    assert str(error) == "there is no round 4"


@pytest.mark.parametrize("kind", [CrosstableError, RuleError, ScheduleError, NotFoundError])
def test_every_error_takes_a_template_and_parameters(kind: type[CrosstableError]) -> None:
    error = kind("there is no round {round} (rounds 1–{rounds})", round=9, rounds=7)
    assert str(error) == "there is no round 9 (rounds 1–7)"
    assert error.template == "there is no round {round} (rounds 1–{rounds})"
    assert error.params == {"round": 9, "rounds": 7}
    assert error.text.template == error.template
    # a constant message is its own template; a Message made beforehand is kept
    assert kind("there is nothing to undo").template == "there is nothing to undo"
    made = Message("{count} results", count=2)
    assert kind(made).text is made
    # an error carrying another's message keeps its template
    assert kind(error).template == error.template


def test_conflict_and_input_errors_keep_their_own_arguments() -> None:
    conflict = ConflictError(
        "{where} already has {result}", current="1-0", where="r1", result="1-0"
    )
    assert (str(conflict), conflict.current) == ("r1 already has 1-0", "1-0")
    assert conflict.params == {"where": "r1", "result": "1-0"}
    bad = InputError("{field} is not a number", source="a.trf", line=3, column=49, field="rating")
    assert str(bad) == "a.trf:3:49: rating is not a number"
    assert (bad.template, bad.params) == ("{field} is not a number", {"field": "rating"})
    assert bad.message == "rating is not a number" and bad.location() == "a.trf:3:49"


# -- the web layer: a gettext lookup of the template ----------------------------------


def test_the_web_translates_a_message_by_its_template() -> None:
    pytest.importorskip("babel")
    from crosstable.web import messages

    assert not hasattr(messages, "matches")  # (no regular expressions: a gettext lookup)
    where = Message("round {round} board {board}", round=3, board=2)
    message = Message(
        "{where} already has {result}; to change it, correct the result", where=where, result="1-0"
    )
    assert messages.translate(message, "ru") == (
        "тур 3, доска 2: уже записан результат 1-0; чтобы его изменить, исправьте результат"
    )
    assert messages.translate(message, "en") == str(message)
    started = RuleError("the tournament has already started (it is {status})", status="running")
    assert messages.error_text(started, "ru") == "турнир уже начался (состояние: идёт)"
    missing = Message.joined(
        ", ", [Message("round {round} board {board}", round=1, board=b) for b in (1, 2)]
    )
    assert (
        messages.translate(
            Message("{count} games have no result yet: {listed}", count=2, listed=missing), "ru"
        )
        == "партий без результата: 2 (тур 1, доска 1, тур 1, доска 2)"
    )


def test_numbers_in_the_readers_notation() -> None:
    from crosstable.web import messages

    template = "{where} is {result} now, not {guard}"
    message = Message(template, where="x", result=0.5, guard=Fraction(3, 4))
    assert messages.translate(message, "en") == "x is 0.5 now, not 3/4"
    russian = messages.translate(message, "ru")
    assert "0,5" in russian and "0,75" in russian and "0.5" not in russian


def test_an_input_error_keeps_its_place_and_translates_its_message() -> None:
    from crosstable.web import messages

    bad = InputError("{where} must be an object", where="$.players[0]", source="upload.json")
    russian = messages.error_text(bad, "ru")
    assert russian.startswith("upload.json: $.players[0] ")
    assert "must be an object" not in russian
    assert messages.error_text(bad, "en") == str(bad)
