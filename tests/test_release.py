"""Both players choose at the same time (docs/protocol.md, "Both choose at the same time"): live,
a reveal owed after a turn goes alone at once (`session.release`), so both sides see the result
together, and the side that released may write its next orders while the other commits first.

Checked here: whole duels played that way end identical on both sides, with the fake and the real
engine; the release is the only message written as wire version 2 and the version byte is bound
to it both ways; the status tells the page when a release can go and when orders may be written
ahead; nothing can be released when nothing is owed; the JSON boundary.
"""

from __future__ import annotations

import base64
import json
import random
import zlib
from typing import Any

import pytest
from fake_engine import FakeEngine
from remote_driver import play, rand_from, random_policy

from wavinghands.remote import codes, session
from wavinghands.remote import engine as remote_engine
from wavinghands.remote import json_api as remote_api
from wavinghands.remote.codes import MalformedCode, UnsupportedVersion

FAKE = FakeEngine()
REAL = remote_engine.PythonEngine()
ENGINES = [pytest.param(FAKE, id="fake"), pytest.param(REAL, id="real")]


def version_of(code: str) -> int:
    """The version byte of a turn code."""
    return codes.unwrap(code)[0]


def with_version(code: str, version: int) -> str:
    """The code with another version byte and a checksum that matches again."""
    body = bytearray(codes.unwrap(code))
    body[0] = version
    data = bytes(body) + zlib.crc32(bytes(body)).to_bytes(4, "big")
    return codes.PREFIX + base64.urlsafe_b64encode(data).decode().rstrip("=")


@pytest.mark.parametrize("eng", ENGINES)
@pytest.mark.parametrize("seed", range(6))
def test_duels_with_early_releases_end_identical(eng: Any, seed: int) -> None:
    ex = play(eng, random.Random(seed), release=True)
    assert ex.host.game == ex.guest.game
    assert eng.phase(ex.host.game).kind == "over"
    kinds = [kind for kind, _ in ex.codes]
    releases = [code for kind, code in ex.codes if kind == "reveal"]
    assert releases, kinds
    for kind, code in ex.codes:
        if kind == "invite":
            continue
        m = codes.decode_message(code)
        early = codes.is_early_release(m)
        release_version = codes.DECISION_RELEASE_VERSION if m.solo else codes.RELEASE_VERSION
        assert version_of(code) == (release_version if early else codes.VERSION), kind
    # Each side has committed first in some turn: the roles alternate once reveals go early.
    # (The acceptance is the guest's commitment to turn 1.)
    commits = [codes.decode_message(c).sender for k, c in ex.codes
               if k == "accept" or k.endswith("commit")]
    if len(commits) >= 2:
        assert set(commits) == {0, 1}, kinds


@pytest.mark.parametrize("seed", range(6))
def test_a_decision_goes_at_once_so_the_next_orders_open_for_both(seed: int) -> None:
    """Live, a decision is released as soon as it is made (with the reveal it follows, if any):
    no decision waits for the decider's next orders, so after a decision phase both players
    write the next orders at the same time (issue 24, bug 5)."""
    eng = FAKE  # its duels ask for decisions often
    ex = play(eng, random.Random(seed), release=True)
    assert ex.host.game == ex.guest.game
    decided = [codes.decode_message(c) for k, c in ex.codes if k != "invite"]
    released = [m for m in decided
                if m.solo and m.final is None and m.phase in ("orders", "time_stop")]
    for m in decided:
        # (in a time-stopped turn of the other wizard the sender's empty share goes at once)
        if m.solo and m.phase == "orders":
            assert m.final is None, "a decision waited for its sender's next orders"
    for m in released:
        assert codes.is_early_release(m)
    assert all(version_of(c) == codes.DECISION_RELEASE_VERSION for k, c in ex.codes
               if k != "invite" and codes.decode_message(c) in released)


def test_a_released_decision_leaves_the_decider_writing_ahead() -> None:
    """The side that released its decision may write the next orders at once (status.ahead),
    and the other side, having applied it, speaks first in that turn."""
    eng = FAKE
    for seed in range(40):
        seen: list[tuple[str, session.Session]] = []

        def note(code: str, receiver: session.Session, into: list[Any] = seen) -> None:
            into.append((code, receiver))

        ex = play(eng, random.Random(seed), release=True, on_code=note)
        for code, receiver in seen:
            if version_of(code) != codes.DECISION_RELEASE_VERSION:
                continue
            m = codes.decode_message(code)
            assert m.solo and m.final is None
            after = session.receive(receiver, code, eng).session
            st = session.status(after, eng)
            assert st["state"] == "your_input" and st["need"] in ("orders", "time_stop"), st
            assert ex.host.game == ex.guest.game
            return
    pytest.fail("no decision was released in 40 duels")


def _to_turn_two(eng: Any) -> tuple[session.Session, session.Session]:
    """Host and guest right after the guest has applied the host's plain orders of turn 1."""
    rng = random.Random(7)
    rand = rand_from(rng)
    out = session.create_invitation("Alice", {}, rand)
    assert out.code is not None
    guest = session.accept_invitation(out.code, "Bob", eng)
    assert guest.game is not None
    x = random_policy(eng, guest.game, 1, eng.phase(guest.game), rng)
    sealed = session.seal(guest, x, eng, rand)
    assert sealed.code is not None
    host = session.receive(out.session, sealed.code, eng, rand).session
    assert host.game is not None
    x0 = random_policy(eng, host.game, 0, eng.phase(host.game), rng)
    plain = session.seal(host, x0, eng, rand)
    assert plain.code is not None
    guest = session.receive(sealed.session, plain.code, eng, rand).session
    return plain.session, guest


def test_a_release_shows_both_sides_the_turn_at_once() -> None:
    eng = REAL
    host, guest = _to_turn_two(eng)
    st = session.status(guest, eng)
    assert st["state"] == "your_input" and st["turn"] == 2 and st["release"] is True
    assert session.status(host, eng)["release"] is False
    out = session.release(guest, eng)
    assert out.code is not None and version_of(out.code) == codes.RELEASE_VERSION
    guest = out.session
    after = session.status(guest, eng)
    # The guest waits, but may write its turn 2 orders now; nothing of them has gone out.
    assert after["state"] == "waiting" and after["ahead"] is True and after["sealed"] is False
    host = session.receive(host, out.code, eng).session
    assert host.game == guest.game  # turn 1 resolved on both sides with one message
    hs = session.status(host, eng)
    assert hs["state"] == "your_input" and hs["turn"] == 2 and hs["ahead"] is False
    # The host now commits first; the guest's orders go in plain once that commitment is in.
    rng = random.Random(3)
    assert host.game is not None
    commit = session.seal(host, random_policy(eng, host.game, 0, eng.phase(host.game), rng), eng)
    assert commit.code is not None
    assert isinstance(codes.decode_message(commit.code).final, codes.Commit)
    guest = session.receive(guest, commit.code, eng).session
    assert guest.game is not None
    answer = session.seal(guest, random_policy(eng, guest.game, 1, eng.phase(guest.game), rng), eng)
    assert answer.code is not None
    assert isinstance(codes.decode_message(answer.code).final, codes.Sealed)


def test_nothing_to_release_gives_no_code() -> None:
    host, guest = _to_turn_two(REAL)
    assert session.release(host, REAL).code is None  # the host owes no reveal
    once = session.release(guest, REAL)
    assert once.code is not None
    assert session.release(once.session, REAL).code is None  # and only once


def test_the_version_byte_is_bound_to_the_release() -> None:
    _host, guest = _to_turn_two(REAL)
    release = session.release(guest, REAL).code
    assert release is not None
    with pytest.raises(MalformedCode):
        codes.decode_message(with_version(release, codes.VERSION))
    ordinary = guest.sent[-1]  # the acceptance: a version 1 message
    with pytest.raises(MalformedCode):
        codes.decode_message(with_version(ordinary, codes.RELEASE_VERSION))
    with pytest.raises(MalformedCode):  # version 3 is an invitation naming a new ruleset
        codes.decode_message(with_version(release, codes.RULESET_VERSION))
    with pytest.raises(UnsupportedVersion):
        codes.decode_message(with_version(release, max(codes.SPOKEN_VERSIONS) + 1))
    # A page of version 1 only would say "use the same (newest) version" for the release.
    assert codes.decode_message(release).reveal is not None


def test_the_json_boundary_releases() -> None:
    host, guest = _to_turn_two(REAL)
    r = json.loads(remote_api.remote_release(json.dumps(guest.to_json())))
    assert r["ok"] and r["code"] and r["status"]["ahead"] is True
    r2 = json.loads(remote_api.remote_release(json.dumps(host.to_json())))
    assert r2["ok"] and r2["code"] is None and r2["status"]["release"] is False
    bad = json.loads(remote_api.remote_release("not json"))
    assert bad["ok"] is False and bad["error"]["code"]
