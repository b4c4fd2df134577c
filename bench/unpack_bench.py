"""What unpacking the site's packed files costs in the browser, against gzip; prints a table.

    python3 bench/unpack_bench.py [--site DIR] [--runs 7]

For each packed file (the wasm and the Python library, sitebuild/compress.py) of a built site,
in headless Chromium on the site's own origin: the bytes of its packed form (brotli -11) and of
gzip -9 (what a gzip-only page would have shipped), and the time to unpack each in memory, as
the engine worker does: the packed form through web/unpack.js (the vendored brotli decoder, fed
in 64 KB chunks), the gzip through the browser's own DecompressionStream.  Medians and minima
of `--runs` runs (on a loaded machine the minimum is nearer the CPU time); the decoder's one-off
set-up (fetch, check, compile) apart.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from playwright.sync_api import sync_playwright  # noqa: E402
from sitebuild import machine  # noqa: E402
from sitebuild.common import DEFAULT_OUT  # noqa: E402
from sitebuild.compress import PACKED, PACKED_SUFFIX  # noqa: E402
from sitebuild.serve import serving  # noqa: E402

PROBE = "unpack-probe.html"
KINDS = ("brotli", "native")
CHUNK = 64 * 1024

# In a blank page of the site: the decoder loaded once, then each file unpacked `runs` times.
MEASURE_JS = """async ([runs, chunk, names]) => {
  const { BUILD } = await import('./engine-build.js');
  const { loadDecoder, unpacking } = await import('./unpack.js');
  const t0 = performance.now();
  await loadDecoder(BUILD.decoder, (url) => fetch(url), () => {});
  const out = { decoderMs: performance.now() - t0 };
  const entries = { [BUILD.wasm.url]: BUILD.wasm, [BUILD.library.url]: BUILD.library };
  const chunks = (bytes) => new ReadableStream({
    start(c) {
      for (let i = 0; i < bytes.length; i += chunk) c.enqueue(bytes.slice(i, i + chunk));
      c.close();
    },
  });
  const drain = async (stream) => {
    let n = 0;
    for await (const c of stream) n += c.byteLength;
    return n;
  };
  for (const name of names) {
    const entry = entries[name];
    const packed = new Uint8Array(await (await fetch(entry.packed.url)).arrayBuffer());
    const gz = new Uint8Array(await (await fetch(name + '.gz-probe')).arrayBuffer());
    const brotli = [], native = [];
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      const n1 = await drain(chunks(packed).pipeThrough(unpacking(entry)));
      brotli.push(performance.now() - t);
      t = performance.now();
      const n2 = await drain(chunks(gz).pipeThrough(new DecompressionStream('gzip')));
      native.push(performance.now() - t);
      if (n1 !== entry.size || n2 !== entry.size) throw new Error(`${name}: ${n1} / ${n2} bytes`);
    }
    out[name] = { brotli, native, packedBytes: packed.length, gzipBytes: gz.length };
  }
  return out;
}"""


def answer(data: bytes) -> Any:
    """A route handler that answers with `data`."""
    return lambda route: route.fulfill(body=data, content_type="application/octet-stream")


def main() -> int:
    """Measure a built site's packed files (default: dist/site/)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=DEFAULT_OUT, help="a built site")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    root = args.site.resolve()
    gzipped = {rel: gzip.compress((root / rel).read_bytes(), 9, mtime=0) for rel in PACKED}
    with serving(root) as served, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(machine.CHROMIUM), args=list(machine.CHROMIUM_ARGS), headless=True
        )
        try:
            page = browser.new_page()
            page.route(f"**/{PROBE}", lambda route: route.fulfill(body="<!doctype html>"))
            for rel, data in gzipped.items():
                page.route(f"**/{rel}.gz-probe", answer(data))
            page.goto(served.url + PROBE)
            result: dict[str, Any] = page.evaluate(MEASURE_JS, [args.runs, CHUNK, list(PACKED)])
        finally:
            browser.close()
    print(f"{root}: the decoder fetched, checked and compiled in {result['decoderMs']:.0f} ms")
    print(f"{'file':<28}{'packed (br)':>13}{'gzip -9':>11}{'unpack br ms':>20}{'gunzip ms':>20}")
    for rel in PACKED:
        r = result[rel]
        times = [f"{statistics.median(r[k]):.0f} (min {min(r[k]):.0f})" for k in KINDS]
        print(f"{rel:<28}{r['packedBytes']:>13,}{r['gzipBytes']:>11,}{times[0]:>20}{times[1]:>20}")
    print(f"({args.runs} runs each; unpack.js's decoder, {CHUNK // 1024} KB chunks, against the "
          f"browser's DecompressionStream; load average {os.getloadavg()[0]:.1f}, "
          f"{os.cpu_count()} cores; `{PACKED_SUFFIX}` files as built)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
