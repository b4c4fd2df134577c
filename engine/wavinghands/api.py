"""The JS/Python boundary: every function takes JSON strings and returns one JSON string.

The result is `{"ok": true, ...}` or `{"ok": false, "error": {"code", "message"}}`; no
exception crosses this boundary, and a failed call changes nothing (the caller still holds the
game it passed in).  docs/architecture.md lists the contracts.

The computer opponent (`ai`) and remote play (`remote`) are imported by the functions that use
them, not with this module: the page's first calls (a new duel, its views and previews) do not
need them, and their import is about a third of the engine's on a cold boot in the browser
(docs/build.md, "Boot").  So are a duel's own later needs, which the engine's readiness does not
wait for: resolution (`duel.step`), the history notes of a view (`account`) and the preview of
a draft (`preview`, with the legality checks and the recognizer).  `LATE_MODULES` names them,
so that a page can import them once it is idle (web/engine-snapshot.js does, before it
snapshots the interpreter); a call that comes first imports what it needs itself.
"""

from __future__ import annotations

import gc
import json
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from . import duel, record, sessions
from .boundary import guard, ok
from .errors import WavingHandsError
from .model import MAX_WIZARDS, MIN_WIZARDS, ORDERS, TIME_STOP, Game, canonical_json
from .orders import OrderError
from .rulesets import Ruleset, check_known, describe_rulesets, find_ruleset
from .spelltext import spell_reference
from .view import view as _view

JSON = dict[str, Any]

# Imported on first use, not with this module (see the module's docstring).
LATE_MODULES: tuple[str, ...] = (
    "wavinghands.resolve", "wavinghands.account", "wavinghands.preview",  # a duel's
    "wavinghands.ai", "wavinghands.remote.json_api",  # the opponent's, remote play's
)  # fmt: skip


class ApiError(WavingHandsError):
    """A request the boundary refuses, with a stable code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)
        self.message = message


def _load(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError) as e:
        raise ApiError("bad-json", f"the {what} is not valid JSON ({e})") from e


def _game(text: str) -> Game:
    """The game a call names: its JSON, or the handle of a duel the engine keeps (a JSON
    string, from session_open or session_step)."""
    if not isinstance(text, str) or text.lstrip().startswith('"'):
        # (a handle: the kept table answers, as it is now; not a text: `bad-json`, said there)
        return _game_and_text(text)[0]
    return _game_of_text(text)


@lru_cache(maxsize=8)
def _game_of_text(text: str) -> Game:
    """The game whose JSON is `text`, read once per text (no canonical form needed: only a
    kept duel's handle is made of it)."""
    d = _load(text, "game")
    return _readable(d, lambda: Game.from_json(d))


def _game_and_text(text: str) -> tuple[Game, str]:
    """The game a call names, and its canonical JSON ("" for a kept duel's handle)."""
    d = _load(text, "game")
    if isinstance(d, str):
        return sessions.kept(d).game, ""
    canonical = canonical_json(d) if isinstance(d, dict) else ""
    return _readable(d, lambda: _game_cached(canonical, d)), canonical


def _readable(d: Any, parse: Callable[[], Game]) -> Game:
    """The game `parse` reads from the JSON value `d`; ApiError bad-game if `d` is no object or
    a damaged game, UnknownRuleset if its rules are a newer page's (say so, play nothing)."""
    if not isinstance(d, dict):
        raise ApiError("bad-game", "the game must be a JSON object (or a kept duel's handle)")
    try:
        game = parse()
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise ApiError("bad-game", f"the saved game is damaged ({e})") from e
    check_known(game.ruleset, "this saved duel")
    return game


# Games opened to be kept, by their canonical JSON (bounded): the same game opened again is
# not read again.
_OPENED: OrderedDict[str, Game] = OrderedDict()
_OPENED_MOST = 8


def _game_cached(canonical: str, d: JSON) -> Game:
    """The game whose canonical JSON is `canonical` (`d`: that JSON, parsed), read once."""
    found = _OPENED.get(canonical)
    if found is None:
        found = _OPENED[canonical] = Game.from_json(d)
        while len(_OPENED) > _OPENED_MOST:
            _OPENED.popitem(last=False)
    _OPENED.move_to_end(canonical)
    return found


def _wizard(text: str, game: Game | None = None) -> int:
    """A wizard's index in `game` (0 or 1 in a duel; 0 to N - 1 in a melee)."""
    v = _load(text, "wizard")
    count = 2 if game is None else len(game.wizards)
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < count:
        raise ApiError("bad-wizard", "the wizard is 0 or 1" if count == 2 else
                       f"the wizard is 0 to {count - 1}")
    return int(v)


@guard
def new_game(params: str) -> str:
    """Start a duel: {"names": [a, b], "ruleset": {...}, "seed": hex} -> {"game": G}."""
    p = _load(params, "parameters")
    if not isinstance(p, dict):
        raise ApiError("bad-request", "parameters must be a JSON object")
    names = p.get("names", ["Left", "Right"])
    if not isinstance(names, list) or not MIN_WIZARDS <= len(names) <= MAX_WIZARDS:
        raise ApiError("bad-names", "give two wizard names (a duel), or three to six (a "
                       "melee)")
    seed = p.get("seed")
    if not isinstance(seed, str):
        raise ApiError("bad-seed", "a seed (lowercase hex) is required")
    ruleset = Ruleset.from_json(p.get("ruleset", {}) or {})
    if "name" in (p.get("ruleset") or {}):
        find_ruleset(ruleset.name)  # a new game names a ruleset that exists (unknown-ruleset)
    game = duel.new_game(tuple(str(n) for n in names), seed, ruleset)
    return ok(game=game.to_json())


@guard
def view(game: str, wizard: str) -> str:
    """What one wizard may know: {"view": V}, V with `notes` (account.history_notes: what
    completed which spell, forced hands, what each history is building).  `game` may be a
    kept duel's handle (session_open)."""
    g = _game(game)
    v = _wizard(wizard, g)
    d = _view(g, v)
    d["notes"] = _notes(g, v, _handle_in(game))
    return ok(view=d)


def _handle_in(text: str) -> str | None:
    """The kept duel's handle a game argument gives, or None (a game's JSON: not parsed
    twice)."""
    if not text.lstrip().startswith('"'):
        return None
    value = _load(text, "game")
    return value if isinstance(value, str) else None


def _notes(g: Game, v: int, handle: str | None) -> Any:
    """View's `notes` (None for a game whose record does not replay: it still plays); of a
    kept duel, computed where its last view left off."""
    from .account import history_notes, kept_notes  # (a late module: see LATE_MODULES)

    try:
        return history_notes(g, v) if handle is None else kept_notes(sessions.kept(handle), v)
    except (ValueError, KeyError, TypeError, IndexError):
        return None


@guard
def session_open(game: str) -> str:
    """Keep a duel between calls: {"session": handle}.  The handle (the same for the same game)
    stands for the game in every call that takes one, and session_step and session_view take
    it; the engine keeps the sessions.KEPT_MOST latest states, and a call with a handle it no
    longer keeps gets the error `unknown-session` (open it again from the game's JSON)."""
    g, canonical = _game_and_text(game)
    if not canonical:
        return ok(session=_load(game, "game"))  # a handle: already kept
    return ok(session=sessions.open_game(g, canonical))


@guard
def session_step(session: str, inputs: str) -> str:
    """step() on a kept duel: {"session": the next state's handle, "delta": what changed in the
    game's JSON (sessions.game_delta: the log, the record and each history cut to their new
    part), "events"}.  The game JSON it gives back (sessions.apply_game_delta) is step()'s."""
    handle = _load(session, "session")
    g = sessions.kept(handle).game
    raw = _load(inputs, "inputs")
    new, events = _stepped(g, raw)
    return ok(session=sessions.step_kept(handle, raw, new), delta=sessions.game_delta(g, new),
              events=events)


@guard
def session_view(session: str, wizard: str, cursor: str | None = None) -> str:
    """view() of a kept duel as what changed since the viewer's last one: {"view": V, "cursor":
    C}.  `cursor` (JSON: the C of that view, or null) is where it left off; V then holds only
    the log entries after it (`log_keep`: how many the viewer had), each wizard's history and
    notes from a row on (`history_from`, `rows_from`).  A cursor of another duel, or of a state
    not among this one's kept ancestors, gives the whole view (no such keys).
    sessions.apply_view_delta turns it into view()'s answer."""
    handle = _load(session, "session")
    k = sessions.kept(handle)
    v = _wizard(wizard, k.game)
    given = None if cursor is None else _load(cursor, "cursor")
    since = sessions.usable_cursor(handle, k, given)
    cut = None if since is None else [max(0, r - sessions.REDO_ROWS) for r in since["rows"]]
    d = _view(k.game, v, 0 if since is None else since["log"], cut)
    notes = _notes(k.game, v, handle)
    if since is not None:
        d["log_keep"] = since["seen"]
        for w, first in zip(d["wizards"], cut or [], strict=True):
            w["history_from"] = first
        if notes is not None:
            for key, first in zip(sorted(notes, key=int), cut or [], strict=True):
                start = first if since["notes"] else 0
                notes[key] = {"rows": notes[key]["rows"][start:], "rows_from": start,
                              "building": notes[key]["building"]}
    d["notes"] = notes
    seen = (0 if since is None else since["seen"]) + len(d["log"])
    return ok(view=d, cursor=sessions.cursor_of(handle, k, v, seen, notes is not None))


@guard
def battle(game: str, wizard: str) -> str:
    """One wizard's battle as data (wavinghands.events): {"events": the log's steps he was
    shown, "ending": how it ended or null, "health": [{"turn", "health": [...]}]}."""
    g = _game(game)
    v = _wizard(wizard, g)
    from .events import battle as _battle  # (it replays the duel: account, a late module)

    return ok(**_battle(g, v))


@guard
def replay_step(rec: str, index: str) -> str:
    """One step of a record's replay: {"step", "steps", "label", "views": [V0, V1],
    "events": {"0": [...], "1": [...]}} (views with notes)."""
    i = _load(index, "step")
    if not isinstance(i, int) or isinstance(i, bool):
        raise ApiError("bad-step", "the step is a whole number")
    from .account import replay_step  # (a late module: see LATE_MODULES)

    return ok(**replay_step(_known_record(rec), i))


@guard
def preview(game: str, wizard: str, draft: str) -> str:
    """What a draft of orders would do: {"preview": P}."""
    g = _game(game)
    v = _wizard(wizard, g)
    if g.phase.kind not in (ORDERS, TIME_STOP) or v not in g.phase.actors:
        raise ApiError("not-your-turn", "there are no orders to write now")
    from .preview import preview as _preview  # (a late module: see LATE_MODULES)

    return ok(preview=_preview(g, v, _load(draft, "draft")))


@guard
def validate(game: str, wizard: str, inp: str) -> str:
    """Every problem with one wizard's input for the current phase: {"problems": [...]}."""
    from .legal import input_problems

    g = _game(game)
    v = _wizard(wizard, g)
    try:
        parsed = duel.parse_input(g, _load(inp, "input"))
    except OrderError as e:
        return ok(problems=[e.to_json()])
    return ok(problems=[p.to_json() for p in input_problems(g, v, parsed)])


@guard
def step(game: str, inputs: str) -> str:
    """Resolve the current phase: {"0": input, "1": input} -> {"game", "events", "views"}."""
    new, events = _stepped(_game(game), _load(inputs, "inputs"))
    return ok(game=new.to_json(), events=events)


def _stepped(g: Game, raw: Any) -> tuple[Game, JSON]:
    """The game after its current phase resolved with `raw` (inputs keyed "0", "1", ...), and
    the events, as each wizard saw them."""
    if not isinstance(raw, dict):
        raise ApiError("bad-request", "inputs map wizard numbers to inputs")
    keys = {str(v) for v in g.everyone}
    if not set(raw) <= keys:
        raise ApiError("bad-request", "inputs are keyed by \"0\" and \"1\"" if len(keys) == 2
                       else f"inputs are keyed by the wizards' numbers, \"0\" to "
                       f"\"{len(keys) - 1}\"")
    by_wizard = {int(k): v for k, v in raw.items()}
    new, events = duel.step(g, by_wizard)
    return new, {str(v): [dict(e.to_json(), visible_to=None) for e in events
                          if v in e.visible_to] for v in g.everyone}


@guard
def spells(ruleset: str | None = None) -> str:
    """A ruleset's spell table and reference texts: {"spells": [...], "forward", "reverse",
    "notes", "ruleset": {"name", "title"}, ...}; `ruleset` is a ruleset object (JSON, as a game
    carries it); without it, or null, the standard rules'."""
    given = None if ruleset is None else _load(ruleset, "ruleset")
    if given is None:
        return ok(**spell_reference())
    return ok(**spell_reference(check_known(Ruleset.from_json(given), "this spell book")))


@guard
def rulesets() -> str:
    """The rules a new game may use: {"rulesets": [{"name", "title", "description", "options":
    [{"key", "label", "description", "default"}]}]}, the default ruleset first."""
    return ok(rulesets=describe_rulesets())


@guard
def export_record(game: str) -> str:
    """The record of a game: {"record": R}."""
    return ok(record=record.export_record(_game(game)))


def _known_record(rec: str) -> Any:
    """A record from outside, parsed within `record.load_record`'s limits and refused
    (unknown-ruleset) if it names rules this engine cannot play."""
    d = record.load_record(rec)
    if isinstance(d, dict) and isinstance(d.get("ruleset"), dict):
        check_known(Ruleset.from_json(d["ruleset"]), "this record's duel")
    return d


@guard
def import_record(rec: str) -> str:
    """Replay a record into a game: {"game": G}; a record over the bounds of
    docs/record-format.md ("Limits") is refused (`record-too-large`, `record-too-long`), and
    one naming rules this page does not know (`unknown-ruleset`)."""
    return ok(game=record.import_record(_known_record(rec)).to_json())


def _level(text: str | None) -> str:
    from .ai import DEFAULT_LEVEL

    if text is None:
        return DEFAULT_LEVEL
    level = _load(text, "level")
    if level is None:
        return DEFAULT_LEVEL
    if not isinstance(level, str):
        raise ApiError("bad-level", "the level is one of \"novice\", \"fair\", \"strong\"")
    return level


def _deadline(text: str | None, start: float) -> Callable[[], bool] | None:
    """The search's deadline from a JSON number of milliseconds after `start` (a
    `time.perf_counter()` reading; null or absent: none): a callable saying whether it has
    passed.  The wall clock is read here, at the boundary, never inside the search."""
    if text is None:
        return None
    ms = _load(text, "deadline")
    if ms is None:
        return None
    if isinstance(ms, bool) or not isinstance(ms, (int, float)) or not 0 <= ms <= 600_000:
        raise ApiError("bad-deadline", "the deadline is a number of milliseconds, 0 to 600000")
    at = start + ms / 1000

    def passed() -> bool:
        """Whether the call's deadline has passed."""
        return time.perf_counter() >= at
    return passed


@guard
def ai_input(game: str, wizard: str, level: str | None = None,
             deadline: str | None = None) -> str:
    """The computer opponent's input for the current phase: {"input": I, "cut": B}.  `level`
    is "novice", "fair" or "strong" (JSON); without it, the default level plays.  `deadline`
    (JSON milliseconds from when the call begins, reading the game included; a safety net: the
    levels are work budgets) makes a search that reaches it play its best move so far, and
    "cut" say so: only such a move depends on the machine.  Without one the answer is the same
    on every machine."""
    start = time.perf_counter()
    g = _game(game)
    v = _wizard(wizard, g)
    lv = _level(level)
    until = _deadline(deadline, start)
    if v not in g.phase.actors:
        raise ApiError("not-your-turn", "the computer has nothing to do now")
    from .ai import think

    with _young_collections_only(until is not None):
        choice = think(g, v, lv, until)
    return ok(input=choice.orders, cut=choice.work is not None and choice.work.cut)


@contextmanager
def _young_collections_only(wanted: bool) -> Iterator[None]:
    """For the block (if `wanted`), the cyclic garbage collector leaves alone the objects that
    existed before it: a full collection walks all of them at once, the longest stretch a
    search with a deadline cannot interrupt (bench/opponent_pyodide.mjs --clock cpu: 68 ms
    past a deadline in Pyodide).  They are handed back after the block, to be collected as
    usual; the garbage the block makes is still collected in it."""
    if not wanted or gc.get_freeze_count():  # (someone else froze objects: leave them so)
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


@guard
def ai_advice(game: str, wizard: str) -> str:
    """What the strong opponent would do in this wizard's place: {"input", "gestures", "why",
    "charm", "plan"}: "charm" the gesture to write for the opponent's charmed hand (or null),
    "plan" the coach's plan (ai.coachplan: {"lines", "casts", "builds", "threat", "charm"})."""
    g = _game(game)
    v = _wizard(wizard, g)
    if g.phase.kind not in (ORDERS, TIME_STOP) or v not in g.phase.actors:
        raise ApiError("not-your-turn", "there are no orders to write now")
    from .ai import coach
    from .ai.coachplan import advice

    choice, plan = advice(g, v, coach(g, v), g.seed)
    return ok(input=choice.orders, gestures=choice.orders.get("gestures", []), why=choice.why,
              charm=plan.charm, plan=plan.to_json())


@guard
def puzzles(params: str | None = None) -> str:
    """The puzzle set: {"puzzles": [{"id", "ruleset", "kind", "title"}], "today": id};
    params {"date": "YYYY-MM-DD"} (the page's local date) picks the puzzle of the day."""
    from . import puzzles as _puzzles  # (imported when first asked for, as the bots are)

    p = {} if params is None else _load(params, "parameters")
    if not isinstance(p, dict) or not isinstance(p.get("date", ""), str):
        raise ApiError("bad-request", "parameters are {\"date\": \"YYYY-MM-DD\"}")
    return ok(**_puzzles.listing(p.get("date")))


@guard
def puzzle(pid: str) -> str:
    """One puzzle: {"puzzle": {"id", "ruleset", "kind", "title", "hints", "explain", "answer",
    "key", "unique", "game"}, "view": V} (V: the position as the player, wizard 0, sees it)."""
    from . import puzzles as _puzzles

    d = _puzzles.describe(_puzzle_id(pid))
    v = _view(_puzzles.position(d["id"]), _puzzles.YOU)
    return ok(puzzle=d, view=v)


@guard
def puzzle_check(pid: str, answer: str) -> str:
    """Whether an answer solves a puzzle: {"solved", "reply", "missing", "extra", "events"};
    the answer is orders for the turn (win, survive) or a list of spell keys (foresee);
    "reply" is the opponent's orders that beat a wrong answer, "events" the turn's log then."""
    from . import puzzles as _puzzles

    key = _puzzle_id(pid)
    given = _load(answer, "answer")
    verdict = _puzzles.judge(key, given)
    events: list[JSON] = []
    if verdict["reply"] is not None:
        _, happened = duel.step(_puzzles.position(key), {0: given, 1: verdict["reply"]})
        events = [dict(e.to_json(), visible_to=None) for e in happened if 0 in e.visible_to]
    return ok(**verdict, events=events)


@guard
def lessons() -> str:
    """The guided first duel's lessons: {"lessons": [{"id", "title", "ruleset", "try", "hint",
    "explain", "turns", "duel"}]} ("duel": a level for a whole duel, else null)."""
    from . import lessons as _lessons

    return ok(lessons=[lesson.to_json() for lesson in _lessons.all_lessons()])


@guard
def lesson(lid: str) -> str:
    """One lesson and where it starts: {"lesson": {...}, "game": G, "view": V} (wizard 0's)."""
    from . import lessons as _lessons

    found = _lessons.find_lesson(_puzzle_id(lid))
    game = _lessons.position(found.id)
    return ok(lesson=found.to_json(), game=game.to_json(), view=_view(game, 0))


@guard
def lesson_check(lid: str, turns: str) -> str:
    """Whether the player's orders for each of a lesson's turns pass its check: {"passed",
    "failed": [checks that did not hold], "events": [the turns' log, as the player saw it]}."""
    from . import lessons as _lessons

    given = _load(turns, "turns")
    if not isinstance(given, list) or not all(isinstance(t, dict) for t in given):
        raise ApiError("bad-answer", "give a list of orders, one for each turn of the lesson")
    return ok(**_lessons.check(_puzzle_id(lid), given))


@guard
def lesson_turn(lid: str, turns: str) -> str:
    """A lesson played turn by turn: the player's orders for its first turns (the opponent
    follows the script); {"played", "done", "events": [the last turn's log], "view": V
    (wizard 0's, after them)} and, once done, "passed" and "failed" as lesson_check's."""
    from . import lessons as _lessons

    given = _load(turns, "turns")
    if not isinstance(given, list) or not all(isinstance(t, dict) for t in given):
        raise ApiError("bad-answer", "give a list of orders, one for each turn played so far")
    game, out = _lessons.progress(_puzzle_id(lid), given)
    return ok(**out, view=_view(game, 0))


def _puzzle_id(text: str) -> str:
    pid = _load(text, "puzzle id")
    if not isinstance(pid, str):
        raise ApiError("bad-request", "a puzzle is named by its id, a string")
    return pid


# Remote play by turn codes: wavinghands.remote.json_api's functions (docs/protocol.md, "The
# browser API"), each imported when first called.  They are guarded there; guarded here too, so
# that not even a failed import crosses the boundary.


class _LateRemote:
    """wavinghands.remote.json_api's boundary function `name`, looked up when called (the
    first call imports the module)."""

    def __init__(self, name: str) -> None:
        self.__name__ = self.__qualname__ = name
        self.__doc__ = f"wavinghands.remote.json_api.{name}, imported on first use."

    def __call__(self, *args: str) -> str:
        from .remote import json_api

        result: str = getattr(json_api, self.__name__)(*args)
        return result


remote_invite = guard(_LateRemote("remote_invite"))
remote_describe = guard(_LateRemote("remote_describe"))
remote_route_live = guard(_LateRemote("remote_route_live"))
remote_accept = guard(_LateRemote("remote_accept"))
remote_seal = guard(_LateRemote("remote_seal"))
remote_receive = guard(_LateRemote("remote_receive"))
remote_release = guard(_LateRemote("remote_release"))
remote_draft = guard(_LateRemote("remote_draft"))
remote_carry = guard(_LateRemote("remote_carry"))
remote_status = guard(_LateRemote("remote_status"))
remote_link = guard(_LateRemote("remote_link"))
remote_parse = guard(_LateRemote("remote_parse"))


__all__ = ["ai_advice", "ai_input", "battle", "export_record", "import_record", "lesson",
           "lesson_check", "lesson_turn", "lessons", "new_game", "preview", "puzzle",
           "puzzle_check", "puzzles",
           "remote_accept", "remote_carry", "remote_describe", "remote_draft", "remote_invite",
           "remote_link", "remote_parse", "remote_receive", "remote_release", "remote_route_live",
           "remote_seal", "remote_status", "replay_step",
           "rulesets", "session_open", "session_step", "session_view", "spells", "step",
           "validate", "view"]

# The melee's entry points (three to six wizards; by codes): api_melee.py, under their names.
from . import api_melee as _melee  # noqa: E402
from .api_melee import *  # noqa: E402, F403

__all__ += _melee.__all__
