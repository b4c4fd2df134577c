// What a pasted text or an opened link is, and where it goes (docs/protocol.md, "UI flow").
// Pure: the shell reads the address and applies any change to it; the engine describes a turn
// code (remote_describe) and the transport says whether a text is a live connection code; this
// module only decides from what they said. Outcomes are plain values with a `go` (what to do)
// and, for the player, a `say` code that web/ui/words/ turns into a sentence.

import { splitCodes } from '../../transport/by-hand.js';

// The error codes of a live connection code that mean "this is not one": the text may still be a turn code.
const NOT_RTC = new Set(['empty', 'not-a-code', 'turn-code']);
// An address that carries a code: #c=<turn code> and/or #rtc=<connection code>, in any order.
const CODE_LINK = /#(?:.*&)?(?:c|rtc)=/;

/**
 * holdsNoCode(text, rtc) -> true for text with no code in it at all (a sentence, another site's
 * link), given what the transport said of it (`rtc`, connectionCodeKind's value): its
 * 'not-a-code' also covers turn codes, which start WH<digits>.
 */
export function holdsNoCode(text, rtc) {
  return !rtc.ok && rtc.error.code === 'not-a-code' && !/WH\d+\./.test(String(text || ''));
}

/** isCodeLink(hash) -> true when an address's fragment carries a code (#c=… or #rtc=…). */
export function isCodeLink(hash) {
  return CODE_LINK.test(String(hash || ''));
}

/**
 * classify(text, connectionCodeKind) -> what a pasted text or opened link is, before the engine
 * is asked: {go: 'empty'} | {go: 'bundle', turn, rtc, rtcKind} (a turn code with a connection
 * code) | {go: 'connection', rtcKind: 'offer'|'answer'} | {go: 'bad-connection', error} (a
 * connection code that cannot be used) | {go: 'turn', noCode} (for the engine to describe;
 * noCode: nothing in it looks like any code). connectionCodeKind is the transport's reader.
 */
export function classify(text, connectionCodeKind) {
  if (!text || !String(text).trim()) return { go: 'empty' };
  const parts = splitCodes(text);
  if (parts.turn && parts.rtc) {
    const kind = connectionCodeKind(parts.rtc);
    if (kind.ok) return { go: 'bundle', turn: parts.turn, rtc: parts.rtc, rtcKind: kind.kind };
    return { go: 'bad-connection', error: kind.error };
  }
  const rtc = connectionCodeKind(text);
  if (rtc.ok) return { go: 'connection', rtcKind: rtc.kind };
  if (!NOT_RTC.has(rtc.error.code)) return { go: 'bad-connection', error: rtc.error };
  return { go: 'turn', noCode: holdsNoCode(text, rtc) };
}

/**
 * routeCode(info, duels) -> where a described turn code goes, from the remote duels saved here
 * for its game (`duels`: records with a `session`):
 * - an invitation: {go: 'show', id, say: 'invite-accepted-here'} (this browser accepted it),
 *   {go: 'show', id, say: 'invite-own-accepted'} (its host's duel is under way),
 *   {go: 'own-invitation', id} (the host pasted it back: offer to accept it here anyway), or
 *   {go: 'offer-invitation'} (the accept dialog);
 * - any other code: {go: 'receive', id} (the duel of the side it is sent to, else any side), or
 *   {go: 'not-saved', turn} (no duel of that game is saved here).
 */
export function routeCode(info, duels) {
  const mine = duels.filter((d) => d && d.session);
  if (info.kind === 'invite') {
    const guest = mine.find((d) => d.session.me === 1);
    if (guest) return { go: 'show', id: guest.id, say: 'invite-accepted-here' };
    // Already accepted elsewhere (under way or over): a second acceptance would only make a second, orphaned duel.
    const started = mine.find((d) => d.session.game);
    if (started) return { go: 'show', id: started.id, say: 'invite-own-accepted' };
    if (mine.length) return { go: 'own-invitation', id: mine[0].id };
    return { go: 'offer-invitation' };
  }
  const duel = mine.find((d) => d.session.me !== info.sender) || mine[0];
  if (!duel) return { go: 'not-saved', turn: info.turn };
  return { go: 'receive', id: duel.id };
}

/**
 * routeBundle(info, duels, rtcKind) -> where a turn code that carries a connection code goes:
 * {go: 'offer-invitation'} (an invitation with the host's offer, never accepted here), {go:
 * 'apply', id} (the turn code to that duel and the connection code to its link), or {go:
 * 'turn-only'} (the turn code alone, as if pasted without the connection code).
 */
export function routeBundle(info, duels, rtcKind) {
  const mine = duels.filter((d) => d && d.session);
  if (info.kind === 'invite' && !mine.some((d) => d.session.me === 1) && rtcKind === 'offer') {
    return mine.length ? { go: 'turn-only' } : { go: 'offer-invitation' };
  }
  const duel = mine.find((d) => d.session.me !== info.sender) || mine[0];
  return duel ? { go: 'apply', id: duel.id } : { go: 'turn-only' };
}

/**
 * elsewhere(info, duels) -> for a code of another game pasted on a duel's screen: {go:
 * 'offer-invitation'} (an invitation of no duel saved here), {go: 'open', id} (the duel it
 * belongs to), or null (nowhere to go).
 */
export function elsewhere(info, duels) {
  const mine = duels.filter((d) => d && d.session);
  if (info.kind === 'invite' && !mine.length) return { go: 'offer-invitation' };
  const other = mine.find((d) => d.session.me !== info.sender);
  return other ? { go: 'open', id: other.id } : null;
}

/** savedGameIds(ids) -> the game ids of the remote duels among saved duel ids ("r-<game id>-<side>"). */
export function savedGameIds(ids) {
  return ids.map((id) => /^r-([0-9a-f]+)-[01]$/.exec(id)).filter(Boolean).map((m) => m[1]);
}
