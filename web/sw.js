// Service worker: after one complete visit the game loads and plays with no network.
//
// build.py prepends `VERSION` (a hash of every file's content), `ENGINE_ID` (the identity of the
// engine whose snapshot the engine worker keeps, web/snapshot-store.js) and `PRECACHE` (every
// file the page and its boot need, relative to this script, with its integrity; the full stdlib
// and the wheels are fetched only if something asks) when it copies this file into the site.  Each
// build gets its own cache, filled completely at install or not at all; at activation the
// older caches of this deployment go, and only those: another copy of the game elsewhere on
// the same origin (two project pages of one user) keeps its own (issue 12.10).  The engine's
// stored snapshot goes with them unless this build's engine is the same (ENGINE_ID).
// Precached files are served cache-first: they can only change together with VERSION, and a
// changed sw.js is what the browser's own update check finds on the next navigation.
/* global VERSION, ENGINE_ID, PRECACHE, PACKED, DECODER, swUnpack */

const SCOPE = new URL("./", self.location).href;
// "wavinghands-<version> <scope>": the scope tells this deployment's caches from another's.
const CACHE = `wavinghands-${VERSION} ${SCOPE}`;
const isOurs = (name) => name.startsWith("wavinghands-") && name.endsWith(` ${SCOPE}`);
// The engine worker's snapshot of this build's engine (web/snapshot-store.js names it so).
const SNAPSHOT_CACHE = `wavinghands-snapshot-${ENGINE_ID} ${SCOPE}`;
const PRECACHED = new Set(PRECACHE.map(([path]) => new URL(path, SCOPE).href));
const INTEGRITY = new Map(PRECACHE.map(([path, integrity]) => [new URL(path, SCOPE).href, integrity]));
const INDEX = new URL("index.html", SCOPE).href;

/** The SRI form (`sha256-<base64>`) of some bytes, to compare with PRECACHE's. */
async function integrityOf(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}

/** The same file from an older version's cache, if its bytes still match; else null. */
async function unchanged(url, integrity) {
  for (const name of await caches.keys()) {
    if (!name.startsWith("wavinghands-") || name === CACHE || name.startsWith("wavinghands-snapshot-")) continue;
    const old = await (await caches.open(name)).match(url);
    if (old && (await integrityOf(await old.clone().arrayBuffer())) === integrity) return old;
  }
  return null;
}

/**
 * Download one file, checked against its integrity.  The HTTP cache is asked first, even if
 * stale: this worker registers after the first boot, which has just fetched most of the site,
 * and a file fetched twice would double a first visit's bytes.  The integrity check is what
 * keeps an old copy out; on a mismatch (a new build) the file is fetched afresh.
 */
async function download(url, integrity) {
  // The page itself was fetched as the scope's URL, not as index.html.
  for (const candidate of url.href === INDEX ? [SCOPE, url] : [url]) {
    try {
      const cached = await fetch(candidate, { cache: "force-cache", integrity });
      if (cached.ok) return cached;
    } catch {
      // A stale copy of another build fails its integrity check: fetch it from the server.
    }
  }
  return fetch(url, { cache: "reload", integrity });
}

/** Whether `response` came with Content-Encoding: br (the browser has decoded it). */
const encodedAsBrotli = (response) =>
  (response.headers.get("Content-Encoding") ?? "").toLowerCase().split(/\s*,\s*/).includes("br");

/**
 * A file that travels packed (PACKED: the wasm, the Python library) when an update changed it:
 * fetched as a first visit's boot fetches it (web/worker-files.js), never whole.  A host that
 * sends the build's `.br` siblings sends it packed under its own name (a HEAD request says so,
 * with no body), and the browser unpacks it; elsewhere its packed form is fetched by its own
 * name and unpacked here by the vendored decoder (web/unpack.js, bundled above as `swUnpack`;
 * its wasm checked before it runs).  The bytes are checked against `integrity` before they are
 * kept.  `decoder()`: the decoder, loaded once per install.
 */
async function unpackedDownload(path, integrity, decoder) {
  const url = new URL(path, SCOPE);
  const entry = { url: path, integrity, packed: PACKED[path] };
  const head = await fetch(url, { method: "HEAD", cache: "no-store" }).catch(() => null);
  let bytes;
  if (head !== null && head.ok && encodedAsBrotli(head)) {
    const response = await fetch(url, { cache: "no-cache" });
    if (!response.ok) throw new Error(`precaching ${path}: HTTP ${response.status}`);
    bytes = new Uint8Array(await response.arrayBuffer());
  } else {
    const [response] = await Promise.all([fetch(new URL(entry.packed.url, SCOPE), { cache: "no-cache" }), decoder()]);
    if (!response.ok || !response.body) throw new Error(`precaching ${entry.packed.url}: HTTP ${response.status}`);
    bytes = await swUnpack.readAll(new Response(response.body.pipeThrough(swUnpack.unpacking(entry))), () => {});
  }
  if ((await integrityOf(bytes)) !== integrity) throw new Error(`precaching ${path}: its bytes do not match this build`);
  const type = path.endsWith(".wasm") ? "application/wasm" : "application/zip";
  return new Response(bytes, { headers: { "Content-Type": type, "Content-Length": String(bytes.length) } });
}

/** The brotli decoder for unpackedDownload, loaded (and checked) on first use only. */
function decoderOnce() {
  const loaded = { promise: null };
  return () => {
    loaded.promise ??= swUnpack.loadDecoder(DECODER, (url) => fetch(new URL(url, SCOPE), { cache: "no-cache" }), () => {});
    return loaded.promise;
  };
}

/** Get one file of the build (reused from an older cache or downloaded), check it, store it. */
async function precache(cache, path, integrity, decoder) {
  const url = new URL(path, SCOPE);
  // An update re-downloads only what changed: Pyodide's ~14 MB rarely does, the library (the
  // engine is in it) often; either travels packed.
  const response =
    (await unchanged(url, integrity)) ??
    (path in PACKED ? await unpackedDownload(path, integrity, decoder) : await download(url, integrity));
  if (!response.ok) throw new Error(`precaching ${path}: HTTP ${response.status}`);
  await cache.put(url, response);
}

/** A URLPattern init matching exactly `url` (any query: the site's files are asked for without one). */
function exactly(url) {
  const literal = (text) => text.replace(/[\\:*?+(){}]/g, (c) => `\\${c}`);
  return { protocol: url.protocol.slice(0, -1), hostname: url.hostname, port: url.port, pathname: literal(url.pathname) };
}

/**
 * Static routes (InstallEvent.addRoutes, Chromium 123 on): the browser answers a request for a
 * precached file from this build's cache itself, without running the fetch handler below.  A
 * warm visit asks for some 45 of them (the page's modules, the engine worker's scripts,
 * Pyodide's files), which otherwise queue one by one on this worker's thread, in front of the
 * engine's boot (docs/build.md, "A first visit", seventh round).  A file missing from the cache
 * (a damaged copy dropped, web/integrity.js) goes to the network, and the next navigation puts
 * a good copy back (repairCache below).  Navigations stay with the fetch handler (a link with a turn code opens
 * index.html).  Without the API, or if the browser refuses the routes, the fetch handler
 * answers everything, as before.
 */
async function addRoutes(event) {
  if (typeof event.addRoutes !== "function") return;
  const files = [...PRECACHED].filter((href) => href !== INDEX).map((href) => new URL(href));
  try {
    await event.addRoutes(files.map((url) => ({
      condition: { urlPattern: exactly(url), requestMethod: "GET" },
      source: { cacheName: CACHE },
    })));
  } catch (error) {
    console.warn("static routes refused; the fetch handler answers every request:", error);
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      await addRoutes(event);
      const cache = await caches.open(CACHE);
      try {
        const decoder = decoderOnce();
        await Promise.all(PRECACHE.map(([path, integrity]) => precache(cache, path, integrity, decoder)));
      } catch (error) {
        // A failed install leaves nothing behind: a half-filled cache would be taken for a
        // whole one by nobody, but it holds megabytes until the next build's activation.
        await caches.delete(CACHE);
        throw error;
      }
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name === CACHE || name === SNAPSHOT_CACHE) continue;
        if (isOurs(name) || (await isOldNameOfOurs(name))) await caches.delete(name);
      }
      // Take over the page that installed us, so it too works offline from now on.
      await self.clients.claim();
    })(),
  );
});

/** A cache named the way builds before scoped names did ("wavinghands-<version>"), holding this deployment's page. */
async function isOldNameOfOurs(name) {
  if (!/^wavinghands-[^ ]+$/.test(name)) return false;
  return Boolean(await (await caches.open(name)).match(INDEX));
}

/** The precached URL a request stands for, or null when it is not one of the site's files. */
function precachedUrl(request) {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  url.hash = "";
  if (request.mode === "navigate" && url.href.startsWith(SCOPE)) {
    // Links into the game (e.g. a turn code in the query) all open the one page.
    url.search = "";
    if (url.href === SCOPE) return INDEX;
  }
  return PRECACHED.has(url.href) ? url.href : null;
}

/**
 * A precached file missing from the cache: the page or the engine worker dropped a damaged copy
 * (web/integrity.js).  Fetch it afresh, checked, and keep it, so the site works offline again;
 * if the server's copy does not match either, hand that over as it is: the page names it.
 */
async function refill(url, request) {
  if (request.mode === "navigate" || !(await caches.has(CACHE))) return fetch(request);
  try {
    const fresh = await fetch(url, { cache: "reload", integrity: INTEGRITY.get(url) });
    if (fresh.ok) await (await caches.open(CACHE)).put(url, fresh.clone());
    return fresh;
  } catch {
    return fetch(request);
  }
}

/**
 * Put back every precached file missing from this build's cache (a damaged copy the page or the
 * engine worker dropped, web/integrity.js), each checked against its integrity.  Run on every
 * navigation, in the background: the static routes above send a missing file straight to the
 * network, past the fetch handler, and a page that dropped a file cannot refill it itself (the
 * reload its message asks for cancels the page's own downloads), so this worker, which outlives
 * the page, does.  Listing the cache's ~45 keys costs a few milliseconds of this worker's time.
 * One repair at a time: a navigation during one joins it.
 */
function repairer() {
  const running = { repair: null };
  return () => {
    running.repair ??= (async () => {
      if (!(await caches.has(CACHE))) return; // not installed completely: nothing to repair
      const cache = await caches.open(CACHE);
      const held = new Set((await cache.keys()).map((request) => request.url));
      const decoder = decoderOnce();
      await Promise.all([...PRECACHED].filter((url) => !held.has(url)).map(async (url) => {
        try {
          const path = url.slice(SCOPE.length);
          const fresh = path in PACKED
            ? await unpackedDownload(path, INTEGRITY.get(url), decoder)
            : await download(new URL(url), INTEGRITY.get(url));
          if (fresh.ok) await cache.put(url, fresh);
        } catch {
          // Offline, or the server's copy is damaged too: the next navigation tries again.
        }
      }));
    })().finally(() => {
      running.repair = null;
    });
    return running.repair;
  };
}

const repairCache = repairer();

self.addEventListener("fetch", (event) => {
  const url = precachedUrl(event.request);
  if (url === null) return;
  event.respondWith(
    (async () => {
      const cached = await caches.match(url, { cacheName: CACHE });
      return cached ?? (await refill(url, event.request));
    })(),
  );
  if (event.request.mode === "navigate") event.waitUntil(repairCache());
});
