// The data segments of a wasm module: the memory image an instance starts from.
//
// The engine's memory snapshot stores its static part (below __heap_base) XORed with these
// segments, which turns ~14 MB that gzip only squeezes to ~1.5 MB into nearly all zeros: the
// browser already has those bytes in pyodide.asm.wasm.  tools/snapshot.mjs subtracts them at
// build time and engine-worker.js adds them back; both use `xorDataSegments` from here, so
// the two sides cannot drift apart.

/** An unsigned (or, with `signed`, signed 32-bit) LEB128 number at `p`: [value, next p]. */
function leb(bytes, p, signed = false) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[p++];
    value |= (byte & 0x7f) << shift;
    shift += 7;
  } while (byte & 0x80);
  if (signed && shift < 32 && byte & 0x40) value |= -1 << shift;
  return [signed ? value : value >>> 0, p];
}

/** Every active data segment of memory 0 as [address, bytes]; throws on any other kind. */
export function dataSegments(wasm) {
  if (wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) {
    throw new Error("not a wasm module");
  }
  let p = 8;
  while (p < wasm.length) {
    const id = wasm[p++];
    let size;
    [size, p] = leb(wasm, p);
    if (id !== 11) {
      p += size;
      continue;
    }
    let count;
    [count, p] = leb(wasm, p);
    const segments = [];
    for (let i = 0; i < count; i++) {
      let flags;
      [flags, p] = leb(wasm, p);
      if (flags !== 0 || wasm[p] !== 0x41) throw new Error(`data segment ${i}: not an i32.const offset in memory 0`);
      let address;
      [address, p] = leb(wasm, p + 1, true);
      if (wasm[p++] !== 0x0b) throw new Error(`data segment ${i}: offset is not a constant`);
      let length;
      [length, p] = leb(wasm, p);
      segments.push([address >>> 0, wasm.subarray(p, p + length)]);
      p += length;
    }
    return segments;
  }
  return [];
}

/** XOR the module's data segments into `memory` (a snapshot's memory image, from address 0). */
export function xorDataSegments(wasm, memory) {
  for (const [address, bytes] of dataSegments(wasm)) {
    if (address + bytes.length > memory.length) throw new Error("data segment beyond the snapshot's memory");
    for (let i = 0; i < bytes.length; i++) memory[address + i] ^= bytes[i];
  }
}
