// Remote play over the live connection (docs/webrtc.md; web/remote.js's controller): making and
// answering connection codes (asked first), declines, the early release when the connection
// comes up, the chat kept with the duel, and codes that come live, each checked against the duel
// the connection carries (remote_route_live). What to send or show is decided by the flows.

import { chatLine, presenceFor } from './flows/remote/chat.js';
import { savedGameIds } from './flows/remote/route.js';
import { opponentOf } from './ui/screens/remote-words.js';
import { isDialogOpen } from './ui/dialog.js';
import { connectExplanation, openConnectDialog } from './ui/live.js';
import { sentence } from './ui/remote.js';
import { say } from './ui/words/index.js';
import { STATUS } from './transport/transport.js';
import { chatLineTurn } from './transport/chat.js';

const offerKey = (offer) => String(offer).replace(/\s+/g, '');

/** installLive(ctx) adds the live connection's steps and handlers to the controller, and listens to the connection. */
export function installLive(ctx) {
  const { app, api, storage, live } = ctx;
  const declinedOffers = new Set(); // offers the player turned down (not asked again inside turn codes)
  const chatDrafts = new Map(); // duel id -> {value, focused}: the chat box's unsent text
  let lastLiveStatus = null;

  // The player's live connection settings: STUN text (null: the page's defaults) and a TURN relay.
  ctx.iceOf = () => ({ stun: storage.loadSetting('stun', null), turn: storage.loadSetting('turn', null) });
  ctx.iceSettingsOpts = () => ({
    ice: ctx.iceOf(),
    defaultStun: live.defaultStun,
    onIce: ({ stun, turn }) => {
      if (stun !== undefined) storage.saveSetting('stun', stun);
      if (turn !== undefined) storage.saveSetting('turn', turn);
    },
  });
  ctx.connectExplanationFor = async (inviter, offer) => connectExplanation({ inviter, facts: await live.offerFacts(offer, ctx.iceOf()) });

  ctx.startLive = async (duelId) => {
    ctx.liveBusy = say('remote-preparing-code');
    ctx.liveError = null;
    ctx.refresh(duelId);
    const r = await live.host({ ice: ctx.iceOf(), duelId });
    ctx.liveBusy = '';
    if (!r.ok && r.error.code !== 'superseded') ctx.liveError = r.error;
    ctx.refresh(duelId);
  };

  // The host of a declined offer waits for an answer until told: this side's next code carries a
  // decline (docs/webrtc.md "Declining"), until a code of the host's comes without the offer.
  ctx.decline = (duelId, offer) => {
    declinedOffers.add(offerKey(offer));
    ctx.transports.decline(duelId, offer);
  };

  // Answering an offer reveals this player's address to its author and the ICE servers: asked
  // first (issue 12, finding 3). once: an offer turned down is not asked about again inside a turn code.
  ctx.askToConnect = async (inviter, offer, { once = false } = {}) => {
    if (once && declinedOffers.has(offerKey(offer))) return false;
    const yes = await openConnectDialog({ inviter, facts: await live.offerFacts(offer, ctx.iceOf()) });
    if (!yes) declinedOffers.add(offerKey(offer));
    return yes;
  };

  // asked: the player has already chosen to connect (the invitation dialog's "Accept and connect live").
  ctx.joinForDuel = async (duelId, text, { asked = false, once = false } = {}) => {
    if (!asked) {
      const duel = ctx.duelOf(duelId);
      if (!(await ctx.askToConnect(duel ? opponentOf(duel.session) : null, text, { once }))) {
        ctx.decline(duelId, text);
        ctx.refresh(duelId);
        return false;
      }
    }
    ctx.liveBusy = say('remote-answering');
    ctx.liveError = null;
    ctx.refresh(duelId);
    const r = await live.join(text, { ice: ctx.iceOf(), duelId });
    ctx.liveBusy = '';
    if (!r.ok && r.error.code !== 'superseded') ctx.liveError = r.error;
    ctx.refresh(duelId);
    return r.ok;
  };

  ctx.answerForDuel = async (text) => {
    ctx.liveError = null;
    const r = await live.answer(text);
    if (!r.ok) ctx.liveError = r.error;
    const id = ctx.shown && ctx.shown.id;
    const duel = r.ok && r.declined && id ? ctx.duelOf(id) : null;
    // A decline of an offer this page no longer holds (it reloaded since): say so all the same.
    if (duel) ctx.refresh(id, { feedback: { kind: 'note', message: say('remote-declined', { opp: opponentOf(duel.session) }) } });
    else ctx.refresh(null);
    return r.ok;
  };

  ctx.presence = (status, queued = false) => {
    const t = live.current();
    if (t) t.setPresence(presenceFor(status, queued));
  };

  async function onLiveChange(link) {
    const status = link ? link.status().state : null;
    const becameConnected = status === STATUS.CONNECTED && lastLiveStatus !== STATUS.CONNECTED;
    lastLiveStatus = status;
    if (becameConnected) ctx.liveError = null;
    if (becameConnected && link.duelId) {
      // A code in flight when the link last broke may be lost; sending the last one again is harmless.
      await ctx.serial(async () => {
        const duel = ctx.duelOf(link.duelId);
        if (!duel) return;
        const r = await api.remoteStatus(duel.session);
        if (!r.ok) return;
        if (r.status.last_sent) ctx.send([r.status.last_sent], duel.id);
        const out = await ctx.flow.release(duel, r.status, { live: true });
        ctx.adopt(out.duel);
        ctx.send(out.send, duel.id);
        ctx.warn(out.warning);
        ctx.presence(out.status);
        // A reveal that went now changes the screen (the other side commits first this turn).
        if (out.status !== r.status && ctx.shown && ctx.shown.id === duel.id) await ctx.render(ctx.duelOf(duel.id), { status: out.status });
      });
    }
    ctx.refresh(null);
  }

  // Chat (live only): plain text kept with the duel, each line marked with the turn it was said
  // in. Lines said while the duel cannot be stored wait (shown) until a save succeeds.
  ctx.chatDraft = (id) => {
    if (!chatDrafts.has(id)) chatDrafts.set(id, { value: '', focused: false });
    return chatDrafts.get(id);
  };

  // `said`: the sender's turn stamp for their lines; null files it under this duel's turn now.
  const addChat = (id, from, text, said = null) => ctx.serial(async () => {
    const duel = ctx.duelOf(id);
    if (!duel) return;
    const now = (duel.summary && duel.summary.turn) || 1;
    const turn = from === 'them' ? chatLineTurn(said, now) : now;
    ctx.store.hold({ id, chat: chatLine(from, text, turn, Date.now()) });
    const stored = ctx.save(duel);
    ctx.refresh(id, stored ? {} : { feedback: ctx.unsavedFeedback(id) });
  });

  // "Save now": stores the waiting chat lines with the duel as it stands.
  ctx.saveChatAgain = (id) => ctx.serial(async () => {
    const duel = ctx.duelOf(id);
    if (!duel) return;
    const stored = ctx.save(duel);
    ctx.refresh(id, { feedback: stored ? null : ctx.unsavedFeedback(id) });
  });

  ctx.sendChat = (id, text) => {
    const duel = ctx.duelOf(id);
    const link = live.current();
    if (!link) return { ok: false, error: { code: 'not-connected' } };
    const r = link.sendChat(text, (duel && duel.summary && duel.summary.turn) || null);
    if (r.ok) addChat(id, 'me', r.text);
    return r;
  };

  // A live code that was refused: said on the duel screen on display, else in a toast; no dialog.
  function refuseLive(error) {
    const feedback = { kind: 'error', code: error.code, title: say('remote-live-refused-title'), message: error.message };
    if (ctx.shown && ctx.shown.id) ctx.refresh(ctx.shown.id, { feedback });
    else app.toast(sentence(error.message), 'error');
  }

  // A code that came over the live connection. The connection carries one duel (docs/protocol.md,
  // "Threat model", issue 12 finding 1): the engine says where it may go (remote_route_live); a
  // code of any other duel is refused without touching anything; only a new duel's invitation,
  // on a connection that carries no duel or a finished one, offers the accept dialog, one at a time.
  async function onLiveCode(code, link) {
    if (await ctx.engineReady()) return;
    const bound = link.duelId ? ctx.duelOf(link.duelId) : null;
    if (link.duelId && !bound) {
      refuseLive({ code: 'gone', message: say('remote-live-gone') });
      return;
    }
    const from = bound ? bound.id : null;
    const routed = await api.remoteRouteLive(bound ? bound.session : null, code, savedGameIds(storage.listGames().map((g) => g.id)));
    if (live.current() !== link || link.duelId !== from) return; // another connection or duel since
    if (!routed.ok) {
      refuseLive(routed.error);
      return;
    }
    const info = routed.code;
    if (routed.route === 'invitation') {
      if (ctx.acceptDialog || isDialogOpen()) {
        // Never a dialog over a dialog: the player answers the one in front of them first.
        app.toast(say('remote-invite-ignored', { host: info.host }));
        return;
      }
      await ctx.offerInvitation(info.code, info, { viaLive: true, link, from });
      return;
    }
    await ctx.receive(bound.id, info.code, (out) => {
      if (ctx.shown && ctx.shown.id && ctx.shown.id !== bound.id) {
        // The player is looking at another duel: do not pull them away from it.
        app.toast(say('remote-moved-elsewhere', { opp: opponentOf(bound.session), title: say('duel-title', bound.summary) }));
        return ctx.SKIP;
      }
      // A code applied cleanly says nothing, and leaves what is said on the screen until it moves on.
      return out.ok ? undefined : ctx.receivedFeedback(out, bound);
    });
  }

  ctx.transports.onReceive(onLiveCode);
  live.onChat((text, link, turn) => { if (link.duelId) addChat(link.duelId, 'them', text, turn); });
  live.onChange((link) => { onLiveChange(link); });
}
