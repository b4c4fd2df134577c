"""Phases D and E of a turn: every spell finds its subject (or fails), and delayed effect and
permanency take the spell they wait for.

D  targets: a target that no longer exists discards the spell; dispel magic stops every other
   spell; a magic mirror turns spells back; a counter-spell stops the rest; spells aimed at the
   invisible miss; summons are created between two passes so that a spell aimed at "the
   elemental he's about to create" finds it.
E  a waiting delayed effect banks one of its caster's new spells, a waiting permanency makes one
   of his new enchantments permanent.
"""

from __future__ import annotations

from .model import NOBODY, Banked, Effect, Monster, wizard_index
from .scratch import NEW_PREFIX, Cast, MonsterNow, Turn, WizardNow
from .situation import wizard_id
from .spells import Category, Does, EffectKind


# ---------------------------------------------------------------------------------------------
# Phase D: targets, dispel magic, magic mirror, counter-spell, invisibility.
# ---------------------------------------------------------------------------------------------
def _bind_concrete(t: Turn, c: Cast) -> None:
    """A target that "still doesn't exist when you actually cast the spell" discards it."""
    c.reflected_by = ""
    c.works = True
    c.why = ""
    if c.sticky:
        c.fail(c.sticky, "elemental")
        return
    if c.spell.blanket:
        c.subject = ""
        return
    if c.target == NOBODY:
        c.subject = ""
        c.fail("aimed at nobody", "nobody")
        return
    if c.target.startswith(NEW_PREFIX):
        c.subject = ""
        return
    c.subject = c.target
    alive = t.alive(c.target)
    if c.spell.does is Does.RAISE_DEAD:  # "the only spell which affects corpses"
        if not t.exists(c.target):
            c.fail("its target does not exist", "no_target")
        return
    if not alive:
        c.fail(f"{t.name(c.target)} is no longer there", "gone")


def settle(t: Turn, casts: list[Cast], create: bool) -> None:
    """Decide every cast's final subject and whether it works.  Summons are created (with
    `create`) between the two passes so that spells aimed at "the elemental he's about to
    create" find it."""
    live = [c for c in casts if not c.banked]
    for c in live:
        _bind_concrete(t, c)
    # "It will stop any spell cast in the same turn from working (apart from another dispel
    # magic spell which combines with it for the same result)".
    dispels = [c for c in live if c.spell.does is Does.DISPEL]
    t.dispel = bool(dispels)
    if t.dispel:
        for c in live:
            if c.spell.does is not Does.DISPEL:
                c.fail("stopped by dispel magic", "dispelled")
            elif c.subject:
                c.works = True
                c.why = ""
        return
    _mirror_counter(t, live)
    if create:
        _create_summons(t, live)
    # Second pass with "new:" targets bound to the monsters just made.
    for c in live:
        if c.target.startswith(NEW_PREFIX):
            m = t.summoned_by(c.target[len(NEW_PREFIX):])
            if m is None:
                c.subject = ""
                c.fail("the monster it was aimed at was never summoned", "unsummoned")
            else:
                c.subject = m.base.id
    bound_now = [c for c in live if c.target.startswith(NEW_PREFIX) and c.subject]
    if bound_now:
        for c in live:
            if not c.target.startswith(NEW_PREFIX):
                _bind_concrete(t, c)
        for c in bound_now:
            c.works = True
            c.why = ""
            c.reflected_by = ""
        _mirror_counter(t, live)


def _mirror_counter(t: Turn, live: list[Cast]) -> None:
    """Magic mirror: "Any spell cast on a subject protected by this spell is reflected back upon
    the caster ... The mirror is countered totally if either a counter-spell or dispel magic are
    cast on the subject in the same turn". Counter-spell: "Any other spell cast upon the subject
    in the same turn has no effect"."""
    countered = {c.subject for c in live
                 if c.spell.does is Does.COUNTER and c.works and c.subject}
    mirrored: set[str] = set()
    for c in live:
        if c.spell.does is Does.MIRROR and c.works and c.subject:
            if c.subject in countered:
                c.fail(f"the counter-spell on {t.name(c.subject)} cancels the mirror",
                       "countered")
            else:
                mirrored.add(c.subject)
    for c in live:
        if not c.works or not c.subject or not c.spell.reflectable:
            continue
        if c.subject in mirrored and c.subject != wizard_id(c.caster):
            # "The mirror does not affect spells which are cast upon oneself"; a reflected
            # spell is not reflected a second time (docs/rules.md).
            c.reflected_by = c.subject
            c.reflector = t.mons[c.subject].controller if c.subject in t.mons else -1
            c.subject = wizard_id(c.caster)
            if not t.alive(c.subject):
                c.fail("its caster is gone", "gone")
    for c in live:
        # Raise dead passes a counter-spell because "This is the only spell which affects
        # corpses. It therefore cannot be stopped": on the living it is a cure, and is stopped.
        passes = c.spell.passes_counter and not (c.spell.does is Does.RAISE_DEAD and
                                                 t.alive(c.subject))
        if c.works and c.subject in countered and not passes:
            c.fail(f"the counter-spell on {t.name(c.subject)} stops it", "countered")
    # Invisibility: "Wizards can still stab and direct spells at him, with the same hope" (that
    # he becomes visible prematurely): spells of others aimed at him miss.
    for c in live:
        if c.works and c.subject and c.subject != wizard_id(c.caster) and \
                t.invisible(c.subject) and not c.spell.blanket:
            c.fail(f"{t.name(c.subject)} is invisible", "invisible")


def _create_summons(t: Turn, live: list[Cast]) -> None:
    """Summons: "creates a goblin under the control of the subject upon whom the spell is cast
    (or if cast on a monster, the subject monster's controller ...) ... The summoning spell
    cannot be cast at an elemental, and if cast at something which doesn't exist, the spell has
    no effect"."""
    for c in live:
        if c.spell.category is not Category.SUMMON or not c.works or not c.subject:
            continue
        index = wizard_index(c.subject)
        if index is not None:
            controller = index
        else:
            host = t.mons.get(c.subject)
            if host is None or host.is_elemental:
                c.sticky = "a summoning spell cannot be cast at an elemental"
                c.fail(c.sticky, "elemental")
                continue
            controller = host.controller
        kind = c.spell.summons
        mid = f"M{t.next_monster}"
        t.next_monster += 1
        base = Monster(mid, kind, controller, t.number)
        # (monsters do not attack in a hasted turn, a new one included)
        t.mons[mid] = MonsterNow(base, kind, controller, 0, True, [], "", 0, t.game.everyone,
                                 not t.hasted, 0 if t.hasted else 1, new=True, cast_id=c.id)


# ---------------------------------------------------------------------------------------------
# Phase E: delayed effect and permanency take their spell.
# ---------------------------------------------------------------------------------------------
def _waiting(t: Turn, idx: int, does: Does) -> list[Effect]:
    """The delayed effects (or permanencies) waiting on wizard idx this turn."""
    w = t.wiz[idx]
    return [e for e in w.effects if t.spells[e.kind.value].does is does and e.active_on(w.own)]


def bank_and_extend(t: Turn) -> bool:
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
        delays: list[object] = [e for e in _waiting(t, idx, Does.BANK) if me not in removed]
        perms: list[object] = [e for e in _waiting(t, idx, Does.EXTEND) if me not in removed]
        cast_now = [c for c in t.casts if c.spell.does in (Does.BANK, Does.EXTEND) and c.works
                    and c.subject == me]
        # Where the table lets permanency take them (Warlocks), a delayed effect or permanency
        # cast now and ordered permanent is the spell a permanency extends, not one at work.
        to_extend = [c for c in cast_now if c.permanent_flag and c.spell.may_be_permanent]
        perms += [c for c in cast_now if c.spell.does is Does.EXTEND and c not in to_extend]
        if not perms:
            to_extend = []  # nothing to extend them: they work as ever
            perms += [c for c in cast_now if c.spell.does is Does.EXTEND]
        delays += [c for c in cast_now if c.spell.does is Does.BANK and c not in to_extend]
        if not delays and not perms:
            continue
        mine = [c for c in t.casts if c.caster == idx and c.origin == "gesture"]
        variant = t.game.ruleset.variant
        ordered_bank, ordered_perm = variant.ordered_bank(), variant.ordered_permanency()
        doers = {id(x) for x in delays + perms}
        extend: Cast | None = None
        bank: Cast | None = None
        if perms:
            eligible = [c for c in mine if id(c) not in doers and c.spell.may_be_permanent]
            flagged = [c for c in eligible if c.permanent_flag]
            pick = flagged if ordered_perm else \
                flagged or [c for c in eligible if not c.bank_flag] or eligible
            if pick and not (delays and w.banked is None and pick[0].bank_flag):
                extend = pick[0]
        if delays and (w.banked is None or ordered_bank):
            eligible = [c for c in mine if id(c) not in doers and c is not extend]
            flagged = [c for c in eligible if c.bank_flag]
            pick = flagged if ordered_bank else flagged or eligible
            if pick:
                bank = pick[0]
        if extend is not None:
            extend.permanent = True
            _consume(t, w, perms)
            t.emit(EffectKind.PERMANENCY.value, f"Permanency takes hold of {w.base.name}'s "
                   f"{extend.spell.name}.", concerns={idx}, caster=str(idx),
                   spell=extend.key)
        if bank is not None:
            bank.banked = True
            if w.banked is not None:
                t.emit("bank", f"{w.base.name}'s banked {t.spells[w.banked.spell].name} is "
                       "lost: a new spell takes its place.", concerns={idx}, caster=str(idx),
                       spell=w.banked.spell, outcome="lost")
            w.banked = Banked(bank.key, t.number, bank.target if ordered_bank else "")
            banked_any = True
            _consume(t, w, delays)
            t.emit("bank", f"{w.base.name}'s {bank.spell.name} is banked by delayed "
                   "effect.", concerns={idx}, caster=str(idx), spell=bank.key,
                   outcome="banked")
    return banked_any


def _consume(t: Turn, w: WizardNow, waiting: list[object]) -> None:
    """The first waiting delayed effect/permanency has done its work (a permanent one waits
    on: "the effect of the extended spell on the first turn of its duration is repeated
    eternally")."""
    first = waiting[0]
    if isinstance(first, Effect):
        if not first.permanent:
            w.effects[:] = [e for e in w.effects if e is not first]
    elif isinstance(first, Cast):
        first.consumed = True  # it took its spell this very turn, so it leaves no effect
