// The SDP side of the connection codes: the few fields of a data channel's description read out
// of a browser's SDP, and a minimal SDP that browsers accept rebuilt from them (docs/webrtc.md,
// "Connection codes"). Pure; errors are values with a code.

import { bytesHex, hexBytes } from './bytes.js';

/** DTLS roles, in the order of their 2-bit code. */
export const SETUPS = ['actpass', 'active', 'passive'];
// Hash names as SDP writes them, with their digest sizes; sha-256 first because every current
// browser uses it, so it gets the code 0.
/** Fingerprint hashes [name, bytes], in the order of their 2-bit code. */
export const HASHES = [
  ['sha-256', 32],
  ['sha-384', 48],
  ['sha-512', 64],
  ['sha-1', 20],
];
/** Candidate types and transports, in the order of their codes. */
export const TYPES = ['host', 'srflx', 'prflx', 'relay'];
export const TRANSPORTS = ['udp', 'tcp passive', 'tcp active', 'tcp so'];
// RFC 8445 type preferences, used to rebuild priorities that keep the sender's order.
const TYPE_PREF = { host: 126, prflx: 110, srflx: 100, relay: 0 };

const unsupported = (detail) => ({ ok: false, error: { code: 'unsupported-sdp', detail } });

/**
 * parseSdp(sdp) -> {ok, fields: {ufrag, pwd, setup, mid, fingerprint: {alg, bytes}, candidates}}
 * or an error value ('unsupported-sdp' with a detail): the fields a connection code carries.
 * Only the first m-section is read: a live-play connection has exactly one, the data channel.
 */
export function parseSdp(sdp) {
  if (typeof sdp !== 'string') return unsupported('SDP is not a string');
  const lines = sdp.split(/\r?\n/);
  const session = {};
  const media = {};
  const candidates = [];
  let inMedia = 0;
  for (const line of lines) {
    if (line.startsWith('m=')) {
      inMedia++;
      if (inMedia > 1) break;
      continue;
    }
    const target = inMedia ? media : session;
    const m = /^a=([a-zA-Z-]+)(?::(.*))?$/.exec(line.trim());
    if (!m) continue;
    const [, name, value = ''] = m;
    if (name === 'candidate') {
      if (inMedia) candidates.push(value.trim());
    } else if (['ice-ufrag', 'ice-pwd', 'fingerprint', 'setup', 'mid'].includes(name)) {
      if (!(name in target)) target[name] = value.trim();
    }
  }
  const get = (name) => media[name] ?? session[name];
  const ufrag = get('ice-ufrag');
  const pwd = get('ice-pwd');
  const fp = get('fingerprint');
  const setup = get('setup') ?? 'actpass';
  const mid = media.mid ?? '0';
  if (!ufrag || !pwd || !fp) return unsupported('missing ice-ufrag, ice-pwd or fingerprint');
  const fpm = /^(\S+)\s+([0-9A-Fa-f:]+)$/.exec(fp);
  if (!fpm) return unsupported('unreadable fingerprint');
  const alg = fpm[1].toLowerCase();
  const hashIndex = HASHES.findIndex(([name]) => name === alg);
  if (hashIndex < 0) return unsupported(`fingerprint hash ${alg}`);
  const hex = fpm[2].replace(/:/g, '');
  if (hex.length !== HASHES[hashIndex][1] * 2) return unsupported('fingerprint length');
  const parsed = candidates.map(parseCandidate).filter((c) => c !== null);
  return {
    ok: true,
    fields: {
      ufrag,
      pwd,
      setup,
      mid,
      fingerprint: { alg, bytes: hexBytes(hex) },
      candidates: parsed,
    },
  };
}

// One a=candidate value to {type, transport, address, port, priority}, or null for a candidate a
// code cannot or need not carry (other components, link-local zones, unknown transports).
function parseCandidate(value) {
  const parts = value.split(/\s+/);
  if (parts.length < 8 || parts[6] !== 'typ') return null;
  const [, component, proto, priority, address, port, , type] = parts;
  if (component !== '1') return null;
  if (!TYPES.includes(type)) return null;
  const portNum = Number(port);
  if (!Number.isInteger(portNum) || portNum < 1 || portNum > 65535) return null;
  let transport = proto.toLowerCase();
  if (transport === 'tcp') {
    const i = parts.indexOf('tcptype');
    transport = i >= 0 && parts[i + 1] ? `tcp ${parts[i + 1]}` : 'tcp passive';
  }
  if (!TRANSPORTS.includes(transport)) return null;
  if (address.includes('%')) return null;
  return { type, transport, address, port: portNum, priority: Number(priority) || 0 };
}

// Priorities only order the candidate pairs, so they are rebuilt rather than carried: the RFC
// 8445 type preference, lowered where needed so that they strictly follow the sender's order.
function candidateLines(candidates) {
  let pref = TYPE_PREF.host;
  return candidates.map((c, index) => {
    pref = Math.min(pref, TYPE_PREF[c.type]);
    const priority = pref * 2 ** 24 + (65535 - index) * 2 ** 8 + 255;
    const [proto, tcptype] = c.transport.split(' ');
    let line = `a=candidate:${index + 1} 1 ${proto} ${priority} ${c.address} ${c.port} typ ${c.type}`;
    if (c.type !== 'host') line += ' raddr 0.0.0.0 rport 0';
    if (tcptype) line += ` tcptype ${tcptype}`;
    return line;
  });
}

/** Rebuilds a minimal SDP that browsers accept from code fields (as unpackConnectionCode gives). */
export function buildSdp(fields) {
  const fp = bytesHex(fields.fingerprint.bytes, ':').toUpperCase();
  const lines = [
    'v=0',
    'o=- 1 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    `a=group:BUNDLE ${fields.mid}`,
    'a=msid-semantic: WMS',
    'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
    'c=IN IP4 0.0.0.0',
    ...candidateLines(fields.candidates),
    'a=end-of-candidates',
    `a=ice-ufrag:${fields.ufrag}`,
    `a=ice-pwd:${fields.pwd}`,
    `a=fingerprint:${fields.fingerprint.alg} ${fp}`,
    `a=setup:${fields.setup}`,
    `a=mid:${fields.mid}`,
    'a=sctp-port:5000',
    'a=max-message-size:262144',
  ];
  return `${lines.join('\r\n')}\r\n`;
}
