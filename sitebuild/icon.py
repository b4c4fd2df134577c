"""The app icon (web app manifest), drawn as a PNG by the standard library."""

from __future__ import annotations

import math
import struct
import zlib
from collections.abc import Sequence

# The app icon (web app manifest): the site's sigil colours, a ring with a dot, full-bleed so
# that it also works as a "maskable" icon (everything inside the central 80 % circle).
ICON_SIZES = (192, 512)
ICON_BACKGROUND = (0x7A, 0x2A, 0x21)
ICON_INK = (0xF3, 0xEA, 0xD3)


def png(width: int, height: int, rows: Sequence[bytes]) -> bytes:
    """A truecolour PNG (8-bit RGB, no interlace) from raw RGB rows; same rows, same bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 on every row
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def app_icon(size: int) -> bytes:
    """The app icon as a PNG of size x size pixels, anti-aliased by distance to each edge."""
    centre = size / 2
    ring_radius, ring_half_width, dot_radius = 0.27 * size, 0.045 * size, 0.085 * size

    def ink(x: float, y: float) -> float:
        d = math.hypot(x - centre, y - centre)
        ring = ring_half_width - abs(d - ring_radius)
        dot = dot_radius - d
        return min(1.0, max(0.0, max(ring, dot) + 0.5))  # coverage of a one-pixel edge

    rows = []
    for y in range(size):
        row = bytearray()
        for x in range(size):
            a = ink(x + 0.5, y + 0.5)
            mix = zip(ICON_BACKGROUND, ICON_INK, strict=True)
            row += bytes(round(back + (ink_ - back) * a) for back, ink_ in mix)
        rows.append(bytes(row))
    return png(size, size, rows)
