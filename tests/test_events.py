"""The battle's structured steps (engine/wavinghands/events.py) say what the log's sentences say,
turn by turn, over random duels in both rulesets and random melees; a wizard's steps, ending and
health never hold what his view hides (the pattern of tests/test_view_secrecy.py)."""

from __future__ import annotations

import json
import os
import random
import sys
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_view_secrecy import (
    BLIND_ALPHABET,
    INVISIBLE_ALPHABET,
    WATCHER,
    Script,
    gives_control,
    play_phase,
    premise,
    scripts,
    start,
)

from wavinghands import api
from wavinghands.events import (
    battle,
    battle_events,
    ending,
    health,
    health_over,
    structured,
)
from wavinghands.model import NOBODY, OVER, Game, gesture_word, wizard_index
from wavinghands.playout import Player, random_duel
from wavinghands.spells import EffectKind
from wavinghands.view import view

_DEFAULT = "10" if sys.platform == "emscripten" else "30"
EXAMPLES = int(os.environ.get("WH_PROPERTY_EXAMPLES", _DEFAULT))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    derandomize=not os.environ.get("WH_PROPERTY_RANDOM"),
                    suppress_health_check=[HealthCheck.too_slow])

# Which of a step's fields its sentence names, by kind (a spell by its table name).
NAMES_CASTER = {"cast", "fizzle", "release", "summon", "bank", "gestures"}
NAMES_SPELL = {"cast", "fizzle", "release", "summon", "bank", "enchant", "resisted",
               "death_spell", "destroyed"}
NAMES_TARGET = {"cast", "damage", "cure", "enchant", "blocked", "missed", "resisted",
                "death", "death_spell", "disenchant", "raised", "forced", "confused_attack",
                "surrender", "destroyed"}
NAMES_MONSTER = {"summon", "damage", "blocked", "missed", "no_attack", "confused_attack",
                 "destroyed", "merge"}


def being_name(game: Game, bid: str) -> str:
    """How a sentence names a being: a wizard by his name, a monster by its id."""
    if bid == NOBODY:
        return "nobody"
    index = wizard_index(bid)
    return game.names[index] if index is not None else f"({bid})"


def check_step(game: Game, step: dict[str, Any]) -> None:
    """One step against its own sentence."""
    text, kind = step["text"].lower(), step["kind"]
    where = f"{step} in {game.names}"
    assert kind != "other", where
    table = game.ruleset.table
    if "caster" in step and (kind in NAMES_CASTER or step.get("source") == "stab"):
        assert game.names[step["caster"]].lower() in text, where
    if "spell" in step and (kind in NAMES_SPELL or kind == "death" or
                            (kind == "blocked" and "source" not in step)):
        assert table[step["spell"]].name.lower() in text, where
    if "target" in step and kind in NAMES_TARGET:
        assert being_name(game, step["target"]).lower() in text, where
    if "monster" in step and kind in NAMES_MONSTER:
        assert f"({step['monster']})".lower() in text, where
    if kind in ("damage", "cure"):
        assert str(step["amount"]) in text, where
    if kind == "gestures":
        assert f"left {gesture_word(step['left'])}, right {gesture_word(step['right'])}" \
            .lower() in text, where
    if kind == "over":
        winner = step.get("winner")
        assert winner is None or f"{game.names[winner].lower()} wins" in text, where


def check_game(game: Game, states: list[Game]) -> Counter[str]:
    """Every viewer's steps against the log and his view; the ending and health against the
    game.  Returns the kinds seen."""
    kinds: Counter[str] = Counter()
    for v in game.everyone:
        steps = battle_events(game, v)
        shown = [e for e in game.log if v in e.visible_to]
        assert [s["text"] for s in steps] == [e.text for e in shown]
        by_turn = Counter(s["turn"] for s in steps)
        assert by_turn == Counter(e.turn for e in shown)  # turn by turn, the same steps
        for s in steps:
            check_step(game, s)
            kinds[s["kind"]] += 1
        # The gestures the steps reveal are the history rows his view shows, and no others.
        seen = view(game, v)
        rows = Counter((w["index"], r["turn"], r["left"], r["right"])
                       for w in seen["wizards"] for r in w["history"] if r["left"] != "?")
        revealed = Counter((s["caster"], s["turn"], s["left"], s["right"])
                           for s in steps if s["kind"] == "gestures")
        assert revealed == rows, (v, revealed - rows, rows - revealed)
        series = health_over(states, v)
        last = series[-1]["health"]
        for w in seen["wizards"]:
            if w["health"] is not None and game.phase.kind != "decision":
                assert last[w["index"]] == w["health"], (v, series[-1], w)
        end = ending(game, v)
        if game.phase.kind != OVER:
            assert end is None
            continue
        assert end is not None and game.result is not None
        assert end["winner"] == game.result.winner
        dead = {d["wizard"] for d in end["dead"]}
        died_last = {int(s["target"][1:]) for s in steps if s["kind"] == "death"
                     and s["turn"] == end["turn"] and str(s.get("target", "")).startswith("W")}
        assert dead == died_last
        for d in end["dead"]:
            assert not game.wizard(d["wizard"]).alive
            blow = d["blow"]
            if blow is not None and "amount" in blow:
                hits = [s["amount"] for s in steps if s["kind"] == "damage" and
                        s["turn"] == end["turn"] and s["target"] == f"W{d['wizard']}"]
                assert blow["amount"] == max(hits)
        if end["how"] == "surrendered":
            assert all(game.wizard(i).surrendered for i in end["surrendered"])
    return kinds


def states_of(history: list[tuple[Game, dict[int, Any]]]) -> list[Game]:
    """The states of a random duel's history, one per phase."""
    return [g for g, _ in history]


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), ruleset=st.sampled_from(["standard", "warlocks"]))
def test_steps_say_what_the_sentences_say_over_random_duels(seed: int, ruleset: str) -> None:
    history = random_duel(seed, max_turns=30, ruleset=ruleset)
    states = states_of(history)
    for i in range(1, len(states), 5):
        check_game(states[i], states[:i + 1])
    check_game(states[-1], states)


@settings(max_examples=max(3, EXAMPLES // 5), deadline=None,
          derandomize=not os.environ.get("WH_PROPERTY_RANDOM"),
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(3, 6),
       ruleset=st.sampled_from(["standard", "warlocks"]))
def test_steps_hold_in_melees(seed: int, size: int, ruleset: str) -> None:
    history = random_duel(seed, max_turns=12, ruleset=ruleset, wizards=size)
    states = states_of(history)
    check_game(states[-1], states)


def test_many_duels_cover_the_kinds_of_step() -> None:
    # The properties above check each kind only where it occurs: these fixed duels make sure
    # the common kinds (and the end) do occur, in both rulesets.
    seen: Counter[str] = Counter()
    for seed in range(25):
        for ruleset in ("standard", "warlocks"):
            history = random_duel(seed, max_turns=40, ruleset=ruleset)
            seen += check_game(history[-1][0], states_of(history))
    for kind in ("gestures", "cast", "fizzle", "damage", "blocked", "enchant", "summon",
                 "death", "over", "effect", "forced", "cure", "clash"):
        assert seen[kind] > 0, (kind, seen)


def test_the_api_answers_a_battle() -> None:
    history = random_duel(3, max_turns=40)
    game = history[-1][0]
    answer = json.loads(api.battle(json.dumps(game.to_json()), "1"))
    assert answer["ok"] and answer["ending"]["turn"] == game.turn
    assert answer["events"] == json.loads(json.dumps(battle(game, 1)["events"]))
    assert answer["health"] == json.loads(json.dumps(health(game, 1)))
    bad = json.loads(api.battle(json.dumps(game.to_json()), "7"))
    assert not bad["ok"]


def test_a_lightning_bolt_is_the_decisive_blow() -> None:
    # A blow to a wizard at 10 damage: the ending names the spell and its caster.
    game = history_ending_in_a_kill()
    end = ending(game, 0)
    assert end is not None and end["how"] == "killed"
    (dead,) = end["dead"]
    assert dead["blow"] is not None and dead["blow"]["caster"] == 1 - dead["wizard"]


def history_ending_in_a_kill() -> Game:
    """The first random duel that ends in a single death by damage from the other wizard."""
    for seed in range(200):
        game = random_duel(seed, max_turns=40)[-1][0]
        if game.result is None or game.result.winner is None:
            continue
        loser = 1 - game.result.winner
        last = [s for s in battle_events(game, 0) if s["turn"] == game.turn]
        if any(s["kind"] == "damage" and s["target"] == f"W{loser}" and s.get("caster") ==
               game.result.winner and "spell" in s for s in last) and \
                not game.wizard(loser).alive and game.wizard(game.result.winner).alive:
            return game
    raise AssertionError("no such duel in 200 seeds")


def same_battle_for_both(seed: int, kind: EffectKind, subject: int, one: Script,
                         other: Script) -> int:
    """Both duels of tests/test_view_secrecy.py in step: A's steps, ending and health agree
    while the premise holds; returns the phases compared."""
    games = [start(seed, kind, subject), start(seed, kind, subject)]
    players = [Player(random.Random(seed)), Player(random.Random(seed))]
    past: list[list[Game]] = [[games[0]], [games[1]]]
    compared = 0
    for turn in range(min(len(one), len(other)) * 2):
        plan = (one[min(turn // 2, len(one) - 1)], other[min(turn // 2, len(other) - 1)])
        if not all(premise(g, kind) for g in games):
            break
        mine = [(battle_events(g, WATCHER), ending(g, WATCHER), health_over(p, WATCHER))
                for g, p in zip(games, past, strict=True)]
        assert mine[0] == mine[1], f"phase {compared}"
        compared += 1
        nexts = [play_phase(g, p, pair) for g, p, pair in zip(games, players, plan, strict=True)]
        if any(n is None or gives_control(n[1]) for n in nexts):
            break
        games = [n[0] for n in nexts if n is not None]
        for p, g in zip(past, games, strict=True):
            p.append(g)
    return compared


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), one=scripts(BLIND_ALPHABET),
       other=scripts(BLIND_ALPHABET))
def test_a_blind_wizards_steps_hold_nothing_he_cannot_see(
        seed: int, one: Script, other: Script) -> None:
    same_battle_for_both(seed, EffectKind.BLINDNESS, WATCHER, one, other)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), one=scripts(INVISIBLE_ALPHABET),
       other=scripts(INVISIBLE_ALPHABET))
def test_an_invisible_wizards_gestures_are_not_in_the_steps(
        seed: int, one: Script, other: Script) -> None:
    same_battle_for_both(seed, EffectKind.INVISIBILITY, 1, one, other)


def test_the_secrecy_comparison_runs_and_can_fail() -> None:
    blind = same_battle_for_both(5, EffectKind.BLINDNESS, WATCHER, [("W", "D")] * 6,
                                 [("-", "P")] * 6)
    assert blind >= 3
    # Without the view's filter the same two duels differ: there was something to hide.
    games = [start(5, EffectKind.BLINDNESS, WATCHER) for _ in range(2)]
    players = [Player(random.Random(5)), Player(random.Random(5))]
    for _ in range(3):
        nexts = [play_phase(g, p, pair) for g, p, pair in
                 zip(games, players, (("W", "D"), ("-", "P")), strict=True)]
        games = [n[0] for n in nexts if n is not None]
    everything = [[structured(e, set(g.ruleset.table)) for e in g.log] for g in games]
    assert everything[0] != everything[1]
    assert battle_events(games[0], WATCHER) == battle_events(games[1], WATCHER)
