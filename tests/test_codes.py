"""Turn codes and remote sessions (docs/protocol.md): property tests.

Duels run against the stand-in engine of fake_engine.py (cheap, and it reaches two-wizard
decisions and time stops often) and against the real engine (remote.engine.PythonEngine).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import random
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))

import contextlib

from fake_engine import FakeEngine
from remote_driver import code_kind, play, random_policy, reloaded
from sizes import size

from wavinghands.errors import IllegalInput, WavingHandsError
from wavinghands.remote import codes, inputs, session
from wavinghands.remote import engine as remote_engine
from wavinghands.remote import json_api as remote_api
from wavinghands.remote.codes import (
    PREFIX,
    CodeError,
    Commit,
    CorruptedCode,
    DecisionRefs,
    Message,
    MsgType,
    Sealed,
)
from wavinghands.remote.session import Session

FAKE = FakeEngine()


REAL = remote_engine.PythonEngine()
ENGINES = [pytest.param(FAKE, id="fake"), pytest.param(REAL, id="real")]
# Whole duels through codes per engine (tests/sizes.py: 10 by default, 25 under --deep, 5 in
# Pyodide, where they are ~10x slower).
SLOW = settings(max_examples=size(10, deep=25, pyodide=5), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# Examples of the codec's round trips and of the decoder's junk (tests/sizes.py: the deep run's
# are the numbers these tests had before, and bench/fuzz_codes.py goes on for thousands).  The
# strategies are small sums of cases (3 message kinds, 3 input shapes, a few optional fields
# each): in three runs of 100 messages each kind, input shape, optional field, reveal and final
# (plain, sealed, commitment) came at least twice (most 20-80 times), and a mistake in a
# field's bits fails on the first example that carries it.
CODEC = size(100, deep=300)
JUNK = size(200, deep=500)


# --- strategies -----------------------------------------------------------------------------

gesture = st.sampled_from(list("FPSWDC>-"))
target = st.one_of(
    st.sampled_from(["none", "W0", "W1"]),
    st.integers(1, 9999).map(lambda n: f"M{n}"),
    st.builds(lambda w, h: f"new:{w}:{h}", st.integers(0, 1), st.sampled_from("LRB")),
    st.builds(lambda w, h, s: f"new:{w}:{h}:{s}", st.integers(0, 1), st.sampled_from("LRB"),
              st.integers(0, 1)),
)


def _cast(nsets: int) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"hand": st.sampled_from("LRB")},
        optional={"set": st.integers(0, nsets - 1),
                  "spell": st.one_of(st.none(), st.sampled_from(codes.WIRE_SPELLS)),
                  "target": st.one_of(st.none(), target), "bank": st.booleans(),
                  "permanent": st.booleans()})


def _orders_for(sets: list[list[str]]) -> st.SearchStrategy[dict[str, Any]]:
    n = len(sets)
    return st.fixed_dictionaries({"gestures": st.just(sets)}, optional={
        "casts": st.lists(_cast(n), max_size=4),
        "stab": st.one_of(st.none(), target,
                          st.lists(st.one_of(st.none(), target), min_size=n, max_size=n)),
        "monsters": st.dictionaries(st.integers(1, 9999).map(lambda k: f"M{k}"),
                                    st.one_of(target, st.lists(target, min_size=1, max_size=2)),
                                    max_size=4),
        "charm": st.one_of(st.none(), st.fixed_dictionaries({"gesture": gesture})),
        "release": st.one_of(st.just(True), st.just(False), st.none(),
                             st.fixed_dictionaries({"target": target})),
    })


orders = st.lists(st.lists(gesture, min_size=2, max_size=2), min_size=1, max_size=2).flatmap(
    _orders_for)
json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                      st.text(max_size=12))
json_value = st.recursive(json_leaf, lambda c: st.one_of(
    st.lists(c, max_size=4), st.dictionaries(st.text(max_size=8), c, max_size=4)),
    max_leaves=12)
any_input = st.one_of(
    orders,
    st.dictionaries(st.text(max_size=10), json_value, min_size=0, max_size=4),
    st.lists(st.tuples(st.integers(0, 63), st.integers(0, 63)), min_size=1, max_size=16,
             unique_by=lambda p: p[0]).map(lambda ps: DecisionRefs(tuple(sorted(ps)))),
)
nonce = st.binary(min_size=codes.NONCE_LEN, max_size=codes.NONCE_LEN)


def _fits(x: Any) -> bool:
    try:
        codes.encode_input(x)
    except ValueError:
        return False
    return True


sealed = st.builds(Sealed, any_input.filter(_fits), nonce)
messages = st.builds(
    lambda t, sender, gid, seq, turn, phase, state, name, rules, reveal, solo, final: Message(
        t, 0 if t is MsgType.INVITE else sender, gid,
        0 if t is MsgType.INVITE else (1 if t is MsgType.ACCEPT else seq), turn, phase,
        b"" if t is MsgType.INVITE else state,
        name if t is not MsgType.TURN else "",
        rules if t is MsgType.INVITE else None,
        None if t is MsgType.INVITE else reveal,
        () if t is MsgType.INVITE else solo,
        None if t is MsgType.INVITE else final),
    st.sampled_from(list(MsgType)), st.integers(0, 1),
    st.binary(min_size=codes.GAME_ID_LEN, max_size=codes.GAME_ID_LEN),
    st.integers(2, 5000), st.integers(0, 5000), st.sampled_from(codes.PHASE_KINDS),
    st.binary(min_size=codes.DIGEST_LEN, max_size=codes.DIGEST_LEN),
    st.text(max_size=10).filter(lambda s: len(s.encode()) <= codes.MAX_NAME_BYTES),
    st.dictionaries(st.text(max_size=6), json_leaf, max_size=3),
    st.one_of(st.none(), sealed), st.lists(any_input.filter(_fits), max_size=3).map(tuple),
    st.one_of(st.none(), sealed, st.builds(
        Commit, st.binary(min_size=codes.COMMIT_LEN, max_size=codes.COMMIT_LEN))),
)


# --- the codec ------------------------------------------------------------------------------


@settings(max_examples=CODEC, deadline=None)
@given(orders)
def test_orders_round_trip_keep_their_meaning(x: dict[str, Any]) -> None:
    """decode(encode(x)) is x's normal form, and the engine's parser reads both alike."""
    from wavinghands.orders import OrderError, parse_orders

    data = codes.encode_input(x)
    y = codes.decode_input(data)
    assert codes.encode_input(y) == data
    assert isinstance(y, dict)
    try:
        want = parse_orders(x).to_json()
    except OrderError:
        return
    assert parse_orders(y).to_json() == want


@settings(max_examples=CODEC, deadline=None)
@given(any_input)
def test_any_input_round_trips(x: Any) -> None:
    """Every sendable input decodes to something that re-encodes to the same bytes."""
    try:
        data = codes.encode_input(x)
    except ValueError:
        return
    y = codes.decode_input(data)
    assert codes.encode_input(y) == data
    if x == {} or isinstance(x, DecisionRefs):
        assert y == x


def test_gesture_only_orders_take_one_byte() -> None:
    """The commonest orders, two gestures, cost 9 bits with their tag (docs/protocol.md)."""
    assert len(codes.encode_input({"gestures": [["F", "P"]]})) == 2
    w = inputs.BitWriter()
    inputs.write_input(w, {"gestures": [["F", "P"]]})
    assert w._n == 9


@settings(max_examples=CODEC, deadline=None)
@given(messages)
def test_messages_round_trip(m: Message) -> None:
    """decode(encode(m)) is m with its inputs in normal form, and re-encodes to the same code."""
    code = codes.encode_message(m)
    assert code.startswith(PREFIX)
    norm = codes.normalize_input

    def sealed_norm(x: Any) -> Any:
        return Sealed(norm(x.input), x.nonce) if isinstance(x, Sealed) else x

    want = dataclasses.replace(m, reveal=sealed_norm(m.reveal), final=sealed_norm(m.final),
                               solo=tuple(norm(x) for x in m.solo))
    got = codes.decode_message(code)
    assert got == want
    assert codes.encode_message(got) == code
    assert codes.decode_message(codes.extract_code(codes.make_link(code, "https://x/#old"))) == got


@settings(max_examples=size(500, deep=2000), deadline=None)
@given(st.binary(max_size=80))
def test_decoder_is_total_and_canonical(body: bytes) -> None:
    """Any bytes with a valid checksum: a CodeError, or a message that re-encodes to them."""
    code = PREFIX + codes._b64encode(body + zlib.crc32(body).to_bytes(4, "big"))
    try:
        m = codes.decode_message(code)
    except CodeError:
        return
    assert codes.encode_message(m) == code


@settings(max_examples=JUNK, deadline=None)
@given(st.text(max_size=80))
def test_decoder_rejects_junk_text(text: str) -> None:
    """Arbitrary pasted text never raises anything but CodeError."""
    with contextlib.suppress(CodeError):
        codes.decode_message(codes.extract_code(text))


# SHA-256 of the comma-joined spell keys in version 1's wire order (the table's 39 rows when
# version 1 was fixed).  If this fails, a row was moved or removed: put it back, or bump VERSION.
WIRE_V1_SPELLS = (39, "b38e42968f85c9b2b348e3e705a0f1c3968bfb1f028d4c326d8070183ddc3f72")
# A turn code made by the version-1 encoder before the wire read the spell table.
V1_CODE = "WH1.AaAKCwwNAwIBAgMEJUPwIm2KTLvwAAQIDBAUGBwyBod_"


def test_wire_spells_are_the_table_in_row_order() -> None:
    """A cast's spell number is its row in the spell table: a new row needs no wire change."""
    from wavinghands.spells import all_spells

    assert tuple(s.key for s in all_spells()) == codes.WIRE_SPELLS
    assert len(codes.WIRE_SPELLS) < 63  # 6 bits, 63 meaning "no spell"


def test_wire_spell_numbers_of_version_1_never_change() -> None:
    """Rows are only ever appended, so every version-1 code keeps its meaning."""
    count, digest = WIRE_V1_SPELLS
    first = ",".join(codes.WIRE_SPELLS[:count]).encode()
    assert hashlib.sha256(first).hexdigest() == digest
    m = codes.decode_message(V1_CODE)
    assert isinstance(m.final, Sealed)
    assert m.final.input == {"gestures": [["S", "D"], ["P", "-"]], "casts": [
        {"set": 0, "hand": "R", "spell": "missile", "target": "M2"},
        {"set": 1, "hand": "L", "spell": "permanency", "permanent": True},
        {"set": 1, "hand": "B", "spell": None}]}
    assert codes.encode_message(m) == V1_CODE


def test_a_spell_beyond_the_table_says_newer_page() -> None:
    """A cast numbering a row this page lacks came from a newer page: say so, not "damaged"."""
    orders = {"gestures": [["S", "D"]], "casts": [{"set": 0, "hand": "R", "spell": "missile"}]}
    data = bytearray(codes.encode_input(orders))
    # Layout: 1 orders tag, 1 sets, 6 gestures, 1 more, 5 fields, 4 count, 2 hand, then 6 spell.
    pos = 1 + 1 + 6 + 1 + 5 + 4 + 2
    value = int.from_bytes(data, "big")
    width = len(data) * 8
    shift = width - pos - 6
    assert (value >> shift) & 63 == codes.WIRE_SPELLS.index("missile")  # the layout is right
    value = value & ~(63 << shift) | 62 << shift  # row 62: beyond any table this version has
    with pytest.raises(codes.UnsupportedVersion, match="newer version"):
        codes.decode_input(value.to_bytes(len(data), "big"))


def test_links_and_pasted_text() -> None:
    """A link carries the code in its fragment; whitespace in a paste is forgiven."""
    code = _sample_codes(FAKE, 1)[0]
    link = codes.make_link(code, "https://example.org/wh/?x=1#c=old")
    assert link == "https://example.org/wh/?x=1#c=" + code
    assert codes.extract_code(link) == code
    assert codes.extract_code(f"  {code[:20]}\n{code[20:]} ") == code
    assert codes.extract_code("https://e.org/#a=1&c=" + code.replace(".", "%2E")) == code
    with pytest.raises(CorruptedCode):
        codes.extract_code("https://e.org/#nothing")
    with pytest.raises(CorruptedCode):
        codes.decode_message("hello")


# --- duels through codes --------------------------------------------------------------------


@pytest.mark.parametrize("eng", ENGINES)
@SLOW
@given(st.integers(0, 2**32))
def test_duels_through_codes_end_identical(eng: session.Engine, seed: int) -> None:
    """Random duels played only through codes end in the same state on both sides, and the
    state equals stepping the engine directly with the inputs the codes carried."""
    ex = play(eng, random.Random(seed), reload=seed % 2 == 0)
    assert ex.host.game is not None and ex.host.game == ex.guest.game
    assert eng.phase(ex.host.game).kind == "over"
    assert ex.host.pending is None and ex.guest.pending is None
    for s in (ex.host, ex.guest):
        assert session.status(s, eng)["state"] == "over"
    assert _replayed(eng, ex.host.game) == ex.host.game
    # Messages alternate: host sends even numbers, guest odd.
    assert ex.host.sent == tuple(c for c in _all(ex) if codes.decode_message(c).sender == 0)
    assert ex.guest.received == ex.host.sent
    assert ex.host.received == ex.guest.sent


def _replayed(eng: session.Engine, game: dict[str, Any]) -> dict[str, Any]:
    """The game rebuilt from its record alone, outside any session."""
    if isinstance(eng, FakeEngine):
        g = eng.new_game((game["names"][0], game["names"][1]), game["ruleset"], game["seed"])
        for entry in game["record"]:
            g, _ = eng.step(g, {int(k): v for k, v in entry["inputs"].items()})
        return g
    from wavinghands import api

    rec = json.loads(api.export_record(json.dumps(game)))["record"]
    out: dict[str, Any] = json.loads(api.import_record(json.dumps(rec)))["game"]
    return out


def _all(ex: Any) -> list[str]:
    return [c for _, c in ex.codes]


def test_fake_duels_reach_every_protocol_path() -> None:
    """The stand-in engine exercises single and double decisions and time stops."""
    seen: dict[str, int] = {}
    # (tests/sizes.py: the first 2 duels already reach every path below, the first 20 each at
    # least 7 times; 80 under --deep.)
    for seed in range(size(20, deep=80)):
        ex = play(FAKE, random.Random(seed))
        assert ex.host.game == ex.guest.game
        for rec in ex.host.game["record"]:  # type: ignore[index]
            key = f"{rec['kind']}/{len(rec['inputs'])}"
            seen[key] = seen.get(key, 0) + 1
        for kind, _ in ex.codes:
            seen[kind] = seen.get(kind, 0) + 1
    for needed in ("orders/2", "decision/1", "decision/2", "time_stop/1", "nonce-only",
                   "reveal", "reveal+commit", "plain", "decision+commit"):
        assert seen.get(needed, 0) > 0, (needed, seen)


def _scripted(caster: int, plan: list[tuple[str, str]]) -> Any:
    """The caster gestures `plan` from turn 1; afterwards both stab; decisions take option 0."""

    def policy(eng: session.Engine, game: dict[str, Any], me: int, ph: session.PhaseInfo,
               rng: random.Random) -> dict[str, Any]:
        if ph.kind == "decision":
            return {"decisions": {d.id: d.options[0] for d in ph.decisions if d.wizard == me}}
        if ph.kind == "time_stop":
            return {"gestures": [["-", ">"]], "stab": f"W{1 - me}"}
        t = ph.turn
        if me == caster and t <= len(plan):
            g = list(plan[t - 1])
        else:
            g = ["-", ">"] if t > len(plan) else ["-", "-"]
        x: dict[str, Any] = {"gestures": [g]}
        if ">" in g:
            x["stab"] = f"W{1 - me}"
        return x if not eng.problems(game, me, x) else random_policy(eng, game, me, ph, rng)

    return policy


@pytest.mark.parametrize("caster", [0, 1])
@pytest.mark.parametrize(("plan", "phase", "kinds"), [
    ([("S", "-"), ("P", "-"), ("P", "-"), ("C", "C")], "time_stop", {0: set(), 1: {"nonce-only"}}),
    ([("F", "-"), ("F", "-"), ("F", "-")], "decision",
     {0: {"decision+commit"}, 1: {"reveal+decision+commit"}}),
], ids=["time-stop", "paralysis"])
def test_real_engine_extra_phases(caster: int, plan: list[tuple[str, str]], phase: str,
                                  kinds: dict[int, set[str]]) -> None:
    """A time stop or a paralysis decision, for either wizard, goes through codes (with the
    extra message only where the protocol says) and both sides agree."""
    ex = play(REAL, random.Random(0), _scripted(caster, plan))
    assert ex.host.game is not None and ex.host.game == ex.guest.game
    extra = [(r["kind"], sorted(r["inputs"])) for r in ex.host.game["record"]
             if r["kind"] != "orders"]
    assert extra == [(phase, [str(caster)])]
    assert kinds[caster] <= {k for k, _ in ex.codes}


@pytest.mark.parametrize("caster", [0, 1])
def test_real_engine_warlocks_hasted_turns(caster: int) -> None:
    """Warlocks hasted turns go through codes like a time-stopped one (the hastened wizard alone
    gives orders), and both sides agree."""
    plan = [("P", "-"), ("W", "-"), ("P", "-"), ("W", "-"), ("W", "-"), ("C", "C")]
    ex = play(REAL, random.Random(0), _scripted(caster, plan), rules={"name": "warlocks"})
    assert ex.host.game is not None and ex.host.game == ex.guest.game
    assert ex.host.game["ruleset"]["name"] == "warlocks"
    extra = [(r["kind"], sorted(r["inputs"])) for r in ex.host.game["record"]
             if r["kind"] != "orders"]
    assert extra and all(x == ("time_stop", [str(caster)]) for x in extra)
    hasted = [r for r in ex.host.game["record"] if r["kind"] == "time_stop"]
    assert [r["turn"] for r in hasted][:2] == [8, 10]  # after normal turns 7 and 9


def test_the_status_names_a_hasted_turn() -> None:
    """The status line of a hasted turn says so (not "time-stopped")."""
    from wavinghands.duel import new_game, step
    from wavinghands.rulesets import find_ruleset

    game = new_game(("Alice", "Bob"), "5eed5eed", find_ruleset("warlocks"))
    for left, right in zip("PWPWWC-", "-----C-", strict=True):
        game, _ = step(game, {0: {"gestures": [[left, right]]}, 1: {"gestures": [["-", "-"]]}})
    assert game.phase.hasted
    mine = Session(0, b"\0" * 8, ("Alice", "Bob"), {"name": "warlocks"}, game.to_json(), 0)
    assert session.status(mine, REAL)["message"] == "Turn 8: write your orders for the hasted turn."


def test_lone_actor_dice_mix_in_the_other_share() -> None:
    """In a phase one wizard plays alone, his engine nonce depends on the other's share."""
    ph = session.PhaseInfo("time_stop", 5, (0,))
    orders_ = {"gestures": [["F", "P"]]}
    a = session._engine_inputs(ph, {0: (orders_, b"\1" * 8), 1: ({}, b"\2" * 8)})
    b = session._engine_inputs(ph, {0: (orders_, b"\1" * 8), 1: ({}, b"\3" * 8)})
    assert set(a) == {0} and a[0]["nonce"] != b[0]["nonce"]
    both = session.PhaseInfo("orders", 5, (0, 1))
    c = session._engine_inputs(both, {0: (orders_, b"\1" * 8), 1: (orders_, b"\2" * 8)})
    assert c[0]["nonce"] == "01" * 8 and c[1]["nonce"] == "02" * 8
    with pytest.raises(IllegalInput):
        session._engine_inputs(ph, {0: (orders_, b"\1" * 8), 1: (orders_, b"\2" * 8)})


# --- errors ---------------------------------------------------------------------------------


def _sample_codes(eng: session.Engine, seed: int) -> list[str]:
    return _all(play(eng, random.Random(seed)))


def _snapshots(eng: session.Engine, seed: int) -> list[tuple[Session, str]]:
    """(receiver session just before delivery, code) for every code of one duel."""
    snaps: list[tuple[Session, str]] = []
    play(eng, random.Random(seed), on_code=lambda code, s: snaps.append((s, code)))
    return snaps


CHARSET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/#%~ \n"


def test_every_single_character_change_is_rejected() -> None:
    """Changing any one character of a code (to anything) makes it rejected as corrupted, and
    the receiving session is unchanged."""
    snaps = _snapshots(FAKE, 3)
    picked: dict[str, tuple[Session, str]] = {}
    for s, code in snaps:
        picked.setdefault(code_kind(code), (s, code))
    assert {"accept", "plain", "reveal+commit"} <= set(picked)
    for s, code in picked.values():
        before = s.to_json()
        for i in range(len(code)):
            for ch in CHARSET:
                if ch == code[i]:
                    continue
                bad = code[:i] + ch + code[i + 1:]
                with pytest.raises(CorruptedCode):
                    session.receive(s, bad, FAKE)
        assert s.to_json() == before
        session.receive(s, code, FAKE)  # the genuine code still applies


def test_single_character_changes_of_invitations_are_rejected() -> None:
    """The same for invitations, which no session receives: the decoder alone rejects them."""
    code = session.create_invitation("Alice", {"withhold": True}, random.Random(1).randbytes).code
    assert code is not None
    for i in range(len(code)):
        for ch in CHARSET:
            if ch != code[i]:
                with pytest.raises(CorruptedCode):
                    session.read_invitation(code[:i] + ch + code[i + 1:])


def _reencode(code: str, **changes: Any) -> str:
    return codes.encode_message(dataclasses.replace(codes.decode_message(code), **changes))


def _first(snaps: list[tuple[Session, str]], kind: str) -> tuple[Session, str]:
    return next((s, c) for s, c in snaps if code_kind(c) == kind)


@settings(max_examples=size(60, deep=200), deadline=None)
@given(any_input.filter(_fits), nonce)
def test_only_the_committed_reveal_is_accepted(x: Any, n: bytes) -> None:
    """Replace the reveal in a genuine code by anything else: refused as changed orders."""
    s, code = _first(_SNAPS, "reveal+commit")
    m = codes.decode_message(code)
    assert m.reveal is not None
    forged = Sealed(x, n)
    if forged == m.reveal:
        return
    before = s.to_json()
    with pytest.raises(codes.RevealMismatch, match="changed after they were sealed"):
        session.receive(s, _reencode(code, reveal=forged), FAKE)
    assert s.to_json() == before


_SNAPS = _snapshots(FAKE, 5)


def test_errors_are_specific_and_change_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each kind of bad paste gets its own error; the session is unchanged and plays on."""
    monkeypatch.setattr(remote_engine, "_default_engine", FAKE)
    snaps = _SNAPS
    s, code = _first(snaps, "reveal+commit")
    m = codes.decode_message(code)
    other_game = _sample_codes(FAKE, 6)[3]
    later = next(c for _, c in snaps if codes.decode_message(c).seq == m.seq + 2)
    earlier = s.received[-1]
    own = s.sent[-1]
    v2 = code[:len(PREFIX)]
    raw = codes._b64decode(code[len(PREFIX):])[:-4]
    raw = bytes([9]) + raw[1:]  # a version no page speaks (2 is the early release's)
    v2 += codes._b64encode(raw + zlib.crc32(raw).to_bytes(4, "big"))
    cases: list[tuple[str, type[CodeError], str]] = [
        (other_game, codes.NotThisGame, "another game"),
        (later, codes.OutOfOrder, "turn"),
        (own, codes.OwnCode, "you made"),
        (v2, codes.UnsupportedVersion, "version"),
        (code[:-3], CorruptedCode, "copy it again"),
        (_reencode(code, state=b"\0\0\0\0"), codes.Desync, "reload"),
        (_reencode(code, turn=m.turn + 1), codes.Desync, "no longer agree"),
        (_reencode(code, reveal=None), codes.MalformedCode, "does not open"),
        (_reencode(earlier, final=Commit(b"\1" * 16)) if isinstance(
            codes.decode_message(earlier).final, Commit) else _reencode(
            earlier, turn=codes.decode_message(earlier).turn + 7), codes.ConflictingCode,
         "already"),
    ]
    before = s.to_json()
    for bad, err, text in cases:
        with pytest.raises(err, match=text):
            session.receive(s, bad, FAKE)
        assert s.to_json() == before, err
        out = json.loads(remote_api.remote_receive(json.dumps(before), json.dumps(bad)))
        assert out["ok"] is False and out["error"]["code"] == err.code
    # Pasting an applied code again is harmless.
    again = session.receive(s, earlier, FAKE)
    assert again.session is s and "Already applied" in again.note
    # And the genuine code still applies afterwards.
    assert session.receive(s, code, FAKE).session.seq == s.seq + 1


def test_illegal_orders_are_refused_both_ways() -> None:
    """My illegal orders are refused before sealing; the opponent's, when they arrive."""
    s, code = _first(_SNAPS, "plain")
    m = codes.decode_message(code)
    assert isinstance(m.final, Sealed)
    bad = _reencode(code, final=Sealed({"gestures": [[">", ">"]]}, m.final.nonce))
    before = s.to_json()
    with pytest.raises(IllegalInput, match="not legal"):
        session.receive(s, bad, FAKE)
    assert s.to_json() == before
    host = session.create_invitation("Alice", {}, random.Random(2).randbytes).session
    code0 = host.sent[0]
    guest = session.accept_invitation(code0, "Bob", FAKE)
    with pytest.raises(IllegalInput):
        session.seal(guest, {"gestures": [["X", "P"]]}, FAKE)
    with pytest.raises(codes.NotYourTurn):
        session.seal(host, {"gestures": [["F", "P"]]}, FAKE)


def test_commitments_bind_game_slot_and_sender() -> None:
    """The same input and nonce commit differently in another game, message or mouth."""
    x, n = {"gestures": [["F", "P"]]}, b"\7" * 8
    base = codes.commitment(b"abcd", 3, 1, x, n)
    assert len(base) == codes.COMMIT_LEN
    assert codes.commitment(b"abce", 3, 1, x, n) != base
    assert codes.commitment(b"abcd", 5, 1, x, n) != base
    assert codes.commitment(b"abcd", 3, 0, x, n) != base
    assert codes.commitment(b"abcd", 3, 1, x, b"\7" * 7 + b"\6") != base


def test_session_survives_json() -> None:
    """Session -> JSON -> Session is the identity, at every point of a duel."""
    for s, _ in _SNAPS:
        assert reloaded(s) == s
    with pytest.raises(codes.BadSession):
        Session.from_json({"format": "nope"})


def test_the_invitation_carries_the_ruleset_by_name_and_options() -> None:
    """The invitation carries the ruleset given less the standard game's defaults (so a rematch
    that passes it back carries the same); the guest's game is played under exactly that
    ruleset; an unknown option or ruleset name is refused by the host."""
    from wavinghands.ruleset import Ruleset

    standard = session.create_invitation("Alice", {}, random.Random(1).randbytes)
    assert codes.decode_message(standard.code or "").ruleset == {}
    house = session.create_invitation("Alice", {"withhold": True}, random.Random(1).randbytes)
    carried = codes.decode_message(house.code or "").ruleset
    assert carried == {"withhold": True}
    named = session.create_invitation("Alice", {"name": "standard", "withhold": True},
                                      random.Random(1).randbytes)
    assert named.code == house.code  # what the page sends: the standard name is the default
    guest = session.accept_invitation(house.code or "", "Bob", REAL)
    assert guest.game is not None
    assert Ruleset.from_json(guest.game["ruleset"]) == Ruleset.from_json({"withhold": True})
    with pytest.raises(WavingHandsError) as refused:
        session.create_invitation("Alice", {"withold": True}, random.Random(1).randbytes)
    assert refused.value.code == "bad-ruleset" and "withold" in str(refused.value)
    out = json.loads(remote_api.remote_invite(json.dumps({"name": "A", "ruleset": {"x": 1}})))
    assert out["ok"] is False and out["error"]["code"] == "bad-ruleset"
    out = json.loads(remote_api.remote_invite(json.dumps({"name": "A",
                                                          "ruleset": {"name": "warlok"}})))
    assert out["ok"] is False and out["error"]["code"] == "unknown-ruleset"


def test_an_invitation_of_the_older_page_still_opens() -> None:
    """Invitations made before the name travelled ({"withhold": true}) give the same game."""
    old = codes.encode_message(Message(MsgType.INVITE, 0, b"\1\2\3\4", 0, 0, "orders",
                                       name="Alice", ruleset={"withhold": True}))
    guest = session.accept_invitation(old, "Bob", REAL)
    assert guest.game is not None and guest.game["ruleset"]["withhold"] is True


# --- the JSON boundary ----------------------------------------------------------------------


def test_remote_api_plays_a_duel() -> None:
    """The browser's calls, JSON strings only, through a whole duel on the real engine."""
    rng = random.Random(9)
    inv = json.loads(remote_api.remote_invite(json.dumps({"name": "Alice",
                                                          "base_url": "https://w.h/"})))
    assert inv["ok"] and inv["link"].startswith("https://w.h/#c=WH1.")
    d = json.loads(remote_api.remote_describe(json.dumps(inv["link"])))
    assert d["code"]["kind"] == "invite" and d["code"]["host"] == "Alice"
    acc = json.loads(remote_api.remote_accept(json.dumps(inv["link"]), json.dumps("Bob")))
    assert acc["ok"], acc
    sides = {0: inv["session"], 1: acc["session"]}
    inbox: dict[int, list[str]] = {0: [], 1: []}
    for _ in range(300):
        moved = False
        for w in (0, 1):
            while inbox[w]:
                r = json.loads(remote_api.remote_receive(json.dumps(sides[w]),
                                                         json.dumps(inbox[w].pop(0))))
                assert r["ok"], r
                sides[w] = r["session"]
                if r["reply"]:
                    inbox[1 - w].append(r["reply"])
                moved = True
            st_ = json.loads(remote_api.remote_status(json.dumps(sides[w])))["status"]
            if st_["state"] == "your_input":
                s = Session.from_json(sides[w])
                assert s.game is not None
                x = random_policy(REAL, s.game, w, REAL.phase(s.game), rng)
                r = json.loads(remote_api.remote_seal(json.dumps(sides[w]), json.dumps(x)))
                assert r["ok"], r
                sides[w] = r["session"]
                if r["code"]:
                    inbox[1 - w].append(r["code"])
                moved = True
        if not moved:
            break
    assert sides[0]["game"] == sides[1]["game"]
    assert json.loads(remote_api.remote_status(json.dumps(sides[0])))["status"]["state"] == "over"


@settings(max_examples=CODEC, deadline=None)
@given(st.sampled_from(remote_api.__all__), st.lists(st.one_of(
    st.text(max_size=30), json_value.map(json.dumps)), min_size=0, max_size=3))
def test_remote_api_never_raises(name: str, args: list[str]) -> None:
    """Garbage in gives {"ok": false, ...}, never an exception."""
    fn = getattr(remote_api, name)
    try:
        out = fn(*args)
    except TypeError:
        return  # wrong arity is a programming error in the caller, not data
    assert isinstance(json.loads(out)["ok"], bool)


def test_base64_is_canonical() -> None:
    """A last character whose spare bits are set is refused (it would decode the same)."""
    code = _sample_codes(FAKE, 1)[1]
    body = code[len(PREFIX):]
    data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    assert codes._b64encode(data) == body


def test_a_later_versions_prefix_and_a_cut_code_say_so() -> None:
    """A `WH2.` code is from a newer page, not "not a code"; a code cut short says it may be
    incomplete rather than blaming one changed character."""
    code = _sample_codes(FAKE, 1)[1]
    newer = "WH2." + codes._b64encode(b"a body this version cannot check")
    with pytest.raises(codes.UnsupportedVersion, match="newer version"):
        codes.decode_message(newer)
    with pytest.raises(CorruptedCode, match="damaged"):  # only the prefix changed
        codes.decode_message("WH2." + code[len(PREFIX):])
    with pytest.raises(CorruptedCode, match="not a Waving Hands code"):
        codes.decode_message("XY1." + code[len(PREFIX):])
    for cut in range(1, 4):
        with pytest.raises(CorruptedCode) as caught:
            codes.decode_message(code[:-cut])
        assert "last character changed" not in str(caught.value)
        assert "copy" in str(caught.value)
