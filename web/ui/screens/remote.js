// The remote duel's screen: the hot-seat game's orders, decision and result screens (ui/duel.js)
// or the waiting board, with the remote panel (screens/remote-panel.js) in them. It draws a
// snapshot of the duel and reports intents; it calls no engine, storage or transport.
//
// snapshot: {duel, status, view, link (the last code as a link), drafting ({view} of the next turn
// drafted while a code travels) | null, feedback, routes (flows/remote/chat.js), queued ({turn,
// gestures} sealed ahead) | null, early (orders sealed early) | null, carried (the draft carried
// onto this turn) | null, draft (the draft of the turn drafted) | null, chat {lines, names},
// opponent, remoteMode, live {busy, error, chatMax}, seen}.

import { h, named } from '../dom.js';
import { decisionScreen, gameOverScreen, ordersScreen, renderOutcome } from '../duel.js';
import { draftFromOrders } from '../orders/draft.js';
import { boardView, remoteHead } from '../remote.js';
import { remotePanel } from './remote-panel.js';
import { say } from '../words/index.js';

// Orders are written on this screen: the player's own turn, or live the turn the opponent seals
// first (status.ahead) until orders are sealed ahead.
const writesOrders = (x) => Boolean(x.view) && ((x.status.state === 'your_input' && ['orders', 'time_stop'].includes(x.status.need))
  || (x.status.state === 'waiting' && x.status.ahead && !x.queued));

/**
 * screenKey(snapshot) -> the screen's identity: the same key redraws only the panel, so nothing
 * arriving wipes a form being written. The orders of one turn keep one key whether the opponent
 * has sealed first yet or not (issue 24, bug 1).
 */
export function screenKey(x) {
  const s = x.status;
  if (writesOrders(x)) return ['orders', s.turn, s.phase, x.carried ? 'carried' : ''].join(':');
  const draft = x.drafting ? 'draft' : x.early ? 'early' : '';
  return [s.state, s.need || '', s.turn, s.phase, s.seq, s.ahead ? 'ahead' : '', x.queued ? 'queued' : '', draft].join(':');
}

// What the resolved turn changed in the draft, beside the real form (or on the result screen).
function draftChanges(draft) {
  if (!draft) return null;
  return h('div', { class: draft.changes.length ? 'card warning draft-changes' : 'card draft-changes', 'data-testid': 'draft-changes', role: 'status' },
    h('p', {}, say('remote-draft-lead', { draft })),
    draft.changes.length ? h('ul', {}, draft.changes.map((c) => h('li', { 'data-code': c.code, 'data-field': c.field }, c.message))) : null);
}

// The body for the snapshot: {element, destroy, showChat, split, anchor (where the panel goes)}.
function body(x, intents) {
  const { status, view } = x;
  const base = { view, seen: x.seen, onSpell: intents.onSpell, onHome: intents.onHome, sound: intents.sound || null };
  if (writesOrders(x)) {
    const s = ordersScreen({
      ...base, preview: intents.preview, submit: intents.onOrders,
      saved: x.carried ? x.carried.form || draftFromOrders(x.carried.orders) : x.writing,
      onDraft: (form, orders) => intents.onWriting(status.turn, form, orders, Boolean(x.carried)),
      aside: draftChanges(x.carried),
    });
    return { ...s, split: true, anchor: '.duel-head' };
  }
  if (x.drafting) {
    // Waiting for the code that resolves the turn just sealed (or for the invitation's
    // acceptance): draft the next one meanwhile, under a heading that says what is awaited.
    const ahead = x.drafting.view;
    const turn = ahead.phase.turn;
    const s = ordersScreen({
      ...base, view: ahead, seen: x.draftSeen,
      // The turn just resolved, from the duel's own view: a move sealed early that went out by
      // itself as the opponent's code arrived leaves it unseen, and it is shown here once.
      outcome: view ? renderOutcome(view, x.seen) : null,
      preview: intents.draftPreview,
      submit: (orders) => intents.onSealEarly(turn, orders),
      saved: x.draft && !x.draft.carried && x.draft.turn === turn ? x.draft.form : null,
      onDraft: (form, orders) => intents.onDraft(turn, form, orders),
      submitLabel: say('remote-seal-early'),
      aside: h('p', { class: 'card draft-note', 'data-testid': 'draft-note' }, say(view ? 'remote-draft-note' : 'remote-draft-note-invited', { opp: x.opponent, turn })),
    });
    s.element.dataset.draft = 'true';
    const me = x.duel.session.names[x.duel.session.me];
    s.element.querySelector('.duel-head').replaceWith(remoteHead({
      title: named(view ? say('remote-draft-head', { me, opp: x.opponent, turn: turn - 1 }) : say('remote-draft-head-invited', { me })),
      tag: say('remote-draft-tag', { turn }), onHome: intents.onHome,
    }));
    return { ...s, split: false, anchor: '.duel-head' };
  }
  if (status.state === 'your_input' && status.need === 'decision' && view) {
    const s = decisionScreen({ ...base, submit: intents.onDecision });
    return { ...s, showChat: () => {}, split: true, anchor: '.duel-head' };
  }
  if (status.state === 'over' && view) {
    const s = gameOverScreen({
      ...base, views: [view, view], perspectives: [view.wizard], loadBattle: intents.loadBattle,
      onRematch: intents.onRematch, onExport: intents.onExport, onReplay: intents.onReplay, onShare: intents.onShare,
    });
    return { ...s, split: false, anchor: '.result', after: x.draft && x.draft.over ? draftChanges(x.draft) : null };
  }
  const title = status.state === 'awaiting_accept' ? say('remote-invitation-head') : say('remote-waiting-head', { names: x.duel.summary.names, turn: status.turn });
  const board = view ? boardView(view, x.seen) : null;
  const element = h('section', { class: 'duel-screen', 'data-testid': 'waiting-screen' },
    remoteHead({ title: named(title), tag: say(`remote-tag-${x.duel.mode}`), onHome: intents.onHome }),
    board ? board.element : null);
  return { element, destroy: () => {}, showChat: board ? board.showChat : () => {}, split: false, anchor: '.duel-head' };
}

/**
 * remoteScreen(snapshot, intents) -> {element, key, update(snapshot), destroy}: the duel's screen.
 * intents: {onHome, onSpell, preview, draftPreview, onOrders(orders), onDecision(input),
 * onWriting(turn, form, orders, carried), onDraft(turn, form, orders), onSealEarly(turn, orders),
 * onUnsealEarly, onPaste(text), onChat(text), onRematch, onExport, loadBattle(v), onReplay, onShare,
 * sound, live, qr, chatDraft}.
 */
export function remoteScreen(first, intents) {
  let x = first;
  const panel = remotePanel({ opponent: x.opponent, intents });
  const b = body(x, intents);
  b.element.querySelector(b.anchor).after(panel.panel);
  if (b.after) panel.panel.after(b.after);
  const root = h('div', { class: 'remote-screen', 'data-testid': 'remote-screen', 'data-game': x.duel.session.game_id, 'data-me': String(x.duel.session.me) }, b.element);
  if (b.split) {
    panel.more.append(...panel.slots);
    b.element.querySelector('.duel-orders').append(panel.more);
    root.dataset.split = 'true';
  }
  const draw = () => {
    b.element.toggleAttribute('data-ahead', x.status.state === 'waiting' && Boolean(x.status.ahead));
    panel.draw(x, { split: b.split, showChat: b.showChat, root });
  };
  draw();
  return {
    element: root,
    key: screenKey(x),
    update(next) {
      x = { ...x, ...next };
      draw();
    },
    destroy: b.destroy,
  };
}
