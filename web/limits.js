// The limits every text meets before anything parses it (docs/protocol.md, "Threat model"):
// a hostile paste or file must fail at once with a clear sentence, never freeze the page or
// overflow the engine's stack. MAX_TEXT_CHARS and MAX_JSON_DEPTH are the engine's own
// (wavinghands/boundary.py; tests/test_hostile.py checks that the numbers agree).

export const MAX_TEXT_CHARS = 4_000_000;
export const MAX_JSON_DEPTH = 32;
// An imported record's byte cap (wavinghands/record.py MAX_RECORD_BYTES, about 1,000 turns;
// docs/record-format.md "Limits"): a bigger file is refused by its size, before it is read.
export const MAX_RECORD_BYTES = 2_000_000;
// A turn code, a link or a live connection code is a few kilobytes at most.
export const MAX_PASTE_CHARS = 65_536;

const STRING = /"[^"\\]*(?:\\.[^"\\]*)*"/g;

/** nestingDepth(text) -> the deepest nesting of [ and { in a JSON text, brackets in strings ignored. */
export function nestingDepth(text) {
  const bare = text.replace(STRING, '');
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < bare.length; i += 1) {
    const c = bare.charCodeAt(i);
    if (c === 91 || c === 123) { depth += 1; if (depth > deepest) deepest = depth; }
    else if (c === 93 || c === 125) depth -= 1;
  }
  return deepest;
}

/**
 * textProblem(text, what, limit) -> {code, message, chars, limit} ('too-large') or {code, message,
 * depth, most} ('too-deep') when the text is too long or nests too deep, else null. The message is
 * in the engine's form (its error values carry the same); a screen says it by code and values
 * (web/ui/words/common.js, 'text-too-large', 'text-too-deep').
 */
export function textProblem(text, what = 'input', limit = MAX_TEXT_CHARS) {
  if (typeof text !== 'string') return null;
  if (text.length > limit) {
    return { code: 'too-large', chars: text.length, limit, message: `The ${what} is too large: ${text.length.toLocaleString('en')} characters, the most that can be read is ${limit.toLocaleString('en')}. Nothing was changed.` };
  }
  const deepest = nestingDepth(text);
  if (deepest > MAX_JSON_DEPTH) {
    return { code: 'too-deep', depth: deepest, most: MAX_JSON_DEPTH, message: `The ${what} nests ${deepest} levels deep; no game, record or code nests more than ${MAX_JSON_DEPTH}. Nothing was changed.` };
  }
  return null;
}
