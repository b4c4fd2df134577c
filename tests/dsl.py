"""A readable notation for scenario tests: one gesture string per hand, turn by turn.

    d = Duel(A="S D / - -", B="- - / P P")       # A's left hand S then D; right hand nothing
    d.run()                                       # plays every turn (defaults for choices)
    assert d.damage("B") == 0

Letters: F P S W D C, `>` stab, `-` nothing; turns separated by spaces, left and right hands by
`/`.  Extra orders per turn and wizard: `d.orders(turn, "A", {...})` (the JSON orders fields:
casts, stab, monsters, charm, release).  Decisions after a reveal: `d.decide(turn, {id: choice})`,
or leave them to `default_decisions` (first option).  Time-stopped turns take their gestures from
`d.extra(turn, "A", "F/P")`, keyed by the number of the extra turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypedDict

from wavinghands import duel
from wavinghands.model import Banked, Effect, Event, Game, Monster
from wavinghands.view import view

# Wizards are named by letter: A and B in a duel, A to F in a melee (docs/rules.md, "Melee").
LETTERS = "ABCDEF"
WHO = {letter: i for i, letter in enumerate(LETTERS)}
ID = {letter: f"W{i}" for i, letter in enumerate(LETTERS)}


class Script(TypedDict, total=False):
    """Every wizard's gestures in the notation, to pass on as `Duel(**script)`."""

    A: str
    B: str
    C: str
    D: str
    E: str
    F: str


def hands(spec: str) -> list[tuple[str, str]]:
    """'S D / - >' -> [('S', '-'), ('D', '>')]."""
    left, right = (part.split() for part in spec.split("/"))
    if len(left) != len(right):
        raise ValueError(f"hands of unequal length in {spec!r}")
    return list(zip(left, right, strict=True))


class Duel:
    """A scripted duel between A (wizard 0) and B (wizard 1); with `wizards` 3 to 6, a melee
    of A, B, C, ... (the extra wizards' gestures as keyword arguments C to F)."""

    def __init__(self, A: str = "", B: str = "", seed: str = "5eed5eed",
                 withhold: bool = False, dice: dict[str, int] | None = None,
                 ruleset: str = "standard", wizards: int = 2, **more: str) -> None:
        from wavinghands.ruleset import Ruleset

        # `dice`: explicit die outcomes keyed "<game turn>:<label>" (as a paper game's record);
        # `ruleset`: the rules' name ("standard" or "warlocks").
        count = max(wizards, *(WHO[k] + 1 for k in more)) if more else wizards
        names = tuple(LETTERS[:count])
        self.game: Game = duel.new_game(names, seed, Ruleset(ruleset, withhold), dice)
        specs = {"A": A, "B": B, **more}
        self.plan = {i: hands(specs.get(letter, "")) if specs.get(letter) else []
                     for i, letter in enumerate(names)}
        self.extra_orders: dict[tuple[int, int], dict[str, Any]] = {}
        self.decisions: dict[int, dict[str, str]] = {}
        self.stopped_turns: dict[tuple[int, int], tuple[str, str]] = {}
        self.events: list[Event] = []
        self.states: list[Game] = [self.game]
        self.decision_log: list[tuple[int, str, int, tuple[str, ...]]] = []
        self.haste_sets: dict[tuple[int, int], tuple[str, str]] = {}
        self.regular = 0  # regular turns played so far (a later run() carries on from here)

    # -- set-up --------------------------------------------------------------------------------
    def orders(self, turn: int, who: str, extra: dict[str, Any]) -> Duel:
        """Add order fields for one wizard on one (regular) turn, counted from 1."""
        self.extra_orders[(turn, WHO[who])] = extra
        return self

    def decide(self, turn: int, answers: dict[str, str]) -> Duel:
        """Answer decisions raised on a game turn."""
        self.decisions.setdefault(turn, {}).update(answers)
        return self

    def extra(self, turn: int, who: str, pair: str) -> Duel:
        """Gestures for a time-stopped turn numbered `turn` (game turn number)."""
        left, right = pair.split("/")
        self.stopped_turns[(turn, WHO[who])] = (left.strip(), right.strip())
        return self

    def stopped_orders(self, turn: int, who: str, extra: dict[str, Any]) -> Duel:
        """Add order fields (casts, stab, ...) for a time-stopped turn numbered `turn`."""
        self.extra_orders[(-turn, WHO[who])] = extra
        return self

    def hasted(self, turn: int, who: str, pair: str) -> Duel:
        """The second gesture set of a hastened wizard on regular turn `turn`."""
        left, right = pair.split("/")
        self.haste_sets[(turn, WHO[who])] = (left.strip(), right.strip())
        return self

    def set_damage(self, who: str, damage: int) -> Duel:
        """Start a wizard with damage already taken (as if from earlier turns)."""
        w = self.game.wizard(WHO[who])
        self.game = self.game.with_wizard(replace(w, damage=damage))
        self.states[0] = self.game
        return self

    # -- play ----------------------------------------------------------------------------------
    def until(self, turn: int, kind: str = "decision") -> Duel:
        """Play until the game waits in the phase `kind` of game turn `turn` (e.g. the decision
        phase of turn 3, before it is answered); raises LookupError if it never does."""
        self.run(stop=lambda g: g.phase.kind == kind and g.phase.turn == turn)
        if not (self.game.phase.kind == kind and self.game.phase.turn == turn):
            raise LookupError(f"the game never waited in a {kind} phase of turn {turn}")
        return self

    def run(self, turns: int | None = None,
            stop: Callable[[Game], bool] | None = None) -> Duel:
        """Play the planned regular turns (and any phases between them) until the plan or the
        game ends; `turns` caps the number of regular turns played in all (so `run(3)` then
        `run()` plays turns 1-3, then the rest)."""
        regular = self.regular
        total = max(len(p) for p in self.plan.values())
        limit = total if turns is None else min(turns, total)
        while self.game.phase.kind != "over":
            if stop is not None and stop(self.game):
                break
            kind = self.game.phase.kind
            if kind == "orders":
                if regular >= limit:
                    break
                inputs = {}
                for i in self.game.phase.actors:
                    inputs[i] = self._orders_for(i, regular)
                regular += 1
            elif kind == "decision":
                answers = self.decisions.get(self.game.phase.turn, {})
                inputs = {}
                for i in self.game.phase.actors:
                    mine = {}
                    for x in self.game.phase.decisions:
                        if x.wizard != i:
                            continue
                        self.decision_log.append((self.game.phase.turn, x.id, x.wizard,
                                                  x.options))
                        mine[x.id] = answers.get(x.id, x.options[0])
                    inputs[i] = {"decisions": mine}
            elif kind == "time_stop":
                inputs = {}
                for i in self.game.phase.actors:
                    pair = self.stopped_turns.get((self.game.phase.turn, i), ("-", "-"))
                    if f"W{i}" not in self.game.phase.time_stopped:
                        pair = ("-", "-")
                    o: dict[str, Any] = {"gestures": [list(pair)]}
                    o.update(self.extra_orders.get((-self.game.phase.turn, i), {}))
                    inputs[i] = o
            else:
                break
            self.game, events = duel.step(self.game, inputs)
            self.regular = regular
            self.events.extend(events)
            self.states.append(self.game)
        return self

    def _orders_for(self, i: int, regular: int) -> dict[str, Any]:
        plan = self.plan[i]
        pair = plan[regular] if regular < len(plan) else ("-", "-")
        sets = [list(pair)]
        second = self.haste_sets.get((regular + 1, i))
        if second is not None:
            sets.append(list(second))
        o: dict[str, Any] = {"gestures": sets}
        o.update(self.extra_orders.get((regular + 1, i), {}))
        return o

    # -- inspection ----------------------------------------------------------------------------
    def damage(self, who: str) -> int:
        """A wizard's damage now."""
        return self.game.wizard(WHO[who]).damage

    def alive(self, who: str) -> bool:
        """Whether a wizard lives."""
        return self.game.wizard(WHO[who]).alive

    def effects(self, who: str) -> set[str]:
        """Kinds of the enchantments on a wizard now."""
        return {e.kind for e in self.game.wizard(WHO[who]).effects}

    def effect(self, who: str, kind: str) -> Effect | None:
        """The effect of `kind` on a wizard now, or None; the test fails if he has two."""
        found = [e for e in self.game.wizard(WHO[who]).effects if e.kind == kind]
        assert len(found) <= 1, f"{who} is under {len(found)} effects of kind {kind}"
        return found[0] if found else None

    def monsters(self, alive: bool = True) -> list[Monster]:
        """Monsters (living ones by default)."""
        return [m for m in self.game.monsters if m.alive or not alive]

    def monster(self, mid: str) -> Monster:
        """The monster `mid` ("M1"), alive or not; the test fails if there is none."""
        found = self.game.monster(mid)
        assert found is not None, f"there is no monster {mid}"
        return found

    def banked(self, who: str) -> Banked | None:
        """What a wizard holds in the bank (delayed effect), or None."""
        return self.game.wizard(WHO[who]).banked

    def banked_spell(self, who: str) -> str | None:
        """The spell a wizard holds in the bank, or None."""
        bank = self.banked(who)
        return None if bank is None else bank.spell

    def log(self) -> str:
        """Every event's text, one per line."""
        return "\n".join(e.text for e in self.events)

    def casts(self) -> list[tuple[int, str, str]]:
        """(caster, spell, subject) of every spell that was cast (worked or not)."""
        out = []
        for e in self.events:
            if e.type == "cast":
                d = dict(e.data)
                out.append((int(d["caster"]), d["spell"], d.get("subject", "")))
        return out

    def fizzled(self) -> list[str]:
        """Spells that had no effect, as the log words them."""
        return [e.text for e in self.events if e.type == "fizzle"]

    def result(self) -> tuple[int | None, str] | None:
        """(winner, how) or None while the duel goes on."""
        r = self.game.result
        return None if r is None else (r.winner, r.how)

    def view(self, who: str) -> dict[str, Any]:
        """The view of one wizard."""
        return view(self.game, WHO[who])

    def state_at(self, turn: int, kind: str = "orders") -> Game:
        """The first state reached whose phase is `kind` for game turn `turn` (e.g. the state in
        which the orders of turn `turn` are awaited, i.e. after turn `turn - 1` resolved)."""
        for g in self.states:
            if g.phase.turn == turn and g.phase.kind == kind:
                return g
        raise LookupError(f"no {kind} phase of turn {turn} was reached")

    def view_at(self, turn: int, who: str, kind: str = "orders") -> dict[str, Any]:
        """The view of one wizard in the state `state_at(turn, kind)`."""
        return view(self.state_at(turn, kind), WHO[who])

    def log_of(self, who: str) -> str:
        """The log as one wizard may read it (every event's text, one per line)."""
        return "\n".join(e.text for e in self.events if WHO[who] in e.visible_to)

    def row(self, who: str, turn: int, kind: str = "normal") -> tuple[str, str]:
        """The gestures a wizard actually made on a game turn (after amnesia, paralysis,
        charm and confusion): (left, right) of the history row of that kind."""
        for r in self.game.wizard(WHO[who]).history:
            if r.turn == turn and r.kind == kind:
                return (r.left, r.right)
        raise LookupError(f"{who} has no {kind} row on turn {turn}")


def cast(hand: str, spell: str, target: str | None = None, set_index: int = 0,
         bank: bool = False, permanent: bool = False) -> dict[str, Any]:
    """One entry of an orders' "casts" list: `cast("L", "missile", "none")`."""
    c: dict[str, Any] = {"set": set_index, "hand": hand, "spell": spell}
    if target is not None:
        c["target"] = target
    if bank:
        c["bank"] = True
    if permanent:
        c["permanent"] = True
    return c


def problems(game: Game, who: str, raw: dict[str, Any]) -> list[str]:
    """The codes of everything wrong with one wizard's input (orders or decisions) for the
    current phase of `game` (empty: legal)."""
    from wavinghands.legal import input_problems
    from wavinghands.orders import OrderError

    try:
        inp = duel.parse_input(game, raw)
    except OrderError as e:
        return [e.code]
    return [p.code for p in input_problems(game, WHO[who], inp)]
