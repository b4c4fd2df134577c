// Unit tests of the battle log's time line (web/ui/log.js) under Node: `node --test tests/js/`.
// A few lines of DOM stand-in are enough: the log only makes elements, attributes and text nodes.

import assert from 'node:assert/strict';
import { test } from 'node:test';

class FakeNode {}
class FakeText extends FakeNode {
  constructor(text) { super(); this.text = text; }
  get textContent() { return this.text; }
}
class FakeElement extends FakeNode {
  constructor(tag) { super(); this.tagName = tag; this.attributes = {}; this.children = []; this.className = ''; }
  setAttribute(key, value) { this.attributes[key] = value; }
  addEventListener() {}
  append(...nodes) { this.children.push(...nodes); }
  get textContent() { return this.children.map((c) => c.textContent).join(''); }
  set textContent(text) { this.children = [new FakeText(text)]; }
}
globalThis.Node = FakeNode;
globalThis.document = { createElement: (tag) => new FakeElement(tag), createTextNode: (text) => new FakeText(text) };
const { renderLog } = await import('../../web/ui/log.js');

const events = [
  { turn: 1, type: 'gestures', text: 'Alice: left D, right F.' },
  { turn: 2, type: 'damage', text: 'Bob takes 1 damage.' },
];
const names = { me: 'Alice', them: 'عليّ' };
const rows = (ol) => ol.children.map((li) => [li.attributes['data-testid'] === 'log-chat' ? 'chat' : li.className || li.attributes['data-type'], li.attributes['data-turn'], li.textContent]);

test('chat lines come under the turn they were said in, before that turn\'s events', () => {
  const chat = { names, lines: [{ from: 'them', text: 'Ready', turn: 2 }, { from: 'me', text: 'Hi', turn: 1 }, { from: 'me', text: 'gg', turn: 3 }] };
  const got = rows(renderLog(events, { chat })).map(([kind, turn]) => `${kind}:${turn}`);
  assert.deepEqual(got, ['turn-head:1', 'chat:1', 'gestures:1', 'turn-head:2', 'chat:2', 'damage:2', 'turn-head:3', 'chat:3']);
});

test('a chat line is text with the name isolated, never markup', () => {
  const chat = { names, lines: [{ from: 'them', text: '<b>x</b> & y', turn: 1 }] };
  const li = renderLog([], { chat }).children.find((c) => c.attributes['data-testid'] === 'log-chat');
  const [who, said] = li.children.filter((c) => c.tagName === 'bdi');
  assert.equal(who.textContent, 'عليّ');
  assert.equal(said.textContent, '<b>x</b> & y');
  assert.ok(said.children.every((c) => c instanceof FakeText));
  assert.equal(li.attributes['data-from'], 'them');
});

test('without chat the log is the engine\'s events alone; with neither, it says nothing happened', () => {
  assert.deepEqual(rows(renderLog(events)).map(([kind]) => kind), ['turn-head', 'gestures', 'turn-head', 'damage']);
  assert.equal(renderLog([]).textContent, 'Nothing has happened yet.');
});
