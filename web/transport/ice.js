// Which STUN and TURN servers a live connection uses (docs/webrtc.md, "ICE servers"), and what the
// candidates of a connection say about the NATs in between. Pure: no network, no storage, so it
// also runs under Node. The player's settings, the site's ice.json and the defaults below are
// merged here into one RTCPeerConnection iceServers list.

import { fail } from './transport.js';

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

const ICE_URL_RE = /^stuns?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;

/**
 * parseIceServers(text) -> {ok, iceServers} or an error value naming the bad entry (code
 * 'bad-ice-server', detail: the entry; reason 'bad-ice-server-turn' for a turn: URL): the STUN
 * field (URLs separated by spaces, commas or new lines) as an RTCPeerConnection iceServers list.
 * Empty text means no servers: for play on one machine or one local network.
 */
export function parseIceServers(text) {
  const entries = (typeof text === 'string' ? text : '').split(/[\s,]+/).filter(Boolean);
  const urls = [];
  for (const e of entries) {
    const m = ICE_URL_RE.exec(e);
    const port = m && m[2] !== undefined ? Number(m[2]) : 3478;
    if (!m || port < 1 || port > 65535) {
      const r = fail('bad-ice-server', e);
      if (/^turns?:/.test(e)) r.error.reason = 'bad-ice-server-turn';
      return r;
    }
    urls.push(e);
  }
  return { ok: true, iceServers: urls.length ? [{ urls }] : [] };
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
    return fail('bad-turn-url', url);
  }
  if (!username || !credential) {
    return fail('bad-turn-login');
  }
  if (username.length > MAX_FIELD || credential.length > MAX_FIELD) {
    return { ok: false, error: { code: 'bad-turn-login', reason: 'bad-turn-too-long' } };
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
    return fail('bad-site-ice', 'not one JSON object');
  }
  let stun = null;
  if (value.stun !== undefined && value.stun !== null) {
    if (!Array.isArray(value.stun)) return fail('bad-site-ice', '"stun" is not a list of stun: URLs');
    const parsed = parseIceServers(value.stun.join(' '));
    if (!parsed.ok) return fail('bad-site-ice', `"stun": ${parsed.error.detail} is not a stun: URL`);
    stun = [...value.stun];
  }
  const turn = [];
  if (value.turn !== undefined && value.turn !== null && !Array.isArray(value.turn)) {
    return fail('bad-site-ice', '"turn" is not a list of {"urls", "username", "credential"}');
  }
  for (const entry of value.turn ?? []) {
    const urls = Array.isArray(entry?.urls) ? entry.urls : [entry?.urls];
    for (const url of urls) {
      const r = parseTurn({ url, username: entry?.username, credential: entry?.credential });
      if (!r.ok) return fail('bad-site-ice', `"turn": ${r.error.reason || r.error.code} ${r.error.detail || ''}`.trim());
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
 * natOf(candidates) -> {host, reflexive, relay, symmetric, portMoved} for the parsed candidates of
 * one side (codec/sdp.js parseSdp's `candidates`). `symmetric` is true when that side's NAT gave more
 * public (server-reflexive) addresses than it has local sockets: each STUN server saw another
 * port, so the NAT maps every destination anew and a peer's checks cannot reach the mapping.
 * `portMoved`: its NAT gave public ports none of which is a local port. One STUN server cannot
 * prove a NAT symmetric, but such NATs always move the port, and a home NAT mostly keeps it.
 */
export function natOf(candidates) {
  const udp = candidates.filter((c) => c.transport === 'udp');
  const hostPorts = new Set(udp.filter((c) => c.type === 'host').map((c) => c.port));
  const srflx = udp.filter((c) => c.type === 'srflx');
  const reflexive = new Set(srflx.map((c) => `${c.address} ${c.port}`)).size;
  const relay = udp.filter((c) => c.type === 'relay').length + candidates.filter((c) => c.type === 'relay' && c.transport !== 'udp').length;
  return {
    host: hostPorts.size, reflexive, relay,
    symmetric: reflexive >= 2 && reflexive > Math.max(hostPorts.size, 1),
    portMoved: srflx.length > 0 && hostPorts.size > 0 && srflx.every((c) => !hostPorts.has(c.port)),
  };
}

/**
 * stunOutcome(errors, reflexive) -> null when this page's STUN servers gave it a public address
 * (or none was asked), else why not: 'stun-no-name' (their names did not resolve) or
 * 'stun-no-reply' (no answer in time). errors: the RTCPeerConnection's icecandidateerror events
 * for stun: URLs ({url, errorCode, errorText}); asked: how many STUN URLs were set.
 */
export function stunOutcome({ asked = 0, errors = [], reflexive = 0 } = {}) {
  if (!asked || reflexive) return null;
  return errors.some((e) => /lookup/i.test(String(e.errorText || ''))) ? 'stun-no-name' : 'stun-no-reply';
}

/**
 * diagnose(mine, theirs, stun) -> why a direct connection will not or did not work, as a reason
 * code (ui/words/live.js "live-<reason>"): 'strict-nats' (both symmetric, no relay on either side: it
 * cannot work), 'strict-nat' (one symmetric, no relay), 'stun-no-name' / 'stun-no-reply' (this
 * page's STUN servers gave it no public address: stunOutcome), 'no-public-address' (neither side
 * offers one, and this page asked no STUN server), 'strict-nat-likely' (a NAT moved the port, and
 * with one STUN server that is all a page can see of a symmetric NAT), or null (nothing to blame).
 */
export function diagnose(mine, theirs, stun = null) {
  const a = natOf(mine);
  const b = natOf(theirs);
  if (a.relay || b.relay) return null;
  if (a.symmetric && b.symmetric) return 'strict-nats';
  if (a.symmetric || b.symmetric) return 'strict-nat';
  const unreached = stunOutcome({ ...(stun || {}), reflexive: a.reflexive });
  if (unreached) return unreached;
  if (!a.reflexive && !b.reflexive) return 'no-public-address';
  if (a.portMoved || b.portMoved) return 'strict-nat-likely';
  return null;
}

/**
 * foresee(mine, theirs, stun) -> the reason a connection still being made will probably fail
 * (diagnose's, except 'strict-nats', which ends it at once, and those only a failure shows), or
 * null: said beside "keep this page open", so that a player is not left waiting on no evidence.
 */
export function foresee(mine, theirs, stun = null) {
  const why = diagnose(mine, theirs, stun);
  return ['strict-nat', 'strict-nat-likely', 'stun-no-name', 'stun-no-reply'].includes(why) ? why : null;
}
