"""What spells do when they work: one handler per kind of effect, chosen by the spell's row.

A spell's row (spells.py) says what it does (`does`) and with which facts (`amount`, `element`,
`lasts`, `on_monster`, ...); the handlers here read those facts and never a spell's name, so a
new plain damage spell is one row of the table.  Resolution (resolve.py, phase I) calls:
- `elementals_and_storms` before the attacks (elementals merge, clash, meet storms);
- `HANDLERS[spell.does]` for each working spell in table order of the casts (damage, death,
  cures, raise dead), then `storm_damage`;
- `lay_enchantment` for each working enchantment once damage has landed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .model import Effect, gesture_word, hand_word, wizard_id
from .scratch import Cast, MonsterNow, Turn, WizardNow
from .spells import Ask, Does, EffectKind, Element, OnMonster, decision_id

SpellHandler = Callable[[Turn, Cast], None]
HANDLERS: dict[Does, SpellHandler] = {}


def handles(does: Does) -> Callable[[SpellHandler], SpellHandler]:
    """Register the handler of one kind of effect."""
    def register(fn: SpellHandler) -> SpellHandler:
        HANDLERS[does] = fn
        return fn
    return register


# ---------------------------------------------------------------------------------------------
# Damage, death, cures.
# ---------------------------------------------------------------------------------------------
@handles(Does.DAMAGE)
def _damage(t: Turn, c: Cast) -> None:
    """A damage spell hurts its subject by its amount; a missile "will be stopped by a shield";
    a fireball "will not affect" the resistant to heat, and "If at the same time an ice storm
    prevails, the subject of the fireball is instead not harmed by either spell"."""
    s, subj = c.spell, c.subject
    if s.stopped_by_shield and t.shielded(subj):
        t.emit("blocked", f"The {s.name.lower()} bounces off {t.name(subj)}'s shield.",
               concerns=t.owner_of(subj), caster=str(c.caster), spell=s.key, target=subj,
               outcome="shielded")
        return
    if s.element is not None:
        m = t.mons.get(subj)
        if m is not None and m.element is s.element.opposite:
            return  # handled with the elementals: it destroys the elemental
        storm = t.spells.storm_of(s.element.opposite)
        if s.element.opposite in prevailing_storms(t):
            t.exempt_from.setdefault(s.element.opposite, set()).add(subj)
            t.emit("resisted", f"The {s.name.lower()} and the {storm.name.lower()} cancel "
                   f"around {t.name(subj)}.", concerns=t.owner_of(subj), caster=str(c.caster),
                   spell=s.key, target=subj, outcome="clash")
            return
        if t.resistant(subj, s.element):
            t.emit("resisted", f"{t.name(subj)} resists the {s.name.lower()}.",
                   concerns=t.owner_of(subj), caster=str(c.caster), spell=s.key, target=subj,
                   outcome="resisted")
            return
    t.damage(subj, s.amount, s.hit_text.format(spell=s.name, subject=t.name(subj),
                                               amount=s.amount), s.key, c.caster)


@handles(Does.DEATH)
def _death(t: Turn, c: Cast) -> None:
    """Finger of death: "Kills the subject stone dead"."""
    subj = c.subject
    t.spell_hits.setdefault(c.caster, set()).add(subj)
    w = t.wizard(subj)
    if w is not None:
        w.killed = True
    else:
        t.mons[subj].incoming += 1000
    owner = t.owner_of(subj)
    t.emit("death_spell", f"{c.spell.name} strikes {t.name(subj)}.", concerns=owner, harms=owner,
           caster=str(c.caster), spell=c.key, target=subj)


@handles(Does.CURE)
def _cure(t: Turn, c: Cast) -> None:
    """Cures heal their amount; cure heavy wounds "will also cure any diseases"."""
    subj = c.subject
    t.cure(subj, c.spell.amount)
    effects = t.effects_of(subj)
    for kind in c.spell.also_cures:
        if any(e.kind is kind for e in effects):
            effects[:] = [e for e in effects if e.kind is not kind]
            t.emit("cured", f"{t.name(subj)}'s {kind.value} is cured.", concerns=t.owner_of(subj),
                   caster=str(c.caster), spell=c.key, target=subj, effect=kind.value)


@handles(Does.RAISE_DEAD)
def _raise(t: Turn, c: Cast) -> None:
    """Raise dead on a corpse not already raised before the attacks, or a cure on the living."""
    if not t.was_raised(c.subject):
        t.raise_dead(c.subject, c.spell.amount)


# ---------------------------------------------------------------------------------------------
# Elementals and storms.
# ---------------------------------------------------------------------------------------------
def prevailing_storms(t: Turn) -> set[Element]:
    """Elements of the storms that still work this turn."""
    return {c.spell.element for c in t.casts if c.spell.blanket and c.works and not c.banked
            and c.spell.element is not None}


def elementals_and_storms(t: Turn, works: list[Cast]) -> None:
    """"Two elementals of the opposite type will also destroy each other before attacking, and
    two of the same type will join together to form a single elemental of normal strength";
    fire storm "cancels wholly, causing no damage, with either an ice storm or an ice elemental.
    It will destroy but not be destroyed by a fire elemental"; elementals "may be destroyed by
    spells of the opposite type (e.g. fire storm, resist cold or fireball will kill an ice
    elemental), and will also neutralize the canceling spell"."""
    def alive_of(element: Element) -> list[MonsterNow]:
        return [m for m in t.mons.values() if m.alive and m.element is element and m.acting]

    if not any(c.spell.blanket for c in works) and \
            not any(m.alive and m.element is not None for m in t.mons.values()):
        return  # no storm and no elemental: nothing below can happen (most turns)

    for element in Element:
        group = alive_of(element)
        if len(group) > 1:
            keep = group[t.game.ruleset.variant.merged_elemental(len(group))]
            keep.damage = 0
            keep.incoming = 0
            for other in (m for m in group if m is not keep):
                other.alive = False
                other.no_attack = "merged"
            t.emit("merge", f"The {keep.kind_name}s join into one ({keep.base.id}).",
                   public=False, concerns={m.controller for m in group}, monster=keep.base.id)
    # Every pairwise sentence holds at once (docs/rules.md, "The clashes all at once"): each storm
    # meets every elemental present as the turn's spells are cast, those the opposite elemental
    # destroys included, so an ice elemental destroyed by a fire elemental still cancels a fire
    # storm ("cancels wholly, causing no damage, with either an ice storm or an ice elemental").
    present = {e: alive_of(e) for e in Element}
    if all(present.values()):
        both = [m for e in Element for m in present[e]]
        for m in both:
            m.alive = False
            m.no_attack = "destroyed by the opposite elemental"
        t.emit("elementals_clash", "The fire and ice elementals destroy each other.",
               concerns={m.controller for m in both}, outcome="clash")
    storms = [c for c in works if c.spell.blanket]
    if {c.spell.element for c in storms} >= set(Element):
        for c in storms:
            c.fail("the fire storm and the ice storm cancel each other", "clash")
        t.emit("storms_cancel", "The fire storm and the ice storm cancel each other out.",
               public=False, concerns=set(t.game.everyone), outcome="clash")
    # "In the case of blanket spells ... the subject of the counter-spell alone is protected":
    # a counter-spelled elemental is out of the storms' reach (it neither dies nor cancels one).
    sheltered = {c.subject for c in t.casts if c.spell.does is Does.COUNTER and c.works}
    reach = {e: [m for m in ms if m.base.id not in sheltered] for e, ms in present.items()}
    for element in Element:
        active = [c for c in storms if c.spell.element is element]
        if not active:
            continue
        name = active[0].spell.name.lower()
        opposite = reach[element.opposite]
        if opposite:
            # the elemental "will also neutralize the canceling spell"
            for c in active:
                c.fail(f"neutralised by the {opposite[0].kind_name}", "clash")
            for m in opposite:
                m.no_attack = m.no_attack or "destroyed by the storm"
                m.alive = False
            t.emit("storm_elemental", f"The {name} and the {opposite[0].kind_name} destroy "
                   "each other.", concerns=set(t.game.everyone), monster=opposite[0].base.id,
                   outcome="clash")
        for m in reach[element]:
            # "An elemental will also be engulfed and destroyed by a storm of its own type"
            if m.alive:
                m.alive = False
                m.no_attack = "engulfed by the storm"
                t.emit("engulfed", f"The {name} engulfs {t.name(m.base.id)}.",
                       concerns={m.controller}, monster=m.base.id, target=m.base.id)
    for c in works:
        target = t.mons.get(c.subject) if c.subject else None
        if target is None or not target.alive or target.element is None:
            continue
        s = c.spell
        resists_it = s.does is Does.ENCHANT and s.element is target.element
        opposite_damage = s.does is Does.DAMAGE and s.element is target.element.opposite
        if resists_it or opposite_damage:
            # "A resist heat cast directly on a fire elemental will destroy it before it can
            # attack"; the fireball "will destroy it before it can attack".
            target.alive = False
            target.no_attack = f"destroyed by {s.name.lower()}"
            t.emit("elemental_destroyed", f"{s.name} destroys {t.name(target.base.id)} before "
                   "it can attack.", concerns={target.controller}, caster=str(c.caster),
                   spell=s.key, monster=target.base.id, target=target.base.id)


def storm_damage(t: Turn, works: list[Cast]) -> None:
    """"Everything not resistant to heat sustains 5 points of damage that turn"; "In the case
    of blanket spells ... the subject of the counter-spell alone is protected"."""
    prevailing = prevailing_storms(t)
    for element in Element:
        if element not in prevailing:
            continue
        storm = t.spells.storm_of(element)
        spared = t.exempt_from.get(element, set())
        for bid in t.living_ids():
            if bid in spared:
                continue
            counter = next((c for c in t.casts if c.spell.does is Does.COUNTER and c.works
                            and c.subject == bid), None)
            if counter is not None:
                t.emit("blocked", f"The {counter.spell.name.lower()} shelters {t.name(bid)} "
                       f"from the {storm.name.lower()}.", concerns=t.owner_of(bid),
                       spell=storm.key, target=bid, outcome="countered")
                continue
            if bid in t.mons and t.mons[bid].no_attack.startswith("engulfed"):
                continue
            if t.resistant(bid, element):
                continue
            t.damage(bid, storm.amount, storm.hit_text.format(
                spell=storm.name, subject=t.name(bid), amount=storm.amount), storm.key,
                spell=storm.key)
            for c in works:
                if c.spell.does is Does.STORM and c.spell.element is element:
                    t.spell_hits.setdefault(c.caster, set()).add(bid)


# ---------------------------------------------------------------------------------------------
# Enchantments take hold.
# ---------------------------------------------------------------------------------------------
def _last_row(w: WizardNow) -> tuple[str, str]:
    if w.new_rows:
        return w.new_rows[-1]
    if w.history:
        return (w.history[-1].left, w.history[-1].right)
    return ("-", "-")


def _fix_amnesia(t: Turn, c: Cast, w: WizardNow, e: Effect, chosen: dict[str, str]) -> Effect:
    """Amnesia: "next turn he must repeat identically the gestures he made in the current
    turn"."""
    return replace(e, repeats=_last_row(w))


def _fix_charm(t: Turn, c: Cast, w: WizardNow, e: Effect, chosen: dict[str, str]) -> Effect:
    """Charm person: "The subject is told which of his hands will be controlled" (or, where
    the ruleset says so, the caster names it in his next orders)."""
    if t.game.ruleset.variant.hands_in_orders():
        t.emit(c.key, f"{t.game.names[c.controller]} will control one of {w.base.name}'s hands "
               "next turn, chosen then.", concerns={w.base.index, c.controller},
               caster=str(c.controller), spell=c.key, target=wizard_id(w.base.index))
        return e
    hand = chosen[decision_id(Ask.CHARMED_HAND, wizard_id(w.base.index))]
    t.emit(c.key, f"{t.game.names[c.controller]} will control {w.base.name}'s "
           f"{hand_word(hand)} next turn.", concerns={w.base.index, c.controller},
           caster=str(c.controller), spell=c.key, target=wizard_id(w.base.index), hand=hand)
    return replace(e, hand=hand)


def _fix_paralysis(t: Turn, c: Cast, w: WizardNow, e: Effect, chosen: dict[str, str]) -> Effect:
    """Paralysis: the hand "is paralyzed into the position it is in this turn" (C, S and W
    become F, D and P; the ruleset's hook says).  Where the caster names the hand in his next
    orders, the effect keeps what each hand would be frozen into until then, unless "the
    wizard already had a paralyzed hand" (then "it must be the same hand")."""
    variant = t.game.ruleset.variant
    left, right = _last_row(w)
    if variant.hands_in_orders():
        already = next((x for x in w.effects if x.kind is e.kind and x.hand and
                        x.active_on(w.own)), None)
        if already is None:
            t.emit(c.key, f"{w.base.name} is paralysed: {t.game.names[c.controller]} chooses "
                   "the hand next turn.", concerns={w.base.index}, caster=str(c.controller),
                   spell=c.key, target=wizard_id(w.base.index))
            return replace(e, repeats=(variant.paralysed_gesture(left),
                                       variant.paralysed_gesture(right)))
        hand = already.hand
    else:
        # (a blind chooser is asked even when the hand is already paralysed: resolve.py, H)
        already = next((x for x in w.effects if x.kind is e.kind and x.hand and
                        x.active_on(w.own)), None)
        hand = already.hand if already is not None else \
            chosen[decision_id(Ask.PARALYSED_HAND, wizard_id(w.base.index))]
    g = variant.paralysed_gesture(left if hand == "L" else right)
    # (its chooser, if blind, reads his own line instead: he may not see the gesture, nor
    # know whether the spell worked; resolve._tell_blind_chooser)
    t.emit(c.key, f"{w.base.name}'s {hand_word(hand)} is paralysed into "
           f"{gesture_word(g)}.", concerns={w.base.index}, caster=str(c.controller),
           spell=c.key, target=wizard_id(w.base.index), hand=hand, gesture=g)
    return replace(e, hand=hand, gesture=g)


EffectFixer = Callable[[Turn, Cast, WizardNow, Effect, dict[str, str]], Effect]
# What an effect fixes on a wizard when it takes hold (which hand, which gestures); the kinds
# whose fixer already told the subject need no second "is under" line unless permanent.
FIXERS: dict[EffectKind, EffectFixer] = {EffectKind.AMNESIA: _fix_amnesia,
                                         EffectKind.CHARM_PERSON: _fix_charm,
                                         EffectKind.PARALYSIS: _fix_paralysis}
TOLD_BY_FIXER = frozenset({EffectKind.CHARM_PERSON, EffectKind.PARALYSIS})


def _lasting(c: Cast, own: int) -> Effect | None:
    """The effect the enchantment lays, with its duration from the row's `lasts` (counted from
    the subject's own turn `own`); permanency makes it last for ever."""
    lasts = c.spell.lasts
    if lasts is None:
        return None
    permanent = c.permanent or lasts.end is None
    end = None if permanent else own + (lasts.end or 0)
    return Effect(EffectKind(c.spell.key), own + lasts.start, end, c.controller, permanent)


def lay_enchantment(t: Turn, c: Cast) -> None:
    """An enchantment that works takes hold on its living subject (docs/rules.md "durations")."""
    w = t.wizard(c.subject)
    if w is not None:
        if w.alive:
            _enchant_wizard(t, c, w)
        return
    m = t.mons[c.subject]
    if m.alive:
        _enchant_monster(t, c, m)


def _enchant_wizard(t: Turn, c: Cast, w: WizardNow) -> None:
    s = c.spell
    idx = w.base.index
    if s.does is Does.UNDO:
        # "the subject cannot include any gestures made on or before this turn in a spell
        # sequence"
        w.sequence_start = len(w.history)
        t.emit(s.key, f"{w.base.name}'s spells under way are undone.", concerns={idx},
               caster=str(c.caster), spell=s.key, target=wizard_id(idx))
        return
    if s.does is Does.TIME_STOP:
        # "The subject of this spell immediately takes an extra turn"
        if wizard_id(idx) not in t.time_stop_next:
            t.time_stop_next.append(wizard_id(idx))
        t.emit(s.key, f"Time stops for {w.base.name}.", concerns={idx}, caster=str(c.caster),
               spell=s.key, target=wizard_id(idx))
        return
    if c.consumed:
        return  # a delayed effect or permanency that took its spell this very turn
    effect = _lasting(c, w.own)
    if effect is None:
        return  # charm monster: "this spell only affects monsters"
    fixer = FIXERS.get(effect.kind)
    if fixer is not None:
        effect = fixer(t, c, w, effect, t.chosen)
    # Known to whoever sees its subject: a blind caster "will not know if his own spells work
    # unless they also affect him", so neither the effect nor the line below is his (in a
    # melee: every wizard who is not blind, and the subject).
    known = tuple(v for v in t.game.everyone if v == idx or not t.blind(v))
    effect = replace(effect, known_to=known)
    w.effects.append(effect)
    if effect.kind in TOLD_BY_FIXER and not effect.permanent:
        return  # already told, with the hand
    lasting = s.lasts is not None and s.lasts.end is not None
    forever = " for ever" if effect.permanent and lasting else ""
    t.emit("enchant", f"{w.base.name} is under {s.name}{forever}.", concerns={idx},
           harms={idx}, subject=wizard_id(idx), spell=s.key, caster=str(c.caster))


def _enchant_monster(t: Turn, c: Cast, m: MonsterNow) -> None:
    s = c.spell
    if s.does is Does.TIME_STOP:
        # (where the ruleset has it strike again at once, it did so with the attacks: I6b)
        if m.base.id not in t.time_stop_next and \
                not t.game.ruleset.variant.time_stop_strikes_now():
            t.time_stop_next.append(m.base.id)
        return
    rule = s.on_monster
    # (a permanent spell that keeps a monster from attacking repeats that "eternally": its
    # lasting effect keeps it from attacking every turn after, resolve._held_back)
    if rule in (OnMonster.NOTHING, OnMonster.DESTROY, OnMonster.DESTROY_AFTER_ATTACK) or \
            (rule in (OnMonster.ATTACKS_AT_RANDOM, OnMonster.SKIPS_ATTACK) and
             not c.permanent) or \
            (rule in (OnMonster.NOT_ELEMENTAL, OnMonster.SKIPS_ATTACK) and m.is_elemental):
        return
    effect = _lasting(c, m.own)
    if effect is None:
        return
    if effect.kind is EffectKind.AMNESIA and rule is not OnMonster.SKIPS_ATTACK:
        # "If the subject is a monster it will attack whoever it attacked this turn"
        effect = replace(effect, target=m.last_target)
    elif rule is OnMonster.ATTACKS_AT_RANDOM:
        # Permanent: the first turn's random target (this turn's: "it attacks at random that
        # turn") is the one it keeps attacking.
        effect = replace(effect, target=next(iter(m.attacks), ""))
    m.effects.append(effect)
    t.emit("enchant", f"{t.name(m.base.id)} is under {s.name}.",
           concerns={m.controller}, subject=m.base.id, spell=s.key, caster=str(c.caster))
