// The layout of a connection code (docs/webrtc.md, "Connection codes"): the numbers and patterns
// that the writer (codec/code.js) and the reader (codec/read.js) share.

/** Format version written in every code's prefix ("WHC1."); a decoder reads only its own. */
export const CODE_VERSION = 1;
/** The prefix letter of each kind of code: WHC = connection code (offer), WHA = answer. */
export const KIND_LETTER = Object.freeze({ offer: 'C', answer: 'A' });
/** The URL-fragment key of the link form: "#rtc=<code>". */
export const LINK_KEY = 'rtc';

/** The kind of code each prefix letter stands for. */
export const LETTER_KIND = { C: 'offer', A: 'answer' };
// Far above any real code (about 110-220 characters); bounds the work on a huge paste.
export const MAX_CODE_CHARS = 2000;

/** Address forms of a candidate (bits 4-6 of its first byte). */
export const ADDR_IPV4 = 0;
export const ADDR_IPV6 = 1;
export const ADDR_MDNS = 2;
export const ADDR_NAME = 3;
export const ADDR_SAME = 4;

/** Bits of a code's first byte (bits 0-3: DTLS setup and fingerprint hash). */
export const FLAG_DEFAULT_LENGTHS = 0x10;
export const FLAG_MID = 0x20;
export const FLAG_RESERVED = 0xc0;
// Chrome's credential lengths; a flag bit stands for them so the common case spends no length bytes.
export const DEFAULT_UFRAG_LEN = 4;
export const DEFAULT_PWD_LEN = 24;

// RFC 8839 ice-char: exactly the 64 characters of standard base64, so each packs in 6 bits.
export const ICE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export const MDNS_RE = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/i;
export const HOSTNAME_RE = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?$/;
export const TOKEN_RE = /^[!#$%&'*+\-.0-9A-Z^_`a-z{|}~]+$/;

/** Default cap on candidates in one code: enough for a dual-stack LAN plus STUN, still short. */
export const DEFAULT_MAX_CANDIDATES = 8;
