"""Who pays for a tournament, as its regulations say: the funding sources and, when a
sponsor is one of them, the sponsor's name and how the sponsor is credited.

Three details of the regulations hold it: ``funding`` (one or more of
:data:`SOURCES`, separated by commas), ``sponsor`` (a name) and ``sponsor_credit``
(free text: "logo on the tournament page, named at the prize-giving"). They are
optional; when given they must agree.

>>> Funding.read({"funding": "entry_fees, sponsor", "sponsor": "Ararat",
...     "sponsor_credit": "named at the prize-giving"})
Funding(sources=('entry_fees', 'sponsor'), sponsor='Ararat', credit='named at the prize-giving')
>>> Funding.read({}).sources
()
>>> try:
...     Funding.read({"funding": "lottery"})
... except RuleError as error:
...     print(error)
funding: 'lottery' is not a funding source (sponsor, own_funds, entry_fees, other)
>>> Funding.read({"funding": "sponsor"})
Traceback (most recent call last):
...
crosstable.core.errors.RuleError: funding: a sponsor pays, so name the sponsor
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crosstable.core.errors import RuleError

#: the funding sources the regulations may name
SOURCES = ("sponsor", "own_funds", "entry_fees", "other")
#: the details that hold the funding
FIELDS = ("funding", "sponsor", "sponsor_credit")
#: the longest sponsor's name and credit text
MAX_TEXT = 300


def _text(details: Mapping[str, Any], key: str) -> str:
    value = details.get(key)
    return "" if value is None else str(value).strip()


def sources_of(text: str) -> tuple[str, ...]:
    """The funding sources a ``funding`` detail names, each once, in its order.

    >>> sources_of("Entry fees; sponsor, entry-fees")
    ('entry_fees', 'sponsor')
    """
    sources: list[str] = []
    for part in text.replace(";", ",").split(","):
        source = part.strip().lower().replace("-", "_").replace(" ", "_")
        if not source:
            continue
        if source not in SOURCES:
            raise RuleError(
                "funding: {value} is not a funding source ({sources})",
                value=repr(part.strip()),
                sources=", ".join(SOURCES),
            )
        if source not in sources:
            sources.append(source)
    return tuple(sources)


@dataclass(frozen=True, slots=True)
class Funding:
    """The funding sources (in the order given, each once), the sponsor and the credit."""

    sources: tuple[str, ...] = ()
    sponsor: str = ""
    credit: str = ""

    @staticmethod
    def read(details: Mapping[str, Any]) -> Funding:
        """The funding the details state, checked (a :class:`RuleError` says what is wrong)."""
        sources = sources_of(_text(details, "funding"))
        sponsor, credit = _text(details, "sponsor"), _text(details, "sponsor_credit")
        for key, text in (("sponsor", sponsor), ("sponsor_credit", credit)):
            if len(text) > MAX_TEXT:
                raise RuleError(
                    "funding: {field} is longer than {count} characters",
                    field=key,
                    count=MAX_TEXT,
                )
        if "sponsor" in sources and not sponsor:
            raise RuleError("funding: a sponsor pays, so name the sponsor")
        if (sponsor or credit) and "sponsor" not in sources:
            raise RuleError("funding: a sponsor is named, so the funding sources include sponsor")
        return Funding(sources, sponsor, credit)

    @property
    def stated(self) -> bool:
        """Whether the regulations say anything of the funding."""
        return bool(self.sources)


__all__ = ["FIELDS", "MAX_TEXT", "SOURCES", "Funding", "sources_of"]
