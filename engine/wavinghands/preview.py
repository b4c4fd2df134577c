"""What a draft of orders would do: the help a player gets while choosing gestures.

For each gesture set and hand: the spells completed (and the choice among them), the spells
under way with the gestures still needed, the questions to answer (spell choice, targets, stab,
monsters, charm, release), warnings, and what the opponent could complete next turn as far as
the viewer can see.
"""

from __future__ import annotations

from typing import Any

from .legal import choose_allocation, effective_preview_rows, order_problems
from .model import HAND_WORDS, MAX_TURNS, NOBODY, Game, hand_word
from .orders import ALPHABET, STAB, OrderError, Orders, parse_orders
from .recognize import Candidate, allocations, completed, next_completions, under_way
from .situation import (
    being_name,
    constraints,
    controlled_monsters,
    default_stab,
    default_target,
    enemies,
    hand_questions,
    hands_named_later,
    may_aim,
    monster_default,
    opponent,
    sole_enemy,
    why_not_now,
    wizard_id,
)
from .spells import Ask, Category, EffectKind, SpellTable, UsualTarget
from .view import _targets, constraints_json, viewer_blind

JSON = dict[str, Any]


def _fill(draft: Any, sets: int) -> Any:
    """Blank hands in a draft count as nothing, so a half-written order can be previewed."""
    if not isinstance(draft, dict):
        return draft
    d = dict(draft)
    raw = d.get("gestures")
    if not isinstance(raw, list) or not raw:
        raw = [[None, None] for _ in range(sets)]
    filled = []
    for pair in raw[:2]:
        if not isinstance(pair, list) or len(pair) != 2:
            pair = [None, None]
        filled.append([g if g in ALPHABET else "-" for g in pair])
    d["gestures"] = filled
    return d


def _spell_json(table: SpellTable, key: str) -> JSON:
    s = table[key]
    return {"spell": key, "name": s.name, "category": s.category.value}


def preview(game: Game, v: int, draft: Any) -> JSON:
    """The preview of a (possibly partial) draft of orders for wizard v."""
    c = constraints(game, v)
    try:
        orders = parse_orders(_fill(draft, c.sets))
    except OrderError as e:
        return {"sets": [], "questions": [], "warnings": [], "problems": [e.to_json()],
                "opponent_next": _opponent_next(game, v), "constraints": constraints_json(game, v)}
    w = game.wizard(v)
    table = game.ruleset.table
    rows = effective_preview_rows(game, v, orders)
    base = len(w.history)
    sets_out: list[JSON] = []
    questions: list[JSON] = []
    warnings: list[JSON] = []
    problems: list[JSON] = []
    targets = _targets(game, v)
    per_set = _chosen_per_set(game, v, rows, orders)
    # Only the spells actually chosen summon anything: one question per monster that will come.
    new_refs = _new_refs(table, v, per_set)
    short_used = w.short_lightning_used
    for si in range(len(orders.gestures)):
        idx = base + si
        cands, chosen, problem = per_set[si]
        choices = [ch for ch in orders.casts if ch.set_index == si]
        if problem is not None:
            problems.append(problem.to_json())
        completes = {h: [dict(_spell_json(table, x.spell), sequence=x.sequence) for x in cands
                         if x.hand == h] for h in ("L", "R", "B")}
        way = {h: [] for h in ("L", "R", "B")}  # type: dict[str, list[JSON]]
        for u in under_way(rows, w.sequence_start, idx, short_used, table):
            way[u.hand].append(dict(_spell_json(table, u.spell), sequence=u.sequence, done=u.done,
                                    remaining=u.remaining))
        for h in way:
            way[h].sort(key=lambda x: (x["remaining"].count("-"), x["name"]))
        allocs = allocations(cands, game.ruleset.may_withhold)
        if len(allocs) > 1:
            options = [_allocation_option(table, si, a.spells, cands) for a in allocs]
            key = sorted((x.hand, x.spell) for x in chosen)
            index = next((i for i, a in enumerate(allocs)
                          if sorted((x.hand, x.spell) for x in a.spells) == key), 0)
            questions.append({"kind": "spell_choice", "set": si, "options": options,
                              "chosen": [{"hand": x.hand, "spell": x.spell} for x in chosen],
                              "chosen_index": index,
                              "prompt": "One gesture completes several spells: choose."})
        for x in chosen:
            s = table[x.spell]
            if x.sequence in s.once_per_battle:
                short_used = True
            if s.blanket:
                warnings.append(_warning("storm", "caution", f"{s.name} will go off: it hits "
                                         "everything not resistant, you included."))
                continue
            ch = next((y for y in choices if y.hand == x.hand), None)
            opts = [t for t in targets if s.discardable or t["id"] != NOBODY]
            if s.category is not Category.SUMMON:
                opts = opts[:-1] + [{"id": r["id"], "name": r["name"]} for r in new_refs] \
                    + opts[-1:]
            opts = [t for t in opts if may_aim(game, v, t["id"])]  # (blind, invisible)
            usual = default_target(game, s, v)
            aim = ch.target if ch and ch.target else usual
            questions.append({"kind": "target", "set": si, "hand": x.hand, "spell": x.spell,
                              "name": s.name, "default": usual,
                              "chosen": aim, "options": opts})
            warnings.extend(_misaimed(game, v, x.spell, aim, si, x.hand))
        row = rows[idx]
        if row == ("P", "P"):
            # A slip of both thumbs loses the duel: sealing it takes a second press.
            warnings.append(_warning("surrender", "danger",
                                     "Both hands show P: this SURRENDERS the duel.",
                                     confirm=True))
        if STAB in row:
            me = default_stab(game, v) == wizard_id(v)  # a blind Warlock stabs only himself
            questions.append({"kind": "stab", "set": si, "default": default_stab(game, v),
                              "options": [t for t in targets if t["id"] != NOBODY and
                                          (t["id"] != wizard_id(v) or me) and
                                          may_aim(game, v, t["id"])]})
        if "C" in row and row[0] != row[1]:
            warnings.append(_warning("one-handed-clap", "caution",
                                     "A clap with one hand is nothing: C needs both hands."))
        sets_out.append({"set": si, "gestures": list(row), "completes": completes,
                         "under_way": way, "casts": [dict(_spell_json(table, x.spell), hand=x.hand,
                                                          set=si) for x in chosen]})
    for m in controlled_monsters(game, v):
        for aim in orders.monster_targets(m.id) or ():
            warnings.extend(_monster_misaimed(game, v, m.id, aim))
        questions.append({"kind": "monster", "monster": m.id, "name": m.kind.replace("_", " "),
                          "label": f"Your {m.kind.replace('_', ' ')} ({m.id}) attacks",
                          "default": monster_default(game, v),
                          "options": [t for t in targets if t["id"] != m.id]})
    # "Monsters may attack on the turn in which they are summoned": a summons cast at oneself
    # gives a monster to direct now ("stating which at the time he writes his gestures").
    for ref in new_refs:
        if table[ref["spell"]].asks is not None:
            continue  # elementals take no orders (their type is asked after the reveal)
        for aim in orders.monster_targets(ref["id"]) or ():
            warnings.extend(_monster_misaimed(game, v, ref["id"], aim))
        questions.append({"kind": "monster", "monster": ref["id"], "name": ref["name"],
                          "spell": ref["spell"],
                          "label": f"{ref['name'][0].upper()}{ref['name'][1:]} attacks",
                          "default": monster_default(game, v),
                          "options": targets})
    if c.charm_target is not None:
        who, hand = c.charm_target
        questions.append({"kind": "charm", "wizard": who, "hand": hand,
                          "options": sorted(ALPHABET),
                          "stab_targets": [t for t in targets
                                           if t["id"] not in (wizard_id(who), NOBODY)],
                          "stab_default": wizard_id(v) if who != v else
                          _or_nobody(sole_enemy(game, v)),
                          "prompt": f"You control {game.names[who]}'s "
                                    f"{hand_word(hand) if hand else 'charmed hand'}: choose its "
                                    "gesture."})
    for hq in hand_questions(game, v):
        # Where the rules have him name the hand in these orders (Orders.hands).
        what = "paralyse" if hq.ask is Ask.PARALYSED_HAND else "control"
        questions.append({"kind": "hand", "id": hq.id, "ask": hq.ask.value,
                          "wizard": hq.subject, "options": list(hq.options),
                          "labels": [hand_word(h) for h in hq.options],
                          "default": hq.options[0],
                          "chosen": orders.hand_for(hq.id) or hq.options[0],
                          "prompt": f"Which of {game.names[hq.subject]}'s hands do you "
                                    f"{what} this turn?"})
    if w.banked is not None:
        banked = table[w.banked.spell]
        kept = w.banked.target  # banked with its target: it keeps it
        questions.append({"kind": "release", "spell": banked.key, "name": banked.name,
                          "default": kept or default_target(game, banked, v),
                          "options": [t for t in targets if (t["id"] == kept if kept else
                                                             may_aim(game, v, t["id"]))]})
    questions.extend(_bank_and_extend(game, v, [x for s in sets_out for x in s["casts"]]))
    if not problems:
        problems = [p.to_json() for p in order_problems(game, v, orders)]
    if c.forfeit:
        questions.append({"kind": "forfeit", "default": False, "chosen": orders.forfeit,
                          "prompt": "You are under a permanent enchantment: forfeit the duel?"})
    if orders.forfeit:
        warnings.append(_warning("forfeit", "danger", "You FORFEIT the duel.", "forfeit"))
    if game.phase.turn >= MAX_TURNS:
        warnings.append(_warning("last-turn", "info", f"Turn {MAX_TURNS:,} is the last this "
                                 "implementation plays: if the duel does not end in it, it is "
                                 "a draw."))
    for hq in hands_named_later(game, v):
        # Not asked in this turn: its subject takes no turn in it (legal: `hand-not-now`).
        what = "paralysed" if hq.ask is Ask.PARALYSED_HAND else "charmed"
        warnings.append(_warning("hand-later", "info", f"You name {game.names[hq.subject]}'s "
                                 f"{what} hand in your orders for his next turn, not now: "
                                 f"{why_not_now(game, hq.subject)}."))
    if c.same_gesture:
        warnings.append(_warning("maladroit", "info", "You are maladroit: both hands make one "
                                 "gesture this turn (or one stabs, the other does nothing)."))
    if c.confused:
        warnings.append(_warning("confused", "info", "You are confused: after the reveal a die "
                                 "may change one gesture."))
    return {"sets": sets_out, "questions": questions, "warnings": warnings,
            "problems": problems, "opponent_next": _opponent_next(game, v, orders.charm),
            "constraints": constraints_json(game, v)}


def _warning(code: str, severity: str, text: str, field: str | None = None,
             confirm: bool = False) -> JSON:
    """A warning for the player: severity is info, caution or danger; one with a `field` is
    about that answer, and it or one with `confirm` asks to be confirmed before sealing."""
    d: JSON = {"code": code, "severity": severity, "text": text}
    if field is not None:
        d["field"] = field
    if field is not None or confirm:
        d["confirm"] = True
    return d


def _own_side(game: Game, v: int, target: str) -> str | None:
    """Words for a target on the caster's own side ("you", "your goblin (M1)"), or "nobody";
    None for anyone else."""
    if target == NOBODY:
        return "nobody"
    if target == wizard_id(v):
        return "yourself"
    if target.startswith(f"new:{v}:"):
        return "the monster you are summoning"
    m = game.monster(target) if target.startswith("M") else None
    if m is not None and m.controller == v:
        return f"your own {m.kind.replace('_', ' ')} ({m.id})"
    return None


def _misaimed(game: Game, v: int, spell: str, aim: str, si: int, hand: str) -> list[JSON]:
    """A spell the table aims at the opponent by default (it hurts or hinders) sent at nobody,
    at oneself or at one's own monster: almost always a slip of the keyboard, so say so."""
    s = game.ruleset.table[spell]
    if s.usual_target is not UsualTarget.OPPONENT:
        return []
    where = _own_side(game, v, aim)
    if where is None:
        return []
    code = "aimed-at-nobody" if aim == NOBODY else "aimed-at-own-side"
    return [_warning(code, "danger", f"{s.name} is aimed at {where}.",
                     f"casts.{si}.{hand}")]


def _monster_misaimed(game: Game, v: int, monster: str, aim: str) -> list[JSON]:
    """A monster of v's sent at v or at v's own monster (a monster told to attack nobody is a
    plain choice, not a slip: it is the rules' way to hold it back)."""
    where = _own_side(game, v, aim)
    if where is None or aim in (NOBODY, monster):
        return []
    name = being_name(game, monster) if monster.startswith("M") else "The monster you summon"
    return [_warning("monster-at-own-side", "danger", f"{name} is sent to attack {where}.",
                     f"monsters.{monster}")]


HAND_LABEL = HAND_WORDS


def _allocation_option(table: SpellTable, si: int, spells: Any, cands: Any) -> JSON:
    """One way to cast from a gesture set: its label and the exact `casts` entries to send
    (with `spell: null` for a hand held back under the withhold house rule)."""
    casts: list[JSON] = [{"set": si, "hand": x.hand, "spell": x.spell} for x in spells]
    if not any(x.hand == "B" for x in spells):
        for hand in ("L", "R", "B"):
            if not any(x.hand == hand for x in spells) and any(c.hand == hand for c in cands):
                if hand == "B" and spells:
                    continue
                casts.append({"set": si, "hand": hand, "spell": None})
    names = [f"{table[x.spell].name} ({HAND_LABEL[x.hand]})" for x in spells]
    label = " and ".join(names) if names else "Cast nothing (house rule: withhold)"
    return {"label": label, "casts": casts}


def _bank_and_extend(game: Game, v: int, casts: list[JSON]) -> list[JSON]:
    """Questions for a waiting delayed effect or permanency: which of this turn's spells it
    takes (the rules: "he chooses which is to be banked", "he chooses which has its duration
    extended")."""
    w = game.wizard(v)
    table = game.ruleset.table
    own = w.own_turns + 1
    out: list[JSON] = []
    options = [{"set": x.get("set", 0), "hand": x["hand"], "spell": x["spell"], "name": x["name"]}
               for x in casts]
    variant = game.ruleset.variant
    # Where only an order makes them act, the question is optional and its default is none.
    ordered = {"optional": True, "default": None}
    if w.effect(EffectKind.DELAYED_EFFECT, own) is not None and options and \
            (w.banked is None or variant.ordered_bank()):
        q: JSON = {"kind": "bank", "options": options, "default": options[0],
                   "prompt": "Delayed effect waits for your next spell: which one is banked?"}
        if variant.ordered_bank():
            q.update(ordered, prompt="Delayed effect waits: bank one of these spells? (A "
                     "later bank replaces the banked spell; it keeps its target.)")
        out.append(q)
    eligible = [o for o in options if table[o["spell"]].may_be_permanent]
    if w.effect(EffectKind.PERMANENCY, own) is not None and eligible:
        q = {"kind": "permanent", "options": eligible, "default": eligible[0],
             "prompt": "Permanency waits for your next enchantment: which one is made "
                       "permanent?"}
        if variant.ordered_permanency():
            q.update(ordered, prompt="Permanency waits: make one of these permanent?")
        out.append(q)
    return out


def _chosen_per_set(game: Game, v: int, rows: list[tuple[str, str]],
                    orders: Orders) -> list[tuple[tuple[Candidate, ...], list[Candidate],
                                                  OrderError | None]]:
    """Per gesture set: the spells completed, those the orders cast, and why not if they
    cannot (a set after a once-per-battle sequence no longer completes it)."""
    w = game.wizard(v)
    table = game.ruleset.table
    short_used = w.short_lightning_used
    out: list[tuple[tuple[Candidate, ...], list[Candidate], OrderError | None]] = []
    for si in range(len(orders.gestures)):
        cands = completed(rows, w.sequence_start, len(w.history) + si, short_used, table)
        choices = [ch for ch in orders.casts if ch.set_index == si]
        try:
            chosen = list(choose_allocation(cands, choices, game.ruleset.may_withhold, si,
                                            table).spells)
            problem = None
        except OrderError as e:
            chosen, problem = [], e
        if any(x.sequence in table[x.spell].once_per_battle for x in chosen):
            short_used = True
        out.append((cands, chosen, problem))
    return out


def _new_refs(table: SpellTable, v: int,
              per_set: list[tuple[Any, list[Candidate], Any]]) -> list[JSON]:
    """Targets for the monsters this draft summons: only summons actually chosen, one per hand
    (`new:<wizard>:<hand>[:<set>]`, the id the orders use for it)."""
    out: list[JSON] = []
    for si, (_, chosen, _) in enumerate(per_set):
        for x in chosen:
            s = table[x.spell]
            if s.category is Category.SUMMON:
                suffix = f":{si}" if si else ""
                out.append({"id": f"new:{v}:{x.hand}{suffix}", "spell": x.spell,
                            "name": f"the {s.summons.replace('_', ' ')} you are summoning"})
    return out


def _or_nobody(index: int | None) -> str:
    """A wizard's id, or nobody."""
    return NOBODY if index is None else wizard_id(index)


def _opponent_next(game: Game, v: int, charm_gesture: str | None = None) -> list[JSON]:
    """What each other wizard could complete next (a duel: the opponent's, as
    _enemy_next; a melee: every other wizard's in the fight, each entry with its `wizard`)."""
    if not game.is_melee:
        return _enemy_next(game, v, opponent(v), charm_gesture)
    out: list[JSON] = []
    for x in enemies(game, v):
        out.extend(dict(e, wizard=x) for e in _enemy_next(game, v, x, charm_gesture))
    return out


def _enemy_next(game: Game, v: int, enemy: int, charm_gesture: str | None = None) -> list[JSON]:
    """Spells the opponent could complete with his next gestures, from what v has seen.

    A hand v controls this turn (charm person: "the caster of the spell writes down the gesture
    he wants the subject's hand to perform") completes only what v writes for it: its entries
    are marked `yours`, and once v has chosen the gesture only the spells it completes remain.
    """
    o = game.wizard(enemy)
    c = constraints(game, v)
    held = c.charm_target[1] if c.charm_target is not None and (
        not game.is_melee or c.charm_target[0] == enemy) else None
    if not o.alive or viewer_blind(game, v):
        return []
    rows = [("?", "?") if r.hidden_to(v, enemy) else (r.left, r.right) for r in o.history]
    if not rows:
        return []
    out = []
    seen = set()
    table = game.ruleset.table
    # Only what v's view gives: the opponent's anti-spell start and used short lightning are his
    # own knowledge (view.py sends them to their owner only), so v reads his whole visible record.
    for u in next_completions(rows, 0, False, table):
        if u.done == 0:
            continue
        key = (u.hand, u.spell)
        if key in seen:
            continue
        seen.add(key)
        entry = dict(_spell_json(table, u.spell), hand=u.hand, needs=u.remaining)
        if held is not None and u.hand in (held, "B"):
            # a two-handed step ("(w") needs the same gesture from the hand v writes
            if charm_gesture is not None and u.remaining.lstrip("(").upper() != charm_gesture:
                continue
            entry["yours"] = True
        out.append(entry)
    out.sort(key=lambda x: (x["hand"], x["name"]))
    return out
