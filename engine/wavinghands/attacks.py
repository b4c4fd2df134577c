"""Attacks that are not spells: monsters' attacks and wizards' stabs (phase I of a turn)."""

from __future__ import annotations

from dataclasses import replace

from .model import NOBODY, wizard_id
from .orders import STAB
from .scratch import Cast, MonsterNow, Turn, WizardNow, replace_effect
from .situation import default_stab, opponent
from .spells import MONSTERS, EffectKind, Element, OnMonster

STAB_SOURCE = "stab"  # a damage event's source for a knife (a spell's is its key)


def monster_attacks(t: Turn, works: list[Cast]) -> None:
    """Every acting monster attacks, unless something stops it this turn."""
    for mid in list(t.mons):
        m = t.mons[mid]
        if not m.alive or not m.acting or m.no_attack:
            if m.alive and m.acting and m.no_attack:
                t.emit("no_attack", f"{t.name(mid)} does not attack ({m.no_attack}).",
                       concerns={m.controller}, monster=mid)
            continue
        monster_attack(t, m, works)


def monster_attack(t: Turn, m: MonsterNow, works: list[Cast]) -> None:
    """One monster's attack this turn (an elemental's on everyone, another's on its target)."""
    if m.element is not None:
        _elemental_attack(t, m, m.element)
    else:
        _monster_attack(t, m, works)


def _elemental_attack(t: Turn, m: MonsterNow, element: Element) -> None:
    """"The elemental will, for that turn and until destroyed, attack everyone who is not
    resistant to its type ... causing three points of damage per turn ... only wizards or
    monsters resistant to the type of elemental, or who are casting a spell which has the effect
    of a shield do not get attacked"; "time-stopped elementals affect everyone, resistance to
    heat or cold being immaterial in that turn"."""
    strength = MONSTERS[m.kind].strength
    for bid in t.living_ids():
        if bid == m.base.id:
            continue
        if t.invisible(bid):
            continue  # "The subject cannot be attacked by any monsters"
        if t.shielded(bid):
            continue
        if t.resistant(bid, element):
            continue
        t.damage(bid, strength, f"{t.name(m.base.id)} strikes {t.name(bid)} for {strength}.",
                 m.kind, monster=m.base.id)


def _monster_attack(t: Turn, m: MonsterNow, works: list[Cast]) -> None:
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
    hastened = any(e.kind is EffectKind.HASTE and e.active_on(m.own) for e in m.effects)
    count = 2 if hastened else 1
    last = m.base.last_target
    if m.new or (last != NOBODY and not t.alive(last)):
        last = ""  # nobody attacked yet, or its victim is gone
    unordered = t.game.ruleset.variant.unordered_target(last, _enemy_of(t, m))
    targets: list[str] = list(written) if written else [unordered]
    while len(targets) < count:
        targets.append(targets[-1])
    targets = targets[:count]
    amnesia = next((e for e in m.effects if e.kind is EffectKind.AMNESIA and e.active_on(m.own)),
                   None)
    confused_now = any(c.spell.on_monster is OnMonster.ATTACKS_AT_RANDOM and
                       c.subject == m.base.id for c in works) or \
        any(e.kind is EffectKind.CONFUSION and e.active_on(m.own) for e in m.effects)
    strength = MONSTERS[m.kind].strength
    for ai, written_target in enumerate(targets):
        target = t.bind_new(written_target)
        if amnesia is not None:
            target = amnesia.target or NOBODY
        if confused_now:
            fixed = next((e for e in m.effects if e.kind is EffectKind.CONFUSION and e.permanent
                          and e.active_on(m.own)), None)
            if fixed is not None and fixed.target:
                # Permanent: "the effect of the extended spell on the first turn of its duration
                # is repeated eternally ... rather than re-rolling the dice".
                target = fixed.target
            else:
                pool = [b for b in t.living_ids() if b != m.base.id]
                target = pool[t.die(f"monster:{m.base.id}:{ai}", len(pool)) - 1] if pool \
                    else NOBODY
                if fixed is not None:
                    replace_effect(m.effects, fixed, replace(fixed, target=target))
            m.attacks.append(target)
            # (told to the target's side: a blind master learns no more of where it struck
            # than of a hit, nor of a monster he has not seen)
            t.emit("confused_monster", f"{t.name(m.base.id)} is confused and attacks "
                   f"{t.name(target)}.", concerns=t.owner_of(target), monster=m.base.id,
                   target=target)
        m.last_target = target
        if target == NOBODY or not t.alive(target):
            continue
        # What became of the attack is told to the target's side, as a hit is: a blind master
        # learns no more from a miss or a shield than from a hit (docs/rules.md, "Blindness").
        if t.invisible(target):
            t.emit("miss", f"{t.name(m.base.id)} cannot find the invisible {t.name(target)}.",
                   concerns=t.owner_of(target), monster=m.base.id, target=target,
                   outcome="invisible")
            continue
        if t.shielded(target):
            t.emit("blocked", f"{t.name(target)}'s shield stops the attack of "
                   f"{t.name(m.base.id)}.", concerns=t.owner_of(target), monster=m.base.id,
                   target=target, outcome="shielded")
            continue
        t.damage(target, strength, f"{t.name(m.base.id)} attacks {t.name(target)} for "
                 f"{strength}.", m.kind, monster=m.base.id)


def _enemy_of(t: Turn, m: MonsterNow) -> str:
    """"Monsters will usually attack their master's opponent": in a duel the other wizard; in
    a melee "a random opposing Warlock" (the Warlocks monsters page) among those still in the
    fight, every one of them when its master is out (docs/rules.md, "Melee")."""
    if not t.game.is_melee:
        return wizard_id(opponent(m.controller))
    pool = [wizard_id(w.base.index) for w in t.wiz if w.alive and w.base.index != m.controller]
    if len(pool) <= 1:
        return pool[0] if pool else NOBODY
    return pool[t.die(f"monster:{m.base.id}:enemy", len(pool)) - 1]


def stabs(t: Turn) -> None:
    """"Unless protected in that turn by a shield spell or another spell with the same effect,
    the being stabbed suffers 1 point of damage."""
    for w in t.wiz:
        if not w.acting:
            continue
        o = t.orders[w.base.index]
        for si, row in enumerate(w.new_rows):
            if STAB not in row:
                continue
            written = o.stabs[si] if si < len(o.stabs) else None
            own_stab = any(g == STAB and not charmed_hand(w, hand)
                           for hand, g in zip("LR", row, strict=True))
            if not own_stab:
                # Only the charmed hand stabs ("wizards carry only one dagger": a second stab
                # in the same set is the same knife).
                written = t.charm_stab.get((w.base.index, si), written)
            target = t.bind_new(written or default_stab(t.game, w.base.index))
            if target == NOBODY:
                continue
            if not t.alive(target) and target not in t.mons:
                continue
            if target in t.mons and not t.mons[target].alive:
                continue
            # (told to the target's side, as a stab that lands is: see monster_attack)
            if t.invisible(target):
                t.emit("miss", f"{w.base.name} stabs at the invisible {t.name(target)} and "
                       "misses.", concerns=t.owner_of(target), caster=str(w.base.index),
                       target=target, outcome="invisible", source=STAB_SOURCE)
            elif t.shielded(target):
                t.emit("blocked", f"{w.base.name}'s stab is stopped by {t.name(target)}'s "
                       "shield.", concerns=t.owner_of(target), caster=str(w.base.index),
                       target=target, outcome="shielded", source=STAB_SOURCE)
            else:
                t.damage(target, 1, f"{w.base.name} stabs {t.name(target)} for 1.",
                         STAB_SOURCE, by=str(w.base.index))


def charmed_hand(w: WizardNow, hand: str) -> bool:
    """Whether this hand of the wizard is written by a charm person's controller this turn."""
    return any(e.kind is EffectKind.CHARM_PERSON and e.active_on(w.own) and e.hand == hand
               for e in w.effects)
