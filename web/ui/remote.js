// The pieces of remote play a player touches: a code to send (copy, link, share), the box to
// paste the opponent's code or link into, what went wrong with a pasted code, the codes already
// sent, the invitation dialog, the join box of the start screen, and the board shown while
// waiting. Every sentence about the game comes from the session or the engine; these only draw.

import { h, named } from './dom.js';
import { MAX_PASTE_CHARS, textProblem } from '../limits.js';
import { openDialog } from './dialog.js';
import { renderHistories, renderStatus } from './board.js';
import { battleLog } from './log.js';
import { renderOutcome } from './duel.js';
import { sceneCard } from './scene/card.js';
import { savedDuelsButton } from './saved.js';
import { hasWords, say, sayError } from './words/index.js';

// Headings for the session's error codes (docs/protocol.md, "Checks on receipt"); the engine's
// own message follows each, saying what to do.

/** sentence(text) -> text with a capital first letter and a full stop: the engine's messages start in lower case. */
export function sentence(text) {
  const s = String(text || '').trim();
  if (!s) return '';
  const first = s[0].toUpperCase() + s.slice(1);
  return /[.!?…]$/.test(first) ? first : `${first}.`;
}

/**
 * notACode(text, from, {titled}) -> the words for pasted text that holds no Waving Hands code at
 * all (the engine refused it, and no part of it looks like one): what it is instead, in a
 * player's words, and what the box takes. from: whose code the box expects ("your friend", a
 * name); titled: the words go under the heading "This is not a Waving Hands code".
 */
export function notACode(text, from, { titled = false } = {}) {
  const trimmed = String(text || '').trim();
  const takes = say('remote-paste-takes', { from });
  let site = null;
  try {
    const url = new URL(trimmed);
    if (/^https?:$/.test(url.protocol)) site = url.host;
  } catch {
    // Not a link at all.
  }
  const excerpt = trimmed.length > 40 ? `${trimmed.slice(0, 40)}…` : trimmed;
  if (site) return `${say(titled ? 'remote-is-link-titled' : 'remote-is-link', { site })} ${takes}`;
  return `${say(titled ? 'remote-reads-titled' : 'remote-reads', { excerpt })} ${takes}`;
}

async function copyText(text, fallbackNode) {
  try {
    await navigator.clipboard.writeText(text);
    return 'Copied.';
  } catch {
    // No clipboard permission (or an old browser): select it so the player can copy by hand.
    if (fallbackNode) {
      const range = document.createRange();
      range.selectNodeContents(fallbackNode);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
    }
    return say('remote-selected-copy');
  }
}

const SVG = 'http://www.w3.org/2000/svg';

/** qrFigure(matrix, text) -> an <svg> of a QR matrix ({size, data: boolean[][]}), built node by node. */
export function qrFigure({ size, data }, text) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('class', 'qr');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', say('remote-qr-of', { what: text.length > 60 ? say('remote-qr-the-link') : text }));
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.dataset.size = String(size);
  const back = document.createElementNS(SVG, 'rect');
  back.setAttribute('width', String(size));
  back.setAttribute('height', String(size));
  back.setAttribute('fill', '#fff');
  const dark = document.createElementNS(SVG, 'path');
  let d = '';
  data.forEach((row, y) => row.forEach((on, x) => { if (on) d += `M${x} ${y}h1v1h-1z`; }));
  dark.setAttribute('d', d);
  dark.setAttribute('fill', '#000');
  svg.append(back, dark);
  return svg;
}

// The QR block of a code: drawn on first opening (the generator is loaded only then).
function qrBlock(text, qr, testid) {
  const holder = h('div', { class: 'qr-holder', 'data-testid': `${testid}-qr` });
  const box = h('details', { class: 'qr-box' },
    h('summary', { 'data-testid': `${testid}-qr-open` }, say('remote-qr-show')), holder);
  box.addEventListener('toggle', async () => {
    if (!box.open || holder.firstChild) return;
    const r = await qr(text);
    holder.append(r.ok ? qrFigure(r.matrix, text) : h('p', { class: 'muted' }, sentence(sayError(r.error))));
  });
  return box;
}

/**
 * codeBlock({code, link, lead, testid, shareText, primary, qr}) -> a code to send with Copy code,
 * Copy link and (where the platform has it) Share buttons; `testid` names the code element.
 * qr(text) -> Promise<{ok, matrix} | {ok: false, error}>, when given, adds a QR code of the link
 * (or of the code without one).
 */
export function codeBlock({ code, link = null, lead = '', testid = 'remote-code', shareText = say('remote-share-move'), primary = true, qr = null }) {
  const said = h('span', { class: 'muted copy-status', role: 'status', 'data-testid': `${testid}-copied` });
  const text = h('code', { class: 'code-text', 'data-testid': testid, tabindex: '0', 'aria-label': say('remote-the-code') }, code);
  const linkText = link ? h('span', { class: 'link-text', 'data-testid': `${testid}-link` }, link) : null;
  const copy = async (what, node) => { said.textContent = await copyText(what, node); };
  const buttons = [
    h('button', { type: 'button', class: primary ? 'primary' : '', 'data-testid': `${testid}-copy`, onclick: () => copy(code, text) }, say('remote-copy-code')),
    link ? h('button', { type: 'button', 'data-testid': `${testid}-copy-link`, onclick: () => copy(link, linkText) }, say('remote-copy-link')) : null,
  ];
  if (typeof navigator.share === 'function') {
    buttons.push(h('button', {
      type: 'button', 'data-testid': `${testid}-share`,
      onclick: async () => {
        try {
          await navigator.share(link ? { title: say('game-title'), text: shareText, url: link } : { title: say('game-title'), text: code });
        } catch (err) {
          // The player closing the share sheet is not an error worth a word.
          if (err && err.name !== 'AbortError') said.textContent = say('remote-share-failed');
        }
      },
    }, 'Share…'));
  }
  return h('div', { class: 'code-block' },
    lead ? h('p', { class: 'code-lead' }, lead) : null,
    text,
    link ? h('p', { class: 'code-link muted' }, say('remote-or-link'), linkText) : null,
    h('div', { class: 'actions' }, buttons, said),
    qr ? qrBlock(link || code, qr, testid) : null);
}

/**
 * pasteBox({id, label, hint, button, testid, onSubmit}) -> a box for a pasted code or link;
 * onSubmit(text) -> Promise<boolean> (true: it was used, so the box empties).
 */
export function pasteBox({ id, label, hint = '', button = say('remote-apply'), testid, onSubmit, placeholder = say('remote-paste-placeholder') }) {
  const scan = scanButton((text) => {
    area.value = text;
    submit();
  }, testid);
  const area = h('textarea', {
    id, class: 'paste-text', rows: '2', 'data-testid': testid, placeholder, spellcheck: 'false', autocomplete: 'off',
    autocapitalize: 'off', 'aria-describedby': hint ? `${id}-hint` : null,
  });
  const go = h('button', { type: 'button', class: 'primary', 'data-testid': `${testid}-apply` }, button);
  const tooLong = h('p', { class: 'problem', role: 'alert', 'data-testid': `${testid}-too-long`, hidden: true });
  let busy = false;
  const submit = async () => {
    if (busy) return;
    // A code, a link or a connection code is a few kilobytes: refuse a huge paste at once
    // rather than freeze the page reading it (issue 12.9).
    const problem = textProblem(area.value, 'paste', MAX_PASTE_CHARS);
    tooLong.hidden = !problem;
    if (problem) { tooLong.textContent = say(`text-${problem.code}`, { ...problem, what: say('text-what-paste') }); return; }
    busy = true;
    go.disabled = true;
    try {
      if (await onSubmit(area.value)) area.value = '';
    } finally {
      busy = false;
      go.disabled = false;
    }
  };
  go.addEventListener('click', submit);
  area.addEventListener('keydown', (event) => {
    // Codes hold no line breaks, so Enter can mean "use it", as in a chat box.
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      submit();
    }
  });
  return h('div', { class: 'paste-box field' },
    h('label', { for: id }, label),
    hint ? h('small', { id: `${id}-hint`, class: 'muted' }, hint) : null,
    h('div', { class: 'paste-row' }, area, go, scan), tooLong);
}

const SCAN_EVERY_MS = 250;
const SCAN_FOR_MS = 120000;

/**
 * scanButton(onText, testid) -> a "Scan a QR code" button that reads one QR code with the camera,
 * or null where the browser offers no BarcodeDetector for QR codes (or no camera API).
 */
export function scanButton(onText, testid) {
  if (typeof window.BarcodeDetector !== 'function' || !navigator.mediaDevices?.getUserMedia) return null;
  const button = h('button', { type: 'button', 'data-testid': `${testid}-scan` }, say('remote-scan'));
  button.addEventListener('click', async () => {
    let stream = null;
    let handle = null;
    let timer = null;
    const stop = () => {
      clearInterval(timer);
      if (stream) stream.getTracks().forEach((t) => t.stop());
      stream = null;
    };
    try {
      const formats = await window.BarcodeDetector.getSupportedFormats();
      if (!formats.includes('qr_code')) throw new Error('this browser cannot read QR codes');
      const detector = new window.BarcodeDetector({ formats: ['qr_code'] });
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
      const video = h('video', { class: 'scan-video', 'data-testid': 'scan-video', playsinline: true, muted: true });
      video.srcObject = stream;
      await video.play();
      handle = openDialog({ title: say('remote-scan-title'), testid: 'scan', body: video, onClose: stop });
      const started = Date.now();
      timer = setInterval(async () => {
        if (Date.now() - started > SCAN_FOR_MS) {
          stop();
          handle.close();
          return;
        }
        const found = await detector.detect(video).catch(() => []);
        const text = found.length ? found[0].rawValue : '';
        if (text) {
          stop();
          handle.close();
          onText(text);
        }
      }, SCAN_EVERY_MS);
    } catch (err) {
      stop();
      if (handle) handle.close();
      button.textContent = say('remote-scan-failed', { detail: (err && err.message) || err });
      button.disabled = true;
    }
  });
  return button;
}

/**
 * feedbackBox(feedback) -> what the last pasted code did, or null. feedback: {kind: 'error', code,
 * message, extra?} (extra: elements such as a button), {kind: 'note'|'info', message}.
 */
export function feedbackBox(feedback) {
  if (!feedback) return null;
  if (feedback.kind === 'error') {
    const title = (hasWords(`remote-title-${feedback.code}`) ? say(`remote-title-${feedback.code}`) : null) || feedback.title || say('remote-title-unusable');
    return h('div', { class: 'feedback error', role: 'alert', 'data-testid': 'remote-error', 'data-code': feedback.code || '' },
      h('strong', {}, title),
      h('p', {}, sentence(feedback.message)),
      feedback.unchanged === false ? null : h('p', { class: 'muted' }, say('remote-unchanged')),
      feedback.extra || null);
  }
  return h('div', { class: `feedback ${feedback.kind}`, role: 'status', 'data-testid': 'remote-note' }, sentence(feedback.message));
}

/** sentList(codes, opponent) -> the codes this side has sent, newest first, each to copy again. */
export function sentList(codes, opponent) {
  if (!codes.length) return null;
  const items = codes.map((code, i) => ({ code, i })).reverse().map(({ code, i }) => {
    const last = i === codes.length - 1;
    const said = h('span', { class: 'muted copy-status', role: 'status' });
    const text = h('code', { class: 'code-text small' }, code);
    return h('li', { 'data-testid': last ? 'sent-last' : null },
      h('span', { class: 'sent-index' }, say('remote-sent-index', { n: i + 1, last })), text,
      h('button', {
        type: 'button', class: 'tool', 'data-testid': last ? 'copy-last' : null,
        onclick: async () => { said.textContent = await copyText(code, text); },
      }, say(last ? 'remote-copy-again' : 'remote-copy')), said);
  });
  return h('details', { class: 'panel sent-codes', 'data-testid': 'codes-sent' },
    h('summary', {}, say('remote-sent-title', { n: codes.length })),
    h('p', { class: 'muted' }, named(say('remote-sent-again', { opp: opponent }))),
    h('ol', { class: 'sent-list', reversed: true }, items));
}

/** remoteHead({title, tag, onHome}) -> the heading row of a remote screen that has no duel screen of its own. */
export function remoteHead({ title, tag, onHome }) {
  return h('div', { class: 'duel-head' },
    h('h1', { tabindex: '-1' }, title),
    tag ? h('span', { class: 'phase-tag', 'data-testid': 'phase-tag' }, tag) : null,
    savedDuelsButton(onHome));
}

/**
 * boardView(view, seen) -> {element, showChat(chat)}: the board while waiting: what happened lately, both
 * wizards, histories and the battle log (folded), into whose time line showChat puts a live duel's chat.
 */
export function boardView(view, seen) {
  const log = battleLog(view, { open: false, wrap: 'log-wrap' });
  // The battle scene while waiting too (issue 27), playing what is new since the last orders.
  const scene = sceneCard(view, { events: view.log.slice((seen && seen.log) || 0) });
  const element = h('div', {}, scene.element, h('div', { class: 'duel' },
    h('div', { class: 'duel-board' }, renderStatus(view), renderHistories(view)),
    h('div', { class: 'duel-board' }, renderOutcome(view, seen), log.element)));
  return { element, showChat: log.showChat };
}

/**
 * iceSettings({ice, defaultStun, onIce}) -> the live connection settings: the STUN servers (the
 * page's defaults until changed; empty: no server at all) and one TURN relay (URL, user name,
 * password). ice: {stun: text | null (the defaults), turn: {url, username, credential} | null};
 * onIce({stun?, turn?}) saves what changed (stun null: back to the defaults).
 */
export function iceSettings({ ice = {}, defaultStun = '', onIce }) {
  const tag = Math.random().toString(36).slice(2, 8);
  const stun = ice.stun ?? null;
  const turn = ice.turn || {};
  const stunInput = h('input', {
    type: 'text', id: `stun-${tag}`, 'data-testid': 'stun-servers', value: stun === null ? defaultStun : stun,
    placeholder: say('live-stun-placeholder'), autocomplete: 'off', spellcheck: 'false',
    onchange: () => onIce({ stun: stunInput.value.trim() }),
  });
  const restore = h('button', {
    type: 'button', class: 'tool', 'data-testid': 'stun-defaults', hidden: stun === null,
    onclick: () => { stunInput.value = defaultStun; restore.hidden = true; onIce({ stun: null }); },
  }, say('live-stun-defaults'));
  stunInput.addEventListener('input', () => { restore.hidden = false; });
  const field = (key, label, type, testid) => {
    const input = h('input', {
      type, id: `turn-${key}-${tag}`, 'data-testid': testid, value: turn[key] || '', autocomplete: 'off', spellcheck: 'false',
      onchange: () => onIce({ turn: { ...readTurn(), [key]: input.value } }),
    });
    return { input, node: h('div', { class: 'field' }, h('label', { for: input.id }, label), input) };
  };
  const url = field('url', say('live-turn-url'), 'text', 'turn-url');
  url.input.placeholder = 'turn:turn.example.org:3478';
  const user = field('username', say('live-turn-username'), 'text', 'turn-username');
  const pass = field('credential', say('live-turn-password'), 'password', 'turn-credential');
  function readTurn() {
    return { url: url.input.value.trim(), username: user.input.value.trim(), credential: pass.input.value };
  }
  const changed = stun !== null || Boolean(turn.url);
  return h('details', { class: 'live-settings', 'data-testid': 'live-settings', open: changed },
    h('summary', {}, say('live-settings')),
    h('div', { class: 'field' },
      h('label', { for: stunInput.id }, say('live-stun-servers')), stunInput,
      h('small', { class: 'muted' }, say('live-stun-help')),
      restore),
    url.node, user.node, pass.node,
    h('small', { class: 'muted' }, say('live-turn-help')));
}

/** pending(message) -> a busy line for work that takes a moment (e.g. gathering network addresses). */
export function pending(message) {
  return h('p', { class: 'muted busy', role: 'status', 'aria-busy': 'true' }, message);
}
