// The end's sentence (web/ui/screens/end.js endSentence) from api.battle's ending: the decisive
// blow, the same blow for both, a blow the viewer did not see, a surrender.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endSentence } from '../../web/ui/screens/end.js';

const names = ['Alice', 'Bob'];
const plain = (s) => s.replace(/[\u2068\u2069]/g, '');

test('a spell that killed is named with its caster and the turn', () => {
  const ending = { turn: 12, winner: 0, how: 'killed', surrendered: [], same_blow: false,
    dead: [{ wizard: 1, blow: { spell: 'lightning_bolt', spell_name: 'Lightning bolt', caster: 0, amount: 5, source: 'lightning_bolt' } }] };
  assert.equal(plain(endSentence(ending, names)), 'Alice’s lightning bolt killed Bob on turn 12.');
});

test('a monster, a knife, a disease and an unseen blow', () => {
  const one = (blow) => plain(endSentence({ turn: 3, winner: 1, how: 'killed', surrendered: [], same_blow: false, dead: [{ wizard: 0, blow }] }, names));
  assert.equal(one({ monster: 'M1', monster_name: 'ogre', controller: 1, amount: 2, source: 'ogre' }), 'Bob’s ogre killed Alice on turn 3.');
  assert.equal(one({ caster: 1, amount: 1, source: 'stab' }), 'Bob’s knife killed Alice on turn 3.');
  assert.equal(one({ spell: 'disease', spell_name: 'Disease', caster: 1 }), 'Alice died of Bob’s disease on turn 3.');
  assert.equal(one(null), 'Alice died on turn 3.');
});

test('both died of the same storm: a posthumous draw', () => {
  const blow = { spell: 'fire_storm', spell_name: 'Fire storm', amount: 5, source: 'fire_storm' };
  const ending = { turn: 9, winner: null, how: 'killed', surrendered: [], same_blow: true, dead: [{ wizard: 0, blow }, { wizard: 1, blow }] };
  assert.equal(plain(endSentence(ending, names)), 'Both died of the same fire storm on turn 9: a posthumous draw.');
  assert.equal(plain(endSentence({ ...ending, same_blow: false }, names)), 'Alice and Bob died together on turn 9: a posthumous draw.');
});

test('a surrender', () => {
  const ending = { turn: 4, winner: 0, how: 'surrendered', surrendered: [1], same_blow: false, dead: [] };
  assert.equal(plain(endSentence(ending, names)), 'Bob surrendered on turn 4.');
});
