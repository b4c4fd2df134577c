// The site's packed files, unpacked in the engine worker: the wasm and the Python library go out
// brotli-compressed inside the site (`pyodide/pyodide.asm.wasm.br`, `pyodide/python_lib.zip.br`),
// so that every host sends them small, whether it compresses on the fly, serves precompressed
// siblings or neither (docs/hosting.md).  Chromium's DecompressionStream knows gzip and deflate
// but not brotli, and gzip would send ~1.3 MB more of these two files; so they are decoded by
// the vendored decoder `brotli-dec-wasm` (npm, pinned by integrity at build time; Rust's
// brotli-decompressor compiled to wasm), whose own wasm travels gzipped (`.gz`, ~0.1 MB) and
// is inflated by the browser's DecompressionStream.  Decoding streams: a packed file is decoded
// while it downloads, and the wasm compiles from the decoded stream (docs/build.md, "A first
// visit").
//
// Nothing runs before its integrity is checked: the decoder's wasm is checked (its unpacked
// bytes, against engine-build.js) before it is instantiated; what it decodes is checked by the
// caller before anything uses it.  A host that decodes a packed file itself (one that sends
// `.br` or `.gz` with a Content-Encoding) hands the browser the file as it was built: that is
// recognised by its first bytes (engine-build.js's `head`), and passed through.

import { checkBytes, markDamaged } from "./integrity.js";
import { initSync, DecompressStream, BrotliStreamResultCode } from "./vendor/brotli-dec.mjs";

// The most the decoder writes per call: a 64 KB chunk of the packed wasm unpacks to ~0.25 MB.
const OUTPUT_PER_CALL = 1 << 20;

/** Whether `bytes` begins with the bytes of the hex string `head`. */
function startsWith(bytes, head) {
  if (bytes.length < head.length / 2) return false;
  for (let i = 0; i < head.length / 2; i++) {
    if (bytes[i] !== parseInt(head.slice(2 * i, 2 * i + 2), 16)) return false;
  }
  return true;
}

/** A response's whole body as one Uint8Array, `onChunk(n)` told of each chunk's length (the engine worker's reads too). */
export async function readAll(response, onChunk) {
  const reader = response.body.getReader();
  const chunks = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onChunk(value.byteLength);
    chunks.push(value);
    length += value.byteLength;
  }
  return concat(chunks, length);
}

/** The chunks joined into one Uint8Array of `length` bytes. */
export function concat(chunks, length) {
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

/**
 * The brotli decoder, ready (once): its wasm fetched by `fetchFile(url)` (a response; its chunks
 * told to `onChunk`), inflated unless the host already did (gzip's magic bytes), checked against
 * `entry.integrity` and only then instantiated.  `entry`: engine-build.js's `decoder`; `found`:
 * the boot's list of damaged files (integrity.js's checkBytes).
 */
export async function loadDecoder(entry, fetchFile, onChunk, found = []) {
  const response = await fetchFile(entry.url);
  if (!response.ok) throw new Error(`Failed to load '${entry.url}': request failed (${response.status})`);
  let bytes = await readAll(response, onChunk);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(inflated).arrayBuffer());
  }
  await checkBytes(entry.url, bytes, entry.integrity, found);
  initSync({ module: await WebAssembly.compile(bytes) });
}

/**
 * A TransformStream from a packed file's bytes to the file's own, for `entry` (engine-build.js's
 * `wasm` or `library`: `url`, `integrity`, `packed.head`).  A stream the decoder refuses, or
 * one that ends early, errors with DamagedFile naming the file (as its check would have).  The
 * decoder must be loaded (loadDecoder) before the first chunk arrives; `found` as loadDecoder's.
 */
export function unpacking(entry, found = []) {
  let decoder = null;
  let passThrough = null; // decided by the first bytes
  let head = new Uint8Array(0);
  let finished = false;
  const fail = (controller, why) => controller.error(markDamaged(entry.url, entry.integrity, why, found));
  const decode = (input, controller) => {
    for (;;) {
      let result;
      try {
        result = decoder.decompress(input, OUTPUT_PER_CALL);
      } catch (err) {
        fail(controller, `not a brotli stream: ${err && err.message ? err.message : err}`);
        return;
      }
      const { code } = result;
      const out = result.buf;
      input = input.subarray(result.input_offset);
      result.free();
      if (out.length > 0) controller.enqueue(out);
      if (code === BrotliStreamResultCode.ResultSuccess) {
        finished = true;
        if (input.length > 0) fail(controller, "bytes after the end of its brotli stream");
        return;
      }
      if (code === BrotliStreamResultCode.NeedsMoreInput) return;
      // NeedsMoreOutput: the same input again, from where the decoder stopped.
    }
  };
  return new TransformStream({
    transform(chunk, controller) {
      if (passThrough === null) {
        // Enough of the start to tell a packed file from one the host has unpacked already.
        const joined = concat([head, chunk], head.length + chunk.length);
        if (joined.length < entry.packed.head.length / 2) {
          head = joined;
          return;
        }
        passThrough = startsWith(joined, entry.packed.head);
        head = null;
        if (!passThrough) decoder = new DecompressStream();
        chunk = joined;
      }
      if (passThrough) controller.enqueue(chunk);
      else if (!finished) decode(chunk, controller);
      else if (chunk.length > 0) fail(controller, "bytes after the end of its brotli stream");
    },
    flush(controller) {
      if (passThrough === null && head.length > 0) controller.enqueue(head); // a short file: its check names it
      if (decoder !== null) decoder.free();
      if (passThrough === false && !finished) fail(controller, "its brotli stream ends early");
    },
  });
}
