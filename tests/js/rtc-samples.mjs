// Sample SDPs for the connection-code codec: the unit tests round-trip them and
// bench/rtc_code_lengths.mjs measures them. The "chrome-*" ones were captured from Debian's
// Chromium 156 on the development machine (data channel only, gathering complete); the others
// follow the shape of Chrome with STUN and of Firefox. Addresses are documentation ranges.

const sdp = (lines) => `${lines.join('\r\n')}\r\n`;

const CHROME_HEAD = [
  'v=0',
  'o=- 6153262723821508986 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0',
  'a=extmap-allow-mixed',
  'a=msid-semantic: WMS',
];

const CHROME_TAIL = ['a=mid:0', 'a=sctp-port:5000', 'a=max-message-size:262144'];

export const CHROME_MDNS_OFFER = sdp([
  ...CHROME_HEAD,
  'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 0.0.0.0',
  'a=candidate:1795219991 1 udp 2113937151 61fb8716-7cf5-4e61-8c51-f43c4e787abd.local 34575 typ host generation 0 network-cost 999',
  'a=candidate:1819446951 1 udp 2113942271 b83df723-acd1-4e58-81d0-8b630270d3ce.local 46401 typ host generation 0 network-cost 999',
  'a=ice-ufrag:CRzO',
  'a=ice-pwd:egsiWtrKh5mrklp/AJzD8HkK',
  'a=ice-options:trickle',
  'a=fingerprint:sha-256 2E:AE:FE:7A:6E:C3:8F:FA:F7:1B:CE:33:04:79:D9:F1:1D:F3:0C:91:E1:E2:FC:44:95:81:E8:62:00:BD:C9:36',
  'a=setup:actpass',
  ...CHROME_TAIL,
]);

export const CHROME_MDNS_ANSWER = sdp([
  ...CHROME_HEAD,
  'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 0.0.0.0',
  'a=candidate:1266898729 1 udp 2113937151 61fb8716-7cf5-4e61-8c51-f43c4e787abd.local 42286 typ host generation 0 network-cost 999',
  'a=candidate:1290877849 1 udp 2113942271 b83df723-acd1-4e58-81d0-8b630270d3ce.local 58761 typ host generation 0 network-cost 999',
  'a=ice-ufrag:+iz7',
  'a=ice-pwd:cLuAZFzvG5QCNf1hCY+3VIwD',
  'a=ice-options:trickle',
  'a=fingerprint:sha-256 F4:99:CB:F4:F5:EC:21:5D:BC:83:52:27:8F:49:F8:91:43:B7:AB:38:6A:55:56:19:3E:BD:EC:AC:D0:DC:DA:1D',
  'a=setup:active',
  ...CHROME_TAIL,
]);

export const CHROME_PLAIN_OFFER = sdp([
  ...CHROME_HEAD,
  'm=application 47625 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 192.0.2.2',
  'a=candidate:596774024 1 udp 2113937151 192.0.2.2 47625 typ host generation 0 network-cost 999',
  'a=candidate:618684472 1 udp 2113942271 fd00::2 46608 typ host generation 0 network-cost 999',
  'a=ice-ufrag:CKgP',
  'a=ice-pwd:r1mLSy/bP3z0tWy6AzqZ0xgf',
  'a=ice-options:trickle',
  'a=fingerprint:sha-256 A5:67:66:17:88:EE:B8:62:C2:CB:21:7D:D0:2F:C5:5D:C0:3D:9E:40:09:50:A1:17:05:A7:8C:9B:18:FE:AF:97',
  'a=setup:actpass',
  ...CHROME_TAIL,
]);

export const CHROME_PLAIN_ANSWER = sdp([
  ...CHROME_HEAD,
  'm=application 49842 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 192.0.2.2',
  'a=candidate:4026125662 1 udp 2113937151 192.0.2.2 49842 typ host generation 0 network-cost 999',
  'a=candidate:3901465070 1 udp 2113942271 fd00::2 44238 typ host generation 0 network-cost 999',
  'a=ice-ufrag:GXis',
  'a=ice-pwd:WZ6INyqMI8XeCti8MOVIdP3t',
  'a=ice-options:trickle',
  'a=fingerprint:sha-256 65:97:9E:44:70:D3:B8:AF:F5:CE:25:1C:8F:1C:E5:A9:1D:02:B8:76:C1:F1:29:06:57:22:E0:F2:08:97:4D:C7',
  'a=setup:active',
  ...CHROME_TAIL,
]);

// Chrome with a STUN server behind a home router: mDNS host candidates plus one server-reflexive.
export const CHROME_STUN_OFFER = sdp([
  ...CHROME_HEAD,
  'm=application 61234 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 203.0.113.45',
  'a=candidate:1795219991 1 udp 2113937151 0f6a3c1e-2b4d-4e8f-9a1b-3c5d7e9f1a2b.local 51000 typ host generation 0 network-cost 999',
  'a=candidate:1819446951 1 udp 2113942271 7d2e9b4a-1c3f-4a5b-8c7d-9e0f1a2b3c4d.local 51002 typ host generation 0 network-cost 999',
  'a=candidate:842163049 1 udp 1677729535 203.0.113.45 61234 typ srflx raddr 0.0.0.0 rport 0 generation 0 network-cost 999',
  'a=candidate:3567311385 1 tcp 1509957375 0f6a3c1e-2b4d-4e8f-9a1b-3c5d7e9f1a2b.local 9 typ host tcptype active generation 0 network-cost 999',
  'a=ice-ufrag:k9Qz',
  'a=ice-pwd:Jm3xT0pQ+e7yWb2sN5vR8cLd',
  'a=ice-options:trickle',
  'a=fingerprint:sha-256 11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:10:20:30:40:50:60:70:80:90:A0:B0:C0:D0:E0:F0:01',
  'a=setup:actpass',
  ...CHROME_TAIL,
]);

// Firefox's shape: session-level fingerprint, hex credentials of 8 and 32 characters, related
// addresses on reflexive and relay candidates, end-of-candidates.
export const FIREFOX_OFFER = sdp([
  'v=0',
  'o=mozilla...THIS_IS_SDPARTA-99.0 4125583425475470232 0 IN IP4 0.0.0.0',
  's=-',
  't=0 0',
  'a=fingerprint:sha-256 6D:7A:6E:E7:2F:55:2B:71:6B:1B:35:6E:21:64:61:69:5F:2F:E8:F8:2C:66:2F:9B:86:4A:5D:C4:4C:B0:30:3E',
  'a=group:BUNDLE 0',
  'a=ice-options:trickle',
  'a=msid-semantic:WMS *',
  'm=application 54400 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 198.51.100.20',
  'a=candidate:0 1 UDP 2122252543 192.0.2.10 54398 typ host',
  'a=candidate:2 1 UDP 2122187007 2001:db8:85a3::8a2e:370:7334 49737 typ host',
  'a=candidate:4 1 TCP 2105524479 192.0.2.10 9 typ host tcptype active',
  'a=candidate:1 1 UDP 1686052863 198.51.100.20 54400 typ srflx raddr 192.0.2.10 rport 54398',
  'a=candidate:3 1 UDP 92217343 203.0.113.200 61020 typ relay raddr 198.51.100.20 rport 54400',
  'a=sendrecv',
  'a=end-of-candidates',
  'a=ice-pwd:d4a3cd8c7a0e7a9a0e5e8c6f1b2a3c4d',
  'a=ice-ufrag:9f0c1b2a',
  'a=mid:0',
  'a=setup:actpass',
  'a=sctp-port:5000',
  'a=max-message-size:1073741823',
]);

// A laptop with Docker bridges and a VPN: more host candidates than a code takes.
export const MANY_INTERFACES_OFFER = sdp([
  ...CHROME_HEAD,
  'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 0.0.0.0',
  ...[
    '192.0.2.30',
    '172.17.0.1',
    '172.18.0.1',
    '172.19.0.1',
    '10.8.0.6',
    '169.254.10.20',
    '2001:db8:1::30',
    '2001:db8:1::31',
    'fe80::1%eth0',
  ].map((a, i) => `a=candidate:${100 + i} 1 udp ${2122260223 - i * 256} ${a} ${50000 + i} typ host generation 0`),
  'a=candidate:200 1 udp 1686052607 203.0.113.77 50000 typ srflx raddr 192.0.2.30 rport 50000 generation 0',
  'a=ice-ufrag:mAny',
  'a=ice-pwd:ifacesIFACESifaces012345',
  'a=fingerprint:sha-256 00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF',
  'a=setup:actpass',
  ...CHROME_TAIL,
]);

// Fields off the common path: a mid other than "0", a sha-384 fingerprint, a host name that is
// not an mDNS UUID, a passive TCP candidate sharing an address, an IPv4-mapped IPv6 address.
export const UNUSUAL_ANSWER = sdp([
  'v=0',
  'o=- 1 1 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=application 9 UDP/DTLS/SCTP webrtc-datachannel',
  'c=IN IP4 0.0.0.0',
  'a=mid:data',
  'a=ice-ufrag:u5erFrag',
  'a=ice-pwd:averyLongPasswordOfTwentyNineX',
  'a=fingerprint:sha-384 ' +
    Array.from({ length: 48 }, (_, i) => ((i * 37) & 0xff).toString(16).padStart(2, '0').toUpperCase()).join(':'),
  'a=setup:passive',
  'a=candidate:1 1 udp 2122260223 player-laptop.local 40000 typ host',
  'a=candidate:2 1 tcp 1518280447 player-laptop.local 40001 typ host tcptype passive',
  'a=candidate:3 1 udp 2122260222 ::FFFF:192.0.2.99 40002 typ host',
  'a=candidate:4 1 udp 1686052607 2001:DB8:0:0:0:0:0:9 40003 typ prflx raddr :: rport 0',
  'a=candidate:5 2 udp 2122260221 192.0.2.99 40004 typ host',
  'a=sctp-port:5000',
]);

/** Every sample, by name, with its kind and (for answers) the offer it answers. */
export const SAMPLES = [
  { name: 'chrome-mdns (default Chrome)', kind: 'offer', sdp: CHROME_MDNS_OFFER },
  { name: 'chrome-mdns answer', kind: 'answer', sdp: CHROME_MDNS_ANSWER, offer: CHROME_MDNS_OFFER },
  { name: 'chrome-plain IPv4+IPv6', kind: 'offer', sdp: CHROME_PLAIN_OFFER },
  { name: 'chrome-plain answer', kind: 'answer', sdp: CHROME_PLAIN_ANSWER, offer: CHROME_PLAIN_OFFER },
  { name: 'chrome-stun mdns+srflx+tcp', kind: 'offer', sdp: CHROME_STUN_OFFER },
  { name: 'firefox-style host+srflx+relay', kind: 'offer', sdp: FIREFOX_OFFER },
  { name: 'many interfaces (capped)', kind: 'offer', sdp: MANY_INTERFACES_OFFER },
  { name: 'unusual fields answer', kind: 'answer', sdp: UNUSUAL_ANSWER, offer: FIREFOX_OFFER },
];
