// The engine's boot as the page shows it (progress, failure, ready), and the rules it knows: the
// rulesets a new duel may use and each ruleset's spell book, from the build's reference.json
// until the running engine answers. No rule lives here: every answer is the engine's.

import { h, replace } from '../ui/dom.js';
import { hasWords, say } from '../ui/words/index.js';

const STAGE_WORDS = {
  waiting: say('boot-waking-the-rules-engine'),
  runtime: say('boot-loading-the-python-runtime'),
  python: say('boot-starting-python'),
  starting: say('boot-starting-the-rules-engine'),
  engine: say('boot-installing-the-rules'),
  ready: say('boot-checking-the-spell-book'),
};

const megabytes = (bytes) => (bytes / 1e6).toFixed(1);

const asChoices = (listed) => listed.map((r) => ({
  name: r.name, title: r.title, description: r.description,
  options: r.options.map((o) => ({ id: o.key, label: o.label, hint: o.description, default: o.default })),
}));

/**
 * bootEngine({api, statusBox, setSpellBook}) -> {engine, rulesKnown, rulesets(), useRules(ruleset)}:
 * `engine` resolves once the engine answers (rejects with a player-facing Error); `rulesKnown`
 * resolves true once the rules are known from the build or the engine; rulesets() -> the start
 * screen's choices; useRules(ruleset) shows that ruleset's spells in the reference.
 */
export function bootEngine({ api, statusBox, setSpellBook }) {
  const books = new Map(); // ruleset name -> the engine's spells() answer
  const known = { rulesets: [], wantedBook: null, engineAnswered: false };

  function showProgress(stage, fraction, detail) {
    if (statusBox.dataset.state !== 'loading') return;
    statusBox.querySelector('.engine-status-text').textContent = detail
      ? say('boot-fetching', { loaded: megabytes(detail.loaded), total: megabytes(detail.total) })
      : STAGE_WORDS[stage] || say('boot-loading', { stage });
    statusBox.querySelector('progress').value = Math.round((fraction || 0) * 100);
  }

  function showFailure(message) {
    statusBox.dataset.state = 'error';
    statusBox.setAttribute('role', 'alert');
    replace(statusBox,
      h('span', { class: 'engine-status-text' }, say('engine-failed-start', { message })),
      h('button', { type: 'button', class: 'tool', onclick: () => location.reload() }, say('boot-reload')));
  }

  /** useRules(ruleset) shows that ruleset's spells in the reference (a ruleset object, or a name). */
  async function useRules(ruleset) {
    const key = (typeof ruleset === 'string' ? ruleset : ruleset && ruleset.name) || 'standard';
    known.wantedBook = key;
    let book = books.get(key);
    if (!book) {
      // While the engine loads, say so rather than show another ruleset's book.
      if (!known.engineAnswered) setSpellBook(null);
      book = await api.spells({ name: key });
      if (book.ok) books.set(key, book);
    }
    if (known.wantedBook !== key) return; // another duel or choice asked meanwhile
    if (book.ok) setSpellBook(book);
    else setSpellBook(null, book.error.message);
  }

  function adopt(book, listed) {
    if (!books.has('standard')) books.set('standard', book);
    if (!known.wantedBook || known.wantedBook === 'standard') setSpellBook(books.get('standard'));
    known.rulesets = asChoices(listed);
  }

  const engine = (async () => {
    let timings;
    try {
      timings = await api.bootEngine(showProgress);
    } catch (err) {
      // engine.js's failure codes, said here (the worker and the boundary hold no sentences).
      throw new Error(err && err.code && hasWords(`boot-failed-${err.code}`) ? say(`boot-failed-${err.code}`, { path: err.path }) : say('boot-did-not-start'));
    }
    const book = await api.spells();
    if (!book.ok) throw new Error(say('boot-no-spell-book', { message: book.error.message }));
    const listed = await api.rulesets();
    if (!listed.ok || !listed.rulesets.length) {
      throw new Error(say('boot-no-rules', { message: listed.ok ? 'none listed' : listed.error.message }));
    }
    known.engineAnswered = true;
    books.set('standard', book); // the running engine's book replaces the build's
    adopt(book, listed.rulesets);
    return timings || {};
  })();

  // The same answers as the engine gave them at build time (reference.json, a few KB): the
  // spell reference and the start screen's rule options work while the engine downloads.
  const rulesKnown = api.builtReference().then((built) => {
    for (const [name, book] of Object.entries(built.books || {})) {
      if (book && book.ok && !books.has(name)) books.set(name, book);
    }
    if (known.wantedBook && known.wantedBook !== 'standard' && books.has(known.wantedBook)) setSpellBook(books.get(known.wantedBook));
    if (!known.engineAnswered && built.rulesets.rulesets.length) adopt(built.spells, built.rulesets.rulesets);
    return true;
  }).catch((err) => {
    console.warn('reference.json unavailable, waiting for the engine:', err.message);
    return engine.then(() => true, () => false);
  });

  engine.then(() => {
    statusBox.dataset.state = 'ready';
    statusBox.querySelector('.engine-status-text').textContent = say('boot-ready');
    setTimeout(() => { statusBox.hidden = true; }, 2500);
    // engine.js keeps its boot promise on window.__engineReady; this flag says the page, not just
    // the worker, is ready to play (tests wait for it).
    window.__appReady = true;
    window.dispatchEvent(new Event('engine-ready'));
  }, (err) => {
    // The recorded reference, if it arrived, stays readable.
    rulesKnown.then((got) => { if (!got) setSpellBook(null, err.message); });
    showFailure(err.message);
  });

  return { engine, rulesKnown, rulesets: () => known.rulesets, useRules };
}
