"""Orders and decisions: parsing from JSON into value objects, with specific errors.

Structural checks live here (shapes, alphabets, one knife).  Checks that need the game state
(is this hand paralysed? does this target exist?) live in `legal.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import WavingHandsError

GESTURES = frozenset("FPSWDC")
STAB = ">"
NOTHING = "-"
ALPHABET = GESTURES | {STAB, NOTHING}
HAND_NAMES = {"L": "left hand", "R": "right hand", "B": "both hands"}

# Summons end on one hand's gesture, so a monster being summoned is named by wizard and hand
# (and the second gesture set of a hastened wizard).
_TARGET_RE = re.compile(r"^(none|W[0-5]|M[1-9][0-9]{0,3}|new:[0-5]:[LR](:1)?)$")
_NONCE_RE = re.compile(r"^[0-9a-f]{0,64}$")
_MONSTER_KEY_RE = re.compile(r"^(M[1-9][0-9]{0,3}|new:[0-5]:[LR](:1)?)$")


class OrderError(WavingHandsError):
    """An order that breaks a rule; `code` is stable, `field` points at the offending part."""

    def __init__(self, code: str, message: str, field: str = "") -> None:
        super().__init__(message, code=code)
        self.message = message
        self.field = field

    def to_json(self) -> dict[str, str]:
        """JSON form for the UI."""
        return {"code": self.code, "message": self.message, "field": self.field}


class MalformedOrders(OrderError):
    """The orders are not shaped as docs/architecture.md describes."""


@dataclass(frozen=True, slots=True)
class CastChoice:
    """For one completed spell: which spell (None: withhold, house rule only) and its target."""

    set_index: int
    hand: str  # L | R | B
    spell: str | None
    target: str | None  # None: the usual target
    bank: bool = False  # delayed effect: bank this one
    permanent: bool = False  # permanency: extend this one


@dataclass(frozen=True, slots=True)
class Orders:
    """One wizard's orders for one turn."""

    gestures: tuple[tuple[str, str], ...]
    casts: tuple[CastChoice, ...] = ()
    stabs: tuple[str | None, ...] = ()  # stab target per gesture set (None: the opponent)
    monsters: tuple[tuple[str, tuple[str, ...]], ...] = ()  # monster id -> target per attack
    charm: str | None = None  # the gesture written for the opponent's charmed hand
    release: str | None = None  # release the banked spell at this target ("" = usual target)
    nonce: str = ""
    charm_target: str | None = None  # where the charmed hand's stab goes, if it is a stab
    # Hands chosen in these orders for a paralysis or charm person cast last turn, where the
    # ruleset asks for them here (Variant.hands_in_orders): (question id, "L" or "R").
    hands: tuple[tuple[str, str], ...] = ()
    forfeit: bool = False  # give up the duel (where the ruleset allows it: Constraints.forfeit)

    def hand_for(self, question: str) -> str | None:
        """The hand these orders choose for one question ("paralysis:W1"), if any."""
        return next((h for k, h in self.hands if k == question), None)

    def monster_targets(self, mid: str) -> tuple[str, ...] | None:
        """The targets written for this monster, or None if it has no orders."""
        for k, v in self.monsters:
            if k == mid:
                return v
        return None

    def cast_choice(self, set_index: int, hand: str) -> CastChoice | None:
        """The choice written for this set and hand, if any."""
        for c in self.casts:
            if c.set_index == set_index and c.hand == hand:
                return c
        return None

    def to_json(self) -> dict[str, Any]:
        """JSON form (docs/architecture.md)."""
        d: dict[str, Any] = {"gestures": [list(g) for g in self.gestures]}
        if self.casts:
            d["casts"] = []
            for c in self.casts:
                e: dict[str, Any] = {"set": c.set_index, "hand": c.hand, "spell": c.spell}
                if c.target is not None:
                    e["target"] = c.target
                if c.bank:
                    e["bank"] = True
                if c.permanent:
                    e["permanent"] = True
                d["casts"].append(e)
        if any(s is not None for s in self.stabs):
            d["stab"] = [s for s in self.stabs] if len(self.stabs) > 1 else self.stabs[0]
        if self.monsters:
            d["monsters"] = {k: (list(v) if len(v) > 1 else v[0]) for k, v in self.monsters}
        if self.charm is not None:
            d["charm"] = {"gesture": self.charm}
            if self.charm_target is not None:
                d["charm"]["target"] = self.charm_target
        if self.release is not None:
            d["release"] = {"target": self.release} if self.release else True
        if self.hands:
            d["hands"] = dict(self.hands)
        if self.forfeit:
            d["forfeit"] = True
        if self.nonce:
            d["nonce"] = self.nonce
        return d


@dataclass(frozen=True, slots=True)
class DecisionInput:
    """Answers to the decisions of a decision phase: decision id -> choice."""

    answers: tuple[tuple[str, str], ...]

    def answer(self, did: str) -> str | None:
        """The answer to one decision, if given."""
        for k, v in self.answers:
            if k == did:
                return v
        return None

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"decisions": dict(self.answers)}


def _target(value: Any, field: str) -> str:
    if not isinstance(value, str) or not _TARGET_RE.match(value):
        raise MalformedOrders("bad-target", f"{value!r} is not a target (W0, W1, M<n>, "
                              "new:<wizard>:<hand>, or none)", field)
    return value


def parse_orders(d: Any) -> Orders:
    """Parse an orders object; raises MalformedOrders naming the offending field."""
    if not isinstance(d, dict):
        raise MalformedOrders("not-an-object", "orders must be a JSON object", "")
    known = {"gestures", "casts", "stab", "monsters", "charm", "release", "hands", "forfeit",
             "nonce"}
    for k in d:
        if k not in known:
            raise MalformedOrders("unknown-field", f"unknown field {k!r} in orders", k)
    raw_sets = d.get("gestures")
    if not isinstance(raw_sets, list) or not 1 <= len(raw_sets) <= 2:
        raise MalformedOrders("bad-gestures", "gestures must be a list of one or two "
                              "[left, right] pairs", "gestures")
    sets: list[tuple[str, str]] = []
    for i, pair in enumerate(raw_sets):
        if not isinstance(pair, list) or len(pair) != 2:
            raise MalformedOrders("bad-gestures", "each gesture set is [left, right]",
                                  f"gestures.{i}")
        for j, g in enumerate(pair):
            if not isinstance(g, str) or g not in ALPHABET:
                hand = "left" if j == 0 else "right"
                raise MalformedOrders("bad-gesture", f"{g!r} is not a gesture for the {hand} "
                                      "hand (F P S W D C, > to stab, - for nothing)",
                                      f"gestures.{i}.{j}")
        if pair[0] == STAB and pair[1] == STAB:
            raise OrderError("two-stabs", "a wizard has only one knife: he cannot stab with "
                             "both hands at once", f"gestures.{i}")
        sets.append((pair[0], pair[1]))

    casts: list[CastChoice] = []
    raw_casts = d.get("casts", [])
    if not isinstance(raw_casts, list):
        raise MalformedOrders("bad-casts", "casts must be a list", "casts")
    for i, c in enumerate(raw_casts):
        field = f"casts.{i}"
        if not isinstance(c, dict):
            raise MalformedOrders("bad-casts", "each cast is an object", field)
        for k in c:
            if k not in {"set", "hand", "spell", "target", "bank", "permanent"}:
                raise MalformedOrders("unknown-field", f"unknown field {k!r} in a cast",
                                      f"{field}.{k}")
        set_index = c.get("set", 0)
        if not isinstance(set_index, int) or isinstance(set_index, bool) or \
                not 0 <= set_index < len(sets):
            raise MalformedOrders("bad-casts", "cast 'set' must name one of the gesture sets",
                                  field)
        raw_hand = c.get("hand")
        if raw_hand not in ("L", "R", "B"):
            raise MalformedOrders("bad-casts", "cast 'hand' must be L, R or B", field)
        spell = c.get("spell")
        if spell is not None and not isinstance(spell, str):
            raise MalformedOrders("bad-casts", "cast 'spell' must be a spell key or null", field)
        target = c.get("target")
        if target is not None:
            target = _target(target, f"{field}.target")
        bank = c.get("bank", False)
        permanent = c.get("permanent", False)
        if not isinstance(bank, bool) or not isinstance(permanent, bool):
            raise MalformedOrders("bad-casts", "'bank' and 'permanent' are true or false", field)
        if any(x.set_index == set_index and x.hand == raw_hand for x in casts):
            raise MalformedOrders("duplicate-cast", f"two choices for the same hand ({raw_hand}) "
                                  f"in gesture set {set_index + 1}", field)
        casts.append(CastChoice(set_index, str(raw_hand), spell, target, bank, permanent))

    raw_stab = d.get("stab")
    stabs: tuple[str | None, ...]
    if raw_stab is None:
        stabs = tuple(None for _ in sets)
    elif isinstance(raw_stab, str):
        stabs = tuple(_target(raw_stab, "stab") for _ in sets)
    elif isinstance(raw_stab, list) and len(raw_stab) == len(sets):
        stabs = tuple(None if s is None else _target(s, f"stab.{i}")
                      for i, s in enumerate(raw_stab))
    else:
        raise MalformedOrders("bad-stab", "stab must be a target or one target per gesture set",
                              "stab")

    monsters: list[tuple[str, tuple[str, ...]]] = []
    raw_m = d.get("monsters", {})
    if not isinstance(raw_m, dict):
        raise MalformedOrders("bad-monsters", "monsters must map monster ids to targets",
                              "monsters")
    for mid, tgt in sorted(raw_m.items()):
        if not isinstance(mid, str) or not _MONSTER_KEY_RE.match(mid):
            raise MalformedOrders("bad-monsters", f"{mid!r} is not a monster id", "monsters")
        if isinstance(tgt, list):
            if not 1 <= len(tgt) <= 2:
                raise MalformedOrders("bad-monsters", "a monster attacks once (twice when "
                                      "hastened)", f"monsters.{mid}")
            monsters.append((mid, tuple(_target(t, f"monsters.{mid}") for t in tgt)))
        else:
            monsters.append((mid, (_target(tgt, f"monsters.{mid}"),)))

    charm = d.get("charm")
    charm_gesture: str | None = None
    charm_target: str | None = None
    if charm is not None:
        if not isinstance(charm, dict) or charm.get("gesture") not in ALPHABET or \
                set(charm) - {"gesture", "target"}:
            raise MalformedOrders("bad-charm", "charm must be {\"gesture\": one of F P S W D C "
                                  "> -, \"target\": where a stab goes}", "charm")
        charm_gesture = str(charm["gesture"])
        if charm.get("target") is not None:
            charm_target = _target(charm["target"], "charm.target")

    release = d.get("release")
    release_target: str | None = None
    if release is not None and release is not False:
        if release is True:
            release_target = ""
        elif isinstance(release, dict):
            t = release.get("target")
            release_target = "" if t is None else _target(t, "release.target")
        else:
            raise MalformedOrders("bad-release", "release must be true or {\"target\": ...}",
                                  "release")

    raw_hands = d.get("hands", {})
    if not isinstance(raw_hands, dict) or len(raw_hands) > 4 or \
            not all(isinstance(k, str) and len(k) <= 32 and v in ("L", "R")
                    for k, v in raw_hands.items()):
        raise MalformedOrders("bad-hands", "hands must be {question id: \"L\" or \"R\"} "
                              "(the paralysed or charmed hand chosen this turn)", "hands")
    hands = tuple(sorted((str(k), str(v)) for k, v in raw_hands.items()))
    forfeit = d.get("forfeit", False)
    if not isinstance(forfeit, bool):
        raise MalformedOrders("bad-forfeit", "forfeit must be true or false", "forfeit")

    nonce = d.get("nonce", "")
    if not isinstance(nonce, str) or not _NONCE_RE.match(nonce):
        raise MalformedOrders("bad-nonce", "nonce must be lowercase hex, at most 64 digits",
                              "nonce")
    return Orders(tuple(sets), tuple(casts), stabs, tuple(monsters), charm_gesture,
                  release_target, nonce, charm_target, hands, forfeit)


def parse_decisions(d: Any) -> DecisionInput:
    """Parse {"decisions": {id: choice}}; raises MalformedOrders."""
    if not isinstance(d, dict) or not isinstance(d.get("decisions"), dict) or set(d) - {
            "decisions", "nonce"}:
        raise MalformedOrders("bad-decisions", "a decision input is {\"decisions\": {id: "
                              "choice}}", "decisions")
    answers = []
    for k, v in sorted(d["decisions"].items()):
        if not isinstance(v, str):
            raise MalformedOrders("bad-decisions", f"the answer to {k!r} must be a string",
                                  f"decisions.{k}")
        answers.append((str(k), v))
    return DecisionInput(tuple(answers))
