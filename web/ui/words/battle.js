// battle: what the duel shows happening (web/ui/scene/, result cards, the live region, the end).

import { isolate } from './text.js';

const possessive = (name) => `${isolate(name)}’s`;
const lower = (s) => String(s || '').toLowerCase();
const blowOf = ({ blow, names }) => {
  if (blow.monster_name) return `${possessive(names[blow.controller])} ${blow.monster_name}`;
  if (blow.source === 'stab') return `${possessive(names[blow.caster])} knife`;
  const spell = lower(blow.spell_name || String(blow.spell || blow.source || '').replace(/_/g, ' '));
  return blow.caster === undefined ? `the ${spell}` : `${possessive(names[blow.caster])} ${spell}`;
};
const GESTURE_WORDS = { '>': 'a stab', '-': 'nothing', '?': 'hidden', C: 'clap' };
const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

export const WORDS = {
  // The end: one sentence with the decisive blow (engine/wavinghands/events.py, ending).
  'end-killed': (v) => `${capital(blowOf(v))} killed ${isolate(v.names[v.victim])} on turn ${v.turn}.`,
  'end-succumbed': (v) => `${isolate(v.names[v.victim])} died of ${blowOf(v)} on turn ${v.turn}.`,
  'end-died-unseen': (v) => `${isolate(v.names[v.victim])} died on turn ${v.turn}.`,
  'end-same-blow': (v) => `${v.victims.length === 2 ? 'Both' : 'All'} died of the same ${lower(v.blow.spell_name || v.blow.monster_name || 'blow')}${v.blow.caster !== undefined && !v.blow.monster_name ? ` (${possessive(v.names[v.blow.caster])})` : ''} on turn ${v.turn}: a posthumous draw.`,
  'end-all-died': (v) => `${v.victims.map((i) => isolate(v.names[i])).join(' and ')} died together on turn ${v.turn}: a posthumous draw.`,
  'end-surrendered': (v) => `${v.who.map((i) => isolate(v.names[i])).join(' and ')} surrendered on turn ${v.turn}.`,
  'end-limit': (v) => `The duel stopped at turn ${v.turn}, the last this page plays: a draw.`,
  'end-chart-title': 'Health over the turns',
  'end-chart-label': (v) => `Health over ${v.turns} turn${v.turns === 1 ? '' : 's'}: ${v.finals.map(([name, h]) => `${isolate(name)} ended with ${h === null ? 'unseen health' : h}`).join(', ')}.`,
  'end-replay': 'Replay move by move',
  'end-share': 'Share the replay link',
  'end-shared': 'The replay link is copied: paste it to a friend.',
  'end-share-copy': 'Copy this replay link:',
  'end-rematch': 'Rematch',
  'end-export': 'Export the record',
  'end-print': 'Print the account',
  'end-new': 'New duel',
  // The scene (web/ui/scene/): its names, badges and the words a screen reader gets for it.
  'replay-revealed-label': 'Gestures revealed',
  'replay-revealed-sets': ({ sets }) => sets.map(([l, r], si) => `${si ? '; then ' : ''}left ${GESTURE_WORDS[l] || l}, right ${GESTURE_WORDS[r] || r}`).join(''),
  'scene-skip': 'Skip',
  'scene-replay': 'Play the turn again',
  'scene-sound': 'Sound',
  'scene-you': ({ name }) => `${isolate(name)} (you)`,
  'scene-unseen': 'unseen',
  'scene-dead': 'dead',
  'scene-surrendered': 'surrendered',
  'scene-effect': (e) => `${e.name}${e.permanent ? ' ∞' : e.starts_in ? ` in ${e.starts_in}` : e.turns_left !== null && e.turns_left !== undefined ? ` ${e.turns_left}` : ''}`,
  'scene-banked': (b) => `banked ${b.name}`,
  'scene-monster': ({ id, name }) => `${name} ${id}`,
  'scene-hand': ({ hand, gesture }) => `${hand} hand: ${GESTURE_WORDS[gesture] || gesture}`,
  'scene-label-wizard': (v) => `${v.name}: ${v.alive ? `health ${v.health === null || v.health === undefined ? 'unseen' : v.health}` : 'dead'}, left hand ${GESTURE_WORDS[v.left] || v.left}, right hand ${GESTURE_WORDS[v.right] || v.right}${v.effects.length ? `, under ${v.effects.join(', ')}` : ''}.`,
  'scene-label-monster': (v) => `${possessive(v.master)} ${v.name}: health ${v.health}.`,
  // The gesture histories (ui/history.js): cells spoken aloud, their marks' titles, the table's labels.
  'history-spoken-stab': 'stab',
  'history-spoken-nothing': 'nothing',
  'history-spoken-hidden': 'hidden',
  'history-spoken-unchosen': 'not chosen yet',
  'history-kind-haste': 'extra gesture set from haste',
  'history-kind-time-stop': 'time-stopped turn',
  'history-forced-paralysis': 'forced by paralysis',
  'history-forced-amnesia': 'forced by amnesia (repeats the last turn)',
  'history-forced-charm': 'written by the charmer (charm person)',
  'history-hand-left': 'left',
  'history-hand-right': 'right',
  'history-hand-both': 'both hands',
  'history-part-of': ({ spells }) => `part of ${spells}`,
  'history-afraid': 'afraid: no C, D, F or S this turn',
  'history-confused': 'confused: a die could change one gesture',
  'history-draft-row': 'your orders for this turn, not yet sealed',
  'history-table-label': ({ name }) => `${isolate(name)}'s gestures, one row per turn`,
  'history-region-label': ({ name }) => `${isolate(name)}'s gestures`,
  'history-turn': 'turn',
  'history-left-hand': 'left hand',
  'history-right-hand': 'right hand',
  // The duel screen (ui/duel.js) and the battle log (ui/log.js).
  'duel-row-hastened': 'hastened',
  'duel-row-time-stopped': 'time stopped',
  'duel-glance-you': 'You',
  'duel-decide': 'Decide',
  'duel-decisions': 'Decisions',
  'duel-as-before': 'As ',
  'duel-as-after': ' saw it',
  'log-turn-head': ({ turn }) => `Turn ${turn}`,
};
