"""A conceded seat in a remote melee (engine/wavinghands/remote/melee.py `concede`;
docs/protocol.md, "Live melee", "Dropping out"): once the others agree that a player dropped
out, every page plays him the same public input, a surrender ("a pair of P gestures made by both
hands at the same time", docs/rules.md "Surrender") where his hands are free, so the melee goes
on without him and every page steps the same game."""

from __future__ import annotations

import json
import random

import pytest
from test_melee_remote import play_round, start

from wavinghands import api
from wavinghands.playout import Player
from wavinghands.remote.code_errors import NotYourTurn
from wavinghands.remote.melee import (
    MeleeSession,
    concede,
    conceded_input,
    receive,
    seal,
)


def _round_without(pages: list[MeleeSession], gone: int, rng: random.Random) -> list[MeleeSession]:
    """Every page but `gone`'s seals and pastes the others' lines, as play_round does."""
    game = pages[0].engine_game()
    player = Player(rng)
    posted: list[str] = []
    for i, p in enumerate(pages):
        if i == gone or i not in p.participants():
            continue
        raw = player.input(game, i) if i in game.phase.actors else {}
        pages[i], made = seal(p, raw, rng.randbytes(8))
        posted.extend(made)
    for _ in range(2):  # the commitments, then the reveals they brought
        more: list[str] = []
        for i in range(len(pages)):
            if i != gone:
                pages[i], auto = receive(pages[i], "\n".join(posted))
                more.extend(auto)
        posted = posted + more
    return pages


def test_a_conceded_player_surrenders_and_the_others_fight_on() -> None:
    rng = random.Random(4)
    pages = play_round(start(3), Player(rng), rng)
    gone = 2
    # Seat 2 has sealed this round already and then drops: his commitment gives way.
    pages[gone], _ = seal(pages[gone], {"gestures": [["S", "W"]]}, rng.randbytes(8))
    pages = [concede(p, gone)[0] if i != gone else p for i, p in enumerate(pages)]
    pages = _round_without(pages, gone, rng)
    assert pages[0].game == pages[1].game  # both remaining pages stepped the same game
    game = pages[0].engine_game()
    assert not game.wizards[gone].in_fight and game.wizards[gone].surrendered
    assert gone not in pages[0].participants()
    assert game.phase.kind != "over"  # two wizards fight on
    status = json.loads(api.remote_melee_status(json.dumps(pages[0].to_json())))["status"]
    assert status["conceded"] == [gone]
    # The session stores the concession.
    assert MeleeSession.from_json(pages[1].to_json()) == pages[1]


def test_a_conceded_input_is_a_surrender_and_the_same_on_every_page() -> None:
    pages = start(3)
    g = pages[0].engine_game()
    assert conceded_input(g, 1) == {"gestures": [["P", "P"]]}
    assert conceded_input(pages[1].engine_game(), 1) == conceded_input(g, 1)


def test_a_page_cannot_concede_its_own_seat_and_the_api_says_so() -> None:
    pages = start(3)
    with pytest.raises(NotYourTurn):
        concede(pages[1], 1)
    answer = json.loads(api.remote_melee_concede(json.dumps(pages[1].to_json()), "1"))
    assert answer["ok"] is False and answer["error"]["code"] == "not-your-turn"
    answer = json.loads(api.remote_melee_concede(json.dumps(pages[1].to_json()), "7"))
    assert answer["error"]["code"] == "bad-wizard"
    done = json.loads(api.remote_melee_concede(json.dumps(pages[1].to_json()), "2"))
    assert done["ok"] and done["status"]["conceded"] == [2]


def test_when_the_last_other_wizard_is_conceded_the_melee_ends() -> None:
    rng = random.Random(8)
    host = concede(concede(start(3)[0], 1)[0], 2)[0]
    host, _ = seal(host, Player(rng).input(host.engine_game(), 0), rng.randbytes(8))
    g = host.engine_game()
    assert g.phase.kind == "over" and g.result is not None and g.result.winner == 0
