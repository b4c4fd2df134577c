"""Frozen value objects for the whole state of a duel, and their JSON form.

Every object here is immutable; resolution builds new ones.  `Game.to_json()` is the canonical
serialisation: the UI stores it and hands it back, and `state_digest` hashes it for remote play.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, cast

from .rulesets import Ruleset
from .spells import MONSTERS, TIME_STOP_KIND, EffectKind, TimeStopKind

JSON = dict[str, Any]

HANDS = ("L", "R")
# kind: (damage it inflicts per attack, damage that destroys it), from the spell table's monsters
MONSTER_STATS: dict[str, tuple[int, int]] = {k: (m.strength, m.toughness)
                                             for k, m in MONSTERS.items()}
ELEMENTALS = frozenset(k for k, m in MONSTERS.items() if m.element is not None)
WIZARD_DEATH = 15  # "dies when fifteen or more points of damage are done"
# The last turn number this implementation plays (not a rule of the game): a duel still going
# at its end is a draw, so every duel's record stays importable (record.MAX_RECORD_TURNS is
# this number; docs/rules.md, "Limits of this implementation").
MAX_TURNS: Final[int] = 1_000

# One table of hand and gesture words, for every sentence the engine writes.
HAND_WORDS: Final[dict[str, str]] = {"L": "left hand", "R": "right hand", "B": "both hands"}
GESTURE_WORDS: Final[dict[str, str]] = {"-": "nothing", ">": "a stab"}


def hand_word(hand: str) -> str:
    """"left hand", "right hand" or "both hands"."""
    return HAND_WORDS[hand]


def gesture_word(gesture: str) -> str:
    """A gesture as a sentence says it: "F", "nothing", "a stab"."""
    return GESTURE_WORDS.get(gesture, gesture)


# The kinds of phase a game waits in, and of turn a phase resolves.
PhaseKind = Literal["orders", "decision", "over"] | TimeStopKind
TurnKind = Literal["orders"] | TimeStopKind
ORDERS: Final = "orders"
DECISION: Final = "decision"
TIME_STOP: Final = TIME_STOP_KIND  # an extra turn only the time-stopped take
OVER: Final = "over"
_PHASE_KINDS: Final[frozenset[str]] = frozenset({ORDERS, DECISION, TIME_STOP, OVER})


def phase_kind(text: str) -> PhaseKind:
    """Parse a phase kind; raises ValueError for anything else."""
    if text not in _PHASE_KINDS:
        raise ValueError(f"unknown phase kind {text!r}")
    return cast(PhaseKind, text)


def turn_kind(text: str) -> TurnKind:
    """Parse the kind of a suspended turn (ORDERS or TIME_STOP); "" reads as ORDERS."""
    if text in ("", ORDERS):
        return ORDERS
    if text == TIME_STOP:
        return TIME_STOP
    raise ValueError(f"unknown turn kind {text!r}")


# Being ids: "W0", "W1" for the wizards, "M<n>" for monsters, "none" for nobody.  Parsed here only.
NOBODY: Final = "none"


def wizard_id(index: int) -> str:
    """Being id of a wizard."""
    return f"W{index}"


# A game has MIN_WIZARDS to MAX_WIZARDS wizards: a duel is two, a melee three to six
# (docs/rules.md, "Melee").
MIN_WIZARDS: Final[int] = 2
MAX_WIZARDS: Final[int] = 6
_WIZARD_INDEX: Final[dict[str, int]] = {f"W{i}": i for i in range(MAX_WIZARDS)}


def wizard_index(bid: str) -> int | None:
    """The wizard's index if `bid` names a wizard ("W0" ... "W5"), else None (a monster,
    nobody)."""
    return _WIZARD_INDEX.get(bid)  # (every phase asks this of every being: one lookup)


def is_wizard(bid: str) -> bool:
    """Whether `bid` names a wizard."""
    return wizard_index(bid) is not None


# A gesture row's kind: a wizard's one set of the turn, his second set while hastened (the
# effect's key), or TIME_STOP: a stopped turn's.
NORMAL_ROW: Final = "normal"
HASTENED_ROW: Final = EffectKind.HASTE.value


@dataclass(frozen=True, slots=True)
class GestureRow:
    """One set of gestures made by one wizard: a row of the two-column history."""

    turn: int
    left: str
    right: str
    kind: str = NORMAL_ROW  # NORMAL_ROW | HASTENED_ROW | TIME_STOP
    # Hidden from every other wizard: the maker invisible, a time-stopped row, or every other
    # wizard blind (in a duel: the opponent blind).
    hidden_from_opponent: bool = False
    # In a melee, the other wizards (indexes) it is hidden from when not from all: the blind.
    hidden_from: tuple[int, ...] = ()

    def hidden_to(self, viewer: int, maker: int) -> bool:
        """Whether wizard `viewer` did not see this row of wizard `maker`'s."""
        return viewer != maker and (self.hidden_from_opponent or viewer in self.hidden_from)

    def to_json(self) -> JSON:
        """JSON form (`hidden_from` only when some but not all others were blind: a melee)."""
        d: JSON = {"turn": self.turn, "left": self.left, "right": self.right, "kind": self.kind,
                   "hidden": self.hidden_from_opponent}
        if self.hidden_from:
            d["hidden_from"] = list(self.hidden_from)
        return d

    @staticmethod
    def from_json(d: JSON) -> GestureRow:
        """Inverse of to_json."""
        return GestureRow(int(d["turn"]), str(d["left"]), str(d["right"]), str(d["kind"]),
                          bool(d["hidden"]), tuple(int(x) for x in d.get("hidden_from", ())))


_GESTURE_LETTERS = frozenset("FPSWDC>-")


@dataclass(frozen=True, slots=True)
class Effect:
    """A lasting effect on a wizard or monster, laid by the enchantment of the same key.

    Active on the subject's own turns `start`..`end` inclusive (counted in turns the subject
    takes, see docs/rules.md "durations"); `end` None means permanent.  What the effect fixed:
    `hand` (paralysed, charmed or confused hand), `gesture` (the gesture that hand is frozen into
    or repeats for ever), `repeats` (amnesia on a wizard: the left and right gestures to repeat),
    `target` (amnesia, or a permanent confusion, on a monster: whom it attacks).
    """

    kind: EffectKind
    start: int
    end: int | None
    source: int | None = None  # the wizard who controls the effect (charm, paralysis chooser)
    permanent: bool = False
    known_to: tuple[int, ...] = (0, 1)
    hand: str = ""
    gesture: str = ""
    repeats: tuple[str, ...] = ()
    target: str = ""

    def active_on(self, own_turn: int) -> bool:
        """Whether the effect applies on the subject's own turn number `own_turn`."""
        return self.start <= own_turn and (self.end is None or own_turn <= self.end)

    @property
    def detail(self) -> str:
        """The JSON form's one-string summary of what the effect fixed (the saved-game format):
        "LR" repeats, a target id, "L" or "L:F" hand and gesture, or ""."""
        if self.repeats:
            return "".join(self.repeats)
        if self.target:
            return self.target
        if self.hand:
            return f"{self.hand}:{self.gesture}" if self.gesture else self.hand
        return ""

    @staticmethod
    def parse_detail(kind: EffectKind, detail: str) -> JSON:
        """The typed fields a saved `detail` string stands for (inverse of `detail`)."""
        if not detail:
            return {}
        # amnesia's two gestures; a paralysis whose hand is not chosen yet (Warlocks): the two
        # gestures each hand would be frozen into
        if kind in (EffectKind.AMNESIA, EffectKind.PARALYSIS) and len(detail) == 2 and \
                set(detail) <= _GESTURE_LETTERS:
            return {"repeats": (detail[0], detail[1])}
        hand, colon, gesture = detail.partition(":")
        if hand in ("L", "R") and (colon or not gesture):
            return {"hand": hand, "gesture": gesture}
        return {"target": detail}  # a monster's: whom amnesia or a permanent confusion attacks

    def to_json(self) -> JSON:
        """JSON form."""
        return {"kind": self.kind.value, "start": self.start, "end": self.end,
                "source": self.source, "detail": self.detail, "permanent": self.permanent,
                "known_to": list(self.known_to)}

    @staticmethod
    def from_json(d: JSON) -> Effect:
        """Inverse of to_json."""
        kind = EffectKind(str(d["kind"]))
        return Effect(kind, int(d["start"]), None if d["end"] is None else int(d["end"]),
                      None if d["source"] is None else int(d["source"]), bool(d["permanent"]),
                      tuple(int(x) for x in d["known_to"]),
                      **Effect.parse_detail(kind, str(d["detail"])))


def first_active(effects: tuple[Effect, ...], kind: EffectKind | str,
                 own_turn: int) -> Effect | None:
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
    target: str = ""  # the target it keeps, where the ruleset banks it with one ("" = none)

    def to_json(self) -> JSON:
        """JSON form (`target` only when it keeps one)."""
        d: JSON = {"spell": self.spell, "turn": self.banked_turn}
        if self.target:
            d["target"] = self.target
        return d

    @staticmethod
    def from_json(d: JSON) -> Banked:
        """Inverse of to_json."""
        return Banked(str(d["spell"]), int(d["turn"]), str(d.get("target", "")))


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

    def effect(self, kind: EffectKind | str, own_turn: int) -> Effect | None:
        """The first active effect of this kind on the given own turn, if any."""
        return first_active(self.effects, kind, own_turn)

    @property
    def in_fight(self) -> bool:
        """Alive and not surrendered: a melee's surrendering wizard leaves the fight."""
        return self.alive and not self.surrendered

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
        return MONSTERS[self.kind].strength

    @property
    def toughness(self) -> int:
        """Damage that destroys it."""
        return MONSTERS[self.kind].toughness

    @property
    def is_elemental(self) -> bool:
        """Elementals attack everyone and take no orders."""
        return MONSTERS[self.kind].element is not None

    def effect(self, kind: EffectKind | str, own_turn: int) -> Effect | None:
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


ANSWERED: Final = "answered"  # the JSON form's kind for an earlier answer (see Phase.to_json)


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

    kind: PhaseKind
    turn: int
    actors: tuple[int, ...]
    decisions: tuple[Decision, ...] = ()
    # decision phase: the revealed orders of the turn being resolved (JSON inputs by wizard)
    pending: tuple[tuple[int, JSON], ...] = ()
    pending_kind: TurnKind | Literal[""] = ""  # the kind of the suspended turn
    time_stopped: tuple[str, ...] = ()  # time_stop phase: the beings taking the extra turn
    # decision phase: the rows actually made in the suspended turn (after amnesia, paralysis,
    # charm and confusion), as (wizard, rows), each row carrying its hidden flag
    revealed: tuple[tuple[int, tuple[GestureRow, ...]], ...] = ()
    # decision phase: answers given in an earlier decision phase of the same turn (id, answer)
    answered: tuple[tuple[str, str], ...] = ()
    # time_stop phase: this extra turn is a hasted turn (Variant.hasted_turns), seen by all, in
    # which only the hastened wizards (`time_stopped`) act; `queued`: the beings time-stopped in
    # the normal turn before it, whose extra turn follows it
    hasted: bool = False
    queued: tuple[str, ...] = ()

    def to_json(self) -> JSON:
        """JSON form.  Earlier answers travel as they always have: as decisions of kind
        "answered" for wizard -1 whose one option is the answer (game format version 1)."""
        earlier = [Decision(k, ANSWERED, -1, (v,), "").to_json() for k, v in self.answered]
        d: JSON = {"kind": self.kind, "turn": self.turn, "actors": list(self.actors),
                   "decisions": [d.to_json() for d in self.decisions] + earlier,
                   "pending": {str(k): v for k, v in self.pending},
                   "pending_kind": self.pending_kind, "time_stopped": list(self.time_stopped),
                   "revealed": {str(k): [r.to_json() for r in rows]
                                for k, rows in self.revealed}}
        if self.hasted:  # (absent otherwise, so games without hasted turns read as before)
            d["hasted"] = True
        if self.queued:
            d["queued"] = list(self.queued)
        return d

    @staticmethod
    def from_json(d: JSON) -> Phase:
        """Inverse of to_json."""
        decisions = [Decision.from_json(x) for x in d["decisions"]]
        pending_kind = str(d["pending_kind"])
        return Phase(phase_kind(str(d["kind"])), int(d["turn"]),
                     tuple(int(a) for a in d["actors"]),
                     tuple(x for x in decisions if x.kind != ANSWERED),
                     tuple(sorted((int(k), v) for k, v in d["pending"].items())),
                     turn_kind(pending_kind) if pending_kind else "",
                     tuple(str(b) for b in d["time_stopped"]),
                     tuple(sorted((int(k), tuple(GestureRow.from_json(r) for r in rows))
                                  for k, rows in d.get("revealed", {}).items())),
                     tuple((x.id, x.options[0]) for x in decisions if x.kind == ANSWERED),
                     d.get("hasted") is True, tuple(str(b) for b in d.get("queued", ())))


@dataclass(frozen=True, slots=True)
class Result:
    """How the duel ended."""

    winner: int | None  # None: a draw
    how: str
    # A melee's draw: the wizards who share it (all those who went out together); () in a duel
    drawn: tuple[int, ...] = ()

    def to_json(self) -> JSON:
        """JSON form (`drawn` only for a melee's draw)."""
        d: JSON = {"winner": self.winner, "how": self.how}
        if self.drawn:
            d["drawn"] = list(self.drawn)
        return d

    @staticmethod
    def from_json(d: JSON) -> Result:
        """Inverse of to_json."""
        return Result(None if d["winner"] is None else int(d["winner"]), str(d["how"]),
                      tuple(int(x) for x in d.get("drawn", ())))


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
    """The whole state of one duel (two wizards) or melee (three to six)."""

    names: tuple[str, ...]
    ruleset: Ruleset
    seed: str
    wizards: tuple[Wizard, ...]
    phase: Phase
    monsters: tuple[Monster, ...] = ()
    next_monster: int = 1
    result: Result | None = None
    log: tuple[Event, ...] = ()
    record: tuple[RecordEntry, ...] = ()
    dice: tuple[tuple[str, int], ...] = ()  # explicit random outcomes (imported paper games)
    turn: int = 1  # number of the turn being played (time-stopped turns get numbers too)

    def wizard(self, index: int) -> Wizard:
        """Wizard `index` (0 to N - 1)."""
        return self.wizards[index]

    @property
    def everyone(self) -> tuple[int, ...]:
        """Every wizard's index: (0, 1) in a duel."""
        return tuple(range(len(self.wizards)))

    @property
    def is_melee(self) -> bool:
        """Whether more than two wizards fight (docs/rules.md, "Melee")."""
        return len(self.wizards) > 2

    def monster(self, mid: str) -> Monster | None:
        """The monster with this id (alive or not), or None."""
        for m in self.monsters:
            if m.id == mid:
                return m
        return None

    def with_wizard(self, w: Wizard) -> Game:
        """A copy with wizard `w.index` replaced."""
        ws = tuple(w if x.index == w.index else x for x in self.wizards)
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
        if not isinstance(names, list) or not MIN_WIZARDS <= len(names) <= MAX_WIZARDS or \
                not isinstance(wizards, list) or len(wizards) != len(names):
            raise ValueError(f"a game has {MIN_WIZARDS} to {MAX_WIZARDS} wizards, each named")
        return Game(
            names=tuple(str(n) for n in names),
            ruleset=Ruleset.from_json(d["ruleset"]),
            seed=str(d["seed"]),
            wizards=tuple(Wizard.from_json(w) for w in wizards),
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
    d = replace(game, log=(), record=()).to_json()  # (the duel's length not written, then cut)
    del d["log"]
    del d["record"]
    return hashlib.sha256(canonical_json(d).encode("utf-8")).digest()


def new_wizards(names: tuple[str, ...]) -> tuple[Wizard, ...]:
    """Fresh wizards: no damage, history or effects (the referee's dispel and anti-spell)."""
    return tuple(Wizard(i, name) for i, name in enumerate(names))

