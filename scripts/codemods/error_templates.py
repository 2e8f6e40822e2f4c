"""Codemod: error messages made by f-strings become templates with named parameters.

Issue 14 item 4. ``raise RuleError(f"there is no round {n} (rounds 1–{last})")``
becomes ``raise RuleError("there is no round {round} (rounds 1–{rounds})",
round=n, rounds=last)``: the placeholder names are those of the matching
template among the msgids of ``crosstable/web/locale/ru/LC_MESSAGES/errors.po``
(the translated catalogue), so the msgids stay the same and the Russian
translations stay valid. The same for

* an f-string anywhere else in the scanned code whose text is a template's
  (the pieces messages insert: ``where = f"round {r} board {b}"`` becomes
  ``Message("round {round} board {board}", round=r, board=b)``) — a Message is
  a ``str`` with the same text, so nothing else changes;
* ``"; ".join(problems)`` as an error's message, and ``", ".join(…)`` as a
  value of a converted message or of items that are messages:
  ``Message.joined(", ", …)`` keeps the items (each translated as itself);
* ``HTTPException(…, detail=f"…")``: ``detail=Message(…)``.

An f-string is converted only when a template takes it whole, each
placeholder taking one value (or values joined by text without letters, which
stays an f-string value). What it cannot convert it lists (file:line and the
text), for a hand fix. It is re-runnable: converted code has no f-string left
to convert, and a second pass converts f-strings that were nested in another.

    python scripts/codemods/error_templates.py [--check] [PATH ...]

(default paths: crosstable/service crosstable/core crosstable/web; ``--check``
writes nothing and exits 1 when something would change). Run ``ruff format``
on the changed files afterwards (the codemod writes long templates as
implicit concatenations but leaves the layout to the formatter).
"""

from __future__ import annotations

import argparse
import ast
import json
import keyword
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import libcst as cst
from libcst.metadata import PositionProvider

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "crosstable" / "web" / "locale" / "ru" / "LC_MESSAGES" / "errors.po"
DEFAULT_PATHS = ("crosstable/service", "crosstable/core", "crosstable/web")
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
#: a field of the f-string in the text matched against the templates (no letters, no brackets)
MARK = re.compile("\x01(\\d+)\x02")
#: keyword arguments of error classes that are not the message's parameters
RESERVED = {"source", "line", "column", "current", "status_code", "detail", "headers"}
#: calls whose f-strings are not messages
SKIPPED_CALLS = {"_", "gettext", "ngettext", "N_", "debug", "info", "warning", "exception"}
#: a template line is at most this long; longer ones are split into implicit concatenation
WIDTH = 50


# -- the templates -----------------------------------------------------------------------


@dataclass(frozen=True)
class Template:
    """One msgid of the errors catalogue as patterns over a sample text (cf. the regular
    expressions ``crosstable/web/messages.py`` matched messages with)."""

    text: str
    names: tuple[str, ...]
    patterns: tuple[re.Pattern[str], ...]
    anchor: str
    weight: int
    letters: bool

    @classmethod
    def of(cls, text: str) -> Template:
        pieces = PLACEHOLDER.split(text)
        fixed, names = pieces[0::2], tuple(pieces[1::2])

        def pattern(value: str) -> re.Pattern[str]:
            regex = "".join(
                re.escape(piece) + (value if index < len(names) else "")
                for index, piece in enumerate(fixed)
            )
            return re.compile(regex, re.DOTALL)

        return cls(
            text,
            names,
            (pattern("(.*?)"), pattern("(.*)")),
            max(fixed, key=len),
            sum(len(piece) for piece in fixed),
            any(char.isalpha() for char in "".join(fixed)),
        )


@cache
def templates(po: Path = PO) -> tuple[Template, ...]:
    """The catalogue's templates with placeholders, the most specific first."""
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        ids = [str(m.id) for m in read_po(handle) if m.id and isinstance(m.id, str)]
    built = [Template.of(text) for text in dict.fromkeys(ids) if PLACEHOLDER.search(text)]
    return tuple(sorted(built, key=lambda t: (-t.weight, t.text)))


def _balanced(value: str) -> bool:
    depth = 0
    for char in value:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _plain(value: str) -> bool:
    """A value with no letters besides its fields (a field's text is the value's own)."""
    return not any(char.isalpha() for char in MARK.sub("", value))


def best_match(sample: str, *, letters: bool) -> tuple[Template, tuple[str, ...]] | None:
    """The template that takes ``sample`` whole (fields marked), each value a field or fields
    and text without letters; a template whose values are each one field first. With
    ``letters`` (an f-string outside an error's call), only templates with words in their
    fixed text, each value exactly one field."""
    found: list[tuple[int, int, Template, tuple[str, ...]]] = []
    for order, template in enumerate(templates()):
        if letters and not template.letters:
            continue
        if template.anchor not in sample:
            continue
        for pattern in template.patterns:
            matched = pattern.fullmatch(sample)
            if matched is None:
                continue
            values = matched.groups()
            if not all(map(_balanced, values)) or not all(map(_plain, values)):
                continue
            if not _consistent(template.names, values):
                continue
            composite = sum(1 for v in values if MARK.fullmatch(v) is None)
            if letters and composite:
                continue
            found.append((composite, order, template, values))
    if not found:
        return None
    found.sort(key=lambda item: (item[0], item[1]))
    return found[0][2], found[0][3]


def _consistent(names: Sequence[str], values: Sequence[str]) -> bool:
    seen: dict[str, str] = {}
    for name, value in zip(names, values, strict=True):
        if seen.setdefault(name, value) != value:
            return False
    return True


# -- an f-string's pieces ------------------------------------------------------------------


@dataclass
class Pieces:
    """An f-string read with :mod:`ast`: its text with fields marked, and the fields."""

    sample: str
    fields: list[ast.FormattedValue]

    @classmethod
    def of(cls, source: str) -> Pieces | None:
        try:
            tree = ast.parse("(" + source + ")", mode="eval")
        except SyntaxError:
            return None
        node = tree.body
        if not isinstance(node, ast.JoinedStr):
            return None
        sample, fields = [], []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                sample.append(value.value)
            elif isinstance(value, ast.FormattedValue):
                sample.append(f"\x01{len(fields)}\x02")
                fields.append(value)
            else:
                return None
        return cls("".join(sample), fields)

    def expression(self, value: str) -> str:
        """The Python source of one value: a field's expression (its conversion and format
        applied), an f-string of fields and text, or a text."""
        marks = list(MARK.finditer(value))
        if len(marks) == 1 and marks[0].group(0) == value:
            return field_source(self.fields[int(marks[0].group(1))])
        if not marks:
            return literal(value)
        parts: list[str] = []
        last = 0
        for mark in marks:
            parts.append(_fstring_text(value[last : mark.start()]))
            inner = self.fields[int(mark.group(1))]
            parts.append("{" + _field_inside(inner) + "}")
            last = mark.end()
        parts.append(_fstring_text(value[last:]))
        return 'f"' + "".join(parts) + '"'


def _fstring_text(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1].replace("{", "{{").replace("}", "}}")


def _field_inside(node: ast.FormattedValue) -> str:
    code = ast.unparse(node.value)
    if '"' in code:  # (Python 3.11: no double quote inside a double-quoted f-string)
        code = code.replace('"', "'")
    if node.conversion != -1:
        code += "!" + chr(node.conversion)
    if node.format_spec is not None:
        spec = ast.unparse(node.format_spec)
        code += ":" + (ast.literal_eval(spec) if spec.startswith(("'", '"')) else spec[2:-1])
    return code


def field_source(node: ast.FormattedValue) -> str:
    """A field's value as an expression: ``x``, ``repr(x)``, ``format(x, ".1f")``."""
    code = join_call(node.value) or ast.unparse(node.value)
    if node.conversion == ord("r"):
        code = f"repr({code})"
    elif node.conversion == ord("s"):
        code = f"str({code})"
    elif node.conversion == ord("a"):
        code = f"ascii({code})"
    if node.format_spec is not None:
        code = f"format({code}, {ast.unparse(node.format_spec)})"
    return code


def join_call(node: ast.expr) -> str | None:
    """``", ".join(items)`` as ``Message.joined(", ", items)``; None for anything else."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "join"
        and isinstance(node.func.value, ast.Constant)
        and isinstance(node.func.value.value, str)
        and len(node.args) == 1
        and not node.keywords
    ):
        items = node.args[0]
        inner = ast.unparse(items)
        if isinstance(items, ast.GeneratorExp):
            inner = inner if inner.startswith("(") else f"({inner})"
        return f"Message.joined({literal(node.func.value.value)}, {inner})"
    return None


#: the width the next literal has (set per statement from its indentation)
_width = [WIDTH]


def literal(text: str) -> str:
    """A Python string literal of ``text`` (double quotes), split into implicit
    concatenation at spaces when it is long."""
    width = _width[0]
    if len(json.dumps(text, ensure_ascii=False)) <= width + 4:
        return json.dumps(text, ensure_ascii=False)
    pieces: list[str] = []
    rest = text
    while len(rest) > width:
        cut = rest.rfind(" ", 0, width)
        if cut <= 0:
            break
        pieces.append(rest[: cut + 1])
        rest = rest[cut + 1 :]
    pieces.append(rest)
    if len(pieces) == 1:
        return json.dumps(text, ensure_ascii=False)
    return "(\n" + "\n".join(json.dumps(p, ensure_ascii=False) for p in pieces) + "\n)"


def keywords(template: Template, values: Sequence[str], pieces: Pieces) -> list[tuple[str, str]]:
    """(name, source) of the parameters, each name once, in the template's order."""
    seen: dict[str, str] = {}
    for name, value in zip(template.names, values, strict=True):
        seen.setdefault(name, pieces.expression(value))
    return list(seen.items())


def arguments(pairs: Sequence[tuple[str, str]]) -> str:
    plain = [f"{name}={code}" for name, code in pairs if not keyword.iskeyword(name)]
    odd = [f"{json.dumps(name)}: {code}" for name, code in pairs if keyword.iskeyword(name)]
    if odd:
        plain.append("**{" + ", ".join(odd) + "}")
    return ", ".join(plain)


# -- the transformer -------------------------------------------------------------------------


@dataclass
class Report:
    changed: int = 0
    left: list[str] = field(default_factory=list)


def _name(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return node.attr.value
    return ""


def _is_fstring(node: cst.CSTNode) -> bool:
    if isinstance(node, cst.FormattedString):
        return True
    if isinstance(node, cst.ConcatenatedString):
        return _is_fstring(node.left) or _is_fstring(node.right)
    return False


class Codemod(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, errors: set[str], path: str, report: Report) -> None:
        super().__init__()
        self.errors = errors
        self.path = path
        self.report = report
        self.module = cst.Module([])
        #: how deep we are in f-strings and in calls whose f-strings are not messages
        self.fstrings = 0
        self.skipped = 0
        #: ids of nodes not converted on their own: an error call's message (the call
        #: converts it), a piece of an implicit concatenation (the whole is converted)
        self.apart: set[int] = set()
        self.lines: list[str] = []

    def visit_FormattedString(self, node: cst.FormattedString) -> None:  # noqa: N802
        self.fstrings += 1

    def leave_FormattedString(  # noqa: N802
        self, original: cst.FormattedString, updated: cst.FormattedString
    ) -> cst.BaseExpression:
        self.fstrings -= 1
        return self._anywhere(original, updated)

    def visit_ConcatenatedString(self, node: cst.ConcatenatedString) -> None:  # noqa: N802
        self.apart.update((id(node.left), id(node.right)))

    def leave_ConcatenatedString(  # noqa: N802
        self, original: cst.ConcatenatedString, updated: cst.ConcatenatedString
    ) -> cst.BaseExpression:
        return self._anywhere(original, updated)

    def visit_Call(self, node: cst.Call) -> None:  # noqa: N802
        name = _name(node.func)
        if name in SKIPPED_CALLS:
            self.skipped += 1
        if name in self.errors and node.args and node.args[0].keyword is None:
            self.apart.add(id(node.args[0].value))

    def leave_Call(  # noqa: N802
        self, original: cst.Call, updated: cst.Call
    ) -> cst.BaseExpression:
        name = _name(original.func)
        if name in SKIPPED_CALLS:
            self.skipped -= 1
        if name in self.errors and updated.args and updated.args[0].keyword is None:
            return self._error_call(original, updated)
        if name == "HTTPException":
            return self._http(updated)
        if self._join_of_messages(updated):
            code = join_call(ast.parse(self._code(updated), mode="eval").body)
            if code:
                self.report.changed += 1
                return cst.parse_expression(code)
        return updated

    def _code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def _fit(self, original: cst.CSTNode) -> None:
        """Literals of this statement as wide as its indentation leaves (line length 100:
        the template's pieces sit 8 deeper than the statement, with quotes and a space)."""
        line = self.lines[self._line(original) - 1] if self._line(original) else ""
        indent = len(line) - len(line.lstrip())
        _width[0] = max(40, 100 - indent - 8 - 3)

    def _arg(self, arg: cst.Arg) -> str:
        """An argument's source without its comma and spaces."""
        code = self._code(arg.value)
        if arg.keyword is not None:
            return f"{arg.keyword.value}={code}"
        return f"{arg.star}{code}"

    def _line(self, node: cst.CSTNode) -> int:
        try:
            return self.get_metadata(PositionProvider, node).start.line
        except KeyError:
            return 0

    def _convert(
        self, node: cst.BaseExpression, *, letters: bool
    ) -> tuple[str, list[tuple[str, str]]] | None:
        """(template, parameters) of an f-string a template takes whole."""
        pieces = Pieces.of(self._code(node))
        if pieces is None or not pieces.fields:
            return None
        found = best_match(pieces.sample, letters=letters)
        if found is None:
            return None
        template, values = found
        return template.text, keywords(template, values, pieces)

    def _anywhere(self, original: cst.CSTNode, updated: cst.BaseExpression) -> cst.BaseExpression:
        """An f-string outside an error's call: a Message when a template with words takes it."""
        if self.fstrings > 0 or self.skipped > 0 or id(original) in self.apart:
            return updated
        self._fit(original)
        converted = self._convert(updated, letters=True)
        if converted is None:
            return updated
        template, pairs = converted
        self.report.changed += 1
        return cst.parse_expression(f"Message({literal(template)}, {arguments(pairs)})")

    def _message_expr(self, node: cst.BaseExpression) -> str | None:
        """The source of a message argument as a Message (None: leave it)."""
        if _is_fstring(node):
            converted = self._convert(node, letters=False)
            if converted is None:
                return None
            template, pairs = converted
            return f"Message({literal(template)}, {arguments(pairs)})"
        if isinstance(node, cst.Call):
            return join_call(ast.parse(self._code(node), mode="eval").body)
        return None

    def _error_call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        first = updated.args[0].value
        self._fit(original)
        if _is_fstring(first):
            converted = self._convert(first, letters=False)
            if converted is None:
                if self.fstrings == 0:
                    self.report.left.append(
                        f"{self.path}:{self._line(original)}: {self._code(first)[:120]}"
                    )
                return updated
            template, pairs = converted
            rest = [self._arg(a) for a in updated.args[1:]]
            names = {a.keyword.value for a in updated.args[1:] if a.keyword is not None}
            if any(name in RESERVED or name in names for name, _code in pairs):
                inner = f"Message({literal(template)}, {arguments(pairs)})"
                call = f"{self._code(updated.func)}({', '.join([inner, *rest])})"
            else:
                call = (
                    f"{self._code(updated.func)}"
                    f"({', '.join([literal(template), *rest, arguments(pairs)])})"
                )
            self.report.changed += 1
            return cst.parse_expression(call)
        if isinstance(first, cst.Call):
            joined = join_call(ast.parse(self._code(first), mode="eval").body)
            if joined:
                self.report.changed += 1
                args = [cst.Arg(cst.parse_expression(joined)), *updated.args[1:]]
                return updated.with_changes(args=args)
        return updated

    def _http(self, updated: cst.Call) -> cst.BaseExpression:
        args = list(updated.args)
        for index, arg in enumerate(args):
            is_detail = (arg.keyword is not None and arg.keyword.value == "detail") or (
                arg.keyword is None and index == 1
            )
            if not is_detail:
                continue
            code = self._message_expr(arg.value)
            if code is not None:
                args[index] = arg.with_changes(value=cst.parse_expression(code))
                self.report.changed += 1
                return updated.with_changes(args=args)
        return updated

    def _join_of_messages(self, node: cst.Call) -> bool:
        """``sep.join(…)`` of items that are Messages."""
        func = node.func
        return (
            isinstance(func, cst.Attribute)
            and func.attr.value == "join"
            and isinstance(func.value, cst.SimpleString)
            and len(node.args) == 1
            and "Message(" in self._code(node.args[0])
        )


def ensure_import(source: str) -> str:
    """``from crosstable.core.text import Message`` when the module uses Message."""
    if not re.search(r"(?<![\w.])Message(\(|\.joined\()", source):
        return source
    tree = ast.parse(source)
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and any(a.name == "Message" for a in node.names):
            return source
        if isinstance(node, ast.ClassDef) and node.name == "Message":
            raise SystemExit("a module defines its own Message: import the text one by hand")
    line = "from crosstable.core.text import Message\n"
    lines = source.splitlines(keepends=True)
    # after the last top-level import of the module's head
    last = 0
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            last = node.end_lineno or node.lineno
        elif last and not isinstance(node, ast.Expr):
            break
    if last == 0:
        return line + source
    return "".join(lines[:last]) + line + "".join(lines[last:])


def error_classes() -> set[str]:
    """The names of CrosstableError's family (and the web's HTTP errors are handled apart)."""
    import importlib
    import pkgutil

    sys.path.insert(0, str(ROOT))
    import crosstable
    from crosstable.core.errors import CrosstableError

    for info in pkgutil.walk_packages(crosstable.__path__, "crosstable."):
        if info.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(info.name)
        except Exception:
            continue
    names: set[str] = set()
    todo: list[type] = [CrosstableError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return names


def files(paths: Sequence[str]) -> Iterator[Path]:
    for name in paths:
        path = (ROOT / name) if not Path(name).is_absolute() else Path(name)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.py") if "locale" not in p.parts)
        elif path.suffix == ".py":
            yield path


SKIPPED_FILES = {"crosstable/core/text.py", "crosstable/web/messages.py"}


def run(paths: Sequence[str], *, write: bool, passes: int = 3) -> Report:
    errors = error_classes()
    report = Report()
    for path in files(paths):
        where = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
        if where in SKIPPED_FILES:
            continue
        source = path.read_text(encoding="utf-8")
        text = source
        for number in range(passes):
            step = Report()
            wrapper = cst.MetadataWrapper(cst.parse_module(text))
            codemod = Codemod(errors, where, step)
            codemod.lines = text.splitlines()
            result = wrapper.visit(codemod).code
            if number == passes - 1 or step.changed == 0:
                report.left.extend(step.left)
            report.changed += step.changed
            if result == text:
                break
            text = result
        if text != source:
            text = ensure_import(text)
            compile(text, where, "exec")  # (the result must still be Python)
            print(f"changed {where}")
            if write:
                path.write_text(text, encoding="utf-8")
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", default=list(DEFAULT_PATHS))
    parser.add_argument("--check", action="store_true", help="write nothing; 1 if a change")
    options = parser.parse_args(argv)
    report = run(options.paths, write=not options.check)
    for item in report.left:
        print(f"left for a hand fix: {item}")
    print(f"{report.changed} conversions, {len(report.left)} left for a hand fix")
    return 1 if options.check and report.changed else 0


if __name__ == "__main__":
    sys.exit(main())
