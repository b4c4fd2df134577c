// Unit tests of the chat envelope's turn stamp (web/transport/chat.js) under Node:
// `node --test tests/js/`. A chat line is filed under the turn its sender was in, not the turn
// the receiver is in when it arrives; a page that knows no stamp files it under its own turn.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { CHAT_MAX, chatEnvelope, chatLineTurn, readChat } from '../../web/transport/chat.js';

test('the envelope carries the sender\'s turn as n, and only a whole turn number', () => {
  assert.deepEqual(chatEnvelope('hello', 4), { t: 'chat', m: 'hello', n: 4 });
  assert.deepEqual(chatEnvelope('hello'), { t: 'chat', m: 'hello' });
  for (const bad of [0, -1, 2.5, '3', NaN, Infinity, 1e9, null, undefined, {}]) {
    assert.deepEqual(chatEnvelope('hello', bad), { t: 'chat', m: 'hello' }, String(bad));
  }
  assert.equal(chatEnvelope(''), null);
  assert.equal(chatEnvelope('x'.repeat(CHAT_MAX + 1), 2), null);
});

test('what is read back: the text and the stamp, or no stamp from an older page', () => {
  assert.deepEqual(readChat(JSON.parse(JSON.stringify(chatEnvelope('gg\nwp', 7)))), { text: 'gg wp', turn: 7 });
  assert.deepEqual(readChat({ t: 'chat', m: 'old page' }), { text: 'old page', turn: null });
  assert.deepEqual(readChat({ t: 'chat', m: 'odd', n: '7' }), { text: 'odd', turn: null });
  assert.equal(readChat({ t: 'chat', m: '' , n: 2 }), null);
  assert.equal(readChat({ t: 'code', c: 'WH1.x', n: 2 }), null);
  assert.equal(readChat(null), null);
});

test('a line goes under the sender\'s turn, one ahead of mine at most', () => {
  assert.equal(chatLineTurn(3, 3), 3);
  assert.equal(chatLineTurn(4, 3), 4); // the sender resolved turn 3 first and is writing turn 4
  assert.equal(chatLineTurn(2, 5), 2); // said long ago, arriving now (or read after a reload)
  assert.equal(chatLineTurn(9, 3), 3); // a turn no one has reached: filed under mine
  assert.equal(chatLineTurn(null, 3), 3); // an older page sends no stamp
  assert.equal(chatLineTurn(2, null), 2);
  assert.equal(chatLineTurn(null, null), 1);
});
