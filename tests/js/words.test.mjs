// Every sentence for the player is keyed by code in web/ui/words/ (issue 24; docs/architecture.md,
// "Words"): this fails on a new literal that reads like player text anywhere else in web/. A
// literal counts when its text (a template's ${...} parts dropped) has two words or more, or is
// one capitalised word ('Delete', 'Opponent'); code-like text is not counted (selectors, CSS,
// SVG, key names, data-testid values, imports, console lines, thrown Errors for developers).
// `node --test tests/js/`.
//
// NOT_PLAYER: files whose literals never reach the player (the worker and the boundary answer in
// codes the page says; codecs answer in codes). STILL_TO_KEY: files still to key, each with how
// many literals it holds; an entry may only shrink (a test fails when it is stale).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const WEB = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');

const NOT_PLAYER = new Set([
  // Python source, technical details of a failure, log lines: the player sees a keyed sentence.
  'engine-snapshot.js', 'engine-worker.js', 'worker-boot.js', 'worker-files.js', 'unpack.js', 'engine.js',
  'snapshot-store.js', 'sw.js', 'sw-register.js', 'integrity.js',
  // The page's guard runs before any module and must work when a module (words/ too) is the
  // damaged file: it keeps its own two sentences (docs/architecture.md, "Words").
  'boot-guard.js',
  // An engine error value in the engine's own form ({code, message}; the engine says the same).
  'limits.js',
  // Codecs and the ICE settings answer in codes (the page says 'rtc-<code>'); their literals are
  // the wire format and the technical detail of an error.
  'transport/codec/code.js', 'transport/codec/sdp.js', 'transport/codec/ip.js', 'transport/codec/format.js',
  'transport/codec/bytes.js', 'transport/ice.js',
]);

const STILL_TO_KEY = {
};

function webFiles(dir = WEB) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return ['vendor', 'pyodide', 'words'].includes(name) ? [] : webFiles(path);
    return /\.m?js$/.test(name) ? [relative(WEB, path).split('\\').join('/')] : [];
  });
}

// Lines whose literals are not for the player (an error value's technical detail: fail(code, detail)).
const CODE_LINE = /^\s*(import|export \{[^}]*\} from)\b|console\.\w+\(|new (Type|Range)?Error\(|querySelector(All)?\(|\.closest\(|matchMedia\(|\bkey ===|\b(fail|damaged)\('[\w-]+', /;
// Literal text that is code, not words: selectors, CSS, SVG, markup, URLs, module paths.
const CODE_TEXT = /^[.#[:@/]|^\((max|min|prefers)-|^(translate|rotate|scale|matrix)\(|[;{}=<>]|^https?:|\.(m?js|json)$/;
// A literal right after one of these is a class list or a test id.
const CLASS_BEFORE = /(\bclass:[^,'"`]*|className =|classList\.\w+\(|'data-[\w-]+':\s*)$/;
// Lower-case words, one of them hyphenated: a class list ('tool puzzle-pick', 'bar-fill low').
const CLASS_LIST = /^(?=.*[a-z]-[a-z])[a-z][\w-]*( [a-z][\w-]*)*$|^use strict$/;
const KEY_NAMES = new Set(['Enter', 'Escape', 'Tab', 'Shift', 'Ctrl', 'Alt', 'Meta', 'Backspace', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'Esc']);

// Comments out, line numbers kept.
const blank = (m) => m.replace(/[^\n]/g, ' ');
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/(^|[\s;,(){}])\/\/.*$/gm, '$1');

/** literalsIn(source) -> ["line: text"] for each literal of a module's source that reads like player text. */
export function literalsIn(source) {
  const found = [];
  code(source).split('\n').forEach((line, i) => {
    if (CODE_LINE.test(line)) return;
    for (const m of line.matchAll(/(['"`])((?:\\.|(?!\1)[^\\])*)\1/g)) {
      const text = m[2].replace(/\$\{[^}]*\}/g, ' ').replace(/\\./g, ' ').replace(/\s+/g, ' ').trim();
      const words = text.match(/[A-Za-z][a-z']+/g) || [];
      const sentence = (words.length >= 2 && / /.test(text) && /[a-z]{2}/.test(text)) || /^[A-Z][a-z]+$/.test(text);
      if (!sentence || KEY_NAMES.has(text) || CLASS_LIST.test(text) || CODE_TEXT.test(text)) continue;
      if (CLASS_BEFORE.test(line.slice(0, m.index))) continue;
      found.push(`${i + 1}: ${text}`);
    }
  });
  return found;
}

const playerLiterals = (rel) => literalsIn(readFileSync(join(WEB, rel), 'utf8'));

const FILES = webFiles().filter((rel) => !NOT_PLAYER.has(rel));
const FOUND = new Map(FILES.map((rel) => [rel, playerLiterals(rel)]).filter(([, lines]) => lines.length));

test('no player sentence outside web/ui/words/ (but the files still being keyed)', () => {
  const unexpected = [...FOUND].filter(([rel]) => !(rel in STILL_TO_KEY));
  assert.deepEqual(Object.fromEntries(unexpected), {});
});

test('the files still being keyed hold no more literals than listed', () => {
  const grown = [...FOUND].filter(([rel, lines]) => rel in STILL_TO_KEY && lines.length > STILL_TO_KEY[rel]);
  assert.deepEqual(Object.fromEntries(grown), {});
});

test('the list of files still being keyed is not stale', () => {
  const stale = Object.entries(STILL_TO_KEY).filter(([rel, n]) => (FOUND.get(rel) || []).length < n).map(([rel]) => rel);
  assert.deepEqual(stale, [], 'lower or remove these entries of STILL_TO_KEY');
});

test('the check sees a sentence, a capitalised label and a title, and passes code', () => {
  assert.equal(literalsIn("h('button', {}, 'Delete the duel')").length, 1);
  assert.equal(literalsIn("h('label', {}, 'Opponent')").length, 1);
  assert.equal(literalsIn("h('p', { title: `${n} more turns` })").length, 1);
  assert.equal(literalsIn("h('li', { class: 'chip bad is-self', 'data-testid': 'wizard card' })").length, 0);
  assert.equal(literalsIn("if (event.key === 'Enter') go(); el.querySelector('[data-testid=x] .y');").length, 0);
  assert.equal(literalsIn("console.warn('the snapshot could not be kept'); // A comment says why").length, 0);
});
