"""The working copy of one turn while it resolves, and the queries every phase asks of it.

Resolution (resolve.py) never touches the frozen input game: it copies wizards and monsters into
the mutable `WizardNow` / `MonsterNow` below, collects the turn's spells as `Cast`s, and builds a
new frozen game at the end.  The spell handlers (effects.py) and the attacks (attacks.py) work on
the same `Turn`.  Nothing here knows a spell by name: spells are read through their table row.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .chance import roll
from .model import (
    NOBODY,
    TIME_STOP,
    Banked,
    Decision,
    Effect,
    Event,
    Game,
    GestureRow,
    Monster,
    TurnKind,
    Wizard,
    wizard_id,
    wizard_index,
)
from .orders import Orders
from .spells import MONSTERS, Does, EffectKind, Element, Spell, SpellTable

NEW_PREFIX = "new:"  # "new:<wizard>:<hand>[:<set>]": the monster a spell summons this very turn


@dataclass
class Cast:
    """A spell on its way this turn."""

    id: str
    caster: int
    spell: Spell
    target: str
    set_index: int
    hand: str
    origin: str = "gesture"  # gesture | release
    subject: str = ""  # being id after binding and reflection; "" = nobody
    reflected_by: str = ""  # the mirror's subject that turned it back
    reflector: int = -1  # who answers for a monster that turned it back: its controller
    works: bool = True
    why: str = ""
    cause: str = ""  # why, as a code for the structured events (events.py): "countered", ...
    permanent: bool = False
    banked: bool = False
    bank_flag: bool = False
    permanent_flag: bool = False
    consumed: bool = False  # a delayed effect/permanency that took its spell this very turn
    sticky: str = ""  # a failure found while creating summons; survives the second settle

    @property
    def key(self) -> str:
        """The spell's key (what events and the bank record)."""
        return self.spell.key

    @property
    def controller(self) -> int:
        """Who holds the caster's role ("the subject of the mirror assumes the role of
        caster" for a reflected charm person; applied to paralysis too)."""
        mirror = wizard_index(self.reflected_by)
        if mirror is not None:
            return mirror
        if self.reflected_by and self.reflector >= 0:
            return self.reflector  # a monster's mirror: its master acts for it (docs/rules.md)
        return self.caster

    def fail(self, why: str, cause: str) -> None:
        """Mark the spell as having no effect, keeping the first reason (and its code)."""
        if self.works:
            self.works = False
            self.why = why
            self.cause = cause


@dataclass
class WizardNow:
    """A wizard during the turn."""

    base: Wizard
    damage: int
    alive: bool
    surrendered: bool
    history: list[GestureRow]
    sequence_start: int
    effects: list[Effect]
    short_lightning_used: bool
    banked: Banked | None
    own_turns: int
    acting: bool
    own: int  # own-turn number of this turn for this wizard (last one if not acting)
    new_rows: list[tuple[str, str]] = field(default_factory=list)
    incoming: int = 0
    cured: int = 0
    killed: bool = False
    raised: bool = False


@dataclass
class MonsterNow:
    """A monster during the turn."""

    base: Monster
    kind: str
    controller: int
    damage: int
    alive: bool
    effects: list[Effect]
    last_target: str
    own_turns: int
    known_to: tuple[int, ...]
    acting: bool
    own: int
    new: bool = False
    cast_id: str = ""
    no_attack: str = ""  # why it does not attack this turn
    destroy: str = ""  # destroyed at the end of the turn (it still attacks)
    incoming: int = 0
    cured: int = 0
    raised: bool = False
    attacks: list[str] = field(default_factory=list)

    @property
    def element(self) -> Element | None:
        """An elemental's element; None for other monsters (and an elemental not yet chosen)."""
        kind = MONSTERS.get(self.kind)
        return kind.element if kind is not None else None

    @property
    def is_elemental(self) -> bool:
        """Elementals (chosen or not) take no orders and cannot be summoned upon."""
        return self.kind.endswith("elemental")

    @property
    def kind_name(self) -> str:
        """"goblin", "fire elemental"."""
        return self.kind.replace("_", " ")


@dataclass
class Turn:
    """Everything one turn's resolution reads and writes."""

    game: Game
    kind: TurnKind
    number: int
    orders: dict[int, Orders]
    decisions: dict[str, str]
    wiz: list[WizardNow]
    mons: dict[str, MonsterNow]
    stopped: frozenset[str]
    casts: list[Cast] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    needed: list[Decision] = field(default_factory=list)
    next_monster: int = 1
    dispel: bool = False
    shield_extra: set[str] = field(default_factory=set)
    removal: set[str] = field(default_factory=set)
    time_stop_next: list[str] = field(default_factory=list)
    dice_used: dict[str, int] = field(default_factory=dict)
    spell_hits: dict[int, set[str]] = field(default_factory=dict)  # caster -> beings hurt by him
    charm_stab: dict[tuple[int, int], str] = field(default_factory=dict)  # (subject, set) -> target
    exempt_from: dict[Element, set[str]] = field(default_factory=dict)  # storm element -> spared
    chosen: dict[str, str] = field(default_factory=dict)  # decisions after the reveal (phase H)
    shields_down: bool = False  # during an attack that ignores shields (resolve.py, I6b)
    hasted: bool = False  # a hasted turn (Variant.hasted_turns): an extra turn seen by all
    # The spell table of the game's ruleset (read once: every phase asks for it, often).
    spells: SpellTable = field(init=False)

    def __post_init__(self) -> None:
        self.spells = self.game.ruleset.table

    @property
    def unseen(self) -> bool:
        """Whether this is a time-stopped turn, unseen by the frozen and with no resistance
        for them (a hasted turn is neither)."""
        return self.kind == TIME_STOP and not self.hasted

    # -- who sees what ---------------------------------------------------------------------
    def acting_wizards(self) -> set[int]:
        """Wizards taking this turn."""
        return {w.base.index for w in self.wiz if w.acting}

    def blind(self, v: int) -> bool:
        """Whether wizard v cannot see this turn (blindness active on his turn)."""
        w = self.wiz[v]
        return any(e.kind is EffectKind.BLINDNESS and e.active_on(w.own) for e in w.effects)

    def invisible(self, bid: str) -> bool:
        """Whether a wizard is invisible this turn (and so cannot be attacked or aimed at)."""
        w = self.wizard(bid)
        if w is None:
            return False
        if self.unseen and not w.acting:
            return False  # "All non-affected beings have no resistance to any form of attack"
        return any(e.kind is EffectKind.INVISIBILITY and e.active_on(w.own)
                   for e in w.effects) and bid not in self.removal and not self.dispel

    def visible(self, concerns: set[int], harms: set[int] | None = None) -> tuple[int, ...]:
        """Who may read an event: a time-stopped turn is unseen by the frozen "unless they are
        harmed"; a blind wizard learns only what concerns him."""
        harms = harms or set()
        out = []
        for v in self.game.everyone:
            if self.unseen and not self.wiz[v].acting:
                if v in harms:
                    out.append(v)
                continue
            if self.blind(v) and v not in concerns and v not in harms:
                continue
            out.append(v)
        return tuple(out)

    def emit(self, type_: str, text: str, concerns: set[int] | None = None,
             harms: set[int] | None = None, public: bool = False,
             extra: Mapping[str, str] | None = None, **data: str) -> None:
        """Add an event to the log with its audience; `data` and `extra` (fields that only
        some events of a kind have) describe it (events.py)."""
        vis = self.game.everyone if public else self.visible(concerns or set(), harms)
        data = {**data, **(extra or {})}
        fields = tuple(sorted((k, str(v)) for k, v in data.items())) if data else ()
        self.events.append(Event(self.number, type_, text, vis, fields))

    # -- beings ----------------------------------------------------------------------------
    def name(self, bid: str) -> str:
        """Readable name of a being id."""
        if bid in ("", NOBODY):
            return "nobody"
        index = wizard_index(bid)
        if index is not None:
            return self.game.names[index]
        m = self.mons.get(bid)
        if m is None:
            return bid
        return f"{self.game.names[m.controller]}'s {m.kind_name} ({bid})"

    def wizard(self, bid: str) -> WizardNow | None:
        """The wizard `bid` names, or None for a monster or nobody."""
        index = wizard_index(bid)
        return None if index is None or index >= len(self.wiz) else self.wiz[index]

    def owner_of(self, bid: str) -> set[int]:
        """Wizards concerned by what happens to a being: itself, or a monster's controller."""
        index = wizard_index(bid)
        if index is not None:
            return {index}
        m = self.mons.get(bid)
        return {m.controller} if m is not None else set()

    def being(self, bid: str) -> WizardNow | MonsterNow | None:
        """The wizard or monster `bid` names (alive or not), or None."""
        w = self.wizard(bid)
        return w if w is not None else self.mons.get(bid)

    def exists(self, bid: str) -> bool:
        """Whether `bid` names a wizard or a monster, alive or dead."""
        return self.being(bid) is not None

    def alive(self, bid: str) -> bool:
        """Whether a being exists and lives now."""
        b = self.being(bid)
        return b is not None and b.alive

    def acting(self, bid: str) -> bool:
        """Whether a being takes this turn."""
        b = self.being(bid)
        return b is not None and b.acting

    def effects_of(self, bid: str) -> list[Effect]:
        """The mutable effect list of a being."""
        b = self.being(bid)
        assert b is not None, bid
        return b.effects

    def own_of(self, bid: str) -> int:
        """The being's own-turn number for this turn."""
        b = self.being(bid)
        assert b is not None, bid
        return b.own

    def has_effect(self, bid: str, kind: EffectKind) -> bool:
        """Whether an effect is active on the being this turn."""
        own = self.own_of(bid)
        return any(e.kind is kind and e.active_on(own) for e in self.effects_of(bid))

    def living_ids(self) -> list[str]:
        """Ids of every living wizard and monster, wizards first."""
        out = [wizard_id(w.base.index) for w in self.wiz if w.alive]
        out += [mid for mid, m in self.mons.items() if m.alive]
        return out

    def summoned_by(self, cast_id: str) -> MonsterNow | None:
        """The monster a cast of this turn summoned, if any."""
        return next((m for m in self.mons.values() if m.new and m.cast_id == cast_id), None)

    def bind_new(self, target: str) -> str:
        """A `new:<wizard>:<hand>` target names the monster that summons made this turn."""
        if not target.startswith(NEW_PREFIX):
            return target
        m = self.summoned_by(target[len(NEW_PREFIX):])
        return m.base.id if m is not None else NOBODY

    def die(self, label: str, sides: int) -> int:
        """A die for this turn, derived from the seed and every acting wizard's nonce."""
        nonces = {i: o.nonce for i, o in self.orders.items()}
        value = roll(self.game.seed, self.number, nonces, label, sides, dict(self.game.dice),
                     len(self.game.wizards))
        self.dice_used[f"{self.number}:{label}"] = value
        return value

    # -- protection ------------------------------------------------------------------------
    def shielded(self, bid: str) -> bool:
        """Shield-like protection this turn: shield, counter-spell ("also act as a shield"),
        dispel magic's subject, protection from evil; none for the frozen in a time-stopped
        turn."""
        if self.unseen and not self.acting(bid):
            return False
        if self.shields_down:
            return False
        if bid in self.shield_extra:
            return True
        return self.has_effect(bid, EffectKind.PROTECTION_FROM_EVIL) and \
            bid not in self.removal and not self.dispel

    def resistant(self, bid: str, element: Element) -> bool:
        """Resistance to heat (fire) or cold (ice), lasting or cast this very turn."""
        if self.unseen and not self.acting(bid):
            return False
        if bid in self.removal or self.dispel:
            return False
        resist = RESISTANCE[element]
        if self.has_effect(bid, resist):
            return True
        return any(c.works and not c.banked and c.spell.does is Does.ENCHANT and
                   c.spell.element is element and c.subject == bid for c in self.casts)

    # -- harm and healing ------------------------------------------------------------------
    def damage(self, bid: str, amount: int, text: str, source: str,
               caster: int | None = None, **data: str) -> None:
        """Damage lands at the end of the turn, together with cures (see phase I10); `caster`
        (a spell's) counts for surrender's rule, `data` only describes the event."""
        b = self.being(bid)
        assert b is not None, bid
        b.incoming += amount
        if caster is not None:
            self.spell_hits.setdefault(caster, set()).add(bid)
        owner = self.owner_of(bid)
        if caster is not None:
            data = {"caster": str(caster), "spell": source, **data}
        self.emit("damage", text, concerns=owner, harms=owner, target=bid, amount=str(amount),
                  source=source, extra=data)

    def cure(self, bid: str, amount: int) -> None:
        """Cures are counted against this turn's damage too (see phase I10)."""
        b = self.being(bid)
        assert b is not None, bid
        b.cured += amount
        self.emit("cure", f"{self.name(bid)} is healed of up to {amount}.",
                  concerns=self.owner_of(bid), target=bid, amount=str(amount))

    def raise_dead(self, bid: str, cure: int) -> None:
        """Raise dead: on a corpse "life returns ... and all damage is cured"; on the living
        "the effect is that of a cure light wounds recovering five points of damage"."""
        if self.alive(bid):
            self.cure(bid, cure)
            return
        b = self.being(bid)
        assert b is not None, bid
        b.alive = True
        b.raised = True
        b.effects.clear()
        if isinstance(b, MonsterNow):
            b.destroy = ""
            b.acting = True
            b.own = b.own_turns + 1
        self.emit("raised", f"{self.name(bid)} rises from the dead.",
                  concerns=self.owner_of(bid), harms=self.owner_of(bid), target=bid)

    def was_raised(self, bid: str) -> bool:
        """Whether raise dead already brought this corpse back this turn (before the attacks)."""
        b = self.being(bid)
        return b is not None and b.raised


# The lasting effect that keeps each element out.
RESISTANCE: dict[Element, EffectKind] = {Element.FIRE: EffectKind.RESIST_HEAT,
                                         Element.ICE: EffectKind.RESIST_COLD}


def replace_effect(effects: list[Effect], old: Effect, new: Effect) -> None:
    """Swap one effect object for another in place."""
    for i, e in enumerate(effects):
        if e is old:
            effects[i] = new
            return


def scratch(game: Game, kind: TurnKind,
            stopped: frozenset[str]) -> tuple[list[WizardNow], dict[str, MonsterNow]]:
    """Working copies of the game's wizards and monsters for one turn of this kind."""
    wiz = []
    for w in game.wizards:
        # (a melee's surrendered wizard has left the fight: neither acts nor may be harmed)
        acting = w.in_fight and (kind != TIME_STOP or wizard_id(w.index) in stopped)
        wiz.append(WizardNow(w, w.damage, w.in_fight, w.surrendered, list(w.history),
                             w.sequence_start, list(w.effects), w.short_lightning_used, w.banked,
                             w.own_turns, acting, w.own_turns + 1 if acting else w.own_turns))
    mons: dict[str, MonsterNow] = {}
    for m in game.monsters:
        acting = m.alive and (kind != TIME_STOP or m.id in stopped)
        mons[m.id] = MonsterNow(m, m.kind, m.controller, m.damage, m.alive, list(m.effects),
                                m.last_target, m.own_turns, m.known_to, acting,
                                m.own_turns + 1 if acting else m.own_turns)
    return wiz, mons
