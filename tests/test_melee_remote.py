"""Remote melee by codes (engine/wavinghands/remote/melee.py; docs/protocol.md, "Melee"):
three to six players play to the end with every page stepping the same game, nobody's input is
revealed before every commitment is in, the dice need every player's nonce, and each row of the
threat model is refused with its own error."""

from __future__ import annotations

import random

import pytest

from wavinghands.errors import IllegalInput
from wavinghands.playout import Player
from wavinghands.remote import codes
from wavinghands.remote.code_errors import (
    CorruptedCode,
    Desync,
    NotThisGame,
    OutOfOrder,
    RevealMismatch,
    UnsupportedVersion,
)
from wavinghands.remote.melee import (
    COMMIT,
    REVEAL,
    Equivocation,
    MeleeMessage,
    MeleeSession,
    accept,
    decode,
    encode,
    engine_nonce,
    invite,
    receive,
    seal,
    split_codes,
)
from wavinghands.ruleset import Ruleset

GAME_ID = bytes.fromhex("0badf00d")


def start(n: int, rules: str = "standard") -> list[MeleeSession]:
    """n pages: the host invites, every guest accepts, everyone pastes every acceptance."""
    host, invitations = invite("Host", n, Ruleset(rules), GAME_ID)
    pages = [host]
    acceptances = []
    for seat, inv in enumerate(invitations, start=1):
        page, code = accept(inv, f"Guest{seat}")
        pages.append(page)
        acceptances.append(code)
    paste = "\n".join(invitations + acceptances)
    pages = [receive(p, paste)[0] for p in pages]
    assert all(p.game for p in pages)
    return pages


def play_round(pages: list[MeleeSession], player: Player,
               rng: random.Random) -> list[MeleeSession]:
    """Every participant seals, posts, and pastes the others' lines (one paste per step)."""
    game = pages[0].engine_game()
    posted: list[str] = []
    for i, p in enumerate(pages):
        if i not in p.participants():
            continue
        raw = player.input(game, i) if i in game.phase.actors else {}
        pages[i], made = seal(p, raw, rng.randbytes(8))
        posted.extend(made)
    # the commitments' round: each pastes the whole chat; reveals come back
    reveals: list[str] = [c for c in posted if decode(c).kind == REVEAL]
    for i in range(len(pages)):
        pages[i], auto = receive(pages[i], "\n".join(posted))
        reveals.extend(c for c in auto if decode(c).kind == REVEAL)
    for i in range(len(pages)):
        pages[i], _ = receive(pages[i], " ".join(reveals))
    return pages


@pytest.mark.parametrize(("n", "rules", "seed"), [(3, "standard", 1), (4, "warlocks", 2),
                                                   (6, "standard", 3)])
def test_a_melee_by_codes_plays_to_its_end_on_every_page(n: int, rules: str, seed: int) -> None:
    rng = random.Random(seed)
    pages = start(n, rules)
    player = Player(rng)
    for _ in range(24):
        if not pages[0].participants():
            break
        before = pages[0].round
        pages = play_round(pages, player, rng)
        assert all(p.round == before + 1 for p in pages)
        assert len({p.game for p in pages}) == 1  # every page steps the same game
    assert pages[0].engine_game().turn > 3


def test_nobody_reveals_before_every_commitment_is_in() -> None:
    pages = start(3)
    rng = random.Random(5)
    orders = {"gestures": [["S", "-"]]}
    pages[0], _ = seal(pages[0], orders, rng.randbytes(8))
    pages[1], c1 = seal(pages[1], orders, rng.randbytes(8))
    pages[0], auto = receive(pages[0], c1[0])
    assert auto == [] and pages[0].waiting_for() == (2,)
    pages[2], c2 = seal(pages[2], orders, rng.randbytes(8))
    pages[0], auto = receive(pages[0], c2[0])
    assert [decode(c).kind for c in auto] == [REVEAL]


def test_the_dice_need_every_players_nonce() -> None:
    nonces = {0: b"a" * 8, 1: b"b" * 8, 2: b"c" * 8}
    base = engine_nonce(0, nonces)
    for seat in nonces:
        moved = dict(nonces)
        moved[seat] = b"z" * 8
        assert engine_nonce(0, moved) != base  # any one player's share moves every die


def test_one_paste_carries_several_codes_in_any_chat_layout() -> None:
    pages = start(4)
    chat = "\n".join(f"[21:0{i}] Guest{i}: {c}" for i, c in enumerate(pages[0].log))
    assert split_codes(chat) == list(pages[0].log)


# ---------------------------------------------------------------------------------------------
# The threat model, one row each.
# ---------------------------------------------------------------------------------------------
def _sealed_three() -> tuple[list[MeleeSession], list[str]]:
    pages = start(3)
    rng = random.Random(9)
    codes_ = []
    for i in range(3):
        pages[i], made = seal(pages[i], {"gestures": [["P", "-"]]}, rng.randbytes(8))
        codes_.append(made[0])
    return pages, codes_


def test_a_forged_commitment_for_another_seat_is_caught() -> None:
    pages, posted = _sealed_three()
    m = decode(posted[1])
    forged = encode(MeleeMessage(COMMIT, 1, 3, GAME_ID, 0, digest=m.digest,
                                 commitment=bytes(16)))
    page, _ = receive(pages[0], forged)
    with pytest.raises(Equivocation):
        receive(page, posted[1])


def test_an_altered_code_is_refused() -> None:
    _, posted = _sealed_three()
    code = posted[1]
    altered = code[:-3] + ("A" if code[-3] != "A" else "B") + code[-2:]
    with pytest.raises(CorruptedCode):
        decode(altered)


def test_an_altered_reveal_does_not_open_its_commitment() -> None:
    pages, posted = _sealed_three()
    pages[0], _ = receive(pages[0], "\n".join(posted))
    pages[1], reveal1 = receive(pages[1], "\n".join(posted))
    m = decode(reveal1[0])
    other = encode(MeleeMessage(REVEAL, 1, 3, GAME_ID, 0, digest=m.digest,
                                transcript=m.transcript, nonce=bytes(8), data=m.data))
    with pytest.raises(RevealMismatch):
        receive(pages[0], other)


def test_a_replayed_code_changes_nothing_and_another_games_is_refused() -> None:
    pages, posted = _sealed_three()
    page, _ = receive(pages[0], posted[1])
    again, auto = receive(page, posted[1])
    assert again == page and auto == []
    _, invitations = invite("Host", 3, Ruleset(), bytes.fromhex("12345678"))
    with pytest.raises(NotThisGame):
        receive(pages[0], invitations[0])


def test_reordered_codes_are_refused_until_what_comes_first() -> None:
    pages, posted = _sealed_three()
    pages[1], auto = receive(pages[1], "\n".join(posted))
    early = auto[0]
    with pytest.raises(OutOfOrder):
        receive(pages[2], early)  # page 2 holds only its own commitment
    ahead = encode(MeleeMessage(COMMIT, 1, 3, GAME_ID, 5, digest=bytes(4),
                                commitment=bytes(16)))
    with pytest.raises(OutOfOrder):
        receive(pages[2], ahead)


def test_a_withheld_code_is_reported_as_whom_the_round_waits_for() -> None:
    pages, posted = _sealed_three()
    page, _ = receive(pages[0], posted[1])
    assert page.waiting_for() == (2,)


def test_commitments_shown_differently_to_different_players_are_caught() -> None:
    pages, posted = _sealed_three()
    # seat 2 shows page 0 one commitment and page 1 another
    m = decode(posted[2])
    twin = encode(MeleeMessage(COMMIT, 2, 3, GAME_ID, 0, digest=m.digest,
                               commitment=bytes(16)))
    pages[0], _ = receive(pages[0], "\n".join([posted[1], twin]))
    pages[1], auto1 = receive(pages[1], "\n".join([posted[0], posted[2]]))
    with pytest.raises(Equivocation):
        receive(pages[0], auto1[0])


def test_a_desynchronised_page_is_told() -> None:
    pages, posted = _sealed_three()
    m = decode(posted[1])
    off = encode(MeleeMessage(COMMIT, 1, 3, GAME_ID, 0, digest=b"\0\0\0\0",
                              commitment=m.commitment))
    with pytest.raises(Desync):
        receive(pages[0], off)


def test_illegal_orders_cannot_be_sealed() -> None:
    pages = start(3)
    with pytest.raises(IllegalInput):
        seal(pages[0], {"gestures": [[">", "-"]]}, bytes(8))  # a melee stab names its target


def test_a_duel_page_refuses_a_melee_code_as_another_version() -> None:
    pages = start(3)
    with pytest.raises(UnsupportedVersion):
        codes.decode_message(pages[0].log[0])


def test_a_session_round_trips_through_its_stored_form() -> None:
    pages, _ = _sealed_three()
    assert MeleeSession.from_json(pages[0].to_json()) == pages[0]
