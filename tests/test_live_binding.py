"""A live connection carries one duel (issue 12, finding 1; docs/protocol.md, "Threat model").

Alice is live with Bob in duel D1 and also plays D2 with Carol. Bob pushes, over the connection,
D2's invitation, a D2 turn code and a code of no duel saved here: each is refused as
`other-duel`, naming Bob, before any session is looked at; D1's own codes go to D1. A new duel's
invitation may come live only while the connection carries no duel or its duel is over (a
rematch). The same holds at the JSON boundary the page calls.
"""

from __future__ import annotations

import json
import random

import pytest
from fake_engine import FakeEngine
from remote_driver import play, rand_from

from wavinghands.remote import binding, session
from wavinghands.remote import json_api as remote_api
from wavinghands.remote.codes import CorruptedCode, OtherDuel
from wavinghands.remote.session import Session

ENG = FakeEngine()
RAND = rand_from(random.Random(12))


def duel(host: str, guest: str) -> tuple[Session, Session, str, str]:
    """A duel one turn in: (host session, guest session, invitation, the guest's acceptance)."""
    out = session.create_invitation(host, {}, RAND)
    assert out.code is not None
    guest_side = session.accept_invitation(out.code, guest, ENG)
    sealed = session.seal(guest_side, {"gestures": [["F", "-"]]}, ENG, RAND)
    assert sealed.code is not None
    host_side = session.receive(out.session, sealed.code, ENG, RAND).session
    return host_side, sealed.session, out.code, sealed.code


D1_BOB, D1_ALICE, D1_INVITE, D1_ACCEPT = duel("Bob", "Alice")  # Alice is Bob's guest in D1
D2_ALICE, D2_CAROL, D2_INVITE, D2_ACCEPT = duel("Alice", "Carol")  # Alice hosts D2
SAVED = [D1_ALICE.game_id.hex(), D2_ALICE.game_id.hex()]  # what Alice's browser holds


def test_a_code_of_the_bound_duel_goes_to_it() -> None:
    turn2 = session.seal(D1_BOB, {"gestures": [["P", "-"]]}, ENG, RAND).code
    assert turn2 is not None
    routed = binding.route_live(D1_ALICE, turn2, SAVED, ENG)
    assert routed["route"] == binding.ROUTE_DUEL
    assert routed["code"]["game_id"] == D1_ALICE.game_id.hex()


@pytest.mark.parametrize("pushed", [D2_INVITE, D2_ACCEPT], ids=["invitation", "turn-code"])
def test_another_saved_duels_code_is_refused_naming_the_sender(pushed: str) -> None:
    with pytest.raises(OtherDuel) as refused:
        binding.route_live(D1_ALICE, pushed, SAVED, ENG)
    assert str(refused.value).startswith(
        "Bob sent a code for another duel over the live connection; it was ignored")
    assert refused.value.code == "other-duel"


def test_a_code_of_no_saved_duel_is_refused() -> None:
    _, _, _, stranger = duel("Dora", "Eve")
    with pytest.raises(OtherDuel, match=r"^Bob sent a code for another duel"):
        binding.route_live(D1_ALICE, stranger, SAVED, ENG)


def test_a_new_invitation_comes_live_only_when_the_connection_is_free() -> None:
    _, _, fresh, _ = duel("Bob", "Alice")
    # D1 is under way: a new duel's invitation would pull Alice out of it.
    with pytest.raises(OtherDuel, match="only once this duel is over"):
        binding.route_live(D1_ALICE, fresh, SAVED, ENG)
    # A connection made from the start screen carries no duel yet: that is what it waits for.
    assert binding.route_live(None, fresh, SAVED, ENG)["route"] == binding.ROUTE_INVITATION
    # D1 over: Bob's rematch.
    ex = play(ENG, random.Random(3))
    assert ex.guest.game is not None and ENG.phase(ex.guest.game).kind == "over"
    assert binding.route_live(ex.guest, fresh, SAVED, ENG)["route"] == binding.ROUTE_INVITATION


def test_an_unbound_connection_takes_no_saved_duel() -> None:
    for pushed in (D2_INVITE, D2_ACCEPT, D1_INVITE):
        with pytest.raises(OtherDuel, match="made from the start screen"):
            binding.route_live(None, pushed, SAVED, ENG)


def test_a_finished_duels_connection_takes_no_saved_duel_either() -> None:
    ex = play(ENG, random.Random(3))
    with pytest.raises(OtherDuel, match=r"^Alice sent a code for another duel"):
        binding.route_live(ex.guest, D2_INVITE, [ex.guest.game_id.hex(), *SAVED], ENG)


def test_a_damaged_code_keeps_its_own_error() -> None:
    with pytest.raises(CorruptedCode):
        binding.route_live(D1_ALICE, D2_INVITE[:-3], SAVED, ENG)


def test_the_json_boundary() -> None:
    def call(bound: Session | None, text: str) -> dict[str, object]:
        got = json.loads(remote_api.remote_route_live(
            json.dumps(bound.to_json() if bound else None), json.dumps(text), json.dumps(SAVED)))
        assert isinstance(got, dict)
        return got

    refused = call(D1_ALICE, D2_INVITE)
    assert refused["ok"] is False
    assert refused["error"]["code"] == "other-duel"  # type: ignore[index]
    assert "Bob sent a code for another duel" in refused["error"]["message"]  # type: ignore[index]
    turn2 = session.seal(D1_BOB, {"gestures": [["P", "-"]]}, ENG, RAND).code
    assert turn2 is not None
    fine = call(D1_ALICE, turn2)
    assert fine["ok"] is True and fine["route"] == "duel"
    bad = json.loads(remote_api.remote_route_live("null", json.dumps(D2_INVITE), '"not a list"'))
    assert bad["ok"] is False and bad["error"]["code"] == "malformed"
