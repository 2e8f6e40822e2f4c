"""Every command shown in the README and in docs/ is one the program accepts, as printed.

* Every line and code span that shows a ``crosstable`` command names a command that
  exists and only options that command has.
* Every concrete line of a fenced block (no placeholder such as ``FILE`` or ``[--round R]``)
  is accepted by the real parser as printed, and runs: each document's lines in order, on a
  database of their own, in a folder holding the files they name. A run may end with a
  refusal that names what is wrong (exit status 2: the documents show some on purpose), never
  with a usage error or a traceback. ``serve`` and ``demo`` start a web server: they are
  parsed, not run (their start is tested in tests/test_demo.py and tests/test_web_*.py).
"""

from __future__ import annotations

import importlib
import re
import shlex
import shutil
from collections import defaultdict
from pathlib import Path

import pytest
from starlette.routing import Match

from crosstable import cli
from crosstable.cli.catalogue import module_of
from crosstable.web.app import create_app
from tests.docs_commands import ROOT, Shown, documents, shown_commands, shown_scripts

SHOWN = shown_commands()
#: the file a line's ``*.trf`` stands for: a Swiss of 21 players, 6 rounds
EXAMPLE_TRF = ROOT / "tests" / "data" / "dutch" / "c9_pab_fewest_unplayed.trf"
#: commands that start a server instead of ending
SERVERS = {("serve",), ("demo",)}
#: commands that read or write no database: each line of them must succeed as printed,
#: except the refusals a document shows on purpose (below)
STANDALONE = {
    "schedule",
    "duration",
    "standings",
    "pair",
    "check",
    "trf",
    "ratings",
    "norms",
    "generate",
    "engine",
    ("series", "slots"),
    ("series", "groups"),
    ("series", "plan"),
}
#: lines a document shows to explain a refusal: (document, a piece of the line)
SHOWN_REFUSED = {
    ("docs/series.md", "--kind regular"),  # a regular series has no calendar slots
    ("docs/series.md", "--kind weekend --day 3"),  # a day of the month for a weekend series
    ("docs/series.md", "Mars/Olympus"),  # an unknown time zone
    ("docs/series.md", "--players 5 --max-size 4"),  # five players cannot make such groups
}
PGN = (
    '[Event "Club"]\n[Site "?"]\n[Date "2026.12.01"]\n[Round "1"]\n[White "A"]\n'
    '[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
)


def resolve(words: tuple[str, ...]) -> tuple[object, list[str], tuple[str, ...]]:
    """The command the words name, the path to it and the words left for it."""
    command: object = cli.full_command()
    path: list[str] = []
    rest = list(words)
    while rest and hasattr(command, "commands") and rest[0] in command.commands:
        command = command.commands[rest[0]]
        path.append(rest.pop(0))
    return command, path, tuple(rest)


def options_of(command: object) -> set[str]:
    names = {"--help"}
    settings = getattr(command, "context_settings", None) or {}
    if settings.get("ignore_unknown_options"):  # reads its own flags (engine)
        help_text = getattr(command, "help", "") or ""
        module = module_of(getattr(command, "name", "") or "")
        source = importlib.import_module(f"crosstable.cli.{module}").__doc__ if module else ""
        words = f"{help_text} {source}".replace("[", " ").replace("]", " ").replace("|", " ")
        names.update(w.rstrip(".,;:)") for w in words.split() if w.startswith("-"))
    for param in getattr(command, "params", []):
        names.update(getattr(param, "opts", []))
        names.update(getattr(param, "secondary_opts", []))
    return names


def option_words(words: tuple[str, ...]) -> list[str]:
    """The options a line names (``--format``, ``-o``), not results typed as the arbiter
    writes them (``-+``, ``--``) nor negative numbers."""
    found = []
    for word in words:
        word = word.strip("[]()").split("|")[0]
        if word.startswith("-") and word not in cli.DASHED_RESULTS and word != "-":
            head = word.split("=", 1)[0]
            if not head.lstrip("-")[:1].isdigit():
                found.append(head)
    return found


def test_the_documents_show_commands() -> None:
    fenced = [s for s in SHOWN if s.fenced and not s.template]
    assert len(SHOWN) > 150 and len(fenced) > 60  # the extraction found the documents' lines


@pytest.mark.parametrize("shown", SHOWN, ids=lambda s: s.where)
def test_a_shown_command_and_its_options_exist(shown: Shown) -> None:
    command, path, rest = resolve(shown.words)
    assert path, f"{shown.where}: {shown.text}: no such command"
    if hasattr(command, "commands") and not (rest and rest[0].lstrip("[").startswith("-")):
        # a group named alone, or followed by alternatives
        assert (
            not rest or rest[0].strip("[]").split("|")[0] in command.commands or "|" in rest[0]
        ), f"{shown.where}: {shown.text}: {rest[0]} is not a command of {' '.join(path)}"
        return
    # a command, or a group with options of its own (`crosstable backup --db FILE`)
    unknown = [o for o in option_words(rest) if o not in options_of(command)]
    assert unknown == [], f"{shown.where}: {shown.text}: no such option {unknown}"


def _prepare(folder: Path, lines: list[Shown]) -> set[str]:
    """The files the lines read, in the folder they run in (not those a line writes)."""
    written = {w for s in lines for a, w in zip(s.words, s.words[1:], strict=False) if a == "-o"}
    made = set()
    for shown in lines:
        for word in shown.words:
            target = folder / word
            if "/" in word or target.exists() or word in written:
                continue
            made.add(word)
            if word.endswith(".trf"):
                shutil.copy(EXAMPLE_TRF, target)
            elif word.endswith(".csv"):
                target.write_text("name,rating\nAnna,2210\nBoris,2105\nCarla,1990\n", "utf-8")
            elif word.endswith(".pgn"):
                target.write_text(PGN, encoding="utf-8")
            elif word.endswith(".txt") and "schedule" in shown.words:
                (folder / word).write_text("1: 1-4 2-3\n2: 4-3 1-2\n3: 2-4 3-1\n", "utf-8")
            else:
                made.discard(word)
    return made


BY_DOCUMENT: dict[str, list[Shown]] = defaultdict(list)
for _shown in SHOWN:
    if _shown.fenced and not _shown.template:
        BY_DOCUMENT[_shown.where.split(":")[0]].append(_shown)


@pytest.mark.parametrize("document", sorted(BY_DOCUMENT))
def test_the_concrete_lines_of_a_document_run_as_printed(
    document: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = BY_DOCUMENT[document]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CROSSTABLE_DB", str(tmp_path / "docs.db"))
    made = _prepare(tmp_path, lines)
    refused = []
    for shown in lines:
        command, path, rest = resolve(shown.words)
        # the real parser, as printed: an unknown option, a missing or extra argument or a
        # value of the wrong kind is a usage error here
        context = command.make_context(" ".join(path), list(rest))  # type: ignore[attr-defined]
        context.close()
        if tuple(path) in SERVERS and "--no-serve" not in rest:
            continue
        status = cli.main(list(shown.words))
        out = capsys.readouterr()
        # `check` ends with 1 when the file breaks the rules (the example is a round robin)
        allowed = (0, 1, 2) if path == ["check"] else (0, 2)
        assert status in allowed, f"{shown.where}: {shown.text}: exit {status}\n{out.err}"
        shown_refused = any(document == d and piece in shown.text for d, piece in SHOWN_REFUSED)
        reads_session_file = any(
            w.endswith((".trf", ".json")) and w not in made for w in shown.words
        )  # a file an earlier line of the session wrote
        standalone = (path[0] in STANDALONE or tuple(path[:2]) in STANDALONE) and not (
            reads_session_file
        )
        if status == 2:
            assert out.err.startswith("crosstable: ") and "Traceback" not in out.err, out.err
            refused.append(f"{shown.where}: {shown.text}: {out.err.strip()}")
            # a line that needs no database must succeed, unless shown as a refusal;
            # a line of a session may be refused by what the reader left out ("… every player")
            assert shown_refused or not standalone, refused[-1]
        else:
            assert not shown_refused, f"{shown.where}: {shown.text}: shown refused, but ran"


@pytest.mark.parametrize(("where", "line"), shown_scripts(), ids=lambda v: str(v)[:60])
def test_a_shown_script_exists_with_its_options(where: str, line: str) -> None:
    words = shlex.split(line.replace("[", " ").replace("]", " ").replace("|", " "))
    if words[1:3] == ["-m", "pytest"]:
        for word in words[3:]:
            if word.startswith("tests/"):
                assert (ROOT / word.split("::")[0]).exists(), f"{where}: {line}: no {word}"
        return
    script = ROOT / words[1]
    assert script.exists(), f"{where}: {line}: no such script"
    if script.suffix == ".py":  # each option it is shown with is one it reads
        source = script.read_text(encoding="utf-8")
        for word in words[2:]:
            if word.startswith("--"):
                assert f'"{word.split("=")[0]}"' in source, f"{where}: {line}: {word} unknown"


def shown_requests() -> list[tuple[str, str, str]]:
    """(where, method, path) of every ``curl`` request shown in the documents."""
    found = []
    for path in documents():
        text = path.read_text(encoding="utf-8").replace("\\\n", " ")
        for match in re.finditer(r"curl (?:-X (\w+) )?\S*?https?://[^/\s]+(/[^\s?'\"`]*)", text):
            line = text.count("\n", 0, match.start()) + 1
            where = f"{path.relative_to(ROOT)}:{line}"
            found.append((where, match.group(1) or "GET", match.group(2)))
    return found


def test_every_shown_request_has_its_route(tmp_path: Path) -> None:
    requests = shown_requests()
    assert requests  # docs/api.md and docs/deploy.md show some
    app = create_app(str(tmp_path / "routes.db"), listen=False)

    def served(method: str, path: str) -> bool:
        scope = {
            "type": "http",
            "method": method,
            "path": path,
            "root_path": "",
            "query_string": b"",
            "headers": [],
        }
        return any(route.matches(scope)[0] is Match.FULL for route in app.router.routes)

    nginx = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    missing = [
        f"{where}: {method} {path}"
        for where, method, path in requests
        # nchan's own locations are nginx's (deploy/nginx.conf), the rest the app's
        if not (served(method, path) or f"location = {path} " in nginx)
    ]
    assert missing == []


def test_a_wrong_command_or_option_would_be_found() -> None:
    # the checks above see what a document could get wrong
    command, path, rest = resolve(("player", "edit", "3", "--ratng", "2140"))
    assert path == ["player", "edit"]
    assert [o for o in option_words(rest) if o not in options_of(command)] == ["--ratng"]
    assert resolve(("pairings", "FILE.trf"))[1] == []
    command, path, rest = resolve(("engine", "--dutch", "x.trf", "-q"))
    assert [o for o in option_words(rest) if o not in options_of(command)] == ["-q"]
    with pytest.raises(Exception, match="No such option"):
        resolve(("standings", "x.trf", "--formatt", "json"))[0].make_context(  # type: ignore[attr-defined]
            "standings", ["x.trf", "--formatt", "json"]
        )
