"""An empty turn message is not an answer to a commitment (issue 12, item 6): it used to be
taken, the commitment silently dropped and re-made with a new nonce.  Now it is refused, the
session kept, and the real answer still applies."""

from __future__ import annotations

import dataclasses
import os

import pytest

from wavinghands.remote import codes, session
from wavinghands.remote.code_errors import MalformedCode
from wavinghands.remote.codes import Commit, Sealed

ORDERS = {"gestures": [["W", "W"]]}


def test_an_empty_answer_to_my_commitment_is_refused() -> None:
    """The guest commits to turn 1 in the acceptance; the host's answer must carry his sealed
    orders.  The same answer with its input taken out is refused and changes nothing."""
    host = session.create_invitation("Host", {}, os.urandom)
    guest = session.accept_invitation(host.code or "", "Guest")
    accepted = session.seal(guest, ORDERS, None, os.urandom)
    assert isinstance(codes.decode_message(accepted.code or "").final, Commit)
    received = session.receive(host.session, accepted.code or "")
    answered = session.seal(received.session, ORDERS, None, os.urandom)
    real = codes.decode_message(answered.code or "")
    assert isinstance(real.final, Sealed)
    empty = codes.encode_message(dataclasses.replace(real, final=None))
    with pytest.raises(MalformedCode, match="does not answer the orders you sealed for turn 1"):
        session.receive(accepted.session, empty)
    # The commitment stands: the real answer still resolves turn 1 with it.
    after = session.receive(accepted.session, answered.code or "")
    assert after.events
    assert session.status(after.session)["turn"] == 2
