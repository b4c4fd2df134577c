"""A ruleset other than Bartle's, everywhere outside its rules: listed for the start screen, its
spell book, its invitations (version 3), its turn codes (spells numbered by its own table), its
records and saved sessions; and rules this page does not know are refused in plain words.

The ruleset here is registered by the test itself: the standard rules with a zap as the FIRST
row, so every standard spell's wire number moves by one and a code read with the wrong table
says the wrong spell.
"""

from __future__ import annotations

import base64
import json
import random
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from remote_driver import code_kind, play, random_policy, reloaded

from wavinghands import api
from wavinghands.remote import codes, session
from wavinghands.remote import engine as remote_engine
from wavinghands.remote import json_api as remote_api
from wavinghands.remote.codes import Message, MsgType, Sealed
from wavinghands.rulesets import PRE_SEAM_LABELS, STANDARD, Ruleset, UnknownRuleset, Variant
from wavinghands.rulesets.base import VARIANTS
from wavinghands.spells import STANDARD_TABLE, Category, Does, Spell, SpellTable, UsualTarget

REAL = remote_engine.PythonEngine()
NAME = "zap-first"
ZAP = Spell("zap", "Zap", ("F-D",), Category.DAMAGE, UsualTarget.OPPONENT, 38, Does.DAMAGE,
            amount=2, hit_text="A zap stings {subject} for {amount}.")
ZAP_TEXT = "The wizard points a wiggling finger: 2 points of damage."


class ZapFirst(Variant):
    """The standard rules with a zap in the first row, and the zap's text for the reference."""

    def descriptions(self) -> dict[str, str]:
        """The standard texts, and the zap's."""
        standard = STANDARD.variant.descriptions()
        return {key: ZAP_TEXT if key == "zap" else standard[key] for key in self.table}


@pytest.fixture(autouse=True)
def zap_first() -> Iterator[Variant]:
    """Registers the zap-first ruleset for one test."""
    variant = ZapFirst(NAME, "Zap first", "The standard rules with a zap in the first row.",
                       SpellTable((ZAP, *STANDARD_TABLE.rows)))
    VARIANTS[NAME] = variant
    try:
        yield variant
    finally:
        del VARIANTS[NAME]


def call(fn: Any, *args: Any) -> dict[str, Any]:
    """One api call with JSON arguments; the decoded answer."""
    out: dict[str, Any] = json.loads(fn(*(json.dumps(a) for a in args)))
    return out


# --- the start screen and the spell book ----------------------------------------------------


def test_the_start_screen_lists_every_registered_ruleset_default_first() -> None:
    listed = call(api.rulesets)["rulesets"]
    assert listed[0]["name"] == "standard"
    assert NAME in [r["name"] for r in listed]
    mine = next(r for r in listed if r["name"] == NAME)
    assert mine["title"] == "Zap first" and mine["options"] == []


def test_the_spell_book_is_the_rulesets_own_and_the_bare_call_is_the_standard_one() -> None:
    standard = call(api.spells)
    assert standard["ok"] and standard["ruleset"] == {"name": "standard", "title": "Waving Hands"}
    assert "zap" not in [s["key"] for s in standard["spells"]]
    assert call(api.spells, None)["spells"] == standard["spells"]
    zap = call(api.spells, {"name": NAME})
    assert zap["ok"] and zap["ruleset"]["title"] == "Zap first"
    assert [s["key"] for s in zap["spells"]] == ["zap", *(s["key"] for s in standard["spells"])]
    assert zap["spells"][0]["description"] == ZAP_TEXT  # the ruleset's own text
    assert zap["spells"][1]["description"] == standard["spells"][0]["description"]
    assert {"sequence": "F-D", "key": "zap", "name": "Zap", "once_per_battle": False} \
        in zap["forward"]
    assert any(e["key"] == "zap" and e["sequence"] == "D-F" for e in zap["reverse"])


def test_a_spell_book_of_rules_this_page_does_not_know_says_so() -> None:
    out = call(api.spells, {"name": "warlocks-2099"})
    assert out["ok"] is False and out["error"]["code"] == "unknown-ruleset"
    assert "'warlocks-2099'" in out["error"]["message"] and "newer version" in \
        out["error"]["message"]
    for label in PRE_SEAM_LABELS:  # a game from before rulesets reads the standard book
        assert call(api.spells, {"name": label})["spells"] == call(api.spells)["spells"]


# --- invitations ----------------------------------------------------------------------------


def _invitation(rules: dict[str, Any], seed: int = 1) -> session.Outcome:
    return session.create_invitation("Alice", rules, random.Random(seed).randbytes)


def test_an_invitation_naming_a_new_ruleset_is_version_3_and_shows_its_rules() -> None:
    out = _invitation({"name": NAME})
    assert out.code is not None
    assert codes.unwrap(out.code)[0] == codes.RULESET_VERSION  # older pages say "newer version"
    assert codes.decode_message(out.code).ruleset == {"name": NAME}
    seen = session.describe(out.code)
    assert seen["ruleset"] == {"name": NAME}
    assert seen["rules"] == {"name": NAME, "title": "Zap first", "options": [],
                             "description": "The standard rules with a zap in the first row."}
    for rules in ({}, {"name": "standard"}, {"withhold": True}):
        plain = _invitation(rules)
        assert plain.code is not None and codes.unwrap(plain.code)[0] == codes.VERSION
    house = session.describe(_invitation({"withhold": True}).code or "")["rules"]
    assert house["name"] == "standard" and [o["key"] for o in house["options"]] == ["withhold"]


def test_the_version_byte_of_an_invitation_follows_its_ruleset() -> None:
    """One encoding per message: a new ruleset's invitation as version 1 is not a code this
    page makes (a version-1 page would play the standard rules under that name)."""
    crafted = Message(MsgType.INVITE, 0, b"\1\2\3\4", 0, 0, "orders", name="Alice",
                      ruleset={"name": NAME})
    code = codes.encode_message(crafted)
    body = bytearray(codes.unwrap(code))
    body[0] = codes.VERSION
    as_v1 = codes.PREFIX + base64.urlsafe_b64encode(
        bytes(body) + zlib.crc32(bytes(body)).to_bytes(4, "big")).decode().rstrip("=")
    with pytest.raises(codes.MalformedCode):
        codes.decode_message(as_v1)


def test_an_invitation_to_rules_this_page_does_not_know_is_refused_clearly() -> None:
    newer = codes.encode_message(Message(MsgType.INVITE, 0, b"\1\2\3\4", 0, 0, "orders",
                                         name="Alice", ruleset={"name": "warlocks-2099"}))
    for answer in (call(remote_api.remote_describe, newer),
                   call(remote_api.remote_accept, newer, "Bob")):
        assert answer["ok"] is False and answer["error"]["code"] == "unknown-ruleset"
        message = answer["error"]["message"]
        assert "Alice's duel" in message and "'warlocks-2099'" in message
        assert "Zap first" in message and "Reload the page" in message
    with pytest.raises(UnknownRuleset):  # the host's page refuses to write such a name
        _invitation({"name": "warlocks-2099"})


# --- turn codes: spells numbered by the game's ruleset's table ------------------------------


NOTHING: dict[str, Any] = {"gestures": [["-", "-"]]}
MISSILE_AT_ALICE: list[dict[str, Any]] = [{"gestures": [["S", "-"]]},
                    {"gestures": [["D", "-"]],
                     "casts": [{"set": 0, "hand": "L", "spell": "missile", "target": "W0"}]}]


def _duel_by_codes(rules: dict[str, Any], bob: list[dict[str, Any]]
                   ) -> tuple[session.Session, session.Session, list[str]]:
    """Bob (the guest) plays `bob`, one orders a turn, while Alice does nothing; every session
    goes through storage between moves.  Returns host, guest and Bob's codes: his code i
    reveals his orders of turn i (code 0 is the acceptance)."""
    rand = random.Random(5).randbytes
    inv = session.create_invitation("Alice", rules, rand)
    host = inv.session
    guest = session.accept_invitation(inv.code or "", "Bob", REAL)
    sent: list[str] = []
    for orders in [*bob, NOTHING]:
        mine = session.seal(reloaded(guest), orders, REAL, rand)
        assert mine.code is not None
        sent.append(mine.code)
        got = session.receive(reloaded(host), mine.code, REAL, rand)
        if len(sent) > len(bob):  # Bob's last code revealed his last orders: both sides agree
            return got.session, mine.session, sent
        answer = session.seal(got.session, NOTHING, REAL, rand)
        assert answer.code is not None
        host = answer.session
        guest = session.receive(mine.session, answer.code, REAL, rand).session
    raise AssertionError("unreachable")


def _duel_with_a_missile(rules: dict[str, Any]) -> tuple[session.Session, session.Session,
                                                           str]:
    """Bob casts a missile at Alice on turn 2; returns host, guest and the code that reveals
    the cast to Alice."""
    host, guest, sent = _duel_by_codes(rules, MISSILE_AT_ALICE)
    return host, guest, sent[2]


def _revealed_spell(code: str, numbers: codes.SpellNumbers) -> Any:
    m = codes.decode_message(code, numbers)
    assert isinstance(m.reveal, Sealed) and isinstance(m.reveal.input, dict)
    return m.reveal.input["casts"][0]["spell"]


def test_a_duel_by_codes_under_a_new_ruleset_numbers_spells_by_its_table() -> None:
    host, guest, code = _duel_with_a_missile({"name": NAME})
    assert host.game is not None and guest.game is not None
    assert host.game["ruleset"]["name"] == guest.game["ruleset"]["name"] == NAME
    assert REAL.digest(host.game) == REAL.digest(guest.game)
    mine = codes.spell_numbers(VARIANTS[NAME].table)
    assert host.numbers is mine and guest.numbers is mine
    assert _revealed_spell(code, mine) == "missile"
    standard_row = codes.WIRE_SPELLS.index("missile")
    assert mine.number("missile") == standard_row + 1
    # Read with the standard table the same bits name the row before: the numbering matters.
    assert _revealed_spell(code, codes.STANDARD_NUMBERS) == codes.WIRE_SPELLS[standard_row + 1]
    assert _revealed_spell(code, codes.ROUTING) == f"#{standard_row + 1}"
    assert code_kind(code)  # routing a code needs no table
    view = json.loads(api.view(json.dumps(host.game), "0"))["view"]
    assert view["wizards"][0]["damage"] == 1  # the missile hit Alice


def test_a_standard_duels_codes_keep_version_1_numbers() -> None:
    host, _, code = _duel_with_a_missile({})
    assert host.numbers is codes.STANDARD_NUMBERS
    assert _revealed_spell(code, codes.STANDARD_NUMBERS) == "missile"
    assert codes.decode_message(code).reveal == codes.decode_message(
        code, codes.STANDARD_NUMBERS).reveal


def test_a_saved_session_under_a_new_ruleset_reloads() -> None:
    host, guest, _ = _duel_with_a_missile({"name": NAME})
    for s in (host, guest):
        again = reloaded(s)
        assert again == s and again.ruleset == {"name": NAME}


# --- records --------------------------------------------------------------------------------


def test_a_record_carries_its_ruleset_and_one_of_unknown_rules_is_refused() -> None:
    host, _, _ = _duel_with_a_missile({"name": NAME})
    record = call(api.export_record, host.game)["record"]
    assert record["ruleset"]["name"] == NAME
    loaded = call(api.import_record, record)
    assert loaded["ok"] and loaded["game"]["ruleset"]["name"] == NAME
    assert call(api.replay_step, record, 1)["ok"]
    newer = {**record, "ruleset": {"name": "warlocks-2099", "withhold": False}}
    for answer in (call(api.import_record, newer), call(api.replay_step, newer, 0)):
        assert answer["ok"] is False and answer["error"]["code"] == "unknown-ruleset"
        assert "this record's duel" in answer["error"]["message"].lower()
    for label in PRE_SEAM_LABELS:
        old = {**record, "ruleset": {"name": label, "withhold": False}, "phases": []}
        assert call(api.import_record, old)["ok"], label


def test_a_new_game_under_the_new_ruleset_plays_its_table() -> None:
    out = call(api.new_game, {"names": ["A", "B"], "seed": "00ff00ff", "ruleset": {"name": NAME}})
    assert out["ok"] and out["game"]["ruleset"] == {"name": NAME, "withhold": False}
    assert Ruleset.from_json(out["game"]["ruleset"]).table is VARIANTS[NAME].table


def test_a_warlocks_duel_by_codes_casts_maladroitness_by_the_warlocks_number() -> None:
    """Warlocks' table has no raise dead and puts maladroitness where confusion was: the code
    carries Warlocks' row number, which read as the standard table is another spell."""
    maladroit: list[dict[str, Any]] = [{"gestures": [["D", "-"]]}, {"gestures": [["S", "-"]]},
                 {"gestures": [["F", "-"]],
                  "casts": [{"set": 0, "hand": "L", "spell": "maladroitness", "target": "W0"}]}]
    host, guest, sent = _duel_by_codes({"name": "warlocks"}, maladroit)
    assert host.game is not None and guest.game is not None
    assert host.game["ruleset"]["name"] == "warlocks"
    assert REAL.digest(host.game) == REAL.digest(guest.game)
    warlocks = codes.spell_numbers(VARIANTS["warlocks"].table)
    assert _revealed_spell(sent[3], warlocks) == "maladroitness"
    number = warlocks.number("maladroitness")
    assert number is not None and number != codes.WIRE_SPELLS.index("confusion")
    assert _revealed_spell(sent[3], codes.STANDARD_NUMBERS) == codes.WIRE_SPELLS[number]
    log = json.dumps(json.loads(api.view(json.dumps(host.game), "0"))["view"]["log"])
    assert "aladroit" in log  # Alice was told what hit her


def _casting_policy(eng: Any, game: dict[str, Any], me: int, ph: Any,
                    rng: random.Random) -> dict[str, Any]:
    """Random legal gestures, and an explicit cast entry (spell and target) for every spell they
    complete, so that the codes carry spell numbers."""
    x = random_policy(eng, game, me, ph, rng)
    if ph.kind == "decision":
        return x
    p = json.loads(api.preview(json.dumps(game), json.dumps(me), json.dumps(x)))
    casts = [{"set": q["set"], "hand": q["hand"], "spell": q["spell"],
              "target": rng.choice(q["options"])["id"]}
             for q in (p["preview"].get("questions", []) if p.get("ok") else [])
             if q.get("kind") == "target" and q.get("options")]
    with_casts = {**x, "casts": casts} if casts else x
    return with_casts if not eng.problems(game, me, with_casts) else x


# Whole duels through codes are ~10x slower inside Pyodide (where the suite runs again): one.
@pytest.mark.parametrize("seed", [1] if sys.platform == "emscripten" else [1, 2, 3])
def test_random_warlocks_duels_by_codes_agree_to_the_end(seed: int) -> None:
    """Whole random Warlocks duels through codes (sessions reloaded between every step): both
    sides end in the same state, under Warlocks, and the codes carried casts by number."""
    numbered: list[str] = []

    def spy(code: str, receiver: session.Session) -> None:
        m = codes.decode_message(code, receiver.numbers)
        for item in (m.reveal, m.final):
            if isinstance(item, Sealed) and isinstance(item.input, dict):
                numbered.extend(c["spell"] for c in item.input.get("casts", []) if c["spell"])

    ex = play(REAL, random.Random(seed), _casting_policy, on_code=spy, reload=True,
              rules={"name": "warlocks"})
    assert ex.host.game is not None and ex.host.game == ex.guest.game
    assert ex.host.game["ruleset"]["name"] == "warlocks"
    assert ex.host.game.get("result") is not None, "the duel ran to its end"
    assert numbered and set(numbered) <= set(VARIANTS["warlocks"].table)


def test_sessions_saved_before_per_ruleset_numbers_still_play_on() -> None:
    """Two sides of a duel by codes saved by the page before spells were numbered per ruleset
    (tests/data/remote_sessions_before_rulesets.json, made by commit 75a7e44: Bob owes the
    reveal of his turn-2 missile, Alice waits for it) load unchanged and finish the turn."""
    saved = json.loads((Path(__file__).parent / "data" /
                        "remote_sessions_before_rulesets.json").read_text("utf-8"))
    host = session.Session.from_json(saved["host"])
    guest = session.Session.from_json(saved["guest"])
    assert host.to_json() == saved["host"] and guest.to_json() == saved["guest"]
    assert guest.owed is not None and isinstance(guest.owed.input, dict)
    assert guest.owed.input["casts"][0]["spell"] == "missile"
    rand = random.Random(3).randbytes
    sent = session.seal(guest, NOTHING, REAL, rand)
    got = session.receive(host, sent.code or "", REAL, rand)
    assert got.session.game is not None and guest.game is not None
    assert REAL.digest(got.session.game) == REAL.digest(guest.game)
    view = json.loads(api.view(json.dumps(got.session.game), "0"))["view"]
    assert view["wizards"][0]["damage"] == 1  # the missile, read by the old numbering


def test_the_cli_prints_a_rulesets_table(capsys: pytest.CaptureFixture[str]) -> None:
    from wavinghands.__main__ import main

    assert main(["spells", "--ruleset", "warlocks"]) == 0
    assert "Maladroitness" in capsys.readouterr().out
    assert main(["spells"]) == 0
    assert "Maladroitness" not in capsys.readouterr().out
    assert main(["spells", "--ruleset", "warlocks-2099"]) == 2
    assert "'warlocks-2099'" in capsys.readouterr().err


def test_a_saved_duel_under_rules_this_page_does_not_know_is_refused() -> None:
    game = call(api.new_game, {"names": ["A", "B"], "seed": "00ff00ff",
                               "ruleset": {"name": "warlocks"}})["game"]
    assert call(api.view, game, 0)["ok"]
    newer = {**game, "ruleset": {"name": "warlocks-2099", "withhold": False}}
    for answer in (call(api.view, newer, 0), call(api.step, newer, {})):
        assert answer["ok"] is False and answer["error"]["code"] == "unknown-ruleset"
        assert "this saved duel" in answer["error"]["message"].lower()


def test_my_sealed_input_reads_back_by_the_games_numbers() -> None:
    """What the page shows of orders sealed early (session.mine_as_input) is read with the
    game's numbering, as they were written."""
    rand = random.Random(8).randbytes
    inv = session.create_invitation("Alice", {"name": NAME}, rand)
    guest = session.accept_invitation(inv.code or "", "Bob", REAL)
    first = session.seal(guest, MISSILE_AT_ALICE[0], REAL, rand)
    host = session.receive(inv.session, first.code or "", REAL, rand).session
    answer = session.seal(host, NOTHING, REAL, rand)
    guest = session.receive(first.session, answer.code or "", REAL, rand).session
    sealed = session.seal(guest, MISSILE_AT_ALICE[1], REAL, rand).session
    assert sealed.pending is not None and sealed.pending.committer == 1
    mine = session.mine_as_input(reloaded(sealed), REAL)
    assert mine["casts"][0]["spell"] == "missile"
