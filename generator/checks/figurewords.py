"""The words and patterns of figures: scales, number words, months, currencies, their regexes."""

from __future__ import annotations

import re
from decimal import Decimal

SCALES = {
    "hundred": 2,
    "thousand": 3,
    "million": 6,
    "billion": 9,
    "trillion": 12,
    "k": 3,
    "m": 6,
    "mn": 6,
    "b": 9,
    "bn": 9,
    "t": 12,
}
WORD_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "fifty": 50,
    "hundred": 100,
}
MULTIPLIER_WORDS = {
    "twice": 2,
    "double": 2,
    "doubled": 2,
    "doubles": 2,
    "doubling": 2,
    "tripled": 3,
    "triples": 3,
    "tripling": 3,
    "quadrupled": 4,
    "quadruples": 4,
    "twofold": 2,
    "threefold": 3,
    "fourfold": 4,
    "fivefold": 5,
    "tenfold": 10,
    "halved": Decimal("0.5"),
    "halves": Decimal("0.5"),
    "halving": Decimal("0.5"),
}
# The magnitude each vague plural covers: "billions" is 10^9 up to (not including) 10^12.
VAGUE = {
    "dozens": (1, 2),
    "hundreds": (2, 3),
    "thousands": (3, 6),
    "millions": (6, 9),
    "billions": (9, 12),
    "trillions": (12, 15),
}
MONTHS = {
    name: index
    for index, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
CURRENCIES = {"$": "$", "€": "€", "£": "£", "¥": "¥", "usd": "$", "eur": "€", "gbp": "£"}

_NUM = r"(?:\d{1,3}(?:[,\u00a0\u202f\u2009]\d{3})+|\d+)(?:\.\d+)?|\.\d+"
_WORDS = "|".join(sorted(WORD_NUMBERS, key=len, reverse=True))
SCALES_SPELLED = ("hundred", "thousand", "million", "billion", "trillion")
BARE_WORDS = (*SCALES_SPELLED, "dozen")
_SCALE_WORDS = "|".join(SCALES_SPELLED)
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_MULT = "|".join(sorted(MULTIPLIER_WORDS, key=len, reverse=True))

_CURRENCY = r"(?:(?P<cur>[$€£¥])\s?|(?i:(?P<curw>usd|eur|gbp))\s)?"
_UNIT = r"""(?:\s?(?P<unit>%|×|(?i:x)(?![\w])|(?i:per\s?cent|percent|percentage\s+points?)\b
        |(?i:-?fold)\b|\s(?i:times)\b))?
    (?![\w])"""
# Digits with an optional scale: "54K", "3.6 billion", "$1.2M", "20%", "2.5x".
QUANTITY = re.compile(
    rf"""(?<![\w.,]){_CURRENCY}
    (?P<num>{_NUM})
    (?:(?P<abbr>[KkMBT]|bn|mn)(?![\w])|\s?(?i:(?P<sw>{_SCALE_WORDS}))(?![\w]))?
    {_UNIT}""",
    re.VERBOSE,
)
# A number word before a scale or multiplier: "a billion", "three times", "two-fold".
WORD_QUANTITY = re.compile(
    rf"""(?<![\w.,]){_CURRENCY}
    (?i:(?P<wnum>{_WORDS}))
    (?:[\s-](?i:(?P<sw2>{_SCALE_WORDS}))(?![\w])|(?=[\s-](?i:times|fold)\b))
    {_UNIT}""",
    re.VERBOSE,
)
NUMBER_WORD = re.compile(rf"(?i)\b(?:{_WORDS})\b")
NUMBER_WORD_LOWER = re.compile(rf"\b(?:{_WORDS})\b")  # NUMBER_WORD for lower-case text
BARE_SCALE = re.compile(rf"(?<![\w-])(?i:(?P<sw>{_SCALE_WORDS}|dozen))(?![\w-])")
VAGUE_WORD = re.compile(
    r"(?<![\w-])(?i:(?P<word>dozens|hundreds|thousands|millions|billions|trillions))\b"
)
MULTIPLIER = re.compile(rf"(?<![\w-])(?i:(?P<word>{_MULT}))(?![\w-])")
ISO_DATE = re.compile(r"(?<![\w.-])(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})(?![\w-])")
MONTH_DATE = re.compile(
    rf"""(?<![\w])(?i:
        (?P<m1>{_MONTH})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y1>\d{{4}})
      | (?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?P<m2>{_MONTH})\.?,?\s+(?P<y2>\d{{4}})
      | (?P<m3>{_MONTH})\.?\s+(?P<y3>\d{{4}})
    )(?![\w])""",
    re.VERBOSE,
)
RANGE_JOIN = re.compile(r"\s*(?:[-–—‒]|to|(?P<and>and))\s*\Z", re.IGNORECASE)
BETWEEN = re.compile(r"(?i:between)\s*\Z")
IDENTIFIER = re.compile(
    r"(?<![\w.-])(?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*(?![\w])"
)
DIGIT = re.compile(r"\d")
YEAR = re.compile(r"\d{4}")
SCALE_TRIGGERS = ("hundred", "thousand", "million", "billion", "trillion", "dozen", "times", "fold")
MULTIPLIER_TRIGGERS = ("twice", "doubl", "tripl", "quadrupl", "halv", "fold")
VAGUE_TRIGGERS = tuple(VAGUE)
ORDINAL = re.compile(r"\A\d+(?:st|nd|rd|th)\Z", re.IGNORECASE)
URLISH = re.compile(r"(?:https?|ftp)://\S+|\bwww\.\S+|\]\([^)]*\)|<[^>\s]+>", re.IGNORECASE)
ORDERED_MARKER = re.compile(r"^\s*\d+[.)]\s", re.MULTILINE)
GROUPING = str.maketrans("", "", ",\u00a0\u202f\u2009")
DIGIT_RUN = re.compile(r"\d+")
WORD_RUN = re.compile(r"\w+")
# Characters that match an ASCII letter case-insensitively although lower() does not map them
# to it. While a text holds none, lower() keeps every offset and finds every place where a
# case-insensitive pattern of ASCII words can match, so the scans below try only those places.
EXOTIC = "\u0130\u0131\u017f\u212a"
ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-")
CURRENCY_SIGNS = "$€£¥"
MONTH_STARTS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _plain(text: str) -> bool:
    """Return True when lower() finds every case-insensitive match of an ASCII word in a text."""
    return not any(ch in text for ch in EXOTIC)
