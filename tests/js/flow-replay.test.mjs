// Unit tests of the replay flow (web/flows/replay.js) under Node: '#replay=' links made and
// read, a link that inflates past the limit stopped there (bug 9), and the flow's cursor.
// `node --test tests/js/`.

import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { test } from 'node:test';

const { createReplayFlow, packRecord, replayLink, replayLinkIn, unpackRecord } = await import('../../web/flows/replay.js');

const b64url = (bytes) => Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

test('a record survives the link both ways, and the link is found in an address', async () => {
  const record = JSON.stringify({ format: 'wavinghands-record', turns: Array(50).fill({ a: 'WP', b: 'SD' }) });
  const packed = await packRecord(record);
  assert.deepEqual(await unpackRecord(packed), { ok: true, text: record });
  const link = replayLink('https://example.org/wh/?x=1#c=old', packed);
  assert.equal(link, `https://example.org/wh/?x=1#replay=${packed}`);
  assert.equal(replayLinkIn(new URL(link).hash), packed);
  assert.equal(replayLinkIn('#c=WH1.abc'), null);
  assert.equal(replayLinkIn(''), null);
});

test('a damaged link says so', async () => {
  for (const packed of ['!!!', 'AAAA', (await packRecord('{"a": 1}')).slice(0, -3)]) {
    assert.deepEqual(await unpackRecord(packed), { ok: false, error: { code: 'replay-link-damaged' } }, packed);
  }
});

test('inflating stops at the limit: a small link worth 50 M characters is refused early (bug 9)', async () => {
  const bomb = b64url(deflateRawSync(Buffer.alloc(50_000_000, 32), { level: 9 }));
  assert.ok(bomb.length < 100_000, `${bomb.length}`);
  const before = process.memoryUsage().heapUsed;
  assert.deepEqual(await unpackRecord(bomb), { ok: false, error: { code: 'replay-link-too-large', limit: 4_000_000 } });
  assert.ok(process.memoryUsage().heapUsed - before < 40_000_000, 'no more than the limit was held');
  // Just under a small limit is fine; one past it is not.
  const packed = await packRecord('x'.repeat(1000));
  assert.equal((await unpackRecord(packed, 1000)).ok, true);
  assert.equal((await unpackRecord(packed, 999)).error.code, 'replay-link-too-large');
});

test('the flow steps and turns the record, and an engine error comes back as it is', async () => {
  const asked = [];
  const api = {
    replayStep: async (text, step) => {
      asked.push(step);
      return step > 3 ? { ok: false, error: { code: 'bad-step', message: 'no such step' } }
        : { ok: true, step, steps: 4, views: [{ ruleset: { name: 'standard' } }, {}] };
    },
  };
  const flow = createReplayFlow({ api, engine: Promise.resolve() });
  let o = await flow.open('{"r":1}', { perspective: '1' });
  assert.deepEqual([o.screen, o.data.step, o.perspective, o.ruleset.name], ['replay', 0, '1', 'standard']);
  o = await flow.step(2);
  assert.deepEqual([o.data.step, o.perspective], [2, '1']);
  o = await flow.perspective('both');
  assert.deepEqual([o.data.step, o.perspective], [2, 'both']);
  assert.deepEqual((await flow.step(9)).error, { code: 'bad-step', message: 'no such step' });
  assert.equal(await unpackRecord(await flow.packed()).then((r) => r.text), '{"r":1}');
  flow.close();
  assert.deepEqual(await flow.step(1), { screen: 'left' });
  const link = await packRecord('{"r":2}');
  assert.equal((await flow.openLink(link)).screen, 'replay');
  assert.equal((await flow.openLink('!!')).error.code, 'replay-link-damaged');
  const down = Promise.reject(new Error('no engine'));
  down.catch(() => {});
  assert.deepEqual((await createReplayFlow({ api, engine: down }).open('{}')).error, { code: 'engine-unavailable', message: 'no engine' });
});
