// Which STUN and TURN servers a live connection uses (docs/webrtc.md, "ICE servers"), and what the
// candidates of a connection say about the NATs in between. Pure: no network, no storage, so it
// also runs under Node. The player's settings, the site's ice.json and the defaults below are
// merged here into one RTCPeerConnection iceServers list.

import { parseIceServers } from './codec-rtc.js';

/**
 * Public STUN servers used when the player has not changed the STUN field and the site's ice.json
 * names none. Two operators, so one being down does not stop gathering; at least two distinct
 * servers also let a page notice a NAT that maps each destination to a new port (symmetric).
 */
export const DEFAULT_STUN = Object.freeze([
  'stun:stun.l.google.com:19302',
  'stun:stun1.l.google.com:19302',
  'stun:stun.cloudflare.com:3478',
]);

const TURN_URL_RE = /^turns?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?(\?transport=(udp|tcp))?$/;
const MAX_FIELD = 256;

function fail(code, message) {
  return { ok: false, error: { code, message } };
}

/**
 * parseTurn({url, username, credential}) -> {ok, server} (server null when all three are empty),
 * or an error value saying which field is wrong. A TURN relay always needs a user name and a
 * credential (coturn's long-term credentials).
 */
export function parseTurn(turn) {
  const url = String(turn?.url ?? '').trim();
  const username = String(turn?.username ?? '').trim();
  const credential = String(turn?.credential ?? '');
  if (!url && !username && !credential) return { ok: true, server: null };
  const m = TURN_URL_RE.exec(url);
  const port = m && m[2] !== undefined ? Number(m[2]) : 3478;
  if (!m || port < 1 || port > 65535) {
    return fail('bad-turn-url', `\u201c${url}\u201d is not a TURN server address (expected e.g. turn:turn.example.org:3478).`);
  }
  if (!username || !credential) {
    return fail('bad-turn-login', 'A TURN server needs both its user name and its password (credential).');
  }
  if (username.length > MAX_FIELD || credential.length > MAX_FIELD) {
    return fail('bad-turn-login', 'The TURN user name or password is too long.');
  }
  return { ok: true, server: { urls: [url], username, credential } };
}

/**
 * parseSiteIce(value) -> {ok, stun: [urls] | null, turn: [RTCIceServer]} from the parsed JSON of
 * the site's ice.json ({"stun": ["stun:…"] | null, "turn": [{"urls", "username", "credential"}]}),
 * or an error value. `stun` null (or absent) means the file names none, so the defaults stay.
 */
export function parseSiteIce(value) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return fail('bad-site-ice', 'ice.json must hold one JSON object.');
  }
  let stun = null;
  if (value.stun !== undefined && value.stun !== null) {
    if (!Array.isArray(value.stun)) return fail('bad-site-ice', 'ice.json: "stun" must be a list of stun: URLs.');
    const parsed = parseIceServers(value.stun.join(' '));
    if (!parsed.ok) return fail('bad-site-ice', `ice.json: ${parsed.error.message}`);
    stun = [...value.stun];
  }
  const turn = [];
  if (value.turn !== undefined && value.turn !== null && !Array.isArray(value.turn)) {
    return fail('bad-site-ice', 'ice.json: "turn" must be a list of {"urls", "username", "credential"}.');
  }
  for (const entry of value.turn ?? []) {
    const urls = Array.isArray(entry?.urls) ? entry.urls : [entry?.urls];
    for (const url of urls) {
      const r = parseTurn({ url, username: entry?.username, credential: entry?.credential });
      if (!r.ok) return fail('bad-site-ice', `ice.json: ${r.error.message}`);
      if (r.server) turn.push(r.server);
    }
  }
  return { ok: true, stun, turn };
}

/**
 * iceServersFor({stun, turn, site}) -> {ok, iceServers, stunUrls} or an error value.
 * stun: the player's STUN field (null: never changed, so the site's list or DEFAULT_STUN; '': none
 * at all, and then the site's servers are not contacted either); turn: the player's TURN fields;
 * site: parseSiteIce's result or null.
 */
export function iceServersFor({ stun = null, turn = null, site = null } = {}) {
  const cleared = stun !== null && String(stun).trim() === '';
  let stunUrls;
  if (stun === null) stunUrls = site?.stun ?? [...DEFAULT_STUN];
  else {
    const parsed = parseIceServers(String(stun));
    if (!parsed.ok) return parsed;
    stunUrls = parsed.iceServers.length ? parsed.iceServers[0].urls : [];
  }
  const own = parseTurn(turn);
  if (!own.ok) return own;
  const iceServers = stunUrls.length ? [{ urls: stunUrls }] : [];
  if (!cleared && site) iceServers.push(...site.turn);
  if (own.server) iceServers.push(own.server);
  return { ok: true, iceServers, stunUrls };
}

/**
 * natOf(candidates) -> {host, reflexive, relay, symmetric} for the parsed UDP candidates of one
 * side (codec-rtc parseSdp's `candidates`). `symmetric` is true when that side's NAT gave more
 * public (server-reflexive) addresses than it has local sockets: each STUN server saw another
 * port, so the NAT maps every destination anew and a peer's checks cannot reach the mapping.
 */
export function natOf(candidates) {
  const udp = candidates.filter((c) => c.transport === 'udp');
  const host = udp.filter((c) => c.type === 'host').length;
  const reflexive = new Set(udp.filter((c) => c.type === 'srflx').map((c) => `${c.address} ${c.port}`)).size;
  const relay = udp.filter((c) => c.type === 'relay').length + candidates.filter((c) => c.type === 'relay' && c.transport !== 'udp').length;
  return { host, reflexive, relay, symmetric: reflexive >= 2 && reflexive > Math.max(host, 1) };
}

/**
 * diagnose(mine, theirs) -> why a direct connection will not or did not work, as a reason key of
 * the transport's STATUS_TEXT: 'strict-nats' (both symmetric, no relay on either side: it cannot
 * work), 'strict-nat' (one symmetric, no relay), 'no-public-address' (neither side offers a public
 * address: no STUN on either), or null (nothing to blame in the candidates).
 */
export function diagnose(mine, theirs) {
  const a = natOf(mine);
  const b = natOf(theirs);
  if (a.relay || b.relay) return null;
  if (a.symmetric && b.symmetric) return 'strict-nats';
  if (a.symmetric || b.symmetric) return 'strict-nat';
  if (!a.reflexive && !b.reflexive) return 'no-public-address';
  return null;
}
