"""Puzzles: real positions on the real engine, each with a question the engine answers.

A puzzle's position is a duel played from its start by a short scripted history (both wizards'
gestures in the notation of tests/dsl.py: "S D / - >", left hand's turns, then the right's), so
every puzzle is a state the rules can reach.  The player is always wizard 0 (`YOU`).  Kinds:

- WIN: some orders of yours kill your opponent this turn whatever he does ("win this turn");
- SURVIVE: some orders of yours leave you alive at the end of the turn whatever he does;
- FORESEE: the spells your opponent can complete next turn, named by the player.

The set lives in data/puzzles.json.  `judge` says whether one answer is right and, if not, the
opponent's reply that refutes it (every legal reply is tried: gestures, spell choices, targets,
stabs, monsters' attacks); `other_solutions` searches every legal order of yours, which is
how tests/test_puzzles.py proves a puzzle's claim of a unique answer.  The puzzle of the day is
derived from the date alone (`of_the_day`).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import pkgutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from . import duel
from .errors import WavingHandsError
from .legal import input_problems
from .model import DECISION, ORDERS, Game
from .recognize import allocations, completed, is_surrender
from .rulesets import find_ruleset
from .situation import constraints, controlled_monsters, living_beings, wizard_id

JSON = dict[str, Any]

WIN: Final = "win"
SURVIVE: Final = "survive"
FORESEE: Final = "foresee"
KINDS: Final = (WIN, SURVIVE, FORESEE)
YOU: Final = 0
THEM: Final = 1
ONE_HAND: Final = "FPSWD>-"
NAMES: Final = ("Merlin", "Morgana")


class PuzzleError(WavingHandsError):
    """A puzzle that does not exist, or an answer that is not shaped as its kind asks."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle: where it comes from, what it asks, its answer and its hints.

    `you` and `them` are the two wizards' histories in the notation ("S D / - >"); `orders`
    adds order fields to single turns ({"3": {"0": {"stab": "M1"}}}, turns counted from 1).
    `answer` is your orders (WIN, SURVIVE) or the spell keys your opponent can complete
    (FORESEE); `key` names the hands whose gestures make the answer (the other hand is free),
    and `unique` claims that every other answer is wrong in those hands."""

    id: str
    ruleset: str
    kind: str
    title: str
    you: str
    them: str
    answer: Any
    hints: tuple[str, ...]
    explain: str
    key: str = "LR"
    unique: bool = True
    orders: tuple[tuple[int, int, str], ...] = ()  # (turn, wizard, order fields as JSON)

    @staticmethod
    def from_json(d: JSON) -> Puzzle:
        """A puzzle from its row of data/puzzles.json."""
        extra = tuple((int(t), int(w), json.dumps(o, sort_keys=True))
                      for t, by in d.get("orders", {}).items() for w, o in by.items())
        if d["kind"] not in KINDS:
            raise ValueError(f"puzzle {d['id']}: unknown kind {d['kind']!r}")
        return Puzzle(str(d["id"]), str(d["ruleset"]), str(d["kind"]), str(d["title"]),
                      str(d["you"]), str(d["them"]), d["answer"],
                      tuple(str(h) for h in d["hints"]), str(d["explain"]),
                      str(d.get("key", "LR")), bool(d.get("unique", True)), extra)

    def summary(self) -> JSON:
        """What a list of puzzles shows of one: {"id", "ruleset", "kind", "title"}."""
        return {"id": self.id, "ruleset": self.ruleset, "kind": self.kind, "title": self.title}


def data_rows(name: str) -> list[JSON]:
    """The rows of data/<name>.json (its list under the key `name`): puzzles, lessons."""
    # (pkgutil, as spelltext does: the page's pruned standard library has no importlib.resources)
    raw = pkgutil.get_data("wavinghands", f"data/{name}.json")
    if raw is None:
        raise FileNotFoundError(f"wavinghands/data/{name}.json")
    rows: list[JSON] = json.loads(raw.decode("utf-8"))[name]
    return rows


@cache
def all_puzzles() -> tuple[Puzzle, ...]:
    """Every puzzle of data/puzzles.json, in its order."""
    return tuple(Puzzle.from_json(d) for d in data_rows("puzzles"))


def find_puzzle(pid: str) -> Puzzle:
    """The puzzle with this id; raises PuzzleError("unknown-puzzle") if there is none."""
    for p in all_puzzles():
        if p.id == pid:
            return p
    raise PuzzleError("unknown-puzzle", f"there is no puzzle {pid!r}")


def of_the_day(date: str) -> Puzzle:
    """The puzzle of the day for an ISO date ("2026-11-28"): derived from the date alone."""
    if len(date) != 10 or date[4] != "-" or date[7] != "-" or \
            not (date[:4] + date[5:7] + date[8:]).isdigit():
        raise PuzzleError("bad-date", "the date is written YYYY-MM-DD")
    digest = hashlib.sha256(f"puzzle-of-the-day|{date}".encode()).digest()
    puzzles = all_puzzles()
    return puzzles[int.from_bytes(digest[:8], "big") % len(puzzles)]


def _rows(spec: str) -> list[tuple[str, str]]:
    """'S D / - >' -> [('S', '-'), ('D', '>')]: a history in the notation, turn by turn."""
    left, right = (part.split() for part in spec.split("/"))
    if len(left) != len(right):
        raise ValueError(f"hands of unequal length in {spec!r}")
    return list(zip(left, right, strict=True))


def answer_questions(game: Game) -> Game:
    """The game after every question the rules ask after a reveal, each answered with its
    first option (a scripted history's choices)."""
    while game.phase.kind == DECISION:
        game, _ = duel.step(game, {w: {"decisions": {d.id: d.options[0]
                                                      for d in game.phase.decisions
                                                      if d.wizard == w}}
                                   for w in game.phase.actors})
    return game


def scripted(key: str, ruleset: str, you: str, them: str,
             extra: tuple[tuple[int, int, str], ...] = ()) -> Game:
    """A duel played from its start through two scripted histories (the notation), waiting for
    the orders of the turn after them; `key` (a puzzle's or lesson's id) derives its seed and
    `extra` adds order fields to single turns as (turn, wizard, JSON).  Raises ValueError if
    the history ends the duel or a turn does not wait for orders."""
    seed = hashlib.sha256(key.encode()).hexdigest()[:16]
    game = duel.new_game(NAMES, seed, find_ruleset(ruleset))
    plan = {YOU: _rows(you), THEM: _rows(them)}
    fields = {(t, w): json.loads(o) for t, w, o in extra}
    for turn in range(1, max(len(plan[YOU]), len(plan[THEM])) + 1):
        if game.phase.kind != ORDERS or game.phase.turn != game.turn:
            raise ValueError(f"{key}: turn {turn} does not wait for orders")
        inputs = {}
        for w in (YOU, THEM):
            row = plan[w][turn - 1] if turn <= len(plan[w]) else ("-", "-")
            inputs[w] = {"gestures": [list(row)], **fields.get((turn, w), {})}
        game = answer_questions(duel.step(game, inputs)[0])
        if game.phase.kind != ORDERS:
            raise ValueError(f"{key}: the history ends the duel on turn {turn}")
    return game


@cache
def position(pid: str) -> Game:
    """The puzzle's position: a duel played from its start through the scripted history,
    waiting for the orders of the turn the puzzle asks about."""
    p = find_puzzle(pid)
    return scripted(p.id, p.ruleset, p.you, p.them, p.orders)


def _pairs(game: Game, x: int) -> list[tuple[str, str]]:
    """Every gesture pair wizard x may make (surrender included: it is an order too)."""
    c = constraints(game, x)
    options = []
    for hand in ("L", "R"):
        hc = c.hand(hand)
        if hc.forced is not None:
            options.append([hc.forced])
        elif hc.why:
            options.append(["-"])  # the charmer writes this hand (charm, below)
        else:
            options.append([g for g in ONE_HAND if g not in c.banned])
    pairs = [(a, b) for a in options[0] for b in options[1] if not (a == ">" and b == ">")]
    if len(options[0]) > 1 and len(options[1]) > 1 and "C" not in c.banned:
        pairs.append(("C", "C"))
    return pairs


def _cast_ways(game: Game, x: int, pair: tuple[str, str]) -> list[list[JSON]]:
    """Every way wizard x may cast what `pair` completes, each spell at every living being
    (and at nobody): lists of `casts` entries."""
    w = game.wizard(x)
    rows = [(r.left, r.right) for r in w.history] + [pair]
    cands = completed(rows, w.sequence_start, len(rows) - 1, w.short_lightning_used,
                      game.ruleset.table)
    if not cands:
        return [[]]
    beings = [*living_beings(game), "none"]
    ways: list[list[JSON]] = []
    for alloc in allocations(cands, game.ruleset.may_withhold):
        per_spell = [[{"set": 0, "hand": c.hand, "spell": c.spell, "target": t} for t in beings]
                     for c in alloc.spells]
        ways.extend(list(combo) for combo in itertools.product(*per_spell))
    return ways


def all_orders(game: Game, x: int) -> Iterator[JSON]:
    """Every legal order wizard x may give this turn: gestures, what they cast at whom, the
    stab's target and each of his monsters' targets (a charmer also writes the charmed hand)."""
    c = constraints(game, x)
    beings = living_beings(game)
    others = [b for b in beings if b != wizard_id(x)]
    beasts = [[(m.id, t) for t in beings] for m in controlled_monsters(game, x)]
    charms: list[JSON] = [{}] if c.charm_target is None else \
        [{"charm": {"gesture": g}} for g in ONE_HAND]
    for pair in _pairs(game, x):
        stabs: list[JSON] = [{"stab": t} for t in others] if ">" in pair else [{}]
        for casts, stab, charm in itertools.product(_cast_ways(game, x, pair), stabs, charms):
            for attacks in itertools.product(*beasts):
                order: JSON = {"gestures": [list(pair)], **stab, **charm}
                if casts:
                    order["casts"] = casts
                if attacks:
                    order["monsters"] = dict(attacks)
                if not input_problems(game, x, duel.parse_input(game, order)):
                    yield order


def _outcomes(game: Game, mine: JSON, theirs: JSON) -> Iterator[Game]:
    """The states the turn can end in: after both orders, every answer to the rules'
    questions (both wizards') tried."""
    after, _ = duel.step(game, {YOU: mine, THEM: theirs})
    if after.phase.kind != DECISION:
        yield after
        return
    questions = after.phase.decisions
    for answers in itertools.product(*(d.options for d in questions)):
        inputs = {w: {"decisions": {d.id: a for d, a in zip(questions, answers, strict=True)
                                    if d.wizard == w}} for w in after.phase.actors}
        done, _ = duel.step(after, inputs)
        yield done


def _holds(kind: str, end: Game) -> bool:
    """Whether the puzzle's goal is met in a state after the turn."""
    if kind == WIN:
        return end.result is not None and end.result.winner == YOU
    return end.wizard(YOU).alive and not (end.result is not None and end.result.winner == THEM)


def refutation(pid: str, mine: JSON) -> JSON | None:
    """The opponent's reply under which your orders `mine` miss the puzzle's goal, or None if
    they meet it whatever he does.  Raises PuzzleError("illegal-answer") for orders the rules
    refuse."""
    p = find_puzzle(pid)
    game = position(pid)
    problems = input_problems(game, YOU, duel.parse_input(game, mine))
    if problems:
        raise PuzzleError("illegal-answer", problems[0].message)
    for theirs in _replies(game):
        if not all(_holds(p.kind, end) for end in _outcomes(game, mine, theirs)):
            return theirs
    return None


def _replies(game: Game) -> Iterator[JSON]:
    """Every legal order of the opponent, the plain ones (gestures only: the engine aims and
    casts as it does by default) first, since they refute most wrong answers."""
    plain = [{"gestures": [list(pair)]} for pair in _pairs(game, THEM)]
    yield from (o for o in plain
                if not input_problems(game, THEM, duel.parse_input(game, o)))
    yield from (o for o in all_orders(game, THEM) if o not in plain)


def completions(game: Game, x: int) -> frozenset[str]:
    """The spells wizard x can complete with his next gestures (surrender is no spell)."""
    w = game.wizard(x)
    rows = [(r.left, r.right) for r in w.history]
    found: set[str] = set()
    for pair in _pairs(game, x):
        if is_surrender(pair):
            continue
        whole = [*rows, pair]
        found.update(c.spell for c in completed(whole, w.sequence_start, len(whole) - 1,
                                                w.short_lightning_used, game.ruleset.table))
    return frozenset(found)


def _matches(p: Puzzle, order: JSON) -> bool:
    """Whether orders agree with the puzzle's answer in the hands the answer is about."""
    want = p.answer["gestures"][0]
    got = order["gestures"][0]
    return all(got[i] == want[i] for i, hand in enumerate("LR") if hand in p.key)


def other_solutions(pid: str) -> list[JSON]:
    """Every legal order of yours that meets a WIN or SURVIVE puzzle's goal whatever the
    opponent does but differs from the answer in the hands it is about (`key`): none, where
    the puzzle claims a unique answer.  It tries every order of both wizards."""
    p = find_puzzle(pid)
    return [mine for mine in all_orders(position(pid), YOU)
            if not _matches(p, mine) and refutation(pid, mine) is None]


def judge(pid: str, answer: Any) -> JSON:
    """Whether `answer` solves the puzzle: {"solved": bool, "reply": orders refuting it or
    None, "missing": [...], "extra": [...]} (the last two for FORESEE, as spell keys)."""
    p = find_puzzle(pid)
    game = position(pid)
    if p.kind == FORESEE:
        if not isinstance(answer, list) or not all(isinstance(s, str) for s in answer):
            raise PuzzleError("bad-answer", "name the spells as a list of spell keys")
        truth = completions(game, THEM)
        given = frozenset(answer)
        return {"solved": given == truth, "reply": None, "missing": sorted(truth - given),
                "extra": sorted(given - truth)}
    if not isinstance(answer, dict) or "gestures" not in answer:
        raise PuzzleError("bad-answer", "give your orders for the turn")
    reply = refutation(pid, answer)
    return {"solved": reply is None, "reply": reply, "missing": [], "extra": []}


def describe(pid: str) -> JSON:
    """A puzzle as the page shows it: its summary, hints, explanation, the answer and the
    position (the game, which the page asks the engine to view as wizard 0)."""
    p = find_puzzle(pid)
    return {**p.summary(), "hints": list(p.hints), "explain": p.explain, "answer": p.answer,
            "key": p.key, "unique": p.unique, "game": position(pid).to_json()}


def listing(date: str | None = None) -> JSON:
    """Every puzzle's summary, and the puzzle of the day for `date` (ISO) if given."""
    out: JSON = {"puzzles": [p.summary() for p in all_puzzles()]}
    if date is not None:
        out["today"] = of_the_day(date).id
    return out


def counts() -> Mapping[tuple[str, str], int]:
    """How many puzzles of each (ruleset, kind) the set holds."""
    tally: dict[tuple[str, str], int] = {}
    for p in all_puzzles():
        tally[(p.ruleset, p.kind)] = tally.get((p.ruleset, p.kind), 0) + 1
    return tally
