"""Illegal orders through the JS/Python boundary (`wavinghands.api`, JSON strings in and out):
each gives a specific, readable error value, and nothing changes (the game handed in still views
the same and still accepts legal orders).

Each case: a set-up (a game reached by a scripted duel), the wizard and his input, the other
wizard's input for `step`, the error code expected, a fragment of its message, and the rule (000)
or documented contract it enforces.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from dsl import Duel
from rules_table import Case, cite_problems

from wavinghands import api, duel
from wavinghands.model import canonical_json

NOTHING: dict[str, Any] = {"gestures": [["-", "-"]]}


def _json(d: Duel) -> str:
    return canonical_json(d.game.to_json())


def fresh() -> Any:
    """A new duel, turn 1 (as a JSON object)."""
    return json.loads(api.new_game(json.dumps({"names": ["A", "B"], "seed": "5eed5eed"})))["game"]


def after(A: str = "", B: str = "", orders: list[tuple[int, str, dict[str, Any]]] | None = None,
          decide: dict[int, dict[str, str]] | None = None) -> Any:
    """The game after a scripted duel (as a JSON object)."""
    d = Duel(A=A, B=B)
    for turn, who, extra in orders or []:
        d.orders(turn, who, extra)
    for turn, answers in (decide or {}).items():
        d.decide(turn, answers)
    return json.loads(_json(d.run()))


def elemental_pending() -> Any:
    """A's summon elemental completed on turn 5: the decision phase (A chooses fire or ice)."""
    d = Duel(A="C S W W / C - - -").run()
    g, _ = duel.step(d.game, {0: {"gestures": [["S", "-"]]}, 1: NOTHING})
    assert g.phase.kind == "decision"
    return json.loads(canonical_json(g.to_json()))


SETUPS: dict[str, Callable[[], Any]] = {
    "fresh": fresh,
    "after S": lambda: after(A="S / -"),
    "after W-W-W / P-P-W": lambda: after(A="W W W / P P W"),
    "both after S-F": lambda: after(A="S F / - -", B="S F / - -"),
    "after C-S-W-W": lambda: after(A="C S W W / C - - -"),
    "after short lightning, W-D-D": lambda: after(A="W D D C W D D / - - - C - - -"),
    "B's goblin alive": lambda: after(B="S F W / - - -"),
    "B's goblin dead": lambda: after(A="- - - > / - - - -", B="S F W - / - - - -",
                                     orders=[(4, "A", {"stab": "M1"})]),
    "A's elemental alive": lambda: after(A="C S W W S / C - - - -"),
    "elemental decision pending": elemental_pending,
    "over": lambda: after(A="P / P"),
}


@dataclass
class Bad:
    """An illegal input and the error it must give."""

    name: str
    setup: str
    who: int
    inp: Any
    code: str
    says: str  # fragment of the message
    cite: str
    other: Any = field(default_factory=lambda: dict(NOTHING))
    step_only: bool = False
    step_codes: tuple[str, ...] = ()  # further codes `step` may give for the same fault
    field: str = ""  # with code "": any problem on this field will do

    def __repr__(self) -> str:
        return self.name


BAD = [
    Bad("stabbing with both hands at once", "fresh", 0, {"gestures": [[">", ">"]]},
        "two-stabs", "one knife",
        cite="Note also that wizards carry only one dagger and so cannot stab with both hands at "
             "the same time."),
    Bad("stabbing oneself", "fresh", 0, {"gestures": [[">", "-"]], "stab": "W0"},
        "stab-self", "stab themselves",
        cite="Wizards are not allowed to stab themselves and must choose a target for the stab."),
    Bad("a stab at nobody", "fresh", 0, {"gestures": [["-", ">"]], "stab": "none"},
        "stab-nobody", "target",
        cite="Wizards are not allowed to stab themselves and must choose a target for the stab."),
    Bad("a stab at a monster that does not exist", "fresh", 1,
        {"gestures": [[">", "-"]], "stab": "M3"}, "bad-target", "M3",
        cite="This is not a spell but an attack which can be directed at any individual monster "
             "or wizard."),
    Bad("a stab at a dead monster", "B's goblin dead", 0,
        {"gestures": [[">", "-"]], "stab": "M1"}, "bad-target", "M1",
        cite="Dead monsters take no further part in the game."),
    Bad("a gesture that is not in the alphabet", "fresh", 0, {"gestures": [["X", "-"]]},
        "bad-gesture", "'X'",
        cite="There are five single-handed gestures"),
    Bad("the standard rules refuse to withhold a completed spell", "after S", 0,
        {"gestures": [["D", "-"]], "casts": [{"set": 0, "hand": "L", "spell": None}]},
        "must-cast", "must be cast",
        cite="If the caster completes a series that casts a spell, intentionally or "
             "unintentionally, the spell must be cast."),
    Bad("choosing a spell the hand does not complete", "fresh", 0,
        {"gestures": [["D", "-"]], "casts": [{"set": 0, "hand": "L", "spell": "missile"}]},
        "no-such-spell", "no spell this turn",
        cite="If the caster completes a series that casts a spell"),
    Bad("two spells from one gesture (counter-spell and invisibility)", "after W-W-W / P-P-W", 0,
        {"gestures": [["S", "S"]],
         "casts": [{"set": 0, "hand": "L", "spell": "counter_spell"},
                   {"set": 0, "hand": "B", "spell": "invisibility"}]},
        "gesture-shared", "one spell",
        cite="since the final S of the left hand cannot be used to cast two spells, it is clear "
             "that a choice must be made"),
    Bad("the short lightning bolt a second time", "after short lightning, W-D-D", 0,
        {"gestures": [["C", "C"]], "casts": [{"set": 0, "hand": "B",
                                              "spell": "lightning_bolt"}]},
        "no-such-spell", "no spell this turn",
        cite="Each wizard may use this spell once per battle, then the gestures have no effect."),
    Bad("a spell aimed at a monster that does not exist", "after S", 0,
        {"gestures": [["D", "-"]], "casts": [{"set": 0, "hand": "L", "spell": "missile",
                                              "target": "M9"}]},
        "bad-target", "M9",
        cite="All spells and monsters need a target, someone or something to be the victim."),
    Bad("a summon elemental shot off at nobody", "after C-S-W-W", 0,
        {"gestures": [["S", "-"]], "casts": [{"set": 0, "hand": "L",
                                              "spell": "summon_elemental", "target": "none"}]},
        "must-target", "must be cast at someone",
        cite="Elementals must be cast at someone and cannot be \"shot off\" harmlessly at some "
             "inanimate object."),
    Bad("orders for a monster that does not exist", "fresh", 0,
        {"gestures": [["-", "-"]], "monsters": {"M1": "W1"}}, "no-monster", "M1",
        cite="Monsters will obey their master's commands exactly."),
    Bad("orders for a dead monster", "B's goblin dead", 1,
        {"gestures": [["-", "-"]], "monsters": {"M1": "W0"}}, "no-monster", "M1",
        cite="Dead monsters take no further part in the game."),
    Bad("orders for an elemental", "A's elemental alive", 0,
        {"gestures": [["-", "-"]], "monsters": {"M1": "W1"}}, "elemental-orders",
        "attack everyone",
        cite="The elemental will, for that turn and until destroyed, attack everyone who is not "
             "resistant to its type"),
    Bad("a monster told to attack a being that does not exist", "B's goblin alive", 1,
        {"gestures": [["-", "-"]], "monsters": {"M1": "M7"}}, "bad-target", "M7",
        cite="its victim can be any any wizard or other monster the controller desires"),
    Bad("orders during a decision phase", "elemental decision pending", 0, dict(NOTHING),
        "want-decision", "decision",
        cite="at the discretion of the person upon whom the spell is cast after he has seen all "
             "the gestures made that turn.", other=None),
    Bad("an answer that is not one of the options", "elemental decision pending", 0,
        {"decisions": {"elemental:0:L": "lava"}}, "decision-option", "lava",
        cite="This spell creates either a fire elemental or an ice elemental", other=None),
    # step reports the over phase as "wrong-actors" ("this phase needs input from nobody").
    Bad("orders after the duel is over", "over", 0, dict(NOTHING), "game-over", "over",
        cite="The surrendering wizard is deemed to have lost", step_codes=("wrong-actors",)),
    Bad("two gesture sets from a wizard who is not hastened", "fresh", 0,
        {"gestures": [["-", "-"], ["-", "-"]]}, "gesture-sets", "one gesture set",
        cite="Each turn a player's wizard can either gesture with their hands to weave part of "
             "a spell, stab with their knife, or do nothing."),
    Bad("orders for the opponent's monster", "B's goblin alive", 0,
        {"gestures": [["-", "-"]], "monsters": {"M1": "W1"}}, "", "", field="monsters.M1",
        cite="Monsters will obey their master's commands exactly."),
    Bad("an unknown spell name", "after S", 0,
        {"gestures": [["D", "-"]], "casts": [{"set": 0, "hand": "L", "spell": "fireballz"}]},
        "no-such-spell", "fireballz",
        cite="A list of spells and the gestures used to cast them is given in the final "
             "section."),
    Bad("two choices for one hand", "after S", 0,
        {"gestures": [["D", "-"]], "casts": [{"set": 0, "hand": "L", "spell": "missile"},
                                             {"set": 0, "hand": "L", "spell": "missile"}]},
        "duplicate-cast", "same hand",
        cite="no more than one spell is created per gesture"),
    Bad("a target that names no being", "after S", 0,
        {"gestures": [["D", "-"]], "casts": [{"set": 0, "hand": "L", "spell": "missile",
                                              "target": "W2"}]},
        "bad-target", "W2",
        cite="All spells and monsters need a target, someone or something to be the victim."),
    # Engine reading (legal._target_problems): a summons may not be aimed at a monster being
    # summoned the same turn.  000 only says "if cast at something which doesn't exist, the
    # spell has no effect" (see the report: ambiguity).
    Bad("a summons aimed at the monster being summoned this turn (engine reading)",
        "both after S-F", 0,
        {"gestures": [["W", "-"]], "casts": [{"set": 0, "hand": "L", "spell": "summon_goblin",
                                              "target": "new:1:L"}]},
        "bad-target", "being summoned",
        cite="if cast at something which doesn't exist, the spell has no effect.",
        other={"gestures": [["W", "-"]]}),
    Bad("orders from one wizard only", "fresh", 0, dict(NOTHING), "wrong-actors", "B",
        cite="Each turn both player's will write down in secret the directions for their "
             "wizards", other=None, step_only=True),
]


def _codes(result: dict[str, Any]) -> list[str]:
    err = result["error"]
    return [err["code"]] + [p["code"] for p in err.get("problems", [])]


@pytest.mark.parametrize("bad", BAD, ids=lambda b: b.name)
def test_illegal_input(bad: Bad) -> None:
    game = canonical_json(SETUPS[bad.setup]())
    before = {w: api.view(game, str(w)) for w in (0, 1)}
    if not bad.step_only:
        res = json.loads(api.validate(game, str(bad.who), json.dumps(bad.inp)))
        assert res["ok"] is True, res
        probs = res["problems"]
        if bad.code:
            assert bad.code in [p["code"] for p in probs], probs
            msg = next(p["message"] for p in probs if p["code"] == bad.code)
            assert bad.says.lower() in msg.lower(), msg
        else:
            assert any(p["field"].startswith(bad.field) for p in probs), \
                f"{bad.name}: no problem reported on {bad.field}: {probs}"
    inputs = {str(bad.who): bad.inp}
    if bad.other is not None:
        inputs[str(1 - bad.who)] = bad.other
    res = json.loads(api.step(game, json.dumps(inputs)))
    assert res["ok"] is False, f"{bad.name}: step accepted illegal input"
    assert "game" not in res
    if bad.code:
        assert {bad.code, *bad.step_codes} & set(_codes(res)), res
    assert res["error"]["message"], res
    # Nothing changed: the same game views alike and still takes its turn normally.
    assert {w: api.view(game, str(w)) for w in (0, 1)} == before
    assert json.loads(api.view(game, "0"))["ok"] is True


def test_validate_lists_every_problem() -> None:
    """"validate returns every problem": a self-stab and orders for a missing monster at once."""
    game = canonical_json(fresh())
    inp = {"gestures": [[">", "-"]], "stab": "W0", "monsters": {"M5": "W1"}}
    res = json.loads(api.validate(game, "0", json.dumps(inp)))
    assert {p["code"] for p in res["problems"]} == {"stab-self", "no-monster"}
    assert all(p["message"] and p["field"] for p in res["problems"])


def test_legal_inputs_pass_validation_and_step() -> None:
    """The counterpart: one-handed C (nothing), a stab at a monster, a spell at nobody, a
    monster sent at nobody are all legal."""
    game = canonical_json(after(B="S F W / - - -"))
    cases = [
        (0, {"gestures": [["C", "-"]]}),
        (0, {"gestures": [[">", "-"]], "stab": "M1"}),
        (1, {"gestures": [["-", "-"]], "monsters": {"M1": "none"}}),
        (1, {"gestures": [["S", "-"]]}),
    ]
    for who, inp in cases:
        res = json.loads(api.validate(game, str(who), json.dumps(inp)))
        assert res == {"ok": True, "problems": []}, (inp, res)
    res = json.loads(api.step(game, json.dumps({"0": cases[1][1], "1": cases[2][1]})))
    assert res["ok"] is True, res
    assert res["game"]["monsters"][0]["alive"] is False  # the stab killed the goblin


def test_withhold_house_rule_accepts_what_the_standard_refuses() -> None:
    """003's house rule as a ruleset: the same input is legal and casts nothing."""
    params = {"names": ["A", "B"], "seed": "5eed5eed", "ruleset": {"withhold": True}}
    game = json.loads(api.new_game(json.dumps(params)))["game"]
    g1 = json.loads(api.step(canonical_json(game), json.dumps(
        {"0": {"gestures": [["S", "-"]]}, "1": NOTHING})))["game"]
    inp = {"gestures": [["D", "-"]], "casts": [{"set": 0, "hand": "L", "spell": None}]}
    g1s = canonical_json(g1)
    assert json.loads(api.validate(g1s, "0", json.dumps(inp)))["problems"] == []
    res = json.loads(api.step(g1s, json.dumps({"0": inp, "1": NOTHING})))
    assert res["ok"] is True
    assert res["game"]["wizards"][1]["damage"] == 0


def test_cites_are_quotes() -> None:
    assert cite_problems([Case(b.name, cite=b.cite) for b in BAD]) == []
