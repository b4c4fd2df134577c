// Registers sw.js, the service worker that makes the game work offline after one visit.
// Include once from index.html:  <script type="module" src="sw-register.js"></script>
//
// Registration waits until the engine has booted (or failed), so that filling the offline
// cache (the whole site, mostly Pyodide) does not compete with the first boot for bandwidth
// and CPU.  `window.__offlineReady` resolves once the page is controlled by an activated
// service worker, i.e. once a reload would work with no network.

const REGISTER_FALLBACK_MS = 10_000;

/** Resolve after the engine's boot settles, or after a fallback delay on pages without it. */
function engineSettled() {
  const fallback = new Promise((resolve) => setTimeout(resolve, REGISTER_FALLBACK_MS));
  const ready = window.__engineReady ? window.__engineReady.catch(() => {}) : fallback;
  return Promise.race([ready, fallback]);
}

/** Resolve when `worker` activates; reject if it is discarded (e.g. a file failed its check). */
function activation(worker) {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (worker.state === "activated") resolve();
      else if (worker.state === "redundant") reject(new Error("the offline copy could not be saved"));
    };
    worker.addEventListener("statechange", check);
    check();
  });
}

/** Register the service worker; resolves when it controls this page, rejects if it cannot. */
async function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) throw new Error("this browser has no service workers");
  await engineSettled();
  const registration = await navigator.serviceWorker.register(new URL("./sw.js", import.meta.url), {
    scope: "./",
  });
  const pending = registration.installing || registration.waiting;
  if (pending) await activation(pending);
  if (!navigator.serviceWorker.controller) {
    // sw.js claims its clients on activation; the event may still be on its way.
    await new Promise((resolve) =>
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }),
    );
  }
}

// A new build: the browser finds a changed sw.js when the page is opened; its worker installs
// beside this page and takes over (sw.js skips waiting).  This page keeps running the version it
// loaded, with its engine already started, so a duel in progress goes on; it is only told that
// the next start will bring the new version (`wavinghands:update-ready`, window.__updateReady).
if ("serviceWorker" in navigator) {
  const hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!hadController || window.__updateReady) return;
    window.__updateReady = true;
    window.dispatchEvent(new CustomEvent("wavinghands:update-ready"));
  });
}

window.__offlineReady = registerServiceWorker();
window.__offlineReady.catch((err) => console.warn("offline play unavailable:", err.message));
