"""Resolution: `resolve(game, inputs) -> (game, events)`, a pure function.

A turn is resolved in the explicit phases below, each commented with the rules text it
implements (quotes are from 000, the reference copy; docs/rules.md lists every interpretation).
The phases work on the mutable working copy of the turn (scratch.py); the frozen input game is
never touched and a new frozen game is built at the end.  No spell is known here by name: the
phases read each spell's row (spells.py), and what a working spell does is its handler's
business (effects.py; monsters' attacks and stabs: attacks.py; phases D and E: settle.py).

    A  gestures      forced gestures (amnesia, paralysis, charm person), confusion's dice
    B  recognition   spells each hand completes, the wizard's choices, surrender
    C  release       spells released from delayed effect's bank
    D  settle        targets, dispel magic, magic mirror, counter-spell, invisibility
    E  bank/extend   delayed effect and permanency take the spell they wait for
    F  clash         mind spells on one subject cancel
    G  removal       remove enchantment and raise dead strip enchantments, cast ones included
    H  decisions     paralysis hand, charm person hand, elemental type (after the reveal)
    I  effects       charm monster, summons, elementals and storms, attacks, spells, stabs,
                     damage and cures, new enchantments
    J  outcome       deadlines, durations, death, surrender, the next phase
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from .attacks import monster_attack, monster_attacks, stabs
from .effects import HANDLERS, elementals_and_storms, lay_enchantment, storm_damage
from .errors import IllegalInput
from .legal import choose_allocation, input_problems
from .model import (
    DECISION,
    HASTENED_ROW,
    MAX_TURNS,
    NOBODY,
    NORMAL_ROW,
    ORDERS,
    OVER,
    TIME_STOP,
    WIZARD_DEATH,
    Decision,
    Effect,
    Event,
    Game,
    GestureRow,
    Monster,
    Phase,
    RecordEntry,
    Result,
    TurnKind,
    Wizard,
    gesture_word,
    hand_word,
    turn_kind,
    wizard_index,
)
from .orders import STAB, CastChoice, DecisionInput, OrderError, Orders
from .recognize import completed, is_surrender
from .scratch import (
    Cast,
    Turn,
    WizardNow,
    replace_effect,
    scratch,
)
from .settle import bank_and_extend, settle
from .situation import (
    BY_CHARM,
    HAND_ASKS,
    constraints,
    default_target,
    effects_suspended,
    opponent,
    sole_enemy,
    wizard_id,
)
from .spells import (
    MONSTERS,
    UNCHOSEN_ELEMENTAL,
    Ask,
    Category,
    Does,
    EffectKind,
    Element,
    OnMonster,
    decision_id,
    elemental_kind,
)

CONFUSION_GESTURES = "CDFPSW"  # "1=C, 2=D, 3=F, 4=P, 5=S, 6=W"


# ---------------------------------------------------------------------------------------------
# Phase A: the gestures actually made.
# ---------------------------------------------------------------------------------------------
def _phase_gestures(t: Turn) -> None:
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
                          if e.kind is EffectKind.CONFUSION and e.active_on(w.own)), None)
        charm = next((e for e in w.effects
                      if e.kind is EffectKind.CHARM_PERSON and e.active_on(w.own)), None)
        chosen_now = _hands_chosen_now(t, w) if not effects_suspended(t.game, idx) else {}
        if effects_suspended(t.game, idx):
            confusion = charm = None  # his time-stopped turn (Variant.time_stop_ignores_effects)
        if any(e.kind is EffectKind.CHARM_PERSON for e in chosen_now.values()):
            charm = next(e for e in chosen_now.values() if e.kind is EffectKind.CHARM_PERSON)
        for si, (left, right) in enumerate(o.gestures):
            g = {"L": left, "R": right}
            for hand in ("L", "R"):
                hc = c.hand(hand)
                now = chosen_now.get(hand)
                if hc.forced is not None:
                    g[hand] = hc.forced
                elif now is not None and now.kind is EffectKind.PARALYSIS:
                    g[hand] = now.gesture
                elif (hc.why == BY_CHARM or now is not None) and charm is not None:
                    fixed = charm.gesture
                    ctrl = hc.controller if now is None else now.source
                    written = t.orders[ctrl].charm if ctrl in t.orders else None
                    g[hand] = fixed or (written if written is not None else "-")
                    if g[hand] == STAB and ctrl is not None:
                        # "This could be a stab": the controller, who chose it, aims it.
                        aim = t.orders[ctrl].charm_target if ctrl in t.orders else None
                        t.charm_stab[(idx, si)] = aim or _charm_stab_default(t, ctrl, idx)
                    if charm.permanent and not fixed:
                        # "a charm person will mean repetition of the chosen gesture"
                        replace_effect(w.effects, charm, replace(charm, gesture=g[hand]))
                    t.emit("charmed", f"{t.name(wizard_id(ctrl or 0))} makes "
                           f"{w.base.name}'s {hand_word(hand)} perform {gesture_word(g[hand])}.",
                           concerns={idx, ctrl or 0}, caster=str(ctrl or 0),
                           target=wizard_id(idx), hand=hand, gesture=g[hand])
            fixed_hands = [h for h in ("L", "R") if c.hand(h).forced is not None or c.hand(h).why
                           or h in chosen_now]
            if c.same_gesture and len(fixed_hands) == 1:
                # Maladroitness: both hands make one gesture, and a hand the rules fix leads
                # (the other follows it; a wizard has one dagger, so a stab is not copied).
                lead = fixed_hands[0]
                g["R" if lead == "L" else "L"] = g[lead] if g[lead] != STAB else "-"
            if confusion is not None:
                if confusion.hand:
                    hand, gesture = confusion.hand, confusion.gesture
                else:
                    hand = "L" if t.die(f"confusion:{idx}:{si}:hand", 6) <= 3 else "R"
                    gesture = CONFUSION_GESTURES[t.die(f"confusion:{idx}:{si}:gesture", 6) - 1]
                    if confusion.permanent:
                        # "a confusion spell will be the same gesture rather than re-rolling"
                        new = replace(confusion, hand=hand, gesture=gesture)
                        replace_effect(w.effects, confusion, new)
                        confusion = new
                g[hand] = gesture
                t.emit("confused", f"{w.base.name} is confused: the {hand_word(hand)} makes "
                       f"{gesture_word(gesture)}.", concerns={idx}, target=wizard_id(idx),
                       hand=hand, gesture=gesture)
            w.new_rows.append((g["L"], g["R"]))


def _charm_stab_default(t: Turn, ctrl: int, subject: int) -> str:
    """Where a charmed hand's stab goes when its controller names no target: at him (the
    subject's opponent in a duel); a wizard who charmed himself stabs "the opponent", nobody
    in a melee while two or more enemies fight."""
    if ctrl != subject:
        return wizard_id(ctrl)
    enemy = sole_enemy(t.game, subject)
    return NOBODY if enemy is None else wizard_id(enemy)


def _hands_chosen_now(t: Turn, w: WizardNow) -> dict[str, Effect]:
    """Where the ruleset has the caster choose the hand in his next orders (Warlocks): the
    paralysis or charm person on `w` whose hand its caster chose in this turn's orders (the
    first hand when his orders say nothing), now fixed on the effect, by hand."""
    out: dict[str, Effect] = {}
    if not t.game.ruleset.variant.hands_in_orders():
        return out
    idx = w.base.index
    for kind, ask in HAND_ASKS.items():
        e = next((x for x in w.effects if x.kind is kind and x.active_on(w.own) and not x.hand),
                 None)
        if e is None:
            continue
        caster = t.orders.get(e.source) if e.source is not None else None
        hand = (caster.hand_for(decision_id(ask, wizard_id(idx))) if caster else None) or "L"
        if hand in out:
            hand = "R" if hand == "L" else "L"
        if kind is EffectKind.PARALYSIS:
            gesture = e.repeats[0 if hand == "L" else 1] if len(e.repeats) == 2 else "-"
            fixed = replace(e, hand=hand, gesture=gesture, repeats=())
            t.emit(kind.value, f"{w.base.name}'s {hand_word(hand)} is paralysed into "
                   f"{gesture_word(gesture)}.", concerns={idx, e.source or 0},
                   caster=str(e.source or 0), spell=kind.value, target=wizard_id(idx), hand=hand,
                   gesture=gesture)
        else:
            fixed = replace(e, hand=hand)
        replace_effect(w.effects, e, fixed)
        out[hand] = fixed
    return out


# ---------------------------------------------------------------------------------------------
# Phase B: recognition, choices, surrender.
# ---------------------------------------------------------------------------------------------
def _phase_recognise(t: Turn) -> None:
    """"If the caster completes a series that casts a spell ... the spell must be cast";
    "If a gesture can be construed to create two or more spells then the caster chooses"; a
    surrender is "a pair of P gestures made by both hands at the same time"."""
    for w in t.wiz:
        if not w.acting:
            continue
        idx = w.base.index
        o = t.orders[idx]
        # Only the last rows can end in a spell: recognition reads no more than the longest
        # sequence back, and nothing before the anti-spell's `sequence_start`.
        first = max(0, len(w.history) - t.spells.longest)
        rows = [(r.left, r.right) for r in w.history[first:]]
        start = max(0, w.sequence_start - first)
        # Who does not see these gestures: every other wizard when the maker is invisible;
        # one who is blind, or frozen in a time-stopped turn (a melee: per pair of wizards).
        unseen_by = tuple(v.base.index for v in t.wiz if v is not w and (
            (t.unseen and not v.acting) or t.invisible(wizard_id(idx)) or t.blind(v.base.index)))
        hidden = len(unseen_by) == len(t.wiz) - 1
        hidden_from = () if hidden else unseen_by
        for si, row in enumerate(w.new_rows):
            rows.append(row)
            kind = HASTENED_ROW if t.hasted or si > 0 else \
                TIME_STOP if t.kind == TIME_STOP else NORMAL_ROW
            w.history.append(GestureRow(t.number, row[0], row[1], kind, hidden, hidden_from))
            label = " (second set)" if si else ""
            t.events.append(Event(t.number, "gestures", f"{w.base.name}{label}: left "
                                  f"{gesture_word(row[0])}, right {gesture_word(row[1])}.",
                                  (idx,) if hidden else tuple(
                                      v for v in t.game.everyone if v not in hidden_from),
                                  (("left", row[0]), ("right", row[1]), ("set", str(si)),
                                   ("wizard", str(idx)))))
            cands = completed(rows, start, len(rows) - 1, w.short_lightning_used, t.spells)
            # Choices were written before the reveal; where confusion or a charmed hand changed
            # what completes, a choice that no longer applies falls back to the default.
            choices = [ch for ch in o.casts if ch.set_index == si and (
                (ch.spell is None and any(x.hand == ch.hand for x in cands)) or
                any(x.hand == ch.hand and x.spell == ch.spell for x in cands))]
            try:
                alloc = choose_allocation(cands, choices, t.game.ruleset.may_withhold, si,
                                          t.spells)
            except OrderError:
                choices = []
                alloc = choose_allocation(cands, choices, t.game.ruleset.may_withhold, si,
                                          t.spells)
            for cand in alloc.spells:
                row_spell = t.spells[cand.spell]
                if cand.sequence in row_spell.once_per_battle:
                    w.short_lightning_used = True  # "Each wizard may use this spell once"
                ch: CastChoice | None = next((x for x in choices if x.hand == cand.hand), None)
                target = ch.target if ch is not None and ch.target is not None else \
                    default_target(t.game, row_spell, idx)
                if row_spell.blanket:
                    target = NOBODY
                suffix = f":{si}" if si else ""
                t.casts.append(Cast(f"{idx}:{cand.hand}{suffix}", idx, row_spell, target, si,
                                     cand.hand, bank_flag=bool(ch and ch.bank),
                                     permanent_flag=bool(ch and ch.permanent)))
            if is_surrender(row):
                w.surrendered = True
        if o.forfeit:
            # (the victim of a permanent enchantment the ruleset names: Variant.forfeit_under)
            w.surrendered = True
            t.emit("forfeit", f"{w.base.name} forfeits the duel.", public=True, wizard=str(idx))


# ---------------------------------------------------------------------------------------------
# Phase C: banked spells released.
# ---------------------------------------------------------------------------------------------
def _phase_release(t: Turn) -> None:
    """Delayed effect: the banked spell "fails to work until its caster desires. ... The spell
    must be written down to be used by its caster at the same time that he writes his
    gestures"."""
    for w in t.wiz:
        if not w.acting:
            continue
        o = t.orders[w.base.index]
        if o.release is None or w.banked is None:
            continue
        spell = t.spells[w.banked.spell]
        # (a spell banked with its target keeps it: Variant.ordered_bank)
        target = w.banked.target or o.release or default_target(t.game, spell, w.base.index)
        if spell.blanket:
            target = NOBODY
        t.casts.append(Cast(f"{w.base.index}:release", w.base.index, spell, target, 0, "B",
                             origin="release"))
        t.emit("release", f"{w.base.name} releases the banked {spell.name}.",
               concerns={w.base.index}, caster=str(w.base.index), spell=spell.key)
        w.banked = None


# ---------------------------------------------------------------------------------------------
# Phase F: clashing mind spells.
# ---------------------------------------------------------------------------------------------
def _phase_clash(t: Turn) -> None:
    """"If the subject of this spell is simultaneously the subject of any of confusion, charm
    person, charm monster, paralysis or fear then none of the spells work" (and likewise for
    each of the six).  The same spell twice from the same hand of fate (same spell and, for
    those that give control, the same controller) merges instead (docs/rules.md)."""
    by_subject: dict[str, list[Cast]] = {}
    for c in t.casts:
        if c.works and not c.banked and c.spell.mind and c.subject:
            by_subject.setdefault(c.subject, []).append(c)
    for subject, cs in by_subject.items():
        keys = {(c.key, c.controller if c.spell.gives_control else -1) for c in cs}
        if len(keys) > 1:
            for c in cs:
                c.fail("cancelled by another enchantment on the same subject", "clash")
            t.emit("clash", f"The enchantments on {t.name(subject)} cancel each other out.",
                   concerns=t.owner_of(subject), target=subject,
                   spells=" ".join(sorted({c.key for c in cs})), outcome="clash")


# ---------------------------------------------------------------------------------------------
# Phase G: remove enchantment, raise dead and dispel magic strip enchantments.
# ---------------------------------------------------------------------------------------------
def _phase_removal(t: Turn) -> None:
    """Remove enchantment "Terminates the effects of all Enchantment Spells that have been cast
    on the subject including those that are cast on the subject at the same time"; raise dead:
    "All enchantments are also removed"; dispel magic "will remove all enchantments from all
    beings before they have effect"."""
    t.removal = set()
    for c in t.casts:
        if not c.works or c.banked:
            continue
        if c.spell.does is Does.REMOVE_ENCHANTMENT and c.subject:
            t.removal.add(c.subject)
        if c.spell.does is Does.RAISE_DEAD and c.subject and not t.alive(c.subject):
            t.removal.add(c.subject)
    if t.dispel:
        return
    for c in t.casts:
        if c.works and not c.banked and c.subject in t.removal and \
                c.spell.category is Category.ENCHANTMENT:
            c.fail(f"removed from {t.name(c.subject)} as it struck", "removed")


# ---------------------------------------------------------------------------------------------
# Phase H: decisions the rules place after the reveal.
# ---------------------------------------------------------------------------------------------
def _phase_decisions(t: Turn) -> dict[str, str]:
    """Paralysis: "after gestures have been revealed, the caster selects one of the wizard's
    hands ... If the wizard already had a paralyzed hand, it must be the same hand"; charm
    person: "The subject is told which of his hands will be controlled at the time the spell
    hits"; summon elemental: fire or ice "at the discretion of the person upon whom the spell
    is cast after he has seen all the gestures made that turn"."""
    chosen: dict[str, str] = {}
    asked: set[str] = set()
    for c in t.casts:
        ask = c.spell.asks
        # A blind chooser "will not know if his own spells work unless they also affect him":
        # he is asked for a paralysis's hand whether or not it works, and whether or not the
        # hand is already paralysed (then his answer changes nothing).
        blind_chooser = ask is Ask.PARALYSED_HAND and _hidden_from(t, c, c.controller)
        if (not c.works and not blind_chooser) or c.banked or ask is None:
            continue
        subj = t.wizard(c.subject)
        if ask in HAND_ASKS.values() and t.game.ruleset.variant.hands_in_orders():
            continue  # asked in the caster's next orders instead (Orders.hands)
        if ask is Ask.PARALYSED_HAND and subj is not None:
            did = decision_id(ask, c.subject)
            if did in asked:
                continue
            asked.add(did)
            already = next((e for e in subj.effects if e.kind is EffectKind.PARALYSIS
                            and e.active_on(subj.own)), None)
            if already is not None and already.hand and not blind_chooser:
                chosen[did] = already.hand
                continue
            prompt = f"Paralysis hits {subj.base.name}: which hand is paralysed?"
            last = subj.history[-1] if subj.history else None
            labels: list[str] = []
            # Label each hand with the gesture it would freeze in, unless the chooser could
            # not see that gesture (blind, or the subject invisible).
            if last is not None and not last.hidden_to(c.controller, subj.base.index):
                for hand, g in (("Left hand", last.left), ("Right hand", last.right)):
                    frozen = t.game.ruleset.variant.paralysed_gesture(g)
                    shown = gesture_word(g) if frozen == g else \
                        f"{gesture_word(g)}, frozen into {frozen}"
                    labels.append(f"{hand} ({shown})")
            _ask(t, chosen, did, ask, c.controller, ("L", "R"), prompt, tuple(labels))
        elif ask is Ask.CHARMED_HAND and subj is not None:
            did = decision_id(ask, c.subject)
            if did in asked:
                continue
            asked.add(did)
            prompt = f"Charm person hits {subj.base.name}: which hand will you control " \
                     "next turn?"
            _ask(t, chosen, did, ask, c.controller, ("L", "R"), prompt)
        elif ask is Ask.ELEMENT:
            m = t.summoned_by(c.id)
            if m is None:
                continue
            did = decision_id(ask, c.id)
            prompt = f"{c.spell.name} gives {t.game.names[m.controller]} an elemental: " \
                     "fire or ice?"
            _ask(t, chosen, did, ask, m.controller, tuple(e.value for e in Element), prompt)
    return chosen


def _ask(t: Turn, chosen: dict[str, str], did: str, ask: Ask, who: int,
         options: tuple[str, ...], prompt: str, labels: tuple[str, ...] = ()) -> None:
    """Take the answer already given, or ask wizard `who` (the turn then waits)."""
    answer = t.decisions.get(did)
    if answer in options:
        chosen[did] = answer
    else:
        t.needed.append(Decision(did, ask.value, who, options, prompt, labels))


# ---------------------------------------------------------------------------------------------
# Phase I: effects.
# ---------------------------------------------------------------------------------------------
def _phase_effects(t: Turn) -> None:
    """What the turn's working spells, monsters and knives do, in the rules' order."""
    works = [c for c in t.casts if c.works and not c.banked]
    _report_casts(t, works)  # I0
    _take_monsters(t, works)  # I1
    _summons_take_shape(t, works)  # I2
    _shields_and_doom(t, works)  # I3
    elementals_and_storms(t, works)  # I4
    _held_back(t, works)  # I5
    monster_attacks(t, works)  # I6
    _time_stopped_strike(t, works)  # I6b
    _spells(t, works)  # I7
    storm_damage(t, works)
    stabs(t)  # I8
    _report_fizzles(t)  # I9
    _land_damage(t)  # I10
    _enchantments(t, works)  # I11


def _hidden_from(t: Turn, c: Cast, who: int) -> bool:
    """Whether wizard `who` (the spell's caster, or the one who chooses for it) may not learn
    what became of it: he is blind and it is aimed at another's being ("he will not know if his
    own spells work unless they also affect him")."""
    return t.blind(who) and bool(c.subject) and c.subject != NOBODY and \
        who not in t.owner_of(c.subject)


def _report_casts(t: Turn, works: list[Cast]) -> None:
    """I0. The log tells what was cast before what it did.  A blind caster reads the same line
    for a spell he aimed at another whether it works or not (a failure is told to its subject's
    side only, I9)."""
    working = {id(c) for c in works}
    for c in t.casts:
        if c.banked or (id(c) not in working and not _hidden_from(t, c, c.caster)):
            continue
        subj = c.subject
        aimed = f" at {t.name(subj)}" if subj else ""
        refl = f" (turned back by {t.name(c.reflected_by)}'s mirror)" if c.reflected_by else ""
        text = f"{t.name(wizard_id(c.caster))} casts {c.spell.name}{aimed}{refl}."
        mirror = {"reflected_by": c.reflected_by} if c.reflected_by else {}
        if id(c) in working:
            t.emit("cast", text, concerns={c.caster} | (t.owner_of(subj) if subj else set()),
                   caster=str(c.caster), spell=c.key, subject=subj, extra=mirror)
        else:
            t.events.append(Event(t.number, "cast", text, (c.caster,), tuple(sorted({
                "caster": str(c.caster), "spell": c.key, "subject": subj, **mirror}.items()))))


def _take_monsters(t: Turn, works: list[Cast]) -> None:
    """I1. Charm monster: "Control of the monster is transferred to the caster of the spell ...
    as of this turn ... including that turn."  It "only affects monsters (excluding
    elementals)"."""
    for c in works:
        if c.spell.does is Does.TAKE_MONSTER and c.subject in t.mons:
            m = t.mons[c.subject]
            if not m.is_elemental:
                m.controller = c.controller
                t.emit(c.key, f"{t.game.names[c.controller]} takes control of "
                       f"the {m.kind_name} {c.subject}.",
                       concerns={c.caster, c.controller} | t.owner_of(c.subject),
                       caster=str(c.controller), spell=c.key, target=c.subject,
                       monster=c.subject)


def _summons_take_shape(t: Turn, works: list[Cast]) -> None:
    """I2. Summons get their kind (an elemental: the type its subject chose)."""
    for c in works:
        if c.spell.category is not Category.SUMMON:
            continue
        m = t.summoned_by(c.id)
        if m is None:
            continue
        if m.kind == UNCHOSEN_ELEMENTAL:
            m.kind = elemental_kind(Element(t.chosen[decision_id(Ask.ELEMENT, c.id)]))
        article = "an" if m.kind_name[0] in "aeiou" else "a"  # an ogre, an ice elemental
        t.emit("summon", f"{t.name(wizard_id(c.caster))}'s {c.spell.name} brings "
               f"forth {article} {m.kind_name} ({m.base.id}) for "
               f"{t.game.names[m.controller]}.", concerns={c.caster, m.controller},
               monster=m.base.id, kind=m.kind, caster=str(c.caster), spell=c.key,
               controller=str(m.controller))


def _shields_and_doom(t: Turn, works: list[Cast]) -> None:
    """I3. Dispel magic: "all monsters are destroyed although they can attack that turn" and
    "As with a counter-spell it also acts as a shield for its subject"; shields; "Remove
    enchantment also destroys any monster upon which it is cast, although the monster can
    attack in that turn"."""
    if t.dispel:
        for c in t.casts:
            if c.spell.does is Does.DISPEL and c.subject:
                t.shield_extra.add(c.subject)
        for m in t.mons.values():
            if m.alive:
                m.destroy = "dispel magic"
    for c in works:
        # Protection from evil protects "For this turn and the following 3 turns" (its lasting
        # effect covers the turns after).
        if c.spell.shields and c.subject:
            t.shield_extra.add(c.subject)
        if c.spell.does is Does.REMOVE_ENCHANTMENT and c.subject in t.mons:
            t.mons[c.subject].destroy = "remove enchantment"


def _held_back(t: Turn, works: list[Cast]) -> None:
    """I5. Monsters that cannot attack this turn, and corpses raised in time to attack."""
    for c in works:
        if c.subject in t.mons and c.spell.on_monster in (OnMonster.DESTROY,
                                                          OnMonster.DESTROY_AFTER_ATTACK):
            # "Blinded monsters are instantly destroyed and cannot attack in that turn";
            # "Any monster made invisible is destroyed": not "instantly", so it attacks that
            # turn "whilst being destroyed" like any monster (docs/rules.md).
            m = t.mons[c.subject]
            if c.spell.on_monster is OnMonster.DESTROY:
                m.no_attack = f"destroyed by {c.spell.name.lower()}"
            m.destroy = m.destroy or c.spell.name.lower()
        if c.subject in t.mons and c.spell.on_monster is OnMonster.SKIPS_ATTACK and \
                not t.mons[c.subject].is_elemental:
            t.mons[c.subject].no_attack = f"under {c.spell.name.lower()}"
    for m in t.mons.values():
        if not m.alive or m.new or m.no_attack:
            continue
        if any(e.kind is EffectKind.PARALYSIS and e.active_on(m.own) for e in m.effects):
            # "it simply does not attack in the turn following the one in which the spell was
            # cast"
            m.no_attack = "paralysed"
        held = next((e for e in m.effects if e.active_on(m.own) and
                     t.spells[e.kind.value].on_monster is OnMonster.SKIPS_ATTACK), None)
        if held is not None:
            # (Warlocks) a spell that keeps a monster from attacking in the turn it hits,
            # made permanent: "repeated eternally"
            m.no_attack = f"under {t.spells[held.kind.value].name.lower()}"
    # Raise dead on a corpse happens before the attacks: "On the turn a monster is raised it
    # may attack."  (Finger of death on the same subject cancels it, below.)
    doomed = {c.subject for c in works if c.spell.does is Does.DEATH}
    for c in works:
        if c.spell.does is Does.RAISE_DEAD and c.subject and not t.alive(c.subject) and \
                c.subject not in doomed:
            t.raise_dead(c.subject, c.spell.amount)


def _time_stopped_strike(t: Turn, works: list[Cast]) -> None:
    """I6b. Where the ruleset says so (Warlocks), a monster time-stopped this turn attacks again
    at once, shields ignored, instead of taking an extra turn."""
    if not t.game.ruleset.variant.time_stop_strikes_now():
        return
    for c in works:
        m = t.mons.get(c.subject) if c.spell.does is Does.TIME_STOP else None
        if m is None or not m.alive or not m.acting or m.no_attack:
            continue
        t.emit(c.key, f"Time stops for {t.name(m.base.id)}: it strikes again, through "
               "any shield.", concerns={m.controller} | {c.caster}, caster=str(c.caster),
               spell=c.key, target=m.base.id, monster=m.base.id)
        t.shields_down = True
        try:
            monster_attack(t, m, works)
        finally:
            t.shields_down = False


def _spells(t: Turn, works: list[Cast]) -> None:
    """I7. Each working spell does what its row says, through its handler (effects.py)."""
    doomed = {c.subject for c in works if c.spell.does is Does.DEATH}
    raised = {c.subject for c in works if c.spell.does is Does.RAISE_DEAD}
    for c in works:
        if c.spell.does in (Does.DEATH, Does.RAISE_DEAD) and c.subject in doomed and \
                c.subject in raised:
            # "Certain spells cancel one another ... An obvious example is finger of death and
            # raise dead."
            t.emit("cancel", f"Finger of death and raise dead cancel on {t.name(c.subject)}.",
                   concerns=t.owner_of(c.subject), caster=str(c.caster), spell=c.key,
                   target=c.subject, outcome="clash")
            continue
        handler = HANDLERS.get(c.spell.does)
        if handler is not None:
            handler(t, c)


def _tell_blind_chooser(t: Turn, c: Cast) -> None:
    """I11. A blind wizard asked for a paralysis's hand (phase H) reads which hand he named,
    the same line whether or not it worked and without the gesture he cannot see."""
    did = decision_id(Ask.PARALYSED_HAND, c.subject) if c.subject else ""
    if c.banked or c.spell.asks is not Ask.PARALYSED_HAND or did not in t.chosen or \
            not _hidden_from(t, c, c.controller):
        return
    t.events.append(Event(t.number, c.key, f"{t.game.names[c.controller]} names "
                          f"{t.name(c.subject)}'s {hand_word(t.chosen[did])} for the "
                          f"{c.spell.name.lower()}.", (c.controller,), (
                              ("caster", str(c.controller)), ("hand", t.chosen[did]),
                              ("spell", c.key), ("target", c.subject))))


def _report_fizzles(t: Turn) -> None:
    """I9. Failed spells are reported."""
    for c in t.casts:
        if not c.works and not c.banked and c.why:
            subj_owner = t.owner_of(c.subject) if c.subject else set()
            t.emit("fizzle", f"{t.name(wizard_id(c.caster))}'s {c.spell.name} has no "
                   f"effect: {c.why}.", concerns=subj_owner | ({c.caster} if not subj_owner
                                                             else set()),
                   caster=str(c.caster), spell=c.key, outcome=c.cause,
                   extra={"subject": c.subject} if c.subject else None)


def _toughness(kind: str) -> int:
    """Damage that destroys a monster of this kind (an elemental not yet typed: as any)."""
    known = MONSTERS.get(kind) or MONSTERS[elemental_kind(Element.FIRE)]
    return known.toughness


def _land_damage(t: Turn) -> None:
    """I10. Damage and cures land together: "if a wizard was at ten points of damage and was
    hit simultaneously by a cure light wounds and a lightning bolt he would finish that turn on
    fourteen points"."""
    for w in t.wiz:
        if not w.alive and not w.raised:
            continue
        start = 0 if w.raised else w.damage
        w.damage = t.game.ruleset.variant.damage_after(start, w.incoming, w.cured, False)
        if w.killed or w.damage >= WIZARD_DEATH:
            w.alive = False
            t.emit("death", f"{w.base.name} dies.", public=True, wizard=str(w.base.index))
    for mid, m in t.mons.items():
        if not m.alive and not m.raised:
            continue
        start = 0 if m.raised else m.damage
        m.damage = t.game.ruleset.variant.damage_after(start, m.incoming, m.cured, True)
        if m.damage >= _toughness(m.kind):
            m.alive = False
            t.emit("monster_death", f"{t.name(mid)} is destroyed.", concerns={m.controller},
                   harms={m.controller}, monster=mid)
        elif m.destroy:
            m.alive = False
            t.emit("monster_death", f"{t.name(mid)} is destroyed ({m.destroy}).",
                   concerns={m.controller}, monster=mid)


def _enchantments(t: Turn, works: list[Cast]) -> None:
    """I11. Enchantments take hold on their subjects, with their durations (docs/rules.md,
    "durations"); remove enchantment, raise dead and dispel magic then strip what they strip."""
    working = {id(c) for c in works}
    for c in t.casts:
        if id(c) in working and c.spell.category is Category.ENCHANTMENT and c.subject:
            lay_enchantment(t, c)
        _tell_blind_chooser(t, c)
    # Removal, after the new ones so that "including those that are cast on the subject at the
    # same time" holds for anything that slipped through.
    strip = set(t.removal)
    if t.dispel:
        strip = set(t.living_ids()) | {wizard_id(w.base.index) for w in t.wiz}
    for bid in sorted(strip):  # (a set's order follows string hashes, which differ per run)
        w = t.wizard(bid)
        if w is not None:
            if w.effects:
                w.effects.clear()
                t.emit("disenchant", f"All enchantments on {w.base.name} are removed.",
                       concerns={w.base.index}, target=bid)
        elif bid in t.mons:
            t.mons[bid].effects.clear()


# ---------------------------------------------------------------------------------------------
# Phase J: deadlines, durations, the outcome, the next phase.
# ---------------------------------------------------------------------------------------------
def _phase_outcome(t: Turn) -> tuple[Result | None, Phase]:
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
            if _fatal(t, e) and e.end == w.own:
                if w.base.index in surrendering:
                    continue
                w.alive = False
                if e.source is not None and e.source != w.base.index:
                    # a spell his opponent's gestures completed killed him (docs/rules.md,
                    # "Readings": a surrender as one's disease kills the opponent)
                    t.spell_hits.setdefault(e.source, set()).add(wizard_id(w.base.index))
                t.emit("death", f"{w.base.name} succumbs to "
                       f"{t.spells[e.kind.value].name.lower()}.", public=True,
                       wizard=str(w.base.index), spell=e.kind.value,
                       extra=None if e.source is None else {"caster": str(e.source)})
                break
    for m in t.mons.values():
        if not m.acting or not m.alive:
            continue
        if any(_fatal(t, e) and e.end == m.own for e in m.effects):
            m.alive = False
            t.emit("monster_death", f"{t.name(m.base.id)} succumbs.", concerns={m.controller},
                   monster=m.base.id)
    # Durations count the subject's own turns; drop what has run out.
    hasted = _hasted_next(t)
    for w in t.wiz:
        if w.acting:
            w.own_turns += 1
        if wizard_id(w.base.index) in hasted:
            _make_room(w)
        w.effects = [e for e in w.effects if e.end is None or e.end > w.own_turns]
    for m in t.mons.values():
        if m.acting:
            m.own_turns += 1
        m.effects = [e for e in m.effects if e.end is None or e.end > m.own_turns]

    result = _melee_result(t) if t.game.is_melee else _duel_result(t, surrendering)
    if result is None and t.number >= MAX_TURNS:
        # Not a rule: this implementation plays no turn after MAX_TURNS (a record beyond it
        # could not be imported), so a duel still going ends here, drawn.
        result = Result(None, f"turn {MAX_TURNS:,} is the last this implementation plays (a "
                        "limit of this page, not of the rules): a draw",
                        tuple(w.base.index for w in t.wiz if w.alive and not w.surrendered)
                        if t.game.is_melee else ())
    if result is not None:
        what = "melee" if t.game.is_melee else "duel"
        t.emit("over", f"The {what} is over: " + (
            f"{t.game.names[result.winner]} wins ({result.how})." if result.winner is not None
            else f"a draw ({result.how})."), public=True,
            winner="" if result.winner is None else str(result.winner),
            surrendered=" ".join(str(w.base.index) for w in t.wiz if w.surrendered))
        return result, Phase(OVER, t.number, ())
    for w in t.wiz:
        if w.surrendered and not w.base.surrendered and w.alive:
            t.emit("leaves", f"{w.base.name} surrenders and leaves the melee; the others "
                   "fight on.", public=True, wizard=str(w.base.index))
    return None, _next_phase(t, hasted)


def _melee_result(t: Turn) -> Result | None:
    """J, a melee (docs/rules.md, "Melee"): the last wizard standing wins; when every wizard
    still in the fight goes out in one turn (dies or surrenders), it is a draw among them,
    unless one of them surrendered and his spells killed every one of the others who died
    ("deemed to have lost unless his gestures completed spells which killed his opponent")."""
    before = [w for w in t.wiz if w.base.in_fight]
    standing = [w for w in before if w.alive and not w.surrendered]
    if len(standing) > 1:
        return None
    if len(standing) == 1:
        return Result(standing[0].base.index, f"{standing[0].base.name} is the last wizard "
                      "standing")
    dead = [w.base.index for w in before if not w.alive]
    yielded = [w.base.index for w in before if w.alive]
    if len(yielded) == 1 and dead and all(wizard_id(d) in t.spell_hits.get(yielded[0], set())
                                          for d in dead):
        return Result(yielded[0], f"{t.game.names[yielded[0]]}'s spells killed the last of "
                      "the others as he surrendered")
    names = [t.game.names[w.base.index] for w in before]
    together = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]
    return Result(None, f"{together} went out together: a draw among them",
                  tuple(w.base.index for w in before))


def _duel_result(t: Turn, surrendering: set[int]) -> Result | None:
    """J, a duel: death, a posthumous draw, surrender."""
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
                result = Result(winner, how + f", killed by spells {t.game.names[winner]}'s "
                                "gestures completed, as he surrendered")
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
    return result


def _next_phase(t: Turn, hasted: list[str]) -> Phase:
    """J. What follows the turn: the hasted turn of the `hasted` wizards (Warlocks), then the
    extra turn of the beings time-stopped ("immediately takes an extra turn"), then the next
    normal turn.  Beings time-stopped in the normal turn before a hasted turn wait in it
    (`Phase.queued`) and take theirs after it."""
    queued = list(t.game.phase.queued) if t.hasted else []
    # (a melee: a monster whose master is out of the fight has nobody to take its extra turn)
    stopped = [b for b in queued + [b for b in t.time_stop_next if b not in queued]
               if t.alive(b) and t.wiz[_commander(t, b)].alive and
               not t.wiz[_commander(t, b)].surrendered]
    if hasted:
        actors = sorted(i for i in (wizard_index(b) for b in hasted) if i is not None)
        return Phase(TIME_STOP, t.number + 1, tuple(actors), time_stopped=tuple(hasted),
                     hasted=True, queued=tuple(stopped))
    if stopped:
        actors = sorted({_commander(t, b) for b in stopped})
        return Phase(TIME_STOP, t.number + 1, tuple(actors), time_stopped=tuple(stopped))
    alive = tuple(w.base.index for w in t.wiz if w.alive and not w.surrendered)
    return Phase(ORDERS, t.number + 1, alive)


def _hasted_next(t: Turn) -> list[str]:
    """J. Where haste gives a hasted turn (Variant.hasted_turns): the living wizards hastened
    in this normal turn, who take a hasted turn after it."""
    if t.kind != ORDERS or not t.game.ruleset.variant.hasted_turns():
        return []
    return [wizard_id(w.base.index) for w in t.wiz if w.alive and w.acting and
            any(e.kind is EffectKind.HASTE and e.active_on(w.own) for e in w.effects)]


def _make_room(w: WizardNow) -> None:
    """J. "Effects do not count down" in a hasted turn: it takes the wizard's next own-turn
    number, so every effect of his that holds in the turn just taken holds one turn longer
    (through the hasted turn) and one still to begin begins one turn later (on his next
    normal turn)."""
    now = w.own_turns
    w.effects = [replace(e, start=e.start + 1 if e.start > now else e.start,
                         end=e.end + 1 if e.end is not None and e.end >= now else e.end)
                 for e in w.effects]


def _fatal(t: Turn, e: Effect) -> bool:
    """Whether the effect kills its subject at its end (disease, poison)."""
    lasts = t.spells[e.kind.value].lasts
    return lasts is not None and lasts.fatal


def _commander(t: Turn, bid: str) -> int:
    """The wizard who writes orders for a being: himself, or a monster's controller."""
    index = wizard_index(bid)
    return index if index is not None else t.mons[bid].controller


def _freeze(t: Turn, result: Result | None, phase: Phase, entry: RecordEntry) -> Game:
    wizards = []
    for w in t.wiz:
        # (every field of Wizard, written out: dataclasses.replace costs more than the rest)
        # (a wizard who left a melee earlier keeps his state: he is out of the fight)
        wizards.append(Wizard(
            w.base.index, w.base.name, damage=w.damage,
            alive=w.alive if w.base.in_fight else w.base.alive, surrendered=w.surrendered,
            history=tuple(w.history), sequence_start=w.sequence_start, effects=tuple(w.effects),
            short_lightning_used=w.short_lightning_used, banked=w.banked,
            own_turns=w.own_turns))
    monsters = []
    for m in t.mons.values():
        known = m.known_to
        seers = tuple(v for v in t.game.everyone if not t.blind(v) and
                      (t.kind == ORDERS or t.wiz[v].acting))
        known = tuple(sorted(set(known) | set(seers) | {m.controller})) if not m.new else \
            tuple(sorted(set(seers) | {m.controller}))
        monsters.append(Monster(m.base.id, m.kind, m.controller, m.base.born_turn, m.damage,
                                m.alive, tuple(m.effects), m.last_target, m.own_turns, known))
    dice = dict(t.game.dice)
    return replace(
        t.game,
        wizards=tuple(wizards),
        monsters=tuple(monsters),
        next_monster=t.next_monster,
        phase=phase,
        result=result,
        log=t.game.log + tuple(t.events),
        record=(*t.game.record, entry),
        dice=tuple(sorted(dice.items())),
        turn=phase.turn,
    )


def _run_turn(game: Game, kind: TurnKind, orders: dict[int, Orders],
              decisions: dict[str, str]) -> Turn:
    """Phases A to I of one turn; stops after H if a decision is still to be asked."""
    stopped = frozenset(game.phase.time_stopped) if kind == TIME_STOP else frozenset()
    wiz, mons = scratch(game, kind, stopped)
    t = Turn(game, kind, game.phase.turn, orders, decisions, wiz, mons, stopped,
             next_monster=game.next_monster, hasted=kind == TIME_STOP and game.phase.hasted)
    _phase_gestures(t)
    _phase_recognise(t)
    _phase_release(t)
    settle(t, t.casts, create=False)
    _phase_removal(t)
    bank_and_extend(t)
    # Settle for real, with banked spells out of the turn and summons created.
    settle(t, t.casts, create=True)
    _phase_clash(t)
    _phase_removal(t)
    t.chosen = _phase_decisions(t)
    if t.needed:
        return t
    _phase_effects(t)
    return t


def resolve(game: Game, inputs: Mapping[int, Orders | DecisionInput]) -> tuple[Game, tuple[Event,
                                                                                              ...]]:
    """Resolve the current phase with the acting wizards' inputs; raises IllegalInput.

    Pure: the same game and inputs always give the same new game and events.
    """
    phase = game.phase
    problems: list[OrderError] = []
    if phase.kind == OVER:
        raise IllegalInput([OrderError("game-over", "the duel is over")])
    if set(inputs) != set(phase.actors):
        names = ", ".join(game.names[i] for i in phase.actors) or "nobody"
        problems.append(OrderError("wrong-actors", f"this phase needs input from {names}"))
    for i, inp in sorted(inputs.items()):
        if i in phase.actors:
            problems.extend(input_problems(game, i, inp))
    if problems:
        raise IllegalInput(problems)
    if phase.kind == DECISION:
        answers: dict[str, str] = {}
        for inp in inputs.values():
            assert isinstance(inp, DecisionInput)
            answers.update(dict(inp.answers))
        from .orders import parse_orders  # local: orders are stored as JSON in the phase
        pending = {i: parse_orders(o) for i, o in phase.pending}
        prior = dict(phase.answered)
        prior.update(answers)
        kind = turn_kind(phase.pending_kind)
        t = _run_turn(replace(game, phase=replace(phase, kind=kind,
                                                  actors=tuple(sorted(pending)))),
                      kind, pending, prior)
        entry = RecordEntry("decision", phase.turn,
                            tuple(sorted((i, inp.to_json()) for i, inp in inputs.items())))
        base_phase = replace(phase, kind=kind)
    else:
        orders = {i: inp for i, inp in inputs.items() if isinstance(inp, Orders)}
        kind = turn_kind(phase.kind)
        t = _run_turn(game, kind, orders, {})
        prior = {}
        entry = RecordEntry(phase.kind, phase.turn,
                            tuple(sorted((i, inp.to_json()) for i, inp in inputs.items())))
        base_phase = phase
    if t.needed:
        pending_orders = tuple(sorted((i, o.to_json()) for i, o in t.orders.items()))
        answered = tuple(sorted(prior.items()))
        actors = tuple(sorted({d.wizard for d in t.needed}))
        made = tuple((w.base.index, tuple(w.history[len(w.base.history):]))
                     for w in t.wiz if w.acting)
        wait = Phase(DECISION, phase.turn, actors, tuple(t.needed), pending_orders, kind,
                     base_phase.time_stopped, made, answered, base_phase.hasted,
                     base_phase.queued)
        new = replace(game, phase=wait, record=(*game.record, entry))
        return new, ()
    result, next_phase = _phase_outcome(t)
    new = _freeze(t, result, next_phase, entry)
    return new, tuple(t.events)
