// The helpers several areas' sentences share (web/ui/words/): a name isolated inside a
// sentence, the storage-refused reason, a counted noun.

/**
 * isolate(name) -> the name between U+2068 (first-strong isolate) and U+2069: the text form of
 * dom.nameOf's <bdi>, so a name ending in U+202E cannot reverse the words after it.
 */
export const isolate = (name) => `\u2068${name}\u2069`;

/** storageWhy({refusal}) -> why the browser refused to store the duel. */
export const storageWhy = ({ refusal }) => (refusal === 'unavailable'
  ? 'This browser refused to store the duel (its storage is switched off for this page)'
  : 'Your browser’s storage for this page is full');

/** count(n, one, many) -> "one" for 1, else "n many". */
export const count = (n, one, many) => (n === 1 ? one : `${n} ${many}`);
