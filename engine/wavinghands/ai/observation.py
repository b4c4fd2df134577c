"""The opponent's only input about the duel: a typed reading of `view(game, wizard)`.

Nothing here reads a `Game`; `Observation.from_view` takes the very JSON the UI gets.  Unknown
things stay unknown: a hidden gesture is "?", a blind wizard's view of the enemy has no damage
and no effects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rulesets import Ruleset
from .facts import Book, book_of

Row = tuple[str, str]
HIDDEN = "?"


@dataclass(frozen=True, slots=True)
class SeenEffect:
    """An enchantment as the viewer sees it; `detail` is None where the view withholds it."""

    kind: str
    turns_left: int | None  # None: permanent
    starts_in: int
    permanent: bool
    detail: str | None

    @staticmethod
    def from_view(d: dict[str, Any]) -> SeenEffect:
        """Read one effect of the view."""
        left = d.get("turns_left")
        return SeenEffect(str(d["kind"]), None if left is None else int(left),
                          int(d.get("starts_in", 0)), bool(d.get("permanent", False)),
                          None if d.get("detail") is None else str(d["detail"]))


@dataclass(frozen=True, slots=True)
class SeenWizard:
    """One wizard as the viewer sees him."""

    index: int
    name: str
    alive: bool
    surrendered: bool
    damage: int | None  # None: the viewer is blind
    effects: tuple[SeenEffect, ...] | None
    rows: tuple[Row, ...]  # his gesture history, "?" where hidden from the viewer
    row_kinds: tuple[str, ...]
    banked: str | None = None  # the viewer's own banked spell
    short_lightning_used: bool = False  # known for the viewer himself only
    sequence_start: int = 0  # known for the viewer himself only

    @staticmethod
    def from_view(d: dict[str, Any]) -> SeenWizard:
        """Read one wizard of the view."""
        eff = d.get("effects")
        banked = d.get("banked")
        return SeenWizard(
            index=int(d["index"]), name=str(d["name"]), alive=bool(d["alive"]),
            surrendered=bool(d["surrendered"]),
            damage=None if d.get("damage") is None else int(d["damage"]),
            effects=None if eff is None else tuple(SeenEffect.from_view(e) for e in eff),
            rows=tuple((str(r["left"]), str(r["right"])) for r in d["history"]),
            row_kinds=tuple(str(r["kind"]) for r in d["history"]),
            banked=None if banked is None else str(banked["spell"]),
            short_lightning_used=bool(d.get("short_lightning_used", False)),
            sequence_start=int(d.get("sequence_start", 0)))

    def effect(self, kind: str) -> SeenEffect | None:
        """A known effect of this kind that is active next turn, if any."""
        for e in self.effects or ():
            if e.kind == kind and e.starts_in == 0 and (e.turns_left is None or e.turns_left > 0):
                return e
        return None


@dataclass(frozen=True, slots=True)
class SeenMonster:
    """A monster the viewer can see."""

    id: str
    kind: str
    controller: int
    damage: int
    alive: bool
    effects: tuple[SeenEffect, ...]
    last_target: str

    @staticmethod
    def from_view(d: dict[str, Any]) -> SeenMonster:
        """Read one monster of the view."""
        return SeenMonster(str(d["id"]), str(d["kind"]), int(d["controller"]), int(d["damage"]),
                           bool(d["alive"]), tuple(SeenEffect.from_view(e) for e in d["effects"]),
                           str(d.get("last_target", "")))


@dataclass(frozen=True, slots=True)
class SeenDecision:
    """A question the rules ask the viewer after a reveal."""

    id: str
    kind: str  # paralysis | charm | elemental
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Observation:
    """Everything one wizard may know now: the view, typed."""

    me: int
    turn: int
    phase: str  # orders | decision | time_stop | waiting | over
    actors: tuple[int, ...]
    time_stopped: tuple[str, ...]
    decisions: tuple[SeenDecision, ...]
    revealed: tuple[tuple[int, tuple[Row, ...]], ...]  # decision phase: this turn's rows
    wizards: tuple[SeenWizard, ...]  # two in a duel (a melee is played through ai/melee.py)
    monsters: tuple[SeenMonster, ...]
    ruleset: tuple[tuple[str, Any], ...]
    constraints: tuple[tuple[str, Any], ...]  # the view's constraints, when asked for orders
    blind: bool
    hasted: bool = False  # the phase is a hasted turn (Variant.hasted_turns)

    @property
    def mine(self) -> SeenWizard:
        """The viewer's own wizard."""
        return self.wizards[self.me]

    @property
    def enemy(self) -> SeenWizard:
        """The other wizard."""
        return self.wizards[1 - self.me]

    @property
    def book(self) -> Book:
        """The facts of the spell table this duel is played with (its ruleset's)."""
        return book_of(Ruleset.from_json(dict(self.ruleset)).table)

    def constraint(self, key: str) -> Any:
        """One field of the view's constraints (None when there are none)."""
        return dict(self.constraints).get(key)

    @staticmethod
    def from_view(v: dict[str, Any]) -> Observation:
        """Read the JSON that `view(game, wizard)` returns."""
        phase = v["phase"]
        decisions = tuple(SeenDecision(str(x["id"]), str(x["kind"]),
                                       tuple(str(o) for o in x["options"]))
                          for x in phase.get("decisions", ()))
        revealed = tuple(sorted((int(k), tuple((str(r[0]), str(r[1])) for r in rows))
                                for k, rows in phase.get("revealed", {}).items()))
        ws = v["wizards"]
        return Observation(
            me=int(v["wizard"]), turn=int(v["turn"]), phase=str(phase["kind"]),
            actors=tuple(int(a) for a in phase.get("actors", ())),
            time_stopped=tuple(str(b) for b in phase.get("time_stopped", ())),
            hasted=phase.get("hasted") is True,
            decisions=decisions, revealed=revealed,
            wizards=tuple(SeenWizard.from_view(w) for w in ws),
            monsters=tuple(SeenMonster.from_view(m) for m in v["monsters"]),
            ruleset=tuple(sorted(v["ruleset"].items())),
            constraints=tuple(sorted((v.get("constraints") or {}).items())),
            blind=bool(v["blind"]))
