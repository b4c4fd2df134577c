// The engine's questions about a draft of orders (spell choices, targets, stabs, monsters,
// charm, hands, banked spells) as form fields, each with the problem or warning that concerns it.
// What a field changes goes to the draft model (draft.js) through the callbacks.

import { h } from '../dom.js';
import { gestureLabel } from '../gesturepad.js';
import { say } from '../words/index.js';

export const HAND_WORDS = { L: say('orders-left-hand'), R: say('orders-right-hand'), B: say('orders-both-hands') };

/**
 * createQuestions({model, answer(q, value), onAllocation(set, casts)}) -> questionFields(q): the
 * field(s) for one of the engine's questions (model: the draft, its problems and its preview).
 */
export function createQuestions({ model, answer, onAllocation }) {
  const { draft, setCount } = model;

  function problemNote(field, id) {
    const list = model.problemsAt(field);
    if (!list.length) return null;
    return h('p', { class: 'problem', id, 'data-testid': `problem-${field}` }, list.map((p) => p.message).join(' '));
  }

  // A warning the engine attaches to this answer (a harmful spell aimed at nobody or oneself).
  function riskNote(field, id) {
    const risky = (model.lastPreview ? model.lastPreview.warnings : []).filter((w) => w.confirm && w.field === field);
    if (!risky.length) return null;
    return h('p', { class: 'problem risk', id, 'data-testid': `risk-${field}` }, risky.map((w) => w.text).join(' '));
  }

  function selectField({ label, field, testid, options, value, onChange, placeholder = null }) {
    const id = `q-${testid}`;
    const problemId = `${id}-problem`;
    const note = problemNote(field, problemId) || riskNote(field, problemId);
    const select = h('select', {
      id, 'data-testid': testid, 'data-field': field,
      class: note ? 'has-problem' : null,
      'aria-invalid': note ? 'true' : null,
      'aria-describedby': note ? problemId : null,
      onchange: (event) => onChange(event.target.value),
    },
    placeholder !== null ? h('option', { value: '', selected: !value }, placeholder) : null,
    options.map((o) => h('option', { value: o.id, selected: o.id === value }, o.name)));
    return h('div', { class: 'field' }, h('label', { for: id }, label), select, note);
  }

  function spellChoiceField(q) {
    const field = `casts.${q.set}`;
    const name = `choice-${q.set}`;
    const note = problemNote(field, `${name}-problem`);
    return h('fieldset', { class: `field${note ? ' has-problem' : ''}`, 'data-field': field, 'data-testid': `spell-choice-${q.set}` },
      h('legend', {}, q.prompt, setCount > 1 ? say('orders-legend-set', { n: q.set + 1 }) : ''),
      q.options.map((option, i) => h('label', { class: 'choice' },
        h('input', {
          type: 'radio', name, value: String(i), checked: i === q.chosen_index,
          'data-testid': `spell-choice-${q.set}-${i}`,
          onchange: () => onAllocation(q.set, option.casts),
        }),
        h('span', {}, option.label))),
      note);
  }

  function questionFields(q) {
    switch (q.kind) {
      case 'spell_choice':
        return spellChoiceField(q);
      case 'target':
        return selectField({
          label: `${q.name} (${HAND_WORDS[q.hand].toLowerCase()}${setCount > 1 ? `, set ${q.set + 1}` : ''}): cast at`,
          field: `casts.${q.set}.${q.hand}`,
          testid: `target-${q.set}-${q.hand}`,
          options: q.options,
          value: q.chosen,
          onChange: (value) => answer(q, value),
        });
      case 'stab':
        return selectField({
          label: say('orders-stab-whom', { set: setCount > 1 ? q.set + 1 : null }),
          field: 'stab',
          testid: `stab-target-${q.set}`,
          options: q.options,
          value: draft.stab[q.set] || q.default,
          onChange: (value) => answer(q, value),
        });
      case 'monster':
        return selectField({
          label: q.label,
          field: `monsters.${q.monster}`,
          testid: `monster-target-${q.monster}`,
          options: q.options,
          value: model.monsterAnswer(q) || q.default,
          onChange: (value) => answer(q, value),
        });
      case 'charm':
        return [selectField({
          label: q.prompt,
          field: 'charm',
          testid: 'charm-gesture',
          options: q.options.map((g) => ({ id: g, name: gestureLabel(g) })),
          value: draft.charm,
          placeholder: say('orders-choose-a-gesture'),
          onChange: (value) => answer(q, value),
        }), draft.charm === '>' ? selectField({
          label: say('orders-the-charmed-hand-stabs'),
          field: 'charm.target',
          testid: 'charm-stab-target',
          options: q.stab_targets,
          value: draft.charmTarget || q.stab_default,
          onChange: (value) => answer({ kind: 'charm-target' }, value),
        }) : null];
      case 'hand':
        return selectField({
          label: q.prompt,
          field: `hands.${q.id}`,
          testid: `hand-${q.id.replace(':', '-')}`,
          options: q.options.map((o, i) => ({ id: o, name: (q.labels && q.labels[i]) || o })),
          value: (draft.hands && draft.hands[q.id]) || q.chosen,
          onChange: (value) => answer(q, value),
        });
      case 'release':
        return selectField({
          label: say('orders-banked', { spell: q.name }),
          field: 'release',
          testid: 'release-target',
          options: q.options.map((t) => ({ id: t.id, name: say('orders-release-at', { target: t.name }) })),
          value: draft.release,
          placeholder: say('orders-keep-it-banked'),
          onChange: (value) => answer(q, value),
        });
      case 'bank':
      case 'permanent': {
        const key = (o) => `${o.set}:${o.hand}:${o.spell}`;
        const current = draft.flags[q.kind] || q.default;
        return selectField({
          label: q.prompt,
          field: `flags.${q.kind}`,
          testid: `${q.kind}-choice`,
          options: q.options.map((o) => ({ id: key(o), name: `${o.name} (${HAND_WORDS[o.hand].toLowerCase()})` })),
          value: key(current),
          onChange: (value) => answer(q, q.options.find((o) => key(o) === value) || null),
        });
      }
      default:
        // A question this page does not know yet: show it, so the player is not left guessing.
        return h('p', { class: 'warning' }, q.prompt || say('orders-engine-asks', { kind: q.kind }));
    }
  }

  return questionFields;
}
