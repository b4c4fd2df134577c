"""The melee's JSON boundary (engine/wavinghands/api_melee.py, offered by wavinghands.api):
new melees of three to six, the table of every wizard, a hot-seat melee played to its end
through the boundary alone, and a melee by codes among three pages; every refusal an error
value that changes nothing (docs/rules.md "Melee", docs/protocol.md "Melee")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from dsl import Duel, cast

from wavinghands import api
from wavinghands.sessions import apply_game_delta

JSON = dict[str, Any]
SEED = "00112233aabbccdd"


def answer(text: str) -> JSON:
    """A boundary answer, parsed."""
    d: JSON = json.loads(text)
    return d


def new_melee(size: int, seed: str = SEED) -> JSON:
    """A fresh melee of `size` wizards through the boundary."""
    out = answer(api.melee_new(json.dumps({"names": [f"Wiz{i}" for i in range(size)],
                                           "seed": seed})))
    assert out["ok"] is True, out
    assert out["seats"] == size
    game: JSON = out["game"]
    return game


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_a_melee_starts_with_three_to_six_names_and_every_view_lists_every_being(
        size: int) -> None:
    game = new_melee(size)
    for seat in range(size):
        t = answer(api.melee_table(json.dumps(game), str(seat)))
        assert t["ok"] is True
        assert [r["index"] for r in t["rows"]] == [seat] + [i for i in range(size) if i != seat]
        assert t["rows"][0]["you"] is True and not any(r["you"] for r in t["rows"][1:])
        assert all(r["health"] == 14 and r["alive"] for r in t["rows"])
        assert [x["id"] for x in t["targets"]] == [f"W{i}" for i in range(size)] + ["none"]


@pytest.mark.parametrize("names", [["A", "B"], ["A"] * 7, "ABC", [1, 2, 3], None])
def test_a_melee_of_the_wrong_size_is_refused_with_a_reason(names: Any) -> None:
    out = answer(api.melee_new(json.dumps({"names": names, "seed": SEED})))
    assert out["ok"] is False
    assert out["error"]["code"] == "bad-names"
    assert "3 to 6" in out["error"]["message"]


def test_bad_requests_are_error_values() -> None:
    assert answer(api.melee_new("{"))["error"]["code"] == "bad-json"
    assert answer(api.melee_new(json.dumps({"names": ["a", "b", "c"]})))["error"]["code"] == \
        "bad-seed"
    assert answer(api.melee_new(json.dumps({"names": ["a", "b", "c"], "seed": SEED,
                                            "ruleset": {"name": "nope"}})))["ok"] is False
    game = json.dumps(new_melee(3))
    assert answer(api.melee_table(game, "3"))["error"]["code"] == "bad-wizard"
    assert answer(api.melee_table("[]", "0"))["error"]["code"] == "bad-game"


SURRENDER = {"gestures": [["P", "P"]]}


def ai_inputs(game: JSON, level: str = "novice") -> dict[str, JSON]:
    """Every actor's input from the computer opponent, through the boundary."""
    text = json.dumps(game)
    actors = answer(api.melee_table(text, "0"))["view"]["phase"]["actors"]
    out = {}
    for seat in actors:
        got = answer(api.ai_input(text, str(seat), json.dumps(level)))
        assert got["ok"] is True, got
        out[str(seat)] = got["input"]
    return out


def test_a_four_seat_hot_seat_melee_plays_to_its_end_through_the_boundary() -> None:
    """The page's hot-seat loop: views, the computer's moves (and its answers to the rules'
    questions), steps, until the game is over; the table keeps every wizard (dead ones too) and
    the record replays the same game.  The computer plays every seat until a wizard has died
    and a question has been answered (by turn 25 of this seed); then all the living but
    one surrender where the rules allow (docs/rules.md "Melee": he leaves the melee), a short
    way to the end (the computer alone takes 62 rounds to it)."""
    game = new_melee(4, "0a0b0c0d")
    asked = False
    for _ in range(200):
        table = answer(api.melee_table(json.dumps(game), "0"))
        phase = table["view"]["phase"]
        if phase["kind"] == "over":
            break
        asked = asked or phase["kind"] == "decision"
        inputs = ai_inputs(game)
        living = [r["index"] for r in table["rows"] if r["alive"] and not r["surrendered"]]
        if asked and len(living) < 4 and phase["kind"] == "orders":
            for seat in living[1:]:
                if not answer(api.validate(json.dumps(game), str(seat),
                                           json.dumps(SURRENDER)))["problems"]:
                    inputs[str(seat)] = SURRENDER
        stepped = answer(api.step(json.dumps(game), json.dumps(inputs)))
        assert stepped["ok"] is True, stepped
        assert set(stepped["events"]) == {"0", "1", "2", "3"}
        game = stepped["game"]
    table = answer(api.melee_table(json.dumps(game), "2"))
    assert table["view"]["phase"]["kind"] == "over"
    assert table["view"]["result"] is not None
    assert len(table["rows"]) == 4
    assert any(not r["alive"] for r in table["rows"]), "a dead wizard stays in the table"
    standing = [r for r in table["rows"] if r["alive"] and not r["surrendered"]]
    assert len(standing) <= 1
    rec = answer(api.export_record(json.dumps(game)))["record"]
    again = answer(api.import_record(json.dumps(rec)))["game"]
    assert again == game


# --- by codes ---------------------------------------------------------------------------------


def start_by_codes(size: int) -> tuple[list[JSON], list[str]]:
    """The host's invitation, each guest's acceptance, and every page given the others' codes:
    the sessions and every code posted."""
    host = answer(api.remote_melee_invite(json.dumps({"name": "Host", "seats": size})))
    assert host["ok"] is True, host
    assert len(host["codes"]) == size - 1
    sessions = [host["session"]]
    posted = list(host["codes"])
    for seat, code in enumerate(host["codes"], start=1):
        guest = answer(api.remote_melee_accept(json.dumps(code), json.dumps(f"Guest{seat}")))
        assert guest["ok"] is True, guest
        assert guest["status"]["me"] == seat
        sessions.append(guest["session"])
        posted.append(guest["code"])
    paste = "\n".join(posted)
    for i, s in enumerate(sessions):
        got = answer(api.remote_melee_receive(json.dumps(s), json.dumps(paste)))
        assert got["ok"] is True, got
        assert got["status"]["started"] is True
        assert got["status"]["names"] == ["Host"] + [f"Guest{k}" for k in range(1, size)]
        sessions[i] = got["session"]
    return sessions, posted



def play_round(sessions: list[JSON], yielding: frozenset[int] = frozenset()) -> \
        list[list[JSON]]:
    """One round: every participant seals (the computer's input when he acts; surrender for
    the seats `yielding`, where the rules allow it), every page reads the group's
    commitments, then the reveals; returns the events each page saw."""
    status = answer(api.remote_melee_status(json.dumps(sessions[0])))["status"]
    game = json.loads(sessions[0]["game"])
    chat: list[str] = []
    moves = ai_inputs(game)
    for seat in status["waiting_for"]:
        raw = moves.get(str(seat), {})
        if seat in yielding and status["phase"]["kind"] == "orders" and not answer(
                api.validate(json.dumps(game), str(seat), json.dumps(SURRENDER)))["problems"]:
            raw = SURRENDER
        sealed = answer(api.remote_melee_seal(json.dumps(sessions[seat]), json.dumps(raw)))
        assert sealed["ok"] is True, sealed
        sessions[seat] = sealed["session"]
        chat += sealed["codes"]
    seen: list[list[JSON]] = [[] for _ in sessions]
    reveals: list[str] = []
    for i, s in enumerate(sessions):
        got = answer(api.remote_melee_receive(json.dumps(s), json.dumps(" ".join(chat))))
        assert got["ok"] is True, got
        sessions[i] = got["session"]
        reveals += got["codes"]
        seen[i] += got["events"]
    for i, s in enumerate(sessions):
        got = answer(api.remote_melee_receive(json.dumps(s), json.dumps("\n".join(reveals))))
        assert got["ok"] is True, got
        sessions[i] = got["session"]
        seen[i] += got["events"]
    return seen


def test_a_three_player_melee_by_codes_plays_to_its_end_and_every_page_agrees() -> None:
    """The computer plays every seat for six rounds; then the guests surrender (a short
    game to its end: the host's the last wizard standing)."""
    sessions, _ = start_by_codes(3)
    rounds = 0
    told: list[set[int]] = [set() for _ in sessions]  # the turns each page saw events of
    while not answer(api.remote_melee_status(json.dumps(sessions[0])))["status"]["over"]:
        before = [s["round"] for s in sessions]
        seen = play_round(sessions, frozenset({1, 2}) if rounds >= 6 else frozenset())
        assert [s["round"] for s in sessions] == [r + 1 for r in before]
        for page, events in zip(told, seen, strict=True):
            page.update(int(e["turn"]) for e in events)
        rounds += 1
        assert rounds < 40
    last = json.loads(sessions[0]["game"])["phase"]["turn"]
    assert told == [set(range(1, last + 1))] * 3, "each page is told each turn's events"
    games = {s["game"] for s in sessions}
    assert len(games) == 1
    statuses = [answer(api.remote_melee_status(json.dumps(s)))["status"] for s in sessions]
    assert all(st["over"] and st["result"] is not None for st in statuses)
    rec = answer(api.remote_melee_record(json.dumps(sessions[1])))
    assert rec["ok"] is True and len(rec["record"]["players"]) == 3


def test_describe_reads_every_code_of_a_paste_without_a_session() -> None:
    sessions, posted = start_by_codes(4)
    read = answer(api.remote_melee_describe(json.dumps(" and ".join(posted))))
    assert read["ok"] is True
    kinds = [c["kind"] for c in read["codes"]]
    assert kinds == ["invite"] * 3 + ["accept"] * 3
    assert [c.get("seat") for c in read["codes"][:3]] == [1, 2, 3]
    assert read["codes"][0]["host"] == "Host"
    assert {c["game_id"] for c in read["codes"]} == {sessions[0]["game_id"]}


def test_a_tampered_paste_is_refused_and_changes_nothing() -> None:
    sessions, _ = start_by_codes(3)
    status = answer(api.remote_melee_status(json.dumps(sessions[1])))["status"]
    assert status["to_act"] is True and status["waiting_for"] == [0, 1, 2]
    sealed = answer(api.remote_melee_seal(json.dumps(sessions[1]), json.dumps(
        {"gestures": [["P", "P"]]})))
    code = sealed["codes"][0]
    broken = code[:-3] + ("A" if code[-3] != "A" else "B") + code[-2:]
    got = answer(api.remote_melee_receive(json.dumps(sessions[0]), json.dumps(broken)))
    assert got["ok"] is False and got["error"]["code"] == "corrupted"
    again = answer(api.remote_melee_seal(json.dumps(sealed["session"]), json.dumps({})))
    assert again["ok"] is False and again["error"]["code"] == "not-your-turn"
    assert answer(api.remote_melee_status('{"format": "x"}'))["error"]["code"] == "bad-session"
    illegal = answer(api.remote_melee_seal(json.dumps(sessions[2]), json.dumps(
        {"gestures": [["Q", "P"]]})))
    assert illegal["ok"] is False


@pytest.mark.parametrize("params", [{"name": "H", "seats": 2}, {"name": "H", "seats": 7},
                                    {"seats": 3}, {"name": "H", "seats": "3"}])
def test_an_invitation_of_the_wrong_shape_is_refused(params: JSON) -> None:
    out = answer(api.remote_melee_invite(json.dumps(params)))
    assert out["ok"] is False
    assert out["error"]["code"] in ("bad-seats", "bad-request")


def test_a_melee_s_target_lists_name_every_being_monsters_included() -> None:
    """docs/rules.md, "Melee": every being is a legal target. Wiz0 summons a goblin (S, F, W);
    then every wizard's targets and Wiz0's stab name all four wizards and the goblin, and the
    goblin's own question every wizard."""
    game = new_melee(4)
    for turn, gesture in enumerate("SFW"):
        inputs = {str(w): {"gestures": [[gesture if w == 0 else "-", "-"]],
                           "nonce": f"{turn:02x}{w:02x}" * 4} for w in range(4)}
        out = answer(api.step(json.dumps(game), json.dumps(inputs)))
        assert out["ok"] is True, out
        game = out["game"]
    wizards = [f"W{i}" for i in range(4)]
    for seat in range(4):
        ids = [x["id"] for x in answer(api.melee_table(json.dumps(game), str(seat)))["targets"]]
        monsters = [i for i in ids if i not in wizards and i != "none"]
        assert ids[:4] == wizards and len(monsters) == 1, ids
    draft = {"gestures": [[">", "-"]]}
    preview = answer(api.preview(json.dumps(game), "0", json.dumps(draft)))
    assert preview["ok"] is True, preview
    questions = preview["preview"]["questions"]
    asked = {q["kind"]: {o["id"] for o in q["options"]} for q in questions
             if q["kind"] in ("stab", "monster")}
    assert set(asked) == {"stab", "monster"}, questions
    assert set(wizards[1:]) | set(monsters) <= asked["stab"], asked
    assert set(wizards) <= asked["monster"], asked  # (the goblin is not offered itself)


def test_a_blind_wizard_s_table_says_the_others_enchantments_are_unseen() -> None:
    """docs/rules.md, "Melee" (views per pair of wizards): a blind wizard sees no one else's
    health or enchantments (his view gives them as null).  His table must still be read: it
    failed with "TypeError: 'NoneType' object is not iterable", which the page showed as "The
    saved duel could not be read" once a computer blinded another in a hot-seat melee
    (e2e/test_melee_hotseat.py, now and then)."""
    d = Duel(A="D W F F D - / - - - - D S", wizards=3)
    d.orders(5, "A", {"casts": [cast("B", "blindness", "W2")]})
    d.run()
    game = json.dumps(d.game.to_json())
    for seat in range(3):
        table = answer(api.melee_table(game, str(seat)))
        assert table["ok"] is True, table
        rows = {r["index"]: r for r in table["rows"]}
        blind = seat == 2
        assert rows[seat]["effects"] is not None  # his own are always known to him
        for other in {0, 1, 2} - {seat}:
            assert (rows[other]["effects"] is None) is blind, rows[other]
            assert (rows[other]["health"] is None) is blind, rows[other]
    names = [e["name"] for e in
             {r["index"]: r for r in answer(api.melee_table(game, "2"))["rows"]}[2]["effects"]]
    assert names == ["Blindness"]


def test_a_kept_melee_s_table_by_handle_is_its_table_by_json() -> None:
    """The page asks for a melee's tables by the kept game's handle (api.session_open,
    session_step: nothing parsed, the notes computed where the last left off, so a turn costs
    the same at turn 40 as at turn 4): each seat's table is the one the game's JSON gives,
    turn after turn; a handle the engine does not keep is an error value."""
    game = new_melee(4, "0badcafe")
    handle = answer(api.session_open(json.dumps(game)))["session"]
    for _ in range(6):
        for seat in range(4):
            by_handle = answer(api.melee_table(json.dumps(handle), str(seat)))
            assert by_handle == answer(api.melee_table(json.dumps(game), str(seat)))
        stepped = answer(api.session_step(json.dumps(handle), json.dumps(ai_inputs(game))))
        assert stepped["ok"] is True, stepped
        handle, game = stepped["session"], apply_game_delta(game, stepped["delta"])
    gone = answer(api.melee_table(json.dumps("s" + "0" * 32), "0"))
    assert gone["error"]["code"] == "unknown-session"
