// Every sentence the player reads, keyed by code, in one place. Flows, the store, codecs and
// transports return codes (and the values a sentence needs); screens turn them into words with
// say(code, values). Each area keeps its own section below; add keys at the end of yours.
// A value is a string or a function of the values object.

const storageWhy = ({ refusal }) => (refusal === 'unavailable'
  ? 'This browser refused to store the duel (its storage is switched off for this page)'
  : 'Your browser’s storage for this page is full');

const count = (n, one, many) => (n === 1 ? one : `${n} ${many}`);
// A name inside a sentence keeps its own direction (U+2068 first-strong isolate ... U+2069, the
// text form of dom.nameOf's <bdi>): a name ending in U+202E cannot reverse the words after it.
const isolate = (name) => `\u2068${name}\u2069`;
const FREE_HAND = ' (the other hand is free)';

const WORDS = {
  // shared: saving and the saved duels
  'storage-refused': storageWhy,
  'unsaved-local': (v) => `${storageWhy(v)}: the duel goes on, but a reload would lose the turns since it was last saved. `,
  'unsaved-remote': (v) => `${storageWhy(v)}, so this step was not saved and no code was shown or sent: delete or export old duels, then ${v.again}`,
  'make-room': 'Saved duels: make room…',
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
  'record-wanted': 'This box takes a duel record: the text (or the .json file) that “Export the record” makes, which begins {"format": "wavinghands-record". A code or link from a friend goes in the start screen’s box “Got a code or a link from a friend? Paste it here”. Nothing was imported.',
  'record-cut-short': 'This record is incomplete: it was cut short or changed on its way (a record is one block of text, all of it needed). Export it again, or copy all of it, and paste it whole. Nothing was imported.',
  'record-refused': ({ message }) => `This record cannot be loaded: ${message}${/[.!?]$/.test(message) ? '' : '.'} Nothing was imported.`,
  'record-is-link': ({ site }) => `This is a link to a web page (${site}), not a duel record. ${say('record-wanted')}`,
  'record-is-not': ({ excerpt }) => `This is not a duel record: it reads “${excerpt}”. ${say('record-wanted')}`,
  // local duels
  'update-ready': 'A new version of Waving Hands is ready. Your duel is saved; reload when it suits you. ',
  // remote: remote play's screens and wiring (web/ui/screens/remote*.js, web/remote*.js), keyed
  // by the remote flows' outcome and error codes (web/flows/remote/)
  'remote-again': ({ again }) => ({
    begin: 'begin again (the saved duels are listed on this screen)',
    accept: 'accept again (the saved duels are listed on the start screen)',
    seal: 'seal again',
    'seal-again': 'seal your orders again',
    'seal-early': 'seal early again',
    apply: 'apply the code again',
    'carry-on': 'carry on',
  }[again] || again),
  'remote-unsaved-chat': (v) => `${storageWhy(v)}, so ${v.n === 1 ? 'the last chat line was' : `the last ${v.n} chat lines were`} not saved: they stay on this screen, but a reload would lose them. Delete or export old duels, then save now.`,
  'remote-not-sealed': ({ again }) => `Not sealed: this step could not be saved (see above). Make room, then ${again}.`,
  'remote-gone': 'This duel is no longer saved here.',
  'remote-moved-on': 'The turn has moved on: write your orders on the form now shown.',
  'remote-moved-on-preview': 'the turn has moved on',
  'remote-queued': ({ opp }) => `Sealed: your orders go as soon as ${opp}’s code arrives`,
  'remote-early-sealed': ({ turn, opp }) => `Sealed early: your orders for turn ${turn} go by themselves as soon as ${opp}’s code arrives, if its result leaves them as they are`,
  'remote-noted': ({ gestures, next, opp }) => `${gestures ? 'Your orders are noted' : 'Your answer is noted'}. There is no code to send yet: it goes to ${opp} in one code with ${next ? 'your orders for the next turn (below)' : 'your next answer (below)'}`,
  'remote-applied': ({ opp }) => `${opp}’s code is applied`,
  'remote-applied-early': ({ turn, opp }) => `Applied. Your orders sealed early for turn ${turn} were left as they were by the result, so they are sealed: send ${opp} your next code`,
  'remote-applied-reply': ({ opp }) => `Applied. Your page made the next code by itself (the exchange needs it): send it to ${opp}`,
  'remote-accepted': ({ host, connect }) => `You accepted ${isolate(host)}'s challenge. Write your orders for turn 1: your code for them is your answer${connect ? ', and it connects you live' : ''}`,
  'remote-invite-accepted-here': 'You already accepted this invitation: here is that duel',
  'remote-invite-own-accepted': 'This is your own invitation, and it has been accepted already: here is that duel',
  'remote-own-invitation': 'this is your own invitation: send it to your friend, and paste here the code they send back',
  'remote-not-saved': ({ turn }) => `This code (turn ${turn}) belongs to a duel that is not saved in this browser. Open it in the browser where you accepted the invitation or started the duel (a chat app may have opened that link in its own browser), or paste the invitation here first.`,
  'remote-empty': 'Paste a code or a link first.',
  'remote-empty-here': 'paste the code or the link first',
  'remote-declined': ({ opp }) => `${opp} chose to play by codes only: the duel goes on by codes`,
  'remote-live-gone': 'a code came over the live connection, but the duel it carries is no longer saved here; it was ignored',
  'remote-moved-elsewhere': ({ opp, title }) => `${opp} moved in ${title}.`,
  'remote-invite-ignored': ({ host }) => `${isolate(host)} sent another invitation over the live connection; it was ignored while a dialog is open.`,
  'remote-preparing-code': 'Preparing a connection code (finding this device’s network addresses)…',
  'remote-answering': 'Answering the connection code…',
  'remote-draft-note': ({ opp, turn }) => `While ${opp}’s code for turn ${turn - 1} is on its way, draft turn ${turn}. The draft is saved; when the code comes it is put on the real form, and whatever turn ${turn - 1}’s result changes in it is shown there. Sealed early, it goes by itself with your next code if nothing changed.`,
  'remote-write-now': ({ turn, opp }) => `Turn ${turn}: write your orders now. ${opp} seals first this turn; yours go by themselves once ${opp}’s arrive.`,
  'remote-live-waiting': ({ turn, opp }) => `Waiting for ${opp} (turn ${turn}): the code comes by itself over the live connection, nothing to paste.`,
  'remote-early-line': ({ turn, gestures, opp }) => `Sealed early for turn ${turn}: ${gestures}. They go by themselves with your next code as soon as ${opp}’s code arrives, if its result leaves them as they are; otherwise they wait on the form.`,
  'remote-sealed-line': ({ turn, gestures }) => `Your sealed orders for turn ${turn}: ${gestures}.`,
  'remote-rules': ({ rules }) => (rules
    ? `Rules: ${rules.title}${rules.options.length ? `, and ${rules.options.map((o) => o.label).join('; ')}` : ''}. ${rules.description}`
    : 'Rules: the standard rules.'),
  'remote-draft-lead': ({ draft }) => {
    if (draft.over) return `Your draft for turn ${draft.turn} is not needed:`;
    if (draft.changes.length) return `Your draft for turn ${draft.turn} is on the form, but the last turn's result changed it${draft.wasSealed ? ', so it was not sealed by itself' : ''}:`;
    return `Your draft for turn ${draft.turn} is on the form as you left it${draft.wasSealed ? ' (complete it, then seal)' : ''}.`;
  },
  'remote-tag-codes': 'by codes',
  'remote-tag-live': 'live',
  'remote-unsaved-title': 'Not saved, so nothing was sent',
  'remote-chat-unsaved-title': 'Chat not saved',
  'remote-try-again': 'Try again',
  'remote-export-record': 'Export the record',
  'remote-live-refused-title': 'A code that came live cannot be used',
  'remote-bad-connection-title': 'This connection code cannot be used',
  'remote-not-a-code-title': 'This is not a Waving Hands code',
  // live: the live connection's state, by its reason (transport/live.js status().reason)
  'live-waiting-answer':
    'Send this connection code (or link) to your opponent, then paste the answer they send back.',
  'live-waiting-host':
    'Send this answer code (or link) back to your opponent; you are connected as soon as they ' +
    'paste it, even minutes from now. Keep this page open and on screen until then (a phone ' +
    'pauses pages in the background); this page waits up to 10 minutes.',
  'live-checking': 'Answer applied: trying to reach your opponent directly (this takes up to 30 seconds)\u2026',
  'live-open': 'Connected live.',
  'live-interrupted': 'The live connection was interrupted \u2014 trying to recover\u2026',
  'live-peer-closed':
    'Your opponent closed the live connection. Carry on by codes, or connect again with a new ' +
    'exchange.',
  'live-lost':
    'The live connection was lost. Nothing of the game is lost: carry on by codes, or connect ' +
    'again with a new exchange.',
  'live-unreachable':
    'Could not reach your opponent directly: your networks did not let the connection through. ' +
    'If one of you is on a strict network (mobile data, office), add a TURN server in the live ' +
    'connection settings; or carry on by codes.',
  'live-strict-nats':
    'Both of you are behind strict NATs (each network gives every destination a new port), so no ' +
    'direct connection can work: add a TURN server in the live connection settings, or keep ' +
    'playing by codes.',
  'live-strict-nat':
    'Could not reach your opponent directly: one of you is behind a strict NAT (mobile data or an ' +
    'office network, for example). Add a TURN server in the live connection settings, or keep ' +
    'playing by codes.',
  'live-no-public-address':
    'Could not reach your opponent directly: neither page knows its public address, because this ' +
    'page has no STUN server set (live connection settings) and the other page found none ' +
    'either. Use the default STUN servers and connect again, or keep playing by codes.',
  'live-answer-timeout':
    'Your opponent did not paste your answer within 10 minutes, so this page stopped waiting. ' +
    'Connect again with a new exchange, or carry on by codes.',
  'live-closed-by-you': 'Live connection closed.',
  'live-declined':
    'Your opponent chose to play by codes only, so no live connection was made: the duel goes on by ' +
    'codes. If you both want to play live later, connect again with a new exchange.',
  'live-stun-no-name':
    'Could not reach your opponent directly: this page could not reach its STUN servers, because ' +
    'their names did not resolve (this network has no working DNS, or it blocks them). Without ' +
    'them a page does not learn its public address, so only pages on one local network can ' +
    'connect. Check this device\u2019s internet connection, or put STUN (or TURN) servers this ' +
    'network reaches in the live connection settings and connect again; or keep playing by codes.',
  'live-stun-no-reply':
    'Could not reach your opponent directly: this page\u2019s STUN servers did not reply (a ' +
    'firewall may block UDP, or they are down), so it does not know its public address. Put STUN ' +
    'servers this network reaches in the live connection settings, or a TURN server over TCP ' +
    '(turn:\u2026?transport=tcp), and connect again; or keep playing by codes.',
  'live-strict-nat-likely':
    'Could not reach your opponent directly: the router of one or both of you changed the port ' +
    'the STUN server saw, as strict NATs do (mobile data, offices); with one STUN server set, the ' +
    'page cannot tell for sure. Add a TURN server in the live connection settings, or keep ' +
    'playing by codes.',
  // live: said while a connection is still being made, when it will probably fail (warning)
  'live-warn-stun-no-name':
    'This page could not reach its STUN servers (their names did not resolve), so it does not ' +
    'know its public address: unless you two are on one local network, connecting will fail. ' +
    'Check the internet connection, or set STUN or TURN servers this network reaches in the live ' +
    'connection settings; or keep playing by codes.',
  'live-warn-stun-no-reply':
    'This page\u2019s STUN servers did not reply, so it does not know its public address: unless ' +
    'you two are on one local network, connecting will fail. Set STUN or TURN servers this network ' +
    'reaches in the live connection settings, or keep playing by codes.',
  'live-warn-strict-nat':
    'One of you is behind a strict NAT (it gives every destination a new port), so a direct ' +
    'connection will probably fail: if you are not connected soon, add a TURN server in the live ' +
    'connection settings, or keep playing by codes.',
  'live-warn-strict-nat-likely':
    'The router of one or both of you changes the port the STUN server sees, as strict NATs do, ' +
    'so a direct connection may fail: if you are not connected within 30 seconds of the answer ' +
    'being pasted, add a TURN server in the live connection settings, or keep playing by codes.',
  // connection codes (transport/codec/): by the error's reason, else its code
  'rtc-empty': 'Nothing was pasted. Paste the connection code (or the whole link) you were sent.',
  'rtc-not-a-code':
    'No connection code was found in that text. A connection code starts with WHC1. (from the ' +
    'player who starts) or WHA1. (the answer). Turn codes go in the game\u2019s code box instead.',
  'rtc-turn-code':
    'This is a turn code of the game, not a connection code: paste it in the game\u2019s code box. ' +
    'A connection code starts with WHC1. (from the player who starts) or WHA1. (the answer).',
  'rtc-damaged': 'This connection code is damaged \u2014 ask for it again (copy it whole, in one piece).',
  'rtc-wrong-kind-offer':
    'This is an invitation (connection code), but an answer code is expected here. If it is your ' +
    'own, send it to your opponent and paste the answer they send back. If you both started a ' +
    'live game, one of you should join the other\u2019s instead.',
  'rtc-wrong-kind-answer':
    'This is an answer code. It goes back to the player who started the live game: they paste it ' +
    'on their page. To join, paste their connection code (WHC1.) here.',
  'rtc-version-newer':
    'This connection code comes from a newer version of Waving Hands. Reload this page to update, ' +
    'then ask for a new code.',
  'rtc-version-older':
    'This connection code comes from an older version of Waving Hands. Ask your opponent to reload ' +
    'their page and send a new code.',
  'rtc-stale-answer':
    'This answer belongs to a different connection code (perhaps an older one). Ask your opponent ' +
    'to paste your latest connection code and send the answer to that.',
  'rtc-no-candidates':
    'This device found no network address to offer, so live play cannot start. Is it connected ' +
    'to a network? You can still play by codes.',
  'rtc-unsupported-sdp':
    'This browser described its connection in a way these codes cannot carry. Try another ' +
    'browser, or play by codes.',
  'rtc-bad-ice-server': ({ detail }) => `\u201c${detail}\u201d is not a STUN server address (expected e.g. stun:stun.example.org:3478).`,
  'rtc-bad-ice-server-turn': ({ detail }) => `\u201c${detail}\u201d is not a STUN server address (expected e.g. stun:stun.example.org:3478). A TURN relay goes in the TURN fields, with its user name and password.`,
  // the live connection's errors (transport/webrtc.js, live.js, ice.js)
  'rtc-unsupported':
    'This browser cannot make direct connections (WebRTC is missing or turned off). Play by codes ' +
    'instead.',
  'rtc-browser': ({ detail }) => `The browser refused to set up the live connection: ${detail}`,
  'rtc-already-answered':
    'This live connection already has an answer. To connect again, start a new live connection.',
  'rtc-not-open': 'This live connection is closed. Start a new one to connect again.',
  'rtc-not-connected': 'Not connected live right now \u2014 send this code by hand instead.',
  'rtc-bad-message': 'Only a non-empty turn code can be sent.',
  'rtc-bad-chat': ({ max }) => `A chat message is plain text of 1 to ${max} characters.`,
  'rtc-bad-presence': 'Presence must be one of: choosing, sealed, waiting.',
  'rtc-no-host-tab':
    'This answer code belongs to a live connection started in another tab or browser. ' +
    'Paste it in the page where you made the connection code (or make a new connection code here).',
  'rtc-superseded': 'A newer live connection was started.',
  'rtc-qr': ({ detail }) => `the QR code cannot be drawn here (${detail}); copy the code instead`,
  'rtc-not-host': 'Only the page that made the connection code takes an answer.',
  'rtc-bad-turn-url': ({ detail }) => `\u201c${detail}\u201d is not a TURN server address (expected e.g. turn:turn.example.org:3478).`,
  'rtc-bad-turn-login': 'A TURN server needs both its user name and its password (credential).',
  'rtc-bad-turn-too-long': 'The TURN user name or password is too long.',
  'rtc-bad-site-ice': ({ detail }) => `The site's ice.json cannot be used (${detail}): the default servers are used.`,
  // learn: puzzles (web/flows/puzzles.js, web/ui/screens/puzzles.js)
  'puzzles-title': 'Puzzles',
  'learn-invite': 'New to the duel?',
  'learn-how': 'How to play',
  'learn-puzzles': 'Try a puzzle',
  'puzzles-home': 'Back to the start',
  'puzzles-loading': 'Setting out the puzzles…',
  'puzzles-intro': 'Real positions on the rules engine. You play Merlin, your opponent is Morgana. Each answer is played against every reply she could make: gestures, spells, targets, stabs.',
  'puzzle-today': ({ title }) => `Puzzle of the day: ${title}`,
  'puzzles-rules-standard': 'Waving Hands (Bartle’s rules)',
  'puzzles-rules-warlocks': 'Warlocks',
  'puzzle-kind-win': 'Win this turn.',
  'puzzle-kind-survive': 'Survive the next turn.',
  'puzzle-kind-foresee': 'What can your opponent complete next?',
  'puzzle-ask-win': 'Choose a gesture for each hand so that Morgana dies this turn whatever she does.',
  'puzzle-ask-survive': 'Choose a gesture for each hand so that you are alive at the end of this turn whatever Morgana does.',
  'puzzle-ask-foresee': 'Tick every spell Morgana could complete with her next gestures (both hands count).',
  'puzzle-spells-legend': 'Spells Morgana could complete next turn',
  'puzzle-check': 'Check my answer',
  'puzzle-checking': 'The engine is trying every reply…',
  'puzzle-hint': 'A hint',
  'puzzle-show-answer': 'Show the answer',
  'puzzle-back': '← All puzzles',
  'puzzle-next': 'Next puzzle →',
  'puzzle-solved': 'Solved!',
  'puzzle-not-yet': 'Not yet.',
  'puzzle-pair': ({ left, right }) => `${left} with her left hand and ${right} with her right`,
  'puzzle-refuted-win': ({ reply }) => `If Morgana makes ${reply}, she is still alive at the end of the turn (or you are not). What happened:`,
  'puzzle-refuted-survive': ({ reply }) => `If Morgana makes ${reply}, you do not survive the turn. What happened:`,
  'puzzle-missing': ({ names }) => `She could also complete: ${names}.`,
  'puzzle-extra': ({ names }) => `Not next turn: ${names}.`,
  'puzzle-hand': ({ hand, gesture }) => `${hand === 'L' ? 'left hand' : 'right hand'} ${gesture}`,
  'puzzle-answer-orders': ({ hands, free }) => `The answer: ${hands}${free ? FREE_HAND : ''}.`,
  'puzzle-answer-spells': ({ names }) => `The answer: ${names}.`,
  'puzzles-failed': ({ message }) => `The puzzles could not be opened: ${message}`,
  'puzzle-failed': ({ message }) => `That puzzle could not be opened: ${message}`,
  // learn: the guided first duel (web/flows/lessons.js, web/ui/screens/lessons.js)
  'lessons-title': 'The guided first duel',
  'lessons-open': 'Lessons',
  'lessons-offer-title': 'New to Waving Hands?',
  'lessons-offer': 'Learn it in a few minutes: short lessons on the real rules, from your first spell to a whole duel against the computer.',
  'lessons-offer-go': 'Start the guided duel',
  'lessons-home': 'Back to the start',
  'lessons-loading': 'Setting out the lessons…',
  'lessons-intro': 'Each lesson is a real position on the rules engine. You play Merlin against Morgana, who follows the lesson’s script. Make the gestures the lesson asks for and the engine says what happened. Skip any lesson, or play it again.',
  'lessons-begin': 'Begin with the first lesson',
  'lessons-continue': 'Carry on where you left off',
  'lessons-back': '← All lessons',
  'lesson-passed': 'Well done!',
  'lesson-skipped': 'skipped',
  'lesson-begun': 'begun',
  'lesson-count': ({ n, of }) => `Lesson ${n} of ${of}:`,
  'lesson-try-label': 'Try this:',
  'lesson-turn': ({ n, of }) => `(turn ${n} of ${of})`,
  'lesson-seal': 'Make these gestures',
  'lesson-sealing': 'The engine is playing the turn…',
  'lesson-hint': 'A hint',
  'lesson-hint-label': 'Hint:',
  'lesson-last-turn': 'What happened last turn',
  'lesson-what-happened': 'What happened',
  'lesson-next': 'Next lesson →',
  'lesson-again': 'Play it again',
  'lesson-retry': 'Try again',
  'lesson-skip': 'Skip this lesson →',
  'lesson-not-yet': 'Not quite yet:',
  'lesson-failed-cast': 'you did not cast the spell this lesson asks for;',
  'lesson-failed-hit_by': 'Morgana took no damage from it;',
  'lesson-failed-blocked': 'no attack on you was stopped by a shield;',
  'lesson-failed-unhurt': 'you were hurt;',
  'lesson-failed-monster': 'you have no monster of your own;',
  'lesson-failed-effect': 'Morgana is not under the enchantment.',
  'lesson-duel': ({ level }) => `Begin the duel against the ${level} computer`,
  'lesson-unsaved': 'Your progress could not be saved in this browser (its storage is full or switched off): it is kept until you leave this page.',
  'lessons-failed': ({ message }) => `The lessons could not be opened: ${message}`,
  'lesson-failed': ({ message }) => `That lesson could not be opened: ${message}`,
  'lesson-turn-refused': ({ message }) => `The engine refused these gestures: ${message}`,
  'check-failed': ({ message }) => `The engine could not check the answer: ${message}`,
};

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
