// common: saving and the saved duels, the engine's boundary, records and replay links
// (web/store/, web/api.js, web/ui/records.js, web/ui/saved.js, web/shell/).
import { count, isolate, storageWhy } from './text.js';

const RECORD_WANTED = 'This box takes a duel record: the text (or the .json file) that “Export the record” makes, which begins {"format": "wavinghands-record". A code or link from a friend goes in the start screen’s box “Got a code or a link from a friend? Paste it here”. Nothing was imported.';

// A melee's title, "Ann, Bob and Cat": each name isolated, a seat not taken yet said as such.
function everyWizard(names) {
  const said = names.map((name, i) => (name ? isolate(name) : `seat ${i + 1}`));
  return `${said.slice(0, -1).join(', ')} and ${said[said.length - 1]}`;
}

export const WORDS = {
  // shared: saving and the saved duels
  'storage-refused': storageWhy,
  'unsaved-local': (v) => `${storageWhy(v)}: the duel goes on, but a reload would lose the turns since it was last saved. `,
  'unsaved-remote': (v) => `${storageWhy(v)}, so this step was not saved and no code was shown or sent: delete or export old duels, then ${v.again}`,
  'make-room': 'Saved duels: make room…',
  // A duel's summary (store/record.js's summaryOf, flows/remote/record.js's summarize) in words;
  // `title`/`resultText`: the words a record saved before (or a melee's list line) kept.
  // A title's names come isolated (a sentence that holds a title does not isolate it again).
  // A melee (three names or more): "Ann, Bob and Cat", a seat not taken yet said as such.
  'duel-title': ({ title, names = [], awaiting }) => (title ? isolate(title) : names.length > 2
    ? everyWizard(names)
    : names.length === 2
      ? `${isolate(names[0] || '…')} vs ${awaiting ? '… (invitation sent)' : isolate(names[1] || '…')}` : 'A saved duel'),
  'duel-result': ({ result, names = [], resultText }) => (result
    ? (result.winner === null ? `draw (${result.how})` : `${isolate(names[result.winner])} won (${result.how})`) : resultText || ''),
  // web/limits.js's textProblem, said by a screen
  'text-too-large': ({ what, chars, limit }) => `The ${what} is too large: ${chars.toLocaleString('en')} characters, the most that can be read is ${limit.toLocaleString('en')}. Nothing was changed.`,
  'text-too-deep': ({ what, depth, most }) => `The ${what} nests ${depth} levels deep; no game, record or code nests more than ${most}. Nothing was changed.`,
  'text-what-paste': 'pasted text',
  'text-what-record': 'record',
  'save-now': 'Save now',
  'index-unreadable': ({ n }) => `${count(n, 'One saved duel', 'saved duels')} could not be read (the list in this browser's storage is damaged) and ${n === 1 ? 'is' : 'are'} not shown.`,
  'no-longer-saved': 'That duel is no longer saved here.',
  record: 'Record loaded.',
  // a saved duel that cannot be read (store.open's and migrate's codes; bug 8)
  'damaged-title': 'This saved duel could not be read',
  missing: 'Its saved text is gone from this browser’s storage.',
  unparsable: 'Its saved text is damaged (it is not the text this page wrote).',
  'not-a-record': 'Its saved text is not a duel.',
  'no-game': 'It holds neither a game nor a duel by codes.',
  'bad-game': 'Its game is damaged: the rules engine could not read it.',
  'bad-session': 'Its duel by codes is damaged.',
  'bad-mode': 'It names a way of playing this page does not know.',
  'newer-format': 'It was saved by a newer version of Waving Hands: reload the page to get it.',
  'damaged-hint': 'It is not resumed; delete it to tidy the list.',
  // one tab writes a duel at a time (bug 7)
  'tab-elsewhere-title': 'This duel is open in another tab',
  'tab-elsewhere': 'Only one tab at a time may play a duel, so that the two never seal different orders. Carry on in the other tab, or play here instead: the other tab then stops.',
  'tab-taken-over': 'This duel is now being played in another tab. This tab has stopped so that the two never seal different orders.',
  'tab-take-over': 'Play it here instead',
  // the engine's boundary (web/api.js, wavinghands.api): what a local duel says when it refuses
  'engine-failed-start': ({ message }) => `The rules engine could not start. ${message}`,
  'saved-unreadable': ({ message }) => `The saved duel could not be read: ${message}`,
  'computer-failed': ({ message }) => `The computer could not decide: ${message}`,
  'turn-refused': ({ message }) => `The engine refused the turn: ${message}`,
  'export-failed': ({ message }) => `The record could not be made: ${message}`,
  'nothing-to-export': 'Nothing to export yet: the duel starts when your friend accepts the invitation.',
  'code-not-record': 'This is a code from a friend (an invitation or a turn code), not a record: paste it in the start screen’s box “Got a code or a link from a friend? Paste it here”.',
  // replay links (bug 9)
  'replay-link-damaged': 'This replay link is damaged: part of it is missing. Copy the whole link again.',
  'replay-link-too-large': ({ limit }) => `This replay link holds more than any record can be (over ${limit.toLocaleString('en')} characters once unpacked), so it was not opened.`,
  // importing a record (ui/records.js): what was pasted instead, and what the box takes
  'record-wanted': RECORD_WANTED,
  'record-cut-short': 'This record is incomplete: it was cut short or changed on its way (a record is one block of text, all of it needed). Export it again, or copy all of it, and paste it whole. Nothing was imported.',
  'record-refused': ({ message }) => `This record cannot be loaded: ${message}${/[.!?]$/.test(message) ? '' : '.'} Nothing was imported.`,
  'record-is-link': ({ site }) => `This is a link to a web page (${site}), not a duel record. ${RECORD_WANTED}`,
  'record-is-not': ({ excerpt }) => `This is not a duel record: it reads “${excerpt}”. ${RECORD_WANTED}`,
  // a long duel's log and histories draw their newest turns (ui/log.js, ui/history.js)
  'log-earlier': ({ turns }) => `Show the ${turns} earlier turn${turns === 1 ? '' : 's'}`,
  'history-earlier': ({ rows }) => `Show the ${rows} earlier row${rows === 1 ? '' : 's'}`,
};
