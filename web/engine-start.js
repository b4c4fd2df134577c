// Starts the engine's worker from the top of index.html, before the stylesheet and the page's own
// module graph (app.js and some 35 modules): the worker's boot is the longest step of loading the
// page, so it goes first (on a warm visit the worker is created 0.1-0.2 s sooner; docs/build.md,
// "Before the engine").  engine.js takes this worker over when the page's modules have arrived
// (`window.__engineLaunch.take()`), with every message and error the worker sent meanwhile, in
// order; where this script did not run, engine.js starts the worker itself.
//
// A classic script with no imports on purpose: a module script would run only after the page
// is parsed and its imports are in.  It comes right after boot-guard.js, which names it should
// it arrive damaged (its integrity is on its tag, like every script of index.html).
'use strict';
(() => {
  let worker;
  try {
    worker = new Worker(new URL('./engine-worker.js', document.baseURI), { type: 'module' });
  } catch {
    return; // engine.js tries again and says what is wrong
  }
  const early = [];
  const keep = (event) => {
    // An error's default (the console's report) would pass before engine.js sees it, which
    // prevents it too and reports the failure in plain words.
    if (event.type === 'error') event.preventDefault();
    early.push(event);
  };
  worker.addEventListener('message', keep);
  worker.addEventListener('error', keep);
  let taken = false;
  window.__engineLaunch = {
    /** The worker and what it said so far (message and error events, in order); null after the first call. */
    take() {
      if (taken) return null;
      taken = true;
      worker.removeEventListener('message', keep);
      worker.removeEventListener('error', keep);
      return { worker, events: early.splice(0) };
    },
    get taken() {
      return taken;
    },
  };
})();
