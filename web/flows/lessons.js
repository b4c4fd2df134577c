// The lessons flow: the guided first duel (wavinghands.lessons through web/api.js). The list with
// the player's progress, one lesson at a time played turn by turn on the real engine against its
// scripted opponent, the engine's check and what happened; any lesson skipped or played again;
// the last lesson a whole duel against the computer, begun by the shell. No DOM:
// web/ui/screens/lessons.js draws its snapshots and calls its intents. Progress is kept through
// the `progress` the shell gives (web/store/storage.js's settings), never here.

const HANDS = ['L', 'R'];
const IDLE = Object.freeze({ L: '-', R: '-' });
const FRESH = Object.freeze({
  lesson: null, view: null, turns: Object.freeze([]), gestures: IDLE, lastEvents: Object.freeze([]), events: Object.freeze([]),
  hintShown: false, verdict: null, busy: false, error: null,
});

/** nextLesson(list, progress) -> the id of the first lesson neither passed nor skipped (the first if all are), or null for an empty list. */
export function nextLesson(list, progress) {
  const open = list.find((l) => !progress[l.id]);
  return (open || list[0] || { id: null }).id;
}

/**
 * createLessons({api, progress, onDuel}) -> {getState, subscribe(fn) -> unsubscribe, start, open(id),
 * openNext, setGesture(hand, code), seal, retry, skip, next, back, hint, playDuel}.
 * api: {lessons(), lesson(id), lessonTurn(id, turns)} (web/api.js's, or a fake in tests);
 * progress: {load() -> {id: 'passed' | 'skipped' | 'begun'}, save(object) -> whether it was kept};
 * onDuel(level) begins the whole duel of the last lesson (the shell's computer duel).
 * A snapshot: {phase: 'loading' | 'list' | 'lesson' | 'failed', list, done (the progress), events
 * (every turn's log lines of the lesson so far), lastEvents (the last turn's),
 * unsaved (the last save was refused), ...FRESH}; errors are codes with the engine's message.
 */
export function createLessons({ api, progress, onDuel }) {
  let state = { phase: 'loading', list: [], done: { ...progress.load() }, unsaved: false, ...FRESH };
  const subscribers = new Set();
  const set = (patch) => {
    state = { ...state, ...patch };
    for (const fn of subscribers) fn(state);
  };
  const failed = (code, answer) => ({ code, message: answer && answer.error ? answer.error.message : '' });

  /** Marks a lesson (a pass is never downgraded to a skip) and saves the progress. */
  function mark(id, how) {
    if (state.done[id] === 'passed' && how !== 'passed') return;
    const done = { ...state.done, [id]: how };
    set({ done, unsaved: !progress.save(done) });
  }

  async function start() {
    const answer = await api.lessons();
    if (!answer.ok) return set({ phase: 'failed', error: failed('lessons-failed', answer) });
    return set({ phase: 'list', list: answer.lessons, ...FRESH });
  }

  async function open(id) {
    set({ busy: true, error: null });
    const answer = await api.lesson(id);
    if (!answer.ok) return set({ busy: false, error: failed('lesson-failed', answer) });
    return set({ ...FRESH, phase: 'lesson', lesson: answer.lesson, view: answer.view });
  }

  const openNext = () => {
    const id = nextLesson(state.list, state.done);
    return id ? open(id) : Promise.resolve();
  };

  function setGesture(hand, code) {
    if (!HANDS.includes(hand) || state.phase !== 'lesson' || state.verdict) return;
    set({ gestures: { ...state.gestures, [hand]: code } });
  }

  /** Plays this turn's gestures; the lesson's last turn brings the engine's check. */
  async function seal() {
    if (state.phase !== 'lesson' || state.busy || state.verdict || state.lesson.duel) return;
    const id = state.lesson.id;
    const turns = [...state.turns, { gestures: [[state.gestures.L, state.gestures.R]] }];
    set({ busy: true, error: null });
    const answer = await api.lessonTurn(id, turns);
    if (state.lesson?.id !== id) return; // the player moved on meanwhile
    if (!answer.ok) return set({ busy: false, error: failed('lesson-turn-refused', answer) });
    const played = { busy: false, turns, view: answer.view, lastEvents: answer.events, events: [...state.events, ...answer.events], gestures: IDLE };
    if (!answer.done) return set(played);
    set({ ...played, verdict: { passed: answer.passed, failed: answer.failed } });
    if (answer.passed) mark(id, 'passed');
  }

  /** The lesson again from its start. */
  const retry = () => (state.lesson ? open(state.lesson.id) : Promise.resolve());

  /** The lesson after the current one (or the list after the last). */
  function next() {
    const at = state.list.findIndex((l) => l.id === state.lesson?.id);
    const after = state.list[at + 1];
    return after ? open(after.id) : Promise.resolve(back());
  }

  /** Leaves this lesson unplayed, marked skipped, for the next. */
  function skip() {
    if (state.lesson) mark(state.lesson.id, 'skipped');
    return next();
  }

  const back = () => set({ ...FRESH, phase: 'list' });
  const hint = () => set({ hintShown: true });

  /** The last lesson: a whole duel against the computer at its level, begun by the shell. */
  function playDuel() {
    if (state.phase !== 'lesson' || !state.lesson.duel) return undefined;
    mark(state.lesson.id, 'begun');
    return onDuel(state.lesson.duel);
  }

  return {
    getState: () => state,
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    start, open, openNext, setGesture, seal, retry, skip, next, back, hint, playDuel,
  };
}
