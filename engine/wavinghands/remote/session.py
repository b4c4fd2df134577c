"""Remote play without a referee: the session state machine over turn codes (docs/protocol.md).

A `Session` is one player's side of one remote game: plain data (it round-trips through JSON,
so the page can store it and survive a reload mid-exchange).  Every operation is a pure
function returning a new session; an operation that fails raises a `WavingHandsError` and the
session it was given is untouched, so "errors never change the game" holds by construction.

The exchange in one paragraph: messages strictly alternate (the host sends even-numbered ones,
the guest odd-numbered).  In a phase where both wizards give input, whoever speaks first sends a
commitment, the other answers with its input in plain (the first is already bound), and the
first opens its commitment in its next message, together with whatever comes next.  That makes
one message each way per ordinary turn.  Inputs given by one wizard alone (most decisions) are
sent in plain.  Every input of a simultaneous phase carries a fresh nonce: the dice.
"""

from __future__ import annotations

import base64
import hashlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from ..errors import IllegalInput, WavingHandsError
from ..model import DECISION, ORDERS, OVER, TIME_STOP
from ..names import SameNames, normalise_name, same_name
from ..rulesets import Ruleset, check_known, find_ruleset
from .codes import (
    COMMIT_LEN,
    DIGEST_LEN,
    GAME_ID_LEN,
    MAX_NAME_BYTES,
    NONCE_LEN,
    ROUTING,
    BadSession,
    Commit,
    ConflictingCode,
    DecisionRefs,
    Desync,
    MalformedCode,
    Message,
    MsgType,
    NotThisGame,
    NotYourTurn,
    OutOfOrder,
    OwnCode,
    RevealMismatch,
    Sealed,
    SpellNumbers,
    WireInput,
    commitment,
    decode_input,
    decode_message,
    encode_input,
    encode_message,
    extract_code,
    is_early_release,
    spell_numbers,
)
from .engine import Engine, GameJson, PhaseInfo, default_engine

Rand = Callable[[int], bytes]
SESSION_FORMAT: Final[str] = "wavinghands-remote-session"
SESSION_VERSION: Final[int] = 1


@dataclass(frozen=True, slots=True)
class Pending:
    """A simultaneous phase in which one side has committed.

    `mine` is my input (as encoded on the wire) once I have given it: the committed input if I
    committed, or what I sent in plain if they did.
    """

    turn: int
    kind: str
    seq: int  # the message that carried the commitment (commitments are bound to it)
    committer: int
    commit: bytes
    mine: bytes | None = None
    nonce: bytes | None = None


@dataclass(frozen=True, slots=True)
class Session:
    """One player's side of a remote game (see the module docstring)."""

    me: int  # 0: the host (wizard W0), 1: the guest (W1)
    game_id: bytes
    names: tuple[str, str]  # the guest's name is "" on the host's side until the acceptance
    ruleset: dict[str, Any]
    game: GameJson | None  # None on the host's side until the acceptance
    seq: int  # index of the next message of the exchange (even: the host sends it)
    sent: tuple[str, ...] = ()
    received: tuple[str, ...] = ()
    pending: Pending | None = None
    owed: Sealed | None = None  # my opened commitment, to go in my next message
    draft: tuple[bytes, ...] = ()  # my solo inputs already applied, to go in my next message

    @property
    def other(self) -> int:
        """The opponent's wizard index."""
        return 1 - self.me

    @property
    def numbers(self) -> SpellNumbers:
        """How this game's codes number spells: its ruleset's table, row by row."""
        return _numbers(self.ruleset)

    @property
    def my_move(self) -> bool:
        """True when the next message of the exchange is mine to send."""
        return self.seq % 2 == self.me

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (bytes as hex)."""
        p = self.pending
        return {
            "format": SESSION_FORMAT, "version": SESSION_VERSION, "me": self.me,
            "game_id": self.game_id.hex(), "names": list(self.names), "ruleset": self.ruleset,
            "game": self.game, "seq": self.seq, "sent": list(self.sent),
            "received": list(self.received),
            "pending": None if p is None else {
                "turn": p.turn, "kind": p.kind, "seq": p.seq, "committer": p.committer,
                "commit": p.commit.hex(), "mine": None if p.mine is None else p.mine.hex(),
                "nonce": None if p.nonce is None else p.nonce.hex()},
            "owed": None if self.owed is None else {
                "input": encode_input(self.owed.input, self.numbers).hex(),
                "nonce": self.owed.nonce.hex()},
            "draft": [d.hex() for d in self.draft],
        }

    @staticmethod
    def from_json(d: Any) -> Session:
        """Inverse of to_json; raises BadSession for anything else."""
        try:
            if d.get("format") != SESSION_FORMAT or d.get("version") != SESSION_VERSION:
                raise BadSession("this is not a stored remote game (format/version)")
            p = d["pending"]
            pending = None if p is None else Pending(
                int(p["turn"]), str(p["kind"]), int(p["seq"]), int(p["committer"]),
                _hex(p["commit"], COMMIT_LEN), None if p["mine"] is None else _hex(p["mine"]),
                None if p["nonce"] is None else _hex(p["nonce"], NONCE_LEN))
            rules = dict(d["ruleset"])
            o = d["owed"]
            owed = None if o is None else Sealed(decode_input(_hex(o["input"]), _numbers(rules)),
                                                 _hex(o["nonce"], NONCE_LEN))
            names = d["names"]
            s = Session(int(d["me"]), _hex(d["game_id"], GAME_ID_LEN),
                        (str(names[0]), str(names[1])), rules, d["game"],
                        int(d["seq"]), tuple(str(c) for c in d["sent"]),
                        tuple(str(c) for c in d["received"]), pending, owed,
                        tuple(_hex(x) for x in d["draft"]))
        except BadSession:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            raise BadSession(f"the stored remote game is damaged ({e})") from e
        if s.me not in (0, 1) or s.seq < 1 or (s.game is not None
                                              and not isinstance(s.game, dict)):
            raise BadSession("the stored remote game is damaged")
        return s


def _numbers(rules: Mapping[str, Any]) -> SpellNumbers:
    """The spell numbering of a game under these rules (an invitation's ruleset object)."""
    return spell_numbers(Ruleset.from_json(dict(rules)).table)


def _hex(value: Any, length: int | None = None) -> bytes:
    data = bytes.fromhex(str(value))
    if length is not None and len(data) != length:
        raise ValueError("wrong length")
    return data


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an operation produced: the new session, a code to send now (or None), the events
    the engine reported to me, and a note for the player (e.g. "already applied")."""

    session: Session
    code: str | None = None
    events: tuple[Any, ...] = ()
    note: str = ""


def seed_for(game_id: bytes) -> str:
    """The engine seed of a remote game: public, derived from the game id (the dice owe their
    fairness to the per-phase nonces, not to the seed; see docs/protocol.md)."""
    return hashlib.sha256(b"wavinghands/seed/v1\0" + game_id).hexdigest()[:32]


def _check_name(name: str) -> str:
    # The engine's one canonical form (names.normalise_name), which must also fit a code.
    name = normalise_name(name)
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        raise IllegalInput(message=f"a name must be 1 to {MAX_NAME_BYTES} bytes long "
                                   "(in UTF-8; a letter outside ASCII takes 2 to 4)")
    return name


def _received_name(name: str, other: str) -> str:
    """A name a code carries: already canonical (the sender's engine normalised it, so any
    other form was crafted) and not the same as the name it stands beside."""
    try:
        canonical = _check_name(name)
    except WavingHandsError as e:
        raise MalformedCode(f"the name in this code cannot be used: {e}") from e
    if canonical != name:
        raise MalformedCode("the name in this code holds hidden or look-alike characters "
                            f"(it would read {canonical!r}); it was not made by Waving Hands")
    if other and same_name(name, other):
        raise SameNames(f"both wizards would be called {name!r}; the two need different names")
    return name


def wire_ruleset(ruleset: Mapping[str, Any] | None) -> dict[str, Any]:
    """The ruleset as an invitation carries it: the name and options given, less what equals
    the standard game's, so a standard game's invitation carries {} and stays short.  An
    unknown or ill-typed option, or a name no ruleset has, is refused here, by the host."""
    given = dict(ruleset or {})
    Ruleset.from_json(given)  # RulesetError for an unknown or ill-typed option
    if "name" in given:
        find_ruleset(given["name"])  # UnknownRuleset: a new game names a ruleset that exists
    standard = Ruleset().to_json()
    return {k: v for k, v in given.items() if k not in standard or standard[k] != v}


def invitation_rules(m: Message) -> Ruleset:
    """The rules an invitation's duel is played under; raises UnknownRuleset for a ruleset this
    page does not know (the invitation came from a newer page)."""
    rules = Ruleset.from_json(dict(m.ruleset or {}))
    return check_known(rules, f"{m.name or 'the host'}'s duel")


def create_invitation(host_name: str, ruleset: Mapping[str, Any] | None = None,
                      rand: Rand = os.urandom) -> Outcome:
    """Start a game as host (wizard W0): the session waiting for acceptance and the invitation
    code to send; raises RulesetError for a ruleset the engine does not know."""
    name = _check_name(host_name)
    rules = wire_ruleset(ruleset)
    game_id = rand(GAME_ID_LEN)
    code = encode_message(Message(MsgType.INVITE, 0, game_id, 0, 0, ORDERS, name=name,
                                  ruleset=rules))
    return Outcome(Session(0, game_id, (name, ""), rules, None, 1, sent=(code,)), code)


def read_invitation(text: str) -> Message:
    """The invitation in a pasted code or link (raises a CodeError if it is not one)."""
    m = decode_message(extract_code(text))
    if m.type is not MsgType.INVITE:
        raise NotThisGame("this code is not an invitation: it belongs to a game already under "
                          "way. Open it in the game it belongs to")
    return m


def accept_invitation(text: str, guest_name: str, engine: Engine | None = None) -> Session:
    """Join a game as guest (wizard W1).  The guest writes turn 1 first: sealing those orders
    makes the acceptance code."""
    eng = engine or default_engine()
    m = read_invitation(text)
    host = _received_name(m.name, "")
    name = _check_name(guest_name)
    if same_name(host, name):
        raise SameNames(f"your host is already called {host!r}: choose another name to join")
    names = (host, name)
    invitation_rules(m)
    rules = m.ruleset or {}
    game = eng.new_game(names, rules, seed_for(m.game_id))
    return Session(1, m.game_id, names, rules, game, 1, received=(extract_code(text),))


# --- status ---------------------------------------------------------------------------------


def status(s: Session, engine: Engine | None = None) -> dict[str, Any]:
    """What the session waits for, as JSON for the UI (see docs/protocol.md)."""
    opp = s.names[s.other] or "your opponent"
    base: dict[str, Any] = {"game_id": s.game_id.hex(), "me": s.me, "seq": s.seq,
                            "sent": len(s.sent), "last_sent": s.sent[-1] if s.sent else None,
                            # the opponent has not had my last code answered yet
                            "code_owed": bool(s.sent) and not s.my_move,
                            # my input for this phase is sealed, waiting for the opponent's
                            "sealed": s.pending is not None and s.pending.committer == s.me,
                            # my owed reveal may go alone now (live play: see release)
                            "release": can_release(s, engine),
                            # the opponent speaks first in this phase, yet I act in it: my
                            # input may be written now, to go in plain once theirs is committed
                            "ahead": _ahead(s, engine)}
    if s.game is None:
        return {**base, "state": "awaiting_accept", "turn": 0, "phase": None,
                "message": "Waiting for your opponent to accept: send them the invitation "
                           "(code or link), then paste their answer here."}
    ph = (engine or default_engine()).phase(s.game)
    base.update(turn=ph.turn, phase=ph.kind, actors=list(ph.actors))
    if ph.kind == OVER:
        tail = (f" Make sure {opp} got your last code." if not s.my_move else "")
        return {**base, "state": "over", "result": s.game.get("result"),
                "message": "The duel is over." + tail}
    if s.my_move:
        what = {ORDERS: "your orders", DECISION: "your decision",
                TIME_STOP: "your orders for the hasted turn" if ph.hasted else
                "your orders for the time-stopped turn"}.get(ph.kind, "your input")
        return {**base, "state": "your_input", "need": ph.kind,
                "message": f"Turn {ph.turn}: write {what}."}
    return {**base, "state": "waiting",
            "message": f"Waiting for {opp}'s code (turn {ph.turn}). Paste it here when it comes; "
                       f"if {opp} did not get your last code, send it again."}


# --- building messages ----------------------------------------------------------------------


def _strip_nonce(x: Mapping[str, Any]) -> dict[str, Any]:
    # The nonce is the protocol's business: a fresh one is drawn for every sealed input.
    return {k: v for k, v in x.items() if k != "nonce"}


def _to_wire(ph: PhaseInfo, x: dict[str, Any]) -> WireInput:
    """Decisions become indexes into the phase's list when they can (shorter codes)."""
    answers = x.get("decisions")
    if ph.kind != DECISION or set(x) != {"decisions"} or not isinstance(answers, dict) \
            or not answers:
        return x
    pairs = []
    for did, choice in answers.items():
        idx = next((i for i, d in enumerate(ph.decisions) if d.id == did), None)
        if idx is None or choice not in ph.decisions[idx].options:
            return x
        pairs.append((idx, ph.decisions[idx].options.index(choice)))
    return DecisionRefs(tuple(sorted(pairs)))


def _from_wire(ph: PhaseInfo, x: WireInput) -> dict[str, Any]:
    if not isinstance(x, DecisionRefs):
        return x
    answers = {}
    for idx, opt in x.pairs:
        if ph.kind != DECISION or idx >= len(ph.decisions) or \
                opt >= len(ph.decisions[idx].options):
            raise IllegalInput(message="the opponent answered a decision that is not asked "
                                       "now")
        answers[ph.decisions[idx].id] = ph.decisions[idx].options[opt]
    return {"decisions": answers}


def _engine_inputs(ph: PhaseInfo, given: Mapping[int, tuple[WireInput, bytes | None]]
                   ) -> dict[int, dict[str, Any]]:
    """The engine's inputs for a phase from each side's wire input and nonce."""
    out: dict[int, dict[str, Any]] = {}
    for w, (x, _) in given.items():
        if w not in ph.actors and x != {}:
            raise IllegalInput(message=f"wizard W{w} gave input in a phase where only "
                               f"{_actor_text(ph)} act")
    for a in ph.actors:
        x, nonce = given[a]
        inp = _from_wire(ph, x)
        if ph.kind in (ORDERS, TIME_STOP) and nonce is not None:
            inp = {**inp, "nonce": _engine_nonce(ph, given, a)}
        out[a] = inp
    return out


def _engine_nonce(ph: PhaseInfo, given: Mapping[int, tuple[WireInput, bytes | None]],
                  actor: int) -> str:
    own = given[actor][1]
    assert own is not None
    if len(ph.actors) == 2:
        return own.hex()  # the engine mixes both wizards' nonces itself
    # A wizard acting alone (time stop) must not pick his own dice: mix in the other side's
    # nonce, committed or sent before his orders were known.
    other = given[1 - actor][1] or b""
    return hashlib.sha256(b"wavinghands/mix/v1\0" + own + other).digest()[:NONCE_LEN].hex()


def _actor_text(ph: PhaseInfo) -> str:
    return " and ".join(f"W{a}" for a in ph.actors) or "nobody"


def _apply(eng: Engine, game: GameJson, ph: PhaseInfo,
           given: Mapping[int, tuple[WireInput, bytes | None]], check: tuple[int, ...],
           names: tuple[str, str]) -> tuple[GameJson, list[Any], list[Any]]:
    """Step the engine; inputs of the wizards in `check` are validated first."""
    inputs = _engine_inputs(ph, given)
    for w in check:
        if w in inputs:
            found = eng.problems(game, w, inputs[w])
            if found:
                text = "; ".join(p.get("message", str(p)) for p in found)
                raise IllegalInput(found, f"{names[w] or 'the opponent'}'s input for turn "
                                   f"{ph.turn} is not legal here: {text}. Their page may run "
                                   "another version of the game")
    new_game, events = eng.step(game, inputs)
    return new_game, list(events.get(0, [])), list(events.get(1, []))


def _send(s: Session, eng: Engine, final: Commit | Sealed | None) -> tuple[Session, str]:
    assert s.game is not None
    ph = eng.phase(s.game)
    m = Message(MsgType.ACCEPT if s.seq == 1 else MsgType.TURN, s.me, s.game_id, s.seq,
                ph.turn, ph.kind, eng.digest(s.game)[:DIGEST_LEN],
                name=s.names[1] if s.seq == 1 else "", reveal=s.owed,
                solo=tuple(decode_input(d, s.numbers) for d in s.draft), final=final)
    code = encode_message(m, s.numbers)
    return replace(s, seq=s.seq + 1, sent=(*s.sent, code), owed=None, draft=()), code


def _seal_simultaneous(s: Session, eng: Engine, ph: PhaseInfo, x: WireInput,
                       nonce: bytes) -> tuple[Session, str]:
    p = s.pending
    wire = encode_input(x, s.numbers)
    if p is not None and p.committer == s.other:
        # They are bound already: my input can travel in plain.
        return _send(replace(s, pending=replace(p, mine=wire, nonce=nonce)), eng, Sealed(x, nonce))
    c = commitment(s.game_id, s.seq, s.me, x, nonce, s.numbers)
    p = Pending(ph.turn, ph.kind, s.seq, s.me, c, wire, nonce)
    return _send(replace(s, pending=p), eng, Commit(c))


def _continue(s: Session, eng: Engine, rand: Rand) -> tuple[Session, str | None]:
    """I hold the pen: do what needs no player; stop at a player's input or after sending."""
    assert s.game is not None
    ph = eng.phase(s.game)
    if ph.kind == OVER:
        if s.owed is not None or s.draft:
            return _send(s, eng, None)
        return s, None
    if ph.simultaneous:
        if s.me in ph.actors:
            return s, None
        # Not acting (the other's time-stopped turn): my part is only a nonce for the dice.
        return _seal_simultaneous(s, eng, ph, {}, rand(NONCE_LEN))
    if s.me in ph.actors:
        return s, None
    return _send(s, eng, None)  # the other decides alone, once my reveal lets them see why


def seal(s: Session, x: Mapping[str, Any], engine: Engine | None = None,
         rand: Rand = os.urandom) -> Outcome:
    """Give my input for the current phase.  Returns the code to send, or no code when the
    rules ask me for more first (e.g. a decision, then next turn's orders)."""
    eng = engine or default_engine()
    if s.game is None:
        raise NotYourTurn("the game starts when your opponent accepts the invitation")
    if not s.my_move:
        raise NotYourTurn(f"it is {s.names[s.other]}'s move: wait for their code")
    ph = eng.phase(s.game)
    if ph.kind == OVER:
        raise NotYourTurn("the duel is over")
    if s.me not in ph.actors:
        raise NotYourTurn("the rules ask nothing of you now")
    if not isinstance(x, Mapping):
        raise IllegalInput(message="an input is a JSON object")
    try:
        wire = decode_input(encode_input(_to_wire(ph, _strip_nonce(x)), s.numbers), s.numbers)
    except (ValueError, TypeError) as e:
        raise IllegalInput(message=f"this input cannot be sent: {e}") from e
    found = eng.problems(s.game, s.me, _from_wire(ph, wire))
    if found:
        raise IllegalInput(found)
    if ph.simultaneous:
        s2, code = _seal_simultaneous(s, eng, ph, wire, rand(NONCE_LEN))
        return Outcome(s2, code)
    game, e0, e1 = _apply(eng, s.game, ph, {s.me: (wire, None)}, (), s.names)
    s2 = replace(s, game=game, draft=(*s.draft, encode_input(wire, s.numbers)))
    s3, reply = _continue(s2, eng, rand)
    return Outcome(s3, reply, tuple(e0 if s.me == 0 else e1))


def mine_as_input(s: Session, engine: Engine | None = None) -> dict[str, Any]:
    """My input to the pending phase, as the engine takes it (empty when I gave none yet)."""
    if s.game is None or s.pending is None or s.pending.mine is None:
        return {}
    ph = (engine or default_engine()).phase(s.game)
    return _from_wire(ph, decode_input(s.pending.mine, s.numbers))


def can_release(s: Session, engine: Engine | None = None) -> bool:
    """True when my owed reveal and/or my decisions can go now, without my next input: it is my
    move and an orders or time-stop phase in which I act is open."""
    if s.game is None or not s.my_move or (s.owed is None and not s.draft) or s.pending is not None:
        return False
    ph = (engine or default_engine()).phase(s.game)
    return ph.kind in (ORDERS, TIME_STOP) and s.me in ph.actors


def _ahead(s: Session, engine: Engine | None) -> bool:
    if s.game is None or s.my_move or s.pending is not None:
        return False
    ph = (engine or default_engine()).phase(s.game)
    return ph.kind in (ORDERS, TIME_STOP) and s.me in ph.actors


def release(s: Session, engine: Engine | None = None) -> Outcome:
    """Send my owed reveal alone, now, instead of with my next input (docs/protocol.md, "Both
    choose at the same time"): the opponent sees the turn's result at once and commits first in
    the next phase while I write my input, which then goes in plain.  No code when there is
    nothing to release (see can_release)."""
    eng = engine or default_engine()
    if not can_release(s, eng):
        return Outcome(s, None)
    s2, code = _send(s, eng, None)
    return Outcome(s2, code)


def resend(s: Session) -> str | None:
    """The last code I sent (to send again if it got lost)."""
    return s.sent[-1] if s.sent else None


# --- receiving ------------------------------------------------------------------------------


def receive(s: Session, text: str, engine: Engine | None = None,
            rand: Rand = os.urandom) -> Outcome:
    """Apply the opponent's code (or a link holding it).  Returns the new session, my events,
    and a reply code when one must go back at once without any input from me."""
    eng = engine or default_engine()
    code = extract_code(text)
    m = decode_message(code, ROUTING)  # which game and message, before its spells are read
    if m.game_id != s.game_id:
        raise NotThisGame("this code belongs to another game (game "
                          f"{m.game_id.hex()}, this one is {s.game_id.hex()})")
    opp = s.names[s.other] or "your opponent"
    if m.sender == s.me:
        raise OwnCode("this is a code you made: send it to your opponent, and paste here the "
                      "code they send back")
    if m.seq < s.seq:
        if code in s.received:
            return Outcome(s, None, (), f"Already applied: you pasted this code before, nothing "
                                        f"changed. If {opp} is waiting, send your last code "
                                        "again.")
        if m.type is MsgType.ACCEPT:
            raise ConflictingCode(f"this invitation was already accepted by {opp}: one "
                                  "invitation makes one game. Send a new invitation to play "
                                  "another")
        raise ConflictingCode(f"this code from {opp} replaces one you already applied "
                              "(they sealed that step twice, perhaps after a reload). The game "
                              f"goes on from the first one: send {opp} your last code again")
    if s.my_move:
        raise OutOfOrder(f"it is your move: {opp} is waiting for your code"
                         + (f" for turn {eng.phase(s.game).turn}" if s.game else "")
                         + ". This code comes after it")
    if m.seq > s.seq:
        raise OutOfOrder(f"this code (turn {m.turn}) comes after one you have not pasted yet; "
                         f"the code expected next is {opp}'s code"
                         + (f" for turn {eng.phase(s.game).turn}" if s.game else "")
                         + f". Paste that first (ask {opp} to send their codes again)")
    if m.seq % 2 != m.sender:
        raise MalformedCode("the sender does not match the message number")
    try:
        return _receive(s, code, decode_message(code, s.numbers), eng, rand)
    except WavingHandsError:
        raise
    except (ValueError, KeyError, TypeError) as e:
        raise MalformedCode(f"this code cannot be applied: {e}") from e


def _receive(s: Session, code: str, m: Message, eng: Engine, rand: Rand) -> Outcome:
    names = s.names
    game = s.game
    if m.type is MsgType.ACCEPT:
        names = (s.names[0], _received_name(m.name, s.names[0]))
        game = eng.new_game(names, s.ruleset, seed_for(s.game_id))
    assert game is not None
    me, other = s.me, s.other
    mine: list[Any] = []
    pending = s.pending
    owed = s.owed

    def step(ph: PhaseInfo, given: Mapping[int, tuple[WireInput, bytes | None]]) -> None:
        nonlocal game
        assert game is not None
        game, e0, e1 = _apply(eng, game, ph, given, (other,), names)
        mine.extend(e0 if me == 0 else e1)

    if m.reveal is not None:
        p = pending
        if p is None or p.committer != other or p.mine is None:
            raise MalformedCode("this code opens a commitment that was never made")
        if commitment(s.game_id, p.seq, other, m.reveal.input, m.reveal.nonce,
                      s.numbers) != p.commit:
            raise RevealMismatch(f"{names[other]}'s orders changed after they were sealed: what "
                                 "this code reveals is not what they committed to. The game "
                                 "cannot go on with these orders")
        ph = eng.phase(game)
        if (ph.turn, ph.kind) != (p.turn, p.kind):
            raise Desync("the game is not at the phase the commitment was made for")
        step(ph, {me: (decode_input(p.mine, s.numbers), p.nonce),
                  other: (m.reveal.input, m.reveal.nonce)})
        pending = None
    elif pending is not None and pending.committer == other and pending.mine is not None:
        raise MalformedCode(f"{names[other]}'s code does not open their sealed input")
    for x in m.solo:
        ph = eng.phase(game)
        if ph.kind != DECISION or ph.actors != (other,):
            raise MalformedCode("this code answers a decision that is not asked now")
        step(ph, {other: (x, None)})
    ph = eng.phase(game)
    if (ph.turn, ph.kind) != (m.turn, m.phase) or eng.digest(game)[:DIGEST_LEN] != m.state:
        where = (f"at turn {ph.turn}" if ph.turn == m.turn
                 else f"turn {ph.turn} here, turn {m.turn} there")
        raise Desync(f"your game and {names[other]}'s no longer agree ({where}). Both of you "
                     "should reload the page so both run the same version, then send each other "
                     "your last codes again. If it persists, export the game record and report "
                     "it")
    if isinstance(m.final, Commit):
        if not ph.simultaneous or pending is not None:
            raise MalformedCode("this code commits to a phase that is not open")
        pending = Pending(ph.turn, ph.kind, m.seq, other, m.final.digest)
    elif isinstance(m.final, Sealed):
        p = pending
        if p is None or p.committer != me or p.mine is None or p.nonce is None:
            raise MalformedCode("this code answers a commitment you did not make")
        step(ph, {me: (decode_input(p.mine, s.numbers), p.nonce),
                  other: (m.final.input, m.final.nonce)})
        owed = Sealed(decode_input(p.mine, s.numbers), p.nonce)
        pending = None
    elif is_early_release(m):
        # Their reveal and/or decisions came alone (live play): the next phase is open and I
        # speak first in it.
        if pending is not None or not ph.simultaneous:
            raise MalformedCode("this code releases a reveal where none can go alone")
    elif ph.simultaneous and ph.kind != OVER and (pending is None or pending.mine is None):
        raise MalformedCode(f"this code brings no input for turn {ph.turn}")
    elif ph.simultaneous and pending is not None and pending.committer == me:
        # An empty answer to my commitment used to be taken: the commitment was dropped and
        # re-made with a new nonce (issue 12.6).  Only the opponent's sealed input answers it.
        raise MalformedCode(f"this code does not answer the orders you sealed for turn "
                            f"{ph.turn}: it brings no input from {names[other]}. Ask them to "
                            "send their code for this turn again")
    s2 = replace(s, names=names, game=game, seq=s.seq + 1, received=(*s.received, code),
                 pending=pending, owed=owed)
    s3, reply = _continue(s2, eng, rand)
    return Outcome(s3, reply, tuple(mine))


# --- looking at a code without a session ----------------------------------------------------


def describe(text: str) -> dict[str, Any]:
    """What a code is (for routing a pasted code or opened link to the right game)."""
    code = extract_code(text)
    m = decode_message(code, ROUTING)  # routing reads no spell: the game's table is not known
    out: dict[str, Any] = {"code": code, "kind": m.type.name.lower(), "game_id": m.game_id.hex(),
                           "sender": m.sender, "seq": m.seq, "turn": m.turn, "phase": m.phase}
    if m.type is MsgType.INVITE:
        out.update(host=m.name, ruleset=m.ruleset, rules=invitation_rules(m).describe())
    if m.type is MsgType.ACCEPT:
        out.update(guest=m.name)
    return out


def b64(data: bytes) -> str:
    """base64url without padding (for tests and tools)."""
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


__all__ = [
    "Engine", "Outcome", "PhaseInfo", "Session", "accept_invitation", "create_invitation",
    "describe", "invitation_rules", "read_invitation", "receive", "resend", "seal", "status",
    "wire_ruleset",
]
