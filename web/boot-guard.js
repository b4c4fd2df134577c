// The page's own modules are loaded with the integrity index.html gives each (build.py writes
// it): a damaged one fails to load, and with it the whole app, which would leave the page on
// "Preparing the spellbook…" for ever (issue 12, finding 7).  This classic script runs first and
// watches for that: on the first script or module that fails to load, it checks every file
// index.html lists against its integrity, drops a damaged copy from this deployment's caches
// (so a reload fetches it afresh), and says which file is damaged and what to do.
//
// It is a classic script with no imports on purpose: it must work when any module is the damaged
// file.  It duplicates the few lines of web/integrity.js it needs for the same reason.
'use strict';
(() => {
  const SITE = new URL('./', document.baseURI).href;
  let diagnosed = false;

  /** The SRI form (`sha256-<base64>`) of some bytes. */
  async function integrityOf(bytes) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    let binary = '';
    for (const byte of digest) binary += String.fromCharCode(byte);
    return `sha256-${btoa(binary)}`;
  }

  /**
   * Drop a damaged copy from this deployment's service-worker caches: a reload then fetches it
   * afresh, and sw.js puts a good copy back on that navigation (offline play needs it).
   */
  async function forget(url) {
    try {
      for (const name of await caches.keys()) {
        if (!name.startsWith('wavinghands-') || !name.endsWith(` ${SITE}`)) continue;
        await (await caches.open(name)).delete(url);
      }
    } catch {
      // Best effort: the message tells the player to reload either way.
    }
  }

  /** Every file index.html loads with integrity: [site path, url, expected integrity]. */
  function listed() {
    return [...document.querySelectorAll('script[integrity][src], link[integrity][href]')].map((el) => {
      const url = new URL(el.getAttribute('src') || el.getAttribute('href'), document.baseURI).href;
      return [url.startsWith(SITE) ? url.slice(SITE.length) : url, url, el.getAttribute('integrity')];
    });
  }

  /** [damaged paths, paths that could not be fetched] among the listed files. */
  async function diagnose() {
    const damaged = [];
    const missing = [];
    await Promise.all(listed().map(async ([path, url, expected]) => {
      try {
        const response = await fetch(url);
        if (!response.ok) {
          missing.push(path);
        } else if ((await integrityOf(await response.arrayBuffer())) !== expected) {
          damaged.push(path);
          await forget(url);
        }
      } catch {
        missing.push(path);
      }
    }));
    return [damaged.sort(), missing.sort()];
  }

  /** Replace the engine status line with `sentence` and a Reload button. */
  function tell(sentence, damaged) {
    const box = document.getElementById('engine-status');
    if (!box) return;
    box.dataset.state = 'error';
    box.dataset.damaged = damaged.join(' ');
    box.setAttribute('role', 'alert');
    const text = document.createElement('span');
    text.className = 'engine-status-text';
    text.textContent = sentence;
    const reload = document.createElement('button');
    reload.type = 'button';
    reload.className = 'tool';
    reload.textContent = 'Reload';
    reload.addEventListener('click', () => location.reload());
    box.replaceChildren(text, reload);
    const note = document.querySelector('#screen .boot-note');
    if (note) note.textContent = 'The game could not start: see the message above.';
  }

  async function onLoadFailure() {
    if (diagnosed) return;
    diagnosed = true;
    const [damaged, missing] = await diagnose();
    if (damaged.length) {
      const names = damaged.map((p) => `"${p}"`).join(', ');
      tell(
        `The game's ${damaged.length === 1 ? 'file' : 'files'} ${names} arrived damaged ` +
          '(not the contents of this version of the game). Reload the page to fetch ' +
          `${damaged.length === 1 ? 'it' : 'them'} again; if this message comes back, the site's own copy is damaged: ` +
          'try again later, or tell whoever runs the site.',
        damaged,
      );
    } else {
      const which = missing.length ? ` (${missing.map((p) => `"${p}"`).join(', ')})` : '';
      tell(`Some of the game's files could not be loaded${which}. Check the connection and reload the page.`, []);
    }
  }

  // A script or module preload that fails (integrity mismatch, network) fires `error` on its
  // element, which does not bubble: listen in the capture phase.
  document.addEventListener('error', (event) => {
    const el = event.target;
    if ((el instanceof HTMLScriptElement || el instanceof HTMLLinkElement) && el.hasAttribute('integrity')) {
      onLoadFailure();
    }
  }, true);
})();
