// Unit tests of web/flows/remote/route.js under Node (`node --test tests/js/`): what a pasted text
// or an opened link is, and which saved duel a described code goes to.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  classify, elsewhere, holdsNoCode, isCodeLink, routeBundle, routeCode, savedGameIds,
} from '../../web/flows/remote/route.js';
import { duelIdOf } from '../../web/flows/remote/record.js';

// The transport's reader of connection codes, as far as these tests need it.
function rtcKind(text) {
  const s = String(text).replace(/\s+/g, '');
  if (!s) return { ok: false, error: { code: 'empty', message: 'empty' } };
  if (s.startsWith('WHC1.') && s.length > 6) return { ok: true, kind: 'offer' };
  if (s.startsWith('WHA1.') && s.length > 6) return { ok: true, kind: 'answer' };
  if (/^WH[CA]1\./.test(s)) return { ok: false, error: { code: 'corrupted', message: 'damaged' } };
  if (s.startsWith('WH1.')) return { ok: false, error: { code: 'turn-code', message: 'a turn code' } };
  return { ok: false, error: { code: 'not-a-code', message: 'not a code' } };
}

const duel = (gameId, me, game = null) => ({ id: `r-${gameId}-${me}`, session: { game_id: gameId, me, game } });

test('holdsNoCode: a sentence or another site has no code; a damaged turn code has one', () => {
  assert.equal(holdsNoCode('hello there', rtcKind('hello there')), true);
  assert.equal(holdsNoCode('https://example.com/', rtcKind('https://example.com/')), true);
  assert.equal(holdsNoCode('see WH1.broken', rtcKind('see WH1.broken')), false);
  assert.equal(holdsNoCode('WH1.abc', rtcKind('WH1.abc')), false);
});

test('isCodeLink: only a fragment holding c= or rtc=', () => {
  assert.equal(isCodeLink('#c=WH1.abc'), true);
  assert.equal(isCodeLink('#rtc=WHC1.abc'), true);
  assert.equal(isCodeLink('#x=1&c=WH1.a'), true);
  assert.equal(isCodeLink('#replay=abc'), false);
  assert.equal(isCodeLink(''), false);
  assert.equal(isCodeLink(undefined), false);
});

test('classify: every kind of pasted text', () => {
  assert.deepEqual(classify('   ', rtcKind), { go: 'empty' });
  assert.deepEqual(classify('', rtcKind), { go: 'empty' });
  assert.deepEqual(classify('WH1.abc WHC1.xyz', rtcKind), { go: 'bundle', turn: 'WH1.abc', rtc: 'WHC1.xyz', rtcKind: 'offer' });
  assert.deepEqual(classify('WH1.abc WHA1.xyz', rtcKind), { go: 'bundle', turn: 'WH1.abc', rtc: 'WHA1.xyz', rtcKind: 'answer' });
  assert.deepEqual(classify('WH1.abc WHC1.', rtcKind), { go: 'bad-connection', error: { code: 'corrupted', message: 'damaged' } });
  assert.deepEqual(classify('WHC1.xyz', rtcKind), { go: 'connection', rtcKind: 'offer' });
  assert.deepEqual(classify('WHA1.xyz', rtcKind), { go: 'connection', rtcKind: 'answer' });
  assert.deepEqual(classify('WHC1.', rtcKind), { go: 'bad-connection', error: { code: 'corrupted', message: 'damaged' } });
  assert.deepEqual(classify('WH1.abc', rtcKind), { go: 'turn', noCode: false });
  assert.deepEqual(classify('good luck!', rtcKind), { go: 'turn', noCode: true });
});

test('routeCode: an invitation this browser accepted shows that duel', () => {
  const info = { kind: 'invite', sender: 0, turn: 0 };
  assert.deepEqual(routeCode(info, [duel('aa', 0, {}), duel('aa', 1, {})]), { go: 'show', id: 'r-aa-1', say: 'invite-accepted-here' });
});

test('routeCode: the host\'s own invitation, accepted already, shows the duel under way', () => {
  const info = { kind: 'invite', sender: 0, turn: 0 };
  assert.deepEqual(routeCode(info, [duel('aa', 0, { turn: 1 })]), { go: 'show', id: 'r-aa-0', say: 'invite-own-accepted' });
});

test('routeCode: the host\'s own invitation, not accepted yet, offers to accept it here anyway', () => {
  assert.deepEqual(routeCode({ kind: 'invite', sender: 0 }, [duel('aa', 0)]), { go: 'own-invitation', id: 'r-aa-0' });
});

test('routeCode: a new invitation opens the accept dialog', () => {
  assert.deepEqual(routeCode({ kind: 'invite', sender: 0 }, []), { go: 'offer-invitation' });
  assert.deepEqual(routeCode({ kind: 'invite', sender: 0 }, [null, { id: 'x' }]), { go: 'offer-invitation' });
});

test('routeCode: a turn code goes to the side it is sent to, else to any side, else nowhere', () => {
  const both = [duel('aa', 0, {}), duel('aa', 1, {})];
  assert.deepEqual(routeCode({ kind: 'turn', sender: 0 }, both), { go: 'receive', id: 'r-aa-1' });
  assert.deepEqual(routeCode({ kind: 'turn', sender: 1 }, both), { go: 'receive', id: 'r-aa-0' });
  assert.deepEqual(routeCode({ kind: 'accept', sender: 1 }, [duel('aa', 1, {})]), { go: 'receive', id: 'r-aa-1' });
  assert.deepEqual(routeCode({ kind: 'turn', sender: 0, turn: 4 }, []), { go: 'not-saved', turn: 4 });
});

test('routeBundle: an invitation with an offer asks; a duel\'s code applies both; else the turn code alone', () => {
  const invite = { kind: 'invite', sender: 0 };
  assert.deepEqual(routeBundle(invite, [], 'offer'), { go: 'offer-invitation' });
  assert.deepEqual(routeBundle(invite, [duel('aa', 0)], 'offer'), { go: 'turn-only' });
  assert.deepEqual(routeBundle(invite, [duel('aa', 1, {})], 'offer'), { go: 'apply', id: 'r-aa-1' });
  assert.deepEqual(routeBundle({ kind: 'accept', sender: 1 }, [duel('aa', 0)], 'answer'), { go: 'apply', id: 'r-aa-0' });
  assert.deepEqual(routeBundle({ kind: 'turn', sender: 1 }, [], 'answer'), { go: 'turn-only' });
});

test('elsewhere: a code of another game pasted on a duel screen', () => {
  assert.deepEqual(elsewhere({ kind: 'invite', sender: 0 }, []), { go: 'offer-invitation' });
  assert.deepEqual(elsewhere({ kind: 'turn', sender: 0 }, [duel('bb', 1, {})]), { go: 'open', id: 'r-bb-1' });
  assert.equal(elsewhere({ kind: 'turn', sender: 0 }, [duel('bb', 0, {})]), null);
  assert.equal(elsewhere({ kind: 'turn', sender: 0 }, []), null);
});

test('savedGameIds and duelIdOf', () => {
  assert.deepEqual(savedGameIds(['r-ab12-0', 'local-1', 'r-cd-1', 'r-x-2']), ['ab12', 'cd']);
  assert.equal(duelIdOf({ game_id: 'ab12', me: 1 }), 'r-ab12-1');
});

test('chat: lines kept (the newest 200), waiting lines shown after the stored ones', async () => {
  const { CHAT_KEEP, chatLine, chatLines, withChat } = await import('../../web/flows/remote/chat.js');
  const line = (i) => chatLine('me', `l${i}`, 1, i);
  const duel = { id: 'd', chat: [line(1)] };
  assert.equal(withChat(duel, []), duel);
  assert.deepEqual(withChat(duel, [line(2)]).chat, [line(1), line(2)]);
  assert.deepEqual(chatLines({ id: 'd' }, [line(3)]), [line(3)]);
  const many = Array.from({ length: CHAT_KEEP + 5 }, (_, i) => line(i));
  assert.equal(withChat({ chat: [] }, many).chat.length, CHAT_KEEP);
  assert.equal(withChat({ chat: [] }, many).chat[0].text, 'l5');
});

test('presenceFor: sealed only while my input waits for theirs', async () => {
  const { presenceFor } = await import('../../web/flows/remote/chat.js');
  assert.equal(presenceFor({ state: 'your_input' }), 'choosing');
  assert.equal(presenceFor({ state: 'waiting', sealed: true }), 'sealed');
  assert.equal(presenceFor({ state: 'waiting', ahead: true }), 'choosing');
  assert.equal(presenceFor({ state: 'waiting', ahead: true }, true), 'sealed');
  assert.equal(presenceFor({ state: 'waiting' }), 'waiting');
  assert.equal(presenceFor({ state: 'over' }), 'waiting');
});

test('routes: how a duel\'s codes travel for every state of the link', async () => {
  const { routes } = await import('../../web/flows/remote/chat.js');
  assert.deepEqual(routes({ mode: 'codes' }), { carried: null, connected: false, liveFirst: false, rtcCode: null, outgoing: null, bundled: false, sentLive: false });
  assert.equal(routes({ mode: 'live', busy: 'preparing' }).liveFirst, true);
  assert.equal(routes({ mode: 'codes', busy: 'preparing' }).liveFirst, false);
  const offering = { state: 'connecting', pending: { code: 'WHC1.o' } };
  const offer = { code: 'WH1.a WHC1.o', link: null, carries: 'offer' };
  const bundled = routes({ carried: offering, mode: 'live', outgoing: offer });
  assert.equal(bundled.rtcCode, 'WHC1.o');
  assert.equal(bundled.bundled, true);
  assert.equal(bundled.liveFirst, true);
  assert.equal(routes({ carried: offering, mode: 'live', outgoing: null }).bundled, false);
  assert.equal(routes({ carried: offering, outgoing: { ...offer, carries: 'answer' } }).bundled, true);
  assert.equal(routes({ outgoing: { ...offer, carries: 'decline' } }).bundled, false);
  const up = { state: 'connected' };
  assert.equal(routes({ carried: up, connected: true, sentLive: true }).sentLive, true);
  assert.equal(routes({ carried: up, connected: true }).liveFirst, true);
  const down = routes({ carried: { state: 'closed' }, connected: false, sentLive: true });
  assert.equal(down.liveFirst, false);
  assert.equal(down.sentLive, false);
});
