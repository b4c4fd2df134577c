// Unit tests of the transport interface (web/transport/transport.js, switchboard.js, by-hand.js,
// live.js) under Node, with a fake live peer in place of WebRTC: run with `node --test tests/js/`.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { STATUS } from '../../web/transport/transport.js';
import { createTransports } from '../../web/transport/switchboard.js';
import { bundleOf, createByHand, splitCodes } from '../../web/transport/by-hand.js';

const OFFER = 'WHC1.offerbody';
const ANSWER = 'WHA1.answerbody';
const DECLINE = 'WHA1.declinebody';

// One side of a fake live connection, shaped like web/transport/webrtc.js's transport object.
function fakeRaw(reason) {
  const on = { status: new Set(), message: new Set(), presence: new Set(), chat: new Set() };
  const raw = {
    status: STATUS.CONNECTING, detail: { reason }, peerPresence: null, other: null, sent: [], heard: 0,
    set(status, why) {
      raw.status = status;
      raw.detail = { reason: why };
      for (const cb of on.status) cb(status, raw.detail);
    },
    onStatus: (cb) => { on.status.add(cb); cb(raw.status, raw.detail); return () => on.status.delete(cb); },
    onMessage: (cb) => { on.message.add(cb); return () => on.message.delete(cb); },
    onPresence: (cb) => { on.presence.add(cb); cb(raw.peerPresence); return () => on.presence.delete(cb); },
    onChat: (cb) => { on.chat.add(cb); return () => on.chat.delete(cb); },
    send(code) {
      if (raw.status !== STATUS.CONNECTED) return { ok: false, error: { code: 'not-connected' } };
      raw.sent.push(code);
      for (const cb of raw.other.on.message) cb(code);
      return { ok: true };
    },
    sendChat(text, turn) {
      if (raw.status !== STATUS.CONNECTED) return { ok: false, error: { code: 'not-connected' } };
      for (const cb of raw.other.on.chat) cb(text, turn);
      return { ok: true, text };
    },
    setPresence(state) {
      raw.other.peerPresence = state;
      for (const cb of raw.other.on.presence) cb(state);
      return { ok: true };
    },
    close() {
      raw.set(STATUS.CLOSED, 'closed-by-you');
      if (raw.other && raw.other.status !== STATUS.CLOSED) raw.other.set(STATUS.DISCONNECTED, 'peer-closed');
    },
    hostHasAnswer() {
      raw.heard += 1;
    },
    on,
  };
  return raw;
}

// A fake of webrtc.js's functions: the host's offer, once answered, connects to the guest's side.
function fakeRtc() {
  const made = { host: null, guest: null, starts: 0 };
  const connect = () => {
    made.host.set(STATUS.CONNECTED, 'open');
    made.guest.set(STATUS.CONNECTED, 'open');
  };
  return {
    made,
    async startHost() {
      made.starts += 1;
      made.host = fakeRaw('waiting-answer');
      return {
        ok: true, code: OFFER, link: `https://x/#rtc=${OFFER}`, transport: made.host,
        acceptAnswer: async (text) => {
          if (text === DECLINE) {
            made.host.set(STATUS.DISCONNECTED, 'declined');
            return { ok: true, declined: true };
          }
          if (text !== ANSWER) return { ok: false, error: { code: 'damaged' } };
          made.host.set(STATUS.CONNECTING, 'checking');
          if (made.guest) connect();
          return { ok: true };
        },
      };
    },
    async startGuest(text) {
      if (text !== OFFER) return { ok: false, error: { code: 'damaged' } };
      made.guest = fakeRaw('waiting-host');
      if (made.host) {
        made.host.other = made.guest;
        made.guest.other = made.host;
      }
      return { ok: true, code: ANSWER, link: `https://x/#rtc=${ANSWER}`, transport: made.guest };
    },
    connectionCodeKind: (text) => (text.startsWith('WHC1.') ? { ok: true, kind: 'offer' }
      : text.startsWith('WHA1.') ? { ok: true, kind: 'answer' } : { ok: false, error: { code: 'not-a-code' } }),
    declineOffer: (text) => (text === OFFER ? { ok: true, code: DECLINE } : { ok: false, error: { code: 'damaged' } }),
    isDeclineCode: (text) => text === DECLINE,
    offerAddresses: () => ['192.0.2.1:9'],
    deliverAnswerToOpenTab: async () => ({ ok: true, delivered: false }),
  };
}

const make = (rtc = fakeRtc()) => ({ rtc, t: createTransports({ rtc, baseUrl: () => 'https://x/', siteIce: async () => null }) });

test('a bundle splits into its turn code and connection code, as text or as a link', () => {
  assert.deepEqual(splitCodes(`WH1.abc\n${OFFER}`), { turn: 'WH1.abc', rtc: OFFER });
  assert.deepEqual(splitCodes(`${ANSWER} WH1.x`), { turn: 'WH1.x', rtc: ANSWER });
  assert.deepEqual(splitCodes(`https://x/#c=WH1.a&rtc=${OFFER}`), { turn: 'WH1.a', rtc: OFFER });
  assert.deepEqual(splitCodes('hello'), { turn: null, rtc: null });
  assert.deepEqual(bundleOf('WH1.a', 'https://x/#c=WH1.a', OFFER), { code: `WH1.a ${OFFER}`, link: `https://x/#c=WH1.a&rtc=${OFFER}` });
});

test('the by-hand transport shows what it sends and hands on what is pasted', () => {
  const hand = createByHand('d1');
  const got = [];
  const states = [];
  hand.onReceive((c) => got.push(c));
  hand.onStatus((s) => states.push(s));
  assert.deepEqual(hand.send('WH1.turn'), { ok: true, via: 'hand' });
  assert.equal(hand.status().last, 'WH1.turn');
  assert.deepEqual(hand.paste(`WH1.back ${ANSWER}`), { turn: 'WH1.back', rtc: ANSWER });
  assert.deepEqual(got, ['WH1.back']);
  assert.equal(hand.send('').error.code, 'bad-message');
  hand.close();
  assert.equal(hand.status().state, STATUS.CLOSED);
  assert.equal(hand.send('WH1.x').error.code, 'not-open');
  assert.deepEqual(states.map((s) => s.state), [STATUS.CONNECTED, STATUS.CONNECTED, STATUS.CLOSED]);
});

test('codes go by hand until a live connection is connected and bound to that duel', async () => {
  const { rtc, t } = make();
  assert.equal(t.carrier('d1').kind, 'hand');
  assert.deepEqual(t.send('d1', 'WH1.a'), { ok: true, via: 'hand' });
  assert.deepEqual(await t.live.host({ duelId: 'd1' }), { ok: true });
  // Offering: the offer rides inside the host's code, and codes still go by hand.
  assert.deepEqual(t.outgoing('d1', 'WH1.a', 'https://x/#c=WH1.a'), { code: `WH1.a ${OFFER}`, link: `https://x/#c=WH1.a&rtc=${OFFER}`, carries: 'offer' });
  assert.equal(t.carrier('d1').kind, 'hand');
  // The guest's page (another registry) answers; its answer rides inside its code.
  const guest = createTransports({ rtc, baseUrl: () => 'https://y/', siteIce: async () => null });
  assert.deepEqual(await guest.live.join(OFFER, { duelId: 'd1' }), { ok: true });
  assert.equal(guest.outgoing('d1', 'WH1.b').carries, 'answer');
  assert.equal(guest.live.current().status().reason, 'waiting-host');
  assert.deepEqual(await t.live.answer(ANSWER), { ok: true });
  assert.equal(t.live.current().status().answered, true);
  assert.equal(t.carrier('d1').kind, 'live');
  assert.equal(t.carrier('d2').kind, 'hand');
  assert.deepEqual(t.outgoing('d1', 'WH1.c'), { code: 'WH1.c', link: null, carries: null });
  assert.equal(guest.outgoing('d1', 'WH1.d').carries, null);
  const heard = [];
  guest.onReceive((code, link) => heard.push([code, link.duelId]));
  assert.deepEqual(t.send('d1', 'WH1.live'), { ok: true, via: 'live' });
  assert.deepEqual(heard, [['WH1.live', 'd1']], "the switchboard's onReceive hears the live codes");
  assert.equal(t.wentLive('WH1.live'), true);
  assert.equal(t.wentLive('WH1.a'), false, 'a code shown by hand did not go live');
});

test('the live status is a plain snapshot, given at once and on every change', async () => {
  const { rtc, t } = make();
  const seen = [];
  t.live.onChange((link) => seen.push(link && link.status().reason));
  await t.live.host({ duelId: 'd1' });
  const link = t.live.current();
  const snaps = [];
  link.onStatus((s) => snaps.push(s));
  assert.deepEqual(snaps[0], {
    kind: 'live', state: STATUS.CONNECTING, reason: 'waiting-answer', warning: null, role: 'host', duelId: 'd1', peer: null,
    code: OFFER, link: `https://x/#rtc=${OFFER}`, answered: false, pending: { code: OFFER, link: `https://x/#rtc=${OFFER}` },
  });
  rtc.made.host.set(STATUS.DISCONNECTED, 'unreachable');
  assert.equal(snaps.at(-1).pending, null);
  assert.equal(seen.at(-1), 'unreachable');
  t.live.close();
  assert.equal(t.live.current(), null);
  assert.equal(seen.at(-1), null);
});

test('a connection moves to another duel only from the duel it carried', async () => {
  const { t } = make();
  await t.live.host({ duelId: null });
  const link = t.live.current();
  assert.equal(t.live.bind('d2', { transport: link, from: 'd9' }), false);
  assert.equal(t.live.bind('d2', { transport: link, from: null }), true);
  assert.equal(link.duelId, 'd2');
  assert.equal(link.status().duelId, 'd2');
  assert.equal(t.live.bind('d3', { transport: link, from: null }), false);
  assert.equal(t.live.bind('d3', { transport: {}, from: 'd2' }), false);
  assert.equal(t.live.bind('d3', { transport: link, from: 'd2' }), true);
});

test('a declined offer rides in the next codes until a code of the host comes without it', async () => {
  const { t } = make();
  assert.deepEqual(t.decline('d1', OFFER), { ok: true, code: DECLINE });
  assert.equal(t.outgoing('d1', 'WH1.a').code, `WH1.a ${DECLINE}`);
  assert.equal(t.outgoing('d1', 'WH1.a').carries, 'decline');
  t.heardByHand('d1', { withOffer: true });
  assert.equal(t.outgoing('d1', 'WH1.a').carries, 'decline');
  t.heardByHand('d1');
  assert.equal(t.outgoing('d1', 'WH1.a').carries, null);
  assert.equal(t.decline('d1', 'WHC1.bad').ok, false);
});

test('a guest learns that the host has its answer when a code of the host comes by hand', async () => {
  const { rtc, t } = make();
  await t.live.join(OFFER, { duelId: 'd1' });
  t.heardByHand('d2');
  assert.equal(rtc.made.guest.heard, 0);
  t.heardByHand('d1', { withOffer: true });
  assert.equal(rtc.made.guest.heard, 0);
  t.heardByHand('d1');
  assert.equal(rtc.made.guest.heard, 1);
});

test('an answer with no offer waiting here is handed to another tab, or said to belong elsewhere', async () => {
  const { t } = make();
  assert.deepEqual(await t.live.answer(ANSWER), { ok: false, error: { code: 'no-host-tab' } });
  assert.deepEqual(await t.live.answer(DECLINE), { ok: true, declined: true });
  assert.deepEqual(t.read(`WH1.a ${ANSWER}`), { turn: 'WH1.a', rtc: ANSWER, rtcKind: 'answer' });
});

test('a newer start supersedes one still gathering, and chat and presence reach the other side', async () => {
  const rtc = fakeRtc();
  const slow = { ...rtc, startHost: () => new Promise((r) => setTimeout(() => r(rtc.startHost()), 20)) };
  const { t } = make(slow);
  const first = t.live.host({ duelId: 'd1' });
  const second = t.live.host({ duelId: 'd2' });
  assert.deepEqual(await first, { ok: false, error: { code: 'superseded' } });
  assert.deepEqual(await second, { ok: true });
  assert.equal(t.live.current().duelId, 'd2');
  const guest = createTransports({ rtc, siteIce: async () => null });
  await guest.live.join(OFFER, { duelId: 'd2' });
  await t.live.answer(ANSWER);
  const lines = [];
  guest.live.onChat((text, link, turn) => lines.push([text, turn]));
  assert.deepEqual(t.live.current().sendChat('hello', 3), { ok: true, text: 'hello' });
  assert.deepEqual(lines, [['hello', 3]]);
  t.live.current().setPresence('sealed');
  assert.equal(guest.live.current().status().peer, 'sealed');
  assert.equal(guest.live.isConnected('d2'), true);
  assert.equal(guest.live.isConnected('d1'), false);
  t.live.close();
  assert.equal(guest.live.current().status().reason, 'peer-closed');
  assert.equal(guest.carrier('d2').kind, 'hand');
});
