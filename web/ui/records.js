// Export and import of game records (the engine's record format): download or copy the record,
// upload a file or paste text. Reading a record is the engine's job; this is the paperwork.

import { h } from './dom.js';
import { say } from './words/index.js';
import { openDialog } from './dialog.js';
import { MAX_RECORD_BYTES, textProblem } from '../limits.js';

// Saves text as a file through the browser's own download.
function downloadText(filename, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = h('a', { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// A file name such as "waving-hands-alice-vs-bob-2024-05-01.json".
function recordFileName(names) {
  const slug = (s) => s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'wizard';
  const date = new Date().toISOString().slice(0, 10);
  return `waving-hands-${slug(names[0])}-vs-${slug(names[1])}-${date}.json`;
}

/** openExport({record, names}) shows the record to download or copy. */
export function openExport({ record, names }) {
  const text = JSON.stringify(record, null, 2);
  const filename = recordFileName(names);
  const status = h('p', { class: 'muted', role: 'status' });
  const area = h('textarea', { readonly: true, rows: '10', 'data-testid': 'export-text', 'aria-label': say('records-the-game-record') });
  area.value = text;
  const body = [
    h('p', {}, say('records-the-record-holds-every-order')),
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'primary', 'data-testid': 'export-download', onclick: () => { downloadText(filename, text); status.textContent = say('records-saved-as', { filename }); } }, say('saved-download-the-record')),
      h('button', {
        type: 'button', 'data-testid': 'export-copy',
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(text);
            status.textContent = 'Copied.';
          } catch {
            area.select();
            status.textContent = say('records-select-all-is-done-copy');
          }
        },
      }, say('records-copy'))),
    status,
    area,
  ];
  return openDialog({ title: say('records-export-the-record'), testid: 'export', body });
}

// What the import box takes, said to a player whose paste the engine refused.
/**
 * recordRefusal(text, error) -> the import box's words for text the engine refused as a record
 * (error: its {code, message}): what was pasted, in a player's words, and what the box takes.
 * The engine decides what a record is; this only names what it got instead.
 */
export function recordRefusal(text, error) {
  const trimmed = text.trim();
  const start = trimmed[0];
  if (start === '{' || start === '[') {
    try {
      JSON.parse(trimmed);
    } catch {
      // Only to choose the words: the engine has refused it already.
      return say('record-cut-short');
    }
    // A whole block the engine still refused: its own sentence says what is wrong with it.
    return say('record-refused', { message: error.message });
  }
  let site = null;
  try {
    const url = new URL(trimmed);
    if (/^https?:$/.test(url.protocol)) site = url.host;
  } catch {
    // Not a link at all.
  }
  if (site) return say('record-is-link', { site });
  return say('record-is-not', { excerpt: trimmed.length > 40 ? `${trimmed.slice(0, 40)}…` : trimmed });
}

/**
 * openImport({modes, onImport(text, mode) -> Promise<string|null>}) asks for a record (file or paste);
 * onImport returns an error message to show, or null once the duel is loaded.
 */
export function openImport({ modes, onImport }) {
  const error = h('p', { class: 'problem', role: 'alert', 'data-testid': 'import-error', hidden: true });
  const area = h('textarea', {
    id: 'import-text', rows: '8', 'data-testid': 'import-text', placeholder: '{"format": "wavinghands-record", …}',
    oninput: () => { error.hidden = true; },
  });
  const file = h('input', {
    type: 'file', id: 'import-file', accept: '.json,application/json,text/plain', 'data-testid': 'import-file',
    onchange: async () => {
      const chosen = file.files && file.files[0];
      if (chosen && chosen.size > MAX_RECORD_BYTES) {
        // Measured before reading: a huge file must not freeze the page (issue 12.9), nor
        // fill the browser's storage with one duel (issue 12.2).
        error.hidden = false;
        error.textContent = say('records-file-too-large', { bytes: chosen.size, max: MAX_RECORD_BYTES });
        file.value = '';
      } else if (chosen) {
        area.value = await chosen.text();
        error.hidden = true;
      }
    },
  });
  const modeSelect = h('select', { id: 'import-mode', 'data-testid': 'import-mode' },
    modes.map((m) => h('option', { value: m.id }, m.label)));
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'import-submit' }, say('records-load-the-duel'));
  let dialogHandle = null;
  const form = h('form', {
    onsubmit: async (event) => {
      event.preventDefault();
      const text = area.value.trim();
      if (!text) {
        error.hidden = false;
        error.textContent = say('records-choose-a-record-file-or');
        area.focus();
        return;
      }
      const bytes = new Blob([text]).size;
      const tooLarge = bytes > MAX_RECORD_BYTES ? say('records-too-large', { bytes, max: MAX_RECORD_BYTES }) : null;
      const problem = tooLarge ? null : textProblem(text, 'record');
      if (tooLarge || problem) {
        error.hidden = false;
        error.textContent = tooLarge || say(`text-${problem.code}`, { ...problem, what: say('text-what-record') });
        return;
      }
      submit.disabled = true;
      const message = await onImport(text, modeSelect.value);
      submit.disabled = false;
      if (message) {
        error.hidden = false;
        error.textContent = message;
        area.focus();
      } else {
        dialogHandle.close();
      }
    },
  },
  h('div', { class: 'field' }, h('label', { for: 'import-file' }, say('records-a-record-file')), file),
  h('div', { class: 'field' }, h('label', { for: 'import-text' }, say('records-or-paste')), area),
  h('div', { class: 'field' }, h('label', { for: 'import-mode' }, say('records-play-on-as')), modeSelect),
  error,
  h('div', { class: 'actions' }, submit));
  dialogHandle = openDialog({ title: say('records-import-a-record'), testid: 'import', body: [h('p', {}, say('records-the-engine-replays-the-record')), form] });
  return dialogHandle;
}
