"""The turn-by-turn account of a duel: the states a game's record passes through, the notes a
player writes beside a gesture history, and the views for replaying a duel step by step.

Notes are facts the engine knows, filtered to what the viewer may know (as `view` filters):
- which gestures completed which spell that was cast (a "cast" event the viewer saw);
- which hands were not the wizard's own choice: forced by paralysis or amnesia, written by a
  charmer, limited by fear, open to confusion's die (only where the viewer knew the effect);
- what a wizard's visible gestures are building (spells under way).
"""

from __future__ import annotations

from collections import OrderedDict, deque
from typing import Any

from .duel import step
from .model import DECISION, ORDERS, TIME_STOP, Game, canonical_json
from .recognize import completed, under_way
from .record import FORMAT, RecordError, export_record, replay, replay_imported
from .sessions import REDO_ROWS, Kept, phase_key
from .situation import BY_CHARM, constraints
from .spells import EffectKind
from .view import view, viewer_blind

JSON = dict[str, Any]

# Which effect a constraint's reason comes from (a viewer notes an opponent's forced hand only
# if he knew of that effect); otherwise the reason is the effect's own name.
WHY_EFFECT = {BY_CHARM: EffectKind.CHARM_PERSON.value}
BUILDING_SHOWN = 6

History = tuple[str, tuple[str, ...]]  # a game's set-up and every phase's input (_key)

_CACHE: OrderedDict[History, list[Game]] = OrderedDict()
_CACHE_SIZE = 8
_RECORDS: OrderedDict[str, list[Game]] = OrderedDict()  # record text -> its states
# The notes worked out so far, by history: a view of a duel's next state (a game one phase on,
# from its JSON) redoes only the rows its step could change, as a kept duel's does
# (sessions.step_kept).  Bounded, and keyed by value: a game continues an entry only if its
# log and histories begin with the entry's (_continues).
_BY_HISTORY: OrderedDict[History, Kept] = OrderedDict()
_KEYS: deque[tuple[Game, History]] = deque(maxlen=4)  # the last games' keys (held: frozen)


def _header(game: Game) -> str:
    return canonical_json({"names": list(game.names), "ruleset": game.ruleset.to_json(),
                           "seed": game.seed, "dice": dict(game.dice)})


def _key(game: Game) -> History:
    """What identifies a game's history: its set-up and every phase's input (written once per
    game object: a game is a frozen value, and a call asks it of the same game several times,
    as does a draft's preview at each gesture picked)."""
    for known, key in _KEYS:
        if known is game:
            return key
    key = _header(game), tuple(canonical_json(e.to_json()) for e in game.record)
    _KEYS.append((game, key))
    return key


def states(game: Game) -> list[Game]:
    """Every state of this game from its start, by replaying its own record (each state one
    phase further).  A game one phase on from a cached one costs one step, not a replay."""
    head, phases = _key(game)
    found = _CACHE.get((head, phases))
    if found is None:
        prefix = _CACHE.get((head, phases[:-1])) if phases else None
        if prefix is not None:
            entry = game.record[-1]
            nxt, _ = step(prefix[-1], {k: v for k, v in entry.inputs})
            found = [*prefix, nxt]
        else:
            found = replay(export_record(game))
        _CACHE[(head, phases)] = found
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    _CACHE.move_to_end((head, phases))
    return found


def _known_effects(s: Game, who: int, v: int) -> set[str]:
    """Kinds of the effects on `who` that viewer v knew of in state s."""
    return {e.kind for e in s.wizard(who).effects if who == v or v in e.known_to}


def _row_notes(s: Game | None, who: int, v: int) -> JSON:
    """Why a row's hands were not (wholly) the wizard's own choice, as far as v knew."""
    if s is None:
        return {}
    c = constraints(s, who)
    known = _known_effects(s, who, v)
    notes: JSON = {}
    forced = {}
    for hand in ("L", "R"):
        hc = c.hand(hand)
        if hc.why and WHY_EFFECT.get(hc.why, hc.why) in known:
            forced[hand] = hc.why
    if forced:
        notes["forced"] = forced
    if c.banned and EffectKind.FEAR in known:
        notes[EffectKind.FEAR.value] = True  # the page reads the note by the effect's name
    if c.confused and EffectKind.CONFUSION in known:
        notes["confused"] = True
    return notes


def history_notes(game: Game, v: int) -> JSON:
    """Per wizard ("0", "1"): a note per history row (aligned with view's rows) and what his
    visible gestures are building; everything as viewer v may know it.  The lists are the
    caller's; the notes in them are shared with the next calls' (never change one)."""
    key = _key(game)
    k = _BY_HISTORY.get(key)
    # The same set-up and record, but perhaps not the same histories (a saved game altered in
    # an old row): notes are reused only for a game that continues the one they were worked
    # out for, as _seed carries them.
    if k is None or (k.game is not game and not _continues(k.game, game)):
        k = Kept(game)
        _seed(k, key)
    _remember(key, k)
    return _kept_notes(k, v)


def _remember(key: History, k: Kept) -> None:
    _BY_HISTORY[key] = k
    _BY_HISTORY.move_to_end(key)
    while len(_BY_HISTORY) > _CACHE_SIZE:
        _BY_HISTORY.popitem(last=False)


def _seed(k: Kept, key: History) -> None:
    """Start `k` (a duel's state with no notes yet) from the notes worked out for the same
    history, or for the history one phase shorter (the state before it: a view of the last
    game), when k's game continues that state's."""
    head, phases = key
    same = _BY_HISTORY.get(key)
    src = same if same is not None else _BY_HISTORY.get((head, phases[:-1])) if phases else None
    if src is None or src is k or not _continues(src.game, k.game):
        return
    if src.states is not None:
        k.states = list(src.states) if same is not None else [*src.states, k.game]
        k.first_state = dict(src.first_state)
        k.first_state.setdefault(phase_key(k.game), k.game)
    k.casts = {c: list(spells) for c, spells in src.casts.items()}
    k.casts_upto = src.casts_upto
    k.rows = {vw: (list(r), list(n)) for vw, (r, n) in src.rows.items()}


def _continues(before: Game, game: Game) -> bool:
    """Whether `game`'s log and each wizard's history begin with `before`'s (what the notes of
    `before` were worked out from)."""
    if len(before.wizards) != len(game.wizards) or len(before.log) > len(game.log):
        return False
    return before.log == game.log[:len(before.log)] and all(
        b.history == g.history[:len(b.history)]
        for b, g in zip(before.wizards, game.wizards, strict=True))


def row_note(game: Game, before: Game | None, who: int, v: int, rows: list[tuple[str, str]],
             i: int, cast: set[str]) -> JSON:
    """The note beside row `i` of wizard `who`'s visible `rows` for viewer v: its forced
    hands (as far as v knew in `before`, the state it was written in) and the spells of
    `cast` (those v saw him cast that turn) its gestures completed."""
    note = _row_notes(before, who, v)
    start = before.wizard(who).sequence_start if before is not None else 0
    used = before.wizard(who).short_lightning_used if before is not None else False
    table = game.ruleset.table
    done = [{"hand": x.hand, "spell": x.spell, "name": table[x.spell].name,
             "sequence": x.sequence, "first": i - x.length + 1}
            for x in (completed(rows, start, i, used, table) if cast else ())
            if x.spell in cast]
    if done:
        note["cast"] = done
    return note


def kept_notes(k: Kept, v: int) -> JSON:
    """history_notes(k.game, v) for a kept duel (wavinghands.sessions), computed for the rows
    its ancestors' views had not settled (the last REDO_ROWS of them, and the new ones); a
    duel opened from its JSON starts from what a view of its previous state worked out."""
    if not k.rows:
        key = _key(k.game)
        _seed(k, key)
        _remember(key, k)
    return _kept_notes(k, v)


def _kept_notes(k: Kept, v: int) -> JSON:
    game = k.game
    casts = _casts_seen(k)
    out: JSON = {}
    for w in game.wizards:
        rows, notes = k.rows.setdefault((v, w.index), ([], []))
        redo = max(0, min(len(notes), len(w.history)) - REDO_ROWS)
        del rows[redo:], notes[redo:]
        for i in range(redo, len(w.history)):
            r = w.history[i]
            if r.hidden_to(v, w.index):
                rows.append(("?", "?"))
                notes.append({})
                continue
            rows.append((r.left, r.right))
            cast = {spell for spell, seen in casts.get((r.turn, w.index), ()) if v in seen}
            notes.append(row_note(game, _state_before(k, r.turn, r.kind), w.index, v, rows, i,
                                  cast))
        out[str(w.index)] = {"rows": list(notes),  # (the caller sends them and keeps none)
                             "building": _building(game, w.index, v, rows)}
    return out


def _building(game: Game, who: int, v: int, rows: list[tuple[str, str]]) -> list[JSON]:
    """Spells the wizard's visible gestures are building: at least two steps made, or one step
    from completion; nearest first."""
    w = game.wizard(who)
    if not rows or not w.alive or (who != v and viewer_blind(game, v)):
        return []
    table = game.ruleset.table
    seen: set[tuple[str, str]] = set()
    out = []
    for u in sorted(under_way(rows, w.sequence_start, len(rows) - 1, w.short_lightning_used,
                              table),
                    key=lambda u: (u.remaining.count("-"), -u.done, table[u.spell].name)):
        if (u.hand, u.spell) in seen or (u.done < 2 and "-" in u.remaining):
            continue
        seen.add((u.hand, u.spell))
        out.append({"hand": u.hand, "spell": u.spell, "name": table[u.spell].name,
                    "done": u.done, "remaining": u.remaining})
    return out[:BUILDING_SHOWN]


def _events_json(game: Game, v: int, since: int) -> list[JSON]:
    out = []
    for e in game.log[since:]:
        if v in e.visible_to:
            d = e.to_json()
            del d["visible_to"]
            out.append(d)
    return out


def _step_label(s: Game, index: int) -> str:
    """What a step of the replay shows, in words."""
    if index == 0:
        return "Before the first turn"
    entry = s.record[index - 1]
    what = {ORDERS: "", DECISION: " (decisions)", TIME_STOP: " (time stopped)"}
    return f"After turn {entry.turn}{what.get(entry.kind, '')}"


def replay_step(record: Any, index: int) -> JSON:
    """One step of a record's replay: both wizards' views after `index` phases (0 = before
    the first), the events of that step as each saw them, and how many steps there are."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(f"not a Waving Hands record (its \"format\" is not {FORMAT!r})")
    key = canonical_json(record)
    all_states = _RECORDS.get(key)
    if all_states is None:
        all_states = replay_imported(record)
        _RECORDS[key] = all_states
        while len(_RECORDS) > _CACHE_SIZE:
            _RECORDS.popitem(last=False)
    last = all_states[-1]
    if not 0 <= index < len(all_states):
        raise RecordError(f"this record has steps 0 to {len(all_states) - 1}, not {index}")
    s = all_states[index]
    before = all_states[index - 1] if index else s
    views = []
    for v in s.everyone:
        d = view(s, v)
        d["notes"] = history_notes(s, v)
        views.append(d)
    return {"step": index, "steps": len(all_states), "label": _step_label(last, index),
            "views": views,
            "events": {str(v): _events_json(s, v, len(before.log) if index else len(s.log))
                       for v in s.everyone}}


def _states_of(k: Kept) -> list[Game]:
    """Every state of the kept duel from its start (replayed once per opened duel)."""
    if k.states is None:
        k.states = list(states(k.game))
        k.first_state = {}
        for s in k.states:
            k.first_state.setdefault(phase_key(s), s)
    return k.states


def _casts_seen(k: Kept) -> dict[tuple[int, int], list[tuple[str, frozenset[int]]]]:
    """(turn, caster) -> the spells cast then and who saw each, indexed up to the log's end."""
    for e in k.game.log[k.casts_upto:]:
        if e.type == "cast":
            data = dict(e.data)
            caster = data.get("caster", "")
            if isinstance(caster, str) and caster.isdigit():
                k.casts.setdefault((e.turn, int(caster)), []).append(
                    (str(data["spell"]), frozenset(e.visible_to)))
    k.casts_upto = len(k.game.log)
    return k.casts


def _state_before(k: Kept, turn: int, kind: str) -> Game | None:
    """The state in which the orders that made a history row were written: the first of its
    phase (orders, or a time stop) and turn."""
    _states_of(k)
    return k.first_state.get((TIME_STOP if kind == TIME_STOP else ORDERS, turn))
