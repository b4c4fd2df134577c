"""Inputs on the wire: orders, decision answers and bare dice shares as bit-packed bytes.

What a commitment hashes is `encode_input(x)`; every input has exactly one encoding (decoding is
strict and canonical), and any input the compact forms cannot carry travels as canonical JSON,
so nothing is ever lost.  Pure: no game is needed to encode or decode (docs/protocol.md,
"Inputs" and "Compact orders").
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final

from ..boundary import loads as bounded_loads
from ..spells import STANDARD_TABLE, Ask, SpellTable
from .code_errors import MalformedCode, UnsupportedVersion

# Constants of wire version 1, like those in codes.py: changing any of them is a new VERSION.
MAX_RAW_BYTES: Final[int] = 2000
GESTURE_ALPHABET: Final[str] = "FPSWDC>-"
HANDS: Final[str] = "LRB"

# A cast's spell travels as its row number in the game's spell table (6 bits; 63 is "no
# spell"): the numbering is the ruleset's (`SpellNumbers`), so a game under another ruleset
# numbers its own rows, and the standard game's numbers are those of wire version 1.  A new
# spell goes at the END of its table: its number is then new and every older code keeps its
# meaning.  Reordering or removing rows changes what old codes say, and needs a new VERSION
# (tests pin version 1's standard order).
_SPELL_NULL: Final[int] = 63  # "spell": null (withhold, house rule)


class SpellNumbers:
    """How one game's codes number its spells: the rows of its ruleset's table, in order.

    The routing numbering (`ROUTING`) reads any number as the placeholder "#n": a code is routed
    to its game (docs/protocol.md, remote_describe) before that game's table is known.
    """

    def __init__(self, keys: tuple[str, ...], *, routing: bool = False) -> None:
        if len(keys) >= _SPELL_NULL:
            raise RuntimeError("a spell table outgrew the wire's 6-bit spell field: bump VERSION")
        self.keys: Final = keys
        self.routing: Final = routing
        self._index: Final = {k: i for i, k in enumerate(keys)}

    def number(self, key: str) -> int | None:
        """The wire number of a spell key (None: not a spell of this table)."""
        if self.routing:
            n = key[1:] if key.startswith("#") else ""
            return int(n) if n.isdigit() and int(n) < _SPELL_NULL and str(int(n)) == n else None
        return self._index.get(key)

    def key(self, number: int) -> str:
        """The spell key of a wire number; raises UnsupportedVersion beyond the table."""
        if self.routing:
            return f"#{number}"
        if number >= len(self.keys):
            raise UnsupportedVersion("this code names a spell this page does not know: it "
                                     "was made by a newer version of the page. Both "
                                     "players should use the same (newest) version")
        return self.keys[number]


_NUMBERINGS: dict[tuple[str, ...], SpellNumbers] = {}


def spell_numbers(table: SpellTable) -> SpellNumbers:
    """The wire numbering of a spell table (its rows in order; one object per table)."""
    keys = table.keys_in_order()
    found = _NUMBERINGS.get(keys)
    if found is None:
        found = _NUMBERINGS[keys] = SpellNumbers(keys)
    return found


STANDARD_NUMBERS: Final[SpellNumbers] = spell_numbers(STANDARD_TABLE)
ROUTING: Final[SpellNumbers] = SpellNumbers((), routing=True)
# The standard game's numbering, by its old name (tests pin version 1's order with it).
WIRE_SPELLS: Final[tuple[str, ...]] = STANDARD_NUMBERS.keys

_TARGET_RE: Final = re.compile(r"^(none|W[01]|M[1-9][0-9]{0,3}|new:[01]:[LRB](:[01])?)$")
# Orders' `hands` (a ruleset where the caster names the paralysed or charmed hand in his next
# orders): each entry is its question's kind, its subject and the hand, one bit each.
HAND_QUESTION_KINDS: Final[tuple[str, ...]] = (Ask.PARALYSED_HAND.value, Ask.CHARMED_HAND.value)
_HAND_QUESTION_RE: Final = re.compile(rf"^({'|'.join(HAND_QUESTION_KINDS)}):W[01]$")

Json = Any  # JSON values cross this module as plain Python data; shapes are checked on the way in


# --------------------------------------------------------------------------------------------
# Bit packing.


class BitWriter:
    """Appends unsigned fields most-significant bit first."""

    def __init__(self) -> None:
        self._acc = 0
        self._n = 0

    def bits(self, value: int, width: int) -> None:
        if width < 0 or value < 0 or value >> width:
            raise ValueError(f"{value} does not fit in {width} bits")
        self._acc = (self._acc << width) | value
        self._n += width

    def flag(self, value: bool) -> None:
        self.bits(1 if value else 0, 1)

    def uint(self, value: int) -> None:
        # 3 data bits per group, low group first, a continuation bit before each: 0..7 in 4 bits.
        if value < 0:
            raise ValueError("negative uint")
        while True:
            low, value = value & 7, value >> 3
            self.bits(1 if value else 0, 1)
            self.bits(low, 3)
            if not value:
                return

    def raw(self, data: bytes) -> None:
        for b in data:
            self.bits(b, 8)

    def string(self, text: str, limit: int) -> None:
        data = text.encode("utf-8")
        if len(data) > limit:
            raise ValueError(f"text longer than {limit} bytes")
        self.uint(len(data))
        self.raw(data)

    def to_bytes(self) -> bytes:
        pad = -self._n % 8  # zero bits up to a whole byte; the reader insists they are zero
        return (self._acc << pad).to_bytes((self._n + pad) // 8, "big")


class BitReader:
    """Reads what BitWriter wrote; any overrun or non-canonical field is MalformedCode."""

    def __init__(self, data: bytes) -> None:
        self._acc = int.from_bytes(data, "big")
        self._total = len(data) * 8
        self._pos = 0

    def bits(self, width: int) -> int:
        if self._pos + width > self._total:
            raise MalformedCode("the code ends too early")
        self._pos += width
        return (self._acc >> (self._total - self._pos)) & ((1 << width) - 1)

    def flag(self) -> bool:
        return self.bits(1) == 1

    def uint(self, limit: int) -> int:
        value = shift = 0
        while True:
            more = self.flag()
            low = self.bits(3)
            if not more and low == 0 and shift:
                raise MalformedCode("a number is not written in its shortest form")
            value |= low << shift
            shift += 3
            if value > limit:
                raise MalformedCode(f"a number exceeds {limit}")
            if not more:
                return value

    def raw(self, n: int) -> bytes:
        return bytes(self.bits(8) for _ in range(n))

    def string(self, limit: int) -> str:
        data = self.raw(self.uint(limit))
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise MalformedCode("a text field is not UTF-8") from e

    def finish(self) -> None:
        rest = self._total - self._pos
        if rest >= 8 or (rest and self.bits(rest)):
            raise MalformedCode("unexpected data at the end of the code")


# --------------------------------------------------------------------------------------------
# Inputs (orders, decisions, a bare nonce contribution) on the wire.


@dataclass(frozen=True, slots=True)
class DecisionRefs:
    """Decision answers as (index in phase.decisions, index in that decision's options)."""

    pairs: tuple[tuple[int, int], ...]


WireInput = DecisionRefs | dict[str, Any]


def canonical_json(value: Json) -> str:
    """The one JSON text of a value: sorted keys, no spaces, UTF-8, no NaN."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def _write_target(w: BitWriter, t: str) -> None:
    # Tags: 0 none, 1 W0, 2 W1, 3 M<n>, 4 new:w:h, 5 new:w:h:set.  Callers checked _TARGET_RE.
    if t == "none":
        w.bits(0, 3)
    elif t in ("W0", "W1"):
        w.bits(1 + int(t[1]), 3)
    elif t[0] == "M":
        w.bits(3, 3)
        w.uint(int(t[1:]) - 1)
    else:
        parts = t.split(":")
        w.bits(4 if len(parts) == 3 else 5, 3)
        w.bits(int(parts[1]), 1)
        w.bits(HANDS.index(parts[2]), 2)
        if len(parts) == 4:
            w.bits(int(parts[3]), 1)


def _read_target(r: BitReader) -> str:
    tag = r.bits(3)
    if tag == 0:
        return "none"
    if tag in (1, 2):
        return f"W{tag - 1}"
    if tag == 3:
        return f"M{r.uint(9998) + 1}"
    if tag in (4, 5):
        who = r.bits(1)
        hand = r.bits(2)
        if hand == 3:
            raise MalformedCode("a target names a hand that does not exist")
        text = f"new:{who}:{HANDS[hand]}"
        return f"{text}:{r.bits(1)}" if tag == 5 else text
    raise MalformedCode("unknown target kind")


def _is_target(t: Any) -> bool:
    return isinstance(t, str) and _TARGET_RE.match(t) is not None


def _is_int(v: Any, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _compact_orders(o: dict[str, Any], numbers: SpellNumbers = STANDARD_NUMBERS
                    ) -> dict[str, Any] | None:
    """The normal form of orders the compact encoding can carry, or None if it cannot.

    The normal form drops what means "default" (empty casts, absent stab, release false,
    bank/permanent false) and spells out what the engine defaults (a cast's missing set is 0,
    a missing spell is null), so two spellings of the same orders travel as the same bytes.
    """
    if not set(o) <= {"gestures", "casts", "stab", "monsters", "charm", "release", "hands"}:
        return None
    sets = o.get("gestures")
    if not isinstance(sets, list) or not 1 <= len(sets) <= 2:
        return None
    gestures: list[list[str]] = []
    for pair in sets:
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(g, str) and len(g) == 1 and g in GESTURE_ALPHABET
                        for g in pair)):
            return None
        gestures.append([pair[0], pair[1]])
    out: dict[str, Any] = {"gestures": gestures}

    casts = o.get("casts", [])
    if not isinstance(casts, list):
        return None
    norm_casts = []
    for c in casts:
        if not isinstance(c, dict) or not set(c) <= {"set", "hand", "spell", "target", "bank",
                                                     "permanent"}:
            return None
        s = c.get("set", 0)
        spell = c.get("spell")
        if not _is_int(s, 0, len(gestures) - 1) or c.get("hand") not in ("L", "R", "B"):
            return None
        if spell is not None and (not isinstance(spell, str) or numbers.number(spell) is None):
            return None
        nc: dict[str, Any] = {"set": s, "hand": c["hand"], "spell": spell}
        if c.get("target") is not None:
            if not _is_target(c["target"]):
                return None
            nc["target"] = c["target"]
        for flag in ("bank", "permanent"):
            v = c.get(flag, False)
            if not isinstance(v, bool):
                return None
            if v:
                nc[flag] = True
        norm_casts.append(nc)
    if norm_casts:
        out["casts"] = norm_casts

    stab = o.get("stab")
    if isinstance(stab, list):
        if len(stab) != len(gestures) or not all(s is None or _is_target(s) for s in stab):
            return None
        out["stab"] = list(stab)
    elif stab is not None:
        if not _is_target(stab):
            return None
        out["stab"] = stab

    monsters = o.get("monsters", {})
    if not isinstance(monsters, dict):
        return None
    for mid, tgt in monsters.items():
        if not re.match(r"^M[1-9][0-9]{0,3}$", mid):
            return None
        if isinstance(tgt, list):
            if not 1 <= len(tgt) <= 2 or not all(_is_target(t) for t in tgt):
                return None
        elif not _is_target(tgt):
            return None
    if monsters:
        out["monsters"] = {k: (list(v) if isinstance(v, list) else v)
                           for k, v in sorted(monsters.items(), key=lambda kv: int(kv[0][1:]))}

    charm = o.get("charm")
    if charm is not None:
        if not (isinstance(charm, dict) and set(charm) == {"gesture"}
                and isinstance(charm["gesture"], str) and len(charm["gesture"]) == 1
                and charm["gesture"] in GESTURE_ALPHABET):
            return None
        out["charm"] = {"gesture": charm["gesture"]}

    release = o.get("release")
    if release is True:
        out["release"] = True
    elif isinstance(release, dict):
        if set(release) != {"target"} or not _is_target(release["target"]):
            return None
        out["release"] = {"target": release["target"]}
    elif release is not None and release is not False:
        return None

    hands = o.get("hands", {})
    if not isinstance(hands, dict) or not all(
            isinstance(k, str) and _HAND_QUESTION_RE.match(k) and v in ("L", "R")
            for k, v in hands.items()):
        return None
    if hands:
        out["hands"] = dict(sorted(hands.items()))
    return out


def _write_orders(w: BitWriter, o: dict[str, Any], numbers: SpellNumbers) -> None:
    # `o` is in the normal form of _compact_orders.
    gestures = o["gestures"]
    w.flag(len(gestures) == 2)
    for left, right in gestures:
        w.bits(GESTURE_ALPHABET.index(left), 3)
        w.bits(GESTURE_ALPHABET.index(right), 3)
    fields = ("casts", "stab", "monsters", "charm", "release")
    present = [f in o for f in fields]
    w.flag(any(present) or "hands" in o)  # most orders are gestures only: one bit says so
    if not any(present) and "hands" not in o:
        return
    if "hands" in o:
        # Orders with hands (added after version 1's layout): five clear field flags, which
        # version 1 never writes, then the five flags again; the hands follow the fields.
        for _ in fields:
            w.flag(False)
    for p in present:
        w.flag(p)
    if "casts" in o:
        w.uint(len(o["casts"]) - 1)
        for c in o["casts"]:
            if len(gestures) == 2:
                w.bits(c["set"], 1)
            w.bits(HANDS.index(c["hand"]), 2)
            number = None if c["spell"] is None else numbers.number(c["spell"])
            w.bits(_SPELL_NULL if number is None else number, 6)
            w.flag("target" in c)
            if "target" in c:
                _write_target(w, c["target"])
            extras = c.get("bank", False) or c.get("permanent", False)
            w.flag(extras)
            if extras:
                w.flag(c.get("bank", False))
                w.flag(c.get("permanent", False))
    if "stab" in o:
        stab = o["stab"]
        w.flag(isinstance(stab, list))
        if isinstance(stab, list):
            for s in stab:
                w.flag(s is not None)
                if s is not None:
                    _write_target(w, s)
        else:
            _write_target(w, stab)
    if "monsters" in o:
        w.uint(len(o["monsters"]) - 1)
        previous = 0
        for mid, tgt in o["monsters"].items():
            n = int(mid[1:])
            w.uint(n - previous - 1)  # ids ascend, so gaps are small and never negative
            previous = n
            targets = tgt if isinstance(tgt, list) else [tgt]
            w.bits(0 if not isinstance(tgt, list) else len(targets), 2)
            for t in targets:
                _write_target(w, t)
    if "charm" in o:
        w.bits(GESTURE_ALPHABET.index(o["charm"]["gesture"]), 3)
    if "release" in o:
        rel = o["release"]
        w.flag(rel is not True)
        if rel is not True:
            _write_target(w, rel["target"])
    if "hands" in o:
        w.uint(len(o["hands"]) - 1)
        for qid, hand in o["hands"].items():
            kind, subject = qid.split(":")
            w.bits(HAND_QUESTION_KINDS.index(kind), 1)
            w.bits(int(subject[1:]), 1)
            w.bits("LR".index(hand), 1)


def _read_orders(r: BitReader, numbers: SpellNumbers) -> dict[str, Any]:
    nsets = 2 if r.flag() else 1
    gestures = [[GESTURE_ALPHABET[r.bits(3)], GESTURE_ALPHABET[r.bits(3)]] for _ in range(nsets)]
    o: dict[str, Any] = {"gestures": gestures}
    if not r.flag():
        return o
    has = [r.flag() for _ in range(5)]
    with_hands = not any(has)  # the escape of orders that carry hands
    if with_hands:
        has = [r.flag() for _ in range(5)]
    if has[0]:
        casts = []
        for _ in range(r.uint(5) + 1):
            s = r.bits(1) if nsets == 2 else 0
            hand = r.bits(2)
            if hand == 3:
                raise MalformedCode("a cast names a hand that does not exist")
            idx = r.bits(6)
            c: dict[str, Any] = {"set": s, "hand": HANDS[hand],
                                 "spell": None if idx == _SPELL_NULL else numbers.key(idx)}
            if r.flag():
                c["target"] = _read_target(r)
            if r.flag():
                bank, permanent = r.flag(), r.flag()
                if not (bank or permanent):
                    raise MalformedCode("a cast flags extras but sets none")
                if bank:
                    c["bank"] = True
                if permanent:
                    c["permanent"] = True
            casts.append(c)
        o["casts"] = casts
    if has[1]:
        if r.flag():
            stabs: list[str | None] = []
            for _ in range(nsets):
                stabs.append(_read_target(r) if r.flag() else None)
            o["stab"] = stabs
        else:
            o["stab"] = _read_target(r)
    if has[2]:
        monsters: dict[str, Any] = {}
        previous = 0
        for _ in range(r.uint(20) + 1):
            n = previous + r.uint(9999) + 1
            if n > 9999:
                raise MalformedCode("a monster number is out of range")
            previous = n
            shape = r.bits(2)
            if shape == 3:
                raise MalformedCode("a monster attacks at most twice")
            if shape == 0:
                monsters[f"M{n}"] = _read_target(r)
            else:
                monsters[f"M{n}"] = [_read_target(r) for _ in range(shape)]
        o["monsters"] = monsters
    if has[3]:
        o["charm"] = {"gesture": GESTURE_ALPHABET[r.bits(3)]}
    if has[4]:
        o["release"] = {"target": _read_target(r)} if r.flag() else True
    if with_hands:
        hands: dict[str, str] = {}
        for _ in range(r.uint(3) + 1):
            kind, subject, hand = r.bits(1), r.bits(1), r.bits(1)
            qid = f"{HAND_QUESTION_KINDS[kind]}:W{subject}"
            if qid in hands or (hands and qid < max(hands)):
                raise MalformedCode("orders name hands out of order or twice")
            hands[qid] = "LR"[hand]
        o["hands"] = hands
    return o


def write_input(w: BitWriter, x: WireInput, numbers: SpellNumbers = STANDARD_NUMBERS) -> None:
    # Prefix code, shortest for the commonest: 0 orders, 10 decision refs, 110 empty, 111 raw.
    if isinstance(x, DecisionRefs):
        w.bits(0b10, 2)
        w.uint(len(x.pairs) - 1)
        previous = -1
        for d, opt in x.pairs:
            if d <= previous:
                raise ValueError("decision refs must ascend")
            w.uint(d - previous - 1)
            w.uint(opt)
            previous = d
        return
    if not isinstance(x, dict):
        raise ValueError("an input is a JSON object")
    if not x:
        w.bits(0b110, 3)
        return
    compact = _compact_orders(x, numbers)
    if compact is not None:
        w.bits(0, 1)
        _write_orders(w, compact, numbers)
        return
    text = canonical_json(x).encode("utf-8")
    if len(text) > MAX_RAW_BYTES:
        raise ValueError(f"input too large for a code ({len(text)} bytes)")
    w.bits(0b111, 3)
    w.uint(len(text))
    w.raw(text)


def read_input(r: BitReader, numbers: SpellNumbers = STANDARD_NUMBERS) -> WireInput:
    if not r.flag():
        return _read_orders(r, numbers)
    if not r.flag():
        pairs = []
        previous = -1
        for _ in range(r.uint(15) + 1):
            d = previous + 1 + r.uint(63)
            pairs.append((d, r.uint(63)))
            previous = d
        return DecisionRefs(tuple(pairs))
    if not r.flag():
        return {}
    data = r.raw(r.uint(MAX_RAW_BYTES))
    try:
        value = bounded_loads(data.decode("utf-8"), "input")
    except (UnicodeDecodeError, ValueError) as e:
        raise MalformedCode("an input is not valid JSON") from e
    if not isinstance(value, dict) or not value:
        raise MalformedCode("an input is not a non-empty JSON object")
    try:
        canonical = canonical_json(value).encode("utf-8")
    except ValueError as e:
        raise MalformedCode("an input holds a number JSON cannot carry") from e
    if canonical != data or _compact_orders(value, numbers) is not None:
        raise MalformedCode("an input is not in its canonical form")
    return value


def normalize_input(x: WireInput, numbers: SpellNumbers = STANDARD_NUMBERS) -> WireInput:
    """The input exactly as the other side will decode it (raises ValueError if unsendable)."""
    return decode_input(encode_input(x, numbers), numbers)


def encode_input(x: WireInput, numbers: SpellNumbers = STANDARD_NUMBERS) -> bytes:
    """The input alone, byte-aligned, spells numbered by `numbers`: what a commitment hashes."""
    w = BitWriter()
    write_input(w, x, numbers)
    return w.to_bytes()


def decode_input(data: bytes, numbers: SpellNumbers = STANDARD_NUMBERS) -> WireInput:
    """Inverse of encode_input; raises MalformedCode (UnsupportedVersion for a spell number
    beyond the table)."""
    r = BitReader(data)
    x = read_input(r, numbers)
    r.finish()
    return x

