// A live melee (docs/protocol.md, "Live melee"): the melee by codes (flows/melee-codes.js) carried
// by the hub (transport/hub.js) instead of the group chat. This flow makes the connections: the
// host's page writes, per guest seat, one text (the engine's invitation, the host's key code and a
// WebRTC offer) and takes each guest's one reply (his acceptance, his key code, the answer); once
// every guest is connected the host's hub starts and its roster gives every page every key. From
// then on the melee-codes flow plays, its codes going through the hub; this flow reports who is
// connected, the roster's fingerprint, and who dropped out, and lets the player concede him; and
// the group's chat, each line signed by its author like every code (kept while the page is open).
// No DOM, no storage: nothing of a live connection is saved (after a reload, by codes).
//
// Outcome of host/join/reply: {screen: 'melee-live', live: state()} or {error: {code, message}}.

import { createHub } from '../transport/hub.js';
import { liveParts, liveText } from '../transport/hub-roster.js';
import { newKeyPair, readKeyCode } from '../transport/sign.js';
import { CHAT_MAX, chatText } from '../transport/chat.js';
import { STATUS, listeners } from '../transport/transport.js';

const failed = (code, message = '') => ({ error: { code, message } });
// How many chat lines a page keeps and shows (the newest).
const CHAT_KEPT = 30;

/**
 * createMeleeLiveFlow({api, codes, rtc, iceServers, hubOptions}) -> {host, join, reply, concede,
 * sendChat, state, onChange, transportFor, close}. codes: the melee-codes flow (host, join, receive, resume);
 * rtc: transport/webrtc.js's startHost/startGuest (fakes in tests); iceServers(ice) -> Promise of
 * {ok, iceServers} (transport/live.js's); hubOptions: extra createHub options (a test's clock).
 * Give transportFor to the melee-codes flow: it returns the hub of the live melee, else null.
 */
export function createMeleeLiveFlow({ api, codes, rtc, iceServers = async () => ({ ok: true, iceServers: [] }), hubOptions = {} }) {
  const changes = listeners();
  let live = null; // {role, duelId, game, seats, me, pair, links (host), reply (guest), hub, events, chat, chatDraft}

  const changed = () => changes.emit(state());

  /** state() -> the live melee as the page shows it, or null: role, its texts, who is connected, the hub's news, the chat. */
  function state() {
    if (!live) return null;
    const hub = live.hub ? live.hub.status() : null;
    const invitations = live.links ? [...live.links].map(([seat, l]) => ({
      seat, text: l.text, joined: Boolean(l.keyCode), connected: l.started.transport.status === STATUS.CONNECTED,
    })) : [];
    return {
      role: live.role, duelId: live.duelId, me: live.me, seats: live.seats, invitations, reply: live.reply || null,
      state: hub ? hub.state : STATUS.CONNECTING, fingerprint: hub ? hub.fingerprint : null,
      absence: hub ? hub.absence : null, events: [...live.events],
      chat: { lines: [...live.chat], draft: live.chatDraft, max: CHAT_MAX },
    };
  }

  function hubFor(options) {
    const hub = createHub({ ...options, ...hubOptions });
    hub.onStatus(changed);
    hub.onAbsence((e) => {
      if (!live || live.hub !== hub) return;
      live.events = [...live.events.slice(-19), e]; // the latest news, for the panel
      changed();
    });
    hub.onChat((text, seat) => {
      const line = chatText(text); // (plain text only: a line that is not one is not shown)
      if (!live || live.hub !== hub || line === null) return;
      addLine(seat, line);
    });
    return hub;
  }

  /**
   * host({name, seats, ruleset, ice}) -> Promise of an outcome: a new melee as its host, with one
   * text per guest seat to send him (state().invitations).
   */
  async function host({ name, seats, ruleset, ice = {} }) {
    const pair = await newKeyPair();
    if (!pair.ok) return { error: pair.error };
    const servers = await iceServers(ice);
    if (!servers.ok) return { error: servers.error };
    const o = await codes.host({ name, seats, ruleset });
    if (o.error) return o;
    close();
    const links = new Map();
    for (const inv of o.outbox.filter((x) => x.kind === 'invite')) {
      const started = await rtc.startHost({ iceServers: servers.iceServers });
      if (!started.ok) {
        for (const l of links.values()) l.started.transport.close();
        return { error: started.error };
      }
      links.set(inv.seat, { started, text: liveText(inv.code, pair.code, started.code), keyCode: null, key: null, accept: null });
    }
    live = { role: 'host', duelId: o.duel.id, game: o.duel.session.game_id, seats, me: 0, pair, links, hub: null, events: [], ...newChat() };
    for (const l of links.values()) l.started.transport.onStatus(() => { hostReady(); changed(); });
    return { screen: 'melee-live', live: state() };
  }

  /**
   * reply(text) -> Promise of an outcome: the host takes a guest's reply (acceptance, key code and
   * answer, in one text); the melee starts once every guest is connected.
   */
  async function reply(text) {
    if (!live || live.role !== 'host') return failed('melee-live-not-hosting');
    const parts = liveParts(text);
    if (!parts.key || !parts.rtc || !parts.engine.length) return failed('melee-live-reply-incomplete');
    const d = await api.remoteMeleeDescribe(parts.engine.join('\n'));
    if (!d.ok) return { error: d.error };
    const acc = d.codes.find((c) => c.kind === 'accept');
    if (!acc || acc.game_id !== live.game) return failed('melee-live-not-reply');
    const link = live.links.get(acc.sender);
    if (!link) return failed('melee-live-not-reply');
    if (link.keyCode && link.keyCode !== parts.key) return failed('melee-live-seat-taken');
    const key = await readKeyCode(parts.key);
    if (!key.ok) return { error: key.error };
    const answered = await link.started.acceptAnswer(parts.rtc);
    if (!answered.ok) return { error: answered.error };
    if (answered.declined) return failed('melee-live-declined');
    const r = await codes.receive(acc.code);
    if (r.error) return { error: r.error };
    Object.assign(link, { keyCode: parts.key, key: key.key, accept: acc.code });
    hostReady();
    changed();
    return { screen: 'melee-live', live: state() };
  }

  // The host's hub starts once every guest has replied and is connected: its roster goes first.
  function hostReady() {
    if (!live || live.role !== 'host' || live.hub) return;
    const links = [...live.links];
    if (!links.every(([, l]) => l.keyCode && l.started.transport.status === STATUS.CONNECTED)) return;
    const bySeat = new Map(links);
    const seatsInOrder = [...Array(live.seats).keys()];
    live.hub = hubFor({
      game: live.game, seats: live.seats, me: 0, privateKey: live.pair.keys.privateKey,
      peers: new Map(links.map(([seat, l]) => [seat, l.started.transport])),
      keyCodes: seatsInOrder.map((s) => (s === 0 ? live.pair.code : bySeat.get(s).keyCode)),
      keys: seatsInOrder.map((s) => (s === 0 ? null : bySeat.get(s).key)),
      accepts: links.map(([, l]) => l.accept),
    });
    codes.resume(live.duelId); // the melee-codes flow takes the hub as its transport now
  }

  /**
   * join({text, name, ice}) -> Promise of an outcome: a guest's seat from the host's live text; the
   * reply to send back is state().reply. A plain invitation (no key, no offer) is the by-codes join's.
   */
  async function join({ text, name, ice = {} }) {
    const parts = liveParts(text);
    if (!parts.key || !parts.rtc || !parts.rtc.startsWith('WHC1.')) return failed('melee-live-not-invitation');
    const d = await api.remoteMeleeDescribe(parts.engine.join('\n'));
    if (!d.ok) return { error: d.error };
    const inv = d.codes.filter((c) => c.kind === 'invite');
    if (inv.length !== 1) return failed('melee-live-not-invitation');
    const hostKey = await readKeyCode(parts.key);
    if (!hostKey.ok) return { error: hostKey.error };
    const pair = await newKeyPair();
    if (!pair.ok) return { error: pair.error };
    const servers = await iceServers(ice);
    if (!servers.ok) return { error: servers.error };
    const started = await rtc.startGuest(parts.rtc, { iceServers: servers.iceServers });
    if (!started.ok) return { error: started.error };
    close();
    const { seat, seats, game_id: game } = inv[0];
    const own = (s, mine, host) => (s === seat ? mine : s === 0 ? host : null);
    const seatsInOrder = [...Array(seats).keys()];
    live = { role: 'guest', duelId: null, game, seats, me: seat, pair, reply: null, hub: null, events: [], ...newChat() };
    // The hub listens before anything can arrive: the host's roster may come as soon as it connects.
    live.hub = hubFor({
      game, seats, me: seat, privateKey: pair.keys.privateKey, peers: new Map([[0, started.transport]]),
      keyCodes: seatsInOrder.map((s) => own(s, pair.code, parts.key)),
      keys: seatsInOrder.map((s) => own(s, null, hostKey.key)),
    });
    const o = await codes.join({ text: inv[0].code, name });
    if (o.error) {
      close();
      return o;
    }
    live.duelId = o.duel.id;
    const acceptance = (o.outbox.find((x) => x.kind === 'accept') || {}).code;
    live.reply = liveText(acceptance, pair.code, started.code);
    changed();
    return { screen: 'melee-live', live: state() };
  }

  /** concede(seat) -> Promise of {ok} or an error value: my signed agreement that a dropped seat is conceded. */
  const concede = (seat) => (live && live.hub ? live.hub.concede(seat) : Promise.resolve(failed('melee-live-not-connected').error));

  // The chat's lines (newest last) and the box's unsent text, which outlives every redraw.
  const newChat = () => ({ chat: [], chatDraft: { value: '', focused: false } });

  function addLine(seat, text) {
    live.chat = [...live.chat.slice(-(CHAT_KEPT - 1)), { seat, text }];
    changed();
  }

  /**
   * sendChat(text) -> {ok} or {ok: false, error}: a line to every wizard of the melee, signed and
   * relayed like a code ('bad-chat': empty or over CHAT_MAX characters; 'melee-live-not-connected').
   */
  function sendChat(text) {
    if (!live || !live.hub || live.hub.status().state !== STATUS.CONNECTED) return { ok: false, ...failed('melee-live-not-connected') };
    const line = chatText(text);
    if (line === null) return { ok: false, error: { code: 'bad-chat', max: CHAT_MAX } };
    live.hub.sendChat(line);
    addLine(live.me, line);
    return { ok: true };
  }

  /** transportFor(duel) -> the hub carrying that melee, or null (the melee-codes flow's hook). */
  function transportFor(duel) {
    if (!live || !live.hub) return null;
    if (live.duelId === null || live.duelId === duel.id) return live.hub;
    return null;
  }

  /** close(): the live melee's connections end (the melee itself stays saved, to go on by codes). */
  function close() {
    if (!live) return;
    const old = live;
    live = null;
    if (old.hub) old.hub.close();
    for (const l of old.links ? old.links.values() : []) l.started.transport.close();
    changed();
  }

  return { host, join, reply, concede, sendChat, state, onChange: (cb) => changes.add(cb), transportFor, close };
}
