"""Golden playthroughs: whole scripted duels written out as readable transcripts.

    python3 tests/golden/make_golden.py            # rewrite tests/golden/*.txt
    python3 tests/golden/make_golden.py --check    # compare only (exit 1 on a difference)

Each transcript shows, phase by phase, the inputs the referee received and then both wizards'
views of the new state, rendered from `wavinghands.view.view` alone (so a transcript shows
exactly what each player may know): the gesture rows added (two columns: the viewer and his
opponent; `?` = unseen), damage, enchantments, monsters, what the viewer is asked to do, and the
log lines he may read.  At the end, each wizard's whole two-column history as he sees it.

tests/test_golden.py regenerates the transcripts in memory and compares them with these files.
Read a transcript against the rules before accepting a change to it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
try:
    import wavinghands  # noqa: F401  (the installed engine, e.g. the wheel inside Pyodide)
except ImportError:  # a source checkout: use engine/ as tests/conftest.py does
    sys.path.insert(0, str(TESTS.parent / "engine"))

from dsl import Duel, cast  # noqa: E402

from wavinghands.model import Game  # noqa: E402
from wavinghands.view import view  # noqa: E402

NAMES = ("A", "B")


# ---------------------------------------------------------------------------------------------
# Rendering (from views only)
# ---------------------------------------------------------------------------------------------
KIND_MARK = {"normal": "", "haste": " (haste)", "time_stop": " (time stopped)"}


def _row_key(r: dict[str, Any]) -> tuple[int, int]:
    return (r["turn"], {"normal": 0, "haste": 1, "time_stop": 2}[r["kind"]])


def _two_columns(v: dict[str, Any], keys: list[tuple[int, int]] | None = None) -> list[str]:
    """Rows of both wizards' histories side by side, the viewer first."""
    me, other = v["wizard"], v["opponent"]
    mine = {_row_key(r): r for r in v["wizards"][me]["history"]}
    theirs = {_row_key(r): r for r in v["wizards"][other]["history"]}
    if keys is None:
        keys = sorted(set(mine) | set(theirs))
    out = [f"      {'turn':<22}{NAMES[me] + ' (you)':<12}{NAMES[other]}"]
    for k in keys:
        r = mine.get(k) or theirs.get(k)
        assert r is not None
        label = f"{r['turn']}{KIND_MARK[r['kind']]}"

        def cell(x: dict[str, Any] | None) -> str:
            return "" if x is None else f"{x['left']} {x['right']}"

        out.append(f"      {label:<22}{cell(mine.get(k)):<12}{cell(theirs.get(k))}".rstrip())
    return out


def _effects(w: dict[str, Any]) -> str:
    if w["effects"] is None:
        return "(unseen)"
    if not w["effects"]:
        return "none"
    parts = []
    for e in w["effects"]:
        if e["permanent"]:
            span = "permanent"
        elif e["starts_in"]:
            span = f"from next turn, {e['turns_left']} turn(s)"
        else:
            span = f"{e['turns_left']} turn(s) left"
        detail = f" [{e['detail']}]" if e.get("detail") else ""
        parts.append(f"{e['name']}{detail} ({span})")
    return "; ".join(parts)


def _monsters(v: dict[str, Any]) -> str:
    if not v["monsters"]:
        return "none"
    parts = []
    for m in v["monsters"]:
        state = "" if m["alive"] else ", dead"
        parts.append(f"{m['id']} {m['name']} of {NAMES[m['controller']]} "
                     f"({m['damage']}/{m['toughness']} damage{state})")
    return "; ".join(parts)


def _asked(v: dict[str, Any]) -> list[str]:
    p = v["phase"]
    if p["kind"] == "over":
        r = v["result"]
        winner = "nobody" if r["winner"] is None else NAMES[r["winner"]]
        return [f"    duel over: winner {winner} ({r['how']})"]
    if p["kind"] == "waiting":
        return [f"    waits (turn {p['turn']} is not his to see)"]
    if not v["to_act"]:
        if p["kind"] == "decision":
            who = ", ".join(NAMES[i] for i in p["waiting_for"])
            return [f"    waits while {who} decides"]
        return [f"    waits ({p['kind']} of turn {p['turn']})"]
    if p["kind"] == "decision":
        out = []
        for x in p["decisions"]:
            out.append(f"    to decide: {x['prompt']} {'/'.join(x['options'])}")
        revealed = "; ".join(f"{NAMES[int(i)]} {' + '.join(' '.join(s) for s in sets)}"
                             for i, sets in sorted(p["revealed"].items()))
        out.append(f"    revealed this turn: {revealed}")
        return out
    c = v["constraints"]
    what = "time-stopped turn" if p["kind"] == "time_stop" else "orders"
    notes = [f"{c['sets']} gesture set(s)"]
    for hand in ("left", "right"):
        h = c[hand]
        if h["forced"] is not None:
            notes.append(f"{hand} hand must make {h['forced']} ({h['why']})")
        elif h["why"] == "charm":
            notes.append(f"{hand} hand written by {NAMES[h['controller']]} (charm)")
    if c["banned"]:
        notes.append("no " + "/".join(c["banned"]) + " (fear)")
    if c["confused"]:
        notes.append("confused")
    if c["charm_target"]:
        t = c["charm_target"]
        notes.append(f"writes {NAMES[t['wizard']]}'s {'left' if t['hand'] == 'L' else 'right'} "
                     "hand")
    if c["can_release"]:
        notes.append("may release his banked spell")
    if c["monsters"]:
        notes.append("commands " + ", ".join(c["monsters"]))
    return [f"    to do: {what} for turn {p['turn']}: " + "; ".join(notes)]


def render_view(v: dict[str, Any], before: dict[str, Any] | None) -> list[str]:
    """One wizard's view of a state: what changed since `before` (his previous view)."""
    me, other = v["wizard"], v["opponent"]
    out = [f"  {NAMES[me]}'s view" + (" (blind)" if v["blind"] else "") + ":"]
    old = set()
    if before is not None:
        for w in before["wizards"]:
            old |= {(w["index"], *_row_key(r)) for r in w["history"]}
    new_keys = sorted({_row_key(r) for w in v["wizards"] for r in w["history"]
                       if (w["index"], *_row_key(r)) not in old})
    if new_keys:
        out.append("    new gestures:")
        out.extend(_two_columns(v, new_keys))
    for who in (me, other):
        w = v["wizards"][who]
        dmg = "?" if w["damage"] is None else str(w["damage"])
        tag = " (you)" if who == me else ""
        status = "" if w["alive"] else ", dead"
        extra = ""
        if who == me and w.get("banked"):
            extra = f"; banked: {w['banked']['name']} (turn {w['banked']['turn']})"
        out.append(f"    {NAMES[who]}{tag}: damage {dmg}{status}; enchantments: "
                   f"{_effects(w)}{extra}")
    out.append(f"    monsters: {_monsters(v)}")
    out.extend(_asked(v))
    seen = 0 if before is None else len(before["log"])
    lines = [e for e in v["log"][seen:]]
    if lines:
        out.append("    log:")
        out.extend(f"      [{e['turn']}] {e['text']}" for e in lines)
    return out


def _inputs(g: Game) -> str:
    entry = g.record[-1]
    parts = []
    for i, inp in entry.inputs:
        parts.append(f"{NAMES[i]} {json.dumps(inp, sort_keys=True, separators=(',', ':'))}")
    return "; ".join(parts)


def render(d: Duel, title: str, about: str) -> str:
    """The transcript of a played duel."""
    out = [f"# {title}", ""]
    out.extend(f"  {line}" for line in about.strip().splitlines())
    out.append("")
    views: list[dict[str, Any] | None] = [None, None]
    for n, (g0, g1) in enumerate(zip(d.states, d.states[1:], strict=False), start=1):
        p = g0.phase
        who = ", ".join(NAMES[i] for i in p.actors)
        out.append(f"== step {n}: turn {p.turn}, {p.kind.replace('_', ' ')} (input from {who}) ==")
        out.append(f"  referee receives: {_inputs(g1)}")
        for i in (0, 1):
            v = view(g1, i)
            out.extend(render_view(v, views[i]))
            views[i] = v
        out.append("")
    out.append("== the whole duel as each wizard sees it ==")
    for i in (0, 1):
        v = view(d.game, i)
        out.append(f"  {NAMES[i]}'s history:")
        out.extend(_two_columns(v))
    out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# The duels
# ---------------------------------------------------------------------------------------------
def duel_haste() -> Duel:
    # The script described in ABOUT["haste"].
    d = Duel(A="P W P W W C - S S -/- - - - - C - D - -",
             B="S F W - - W W S - -/- - - - - - - - - -", seed="901d0001")
    d.hasted(7, "A", "-/S").hasted(8, "A", "D/-").hasted(9, "A", "D/-")
    return d.run()


def duel_time_stop() -> Duel:
    # The script described in ABOUT["time_stop"].
    d = Duel(A="S P P C - -/- - - C D -", B="W W P - - -/S F W - - -", seed="901d0002")
    d.extra(5, "A", ">/S").stopped_orders(5, "A", {"stab": "W1"})
    return d.run()


def duel_delayed_effect() -> Duel:
    # The script described in ABOUT["delayed_effect"].
    d = Duel(A="D W S S S P - - -/- - - - S D > > -",
             B="- - - - D P P - -/- - - - - - - - -", seed="901d0003")
    d.orders(8, "A", {"release": True})
    return d.run()


def duel_permanency() -> Duel:
    # The script described in ABOUT["permanency"].
    d = Duel(A="S P F P S D W F F F - - - - -/- - - - - - - - - - - - - - -",
             B="- - - - - - - - - S D D D D W/- - - - - - - - - - P D W P -", seed="901d0004")
    d.orders(3, "A", {"casts": [cast("L", "anti_spell", "none")]})
    d.orders(6, "A", {"casts": [cast("L", "missile", "none")]})
    d.decide(10, {"paralysis:W1": "L"})
    return d.run()


def duel_charm() -> Duel:
    # The script described in ABOUT["charm"].
    d = Duel(A="P S D F P S D D - - - - S -/- - - - - - - - P S D F - -",
             B="- - - - - - - - - - C W - -/- S F W P - - - - - C W - -", seed="901d0005")
    d.decide(4, {"charm:W1": "R"})
    d.orders(5, "A", {"charm": {"gesture": "-"}})
    d.orders(8, "A", {"casts": [cast("L", "charm_monster", "M1")], "monsters": {"M1": "W1"}})
    d.decide(12, {"charm:W0": "L"})
    d.orders(13, "B", {"charm": {"gesture": "-"}})
    return d.run()


def duel_paralysis() -> Duel:
    # The script described in ABOUT["paralysis"].
    d = Duel(A="- - F F F F F F - -/S F W - - - - - - -",
             B="- - - - S D D D W -/S F W - P P P P - -", seed="901d0006")
    d.decide(5, {"paralysis:W1": "L"})
    d.orders(8, "A", {"casts": [cast("L", "paralysis", "M2")]})
    return d.run()


DUELS: dict[str, tuple[str, Callable[[], Duel]]] = {
    "haste": ("Haste: two gesture sets a turn, resolved together", duel_haste),
    "time_stop": ("Time stop: an extra turn only A takes, unseen by B", duel_time_stop),
    "delayed_effect": ("Delayed effect: a missile banked, then released", duel_delayed_effect),
    "permanency": ("Permanency: a paralysis for ever, until removed", duel_permanency),
    "charm": ("Charm person, charm monster, and a charm turned back by a mirror", duel_charm),
    "paralysis": ("Paralysis: the same hand again and again, and a paralysed goblin",
                  duel_paralysis),
}


ABOUT: dict[str, str] = {
    "haste": """
A: haste on himself (P-W-P-W-W-C, turns 1-6); hastened on turns 7, 8 and 9 ("For the next 3
turns ... instead of giving one pair of gestures, 2 are given, the effect of both being taken
simultaneously at the end of the turn").  Turn 7: sets (- -) and (- S); turn 8: sets (S D) and
(D -): two missiles, the right hand's in the first set, the left hand's in the second; turn 9:
sets (S -) and (D -): one more missile.
B: a goblin (S-F-W, turns 1-3), attacking A each turn (A's P on turns 1 and 3 are shields);
a counter-spell (W-W-S, turns 6-8) which stops both missiles of turn 8 ("a single counter-spell
from his adversary could cancel 2 spells cast by the hastened wizard on 2 half-turns").
Expected: B sees both of A's gesture sets; both missiles of turn 8 are countered; B takes 1 (turn
9); the goblin hits A once a turn from turn 4 on (A's shield stops it on turn 3).
""",
    "time_stop": """
B: protection from evil (W-W-P, turns 1-3; it covers B's own turns 3-6) and a goblin (right
hand S-F-W, turns 1-3).  A: time stop (S-P-P-C, turns 1-4; P on 2 and 3 are shields).
Turn 5 is A's alone ("an extra turn, on which no-one can see or know about unless they are
harmed"): he stabs B, who has "no resistance" in it, and starts a missile (S) with his right
hand; B's goblin does not move.  Turn 6: A's missile (S-D) is stopped by B's protection, which
still runs (B's fifth own turn).
Expected: B's view never shows A's turn-5 gestures; B's log shows the stab, which harmed him,
and nothing else of turn 5.
""",
    "delayed_effect": """
A: delayed effect on himself (D-W-S-S-S-P, turns 1-6) banks the missile his right hand completes
on turn 6 ("The next spell he completes, provided it is on this turn or one of the next 3").
B: amnesia (D-P-P, turns 5-7) at A, whose turn-7 gestures (- >) must be repeated on turn 8.
A releases the banked missile with his turn-8 orders ("The spell must be written down to be
used by its caster at the same time that he writes his gestures"): not a gesture, so amnesia
does not stop it.
Expected: B takes A's stabs of turns 7 and 8 (B's P of turn 6 is a shield for turn 6 only; his
P of turn 7 completes the amnesia and is no shield) and the released missile on turn 8: 3.
""",
    "permanency": """
A: permanency (S-P-F-P-S-D-W, turns 1-7; the anti-spell of turn 3 and the missile of turn 6
inside it are aimed at nobody), then paralysis (F-F-F, turns 8-10) at B, inside permanency's
window (turns 7-10), so it is "made permanent".  A names B's left hand, making S on turn 10:
frozen into D ("if the hand being paralyzed is performing a C, S or W it is instead paralyzed
into F, D or P"), turn after turn.  B removes his enchantments with his right hand (P-D-W-P,
turns 11-14); on turn 15 his left hand is free again.  (B's S of turn 10 and his frozen D of turn
11 make a missile, S-D, at A: the frozen gesture counts like any other.)
""",
    "charm": """
A: charm person (P-S-D-F, turns 1-4) at B; A names B's right hand (a decision after the reveal)
and on turn 5 writes "nothing" for it ("This could be a stab or nothing"), so B's P (a shield)
is not made.  B: a goblin (right hand S-F-W, turns 2-4).  A: charm monster (P-S-D-D, turns 5-8)
at the goblin: "Control of the monster is transferred to the caster ... as of this turn", so it
attacks B on turn 8.  A's right hand: charm person again (turns 9-12) at B, whose magic mirror
(C-(w, turns 11-12) turns it back on A: "the subject of the mirror assumes the role of caster"
and B names A's left hand and writes its gesture on turn 13 ("nothing", where A wrote S).
(The S-D inside each P-S-D-x is a missile at B.)
""",
    "paralysis": """
A: a goblin (right hand S-F-W, turns 1-3) and F-F-F-F-F-F (left hand, turns 3-8): paralysis at B
on turns 5, 6 and 7, and on turn 8 at B's goblin M2.  A names B's left hand once (turn 5, making
S: frozen into D); on turns 6 and 7 no one is asked ("If the wizard already had a paralyzed hand,
it must be the same hand which is paralyzed again").  B shields himself with his right hand
(P, turns 5-8) against A's goblin; his left hand stays frozen on D through turn 8 and is free on
turn 9.  B's goblin, paralysed on turn 8, "does not attack in the turn following".  (B's S of
turn 5 and his frozen D of turn 6 make a missile, S-D, at A.)
""",
}


def transcripts() -> dict[str, str]:
    """File name -> transcript text, regenerated."""
    out = {}
    for name, (title, play) in DUELS.items():
        out[f"{name}.txt"] = render(play(), title, ABOUT[name])
    return out


def main(argv: list[str]) -> int:
    check = "--check" in argv
    bad = 0
    for name, text in transcripts().items():
        path = HERE / name
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"differs: {path}")
                bad += 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
