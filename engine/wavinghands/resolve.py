"""Resolution: `resolve(game, inputs) -> (game, events)`, a pure function.

A turn is resolved in the explicit phases below, each commented with the rules text it
implements (quotes are from 000, the reference copy; docs/rules.md lists every interpretation).
Internally the phases work on mutable scratch copies (`_Wiz`, `_Mon`, `_Cast`); the frozen
input game is never touched and a new frozen game is built at the end.

    A  gestures      forced gestures (amnesia, paralysis, charm person), confusion's dice
    B  recognition   spells each hand completes, the wizard's choices, surrender
    C  release       spells released from delayed effect's bank
    D  settle        targets, dispel magic, magic mirror, counter-spell, invisibility
    E  bank/extend   delayed effect and permanency take the spell they wait for
    F  clash         amnesia/confusion/charm/paralysis/fear on one subject cancel
    G  removal       remove enchantment and raise dead strip enchantments, cast ones included
    H  decisions     paralysis hand, charm person hand, elemental type (after the reveal)
    I  effects       charm monster, summons, elementals and storms, attacks, spells, stabs,
                     damage and cures, new enchantments, deadlines, durations
    J  outcome       death, surrender, the next phase
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from .chance import roll
from .errors import IllegalInput
from .legal import choose_allocation, input_problems
from .model import (
    WIZARD_DEATH,
    Banked,
    Decision,
    Effect,
    Event,
    Game,
    GestureRow,
    Monster,
    Phase,
    RecordEntry,
    Result,
    Wizard,
)
from .orders import STAB, CastChoice, DecisionInput, OrderError, Orders
from .recognize import completed, is_surrender
from .situation import PARALYSED_FORM, constraints, opponent, usual_target, wizard_id
from .spells import MIND_SPELLS, NEVER_PERMANENT, SPELLS, Category

CONFUSION_GESTURES = "CDFPSW"  # "1=C, 2=D, 3=F, 4=P, 5=S, 6=W"
SUMMONED_KIND = {"summon_goblin": "goblin", "summon_ogre": "ogre", "summon_troll": "troll",
                 "summon_giant": "giant"}
# Spells a magic mirror does not turn back: those not "cast on a subject" in the mirror's sense.
NOT_REFLECTED = frozenset({"counter_spell", "magic_mirror", "dispel_magic", "fire_storm",
                           "ice_storm"})
# "The counter-spell will cancel all the spells cast at the subject ... except dispel magic and
# finger of death"; raise dead "cannot be stopped by a counter-spell".
PASS_COUNTER = frozenset({"counter_spell", "dispel_magic", "finger_of_death", "raise_dead"})
BLANKET = frozenset({"fire_storm", "ice_storm"})


@dataclass
class _Cast:
    """A spell on its way this turn."""

    id: str
    caster: int
    spell: str
    target: str
    set_index: int
    hand: str
    origin: str = "gesture"  # gesture | release
    subject: str = ""  # being id after binding and reflection; "" = nobody
    reflected_by: str = ""  # the mirror's subject that turned it back
    reflector: int = -1  # who answers for a monster that turned it back: its controller
    works: bool = True
    why: str = ""
    permanent: bool = False
    banked: bool = False
    bank_flag: bool = False
    permanent_flag: bool = False
    consumed: bool = False  # a delayed effect/permanency that took its spell this very turn
    sticky: str = ""  # a failure found while creating summons; survives the second settle

    @property
    def controller(self) -> int:
        """Who holds the caster's role ("the subject of the mirror assumes the role of
        caster" for a reflected charm person; applied to paralysis too)."""
        if self.reflected_by.startswith("W"):
            return int(self.reflected_by[1:])
        if self.reflected_by and self.reflector >= 0:
            return self.reflector  # a monster's mirror: its master acts for it (docs/rules.md)
        return self.caster

    def fail(self, why: str) -> None:
        """Mark the spell as having no effect, keeping the first reason."""
        if self.works:
            self.works = False
            self.why = why


@dataclass
class _Wiz:
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
class _Mon:
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


@dataclass
class _Turn:
    game: Game
    kind: str  # orders | time_stop
    number: int
    orders: dict[int, Orders]
    decisions: dict[str, str]
    wiz: list[_Wiz]
    mons: dict[str, _Mon]
    stopped: frozenset[str]
    casts: list[_Cast] = field(default_factory=list)
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

    # -- who sees what ---------------------------------------------------------------------
    def acting_wizards(self) -> set[int]:
        """Wizards taking this turn."""
        return {w.base.index for w in self.wiz if w.acting}

    def blind(self, v: int) -> bool:
        """Whether wizard v cannot see this turn (blindness active on his turn)."""
        w = self.wiz[v]
        return any(e.kind == "blindness" and e.active_on(w.own) for e in w.effects)

    def invisible(self, bid: str) -> bool:
        """Whether a wizard is invisible this turn (and so cannot be attacked or aimed at)."""
        if not bid.startswith("W"):
            return False
        w = self.wiz[int(bid[1:])]
        if self.kind == "time_stop" and not w.acting:
            return False  # "All non-affected beings have no resistance to any form of attack"
        return any(e.kind == "invisibility" and e.active_on(w.own) for e in w.effects) and \
            bid not in self.removal and not self.dispel

    def visible(self, concerns: set[int], harms: set[int] | None = None) -> tuple[int, ...]:
        """Who may read an event: a time-stopped turn is unseen by the frozen "unless they are
        harmed"; a blind wizard learns only what concerns him."""
        harms = harms or set()
        out = []
        for v in (0, 1):
            if self.kind == "time_stop" and not self.wiz[v].acting:
                if v in harms:
                    out.append(v)
                continue
            if self.blind(v) and v not in concerns and v not in harms:
                continue
            out.append(v)
        return tuple(out)

    def emit(self, type_: str, text: str, concerns: set[int] | None = None,
             harms: set[int] | None = None, public: bool = False, **data: str) -> None:
        """Add an event to the log with its audience."""
        vis = (0, 1) if public else self.visible(concerns or set(), harms)
        self.events.append(Event(self.number, type_, text, vis,
                                 tuple(sorted((k, str(v)) for k, v in data.items()))))

    # -- names -----------------------------------------------------------------------------
    def name(self, bid: str) -> str:
        """Readable name of a being id."""
        if bid == "" or bid == "none":
            return "nobody"
        if bid.startswith("W"):
            return self.game.names[int(bid[1:])]
        m = self.mons.get(bid)
        if m is None:
            return bid
        kind = m.kind.replace("_", " ")
        return f"{self.game.names[m.controller]}'s {kind} ({bid})"

    def owner_of(self, bid: str) -> set[int]:
        """Wizards concerned by what happens to a being: itself, or a monster's controller."""
        if bid.startswith("W"):
            return {int(bid[1:])}
        m = self.mons.get(bid)
        return {m.controller} if m is not None else set()

    def alive(self, bid: str) -> bool:
        """Whether a being exists and lives now."""
        if bid.startswith("W"):
            return self.wiz[int(bid[1:])].alive
        m = self.mons.get(bid)
        return m is not None and m.alive

    def effects_of(self, bid: str) -> list[Effect]:
        """The mutable effect list of a being."""
        if bid.startswith("W"):
            return self.wiz[int(bid[1:])].effects
        return self.mons[bid].effects

    def own_of(self, bid: str) -> int:
        """The being's own-turn number for this turn."""
        if bid.startswith("W"):
            return self.wiz[int(bid[1:])].own
        return self.mons[bid].own

    def has_effect(self, bid: str, kind: str) -> bool:
        """Whether an effect is active on the being this turn."""
        own = self.own_of(bid)
        return any(e.kind == kind and e.active_on(own) for e in self.effects_of(bid))

    def die(self, label: str, sides: int) -> int:
        """A die for this turn, derived from the seed and both wizards' nonces."""
        nonces = {i: o.nonce for i, o in self.orders.items()}
        value = roll(self.game.seed, self.number, nonces, label, sides, dict(self.game.dice))
        self.dice_used[f"{self.number}:{label}"] = value
        return value


def _scratch(game: Game, kind: str,
             stopped: frozenset[str]) -> tuple[list[_Wiz], dict[str, _Mon]]:
    wiz = []
    for w in game.wizards:
        acting = w.alive and (kind == "orders" or wizard_id(w.index) in stopped)
        wiz.append(_Wiz(w, w.damage, w.alive, w.surrendered, list(w.history), w.sequence_start,
                        list(w.effects), w.short_lightning_used, w.banked, w.own_turns, acting,
                        w.own_turns + 1 if acting else w.own_turns))
    mons: dict[str, _Mon] = {}
    for m in game.monsters:
        acting = m.alive and (kind == "orders" or m.id in stopped)
        mons[m.id] = _Mon(m, m.kind, m.controller, m.damage, m.alive, list(m.effects),
                          m.last_target, m.own_turns, m.known_to, acting,
                          m.own_turns + 1 if acting else m.own_turns)
    return wiz, mons


# ---------------------------------------------------------------------------------------------
# Phase A: the gestures actually made.
# ---------------------------------------------------------------------------------------------
def _phase_gestures(t: _Turn) -> None:
    """Amnesia: "next turn he must repeat identically the gestures he made in the current turn";
    paralysis: the hand "is paralyzed into the position it is in this turn" (C, S, W become F,
    D, P); charm person: "the caster of the spell writes down the gesture he wants the subject's
    named hand to perform"; confusion: "rolls 2 dice ... The first die indicates left hand on
    1-3, right on 4-6 ... 1=C, 2=D, 3=F, 4=P, 5=S, 6=W"."""
    for w in t.wiz:
        if not w.acting:
            continue
        idx = w.base.index
        o = t.orders[idx]
        c = constraints(t.game, idx)
        confusion = next((e for e in w.effects
                          if e.kind == "confusion" and e.active_on(w.own)), None)
        charm = next((e for e in w.effects
                      if e.kind == "charm_person" and e.active_on(w.own)), None)
        for si, (left, right) in enumerate(o.gestures):
            g = {"L": left, "R": right}
            for hand in ("L", "R"):
                hc = c.hand(hand)
                if hc.forced is not None:
                    g[hand] = hc.forced
                elif hc.why == "charm" and charm is not None:
                    fixed = charm.detail[2:] if len(charm.detail) > 2 else ""
                    ctrl = hc.controller
                    written = t.orders[ctrl].charm if ctrl in t.orders else None
                    g[hand] = fixed or (written if written is not None else "-")
                    if g[hand] == STAB and ctrl is not None:
                        # "This could be a stab": the controller, who chose it, aims it.
                        aim = t.orders[ctrl].charm_target if ctrl in t.orders else None
                        t.charm_stab[(idx, si)] = aim or wizard_id(ctrl if ctrl != idx
                                                                   else opponent(idx))
                    if charm.permanent and not fixed:
                        # "a charm person will mean repetition of the chosen gesture"
                        _replace_effect(w.effects, charm,
                                        replace(charm, detail=f"{charm.detail[0]}:{g[hand]}"))
                    t.emit("charmed", f"{t.name(wizard_id(ctrl or 0))} makes "
                           f"{w.base.name}'s {_hand_word(hand)} perform {_gword(g[hand])}.",
                           concerns={idx, ctrl or 0})
            if confusion is not None:
                fixed = confusion.detail
                if fixed:
                    hand, gesture = fixed[0], fixed[2]
                else:
                    hand = "L" if t.die(f"confusion:{idx}:{si}:hand", 6) <= 3 else "R"
                    gesture = CONFUSION_GESTURES[t.die(f"confusion:{idx}:{si}:gesture", 6) - 1]
                    if confusion.permanent:
                        # "a confusion spell will be the same gesture rather than re-rolling"
                        new = replace(confusion, detail=f"{hand}:{gesture}")
                        _replace_effect(w.effects, confusion, new)
                        confusion = new
                g[hand] = gesture
                t.emit("confused", f"{w.base.name} is confused: the {_hand_word(hand)} makes "
                       f"{_gword(gesture)}.", concerns={idx})
            w.new_rows.append((g["L"], g["R"]))


def _replace_effect(effects: list[Effect], old: Effect, new: Effect) -> None:
    for i, e in enumerate(effects):
        if e is old:
            effects[i] = new
            return


def _hand_word(hand: str) -> str:
    return {"L": "left hand", "R": "right hand", "B": "both hands"}[hand]


def _gword(g: str) -> str:
    return {"-": "nothing", ">": "a stab"}.get(g, g)


# ---------------------------------------------------------------------------------------------
# Phase B: recognition, choices, surrender.
# ---------------------------------------------------------------------------------------------
def _phase_recognise(t: _Turn) -> None:
    """"If the caster completes a series that casts a spell ... the spell must be cast";
    "If a gesture can be construed to create two or more spells then the caster chooses"; a
    surrender is "a pair of P gestures made by both hands at the same time"."""
    for w in t.wiz:
        if not w.acting:
            continue
        idx = w.base.index
        o = t.orders[idx]
        rows = [(r.left, r.right) for r in w.history]
        opp = t.wiz[opponent(idx)]
        for si, row in enumerate(w.new_rows):
            rows.append(row)
            hidden = (t.kind == "time_stop" and not opp.acting) or t.invisible(wizard_id(idx)) \
                or t.blind(opp.base.index)
            kind = "time_stop" if t.kind == "time_stop" else ("haste" if si > 0 else "normal")
            w.history.append(GestureRow(t.number, row[0], row[1], kind, hidden))
            label = " (second set)" if si else ""
            t.events.append(Event(t.number, "gestures", f"{w.base.name}{label}: left "
                                  f"{_gword(row[0])}, right {_gword(row[1])}.",
                                  (idx,) if hidden else (0, 1),
                                  (("left", row[0]), ("right", row[1]), ("set", str(si)),
                                   ("wizard", str(idx)))))
            cands = completed(rows, w.sequence_start, len(rows) - 1, w.short_lightning_used)
            # Choices were written before the reveal; where confusion or a charmed hand changed
            # what completes, a choice that no longer applies falls back to the default.
            choices = [ch for ch in o.casts if ch.set_index == si and (
                (ch.spell is None and any(x.hand == ch.hand for x in cands)) or
                any(x.hand == ch.hand and x.spell == ch.spell for x in cands))]
            try:
                alloc = choose_allocation(cands, choices, t.game.ruleset.withhold, si)
            except OrderError:
                choices = []
                alloc = choose_allocation(cands, choices, t.game.ruleset.withhold, si)
            for cand in alloc.spells:
                if cand.sequence in SPELLS[cand.spell].once_per_battle:
                    w.short_lightning_used = True  # "Each wizard may use this spell once"
                ch: CastChoice | None = next((x for x in choices if x.hand == cand.hand), None)
                target = ch.target if ch is not None and ch.target is not None else \
                    usual_target(cand.spell, idx)
                if cand.spell in BLANKET:
                    target = "none"
                suffix = f":{si}" if si else ""
                t.casts.append(_Cast(f"{idx}:{cand.hand}{suffix}", idx, cand.spell, target, si,
                                     cand.hand, bank_flag=bool(ch and ch.bank),
                                     permanent_flag=bool(ch and ch.permanent)))
            if is_surrender(row):
                w.surrendered = True


# ---------------------------------------------------------------------------------------------
# Phase C: banked spells released.
# ---------------------------------------------------------------------------------------------
def _phase_release(t: _Turn) -> None:
    """Delayed effect: the banked spell "fails to work until its caster desires. ... The spell
    must be written down to be used by its caster at the same time that he writes his
    gestures"."""
    for w in t.wiz:
        if not w.acting:
            continue
        o = t.orders[w.base.index]
        if o.release is None or w.banked is None:
            continue
        spell = w.banked.spell
        target = o.release or usual_target(spell, w.base.index)
        if spell in BLANKET:
            target = "none"
        t.casts.append(_Cast(f"{w.base.index}:release", w.base.index, spell, target, 0, "B",
                             origin="release"))
        t.emit("release", f"{w.base.name} releases the banked {SPELLS[spell].name}.",
               concerns={w.base.index}, caster=str(w.base.index), spell=spell)
        w.banked = None


# ---------------------------------------------------------------------------------------------
# Phase D: targets, dispel magic, magic mirror, counter-spell, invisibility.
# ---------------------------------------------------------------------------------------------
def _bind_concrete(t: _Turn, c: _Cast) -> None:
    """A target that "still doesn't exist when you actually cast the spell" discards it."""
    c.reflected_by = ""
    c.works = True
    c.why = ""
    if c.sticky:
        c.fail(c.sticky)
        return
    if c.spell in BLANKET:
        c.subject = ""
        return
    if c.target == "none":
        c.subject = ""
        c.fail("aimed at nobody")
        return
    if c.target.startswith("new:"):
        c.subject = ""
        return
    c.subject = c.target
    alive = t.alive(c.target)
    if c.spell == "raise_dead":
        exists = c.target.startswith("W") or c.target in t.mons
        if not exists:
            c.fail("its target does not exist")
        return
    if not alive:
        c.fail(f"{t.name(c.target)} is no longer there")


def _settle(t: _Turn, casts: list[_Cast], create: bool) -> None:
    """Decide every cast's final subject and whether it works.  Summons are created (with
    `create`) between the two passes so that spells aimed at "the elemental he's about to
    create" find it."""
    live = [c for c in casts if not c.banked]
    for c in live:
        _bind_concrete(t, c)
    # "It will stop any spell cast in the same turn from working (apart from another dispel
    # magic spell which combines with it for the same result)".
    dispels = [c for c in live if c.spell == "dispel_magic"]
    t.dispel = bool(dispels)
    if t.dispel:
        for c in live:
            if c.spell != "dispel_magic":
                c.fail("stopped by dispel magic")
            elif c.subject:
                c.works = True
                c.why = ""
        return
    _mirror_counter(t, live)
    if create:
        _create_summons(t, live)
    # Second pass with "new:" targets bound to the monsters just made.
    for c in live:
        if c.target.startswith("new:"):
            _, wiz, rest = c.target.split(":", 2)
            ref = f"{wiz}:{rest}"
            m = next((m for m in t.mons.values() if m.new and m.cast_id == ref), None)
            if m is None:
                c.subject = ""
                c.fail("the monster it was aimed at was never summoned")
            else:
                c.subject = m.base.id
    bound_now = [c for c in live if c.target.startswith("new:") and c.subject]
    if bound_now:
        for c in live:
            if not c.target.startswith("new:"):
                _bind_concrete(t, c)
        for c in bound_now:
            c.works = True
            c.why = ""
            c.reflected_by = ""
        _mirror_counter(t, live)


def _mirror_counter(t: _Turn, live: list[_Cast]) -> None:
    """Magic mirror: "Any spell cast on a subject protected by this spell is reflected back upon
    the caster ... The mirror is countered totally if either a counter-spell or dispel magic are
    cast on the subject in the same turn". Counter-spell: "Any other spell cast upon the subject
    in the same turn has no effect"."""
    countered = {c.subject for c in live
                 if c.spell == "counter_spell" and c.works and c.subject}
    mirrored: set[str] = set()
    for c in live:
        if c.spell == "magic_mirror" and c.works and c.subject:
            if c.subject in countered:
                c.fail(f"the counter-spell on {t.name(c.subject)} cancels the mirror")
            else:
                mirrored.add(c.subject)
    for c in live:
        if not c.works or not c.subject or c.spell in NOT_REFLECTED:
            continue
        if c.subject in mirrored and c.subject != wizard_id(c.caster):
            # "The mirror does not affect spells which are cast upon oneself"; a reflected
            # spell is not reflected a second time (docs/rules.md).
            c.reflected_by = c.subject
            c.reflector = t.mons[c.subject].controller if c.subject in t.mons else -1
            c.subject = wizard_id(c.caster)
            if not t.alive(c.subject):
                c.fail("its caster is gone")
    for c in live:
        # Raise dead passes a counter-spell because "This is the only spell which affects
        # corpses. It therefore cannot be stopped": on the living it is a cure, and is stopped.
        passes = c.spell in PASS_COUNTER and not (c.spell == "raise_dead" and t.alive(c.subject))
        if c.works and c.subject in countered and not passes:
            c.fail(f"the counter-spell on {t.name(c.subject)} stops it")
    # Invisibility: "Wizards can still stab and direct spells at him, with the same hope" (that
    # he becomes visible prematurely): spells of others aimed at him miss.
    for c in live:
        if c.works and c.subject and c.subject != wizard_id(c.caster) and \
                t.invisible(c.subject) and c.spell not in BLANKET:
            c.fail(f"{t.name(c.subject)} is invisible")


def _create_summons(t: _Turn, live: list[_Cast]) -> None:
    """Summons: "creates a goblin under the control of the subject upon whom the spell is cast
    (or if cast on a monster, the subject monster's controller ...) ... The summoning spell
    cannot be cast at an elemental, and if cast at something which doesn't exist, the spell has
    no effect"."""
    for c in live:
        if SPELLS[c.spell].category is not Category.SUMMON or not c.works or not c.subject:
            continue
        if c.subject.startswith("W"):
            controller = int(c.subject[1:])
        else:
            host = t.mons.get(c.subject)
            if host is None or host.kind.endswith("elemental"):
                c.sticky = "a summoning spell cannot be cast at an elemental"
                c.fail(c.sticky)
                continue
            controller = host.controller
        kind = SUMMONED_KIND.get(c.spell, "elemental")
        mid = f"M{t.next_monster}"
        t.next_monster += 1
        base = Monster(mid, kind, controller, t.number)
        t.mons[mid] = _Mon(base, kind, controller, 0, True, [], "", 0, (0, 1), True, 1, new=True,
                           cast_id=c.id)


# ---------------------------------------------------------------------------------------------
# Phase E: delayed effect and permanency take their spell.
# ---------------------------------------------------------------------------------------------
def _waiting(t: _Turn, idx: int, kind: str) -> list[Effect]:
    w = t.wiz[idx]
    return [e for e in w.effects if e.kind == kind and e.active_on(w.own)]


def _phase_bank_extend(t: _Turn) -> bool:
    """Delayed effect: "The next spell he completes, provided it is on this turn or one of the
    next 3 is 'banked' ... If he casts more than one spell at the same time he chooses which is
    to be banked ... A wizard may only have one spell banked at any one time."  Permanency:
    "The next spell he completes ... which falls into the category of 'Enchantments' (except
    anti-spell, disease, poison, or time-stop) will have its effect made permanent ... if both
    a permanency and delayed effect are eligible for the same spell ... a choice must be made,
    the losing spell being neutralized and working on the next spell instead".  Returns whether
    a spell was banked (the turn must then be settled again without it)."""
    banked_any = False
    removed = t.removal if not t.dispel else {wizard_id(w.base.index) for w in t.wiz}
    for w in t.wiz:
        if not w.acting:
            continue
        idx = w.base.index
        me = wizard_id(idx)
        delays: list[object] = [e for e in _waiting(t, idx, "delayed_effect")
                                if me not in removed]
        perms: list[object] = [e for e in _waiting(t, idx, "permanency") if me not in removed]
        delays += [c for c in t.casts if c.spell == "delayed_effect" and c.works and
                   c.subject == me]
        perms += [c for c in t.casts if c.spell == "permanency" and c.works and c.subject == me]
        if not delays and not perms:
            continue
        mine = [c for c in t.casts if c.caster == idx and c.origin == "gesture"]
        doers = {id(x) for x in delays + perms}
        extend: _Cast | None = None
        bank: _Cast | None = None
        if perms:
            eligible = [c for c in mine if id(c) not in doers and
                        SPELLS[c.spell].category is Category.ENCHANTMENT and
                        c.spell not in NEVER_PERMANENT]
            flagged = [c for c in eligible if c.permanent_flag]
            pick = flagged or [c for c in eligible if not c.bank_flag] or eligible
            if pick and not (delays and w.banked is None and pick[0].bank_flag):
                extend = pick[0]
        if delays and w.banked is None:
            eligible = [c for c in mine if id(c) not in doers and c is not extend]
            flagged = [c for c in eligible if c.bank_flag]
            pick = flagged or eligible
            if pick:
                bank = pick[0]
        if extend is not None:
            extend.permanent = True
            _consume(t, w, perms)
            t.emit("permanency", f"Permanency takes hold of {w.base.name}'s "
                   f"{SPELLS[extend.spell].name}.", concerns={idx})
        if bank is not None:
            bank.banked = True
            w.banked = Banked(bank.spell, t.number)
            banked_any = True
            _consume(t, w, delays)
            t.emit("bank", f"{w.base.name}'s {SPELLS[bank.spell].name} is banked by delayed "
                   "effect.", concerns={idx})
    return banked_any


def _consume(t: _Turn, w: _Wiz, waiting: list[object]) -> None:
    """The first waiting delayed effect/permanency has done its work."""
    first = waiting[0]
    if isinstance(first, Effect):
        w.effects[:] = [e for e in w.effects if e is not first]
    elif isinstance(first, _Cast):
        first.consumed = True  # it took its spell this very turn, so it leaves no effect


# ---------------------------------------------------------------------------------------------
# Phase F: clashing mind spells.
# ---------------------------------------------------------------------------------------------
def _phase_clash(t: _Turn) -> None:
    """"If the subject of this spell is simultaneously the subject of any of confusion, charm
    person, charm monster, paralysis or fear then none of the spells work" (and likewise for
    each of the six).  The same spell twice from the same hand of fate (same spell and, for
    those that give control, the same controller) merges instead (docs/rules.md)."""
    by_subject: dict[str, list[_Cast]] = {}
    for c in t.casts:
        if c.works and not c.banked and c.spell in MIND_SPELLS and c.subject:
            by_subject.setdefault(c.subject, []).append(c)
    for subject, cs in by_subject.items():
        keys = {(c.spell, c.controller if c.spell in ("charm_person", "charm_monster",
                                                       "paralysis") else -1) for c in cs}
        if len(keys) > 1:
            for c in cs:
                c.fail("cancelled by another enchantment on the same subject")
            t.emit("clash", f"The enchantments on {t.name(subject)} cancel each other out.",
                   concerns=t.owner_of(subject))


# ---------------------------------------------------------------------------------------------
# Phase G: remove enchantment, raise dead and dispel magic strip enchantments.
# ---------------------------------------------------------------------------------------------
def _phase_removal(t: _Turn) -> None:
    """Remove enchantment "Terminates the effects of all Enchantment Spells that have been cast
    on the subject including those that are cast on the subject at the same time"; raise dead:
    "All enchantments are also removed"; dispel magic "will remove all enchantments from all
    beings before they have effect"."""
    t.removal = set()
    for c in t.casts:
        if not c.works or c.banked:
            continue
        if c.spell == "remove_enchantment" and c.subject:
            t.removal.add(c.subject)
        if c.spell == "raise_dead" and c.subject and not t.alive(c.subject):
            t.removal.add(c.subject)
    if t.dispel:
        return
    for c in t.casts:
        if c.works and not c.banked and c.subject in t.removal and \
                SPELLS[c.spell].category is Category.ENCHANTMENT:
            c.fail(f"removed from {t.name(c.subject)} as it struck")


# ---------------------------------------------------------------------------------------------
# Phase H: decisions the rules place after the reveal.
# ---------------------------------------------------------------------------------------------
def _phase_decisions(t: _Turn) -> dict[str, str]:
    """Paralysis: "after gestures have been revealed, the caster selects one of the wizard's
    hands ... If the wizard already had a paralyzed hand, it must be the same hand"; charm
    person: "The subject is told which of his hands will be controlled at the time the spell
    hits"; summon elemental: fire or ice "at the discretion of the person upon whom the spell
    is cast after he has seen all the gestures made that turn"."""
    chosen: dict[str, str] = {}
    asked: set[str] = set()
    for c in t.casts:
        if not c.works or c.banked:
            continue
        if c.spell in ("paralysis", "charm_person") and c.subject.startswith("W"):
            subj = t.wiz[int(c.subject[1:])]
            did = f"{'paralysis' if c.spell == 'paralysis' else 'charm'}:{c.subject}"
            if did in asked:
                continue
            asked.add(did)
            if c.spell == "paralysis":
                already = next((e for e in subj.effects if e.kind == "paralysis"
                                and e.active_on(subj.own)), None)
                if already is not None and already.detail:
                    chosen[did] = already.detail[0]
                    continue
                prompt = f"Paralysis hits {subj.base.name}: which hand is paralysed?"
                last = subj.history[-1] if subj.history else None
                labels: list[str] = []
                # Label each hand with the gesture it would freeze in, unless the chooser could
                # not see that gesture (blind, or the subject invisible).
                if last is not None and (c.controller == subj.base.index or
                                         not last.hidden_from_opponent):
                    for hand, g in (("Left hand", last.left), ("Right hand", last.right)):
                        frozen = PARALYSED_FORM.get(g, g)
                        shown = _gword(g) if frozen == g else f"{_gword(g)}, frozen into {frozen}"
                        labels.append(f"{hand} ({shown})")
                _ask(t, chosen, did, "paralysis", c.controller, ("L", "R"), prompt,
                     tuple(labels))
                continue
            else:
                prompt = f"Charm person hits {subj.base.name}: which hand will you control " \
                         "next turn?"
            _ask(t, chosen, did, "paralysis" if c.spell == "paralysis" else "charm",
                 c.controller, ("L", "R"), prompt)
        elif c.spell == "summon_elemental":
            m = next((m for m in t.mons.values() if m.new and m.cast_id == c.id), None)
            if m is None:
                continue
            did = f"elemental:{c.id}"
            prompt = f"{SPELLS[c.spell].name} gives {t.game.names[m.controller]} an elemental: " \
                     "fire or ice?"
            _ask(t, chosen, did, "elemental", m.controller, ("fire", "ice"), prompt)
    return chosen


def _ask(t: _Turn, chosen: dict[str, str], did: str, kind: str, who: int,
         options: tuple[str, ...], prompt: str, labels: tuple[str, ...] = ()) -> None:
    answer = t.decisions.get(did)
    if answer in options:
        chosen[did] = answer
    else:
        t.needed.append(Decision(did, kind, who, options, prompt, labels))


# ---------------------------------------------------------------------------------------------
# Phase I: effects.
# ---------------------------------------------------------------------------------------------
def _shielded(t: _Turn, bid: str) -> bool:
    """Shield-like protection this turn: shield, counter-spell ("also act as a shield"), dispel
    magic's subject, protection from evil; none for the frozen in a time-stopped turn."""
    if t.kind == "time_stop" and not _acting(t, bid):
        return False
    if bid in t.shield_extra:
        return True
    return t.has_effect(bid, "protection_from_evil") and bid not in t.removal and not t.dispel


def _resistant(t: _Turn, bid: str, element: str) -> bool:
    """Resistance to heat ("fire") or cold ("ice")."""
    if t.kind == "time_stop" and not _acting(t, bid):
        return False
    kind = "resist_heat" if element == "fire" else "resist_cold"
    if bid in t.removal or t.dispel:
        return False
    if t.has_effect(bid, kind):
        return True
    return any(c.works and not c.banked and c.spell == kind and c.subject == bid
               for c in t.casts)


def _acting(t: _Turn, bid: str) -> bool:
    if bid.startswith("W"):
        return t.wiz[int(bid[1:])].acting
    m = t.mons.get(bid)
    return m is not None and m.acting


def _damage(t: _Turn, bid: str, amount: int, text: str, source: str,
            caster: int | None = None) -> None:
    if bid.startswith("W"):
        t.wiz[int(bid[1:])].incoming += amount
    else:
        t.mons[bid].incoming += amount
    if caster is not None:
        t.spell_hits.setdefault(caster, set()).add(bid)
    owner = t.owner_of(bid)
    t.emit("damage", text, concerns=owner, harms=owner, target=bid, amount=str(amount),
           source=source)


def _bind_new(t: _Turn, target: str) -> str:
    """A `new:<wizard>:<hand>` target names the monster that summons made this turn, if any."""
    if not target.startswith("new:"):
        return target
    ref = target[4:]
    m = next((m for m in t.mons.values() if m.new and m.cast_id == ref), None)
    return m.base.id if m is not None else "none"


def _living_ids(t: _Turn) -> list[str]:
    out = [wizard_id(w.base.index) for w in t.wiz if w.alive]
    out += [mid for mid, m in t.mons.items() if m.alive]
    return out


def _phase_effects(t: _Turn, chosen: dict[str, str]) -> None:
    works = [c for c in t.casts if c.works and not c.banked]

    # I0. The log tells what was cast before what it did.
    for c in works:
        subj = c.subject
        aimed = f" at {t.name(subj)}" if subj else ""
        refl = f" (turned back by {t.name(c.reflected_by)}'s mirror)" if c.reflected_by else ""
        t.emit("cast", f"{t.name(wizard_id(c.caster))} casts {SPELLS[c.spell].name}{aimed}{refl}.",
               concerns={c.caster} | (t.owner_of(subj) if subj else set()),
               caster=str(c.caster), spell=c.spell, subject=subj)

    # I1. Charm monster: "Control of the monster is transferred to the caster of the spell ...
    # as of this turn ... including that turn."  It "only affects monsters (excluding
    # elementals)".
    for c in works:
        if c.spell == "charm_monster" and c.subject in t.mons:
            m = t.mons[c.subject]
            if not m.kind.endswith("elemental"):
                m.controller = c.controller
                t.emit("charm_monster", f"{t.game.names[c.controller]} takes control of "
                       f"the {m.kind.replace('_', ' ')} {c.subject}.",
                       concerns={c.caster, c.controller} | t.owner_of(c.subject))

    # I2. Summons get their kind (elementals: the subject's choice).
    for c in works:
        if SPELLS[c.spell].category is Category.SUMMON:
            made = next((m for m in t.mons.values() if m.new and m.cast_id == c.id), None)
            if made is None:
                continue
            m = made
            if m.kind == "elemental":
                m.kind = f"{chosen[f'elemental:{c.id}']}_elemental"
            kind = m.kind.replace("_", " ")
            article = "an" if kind[0] in "aeiou" else "a"  # an ogre, an ice elemental
            t.emit("summon", f"{t.name(wizard_id(c.caster))}'s {SPELLS[c.spell].name} brings "
                   f"forth {article} {kind} ({m.base.id}) for "
                   f"{t.game.names[m.controller]}.", concerns={c.caster, m.controller},
                   monster=m.base.id, kind=m.kind)

    # I3. Dispel magic: "all monsters are destroyed although they can attack that turn" and
    # "As with a counter-spell it also acts as a shield for its subject".
    if t.dispel:
        for c in t.casts:
            if c.spell == "dispel_magic" and c.subject:
                t.shield_extra.add(c.subject)
        for m in t.mons.values():
            if m.alive:
                m.destroy = "dispel magic"
    for c in works:
        # Protection from evil protects "For this turn and the following 3 turns".
        if c.spell in ("shield", "counter_spell", "protection_from_evil") and c.subject:
            t.shield_extra.add(c.subject)
        # "Remove enchantment also destroys any monster upon which it is cast, although the
        # monster can attack in that turn."
        if c.spell == "remove_enchantment" and c.subject in t.mons:
            t.mons[c.subject].destroy = "remove enchantment"

    # I4. Elementals and storms.
    fire_storm = any(c.spell == "fire_storm" for c in works)
    ice_storm = any(c.spell == "ice_storm" for c in works)
    _elementals_and_storms(t, works, fire_storm, ice_storm)
    fire_storm = any(c.spell == "fire_storm" for c in works if c.works)
    ice_storm = any(c.spell == "ice_storm" for c in works if c.works)

    # I5. Monsters that cannot attack this turn.
    for c in works:
        if c.subject in t.mons:
            m = t.mons[c.subject]
            if c.spell in ("blindness", "invisibility"):
                # "Blinded monsters are instantly destroyed and cannot attack in that turn";
                # "Any monster made invisible is destroyed": not "instantly", so it attacks
                # that turn "whilst being destroyed" like any monster (docs/rules.md).
                if c.spell == "blindness":
                    m.no_attack = f"destroyed by {SPELLS[c.spell].name.lower()}"
                m.destroy = m.destroy or SPELLS[c.spell].name.lower()
    for m in t.mons.values():
        if m.alive and not m.new and any(e.kind == "paralysis" and e.active_on(m.own)
                                         for e in m.effects) and not m.no_attack:
            # "it simply does not attack in the turn following the one in which the spell was
            # cast"
            m.no_attack = "paralysed"

    # Raise dead on a corpse happens before the attacks: "On the turn a monster is raised it
    # may attack."  (Finger of death on the same subject cancels it, below.)
    fod_subjects = {c.subject for c in works if c.spell == "finger_of_death"}
    for c in works:
        if c.spell == "raise_dead" and c.subject and not t.alive(c.subject) and \
                c.subject not in fod_subjects:
            _raise(t, c.subject)

    # I6. Monster attacks.
    for mid in list(t.mons):
        m = t.mons[mid]
        if not m.alive or not m.acting or m.no_attack:
            if m.alive and m.acting and m.no_attack:
                t.emit("no_attack", f"{t.name(mid)} does not attack ({m.no_attack}).",
                       concerns={m.controller})
            continue
        if m.kind.endswith("elemental"):
            _elemental_attack(t, m)
        else:
            _monster_attack(t, m, works)

    # I7. Spells.
    exempt_from_ice: set[str] = set()
    fod = {c.subject for c in works if c.spell == "finger_of_death"}
    raise_ = {c.subject for c in works if c.spell == "raise_dead"}
    for c in works:
        s = c.spell
        subj = c.subject
        if s in ("finger_of_death", "raise_dead") and subj in fod and subj in raise_:
            # "Certain spells cancel one another ... An obvious example is finger of death and
            # raise dead."
            t.emit("cancel", f"Finger of death and raise dead cancel on {t.name(subj)}.",
                   concerns=t.owner_of(subj))
            continue
        if s == "missile":
            if _shielded(t, subj):
                t.emit("blocked", f"The missile bounces off {t.name(subj)}'s shield.",
                       concerns=t.owner_of(subj))
            else:
                _damage(t, subj, 1, f"The missile hits {t.name(subj)} for 1.", s, c.caster)
        elif s == "finger_of_death":
            t.spell_hits.setdefault(c.caster, set()).add(subj)
            if subj.startswith("W"):
                t.wiz[int(subj[1:])].killed = True
            else:
                t.mons[subj].incoming += 1000
            owner = t.owner_of(subj)
            t.emit("death_spell", f"Finger of death strikes {t.name(subj)}.", concerns=owner,
                   harms=owner)
        elif s == "lightning_bolt":
            _damage(t, subj, 5, f"Lightning strikes {t.name(subj)} for 5.", s, c.caster)
        elif s == "cause_light_wounds":
            _damage(t, subj, 2, f"Light wounds open on {t.name(subj)}: 2 damage.", s, c.caster)
        elif s == "cause_heavy_wounds":
            _damage(t, subj, 3, f"Heavy wounds open on {t.name(subj)}: 3 damage.", s, c.caster)
        elif s == "fireball":
            if subj in t.mons and t.mons[subj].kind == "ice_elemental":
                continue  # handled with the elementals: it destroys the ice elemental
            if ice_storm:
                # "If at the same time an ice storm prevails, the subject of the fireball is
                # instead not harmed by either spell"
                exempt_from_ice.add(subj)
                t.emit("resisted", f"The fireball and the ice storm cancel around "
                       f"{t.name(subj)}.", concerns=t.owner_of(subj))
            elif _resistant(t, subj, "fire"):
                t.emit("resisted", f"{t.name(subj)} resists the fireball.",
                       concerns=t.owner_of(subj))
            else:
                _damage(t, subj, 5, f"The fireball engulfs {t.name(subj)}: 5 damage.", s, c.caster)
        elif s == "cure_light_wounds":
            _cure(t, subj, 1)
        elif s == "cure_heavy_wounds":
            _cure(t, subj, 2)
            # "This spell will also cure any diseases the subject might have at the time."
            effects = t.effects_of(subj)
            if any(e.kind == "disease" for e in effects):
                effects[:] = [e for e in effects if e.kind != "disease"]
                t.emit("cured", f"{t.name(subj)}'s disease is cured.", concerns=t.owner_of(subj))
        elif s == "raise_dead" and not _was_raised(t, subj):
            _raise(t, subj)
    for storm, element in (("fire_storm", "fire"), ("ice_storm", "ice")):
        if not (fire_storm if storm == "fire_storm" else ice_storm):
            continue
        # "Everything not resistant to heat sustains 5 points of damage that turn"; "In the case
        # of blanket spells ... the subject of the counter-spell alone is protected".
        for bid in _living_ids(t):
            if bid in exempt_from_ice and element == "ice":
                continue
            if any(c.spell == "counter_spell" and c.works and c.subject == bid
                   for c in t.casts):
                t.emit("blocked", f"The counter-spell shelters {t.name(bid)} from the "
                       f"{storm.replace('_', ' ')}.", concerns=t.owner_of(bid))
                continue
            if bid in t.mons and t.mons[bid].no_attack.startswith("engulfed"):
                continue
            if _resistant(t, bid, element):
                continue
            _damage(t, bid, 5, f"The {storm.replace('_', ' ')} hits {t.name(bid)} for 5.",
                    storm)
            for c in works:
                if c.spell == storm:
                    t.spell_hits.setdefault(c.caster, set()).add(bid)

    # I8. Stabs: "Unless protected in that turn by a shield spell or another spell with the
    # same effect, the being stabbed suffers 1 point of damage."
    for w in t.wiz:
        if not w.acting:
            continue
        o = t.orders[w.base.index]
        for si, row in enumerate(w.new_rows):
            if STAB not in row:
                continue
            written = o.stabs[si] if si < len(o.stabs) else None
            own_stab = any(g == STAB and not _charmed_hand(t, w, hand)
                           for hand, g in zip("LR", row, strict=True))
            if not own_stab:
                # Only the charmed hand stabs ("wizards carry only one dagger": a second stab
                # in the same set is the same knife).
                written = t.charm_stab.get((w.base.index, si), written)
            target = _bind_new(t, written or wizard_id(opponent(w.base.index)))
            if target == "none":
                continue
            if not t.alive(target) and target not in t.mons:
                continue
            if target in t.mons and not t.mons[target].alive:
                continue
            if t.invisible(target):
                t.emit("miss", f"{w.base.name} stabs at the invisible {t.name(target)} and "
                       "misses.", concerns={w.base.index} | t.owner_of(target))
            elif _shielded(t, target):
                t.emit("blocked", f"{w.base.name}'s stab is stopped by {t.name(target)}'s "
                       "shield.", concerns={w.base.index} | t.owner_of(target))
            else:
                _damage(t, target, 1, f"{w.base.name} stabs {t.name(target)} for 1.", "stab")

    # I9. Failed spells are reported.
    for c in t.casts:
        if not c.works and not c.banked and c.why:
            subj_owner = t.owner_of(c.subject) if c.subject else set()
            t.emit("fizzle", f"{t.name(wizard_id(c.caster))}'s {SPELLS[c.spell].name} has no "
                   f"effect: {c.why}.", concerns=subj_owner | ({c.caster} if not subj_owner
                                                             else set()),
                   caster=str(c.caster), spell=c.spell)

    # I10. Damage and cures land together: "if a wizard was at ten points of damage and was hit
    # simultaneously by a cure light wounds and a lightning bolt he would finish that turn on
    # fourteen points".
    for w in t.wiz:
        if not w.alive and not w.raised:
            continue
        start = 0 if w.raised else w.damage
        w.damage = max(0, start + w.incoming - w.cured)
        if w.killed or w.damage >= WIZARD_DEATH:
            w.alive = False
            t.emit("death", f"{w.base.name} dies.", public=True, wizard=str(w.base.index))
    for mid, m in t.mons.items():
        if not m.alive and not m.raised:
            continue
        start = 0 if m.raised else m.damage
        m.damage = max(0, start + m.incoming - m.cured)
        if m.damage >= MONSTER_TOUGHNESS[m.kind]:
            m.alive = False
            t.emit("monster_death", f"{t.name(mid)} is destroyed.", concerns={m.controller},
                   harms={m.controller}, monster=mid)
        elif m.destroy:
            m.alive = False
            t.emit("monster_death", f"{t.name(mid)} is destroyed ({m.destroy}).",
                   concerns={m.controller}, monster=mid)

    # I11. Enchantments take hold (or are stripped).
    _phase_enchant(t, works, chosen)


MONSTER_TOUGHNESS = {"goblin": 1, "ogre": 2, "troll": 3, "giant": 4, "fire_elemental": 3,
                     "ice_elemental": 3, "elemental": 3}


def _cure(t: _Turn, bid: str, amount: int) -> None:
    """Cures are counted against this turn's damage too (see I10)."""
    if bid.startswith("W"):
        t.wiz[int(bid[1:])].cured += amount
    else:
        t.mons[bid].cured += amount
    t.emit("cure", f"{t.name(bid)} is healed of up to {amount}.", concerns=t.owner_of(bid),
           target=bid, amount=str(amount))


def _charmed_hand(t: _Turn, w: _Wiz, hand: str) -> bool:
    """Whether this hand of the wizard is written by a charm person's controller this turn."""
    return any(e.kind == "charm_person" and e.active_on(w.own) and e.detail[:1] == hand
               for e in w.effects)


def _was_raised(t: _Turn, bid: str) -> bool:
    """Whether raise dead already brought this corpse back this turn (before the attacks)."""
    return t.wiz[int(bid[1:])].raised if bid.startswith("W") else t.mons[bid].raised


def _raise(t: _Turn, bid: str) -> None:
    """Raise dead: on a corpse "life returns ... and all damage is cured"; on the living "the
    effect is that of a cure light wounds recovering five points of damage"."""
    if t.alive(bid):
        _cure(t, bid, 5)
        return
    if bid.startswith("W"):
        w = t.wiz[int(bid[1:])]
        w.alive = True
        w.raised = True
        w.effects.clear()
    else:
        m = t.mons[bid]
        m.alive = True
        m.raised = True
        m.effects.clear()
        m.destroy = ""
        m.acting = True
        m.own = m.own_turns + 1
    t.emit("raised", f"{t.name(bid)} rises from the dead.", concerns=t.owner_of(bid),
           harms=t.owner_of(bid))


def _elementals_and_storms(t: _Turn, works: list[_Cast], fire_storm: bool,
                           ice_storm: bool) -> None:
    """"Two elementals of the opposite type will also destroy each other before attacking, and
    two of the same type will join together to form a single elemental of normal strength";
    fire storm "cancels wholly, causing no damage, with either an ice storm or an ice elemental.
    It will destroy but not be destroyed by a fire elemental"; elementals "may be destroyed by
    spells of the opposite type (e.g. fire storm, resist cold or fireball will kill an ice
    elemental), and will also neutralize the canceling spell"."""
    def alive_of(kind: str) -> list[_Mon]:
        return [m for m in t.mons.values() if m.alive and m.kind == kind and m.acting]

    for kind in ("fire_elemental", "ice_elemental"):
        group = alive_of(kind)
        if len(group) > 1:
            keep = group[0]
            keep.damage = 0
            keep.incoming = 0
            for other in group[1:]:
                other.alive = False
                other.no_attack = "merged"
            t.emit("merge", f"The {kind.replace('_', ' ')}s join into one ({keep.base.id}).",
                   public=False, concerns={m.controller for m in group})
    fires, ices = alive_of("fire_elemental"), alive_of("ice_elemental")
    if fires and ices:
        for m in fires + ices:
            m.alive = False
            m.no_attack = "destroyed by the opposite elemental"
        t.emit("elementals_clash", "The fire and ice elementals destroy each other.",
               concerns={m.controller for m in fires + ices})
        fires, ices = [], []
    storms = [c for c in works if c.spell in BLANKET]
    if fire_storm and ice_storm:
        for c in storms:
            c.fail("the fire storm and the ice storm cancel each other")
        t.emit("storms_cancel", "The fire storm and the ice storm cancel each other out.",
               public=False, concerns={0, 1})
        # No return: every pairwise sentence holds at once, so each storm still meets the
        # elementals below, and resist heat/cold or a fireball aimed at one still acts.
    # "In the case of blanket spells ... the subject of the counter-spell alone is protected":
    # a counter-spelled elemental is out of the storms' reach (it neither dies nor cancels one).
    sheltered = {c.subject for c in t.casts if c.spell == "counter_spell" and c.works}
    fires = [m for m in fires if m.base.id not in sheltered]
    ices = [m for m in ices if m.base.id not in sheltered]
    for storm_kind, same, opposite in (("fire_storm", fires, ices), ("ice_storm", ices, fires)):
        active = [c for c in storms if c.spell == storm_kind]
        same = [m for m in same if m.alive]  # one engulfed by the other storm is gone already
        opposite = [m for m in opposite if m.alive]
        if not active:
            continue
        if opposite:
            for c in active:
                c.fail(f"neutralised by the {opposite[0].kind.replace('_', ' ')}")
            for m in opposite:
                m.alive = False
                m.no_attack = "destroyed by the storm"
            t.emit("storm_elemental", f"The {storm_kind.replace('_', ' ')} and the "
                   f"{opposite[0].kind.replace('_', ' ')} destroy each other.",
                   concerns={0, 1})
        for m in same:
            # "An elemental will also be engulfed and destroyed by a storm of its own type"
            m.alive = False
            m.no_attack = "engulfed by the storm"
            t.emit("engulfed", f"The {storm_kind.replace('_', ' ')} engulfs {t.name(m.base.id)}.",
                   concerns={m.controller})
    for c in works:
        if not c.subject or c.subject not in t.mons:
            continue
        m = t.mons[c.subject]
        if not m.alive:
            continue
        if (c.spell == "resist_heat" and m.kind == "fire_elemental") or \
                (c.spell in ("resist_cold", "fireball") and m.kind == "ice_elemental"):
            # "A resist heat cast directly on a fire elemental will destroy it before it can
            # attack"; the fireball "will destroy it before it can attack".
            m.alive = False
            m.no_attack = f"destroyed by {SPELLS[c.spell].name.lower()}"
            t.emit("elemental_destroyed", f"{SPELLS[c.spell].name} destroys "
                   f"{t.name(m.base.id)} before it can attack.", concerns={m.controller})


def _elemental_attack(t: _Turn, m: _Mon) -> None:
    """"The elemental will, for that turn and until destroyed, attack everyone who is not
    resistant to its type ... causing three points of damage per turn ... only wizards or
    monsters resistant to the type of elemental, or who are casting a spell which has the effect
    of a shield do not get attacked"; "time-stopped elementals affect everyone, resistance to
    heat or cold being immaterial in that turn"."""
    element = "fire" if m.kind == "fire_elemental" else "ice"
    for bid in _living_ids(t):
        if bid == m.base.id:
            continue
        if t.invisible(bid):
            continue  # "The subject cannot be attacked by any monsters"
        if _shielded(t, bid):
            continue
        if _resistant(t, bid, element):
            continue
        _damage(t, bid, 3, f"{t.name(m.base.id)} strikes {t.name(bid)} for 3.", m.kind)


def _monster_attack(t: _Turn, m: _Mon, works: list[_Cast]) -> None:
    """"Monsters may make a single attack each turn against a target chosen by their master";
    amnesia: "If the subject is a monster it will attack whoever it attacked this turn";
    confusion: "If the subject of the spell is a monster, it attacks at random that turn"."""
    ctrl = m.controller
    o = t.orders.get(ctrl)
    ref_keys = [m.base.id] + ([f"new:{m.cast_id}"] if m.new else [])
    written = None
    if o is not None:
        for key in ref_keys:
            written = o.monster_targets(key)
            if written is not None:
                break
    hastened = any(e.kind == "haste" and e.active_on(m.own) for e in m.effects)
    count = 2 if hastened else 1
    targets: list[str] = list(written) if written else [wizard_id(opponent(ctrl))]
    while len(targets) < count:
        targets.append(targets[-1])
    targets = targets[:count]
    amnesia = next((e for e in m.effects if e.kind == "amnesia" and e.active_on(m.own)), None)
    confused_now = any(c.spell == "confusion" and c.subject == m.base.id for c in works) or \
        any(e.kind == "confusion" and e.active_on(m.own) for e in m.effects)
    for ai, written_target in enumerate(targets):
        target = _bind_new(t, written_target)
        if amnesia is not None:
            target = amnesia.detail or "none"
        if confused_now:
            fixed = next((e for e in m.effects if e.kind == "confusion" and e.permanent and
                          e.active_on(m.own)), None)
            if fixed is not None and fixed.detail:
                # Permanent: "the effect of the extended spell on the first turn of its duration
                # is repeated eternally ... rather than re-rolling the dice".
                target = fixed.detail
            else:
                pool = [b for b in _living_ids(t) if b != m.base.id]
                target = pool[t.die(f"monster:{m.base.id}:{ai}", len(pool)) - 1] if pool \
                    else "none"
                if fixed is not None:
                    _replace_effect(m.effects, fixed, replace(fixed, detail=target))
            m.attacks.append(target)
            t.emit("confused_monster", f"{t.name(m.base.id)} is confused and attacks "
                   f"{t.name(target)}.", concerns={ctrl} | t.owner_of(target))
        m.last_target = target
        if target == "none" or not t.alive(target):
            continue
        if t.invisible(target):
            t.emit("miss", f"{t.name(m.base.id)} cannot find the invisible {t.name(target)}.",
                   concerns={ctrl} | t.owner_of(target))
            continue
        if _shielded(t, target):
            t.emit("blocked", f"{t.name(target)}'s shield stops the attack of "
                   f"{t.name(m.base.id)}.", concerns={ctrl} | t.owner_of(target))
            continue
        _damage(t, target, MONSTER_STRENGTH[m.kind],
                f"{t.name(m.base.id)} attacks {t.name(target)} for "
                f"{MONSTER_STRENGTH[m.kind]}.", m.kind)


MONSTER_STRENGTH = {"goblin": 1, "ogre": 2, "troll": 3, "giant": 4, "fire_elemental": 3,
                    "ice_elemental": 3}


def _phase_enchant(t: _Turn, works: list[_Cast], chosen: dict[str, str]) -> None:
    """Enchantments take hold on their subjects, with their durations (docs/rules.md,
    "durations"); remove enchantment, raise dead and dispel magic then strip what they strip."""
    for c in works:
        s = c.spell
        if SPELLS[s].category is not Category.ENCHANTMENT or not c.subject:
            continue
        subj = c.subject
        if subj.startswith("W"):
            w = t.wiz[int(subj[1:])]
            if not w.alive:
                continue
            _enchant_wizard(t, c, w, chosen)
        else:
            m = t.mons[subj]
            if not m.alive:
                continue
            _enchant_monster(t, c, m)
    # Removal, after the new ones so that "including those that are cast on the subject at the
    # same time" holds for anything that slipped through.
    strip = set(t.removal)
    if t.dispel:
        strip = set(_living_ids(t)) | {wizard_id(w.base.index) for w in t.wiz}
    for bid in strip:
        if bid.startswith("W"):
            w = t.wiz[int(bid[1:])]
            if w.effects:
                w.effects.clear()
                t.emit("disenchant", f"All enchantments on {w.base.name} are removed.",
                       concerns={w.base.index})
        elif bid in t.mons:
            t.mons[bid].effects.clear()


def _duration(c: _Cast, start: int, end: int | None) -> tuple[int, int | None, bool]:
    if c.permanent:
        return start, None, True
    return start, end, False


def _enchant_wizard(t: _Turn, c: _Cast, w: _Wiz, chosen: dict[str, str]) -> None:
    s = c.spell
    cur = w.own
    idx = w.base.index
    last = w.new_rows[-1] if w.new_rows else ((w.history[-1].left, w.history[-1].right)
                                              if w.history else ("-", "-"))
    effect: Effect | None = None
    if s == "amnesia":
        a, b, p = _duration(c, cur + 1, cur + 1)
        effect = Effect("amnesia", a, b, c.controller, f"{last[0]}{last[1]}", p)
    elif s == "confusion":
        a, b, p = _duration(c, cur + 1, cur + 1)
        effect = Effect("confusion", a, b, c.controller, "", p)
    elif s == "charm_person":
        hand = chosen[f"charm:W{idx}"]
        a, b, p = _duration(c, cur + 1, cur + 1)
        effect = Effect("charm_person", a, b, c.controller, hand, p)
        t.emit("charm_person", f"{t.game.names[c.controller]} will control {w.base.name}'s "
               f"{_hand_word(hand)} next turn.", concerns={idx, c.controller})
    elif s == "paralysis":
        hand = chosen[f"paralysis:W{idx}"]
        g = last[0] if hand == "L" else last[1]
        g = PARALYSED_FORM.get(g, g)
        a, b, p = _duration(c, cur + 1, cur + 1)
        effect = Effect("paralysis", a, b, c.controller, f"{hand}:{g}", p)
        t.emit("paralysis", f"{w.base.name}'s {_hand_word(hand)} is paralysed into "
               f"{_gword(g)}.", concerns={idx, c.controller})
    elif s == "fear":
        a, b, p = _duration(c, cur + 1, cur + 1)
        effect = Effect("fear", a, b, c.controller, "", p)
    elif s == "anti_spell":
        # "the subject cannot include any gestures made on or before this turn in a spell
        # sequence"
        w.sequence_start = len(w.history)
        t.emit("anti_spell", f"{w.base.name}'s spells under way are undone.", concerns={idx})
        return
    elif s == "protection_from_evil":
        a, b, p = _duration(c, cur, cur + 3)  # "For this turn and the following 3 turns"
        effect = Effect("protection_from_evil", a, b, c.controller, "", p)
    elif s in ("resist_heat", "resist_cold"):
        effect = Effect(s, cur, None, c.controller, "", True)
    elif s in ("disease", "poison"):
        # "kill him at the end of 6 turns counting from the one upon which the spell is cast"
        effect = Effect(s, cur, cur + 5, c.controller, "", False)
    elif s in ("blindness", "invisibility", "haste"):
        a, b, p = _duration(c, cur + 1, cur + 3)  # "For the next 3 turns"
        effect = Effect(s, a, b, c.controller, "", p)
    elif s == "time_stop":
        # "The subject of this spell immediately takes an extra turn"
        if wizard_id(idx) not in t.time_stop_next:
            t.time_stop_next.append(wizard_id(idx))
        t.emit("time_stop", f"Time stops for {w.base.name}.", concerns={idx})
        return
    elif s in ("delayed_effect", "permanency"):
        if c.consumed:
            return
        # "provided it is on this turn or one of the next 3"
        effect = Effect(s, cur, cur + 3, c.controller, "", False)
    elif s == "charm_monster":
        return  # "this spell only affects monsters"
    if effect is None:
        return
    known = (0, 1) if not t.blind(opponent(idx)) else (idx,)
    effect = replace(effect, known_to=tuple(sorted(set(known) | {c.caster})))
    w.effects.append(effect)
    if s in ("paralysis", "charm_person") and not effect.permanent:
        return  # already told, with the hand, above
    forever = effect.permanent and s not in ("resist_heat", "resist_cold")
    t.emit("enchant", f"{w.base.name} is under {SPELLS[s].name}{' for ever' if forever else ''}.",
           concerns={idx, c.caster}, harms={idx}, subject=wizard_id(idx), spell=s)


def _enchant_monster(t: _Turn, c: _Cast, m: _Mon) -> None:
    s = c.spell
    cur = m.own
    effect: Effect | None = None
    if s == "amnesia":
        effect = Effect("amnesia", cur + 1, None if c.permanent else cur + 1, c.controller,
                        m.last_target, c.permanent)
    elif s == "confusion" and c.permanent:
        # The first turn's random target (this turn's: "it attacks at random that turn") is the
        # one it keeps attacking.
        effect = Effect("confusion", cur + 1, None, c.controller, next(iter(m.attacks), ""), True)
    elif s == "paralysis" and not m.kind.endswith("elemental"):
        effect = Effect("paralysis", cur + 1, None if c.permanent else cur + 1, c.controller,
                        "", c.permanent)
    elif s == "protection_from_evil":
        effect = Effect(s, cur, None if c.permanent else cur + 3, c.controller, "", c.permanent)
    elif s in ("resist_heat", "resist_cold"):
        effect = Effect(s, cur, None, c.controller, "", True)
    elif s in ("disease", "poison"):
        effect = Effect(s, cur, cur + 5, c.controller, "", False)
    elif s == "haste":
        effect = Effect(s, cur + 1, None if c.permanent else cur + 3, c.controller, "",
                        c.permanent)
    elif s == "time_stop":
        if m.base.id not in t.time_stop_next:
            t.time_stop_next.append(m.base.id)
        return
    if effect is not None:
        m.effects.append(effect)
        t.emit("enchant", f"{t.name(m.base.id)} is under {SPELLS[s].name}.",
               concerns={m.controller, c.caster}, subject=m.base.id, spell=s)


# ---------------------------------------------------------------------------------------------
# Phase J: deadlines, durations, the outcome, the next phase.
# ---------------------------------------------------------------------------------------------
def _phase_outcome(t: _Turn) -> tuple[Result | None, Phase]:
    """"Each wizard can sustain fourteen points of damage but dies when fifteen or more ...
    Simultaneous death is a posthumous draw"; surrender: "The surrendering wizard is deemed to
    have lost unless his gestures completed spells which killed his opponent. Two simultaneous
    surrenders count as a draw"; the referees "will cure any diseases, poisons etc immediately
    after the surrender"."""
    surrendering = {w.base.index for w in t.wiz if w.surrendered and not w.base.surrendered}
    for w in t.wiz:
        if not w.acting or not w.alive:
            continue
        for e in list(w.effects):
            if e.kind in ("disease", "poison") and e.end == w.own:
                if w.base.index in surrendering:
                    continue
                w.alive = False
                t.emit("death", f"{w.base.name} succumbs to {SPELLS[e.kind].name.lower()}.",
                       public=True, wizard=str(w.base.index))
                break
    for m in t.mons.values():
        if not m.acting or not m.alive:
            continue
        if any(e.kind in ("disease", "poison") and e.end == m.own for e in m.effects):
            m.alive = False
            t.emit("monster_death", f"{t.name(m.base.id)} succumbs.", concerns={m.controller})
    # Durations count the subject's own turns; drop what has run out.
    for w in t.wiz:
        if w.acting:
            w.own_turns += 1
        w.effects = [e for e in w.effects if e.end is None or e.end > w.own_turns]
    for m in t.mons.values():
        if m.acting:
            m.own_turns += 1
        m.effects = [e for e in m.effects if e.end is None or e.end > m.own_turns]

    dead = {w.base.index for w in t.wiz if not w.alive}
    result: Result | None = None
    if dead == {0, 1}:
        result = Result(None, "both wizards died: a posthumous draw")
    elif dead:
        loser = next(iter(dead))
        winner = opponent(loser)
        how = f"{t.game.names[loser]} died"
        if winner in surrendering:
            # "The surrendering wizard is deemed to have lost unless his gestures completed
            # spells which killed his opponent": with both deemed to have lost, it is a draw.
            if wizard_id(loser) in t.spell_hits.get(winner, set()):
                result = Result(winner, how + f", killed by the spells {t.game.names[winner]} "
                                "completed as he surrendered")
            else:
                result = Result(None, f"{t.game.names[winner]} surrendered as "
                                f"{t.game.names[loser]} died: both lost, a draw")
        else:
            result = Result(winner, how)
    elif surrendering == {0, 1}:
        result = Result(None, "both wizards surrendered: a draw")
    elif surrendering:
        loser = next(iter(surrendering))
        result = Result(opponent(loser), f"{t.game.names[loser]} surrendered")
    if result is not None:
        t.emit("over", "The duel is over: " + (
            f"{t.game.names[result.winner]} wins ({result.how})." if result.winner is not None
            else f"a draw ({result.how})."), public=True)
        return result, Phase("over", t.number, ())
    stopped = [b for b in t.time_stop_next if t.alive(b)]
    if stopped:
        actors = sorted({int(b[1:]) if b.startswith("W") else t.mons[b].controller
                         for b in stopped})
        return None, Phase("time_stop", t.number + 1, tuple(actors),
                           time_stopped=tuple(stopped))
    alive = tuple(w.base.index for w in t.wiz if w.alive)
    return None, Phase("orders", t.number + 1, alive)


def _freeze(t: _Turn, result: Result | None, phase: Phase, entry: RecordEntry) -> Game:
    wizards = []
    for w in t.wiz:
        wizards.append(replace(
            w.base, damage=w.damage, alive=w.alive, surrendered=w.surrendered,
            history=tuple(w.history), sequence_start=w.sequence_start, effects=tuple(w.effects),
            short_lightning_used=w.short_lightning_used, banked=w.banked,
            own_turns=w.own_turns))
    monsters = []
    for m in t.mons.values():
        known = m.known_to
        seers = tuple(v for v in (0, 1) if not t.blind(v) and
                      (t.kind == "orders" or t.wiz[v].acting))
        known = tuple(sorted(set(known) | set(seers) | {m.controller})) if not m.new else \
            tuple(sorted(set(seers) | {m.controller}))
        monsters.append(Monster(m.base.id, m.kind, m.controller, m.base.born_turn, m.damage,
                                m.alive, tuple(m.effects), m.last_target, m.own_turns, known))
    dice = dict(t.game.dice)
    return replace(
        t.game,
        wizards=(wizards[0], wizards[1]),
        monsters=tuple(monsters),
        next_monster=t.next_monster,
        phase=phase,
        result=result,
        log=t.game.log + tuple(t.events),
        record=(*t.game.record, entry),
        dice=tuple(sorted(dice.items())),
        turn=phase.turn,
    )


def _run_turn(game: Game, kind: str, orders: dict[int, Orders],
              decisions: dict[str, str]) -> _Turn:
    stopped = frozenset(game.phase.time_stopped) if kind == "time_stop" else frozenset()
    wiz, mons = _scratch(game, kind, stopped)
    t = _Turn(game, kind, game.phase.turn, orders, decisions, wiz, mons, stopped,
              next_monster=game.next_monster)
    _phase_gestures(t)
    _phase_recognise(t)
    _phase_release(t)
    _settle(t, t.casts, create=False)
    _phase_removal(t)
    if _phase_bank_extend(t):
        pass
    # Settle for real, with banked spells out of the turn and summons created.
    _settle(t, t.casts, create=True)
    _phase_clash(t)
    _phase_removal(t)
    chosen = _phase_decisions(t)
    if t.needed:
        return t
    _phase_effects(t, chosen)
    return t


def resolve(game: Game, inputs: Mapping[int, Orders | DecisionInput]) -> tuple[Game, tuple[Event,
                                                                                              ...]]:
    """Resolve the current phase with the acting wizards' inputs; raises IllegalInput.

    Pure: the same game and inputs always give the same new game and events.
    """
    phase = game.phase
    problems: list[OrderError] = []
    if phase.kind == "over":
        raise IllegalInput([OrderError("game-over", "the duel is over")])
    if set(inputs) != set(phase.actors):
        names = ", ".join(game.names[i] for i in phase.actors) or "nobody"
        problems.append(OrderError("wrong-actors", f"this phase needs input from {names}"))
    for i, inp in sorted(inputs.items()):
        if i in phase.actors:
            problems.extend(input_problems(game, i, inp))
    if problems:
        raise IllegalInput(problems)
    if phase.kind == "decision":
        answers: dict[str, str] = {}
        for inp in inputs.values():
            assert isinstance(inp, DecisionInput)
            answers.update(dict(inp.answers))
        from .orders import parse_orders  # local: orders are stored as JSON in the phase
        pending = {i: parse_orders(o) for i, o in phase.pending}
        prior = dict(_prior_answers(phase))
        prior.update(answers)
        kind = phase.pending_kind
        t = _run_turn(replace(game, phase=replace(phase, kind=kind,
                                                  actors=tuple(sorted(pending)))),
                      kind, pending, prior)
        entry = RecordEntry("decision", phase.turn,
                            tuple(sorted((i, inp.to_json()) for i, inp in inputs.items())))
        base_phase = replace(phase, kind=kind)
    else:
        orders = {i: inp for i, inp in inputs.items() if isinstance(inp, Orders)}
        t = _run_turn(game, phase.kind, orders, {})
        prior = {}
        entry = RecordEntry(phase.kind, phase.turn,
                            tuple(sorted((i, inp.to_json()) for i, inp in inputs.items())))
        kind = phase.kind
        base_phase = phase
    if t.needed:
        pending_orders = tuple(sorted((i, o.to_json()) for i, o in t.orders.items()))
        answered = tuple(sorted(prior.items()))
        actors = tuple(sorted({d.wizard for d in t.needed}))
        made = tuple((w.base.index, tuple(w.history[len(w.base.history):]))
                     for w in t.wiz if w.acting)
        wait = Phase("decision", phase.turn, actors, tuple(t.needed), pending_orders, kind,
                     base_phase.time_stopped, made)
        wait = replace(wait, decisions=tuple(t.needed) + tuple(
            Decision(k, "answered", -1, (v,), "") for k, v in answered))
        new = replace(game, phase=wait, record=(*game.record, entry))
        return new, ()
    result, next_phase = _phase_outcome(t)
    new = _freeze(t, result, next_phase, entry)
    return new, tuple(t.events)


def _prior_answers(phase: Phase) -> list[tuple[str, str]]:
    """Answers already given in an earlier decision phase of the same turn."""
    return [(d.id, d.options[0]) for d in phase.decisions if d.kind == "answered"]
