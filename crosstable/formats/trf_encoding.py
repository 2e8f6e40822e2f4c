"""Which encoding a TRF file is in: UTF-8, else Cyrillic (Windows-1251 or KOI8-R)
recognised from its letters, else Windows-1252, else Latin-1.

A TRF says nothing about its encoding. Programs write UTF-8, Windows-1252 (West
European) or, in Russian-speaking federations, Windows-1251 or KOI8-R. Read as
Windows-1252, a Cyrillic name comes out as ``Èâàíîâ``; so when the text is not
UTF-8 and its non-ASCII letters come in whole words (as Cyrillic names do, unlike
the odd ``é`` of a French name), it is read as whichever of Windows-1251 and
KOI8-R gives the more Russian-looking letters, and the reader says so in a
warning (docs/trf.md, "Encodings").
"""

from __future__ import annotations

import re

#: Relative frequency of Russian letters (lower case), for telling cp1251 from KOI8-R.
_FREQUENCY = dict(
    zip(
        "оеаинтсрвлкмдпуяыьгзбчйхжшюцщэфъё",
        (
            1097,
            845,
            801,
            735,
            670,
            626,
            547,
            473,
            454,
            440,
            349,
            321,
            298,
            281,
            262,
            201,
            190,
            174,
            170,
            165,
            159,
            144,
            121,
            97,
            94,
            73,
            64,
            48,
            36,
            32,
            26,
            4,
            4,
        ),
        strict=True,
    )
)
# letters of either Cyrillic code page: 0xC0–0xFF, and ё/Ё (0xA3 0xB3 KOI8-R, 0xA8 0xB8 cp1251)
_WORD = re.compile(rb"[A-Za-z\xa3\xa8\xb3\xb8\xc0-\xff]+")
_CYRILLIC = {"cp1251": "Windows-1251", "koi8_r": "KOI8-R"}


def decode_with_note(data: bytes) -> tuple[str, str | None]:
    """The text, and a note when the encoding was guessed from the letters.

    >>> text, note = decode_with_note("Иванов Пётр".encode("koi8_r"))
    >>> text, note[:51]
    ('Иванов Пётр', 'the file is not UTF-8; its letters read as Cyrillic')
    >>> decode_with_note("Müller".encode("cp1252"))
    ('Müller', None)
    """
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        pass
    cyrillic = _cyrillic_encoding(data)
    if cyrillic is not None:
        note = (
            f"the file is not UTF-8; its letters read as Cyrillic in {_CYRILLIC[cyrillic]} "
            "(save it as UTF-8 to be sure)"
        )
        return data.decode(cyrillic), note
    try:
        return data.decode("cp1252"), None
    except UnicodeDecodeError:
        return data.decode("latin-1"), None


def _cyrillic_encoding(data: bytes) -> str | None:
    """``"cp1251"`` or ``"koi8_r"`` when the non-ASCII letters come in whole words."""
    words = [word for word in _WORD.findall(data) if max(word) >= 0xA3]
    letters = sum(len(word) for word in words)
    high = sum(1 for word in words for byte in word if byte >= 0xA3)
    if not words or high * 2 < letters:  # Latin words with an accent here and there
        return None
    best, best_score = None, 0.0
    for encoding in _CYRILLIC:
        score = 0.0
        for word in words:
            text = word.decode(encoding, errors="replace")
            score += sum(_FREQUENCY.get(char, 0) for char in text.lower())
            # a wrong code page turns "Иванов" into "иВАНОВ": lower case before upper case
            score -= 500 * len(re.findall(r"[а-яё][А-ЯЁ]", text))
        if best is None or score > best_score:
            best, best_score = encoding, score
    return best
