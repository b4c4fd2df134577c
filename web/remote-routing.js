// Remote play's routing (web/remote.js's controller): a pasted text or an opened link goes where
// flows/remote/route.js says: the invitation dialog, the duel it belongs to, or a live connection
// step. This is the shell's part: it reads the address, clears it, and opens dialogs and screens.

import { classify, elsewhere, isCodeLink, routeBundle, routeCode } from './flows/remote/route.js';
import { opponentOf } from './ui/screens/remote-words.js';
import { h, replace } from './ui/dom.js';
import { notACode, pending, remoteHead, sentence } from './ui/remote.js';
import { joinBox, openAcceptDialog } from './ui/remote-join.js';
import { livePanel } from './ui/live.js';
import { say, sayError } from './ui/words/index.js';
import { STATUS } from './transport/transport.js';

/** installRouting(ctx) adds openText, pasteIntoDuel, offerInvitation, openAddressLink, fillStartSlot and showJoin to the controller. */
export function installRouting(ctx) {
  const { app, api, storage, live } = ctx;
  const describe = async (text) => {
    const down = await ctx.engineReady();
    return down ? { ok: false, error: { code: 'engine-unavailable', message: down } } : api.remoteDescribe(text);
  };

  // A code from the start screen or an opened link (never one that came live): the invitation
  // dialog, the duel it belongs to, or a live connection step. Returns an error message or null.
  ctx.openText = async (text) => {
    const what = classify(text, live.kindOf);
    if (what.go === 'empty') return say('remote-empty');
    if (what.go === 'bad-connection') return sayError(what.error);
    if (what.go === 'bundle') return openBundle(what);
    if (what.go === 'connection') return what.rtcKind === 'offer' ? joinFromStart(text) : answerFromStart(text);
    const described = await describe(text);
    if (!described.ok) return what.noCode ? notACode(text, say('remote-your-friend')) : described.error.message;
    const info = described.code;
    const where = routeCode(info, ctx.remoteDuels(info.game_id));
    if (where.go === 'show') {
      await ctx.render(ctx.duelOf(where.id), { feedback: { kind: 'note', message: say(`remote-${where.say}`) } });
    } else if (where.go === 'own-invitation') {
      const anyway = h('div', { class: 'actions' }, h('button', {
        type: 'button', 'data-testid': 'accept-own', onclick: () => ctx.offerInvitation(info.code, info),
      }, say('remote-accept-own')));
      await ctx.render(ctx.duelOf(where.id), { feedback: { kind: 'error', code: 'own-code', message: say('remote-own-invitation'), extra: anyway } });
    } else if (where.go === 'offer-invitation') {
      await ctx.offerInvitation(info.code, info);
    } else if (where.go === 'not-saved') {
      return say('remote-not-saved', { turn: where.turn });
    } else {
      await ctx.receive(where.id, info.code);
    }
    return null;
  };

  // A turn code with a connection code: the turn code goes where it belongs, the connection code to its duel.
  async function openBundle({ turn, rtc, rtcKind }) {
    const described = await describe(turn);
    if (!described.ok) return described.error.message;
    const info = described.code;
    const where = routeBundle(info, ctx.remoteDuels(info.game_id), rtcKind);
    if (where.go === 'turn-only') return ctx.openText(turn);
    if (where.go === 'offer-invitation') await ctx.offerInvitation(info.code, info, { offer: rtc });
    else await applyBundle(where.id, info.code, rtc, rtcKind);
    return null;
  }

  // Starts the connection step of a bundle for one duel and applies its turn code meanwhile.
  async function applyBundle(id, turn, rtc, rtcKind) {
    const connecting = rtcKind === 'offer' ? ctx.joinForDuel(id, rtc, { once: true }) : ctx.answerForDuel(rtc);
    const result = await ctx.receive(id, turn, (got) => ctx.receivedFeedback(got, got.duel), { withOffer: rtcKind === 'offer' });
    await connecting;
    return result.ok;
  }

  // The invitation dialog. An invitation carrying a connection offer says what connecting does,
  // and answers the offer only if the player accepts *and* chooses to connect: nothing of WebRTC
  // starts before that click (issue 12, finding 3). how: {viaLive, link, from} for one that came
  // over a live connection, {offer} for one that carries an offer.
  ctx.offerInvitation = async (text, info, how = {}) => {
    const { viaLive = false, offer = null } = how;
    if (viaLive) ctx.pendingInvite = { text, info, ...how };
    if (ctx.shown && ctx.shown.join) ctx.shown.refresh();
    const explanation = offer ? await ctx.connectExplanationFor(info.host, offer) : null;
    // A dialog opened by the player's own paste or link replaces one on display; never two at once.
    if (ctx.acceptDialog) ctx.acceptDialog.close();
    const prefs = storage.loadPrefs();
    const field = document.getElementById('name-0');
    const handle = openAcceptDialog({
      host: info.host, rules: say('remote-rules', { rules: info.rules }), live: explanation,
      name: (field && field.value.trim()) || (prefs.names || [])[0] || '',
      onAccept: (name, { connect }) => ctx.accept(text, name, { ...how, connect }),
    });
    ctx.acceptDialog = handle;
    handle.dialog.addEventListener('close', () => { if (ctx.acceptDialog === handle) ctx.acceptDialog = null; });
  };

  async function joinFromStart(text) {
    if (!(await ctx.askToConnect(null, text))) {
      app.goHome();
      return null;
    }
    const r = await live.join(text, { ice: ctx.iceOf(), duelId: null });
    if (!r.ok) return r.error.code === 'superseded' ? null : sayError(r.error);
    ctx.liveError = null;
    ctx.showJoin();
    return null;
  }

  async function answerFromStart(text) {
    const r = await live.answer(text);
    if (!r.ok) return sayError(r.error);
    const link = live.current();
    if (!r.elsewhere) {
      // This tab made the connection code: go back to the duel it carries.
      const duel = link && link.duelId ? ctx.duelOf(link.duelId) : null;
      if (duel) await ctx.render(duel, { feedback: null });
      else ctx.showJoin();
      return null;
    }
    app.show(h('section', { class: 'pass', 'data-testid': 'answer-delivered' },
      h('h1', { tabindex: '-1' }, say('remote-answer-delivered-title')),
      h('p', {}, say('remote-answer-delivered')),
      h('button', { type: 'button', class: 'link', onclick: () => app.goHome() }, say('remote-back-to-start'))));
    return null;
  }

  // A code pasted on a duel's own screen: a turn code for this duel, or a live connection step for it.
  ctx.pasteIntoDuel = async (id, text) => {
    const what = classify(text, live.kindOf);
    if (what.go === 'empty') {
      ctx.refresh(id, { feedback: { kind: 'error', code: 'empty', message: say('remote-empty-here'), unchanged: false } });
      return false;
    }
    if (what.go === 'bundle') return applyBundle(id, what.turn, what.rtc, what.rtcKind);
    if (what.go === 'connection') return what.rtcKind === 'offer' ? ctx.joinForDuel(id, text) : ctx.answerForDuel(text);
    if (what.go === 'bad-connection') {
      ctx.refresh(id, { feedback: { kind: 'error', code: 'connection', title: say('remote-bad-connection-title'), message: sayError(what.error), unchanged: false } });
      return false;
    }
    const result = await ctx.receive(id, text, (got) => {
      if (!got.ok && got.error.code === 'corrupted' && what.noCode) {
        // Nothing in it looks like a code (a sentence, another site's link): not "damaged".
        return { kind: 'error', code: 'not-a-code', title: say('remote-not-a-code-title'), message: notACode(text, opponentOf(got.duel.session), { titled: true }) };
      }
      const feedback = ctx.receivedFeedback(got, got.duel);
      return !got.ok && got.error.code === 'not-this-game' ? elsewhereFeedback(text, feedback) : feedback;
    });
    return result.ok;
  };

  // A code of another game pasted here: say which duel it belongs to, and offer to go there.
  async function elsewhereFeedback(text, feedback) {
    const described = await api.remoteDescribe(text);
    if (!described.ok) return feedback;
    const info = described.code;
    const where = elsewhere(info, ctx.remoteDuels(info.game_id));
    if (!where) return feedback;
    const button = where.go === 'offer-invitation'
      ? h('button', { type: 'button', 'data-testid': 'open-elsewhere', onclick: () => ctx.offerInvitation(info.code, info) }, say('remote-accept-elsewhere', { host: info.host }))
      : h('button', {
        type: 'button', 'data-testid': 'open-elsewhere',
        onclick: () => ctx.openText(info.code).then((message) => { if (message) app.toast(message, 'error'); }),
      }, say('remote-apply-to', { title: say('duel-title', ctx.duelOf(where.id).summary) }));
    return { ...feedback, extra: h('div', { class: 'actions' }, button) };
  }

  /** openAddressLink() -> true when the page was opened from a code link (#c=… or #rtc=…) and is now handling it. */
  ctx.openAddressLink = () => {
    const href = location.href;
    if (!isCodeLink(location.hash)) return false;
    // The code has been read: a reload or a shared address must not carry it again.
    history.replaceState(null, '', location.pathname + location.search);
    app.show(h('section', { class: 'pass', 'data-testid': 'opening-link' },
      h('h1', { tabindex: '-1' }, say('remote-opening-title')),
      h('p', {}, say('remote-opening'))));
    ctx.openText(href).then((message) => {
      if (!message) return;
      ctx.startNotice = { text: href, message };
      app.goHome();
    });
    return true;
  };

  // The start screen's name fields: a remote duel names only this player's wizard.
  function adaptNameFields(form) {
    const first = form.querySelector('label[for=name-0]');
    const secondInput = form.querySelector('#name-1');
    const second = secondInput && secondInput.closest('.field');
    if (!first || !second) return;
    const firstWords = first.textContent;
    const apply = () => {
      const chosen = form.querySelector('input[name=mode]:checked');
      const remote = Boolean(chosen && (chosen.value === 'codes' || chosen.value === 'live'));
      second.hidden = remote;
      secondInput.required = !remote;
      first.textContent = remote ? say('remote-your-wizard') : firstWords;
    };
    form.addEventListener('change', (event) => { if (event.target.name === 'mode') apply(); });
    apply();
  }

  ctx.fillStartSlot = (slot) => {
    const notice = ctx.startNotice;
    ctx.startNotice = null;
    const box = joinBox({ onOpen: (text) => ctx.openText(text), settings: ctx.iceSettingsOpts() });
    slot.append(box);
    let error = null;
    if (notice) {
      box.querySelector('[data-testid=join-text]').value = notice.text;
      error = box.querySelector('[data-testid=join-error]');
      error.textContent = sentence(notice.message);
      error.hidden = false;
    }
    // The slot is put into the form right after this returns.
    queueMicrotask(() => {
      const form = slot.closest('form');
      if (form) adaptNameFields(form);
      // An opened link that could not be used says why where the eye is (on a phone, below the top).
      if (error && error.isConnected) {
        error.setAttribute('tabindex', '-1');
        error.scrollIntoView({ block: 'center' });
        error.focus({ preventScroll: true });
      }
    });
  };

  ctx.showJoin = () => {
    const slot = h('div', {});
    const root = h('section', { class: 'duel-screen remote-screen', 'data-testid': 'live-join-screen' },
      remoteHead({ title: say('remote-joining-title'), tag: 'live', onHome: () => app.goHome() }),
      h('div', { class: 'card remote-panel join-panel' }, slot));
    const draw = () => {
      const link = live.current();
      const linkState = link ? link.status() : null;
      const invite = ctx.pendingInvite;
      replace(slot,
        livePanel({
          link: linkState && !linkState.duelId ? linkState : null, opponent: say('remote-your-opponent'), busy: '', error: ctx.liveError,
          onStart: () => app.goHome(), onAnswer: ctx.answerForDuel, onClose: () => { live.close(); app.goHome(); },
          settings: ctx.iceSettingsOpts(),
        }),
        linkState && linkState.state === STATUS.CONNECTED && !invite ? pending(say('remote-waiting-invitation')) : null,
        invite ? h('div', { class: 'actions' }, h('button', {
          type: 'button', class: 'primary', 'data-testid': 'open-invitation',
          onclick: () => ctx.offerInvitation(invite.text, invite.info, invite),
        }, say('remote-answer-invitation', { host: invite.info.host }))) : null);
    };
    draw();
    const shown = { id: null, join: true, refresh: draw };
    ctx.shown = shown;
    app.show(root, () => { if (ctx.shown === shown) ctx.shown = null; });
  };
}
