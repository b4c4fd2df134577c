"""Turn codes for remote play: the wire format (docs/protocol.md).

A code is ``PREFIX + base64url(header + payload + crc32)``.  The header is whole bytes, the
payload is bit-packed (inputs.py encodes the inputs; code_errors.py holds the errors, all
re-exported here).  This module is pure: it turns messages into codes and back and computes
commitments; deciding what a message must contain is session.py's job.  Decoding never needs a
game, so the decoder can be fuzzed on its own, and every code that decodes re-encodes to itself
(one encoding per message), which is what makes "any single-character change is rejected" and
"only the committed reveal is accepted" hold byte for byte.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import urllib.parse
import zlib
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Final

from ..boundary import loads as bounded_loads
from ..model import DECISION, ORDERS, OVER, TIME_STOP
from ..rulesets import PRE_SEAM_LABELS, STANDARD_NAME
from .code_errors import (
    BadSession,
    CodeError,
    ConflictingCode,
    CorruptedCode,
    Desync,
    MalformedCode,
    NotThisGame,
    NotYourTurn,
    OtherDuel,
    OutOfOrder,
    OwnCode,
    RevealMismatch,
    UnsupportedVersion,
)
from .inputs import (
    GESTURE_ALPHABET,
    HANDS,
    MAX_RAW_BYTES,
    ROUTING,
    STANDARD_NUMBERS,
    WIRE_SPELLS,
    BitReader,
    BitWriter,
    DecisionRefs,
    SpellNumbers,
    WireInput,
    canonical_json,
    decode_input,
    encode_input,
    normalize_input,
    read_input,
    spell_numbers,
    write_input,
)

# --------------------------------------------------------------------------------------------
# Constants of wire version 1.  Changing any of them is a new VERSION.

PREFIX: Final[str] = "WH1."
_OTHER_VERSION_RE: Final = re.compile(r"^(WH[1-9][0-9]*\.)")  # another version's prefix
VERSION: Final[int] = 1
# Version 2 is version 1's layout for the one message version 1 pages cannot take: an early
# release (a reveal alone in an orders or time-stop phase, sent live so that both players write
# the next orders at the same time; docs/protocol.md). Writing that message as version 2 makes an
# old page say "use the same (newest) version" instead of misreading the flow. Every other
# message stays version 1, so saved games and codes by hand are unchanged.
RELEASE_VERSION: Final[int] = 2
# Version 3 is version 1's layout for an invitation that names a ruleset pages before it do not
# know (any name but the standard game's and the labels written before rulesets existed): such a
# page would have read the name as a label of the standard rules and played them against a host
# playing others.  Written as version 3, the invitation makes it say "use the same (newest)
# version" instead.  The game's turn codes stay version 1 (or 2), their spells numbered by the
# ruleset's own table (inputs.SpellNumbers).
RULESET_VERSION: Final[int] = 3
# Version 4 is version 1's layout for an early release that carries this side's decisions (with
# or without a reveal): live, a decision goes as soon as it is made, so that the next orders
# open for both players at once after a decision phase too (issue 24, bug 5). A page that only
# knows versions 1-3 says "use the same (newest) version" instead of refusing it as malformed.
DECISION_RELEASE_VERSION: Final[int] = 4
# Ruleset names an invitation may carry as version 1: those every version-1 page plays (as the
# standard rules): the standard name and the labels from before rulesets (a set that never grows).
VERSION_1_RULESET_NAMES: Final[frozenset[str]] = frozenset({STANDARD_NAME}) | PRE_SEAM_LABELS
GAME_ID_LEN: Final[int] = 4
DIGEST_LEN: Final[int] = 4
NONCE_LEN: Final[int] = 8
COMMIT_LEN: Final[int] = 16
CRC_LEN: Final[int] = 4
MAX_NAME_BYTES: Final[int] = 40
MAX_SEQ: Final[int] = 100_000

# A code's phase is an index into this tuple (two bits): the order is the wire format's.
PHASE_KINDS: Final[tuple[str, ...]] = (ORDERS, DECISION, TIME_STOP, OVER)

_CODE_BODY_RE: Final = re.compile(r"^[A-Za-z0-9_-]*$")


# --------------------------------------------------------------------------------------------
# Messages.


class MsgType(IntEnum):
    """What a message opens: the invitation, the acceptance (first turn), or a later turn."""

    INVITE = 0
    ACCEPT = 1
    TURN = 2


@dataclass(frozen=True, slots=True)
class Sealed:
    """An input with its nonce: a plain input, or the opening of an earlier commitment."""

    input: WireInput
    nonce: bytes


@dataclass(frozen=True, slots=True)
class Commit:
    """A commitment to an input not shown yet."""

    digest: bytes


@dataclass(frozen=True, slots=True)
class Message:
    """One decoded code.  `turn`/`phase`/`state` describe the sender's game after the message's
    reveal and solo inputs, i.e. the point at which it waits for the receiver."""

    type: MsgType
    sender: int
    game_id: bytes
    seq: int
    turn: int
    phase: str
    state: bytes = b""  # state digest; empty in an invitation (there is no game yet)
    name: str = ""  # invitation: the host's name; acceptance: the guest's
    ruleset: dict[str, Any] | None = None  # invitation only
    reveal: Sealed | None = None
    solo: tuple[WireInput, ...] = ()
    final: Commit | Sealed | None = None
    version: int = VERSION


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _b64decode(text: str) -> bytes:
    if not _CODE_BODY_RE.match(text) or len(text) % 4 == 1:
        raise CorruptedCode("this code has a character that cannot be in a code, or a "
                            "character is missing; copy it again")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as e:
        raise CorruptedCode("this code is damaged; copy it again") from e
    if _b64encode(data) != text:  # the spare bits of the last character must be zero
        raise CorruptedCode("this code is cut short or damaged at its end (its last character "
                            "does not fit); copy the whole code again")
    return data


def _write_sealed(w: BitWriter, s: Sealed, numbers: SpellNumbers) -> None:
    write_input(w, s.input, numbers)
    if len(s.nonce) != NONCE_LEN:
        raise ValueError("bad nonce length")
    w.raw(s.nonce)


def is_early_release(m: Message) -> bool:
    """True for a turn message that only opens a commitment and/or brings the sender's decisions
    while an orders or time-stop phase is open (written as RELEASE_VERSION, or as
    DECISION_RELEASE_VERSION when it carries decisions)."""
    return (m.type is MsgType.TURN and (m.reveal is not None or bool(m.solo)) and m.final is None
            and m.phase in (ORDERS, TIME_STOP))


def names_new_ruleset(m: Message) -> bool:
    """True for an invitation naming a ruleset version-1 pages do not know (the one message
    written as RULESET_VERSION)."""
    name = (m.ruleset or {}).get("name", "standard")
    return m.type is MsgType.INVITE and name not in VERSION_1_RULESET_NAMES


def _version_of(m: Message) -> int:
    """The version byte a message is written with: it follows from what the message carries."""
    if is_early_release(m):
        return DECISION_RELEASE_VERSION if m.solo else RELEASE_VERSION
    return RULESET_VERSION if names_new_ruleset(m) else VERSION


def encode_message(m: Message, numbers: SpellNumbers = STANDARD_NUMBERS) -> str:
    """The code for a message, its casts' spells numbered by `numbers` (the game's ruleset's
    table); raises ValueError for a message that cannot be sent."""
    if m.version != VERSION:
        raise ValueError("can only write the current version")
    if len(m.game_id) != GAME_ID_LEN or m.sender not in (0, 1) or not 0 <= m.seq <= MAX_SEQ:
        raise ValueError("bad header")
    if m.type is MsgType.INVITE and (m.seq != 0 or m.sender != 0):
        raise ValueError("the invitation is message 0, from the host")
    head = bytearray([_version_of(m),
                      (m.type << 6) | (m.sender << 5)
                      | (PHASE_KINDS.index(m.phase) << 3)])
    head += m.game_id
    head += _uvarint(m.seq) + _uvarint(m.turn)
    w = BitWriter()
    if m.type is MsgType.INVITE:
        w.string(m.name, MAX_NAME_BYTES)
        rules = canonical_json(m.ruleset or {}).encode("utf-8")
        w.uint(len(rules))
        w.raw(rules)
    else:
        if len(m.state) != DIGEST_LEN:
            raise ValueError("bad state digest length")
        head += m.state
        if m.type is MsgType.ACCEPT:
            w.string(m.name, MAX_NAME_BYTES)
        w.flag(m.reveal is not None)
        if m.reveal is not None:
            _write_sealed(w, m.reveal, numbers)
        w.flag(bool(m.solo))
        if m.solo:
            w.uint(len(m.solo) - 1)
            for x in m.solo:
                write_input(w, x, numbers)
        if m.final is None:
            w.bits(0, 2)
        elif isinstance(m.final, Commit):
            if len(m.final.digest) != COMMIT_LEN:
                raise ValueError("bad commitment length")
            w.bits(1, 2)
            w.raw(m.final.digest)
        else:
            w.bits(2, 2)
            _write_sealed(w, m.final, numbers)
    body = bytes(head) + w.to_bytes()
    return PREFIX + _b64encode(body + zlib.crc32(body).to_bytes(CRC_LEN, "big"))


def _uvarint(n: int) -> bytes:
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _read_uvarint(data: bytes, pos: int, limit: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data):
            raise MalformedCode("the code ends too early")
        b = data[pos]
        pos += 1
        if b == 0 and shift:
            raise MalformedCode("a number is not written in its shortest form")
        value |= (b & 0x7F) << shift
        shift += 7
        if value > limit:
            raise MalformedCode(f"a number exceeds {limit}")
        if not b & 0x80:
            return value, pos


def _checks_out(body: str) -> bool:
    """Whether text after a prefix is a well-formed body of this version (base64, checksum)."""
    try:
        data = _b64decode(body)
    except CorruptedCode:
        return False
    return len(data) >= CRC_LEN + 2 and \
        zlib.crc32(data[:-CRC_LEN]).to_bytes(CRC_LEN, "big") == data[-CRC_LEN:]


def unwrap(code: str) -> bytes:
    """Checks prefix, base64 and checksum, in that order; returns the checked bytes."""
    if not code.startswith(PREFIX):
        other = _OTHER_VERSION_RE.match(code)
        if other is not None and other.group(1) != PREFIX:
            if _checks_out(code[len(other.group(1)):]):
                # A code of this version whose prefix alone changed is damaged, not newer.
                raise CorruptedCode(f"this code is damaged (it should start with {PREFIX}); "
                                    "copy it again")
            raise UnsupportedVersion(f"this code was made by a newer version of the page (it "
                                     f"starts with {other.group(1)}; this page reads "
                                     f"{PREFIX} codes): both players should reload the page to "
                                     "get its newest version")
        raise CorruptedCode(f"this is not a Waving Hands code (codes start with {PREFIX})")
    data = _b64decode(code[len(PREFIX):])
    if len(data) < CRC_LEN + 2:
        raise CorruptedCode("this code is too short: part of it is missing; copy it again")
    body, crc = data[:-CRC_LEN], data[-CRC_LEN:]
    if zlib.crc32(body).to_bytes(CRC_LEN, "big") != crc:
        raise CorruptedCode("this code is damaged (its checksum does not match): a character "
                            "was changed or lost; copy it again")
    return body


SPOKEN_VERSIONS: Final[tuple[int, ...]] = (VERSION, RELEASE_VERSION, RULESET_VERSION,
                                          DECISION_RELEASE_VERSION)


def decode_message(code: str, numbers: SpellNumbers = STANDARD_NUMBERS) -> Message:
    """Parse a code, its casts' spells numbered by `numbers` (the game's ruleset's table;
    `ROUTING` reads them as placeholders, for finding the game first); raises CorruptedCode,
    UnsupportedVersion or MalformedCode, in that order."""
    body = unwrap(code)
    if body[0] not in SPOKEN_VERSIONS:
        spoken = ", ".join(str(v) for v in SPOKEN_VERSIONS)
        raise UnsupportedVersion(f"this code was made by protocol version {body[0]}; this page "
                                 f"speaks versions {spoken}. Both players "
                                 "should use the same (newest) version of the page")
    m = _decode_body(body, numbers)
    if body[0] != _version_of(m):
        # One encoding per message: the version byte follows from what the message carries.
        raise MalformedCode(f"a version {body[0]} code cannot carry this message")
    return m


def _decode_body(body: bytes, numbers: SpellNumbers) -> Message:
    """The message in a checked code body (version byte already read)."""
    flags = body[1]
    if flags & 0b111:
        raise MalformedCode("reserved header bits are set")
    kind = flags >> 6
    if kind > MsgType.TURN:
        raise MalformedCode("unknown message type")
    mtype = MsgType(kind)
    sender = (flags >> 5) & 1
    phase = PHASE_KINDS[(flags >> 3) & 3]
    pos = 2 + GAME_ID_LEN
    if len(body) < pos:
        raise MalformedCode("the code ends too early")
    game_id = body[2:pos]
    seq, pos = _read_uvarint(body, pos, MAX_SEQ)
    turn, pos = _read_uvarint(body, pos, MAX_SEQ)
    if mtype is MsgType.INVITE:
        if seq != 0 or sender != 0:
            raise MalformedCode("an invitation must be message 0 from the host")
        r = BitReader(body[pos:])
        name = r.string(MAX_NAME_BYTES)
        rules_bytes = r.raw(r.uint(MAX_RAW_BYTES))
        r.finish()
        try:
            ruleset = bounded_loads(rules_bytes.decode("utf-8"), "ruleset")
        except (UnicodeDecodeError, ValueError) as e:
            raise MalformedCode("the invitation's rules are not valid JSON") from e
        if not isinstance(ruleset, dict) or \
                canonical_json(ruleset).encode("utf-8") != rules_bytes:
            raise MalformedCode("the invitation's rules are not a canonical JSON object")
        return Message(mtype, sender, game_id, seq, turn, phase, name=name, ruleset=ruleset)
    if (mtype is MsgType.ACCEPT) != (seq == 1):
        raise MalformedCode("the acceptance is message 1, and only it")
    if len(body) < pos + DIGEST_LEN:
        raise MalformedCode("the code ends too early")
    state = body[pos:pos + DIGEST_LEN]
    r = BitReader(body[pos + DIGEST_LEN:])
    name = r.string(MAX_NAME_BYTES) if mtype is MsgType.ACCEPT else ""
    reveal = Sealed(read_input(r, numbers), r.raw(NONCE_LEN)) if r.flag() else None
    solo: tuple[WireInput, ...] = ()
    if r.flag():
        solo = tuple(read_input(r, numbers) for _ in range(r.uint(15) + 1))
    tag = r.bits(2)
    final: Commit | Sealed | None
    if tag == 0:
        final = None
    elif tag == 1:
        final = Commit(r.raw(COMMIT_LEN))
    elif tag == 2:
        final = Sealed(read_input(r, numbers), r.raw(NONCE_LEN))
    else:
        raise MalformedCode("unknown item kind")
    r.finish()
    return Message(mtype, sender, game_id, seq, turn, phase, state, name, None, reveal, solo,
                   final)


def commitment(game_id: bytes, seq: int, sender: int, x: WireInput, nonce: bytes,
               numbers: SpellNumbers = STANDARD_NUMBERS) -> bytes:
    """The commitment to input `x` (its wire bytes, spells numbered by `numbers`) with
    salt-and-dice `nonce`, bound to one message slot."""
    data = encode_input(x, numbers)
    h = hashlib.sha256()
    # Binding to game, message index and sender stops a commitment being replayed elsewhere;
    # the length prefix stops input bytes and nonce bytes trading places.
    h.update(b"wavinghands/commit/v1\0" + game_id + _uvarint(seq) + bytes([sender]))
    h.update(_uvarint(len(data)) + data + nonce)
    return h.digest()[:COMMIT_LEN]


# --------------------------------------------------------------------------------------------
# Links.

LINK_KEY: Final[str] = "c"


def make_link(code: str, base_url: str) -> str:
    """The link that carries `code` in its fragment (never sent to any server)."""
    return base_url.split("#", 1)[0] + f"#{LINK_KEY}=" + code


def extract_code(text: str) -> str:
    """The code in a pasted text: a bare code, or a link whose fragment has c=<code>.

    Whitespace anywhere is dropped (chat apps wrap long lines); nothing else is forgiven.
    """
    s = "".join(text.split())
    if "#" in s:
        fragment = s.rsplit("#", 1)[1]
        found = None
        for part in fragment.split("&"):
            key, _, value = part.partition("=")
            if key == LINK_KEY:
                found = urllib.parse.unquote(value)
        if found is None:
            raise CorruptedCode("this link holds no Waving Hands code (no #c=... part)")
        s = found
    if not s:
        raise CorruptedCode("there is no code here: paste the code or the link")
    return s



# The wire format's public names, including those of its two parts (code_errors, inputs).
__all__ = [
    "COMMIT_LEN", "CRC_LEN", "DIGEST_LEN", "GAME_ID_LEN", "GESTURE_ALPHABET", "HANDS",
    "LINK_KEY", "MAX_NAME_BYTES", "MAX_RAW_BYTES", "MAX_SEQ", "NONCE_LEN", "PHASE_KINDS",
    "PREFIX", "RELEASE_VERSION", "ROUTING", "RULESET_VERSION", "SPOKEN_VERSIONS",
    "STANDARD_NUMBERS", "VERSION", "VERSION_1_RULESET_NAMES", "WIRE_SPELLS", "BadSession",
    "CodeError", "Commit", "ConflictingCode", "CorruptedCode", "DecisionRefs", "Desync",
    "MalformedCode", "Message", "MsgType", "NotThisGame", "NotYourTurn", "OtherDuel",
    "OutOfOrder", "OwnCode", "RevealMismatch", "Sealed", "SpellNumbers", "UnsupportedVersion",
    "WireInput", "canonical_json", "commitment", "decode_input", "decode_message",
    "encode_input", "encode_message", "extract_code", "make_link", "names_new_ruleset",
    "normalize_input", "spell_numbers", "unwrap",
]
