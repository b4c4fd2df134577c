// The page's imports run one way (docs/architecture.md, "Layers of the page"): the JS twin of
// tests/test_layers.py. Every import of every module under web/ counts (static, re-exports,
// dynamic import() and new URL(..., import.meta.url)). It also fails on a module-level `let` or
// `var` outside web/store/ (the store is the one place that keeps state) and on a web/ file over
// 400 lines (web/vendor/ excluded). `node --test tests/js/`.
//
//   shell      app.js (imported by nothing), shell/ (app.js's parts), the scripts the page loads by itself
//   screens    ui/: draw a snapshot, report intents       -> screens, base
//   flows      flows/                                      -> flows, store, transports, boundary, base
//   store      store/ (but storage.js)                     -> store, transports, boundary, storage, base
//   transports transport/                                 -> transports, boundary, storage, base
//   boundary   api.js, engine*.js, integrity, snapshots    -> boundary, storage, base
//   storage    store/storage.js                           -> storage, base
//   base       limits.js, hex.js, vendor/: pure, no state  -> base
//
// A file missing from PLACES fails the test: place it when you add it.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const WEB = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');
const MAX_LINES = 400;

const BELOW = ['screens', 'flows', 'store', 'transports', 'boundary', 'storage', 'base'];
const ALLOWED = {
  shell: new Set(['shell', ...BELOW]),
  screens: new Set(['screens', 'base']),
  flows: new Set(['flows', 'store', 'transports', 'boundary', 'base']),
  store: new Set(['store', 'transports', 'boundary', 'storage', 'base']),
  transports: new Set(['transports', 'boundary', 'storage', 'base']),
  boundary: new Set(['boundary', 'storage', 'base']),
  storage: new Set(['storage', 'base']),
  base: new Set(['base']),
};

// Path (relative to web/) or folder prefix -> layer; the first match wins.
const PLACES = [
  ['app.js', 'shell'], ['shell/', 'shell'], ['boot-guard.js', 'shell'], ['engine-start.js', 'shell'], ['sw-register.js', 'shell'],
  ['compile-ahead.js', 'shell'], ['sw.js', 'shell'],
  // remote play's wiring: the shell's part that runs the remote flows and opens their screens
  ['remote.js', 'shell'], ['remote-intents.js', 'shell'], ['remote-routing.js', 'shell'], ['remote-live.js', 'shell'],
  ['ui/', 'screens'],
  ['flows/', 'flows'],
  ['store/storage.js', 'storage'],
  ['store/', 'store'],
  ['transport/', 'transports'],
  ['api.js', 'boundary'], ['engine.js', 'boundary'], ['engine-worker.js', 'boundary'], ['engine-session.js', 'boundary'], ['worker-boot.js', 'boundary'], ['worker-files.js', 'boundary'], ['engine-snapshot.js', 'boundary'],
  ['integrity.js', 'boundary'], ['site-integrity.js', 'boundary'], ['engine-build.js', 'boundary'], ['snapshot-store.js', 'boundary'], ['unpack.js', 'boundary'], ['stall-timer.js', 'boundary'], ['pyodide/', 'boundary'],
  ['limits.js', 'base'], ['hex.js', 'base'], ['vendor/', 'base'],
];

// Files still being split by this developers, and what each may still break. Entries only
// go away: a test below fails when an entry is no longer needed, so that it is removed.
const STILL_SPLITTING = {
  imports: {
  },
  state: {
  },
  size: {
  },
};

function webFiles(dir = WEB) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'vendor' || name === 'pyodide' ? [] : webFiles(path);
    return /\.m?js$/.test(name) ? [relative(WEB, path).split('\\').join('/')] : [];
  });
}

const placeOf = (rel) => (PLACES.find(([p]) => (p.endsWith('/') ? rel.startsWith(p) : rel === p)) || [null, null])[1];

// Comments out (a `//` after a space or at a line's start; block comments), strings kept.
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

const IMPORT_PATTERNS = [
  /\bimport\s+(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]/g,
  /\bexport\s+(?:\*|\{[^}]*\})(?:\s+as\s+\w+)?\s+from\s+['"]([^'"]+)['"]/g,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\bnew URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url/g,
];

/** importsOf(rel) -> the web/-relative paths a module imports (relative specifiers only). */
function importsOf(rel) {
  const text = code(readFileSync(join(WEB, rel), 'utf8'));
  const found = new Set();
  for (const pattern of IMPORT_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      if (m[1].startsWith('.')) found.add(normalize(join(dirname(rel), m[1])).split('\\').join('/'));
    }
  }
  return [...found];
}

const FILES = webFiles();

function breaches() {
  const imports = new Map();
  for (const rel of FILES) {
    const from = placeOf(rel);
    const wrong = importsOf(rel).filter((target) => !ALLOWED[from].has(placeOf(target)));
    if (wrong.length) imports.set(rel, wrong.map((t) => `${t} (${placeOf(t)})`));
  }
  const state = new Map();
  for (const rel of FILES.filter((f) => !f.startsWith('store/'))) {
    const lines = readFileSync(join(WEB, rel), 'utf8').split('\n');
    const found = lines.map((l, i) => [l, i + 1]).filter(([l]) => /^(export\s+)?(let|var)\s/.test(l)).map(([l, n]) => `${n}: ${l.trim()}`);
    if (found.length) state.set(rel, found);
  }
  const size = new Map();
  for (const rel of FILES) {
    const n = readFileSync(join(WEB, rel), 'utf8').split('\n').length - 1;
    if (n > MAX_LINES) size.set(rel, n);
  }
  return { imports, state, size };
}

const FOUND = breaches();

test('every page module has a layer', () => {
  assert.deepEqual(FILES.filter((f) => !placeOf(f)), []);
});

for (const [kind, what] of [['imports', 'imports against the layers'], ['state', 'module-level let/var outside web/store/'], ['size', `files over ${MAX_LINES} lines`]]) {
  test(`no ${what} (but the files still being split)`, () => {
    const unexpected = [...FOUND[kind]].filter(([rel]) => !(rel in STILL_SPLITTING[kind]));
    assert.deepEqual(Object.fromEntries(unexpected), {});
  });
  test(`the allow-list of ${what} only names files that still need it`, () => {
    const stale = Object.keys(STILL_SPLITTING[kind]).filter((rel) => !FOUND[kind].has(rel));
    assert.deepEqual(stale, [], 'remove these entries from STILL_SPLITTING');
  });
}

test('the shell is imported by nothing', () => {
  const importers = FILES.filter((rel) => importsOf(rel).includes('app.js'));
  assert.deepEqual(importers, []);
});
