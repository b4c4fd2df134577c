"""Names the engine keeps (issue 12, item 5): one canonical form with no direction controls,
no hidden or look-alike characters and a bounded length; two wizards never share a name, in a
local duel and in remote play's invitation and acceptance; and the page isolates every name."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wavinghands import api
from wavinghands.names import MAX_NAME_CHARS, BadName, SameNames, normalise_name
from wavinghands.remote import codes, session
from wavinghands.remote.code_errors import MalformedCode

WEB = Path(__file__).resolve().parent.parent / "web"
RLO, LRI, ZWJ, ZWSP = "\u202e", "\u2066", "\u200d", "\u200b"


def full_width(text: str) -> str:
    """The full-width look-alike of ASCII letters (written out, ruff flags the literals)."""
    return "".join(chr(ord(c) + 0xFEE0) for c in text)



@pytest.mark.parametrize(("raw", "canonical"), [
    (f"Mallory{RLO}", "Mallory"),              # the reversal that turned the host's sentences
    (f"{LRI}Ann{ZWJ}a{ZWSP}", "Anna"),          # isolates and zero-width characters
    (full_width("Merlin"), "Merlin"),         # full-width look-alikes (NFKC)
    ("  Gan \t dalf\n the  Grey ", "Gan dalf the Grey"),
    ("e\u0301", "\u00e9"),                      # composed (NFC is part of NFKC)
    ("Z" + "\u0301" * 30, "\u0179\u0301\u0301"),  # no tower of marks (Z+acute composes)
    (f"e{ZWSP}\u0301", "\u00e9"),               # composes once the hidden space is gone
])
def test_names_are_normalised(raw: str, canonical: str) -> None:
    """Each hostile form reads as the plain name."""
    assert normalise_name(raw) == canonical


@pytest.mark.parametrize("raw", ["", "   ", RLO + ZWSP, "x" * (MAX_NAME_CHARS + 1)])
def test_empty_or_long_names_are_refused(raw: str) -> None:
    """A name with nothing that shows, or longer than the limit, is refused with bad-names."""
    with pytest.raises(BadName):
        normalise_name(raw)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_a_normalised_name_is_plain_and_stable(raw: str) -> None:
    """Property: the canonical form holds no control or format character, no doubled or
    outer space, fits the limit, and normalising it again changes nothing."""
    try:
        name = normalise_name(raw)
    except BadName:
        return
    assert not any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co") for c in name)
    assert name == " ".join(name.split()) and 1 <= len(name) <= MAX_NAME_CHARS
    assert normalise_name(name) == name


def _new_game(a: str, b: str) -> dict[str, object]:
    out: dict[str, object] = json.loads(api.new_game(json.dumps({"names": [a, b],
                                                                 "seed": "0123abcd"})))
    return out


def test_new_game_keeps_the_canonical_names() -> None:
    """The game (so every view and sentence) holds the canonical names."""
    out = _new_game(f"Mallory{RLO}", full_width("Merlin"))
    assert out["ok"], out
    assert out["game"]["names"] == ["Mallory", "Merlin"]  # type: ignore[index]


@pytest.mark.parametrize(("a", "b"), [("Ann", "Ann"), ("Ann", full_width("ann") + ZWJ),
                                      ("Bo b", " bo  B")])
def test_two_wizards_may_not_share_a_name(a: str, b: str) -> None:
    """Names the same after normalising (case ignored) are refused, and the message says so."""
    out = _new_game(a, b)
    assert out["ok"] is False
    err = out["error"]
    assert err["code"] == "same-names"  # type: ignore[index]
    assert "different names" in err["message"]  # type: ignore[index]


def _invitation(name: str) -> str:
    return session.create_invitation(name, {}, os.urandom).code or ""


def test_the_invitation_carries_the_canonical_name() -> None:
    """The host's name is normalised before it goes into the invitation."""
    m = codes.decode_message(_invitation(f"{LRI}Host{RLO}"))
    assert m.name == "Host"


def test_joining_with_the_hosts_name_is_refused() -> None:
    """The guest cannot take the host's name, told why."""
    with pytest.raises(SameNames, match="already called 'Host'"):
        session.accept_invitation(_invitation("Host"), full_width("host"))


def test_a_crafted_invitation_name_is_refused() -> None:
    """An invitation whose name is not canonical was not made by an engine: refused."""
    real = codes.decode_message(_invitation("Host"))
    crafted = codes.encode_message(dataclasses.replace(real, name=f"Host{RLO}"))
    with pytest.raises(MalformedCode, match="hidden or look-alike"):
        session.accept_invitation(crafted, "Guest")


def test_a_crafted_acceptance_with_the_hosts_name_is_refused() -> None:
    """The host refuses an acceptance whose guest name equals the host's."""
    out = session.create_invitation("Host", {}, os.urandom)
    guest = session.accept_invitation(out.code or "", "Guest")
    sealed = session.seal(guest, {"gestures": [["P", "P"]]}, None, os.urandom)
    accept = codes.decode_message(sealed.code or "")
    crafted = codes.encode_message(dataclasses.replace(accept, name="HOST"))
    with pytest.raises(SameNames):
        session.receive(out.session, crafted)
    assert session.receive(out.session, sealed.code or "").session.names == ("Host", "Guest")


# A name interpolated into a template string cannot be isolated: it must be its own child,
# nameOf(name) (a <bdi>).  Attribute values (aria-label, title) carry no visible direction.
NAME_IN_TEXT = re.compile(r"\$\{[^}]*(?:names\[|\bopponent(?:Name)?\b|\bhost\b|\bother\b|"
                          r"wizards\[[^\]]*\]\.name|\b(?:me|w|wizard)\.name\b)[^}]*\}")
# ui/words/text.js's isolate(name) wraps a name in U+2068 ... U+2069, the text form of a <bdi>
# (ui/words/battle.js's possessive(name) is isolate(name) and an apostrophe).
ATTRIBUTE = re.compile(r"'(?:aria-label|title|download|value)'\s*:|^\s*title:|aria-label|isolate\(|"
                       r"possessive\(|setAttribute|slug\(|monster\.name|summary: \{ title|"
                       r"casts\.delete")


def test_the_page_isolates_every_name() -> None:
    """Issue 12.5: a guest name ending in U+202E reversed the host's sentences.  Every place
    web/ui draws a wizard's name puts it in its own <bdi> (dom.nameOf), never inside a
    template string's text."""
    assert "export function nameOf" in (WEB / "ui" / "dom.js").read_text(encoding="utf-8")
    bare = []
    for path in sorted((WEB / "ui").rglob("*.js")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if NAME_IN_TEXT.search(line) and not ATTRIBUTE.search(line):
                bare.append(f"{path.name}:{number}: {line.strip()}")
    assert bare == [], "\n".join(bare)
