"""Cross-runtime vectors: what the engine answers to a fixed set of inputs, computed once in the
host's CPython and once inside Pyodide from the site's wheel (tests/pyodide/run.mjs); the two
must be equal to the byte.  Nothing is pinned: both sides compute from this checkout, so a rules
change moves both alike, and only a difference between the runtimes fails.

    python3 tests/pyodide/vectors.py [OUT.json]      the host's side (run.mjs runs it)

The vectors, by name (a long answer is given as its sha256, a short one as it is):
  duel/<seed>           every state of the 30 reference random duels (tests/test_cross_runtime.py)
  record/<seed>         the record of each finished duel, and the game its import replays
  view/<seed>/<wizard>  each wizard's view of the finished duel (api.view's JSON as sent)
  session/<seed>        every answer of a duel played as a kept duel (session_open, _step,
                        _view with cursors: handles, game deltas and view deltas)
  codes/<seed>          every turn code of a duel played through codes, seeded secrets
  melee/<N>             every state of a random melee of N wizards through the boundary
                        (api.melee_new, api.step), each wizard's table of the last, and every
                        code of a melee of N played by codes with seeded secrets
  ai/<move>             novice, fair and strong moves in reference positions
                        (of tests/test_ai_cross_runtime.py's), with the search's work and why
  golden/<name>         the golden transcripts (tests/golden/make_golden.py)
  error/<case>          the error values hostile inputs get (codes and messages)

first_difference() names the first vector that differs; run.mjs reports it.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
for extra in (TESTS / "golden", TESTS):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))
try:
    import wavinghands  # noqa: F401  (inside Pyodide: the site's wheel)
except ImportError:  # the host: this checkout's engine, as tests/conftest.py puts it
    sys.path.insert(0, str(TESTS.parent / "engine"))

import make_golden  # noqa: E402
import remote_driver  # noqa: E402
import test_ai_cross_runtime  # noqa: E402
import test_cross_runtime  # noqa: E402

from wavinghands import api  # noqa: E402
from wavinghands.ai import think  # noqa: E402
from wavinghands.model import Game, canonical_json  # noqa: E402
from wavinghands.remote.engine import PythonEngine  # noqa: E402
from wavinghands.ruleset import Ruleset  # noqa: E402

CODE_DUELS = range(3)  # duels played through codes
RECORD_DUELS = range(0, 30, 3)  # reference duels whose record and views are compared
SESSION_DUELS = range(0, 30, 10)  # reference duels played again as kept duels
# Positions per level (indices into tests/test_ai_cross_runtime.py's 35), spread over its four
# duels, early and late, each level with some where the enemy's gestures are hidden (27-34:
# the search samples two worlds).  A strong move takes ~0.8 s of CPU in CPython and some three
# times that in Pyodide, so one position of those (both wizards: one world and two, the
# look-ahead, the work budget).  Each move's vector is the orders with the search's work figures
# and its line of why, so a difference in the candidates, the tables or the look-ahead shows
# even where the move comes out the same.  All the positions are pinned in CPython by that
# test, and the deep run (build.py test --deep) plays it in Pyodide too.
AI_POSITIONS = {"novice": (0, 4, 9, 13, 20, 24, 28, 33), "fair": (3, 14, 21, 29),
                "strong": (28,)}
# Inputs the engine must refuse with an error value, the same in both runtimes (a deep nesting
# overflowed Pyodide's smaller stack once: issue 12.4).
HOSTILE: dict[str, Callable[[], str]] = {
    "deep-json": lambda: api.new_game("[" * 10_000),
    "not-json": lambda: api.new_game("{"),
    "bad-record": lambda: api.import_record('{"format": "nope"}'),
    "deep-record": lambda: api.import_record("{" * 5_000),
    "bad-code": lambda: api.remote_parse(json.dumps("WH1-not-a-code")),
    "bad-view": lambda: api.view("{}", "0"),
    "melee-of-two": lambda: api.melee_new(json.dumps({"names": ["a", "b"], "seed": "00aa00aa"})),
}
MELEE_SIZES = (3, 6)
MELEE_TURNS = 10


def digest(text: str) -> str:
    """sha256 of a text's UTF-8 bytes, in hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def vectors() -> dict[str, str]:
    """Every vector by name (see the module's docstring)."""
    traces = test_cross_runtime.play_all()
    out = {f"duel/{seed}": " ".join(states)
           for seed, states in test_cross_runtime.digests(traces).items()}  # fmt: skip
    out.update(record_vectors({seed: traces[seed][-1][0] for seed in RECORD_DUELS}))
    out.update(session_vectors({seed: traces[seed] for seed in SESSION_DUELS}))
    out.update(code_vectors())
    out.update(melee_vectors())
    out.update(ai_vectors())
    out.update({f"golden/{name}": digest(text) for name, text in make_golden.transcripts().items()})
    for case, call in HOSTILE.items():
        answer = json.loads(call())
        assert answer.get("ok") is False, (case, answer)
        out[f"error/{case}"] = canonical_json(answer)
    return out


def record_vectors(finished: dict[int, Game]) -> dict[str, str]:
    """Each finished duel's record, the game its import replays, and both wizards' views."""
    out = {}
    for seed, final in finished.items():
        game = json.dumps(final.to_json())
        exported = api.export_record(game)
        record = json.dumps(json.loads(exported)["record"])
        out[f"record/{seed}"] = digest(exported) + " " + digest(api.import_record(record))
        for wizard in ("0", "1"):
            out[f"view/{seed}/{wizard}"] = digest(api.view(game, wizard))
    return out


def session_vectors(traces: dict[int, test_cross_runtime.Trace]) -> dict[str, str]:
    """Each duel played again by handle (wavinghands.sessions): every answer, in order."""
    out = {}
    for seed, trace in traces.items():
        opened = api.session_open(json.dumps(trace[0][0].to_json()))
        answers, handle = [opened], json.loads(opened)["session"]
        cursors: list[object] = [None, None]
        for _, inputs in trace:
            for wizard in (0, 1):
                viewed = api.session_view(json.dumps(handle), str(wizard),
                                          json.dumps(cursors[wizard]))
                cursors[wizard] = json.loads(viewed)["cursor"]
                answers.append(viewed)
            if not inputs:
                break
            given = json.dumps({str(k): v for k, v in inputs.items()})
            stepped = api.session_step(json.dumps(handle), given)
            handle = json.loads(stepped)["session"]
            answers.append(stepped)
        out[f"session/{seed}"] = f"{len(answers)} answers {digest(' '.join(answers))}"
    return out


def code_vectors() -> dict[str, str]:
    """Every code, and both final sessions, of duels played through codes with seeded secrets."""
    out = {}
    for seed in CODE_DUELS:
        exchange = remote_driver.play(PythonEngine(), random.Random(seed))
        sessions = [canonical_json(s.to_json()) for s in (exchange.host, exchange.guest)]
        codes = [code for _, code in exchange.codes]
        out[f"codes/{seed}"] = f"{len(codes)} codes {digest(' '.join(codes + sessions))}"
    return out


def melee_vectors() -> dict[str, str]:
    """Random melees through the boundary (every state, the tables of the last) and by codes."""
    from wavinghands.playout import Player
    from wavinghands.remote import melee

    out = {}
    for n in MELEE_SIZES:
        rng = random.Random(n)
        player = Player(rng)
        made = json.loads(api.melee_new(json.dumps({"names": [f"M{i}" for i in range(n)],
                                                    "seed": f"{n:02x}" * 8})))
        text, states = json.dumps(made["game"]), []
        for _ in range(MELEE_TURNS):
            game = Game.from_json(json.loads(text))
            if game.phase.kind == "over":
                break
            inputs = {str(i): player.input(game, i) for i in game.phase.actors}
            stepped = json.loads(api.step(text, json.dumps(inputs)))
            text = json.dumps(stepped["game"])
            states.append(digest(canonical_json(stepped)))
        tables = [digest(api.melee_table(text, str(i))) for i in range(n)]
        out[f"melee/{n}"] = digest(" ".join(states + tables))
        host, invitations = melee.invite("Host", n, Ruleset(), rng.randbytes(4))
        pages, posted = [host], list(invitations)
        for seat, code in enumerate(invitations, start=1):
            page, accepted = melee.accept(code, f"G{seat}")
            pages.append(page)
            posted.append(accepted)
        pages = [melee.receive(p, " ".join(posted))[0] for p in pages]
        for _ in range(MELEE_TURNS):
            if not pages[0].participants():
                break
            ongoing = pages[0].engine_game()
            chat = []
            for i in pages[0].participants():
                raw = player.input(ongoing, i) if i in ongoing.phase.actors else {}
                pages[i], codes = melee.seal(pages[i], raw, rng.randbytes(8))
                chat += codes
            reveals = []
            for i in range(n):
                pages[i], codes = melee.receive(pages[i], " ".join(chat))
                reveals += codes
            pages = [melee.receive(p, " ".join(reveals))[0] if reveals else p for p in pages]
            posted += chat + reveals
        sessions = [canonical_json(p.to_json()) for p in pages]
        out[f"melee-codes/{n}"] = f"{len(posted)} codes {digest(' '.join(posted + sessions))}"
    return out


def ai_vectors() -> dict[str, str]:
    """The move each level chooses for each wizard in AI_POSITIONS, with what its search spent
    and why (think() plays what choose_input() plays: the same view and stream)."""
    out = {}
    positions = test_ai_cross_runtime.positions()
    for level, chosen in AI_POSITIONS.items():
        for index in chosen:
            label, position = positions[index]
            for wizard in (0, 1):
                choice = think(position, wizard, level)
                work = None if choice.work is None else choice.work.as_json()
                said = {"orders": choice.orders, "why": choice.why, "work": work}
                out[f"ai/{level}: {label}, wizard {wizard}"] = digest(canonical_json(said))[:16]
    return out


def first_difference(host: dict[str, str], here: dict[str, str]) -> str | None:
    """None when the two runtimes' vectors agree; else a sentence naming the first that differs."""
    for name in sorted(set(host) | set(here)):
        if host.get(name) != here.get(name):
            return f"{name}: CPython {host.get(name)!r}, Pyodide {here.get(name)!r}"
    return None


if __name__ == "__main__":
    text = json.dumps(vectors(), indent=1, sort_keys=True) + "\n"
    if len(sys.argv) > 1:
        Path(sys.argv[1]).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
