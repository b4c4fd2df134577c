// Every sentence the player reads, keyed by code, in one lookup. Flows, the store, codecs and
// transports return codes (and the values a sentence needs); screens turn them into words with
// say(code, values). Each area keeps its sentences in its own file beside this one
// (common, screens, local, remote, live, learn, battle, melee): add yours to your area's WORDS. A value is
// a string or a function of the values object; a wizard's name inside a sentence is isolate()d
// (text.js). A code written in two areas is refused when the page loads.
import { WORDS as common } from './common.js';
import { WORDS as screens } from './screens.js';
import { WORDS as local } from './local.js';
import { WORDS as remote } from './remote.js';
import { WORDS as live } from './live.js';
import { WORDS as learn } from './learn.js';
import { WORDS as battle } from './battle.js';
import { WORDS as melee } from './melee.js';

export { isolate } from './text.js';

const AREAS = { common, screens, local, remote, live, learn, battle, melee };

const WORDS = Object.freeze(Object.entries(AREAS).reduce((all, [area, words]) => {
  for (const code of Object.keys(words)) {
    if (code in all) throw new Error(`words: "${code}" is written twice (again in ${area}.js)`);
  }
  return Object.assign(all, words);
}, {}));

/** say(code, values) -> the sentence for that code with its values filled in; unknown codes say so plainly. */
export function say(code, values = {}) {
  const words = WORDS[code];
  if (words === undefined) return values.message || `Something went wrong (${code}).`;
  return typeof words === 'function' ? words(values) : words;
}

/**
 * sayError(error) -> the sentence for an error value: a transport's or codec's by its reason or
 * code ("rtc-<reason or code>", with its detail), else the message it carries.
 */
export function sayError(error) {
  const key = `rtc-${error.reason || error.code}`;
  if (key in WORDS) return say(key, error);
  return error.message || say(error.code, error);
}

/** hasWords(code) -> whether a sentence exists for that code. */
export const hasWords = (code) => code in WORDS;
