// remote: remote play's screens and wiring (web/ui/screens/remote*.js, web/remote*.js), keyed
// by the remote flows' outcome and error codes (web/flows/remote/). Every name is isolate()d.
import { isolate, storageWhy } from './text.js';

export const WORDS = {
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
  'remote-queued': ({ opp }) => `Sealed: your orders go as soon as ${isolate(opp)}’s code arrives`,
  'remote-early-sealed': ({ turn, opp }) => `Sealed early: your orders for turn ${turn} go by themselves as soon as ${isolate(opp)}’s code arrives, if its result leaves them as they are`,
  'remote-noted': ({ gestures, next, opp }) => `${gestures ? 'Your orders are noted' : 'Your answer is noted'}. There is no code to send yet: it goes to ${isolate(opp)} in one code with ${next ? 'your orders for the next turn (below)' : 'your next answer (below)'}`,
  'remote-applied': ({ opp }) => `${isolate(opp)}’s code is applied`,
  'remote-applied-early': ({ turn, opp }) => `Applied. Your orders sealed early for turn ${turn} were left as they were by the result, so they are sealed: send ${isolate(opp)} your next code`,
  'remote-applied-reply': ({ opp }) => `Applied. Your page made the next code by itself (the exchange needs it): send it to ${isolate(opp)}`,
  'remote-accepted': ({ host, connect }) => `You accepted ${isolate(host)}'s challenge. Write your orders for turn 1: your code for them is your answer${connect ? ', and it connects you live' : ''}`,
  'remote-invite-accepted-here': 'You already accepted this invitation: here is that duel',
  'remote-invite-own-accepted': 'This is your own invitation, and it has been accepted already: here is that duel',
  'remote-own-invitation': 'this is your own invitation: send it to your friend, and paste here the code they send back',
  'remote-not-saved': ({ turn }) => `This code (turn ${turn}) belongs to a duel that is not saved in this browser. Open it in the browser where you accepted the invitation or started the duel (a chat app may have opened that link in its own browser), or paste the invitation here first.`,
  'remote-empty': 'Paste a code or a link first.',
  'remote-empty-here': 'paste the code or the link first',
  'remote-declined': ({ opp }) => `${isolate(opp)} chose to play by codes only: the duel goes on by codes`,
  'remote-live-gone': 'a code came over the live connection, but the duel it carries is no longer saved here; it was ignored',
  'remote-moved-elsewhere': ({ opp, title }) => `${isolate(opp)} moved in ${isolate(title)}.`,
  'remote-invite-ignored': ({ host }) => `${isolate(host)} sent another invitation over the live connection; it was ignored while a dialog is open.`,
  'remote-preparing-code': 'Preparing a connection code (finding this device’s network addresses)…',
  'remote-answering': 'Answering the connection code…',
  'remote-draft-note': ({ opp, turn }) => `While ${isolate(opp)}’s code for turn ${turn - 1} is on its way, draft turn ${turn}. The draft is saved; when the code comes it is put on the real form, and whatever turn ${turn - 1}’s result changes in it is shown there. Sealed early, it goes by itself with your next code if nothing changed.`,
  'remote-write-now': ({ turn, opp }) => `Turn ${turn}: write your orders now. ${isolate(opp)} seals first this turn; yours go by themselves once ${isolate(opp)}’s arrive.`,
  'remote-live-waiting': ({ turn, opp }) => `Waiting for ${isolate(opp)} (turn ${turn}): the code comes by itself over the live connection, nothing to paste.`,
  'remote-early-line': ({ turn, gestures, opp }) => `Sealed early for turn ${turn}: ${gestures}. They go by themselves with your next code as soon as ${isolate(opp)}’s code arrives, if its result leaves them as they are; otherwise they wait on the form.`,
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
  'remote-apply': 'Apply',
  'remote-paste-label': ({ opp }) => `Paste ${isolate(opp)}’s code or link`,
  'remote-paste-by-hand': 'Paste a code by hand',
  'remote-paste-from': ({ opp }) => `Paste a code from ${isolate(opp)}`,
};
