"""What the command line and the web app show a user (issue 15 item 13): no requirement
numbers or source documents cited ("(R-RR-1)", "(seeds 001, 004)") in any command's help,
any page template, any error message or page text of the catalogues, or the demo; flags
without a ``<bool>`` type; a command's line in the list not cut mid-sentence; English
plurals; results typed as the arbiter writes them (``-+``, ``--``) without ``--``; and
``start`` printing the header before what happened."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import crosstable
from crosstable.cli import counted, full_command, main, result_arguments

#: a requirement number (R-RR-5, R-OR-2) or a seed of the specification's examples
CITATION = re.compile(r"\bR-[A-Z]{2}-\d|\bseeds? \d{3}\b|\bseeds? 0\d\d")
ROOT = Path(crosstable.__file__).parent


def command_paths() -> Iterator[list[str]]:
    """Every command and subcommand, as the words typed after ``crosstable``."""

    def walk(command: object, path: list[str]) -> Iterator[list[str]]:
        yield path
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            yield from walk(sub, [*path, name])

    yield from walk(full_command(), [])


def help_of(path: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main([*path, "--help"]) == 0, path
    return capsys.readouterr().out


def test_every_command_has_help_without_citations(capsys: pytest.CaptureFixture[str]) -> None:
    paths = list(command_paths())
    assert len(paths) > 30  # the tree was walked (player edit, schedule berger, trf …)
    assert ["player", "edit"] in paths
    found = []
    for path in paths:
        text = help_of(path, capsys)
        found += [f"crosstable {' '.join(path)}: {m}" for m in CITATION.findall(text)]
        assert "<bool>" not in text, path  # a flag has no type to show
    assert found == []


def test_the_command_list_keeps_each_line_whole(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of([], capsys)
    # "start"'s docstring breaks its first sentence in the source; the list does not
    block = text[text.index("\n  start ") :].split("\n  result ")[0]
    words = " ".join(block.split())
    assert words == (
        "start Start the tournament: a round robin's schedule (FIDE Berger tables), a Swiss's"
        " rounds and initial colour, a knockout's bracket."
    )


def _user_texts() -> Iterator[tuple[str, str]]:
    """(where, text) of what the web app shows: templates, error templates, page texts."""
    from babel.messages.pofile import read_po

    from crosstable.web.messages import CATALOGUE

    for template in sorted((ROOT / "web" / "templates").glob("*.html")):
        # comments are not shown: {# … #} and <!-- … -->
        text = re.sub(r"\{#.*?#\}|<!--.*?-->", "", template.read_text("utf-8"), flags=re.S)
        yield template.name, text
    for message in CATALOGUE:
        yield "web/messages.py", message
    for domain in ("messages", "errors"):
        with open(ROOT / "web" / "locale" / "ru" / "LC_MESSAGES" / f"{domain}.po", "rb") as po:
            for entry in read_po(po):
                ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
                strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
                for text in (*ids, *strings):
                    yield f"{domain}.po", str(text)


def test_pages_and_messages_cite_no_requirements_or_seeds() -> None:
    found = [f"{where}: {text[:90]!r}" for where, text in _user_texts() if CITATION.search(text)]
    assert found == []


def test_the_demo_cites_no_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--no-serve"]) == 0
    assert CITATION.findall(capsys.readouterr().out) == []


def test_tiebreak_explanations_cite_no_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    """``standings --explain`` (and the web's explanation panel, made from the same
    explanations) of every tie-break the core knows: the portal's ARO_RATED and DSB
    said "(seeds 000, 002)" to users."""
    from crosstable.core.tiebreaks import REGISTRY

    example = ROOT / "examples" / "club_rr6.trf"
    found = []
    for code in sorted(REGISTRY):
        for explain in ("1", "1,2"):
            argv = ["standings", str(example), "--tiebreaks", code, "--explain", explain]
            assert main(argv) == 0, argv
            out = capsys.readouterr().out
            assert f"{code} of player 1" in out or explain == "1,2", (code, out)
            found += [f"{code} --explain {explain}: {m}" for m in CITATION.findall(out)]
    assert len(REGISTRY) > 20 and found == []


def test_the_scan_finds_what_it_looks_for() -> None:
    for cited in ("players: 2 — needs 3 (R-RR-1)", "as in seed 003", "(seeds 001, 004)"):
        assert CITATION.search(cited), cited
    for fine in ("seeded by rating", "Seed of the drawing by lot", "seed 12345678 drawn"):
        assert not CITATION.search(fine), fine


def test_english_plurals() -> None:
    assert [counted(n, "round") for n in (0, 1, 2)] == ["0 rounds", "1 round", "2 rounds"]
    assert counted(1, "match", "matches") == "1 match"


def test_duration_and_schedule_say_round_and_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["duration", "--players", "4", "--time-control", "90+30"]) == 0
    out = capsys.readouterr().out
    assert "(s)" not in out and re.search(r"evening: 1 round\b", out), out
    assert main(["schedule", "berger", "8"]) == 0
    out = capsys.readouterr().out
    assert "7 rounds, 28 games; White first, left" in out  # one whole line, not wrapped
    assert "(s)" not in out


def test_results_with_a_dash_need_no_double_dash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "club.db")
    assert main(["new", "Club", "--db", db]) == 0
    for name in ("Anna", "Boris", "Clara", "Dmitri", "Eva", "Fyodor"):
        assert main(["player", "add", name, "--db", db]) == 0
    assert main(["draw", "--by", "hand", "--order", "1,2,3,4,5,6", "--db", db]) == 0
    capsys.readouterr()
    assert main(["start", "--db", db]) == 0
    out = capsys.readouterr().out
    assert out.startswith("#1 Club (running)\ntournament started"), out  # the header first
    assert main(["result", "1", "1", "-+", "--db", db]) == 0
    assert main(["result", "1", "2", "--", "--db", db]) == 0
    assert main(["result", "--db", db, "1", "3", "-/+"]) == 0
    assert main(["result", "1", "2", "-+", "--correct", "--db", db]) == 0
    assert main(["result", "1", "1", "--correct", "--db", db, "--", "+-"]) == 0  # as before
    capsys.readouterr()
    assert main(["show", "--round", "1", "--db", db]) == 0
    shown = capsys.readouterr().out.split("standings")[0]
    board = {int(line.split()[1]): line for line in shown.splitlines() if re.match(r"│ \d ", line)}
    assert "+-" in board[1] and "-+" in board[2] and "-+" in board[3], shown
    assert main(["result", "1", "1", "--bogus", "--db", db]) == 2  # options still checked


def test_result_arguments_leave_other_commands_alone() -> None:
    assert result_arguments(["show", "-r", "1"]) == ["show", "-r", "1"]
    assert result_arguments(["result", "--help"]) == ["result", "--help"]
