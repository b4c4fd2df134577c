// The puzzles flow: the list, one puzzle at a time, the player's answer, hints and the engine's
// verdict (wavinghands.puzzles through web/api.js). No DOM: web/ui/screens/puzzles.js draws its
// snapshots and calls its intents. Every rules question goes to the engine: which answer is
// right, what the opponent answers a wrong one with, which spells a hand can complete.

const HANDS = ['L', 'R'];
const FRESH = Object.freeze({
  puzzle: null, view: null, spells: [], gestures: Object.freeze({ L: '-', R: '-' }), chosen: Object.freeze([]),
  hints: 0, answerShown: false, verdict: null, busy: false, error: null,
});

/** localDate(now) -> "YYYY-MM-DD" for a Date in the player's own time zone (the puzzle of the day's key). */
export function localDate(now) {
  const two = (n) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

/** answerOf(snapshot) -> the answer as the engine takes it: orders ({gestures}) or a list of spell keys (foresee). */
export function answerOf(snapshot) {
  if (!snapshot.puzzle) return null;
  if (snapshot.puzzle.kind === 'foresee') return [...snapshot.chosen];
  return { gestures: [[snapshot.gestures.L, snapshot.gestures.R]] };
}

/**
 * createPuzzles({api, date}) -> {getState, subscribe(fn) -> unsubscribe, start, open(id), openToday,
 * next, back, setGesture(hand, code), toggleSpell(key), hint, showAnswer, check}.
 * api: {puzzles(params), puzzle(id), puzzleCheck(id, answer), spells(ruleset)} (web/api.js's, or a
 * fake in tests); date: "YYYY-MM-DD" (the puzzle of the day). A snapshot: {phase: 'loading' |
 * 'list' | 'puzzle' | 'failed', list, today, ...FRESH}; errors are codes with the engine's message.
 */
export function createPuzzles({ api, date }) {
  let state = { phase: 'loading', list: [], today: null, ...FRESH };
  const subscribers = new Set();
  const set = (patch) => {
    state = { ...state, ...patch };
    for (const fn of subscribers) fn(state);
  };
  const failed = (code, answer) => ({ code, message: answer && answer.error ? answer.error.message : '' });

  async function start() {
    const answer = await api.puzzles({ date });
    if (!answer.ok) return set({ phase: 'failed', error: failed('puzzles-failed', answer) });
    return set({ phase: 'list', list: answer.puzzles, today: answer.today, ...FRESH });
  }

  async function open(id) {
    set({ busy: true, error: null });
    const answer = await api.puzzle(id);
    if (!answer.ok) return set({ busy: false, error: failed('puzzle-failed', answer) });
    let spells = [];
    if (answer.puzzle.kind === 'foresee') {
      const book = await api.spells(answer.view.ruleset);
      if (!book.ok) return set({ busy: false, error: failed('puzzle-failed', book) });
      spells = book.spells.map((s) => ({ key: s.key, name: s.name, sequences: s.sequences }));
    }
    return set({ ...FRESH, phase: 'puzzle', puzzle: answer.puzzle, view: answer.view, spells });
  }

  const openToday = () => (state.today ? open(state.today) : Promise.resolve());

  /** The puzzle after the current one in the list (the first after the last). */
  function next() {
    const at = state.list.findIndex((p) => p.id === state.puzzle?.id);
    const after = state.list[(at + 1) % state.list.length];
    return after ? open(after.id) : Promise.resolve();
  }

  const back = () => set({ ...FRESH, phase: 'list' });

  function setGesture(hand, code) {
    if (!HANDS.includes(hand) || state.phase !== 'puzzle') return;
    set({ gestures: { ...state.gestures, [hand]: code }, verdict: null });
  }

  function toggleSpell(key) {
    if (state.phase !== 'puzzle') return;
    const chosen = state.chosen.includes(key) ? state.chosen.filter((k) => k !== key) : [...state.chosen, key];
    set({ chosen, verdict: null });
  }

  const hint = () => set({ hints: Math.min(state.hints + 1, state.puzzle ? state.puzzle.hints.length : 0) });
  const showAnswer = () => set({ answerShown: true });

  async function check() {
    if (state.phase !== 'puzzle' || state.busy) return;
    const id = state.puzzle.id;
    set({ busy: true, error: null });
    const answer = await api.puzzleCheck(id, answerOf(state));
    if (state.puzzle?.id !== id) return; // the player moved on meanwhile
    if (!answer.ok) return set({ busy: false, error: failed('check-failed', answer) });
    set({
      busy: false,
      verdict: { solved: answer.solved, reply: answer.reply, events: answer.events || [], missing: answer.missing || [], extra: answer.extra || [] },
    });
  }

  return {
    getState: () => state,
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    start, open, openToday, next, back, setGesture, toggleSpell, hint, showAnswer, check,
  };
}
