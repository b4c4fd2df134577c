"""Table-driven rule scenarios: a `Case` is a named duel in the `dsl` notation, the outcome it
must have, and `cite`, the sentence of the reference rules (000) it checks.

    Case("shield stops a missile", A="- P / - -", B="S D / - -",
         cite="This spell protects the subject from all attacks from monsters ... from missile "
              "spells",
         dmg={"A": 0})

Outcome keys (all optional; `result` is always checked and defaults to "the duel goes on"):
  dmg={"A": n}          wizard damage after the last turn
  alive={"A": bool}     wizard alive flags
  result=(w, text)      w = "A" | "B" | None (draw); `text` must occur in the result's "how"
  mons={"M1": (kind, controller, alive)}   monsters by id (controller "A"/"B")
  mdmg={"M1": n}        damage on a monster
  living=n              number of living monsters
  has / lacks={"A": {kind, ...}}           enchantment kinds present / absent at the end
  cast=[("A", spell)]   spells that took effect (a "cast" event was logged)
  not_cast=[...]        spells that did not take effect
  ncast={("A", spell): n}  how many times a spell took effect
  fizzle=[text]         substrings each found in some "has no effect" report
  asked=[(turn, decision id, wizard "A"/"B", options)]  decisions raised after a reveal
  log=[text]            substrings of the whole event log
  nolog=[text]          substrings the log must not contain

Extra set-up: orders=[(turn, "A", {...})], decide={turn: {id: choice}}, damage={"A": n}
(preset damage), withhold=True (003's house rule).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from citing import missing_fragments, rules_text
from dsl import Duel

WHO = {"A": 0, "B": 1}


@dataclass
class Case:
    """One scenario: gestures per hand, set-up, expected outcome, the rule it checks."""

    name: str
    A: str = ""
    B: str = ""
    cite: str = ""
    orders: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    decide: dict[int, dict[str, str]] = field(default_factory=dict)
    damage: dict[str, int] = field(default_factory=dict)
    withhold: bool = False
    dmg: dict[str, int] = field(default_factory=dict)
    alive: dict[str, bool] = field(default_factory=dict)
    result: Any = None
    mons: dict[str, tuple[str, str, bool]] = field(default_factory=dict)
    mdmg: dict[str, int] = field(default_factory=dict)
    living: int | None = None
    has: dict[str, set[str]] = field(default_factory=dict)
    lacks: dict[str, set[str]] = field(default_factory=dict)
    cast: list[tuple[str, str]] = field(default_factory=list)
    not_cast: list[tuple[str, str]] = field(default_factory=list)
    ncast: dict[tuple[str, str], int] = field(default_factory=dict)
    fizzle: list[str] = field(default_factory=list)
    asked: list[tuple[int, str, str, tuple[str, ...]]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    nolog: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.cite:
            raise ValueError(f"case {self.name!r} cites no rule")

    def __repr__(self) -> str:  # pytest ids
        return self.name


def cast(turn: int, who: str, hand: str, spell: str | None, target: str | None = None,
         **more: Any) -> tuple[int, str, dict[str, Any]]:
    """An `orders` entry choosing the spell a hand casts (and its target)."""
    c: dict[str, Any] = {"set": 0, "hand": hand, "spell": spell}
    if target is not None:
        c["target"] = target
    return (turn, who, {"casts": [c], **more})


def play(c: Case) -> Duel:
    """Set up and play a case's duel."""
    d = Duel(A=c.A, B=c.B, withhold=c.withhold)
    for who, n in c.damage.items():
        d.set_damage(who, n)
    for turn, who, extra in c.orders:
        d.orders(turn, who, extra)
    for turn, answers in c.decide.items():
        d.decide(turn, answers)
    return d.run()


def outcome(d: Duel) -> str:
    """A compact description of the end state, for failure messages."""
    mons = ", ".join(f"{m.id}={m.kind}/{'AB'[m.controller]}/{'alive' if m.alive else 'dead'}"
                     f"/dmg{m.damage}" for m in d.game.monsters)
    return (f"A: dmg {d.damage('A')} {'alive' if d.alive('A') else 'dead'} "
            f"{sorted(d.effects('A'))}; B: dmg {d.damage('B')} "
            f"{'alive' if d.alive('B') else 'dead'} {sorted(d.effects('B'))}; "
            f"monsters [{mons}]; result {d.result()}; phase {d.game.phase.kind}\n"
            f"log:\n{d.log()}")


def check(c: Case, d: Duel) -> None:
    """Assert every expectation of the case against the played duel."""
    why = f"\n[{c.name}] rule: {c.cite!r}\n{outcome(d)}"
    for who, n in c.dmg.items():
        assert d.damage(who) == n, f"{who}'s damage {d.damage(who)} != {n}{why}"
    for who, flag in c.alive.items():
        assert d.alive(who) == flag, f"{who} alive={d.alive(who)} != {flag}{why}"
    res = d.result()
    if c.result is None:
        assert res is None, f"the duel should go on, got {res}{why}"
    else:
        winner, text = c.result
        assert res is not None, f"the duel should be over ({c.result}){why}"
        want = None if winner is None else WHO[winner]
        assert res[0] == want, f"winner {res[0]} != {want}{why}"
        assert text.lower() in res[1].lower(), f"result {res[1]!r} lacks {text!r}{why}"
    by_id = {m.id: m for m in d.game.monsters}
    for mid, (kind, ctrl, alive) in c.mons.items():
        assert mid in by_id, f"no monster {mid}{why}"
        m = by_id[mid]
        assert (m.kind, m.controller, m.alive) == (kind, WHO[ctrl], alive), \
            f"{mid} is {(m.kind, 'AB'[m.controller], m.alive)} not {(kind, ctrl, alive)}{why}"
    for mid, n in c.mdmg.items():
        assert by_id[mid].damage == n, f"{mid} damage {by_id[mid].damage} != {n}{why}"
    if c.living is not None:
        n = len(d.monsters())
        assert n == c.living, f"{n} living monsters, expected {c.living}{why}"
    for who, kinds in c.has.items():
        assert kinds <= d.effects(who), f"{who} lacks {kinds - d.effects(who)}{why}"
    for who, kinds in c.lacks.items():
        assert not kinds & d.effects(who), f"{who} still has {kinds & d.effects(who)}{why}"
    casts = [("AB"[caster], spell) for caster, spell, _ in d.casts()]
    for item in c.cast:
        assert item in casts, f"{item} did not take effect{why}"
    for item in c.not_cast:
        assert item not in casts, f"{item} took effect{why}"
    for item, n in c.ncast.items():
        assert casts.count(item) == n, f"{item} took effect {casts.count(item)} times{why}"
    fizzles = d.fizzled()
    for text in c.fizzle:
        assert any(text.lower() in f.lower() for f in fizzles), \
            f"no fizzle report mentions {text!r}: {fizzles}{why}"
    for turn, did, who, options in c.asked:
        hits = [x for x in d.decision_log if x[0] == turn and x[1] == did]
        assert hits, f"decision {did} not asked on turn {turn}: {d.decision_log}{why}"
        assert hits[0][2] == WHO[who], f"decision {did} asked of {hits[0][2]}{why}"
        assert tuple(hits[0][3]) == tuple(options), f"options {hits[0][3]}{why}"
    log = d.log().lower()
    for text in c.log:
        assert text.lower() in log, f"log lacks {text!r}{why}"
    for text in c.nolog:
        assert text.lower() not in log, f"log has {text!r}{why}"


def run_case(c: Case) -> Duel:
    """Play and check one case."""
    d = play(c)
    check(c, d)
    return d


def cite_problems(cases: list[Case]) -> list[str]:
    """Cases whose `cite` is not a verbatim quotation of 000 (fragments joined by " ... ")."""
    text = rules_text()
    return [f"{c.name}: {m}" for c in cases for m in missing_fragments(c.cite, text)]


def table_tests(cases: list[Case], also_named: Sequence[Case] = ()) -> tuple[
        Callable[[Case], None], Callable[[], None], Callable[[], None]]:
    """A scenario module's three tests of its table, for it to bind to the names pytest collects
    (`test_rule, test_cites_are_quotes, test_names_unique = table_tests(ALL)`): every case plays
    to its outcome (one test a case), every cite is a quotation of 000, and no two cases (nor
    any of `also_named`) share a name."""

    @pytest.mark.parametrize("case", cases, ids=lambda c: c.name)
    def test_rule(case: Case) -> None:
        run_case(case)

    def test_cites_are_quotes() -> None:
        problems = cite_problems(cases)
        assert problems == [], "\n".join(problems)

    def test_names_unique() -> None:
        names = [c.name for c in [*cases, *also_named]]
        twice = sorted({n for n in names if names.count(n) > 1})
        assert twice == [], f"cases named alike: {twice}"

    return test_rule, test_cites_are_quotes, test_names_unique
