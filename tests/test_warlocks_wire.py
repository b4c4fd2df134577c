"""Orders' `hands` (the Warlocks' paralysed and charmed hand, chosen in the caster's next orders)
travel in the compact wire form, round-trip exactly, and leave every other input's bytes as
version 1 wrote them."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from wavinghands.orders import parse_orders
from wavinghands.remote import codes
from wavinghands.remote.inputs import BitReader, _compact_orders, read_input

QUESTIONS = ("charm:W0", "charm:W1", "paralysis:W0", "paralysis:W1")


def _is_compact(data: bytes) -> bool:
    return not BitReader(data).flag()  # a leading 0 bit: compact orders, not raw JSON


def test_orders_with_hands_travel_compact_and_round_trip() -> None:
    x = {"gestures": [["F", "P"]], "hands": {"paralysis:W1": "R", "charm:W1": "L"},
         "charm": {"gesture": ">"}, "casts": [{"set": 0, "hand": "L", "spell": "shield"}]}
    data = codes.encode_input(x)
    assert _is_compact(data)
    y = codes.decode_input(data)
    assert y == _compact_orders(x)
    assert parse_orders(y).to_json() == parse_orders(x).to_json()
    assert len(data) < len(codes.canonical_json(x))


def test_orders_without_hands_keep_their_version_1_bytes() -> None:
    # The bytes version 1 (before hands) wrote for these, taken from it.
    full = {"gestures": [["F", "P"], ["S", ">"]],
            "casts": [{"set": 1, "hand": "L", "spell": "shield", "target": "W1", "bank": True}],
            "stab": [None, "W0"], "monsters": {"M2": ["W0", "W1"]}, "charm": {"gesture": "C"},
            "release": {"target": "M2"}}
    for x, v1 in (({"gestures": [["F", "P"]]}, "0100"),
                  ({"gestures": [["F", "P"]], "release": True}, "0184"),
                  (full, "415bf08056a4062ad880")):
        assert codes.encode_input(x).hex() == v1
        assert read_input(BitReader(bytes.fromhex(v1))) == x


def test_hands_naming_an_unknown_question_travel_as_json() -> None:
    x = {"gestures": [["F", "P"]], "hands": {"paralysis:M1": "L"}}
    data = codes.encode_input(x)
    assert not _is_compact(data)
    assert codes.decode_input(data) == x


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(QUESTIONS), st.sampled_from("LR"), min_size=1),
       st.lists(st.sampled_from("FPSWDC>-"), min_size=2, max_size=2),
       st.booleans())
def test_any_hands_round_trip(hands: dict[str, str], pair: list[str], release: bool) -> None:
    x: dict[str, Any] = {"gestures": [pair], "hands": hands}
    if release:
        x["release"] = True
    data = codes.encode_input(x)
    assert _is_compact(data)
    y = codes.decode_input(data)
    assert codes.encode_input(y) == data
    assert isinstance(y, dict) and y["hands"] == dict(sorted(hands.items()))


def test_a_drafted_hand_choice_survives_the_carry() -> None:
    # Remote play's draft (draft.carry) keeps the Warlocks' new orders fields like the others.
    from dsl import Duel

    from wavinghands.draft import carry

    d = Duel(A="F F F / - - -", B="- - F / - - S", ruleset="warlocks").run()
    out = carry(d.game, 0, {"gestures": [["P", "-"]], "hands": {"paralysis:W1": "R"}})
    assert out["orders"]["hands"] == {"paralysis:W1": "R"} and out["intact"]
    stale = carry(d.game, 1, {"gestures": [["P", "-"]], "hands": {"paralysis:W1": "R"}})
    assert "hands" not in stale["orders"]
    assert [c["code"] for c in stale["changes"]] == ["hand-unexpected"]
