"""A wizard's name as the engine keeps it: one canonical form, so that a name cannot carry
direction controls into the other player's sentences, look like another name, or grow without
bound (issue 12, item 5; docs/protocol.md, "Threat model")."""

from __future__ import annotations

import unicodedata
from typing import Final

from .errors import WavingHandsError

MAX_NAME_CHARS: Final[int] = 40
# Combining marks allowed on one letter: enough for any script's accents, not for a tower of
# marks that draws over the lines around it.
MAX_MARKS: Final[int] = 2
# Dropped outright: controls, format characters (bidi embeddings, overrides and isolates,
# zero-width joiners and spaces, the byte-order mark), surrogates and private-use characters.
_DROPPED: Final[frozenset[str]] = frozenset({"Cc", "Cf", "Cs", "Co"})


class BadName(WavingHandsError):
    """A name that is empty or too long once normalised."""

    code = "bad-names"


class SameNames(WavingHandsError):
    """Two names that read as one once normalised."""

    code = "same-names"


def normalise_name(raw: str) -> str:
    """The canonical form of a name: NFKC (full-width and other compatibility look-alikes
    become plain letters), control and format characters dropped, at most MAX_MARKS combining
    marks on a letter, every run of white space one space, trimmed.  Raises a "bad-names" error
    when nothing is left or more than MAX_NAME_CHARS characters are."""
    kept: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFKC", raw):
        category = unicodedata.category(ch)
        if category in _DROPPED:
            continue
        marks = marks + 1 if category.startswith("M") else 0
        if marks <= MAX_MARKS:
            kept.append(ch)
    # Dropping a character can leave a pair that composes (e, ZWSP, acute): compose again.
    name = " ".join(unicodedata.normalize("NFKC", "".join(kept)).split())
    if not name:
        raise BadName("a name needs at least one letter or sign that shows")
    if len(name) > MAX_NAME_CHARS:
        raise BadName(f"a name has at most {MAX_NAME_CHARS} characters; "
                                      f"{name[:MAX_NAME_CHARS]!r}... has {len(name)}")
    return name


def same_name(a: str, b: str) -> bool:
    """Whether two normalised names would read as one (case ignored)."""
    return a.casefold() == b.casefold()


def check_pair(a: str, b: str) -> tuple[str, str]:
    """Both names normalised; raises a "same-names" error when they read as one."""
    first, second = normalise_name(a), normalise_name(b)
    if same_name(first, second):
        raise SameNames(f"both wizards would be called {first!r}; the two need "
                                       "different names")
    return first, second


def check_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """Every name normalised; raises a "same-names" error when two read as one (a duel's
    pair: as check_pair)."""
    if len(names) == 2:
        return check_pair(names[0], names[1])
    clean = tuple(normalise_name(n) for n in names)
    for i, a in enumerate(clean):
        for b in clean[i + 1:]:
            if same_name(a, b):
                raise SameNames(f"two wizards would be called {a!r}; every wizard needs a "
                                "different name")
    return clean
