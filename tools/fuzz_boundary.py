"""Fuzz the JSON boundary with mutated codes, games, sessions and records (issue 12).

    python3 tools/fuzz_boundary.py [N] [SEED]

Every input goes through a `wavinghands.api` function; a crash is an exception crossing the
boundary, a result that is not an envelope, or an "internal" error.  Prints the counts.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from wavinghands import api
from wavinghands.remote import session


def seeds() -> dict[str, str]:
    """Real texts of each format, to mutate."""
    host = session.create_invitation("Host", {}, os.urandom)
    guest = session.accept_invitation(host.code or "", "Guest")
    sealed = session.seal(guest, {"gestures": [["W", "W"]]}, None, os.urandom)
    game = json.loads(api.new_game(json.dumps({"names": ["Ann", "Bo"], "seed": "0123abcd"})))
    record = json.loads(api.export_record(json.dumps(game["game"])))["record"]
    return {"invite": host.code or "", "accept": sealed.code or "",
            "session": json.dumps(host.session.to_json()), "game": json.dumps(game["game"]),
            "record": json.dumps(record)}


def mutate(rng: random.Random, text: str) -> str:
    """One to four random edits: flip, insert (brackets, quotes, unicode), delete, repeat."""
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        i = rng.randrange(len(chars) + 1)
        if op == 0 and chars:
            chars[min(i, len(chars) - 1)] = chr(rng.randrange(0x20, 0x3000))
        elif op == 1:
            chars[i:i] = list(rng.choice(["[", "{", '"', "\\", "]", "}", ",", ":", "\u202e",
                                          "[" * rng.randint(1, 5000), "1e999", "null"]))
        elif op == 2:
            del chars[i:i + rng.randint(1, 8)]
        elif op == 3:
            chars = chars[:i]
        elif op == 4:
            j = rng.randrange(len(chars) + 1)
            chars[i:i] = chars[min(i, j):max(i, j)][:200]
        else:
            chars.insert(i, rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef0123456789-_."))
    return "".join(chars)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 12)
    base = seeds()
    outcomes: Counter[str] = Counter()
    crashes: list[str] = []
    started = time.perf_counter()
    for k in range(n):
        kind = rng.choice(["invite", "accept", "invite", "accept", "session", "game", "record"])
        text = mutate(rng, base[kind])
        try:
            if kind in ("invite", "accept"):
                fn = rng.choice([api.remote_parse, api.remote_describe])
                out = fn(json.dumps(text))
                if rng.random() < 0.05:
                    out = api.remote_receive(base["session"], json.dumps(text))
            elif kind == "session":
                out = api.remote_status(text)
            elif kind == "game":
                out = api.view(text, "0") if k % 20 == 0 else api.export_record(text)
            else:
                out = api.import_record(text) if k % 10 == 0 else api.replay_step(text, "0")
            result = json.loads(out)
            if result["ok"]:
                outcomes["ok"] += 1
            else:
                outcomes[result["error"]["code"]] += 1
                if result["error"]["code"] == "internal":
                    crashes.append(f"{kind}: {result['error']['message']}")
        except BaseException as e:  # the boundary promises that nothing crosses it
            crashes.append(f"{kind}: {type(e).__name__}: {e}")
    elapsed = time.perf_counter() - started
    print(f"{n:,} inputs in {elapsed:.0f} s: {len(crashes)} crashes")
    print(dict(outcomes.most_common()))
    for c in crashes[:10]:
        print("CRASH", c[:300])


if __name__ == "__main__":
    main()
