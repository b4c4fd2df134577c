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

/** Register the service worker; resolves when it controls this page, rejects if unsupported. */
async function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) throw new Error("this browser has no service workers");
  await engineSettled();
  await navigator.serviceWorker.register(new URL("./sw.js", import.meta.url), { scope: "./" });
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) =>
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }),
    );
  }
}

window.__offlineReady = registerServiceWorker();
window.__offlineReady.catch((err) => console.warn("offline play unavailable:", err.message));
