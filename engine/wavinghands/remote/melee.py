"""Remote melee: three to six players, no trusted party, by codes (docs/protocol.md, "Melee").

Every phase of the game is one *round* of two steps, for every wizard still in the fight:
each posts a **commitment** to his input (orders, his answers, or an empty dice share), and
once he holds every participant's commitment he posts its **reveal**.  Nobody's page reveals
before it holds every commitment, so nobody learns anyone's orders before his own are bound; the
dice mix every participant's nonce, fixed before any is known.  Once a page holds every reveal,
each checked against its commitment, it steps the engine; every page steps the same game.

A reveal also carries a hash of the commitments its sender holds (`transcript`): a player who
showed different commitments to different players is caught before anyone's page uses the
round, and the sender's state digest, as in a duel, catches any other divergence.

Codes are `WH1.` + base64url(body ‖ CRC-32), as the duel's, with their own version byte
(MELEE_VERSION), so a duel's page says "use the same (newest) version" of a melee's code.
One paste may carry several codes (`split_codes`): a player copies the group chat's lines.
Pure: a session is a frozen value, every operation returns a new one.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Final

from ..duel import new_game, step
from ..errors import IllegalInput
from ..legal import input_problems
from ..model import MAX_WIZARDS, OVER, Game, state_digest
from ..names import normalise_name
from ..orders import parse_decisions, parse_orders
from ..rulesets import Ruleset
from ..situation import constraints
from .code_errors import (
    BadSession,
    ConflictingCode,
    CorruptedCode,
    Desync,
    MalformedCode,
    NotThisGame,
    NotYourTurn,
    OutOfOrder,
    OwnCode,
    RevealMismatch,
)
from .codes import (
    COMMIT_LEN,
    CRC_LEN,
    DIGEST_LEN,
    GAME_ID_LEN,
    MAX_NAME_BYTES,
    NONCE_LEN,
    PREFIX,
    _b64encode,
    _read_uvarint,
    _uvarint,
    unwrap,
)
from .inputs import (
    SpellNumbers,
    WireInput,
    canonical_json,
    decode_input,
    encode_input,
    spell_numbers,
)

MELEE_VERSION: Final[int] = 5
TRANSCRIPT_LEN: Final[int] = 8
MAX_ROUND: Final[int] = 100_000
MAX_RULES_BYTES: Final[int] = 200
# Message kinds (the flags byte's top two bits).
INVITE: Final[int] = 0
ACCEPT: Final[int] = 1
COMMIT: Final[int] = 2
REVEAL: Final[int] = 3
_CODE_RE: Final = re.compile(r"WH[0-9]+\.[A-Za-z0-9_-]+")


class Equivocation(ConflictingCode):
    """A player sent two different commitments (or names) for one step, or showed different
    commitments to different players."""

    code = "equivocation"


@dataclass(frozen=True, slots=True)
class MeleeMessage:
    """One code of a melee: who sent it, for which round, and what it carries."""

    kind: int  # INVITE | ACCEPT | COMMIT | REVEAL
    sender: int  # seat 0..N-1 (the host is seat 0)
    seats: int
    game_id: bytes
    round: int  # the game's round (one per phase), from 0
    digest: bytes = b""  # the sender's state digest as the round began (commit, reveal)
    name: str = ""  # invitation: the host's; acceptance: the sender's
    seat: int = 0  # invitation: the seat it offers
    rules: str = ""  # invitation: the ruleset, canonical JSON
    commitment: bytes = b""
    data: bytes = b""  # reveal: the input's bytes
    nonce: bytes = b""
    transcript: bytes = b""  # reveal: the hash of every commitment of the round


def _string(w: bytearray, text: str, limit: int) -> None:
    raw = text.encode("utf-8")
    if len(raw) > limit:
        raise ValueError(f"text too long for a code ({len(raw)} bytes)")
    w += _uvarint(len(raw)) + raw


def _read_string(body: bytes, pos: int, limit: int) -> tuple[str, int]:
    n, pos = _read_uvarint(body, pos, limit)
    if pos + n > len(body):
        raise MalformedCode("the code ends too early")
    try:
        return body[pos:pos + n].decode("utf-8"), pos + n
    except UnicodeDecodeError as e:
        raise MalformedCode("a name is not valid UTF-8") from e


def encode(m: MeleeMessage) -> str:
    """The code of a melee message."""
    body = bytearray([MELEE_VERSION, (m.kind << 6) | (m.sender << 3) | (m.seats - 1)])
    body += m.game_id + _uvarint(m.round)
    if m.kind == INVITE:
        _string(body, m.name, MAX_NAME_BYTES)
        body += bytes([m.seat])
        _string(body, m.rules, MAX_RULES_BYTES)
    elif m.kind == ACCEPT:
        _string(body, m.name, MAX_NAME_BYTES)
    else:
        body += m.digest
        if m.kind == COMMIT:
            body += m.commitment
        else:
            body += m.transcript + m.nonce + m.data
    data = bytes(body)
    return PREFIX + _b64encode(data + zlib.crc32(data).to_bytes(CRC_LEN, "big"))


def decode(code: str) -> MeleeMessage:
    """Parse a melee code; raises CorruptedCode, UnsupportedVersion or MalformedCode."""
    body = unwrap(code)
    if body[0] != MELEE_VERSION:
        raise MalformedCode("this is a duel's code, not a melee's: paste it into the duel")
    flags = body[1]
    kind, sender, seats = flags >> 6, (flags >> 3) & 7, (flags & 7) + 1
    if not 3 <= seats <= MAX_WIZARDS or sender >= seats:
        raise MalformedCode("a melee has three to six seats")
    pos = 2 + GAME_ID_LEN
    if len(body) < pos:
        raise MalformedCode("the code ends too early")
    game_id = body[2:pos]
    rnd, pos = _read_uvarint(body, pos, MAX_ROUND)
    m = MeleeMessage(kind, sender, seats, game_id, rnd)
    if kind == INVITE:
        name, pos = _read_string(body, pos, MAX_NAME_BYTES)
        if pos >= len(body):
            raise MalformedCode("the code ends too early")
        seat = body[pos]
        rules, pos = _read_string(body, pos + 1, MAX_RULES_BYTES)
        if not 0 < seat < seats or sender != 0 or rnd != 0:
            raise MalformedCode("an invitation offers a guest's seat, from the host")
        m = replace(m, name=name, seat=seat, rules=rules)
    elif kind == ACCEPT:
        name, pos = _read_string(body, pos, MAX_NAME_BYTES)
        m = replace(m, name=name)
    else:
        need = DIGEST_LEN + (COMMIT_LEN if kind == COMMIT else TRANSCRIPT_LEN + NONCE_LEN)
        if len(body) < pos + need:
            raise MalformedCode("the code ends too early")
        digest = body[pos:pos + DIGEST_LEN]
        pos += DIGEST_LEN
        if kind == COMMIT:
            m = replace(m, digest=digest, commitment=body[pos:pos + COMMIT_LEN])
            pos += COMMIT_LEN
        else:
            transcript = body[pos:pos + TRANSCRIPT_LEN]
            nonce = body[pos + TRANSCRIPT_LEN:pos + TRANSCRIPT_LEN + NONCE_LEN]
            m = replace(m, digest=digest, transcript=transcript, nonce=nonce,
                        data=body[pos + TRANSCRIPT_LEN + NONCE_LEN:])
            pos = len(body)
    if pos != len(body) or encode(m) != code:
        raise MalformedCode("the code is not in its one canonical form")
    return m


def split_codes(text: str) -> list[str]:
    """Every code in a pasted text (a chat's lines, links, one per line or run together), in
    order; whitespace inside a wrapped code is not forgiven here, one code per run."""
    found = _CODE_RE.findall(text)
    if not found:
        raise CorruptedCode(f"there is no code here (codes start with {PREFIX})")
    return found


def melee_commitment(game_id: bytes, rnd: int, sender: int, data: bytes, nonce: bytes) -> bytes:
    """The commitment to input bytes `data` with salt-and-dice `nonce`, bound to a game, a
    round and a seat (a commitment replayed elsewhere opens nothing)."""
    h = hashlib.sha256(b"wavinghands/melee-commit/v1\0" + game_id + _uvarint(rnd) +
                       bytes([sender]))
    h.update(_uvarint(len(data)) + data + nonce)
    return h.digest()[:COMMIT_LEN]


def transcript(commits: dict[int, bytes]) -> bytes:
    """The hash of a round's commitments, by seat."""
    h = hashlib.sha256(b"wavinghands/melee-transcript/v1\0")
    for seat in sorted(commits):
        h.update(bytes([seat]) + commits[seat])
    return h.digest()[:TRANSCRIPT_LEN]


def engine_nonce(seat: int, nonces: dict[int, bytes]) -> str:
    """The nonce the engine's dice read for `seat`: every participant's share mixed, so a
    phase's dice need every player's secret (those who act and those who only wait)."""
    h = hashlib.sha256(b"wavinghands/melee-mix/v1\0" + bytes([seat]))
    for s in sorted(nonces):
        h.update(bytes([s]) + nonces[s])
    return h.digest()[:NONCE_LEN].hex()


def seed_of(game_id: bytes) -> str:
    """The engine's public seed (the dice's secrecy is in the nonces)."""
    return hashlib.sha256(b"wavinghands/seed/v1\0" + game_id).hexdigest()[:32]


# ---------------------------------------------------------------------------------------------
# One player's side.


@lru_cache(maxsize=8)
def _game_of(text: str) -> Game:
    """The game a session stores (parsed once: every step of a round asks for it)."""
    return Game.from_json(json.loads(text))


@dataclass(frozen=True, slots=True)
class MeleeSession:
    """One player's side of a remote melee: who is who, the game, and the round under way."""

    game_id: bytes
    me: int
    seats: int
    rules: str  # canonical JSON of the ruleset
    names: tuple[str, ...]  # "" until that seat's acceptance (the host's: the invitation)
    game: str = ""  # canonical JSON of the engine's game, once every name is known
    round: int = 0
    commits: tuple[tuple[int, bytes], ...] = ()
    reveals: tuple[tuple[int, bytes, bytes], ...] = ()  # (seat, input bytes, nonce)
    sealed: tuple[bytes, bytes] | None = None  # my input bytes and nonce for this round
    log: tuple[str, ...] = ()  # codes I wrote, newest last (to post again)
    conceded: tuple[int, ...] = ()  # seats the others conceded: every page plays them (concede)
    # What I saw happen in the rounds this call resolved (events as JSON; not stored: a page
    # shows them once, from the call's answer).
    events: tuple[dict[str, Any], ...] = field(default=(), compare=False)

    # -- state -------------------------------------------------------------------------------
    def engine_game(self) -> Game:
        """The engine's game (raises NotYourTurn before every seat has accepted)."""
        if not self.game:
            raise NotYourTurn("waiting for every player's acceptance")
        return _game_of(self.game)

    @property
    def numbers(self) -> SpellNumbers:
        """The wire numbering of the game's spells."""
        return spell_numbers(Ruleset.from_json(json.loads(self.rules)).table)

    def participants(self) -> tuple[int, ...]:
        """The seats that take part in this round: every wizard still in the fight."""
        if not self.game:
            return ()
        g = self.engine_game()
        if g.phase.kind == OVER:
            return ()
        return tuple(w.index for w in g.wizards if w.in_fight)

    def waiting_for(self) -> tuple[int, ...]:
        """The seats whose code this round still needs (mine included)."""
        parts = self.participants()
        have = dict(self.commits)
        if any(s not in have for s in parts):
            return tuple(s for s in parts if s not in have)
        shown = {s for s, _, _ in self.reveals}
        return tuple(s for s in parts if s not in shown)

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        return {"format": "wavinghands-melee-session", "version": 1,
                "game_id": self.game_id.hex(), "me": self.me, "seats": self.seats,
                "rules": self.rules, "names": list(self.names), "game": self.game,
                "round": self.round, "commits": {str(s): c.hex() for s, c in self.commits},
                "reveals": {str(s): [d.hex(), n.hex()] for s, d, n in self.reveals},
                "sealed": None if self.sealed is None else [x.hex() for x in self.sealed],
                "log": list(self.log), "conceded": list(self.conceded)}

    @staticmethod
    def from_json(d: Any) -> MeleeSession:
        """Inverse of to_json; raises BadSession."""
        try:
            if d["format"] != "wavinghands-melee-session" or d["version"] != 1:
                raise ValueError("not a melee session")
            sealed = d["sealed"]
            return MeleeSession(
                bytes.fromhex(d["game_id"]), int(d["me"]), int(d["seats"]), str(d["rules"]),
                tuple(str(n) for n in d["names"]), str(d["game"]), int(d["round"]),
                tuple(sorted((int(s), bytes.fromhex(c)) for s, c in d["commits"].items())),
                tuple(sorted((int(s), bytes.fromhex(x), bytes.fromhex(n))
                             for s, (x, n) in d["reveals"].items())),
                None if sealed is None else (bytes.fromhex(sealed[0]), bytes.fromhex(sealed[1])),
                tuple(str(c) for c in d["log"]),
                tuple(sorted(int(c) for c in d.get("conceded", ()))))
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise BadSession(f"this stored melee cannot be read ({e})") from e


def invite(host_name: str, seats: int, ruleset: Ruleset, game_id: bytes) -> \
        tuple[MeleeSession, list[str]]:
    """The host's session (seat 0) and one invitation code per guest seat (1 .. seats-1)."""
    if not 3 <= seats <= MAX_WIZARDS:
        raise ValueError("a melee has three to six seats")
    if len(game_id) != GAME_ID_LEN:
        raise ValueError("a game id is 4 bytes")
    name = normalise_name(host_name)
    rules = canonical_json(ruleset.to_json())
    codes = [encode(MeleeMessage(INVITE, 0, seats, game_id, 0, name=name, seat=s, rules=rules))
             for s in range(1, seats)]
    names = (name,) + ("",) * (seats - 1)
    return MeleeSession(game_id, 0, seats, rules, names, log=tuple(codes)), codes


def accept(invitation: str, my_name: str) -> tuple[MeleeSession, str]:
    """A guest's session for the seat an invitation offers, and his acceptance code."""
    m = decode(invitation)
    if m.kind != INVITE:
        raise MalformedCode("this is not an invitation")
    rules = Ruleset.from_json(json.loads(m.rules))
    name = normalise_name(my_name)
    names = tuple(m.name if s == 0 else name if s == m.seat else "" for s in range(m.seats))
    code = encode(MeleeMessage(ACCEPT, m.seat, m.seats, m.game_id, 0, name=name))
    s = MeleeSession(m.game_id, m.seat, m.seats, canonical_json(rules.to_json()), names,
                     log=(code,))
    return _maybe_start(s), code


def _maybe_start(s: MeleeSession) -> MeleeSession:
    """Once every seat's name is known, the game."""
    if s.game or any(not n for n in s.names):
        return s
    game = new_game(s.names, seed_of(s.game_id), Ruleset.from_json(json.loads(s.rules)))
    return replace(s, game=canonical_json(game.to_json()))


def seal(s: MeleeSession, raw: WireInput, nonce: bytes) -> tuple[MeleeSession, list[str]]:
    """Commit to my input for this round (orders, decisions, or {} when I only wait); the
    engine checks it first.  Returns the session and the codes to post: my commitment (and my
    reveal, when every other commitment is in already)."""
    if s.me not in s.participants():
        raise NotYourTurn("you take no part in this round")
    if s.sealed is not None or s.me in dict(s.commits):
        raise NotYourTurn("you have sealed this round already: post your code again")
    g = s.engine_game()
    x = _checked(g, s.me, raw)
    data = encode_input(x, s.numbers)
    if len(nonce) != NONCE_LEN:
        raise ValueError("a nonce is 8 bytes")
    c = melee_commitment(s.game_id, s.round, s.me, data, nonce)
    code = encode(MeleeMessage(COMMIT, s.me, s.seats, s.game_id, s.round,
                               digest=state_digest(g)[:DIGEST_LEN], commitment=c))
    before = len(s.log)
    s = replace(s, sealed=(data, nonce), commits=tuple(sorted((*s.commits, (s.me, c)))),
                log=(*s.log, code))
    s = _advance(s)
    return s, list(s.log[before:])


def _checked(g: Game, seat: int, raw: WireInput) -> WireInput:
    """My input as the engine takes it for this phase ({} if I do not act in it)."""
    if seat not in g.phase.actors:
        if raw not in ({}, None):
            raise NotYourTurn("you do not act in this phase: you only give your dice share")
        return {}
    if not isinstance(raw, dict):
        raise MalformedCode("an input is a JSON object")
    body = {k: v for k, v in raw.items() if k != "nonce"}
    parsed = parse_decisions(body) if g.phase.kind == "decision" else parse_orders(body)
    problems = input_problems(g, seat, parsed)
    if problems:
        raise IllegalInput(problems)
    return body


def receive(s: MeleeSession, text: str) -> tuple[MeleeSession, list[str]]:
    """Apply every code a paste holds, in order; returns the session and the codes it now
    posts by itself (my reveal once every commitment is in).  Codes already applied are
    skipped; an error names the first code that fails and applies nothing of the paste."""
    out: list[str] = []
    for code in split_codes(text):
        m = decode(code)
        if m.game_id != s.game_id or m.seats != s.seats:
            raise NotThisGame("this code belongs to another melee")
        if m.sender == s.me:
            if code in s.log:
                continue  # my own, pasted with the others'
            raise OwnCode("this code was made for your seat by someone else")
        before = len(s.log)
        s = _apply(s, m)
        out.extend(s.log[before:])
    return s, out


def _apply(s: MeleeSession, m: MeleeMessage) -> MeleeSession:
    if m.kind == INVITE:
        return s  # (another seat's invitation, pasted with the rest)
    if m.kind == ACCEPT:
        name = normalise_name(m.name)
        if s.names[m.sender] and s.names[m.sender] != name:
            raise Equivocation(f"seat {m.sender} accepted twice, under two names")
        names = tuple(name if i == m.sender else n for i, n in enumerate(s.names))
        return _maybe_start(replace(s, names=names))
    if m.round < s.round or m.sender in s.conceded:
        return s  # a round already played (a paste of older lines), or a seat every page plays
    if m.round > s.round:
        raise OutOfOrder(f"this code is for a later round ({m.round}); paste the codes of "
                         f"round {s.round} first")
    g = s.engine_game()
    if m.digest != state_digest(g)[:DIGEST_LEN]:
        raise Desync(f"{s.names[m.sender]}'s game differs from yours: the melee cannot go on")
    if m.sender not in s.participants():
        raise MalformedCode(f"{s.names[m.sender]} takes no part in this round")
    commits = dict(s.commits)
    if m.kind == COMMIT:
        if m.sender in commits:
            if commits[m.sender] != m.commitment:
                raise Equivocation(f"{s.names[m.sender]} sealed this round twice, differently")
            return s
        commits[m.sender] = m.commitment
        return _advance(replace(s, commits=tuple(sorted(commits.items()))))
    # A reveal: only once every commitment is in (before, nobody honest reveals).
    if any(p not in commits for p in s.participants()):
        raise OutOfOrder("a reveal came before every commitment: paste the commitments first")
    if m.transcript != transcript(commits):
        raise Equivocation(f"{s.names[m.sender]} holds other commitments than you: someone "
                           "showed different codes to different players")
    if melee_commitment(s.game_id, s.round, m.sender, m.data, m.nonce) != commits[m.sender]:
        raise RevealMismatch(f"{s.names[m.sender]}'s reveal does not open his commitment")
    shown = {seat: (d, n) for seat, d, n in s.reveals}
    if m.sender in shown:
        return s
    shown[m.sender] = (m.data, m.nonce)
    return _advance(replace(s, reveals=tuple(sorted((k, d, n) for k, (d, n) in shown.items()))))


def conceded_input(g: Game, seat: int) -> WireInput:
    """What every page plays for a conceded seat (docs/protocol.md, "Live melee", "Dropping
    out"): nothing when he does not act; in a decision, each question's first option; orders,
    both hands P, a surrender ("a pair of P gestures made by both hands at the same time"), where
    the spells leave a hand free, else the gesture they force, and nothing aimed; if the rules
    refuse that, no gesture at all."""
    if seat not in g.phase.actors:
        return {}
    if g.phase.kind == "decision":
        return {"decisions": {x.id: x.options[0] for x in g.phase.decisions if x.wizard == seat}}
    c = constraints(g, seat)
    tries = ([c.left.forced or "P", c.right.forced or "P"],
             [c.left.forced or "-", c.right.forced or "-"])
    for pair in tries:
        x: WireInput = {"gestures": [pair] * c.sets}
        if not input_problems(g, seat, parse_orders(x)):
            return x
    return x  # (the step refuses it, naming the problem: the melee stops, as on a bad reveal)


def concede_nonce(game_id: bytes, rnd: int, seat: int) -> bytes:
    """A conceded seat's dice share: public, the same on every page (the dice still need every
    other participant's secret)."""
    h = hashlib.sha256(b"wavinghands/melee-concede/v1\0" + game_id + _uvarint(rnd) +
                       bytes([seat]))
    return h.digest()[:NONCE_LEN]


def concede(s: MeleeSession, seat: int) -> tuple[MeleeSession, list[str]]:
    """The others agree that `seat` has dropped out (live: every other wizard in the fight
    signed it): from this round on every page plays conceded_input for him, so the melee goes on
    and its record shows him surrendering.  Returns the session and the codes it now posts (my
    reveal, when his commitment was the last one missing)."""
    if seat == s.me:
        raise NotYourTurn("you cannot concede your own seat: surrender in your orders")
    if not 0 <= seat < s.seats:
        raise ValueError(f"a seat is 0 to {s.seats - 1}")
    if seat in s.conceded:
        return s, []
    before = len(s.log)
    s = _advance(replace(s, conceded=tuple(sorted((*s.conceded, seat)))))
    return s, list(s.log[before:])


def _play_conceded(s: MeleeSession) -> MeleeSession:
    """Commit and reveal, for each conceded participant, what every page plays for him; his own
    commitment, if it came before the concession, gives way (he will not open it)."""
    parts = s.participants()
    todo = [seat for seat in s.conceded if seat in parts and
            seat not in {x for x, _, _ in s.reveals}]
    if not todo:
        return s
    g = s.engine_game()
    commits = dict(s.commits)
    reveals = list(s.reveals)
    for seat in todo:
        data = encode_input(conceded_input(g, seat), s.numbers)
        nonce = concede_nonce(s.game_id, s.round, seat)
        commits[seat] = melee_commitment(s.game_id, s.round, seat, data, nonce)
        reveals.append((seat, data, nonce))
    return replace(s, commits=tuple(sorted(commits.items())), reveals=tuple(sorted(reveals)))


def _advance(s: MeleeSession) -> MeleeSession:
    """Post my reveal once every commitment is in; step the engine once every reveal is."""
    s = _play_conceded(s)
    parts = s.participants()
    commits = dict(s.commits)
    if any(p not in commits for p in parts):
        return s
    shown = {seat for seat, _, _ in s.reveals}
    if s.me in parts and s.me not in shown and s.sealed is not None:
        data, nonce = s.sealed
        g = s.engine_game()
        code = encode(MeleeMessage(REVEAL, s.me, s.seats, s.game_id, s.round,
                                   digest=state_digest(g)[:DIGEST_LEN],
                                   transcript=transcript(commits), nonce=nonce, data=data))
        s = replace(s, reveals=tuple(sorted((*s.reveals, (s.me, data, nonce)))),
                    log=(*s.log, code))
        shown.add(s.me)
    if any(p not in shown for p in parts):
        return s
    g = s.engine_game()
    nonces = {seat: n for seat, _, n in s.reveals}
    inputs: dict[int, Any] = {}
    for seat, data, _ in s.reveals:
        if seat in g.phase.actors:
            x = decode_input(data, s.numbers)
            if not isinstance(x, dict):
                raise MalformedCode("a melee's input is a JSON object")
            inputs[seat] = dict(x, nonce=engine_nonce(seat, nonces)) \
                if g.phase.kind != "decision" else x
    g2, happened = step(g, inputs)  # (IllegalInput: a reveal the rules refuse; paste fails)
    seen = tuple(dict(e.to_json(), visible_to=None) for e in happened if s.me in e.visible_to)
    s = replace(s, game=canonical_json(g2.to_json()), round=s.round + 1, commits=(), reveals=(),
                sealed=None, events=s.events + seen)
    # The next round may already be whole: the conceded play by themselves, the others wait.
    return _advance(s) if s.conceded and s.participants() else s


__all__ = ["MELEE_VERSION", "Equivocation", "MeleeMessage", "MeleeSession", "accept",
           "concede", "concede_nonce", "conceded_input", "decode", "encode", "engine_nonce",
           "invite", "melee_commitment", "receive", "seal", "seed_of", "split_codes",
           "transcript"]
