"""Frozen value objects for the whole state of a duel, and their JSON form.

Every object here is immutable; resolution builds new ones.  `Game.to_json()` is the canonical
serialisation: the UI stores it and hands it back, and `state_digest` hashes it for remote play.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any

from .ruleset import Ruleset

JSON = dict[str, Any]

HANDS = ("L", "R")
MONSTER_STATS: dict[str, tuple[int, int]] = {
    # kind: (damage it inflicts per attack, damage that destroys it)
    "goblin": (1, 1),
    "ogre": (2, 2),
    "troll": (3, 3),
    "giant": (4, 4),
    "fire_elemental": (3, 3),
    "ice_elemental": (3, 3),
}
ELEMENTALS = frozenset({"fire_elemental", "ice_elemental"})
WIZARD_DEATH = 15  # "dies when fifteen or more points of damage are done"


@dataclass(frozen=True, slots=True)
class GestureRow:
    """One set of gestures made by one wizard: a row of the two-column history."""

    turn: int
    left: str
    right: str
    kind: str = "normal"  # normal | haste | time_stop
    hidden_from_opponent: bool = False  # opponent blind, maker invisible, or a time-stopped row

    def to_json(self) -> JSON:
        """JSON form."""
        return {"turn": self.turn, "left": self.left, "right": self.right, "kind": self.kind,
                "hidden": self.hidden_from_opponent}

    @staticmethod
    def from_json(d: JSON) -> GestureRow:
        """Inverse of to_json."""
        return GestureRow(int(d["turn"]), str(d["left"]), str(d["right"]), str(d["kind"]),
                          bool(d["hidden"]))


@dataclass(frozen=True, slots=True)
class Effect:
    """An enchantment (or lasting effect) on a wizard or monster.

    Active on the subject's own turns `start`..`end` inclusive (counted in turns the subject
    takes, see docs/rules.md "durations"); `end` None means permanent.
    """

    kind: str
    start: int
    end: int | None
    source: int | None = None  # the wizard who controls the effect (charm, paralysis chooser)
    detail: str = ""  # paralysed/charmed hand, fixed gestures of a permanent effect, etc.
    permanent: bool = False
    known_to: tuple[int, ...] = (0, 1)

    def active_on(self, own_turn: int) -> bool:
        """Whether the effect applies on the subject's own turn number `own_turn`."""
        return self.start <= own_turn and (self.end is None or own_turn <= self.end)

    def to_json(self) -> JSON:
        """JSON form."""
        return {"kind": self.kind, "start": self.start, "end": self.end, "source": self.source,
                "detail": self.detail, "permanent": self.permanent,
                "known_to": list(self.known_to)}

    @staticmethod
    def from_json(d: JSON) -> Effect:
        """Inverse of to_json."""
        return Effect(str(d["kind"]), int(d["start"]),
                      None if d["end"] is None else int(d["end"]),
                      None if d["source"] is None else int(d["source"]), str(d["detail"]),
                      bool(d["permanent"]), tuple(int(x) for x in d["known_to"]))


def first_active(effects: tuple[Effect, ...], kind: str, own_turn: int) -> Effect | None:
    """The first effect of this kind active on the subject's own turn `own_turn`, if any."""
    for e in effects:
        if e.kind == kind and e.active_on(own_turn):
            return e
    return None


@dataclass(frozen=True, slots=True)
class Banked:
    """A spell held back by delayed effect, to be released by its caster's later orders."""

    spell: str
    banked_turn: int

    def to_json(self) -> JSON:
        """JSON form."""
        return {"spell": self.spell, "turn": self.banked_turn}

    @staticmethod
    def from_json(d: JSON) -> Banked:
        """Inverse of to_json."""
        return Banked(str(d["spell"]), int(d["turn"]))


@dataclass(frozen=True, slots=True)
class Wizard:
    """One duellist."""

    index: int
    name: str
    damage: int = 0
    alive: bool = True
    surrendered: bool = False
    history: tuple[GestureRow, ...] = ()
    sequence_start: int = 0  # rows before this index cannot be part of a spell (anti-spell)
    effects: tuple[Effect, ...] = ()
    short_lightning_used: bool = False
    banked: Banked | None = None
    own_turns: int = 0  # turns this wizard has taken (time-stopped turns included)

    def effect(self, kind: str, own_turn: int) -> Effect | None:
        """The first active effect of this kind on the given own turn, if any."""
        return first_active(self.effects, kind, own_turn)

    def to_json(self) -> JSON:
        """JSON form."""
        return {"index": self.index, "name": self.name, "damage": self.damage,
                "alive": self.alive, "surrendered": self.surrendered,
                "history": [r.to_json() for r in self.history],
                "sequence_start": self.sequence_start,
                "effects": [e.to_json() for e in self.effects],
                "short_lightning_used": self.short_lightning_used,
                "banked": None if self.banked is None else self.banked.to_json(),
                "own_turns": self.own_turns}

    @staticmethod
    def from_json(d: JSON) -> Wizard:
        """Inverse of to_json."""
        return Wizard(int(d["index"]), str(d["name"]), int(d["damage"]), bool(d["alive"]),
                      bool(d["surrendered"]),
                      tuple(GestureRow.from_json(r) for r in d["history"]),
                      int(d["sequence_start"]), tuple(Effect.from_json(e) for e in d["effects"]),
                      bool(d["short_lightning_used"]),
                      None if d["banked"] is None else Banked.from_json(d["banked"]),
                      int(d["own_turns"]))


@dataclass(frozen=True, slots=True)
class Monster:
    """A summoned creature.  Dead monsters stay as corpses (raise dead may restore them)."""

    id: str
    kind: str
    controller: int
    born_turn: int
    damage: int = 0
    alive: bool = True
    effects: tuple[Effect, ...] = ()
    last_target: str = ""  # what it attacked last turn (amnesia repeats it)
    own_turns: int = 0
    known_to: tuple[int, ...] = (0, 1)

    @property
    def strength(self) -> int:
        """Damage it inflicts per attack."""
        return MONSTER_STATS[self.kind][0]

    @property
    def toughness(self) -> int:
        """Damage that destroys it."""
        return MONSTER_STATS[self.kind][1]

    @property
    def is_elemental(self) -> bool:
        """Elementals attack everyone and take no orders."""
        return self.kind in ELEMENTALS

    def effect(self, kind: str, own_turn: int) -> Effect | None:
        """The first active effect of this kind on the given own turn, if any."""
        return first_active(self.effects, kind, own_turn)

    def to_json(self) -> JSON:
        """JSON form."""
        return {"id": self.id, "kind": self.kind, "controller": self.controller,
                "born_turn": self.born_turn, "damage": self.damage, "alive": self.alive,
                "effects": [e.to_json() for e in self.effects], "last_target": self.last_target,
                "own_turns": self.own_turns, "known_to": list(self.known_to)}

    @staticmethod
    def from_json(d: JSON) -> Monster:
        """Inverse of to_json."""
        return Monster(str(d["id"]), str(d["kind"]), int(d["controller"]), int(d["born_turn"]),
                       int(d["damage"]), bool(d["alive"]),
                       tuple(Effect.from_json(e) for e in d["effects"]), str(d["last_target"]),
                       int(d["own_turns"]), tuple(int(x) for x in d["known_to"]))


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the battle log, with who may see it."""

    turn: int
    type: str
    text: str
    visible_to: tuple[int, ...] = (0, 1)
    data: tuple[tuple[str, str], ...] = ()  # structured fields (string values) for the UI

    def to_json(self) -> JSON:
        """JSON form."""
        return {"turn": self.turn, "type": self.type, "text": self.text,
                "visible_to": list(self.visible_to), "data": dict(self.data)}

    @staticmethod
    def from_json(d: JSON) -> Event:
        """Inverse of to_json."""
        return Event(int(d["turn"]), str(d["type"]), str(d["text"]),
                     tuple(int(x) for x in d["visible_to"]),
                     tuple(sorted((str(k), str(v)) for k, v in d["data"].items())))


@dataclass(frozen=True, slots=True)
class Decision:
    """A choice the rules place after the reveal (paralysis hand, elemental type, charm hand)."""

    id: str
    kind: str
    wizard: int
    options: tuple[str, ...]
    prompt: str
    labels: tuple[str, ...] = ()  # a readable label per option, when the engine has one

    def to_json(self) -> JSON:
        """JSON form."""
        return {"id": self.id, "kind": self.kind, "wizard": self.wizard,
                "options": list(self.options), "prompt": self.prompt,
                "labels": list(self.labels)}

    @staticmethod
    def from_json(d: JSON) -> Decision:
        """Inverse of to_json."""
        return Decision(str(d["id"]), str(d["kind"]), int(d["wizard"]),
                        tuple(str(o) for o in d["options"]), str(d["prompt"]),
                        tuple(str(x) for x in d.get("labels", ())))


@dataclass(frozen=True, slots=True)
class Phase:
    """What the game waits for: whose input, of which kind."""

    kind: str  # orders | decision | time_stop | over
    turn: int
    actors: tuple[int, ...]
    decisions: tuple[Decision, ...] = ()
    # decision phase: the revealed orders of the turn being resolved (JSON inputs by wizard)
    pending: tuple[tuple[int, JSON], ...] = ()
    pending_kind: str = ""  # the kind of the suspended turn: orders | time_stop
    time_stopped: tuple[str, ...] = ()  # time_stop phase: the beings taking the extra turn
    # decision phase: the rows actually made in the suspended turn (after amnesia, paralysis,
    # charm and confusion), as (wizard, rows), each row carrying its hidden flag
    revealed: tuple[tuple[int, tuple[GestureRow, ...]], ...] = ()

    def to_json(self) -> JSON:
        """JSON form."""
        return {"kind": self.kind, "turn": self.turn, "actors": list(self.actors),
                "decisions": [d.to_json() for d in self.decisions],
                "pending": {str(k): v for k, v in self.pending},
                "pending_kind": self.pending_kind, "time_stopped": list(self.time_stopped),
                "revealed": {str(k): [r.to_json() for r in rows] for k, rows in self.revealed}}

    @staticmethod
    def from_json(d: JSON) -> Phase:
        """Inverse of to_json."""
        return Phase(str(d["kind"]), int(d["turn"]), tuple(int(a) for a in d["actors"]),
                     tuple(Decision.from_json(x) for x in d["decisions"]),
                     tuple(sorted((int(k), v) for k, v in d["pending"].items())),
                     str(d["pending_kind"]), tuple(str(b) for b in d["time_stopped"]),
                     tuple(sorted((int(k), tuple(GestureRow.from_json(r) for r in rows))
                                  for k, rows in d.get("revealed", {}).items())))


@dataclass(frozen=True, slots=True)
class Result:
    """How the duel ended."""

    winner: int | None  # None: a draw
    how: str

    def to_json(self) -> JSON:
        """JSON form."""
        return {"winner": self.winner, "how": self.how}

    @staticmethod
    def from_json(d: JSON) -> Result:
        """Inverse of to_json."""
        return Result(None if d["winner"] is None else int(d["winner"]), str(d["how"]))


@dataclass(frozen=True, slots=True)
class RecordEntry:
    """The input of one phase, as the record keeps it."""

    kind: str  # orders | decision | time_stop
    turn: int
    inputs: tuple[tuple[int, JSON], ...]

    def to_json(self) -> JSON:
        """JSON form."""
        return {"kind": self.kind, "turn": self.turn,
                "inputs": {str(k): v for k, v in self.inputs}}

    @staticmethod
    def from_json(d: JSON) -> RecordEntry:
        """Inverse of to_json."""
        return RecordEntry(str(d["kind"]), int(d["turn"]),
                           tuple(sorted((int(k), v) for k, v in d["inputs"].items())))


@dataclass(frozen=True, slots=True)
class Game:
    """The whole state of one duel."""

    names: tuple[str, str]
    ruleset: Ruleset
    seed: str
    wizards: tuple[Wizard, Wizard]
    phase: Phase
    monsters: tuple[Monster, ...] = ()
    next_monster: int = 1
    result: Result | None = None
    log: tuple[Event, ...] = ()
    record: tuple[RecordEntry, ...] = ()
    dice: tuple[tuple[str, int], ...] = ()  # explicit random outcomes (imported paper games)
    turn: int = 1  # number of the turn being played (time-stopped turns get numbers too)

    def wizard(self, index: int) -> Wizard:
        """Wizard 0 or 1."""
        return self.wizards[index]

    def monster(self, mid: str) -> Monster | None:
        """The monster with this id (alive or not), or None."""
        for m in self.monsters:
            if m.id == mid:
                return m
        return None

    def with_wizard(self, w: Wizard) -> Game:
        """A copy with wizard `w.index` replaced."""
        ws = (w, self.wizards[1]) if w.index == 0 else (self.wizards[0], w)
        return replace(self, wizards=ws)

    def to_json(self) -> JSON:
        """The canonical JSON form of the game (what the UI stores)."""
        return {
            "format": "wavinghands-game",
            "version": 1,
            "names": list(self.names),
            "ruleset": self.ruleset.to_json(),
            "seed": self.seed,
            "turn": self.turn,
            "wizards": [w.to_json() for w in self.wizards],
            "monsters": [m.to_json() for m in self.monsters],
            "next_monster": self.next_monster,
            "phase": self.phase.to_json(),
            "result": None if self.result is None else self.result.to_json(),
            "log": [e.to_json() for e in self.log],
            "record": [r.to_json() for r in self.record],
            "dice": {k: v for k, v in self.dice},
        }

    @staticmethod
    def from_json(d: JSON) -> Game:
        """Inverse of to_json; raises KeyError/TypeError/ValueError on malformed input."""
        if d.get("format") != "wavinghands-game" or d.get("version") != 1:
            raise ValueError("not a saved Waving Hands game (format/version)")
        names = d["names"]
        wizards = d["wizards"]
        return Game(
            names=(str(names[0]), str(names[1])),
            ruleset=Ruleset.from_json(d["ruleset"]),
            seed=str(d["seed"]),
            wizards=(Wizard.from_json(wizards[0]), Wizard.from_json(wizards[1])),
            phase=Phase.from_json(d["phase"]),
            monsters=tuple(Monster.from_json(m) for m in d["monsters"]),
            next_monster=int(d["next_monster"]),
            result=None if d["result"] is None else Result.from_json(d["result"]),
            log=tuple(Event.from_json(e) for e in d["log"]),
            record=tuple(RecordEntry.from_json(r) for r in d["record"]),
            dice=tuple(sorted((str(k), int(v)) for k, v in d["dice"].items())),
            turn=int(d["turn"]),
        )


def canonical_json(obj: Any) -> str:
    """Deterministic compact JSON used for hashing and storage."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_digest(game: Game) -> bytes:
    """sha256 of the canonical JSON of the game minus its log and record (the rules state)."""
    d = game.to_json()
    del d["log"]
    del d["record"]
    return hashlib.sha256(canonical_json(d).encode("utf-8")).digest()


def new_wizards(names: tuple[str, str]) -> tuple[Wizard, Wizard]:
    """Two fresh wizards: no damage, history or effects (the referee's dispel and anti-spell)."""
    return (Wizard(0, names[0]), Wizard(1, names[1]))

