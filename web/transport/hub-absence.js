// Who has dropped out of a live melee, and who the others have conceded (docs/protocol.md, "Live
// melee", "Dropping out"). The host reports a guest whose connection closed ('dropped', signed by
// the host, naming the last message of the guest's it passed on); every remaining player may sign a
// 'concede' of that seat; once every other wizard still in the fight has, every page holds the same
// signed agreement and the seat is conceded. A report the guest's own later message disproves, or
// a report or concession of this page's own seat, shows the host lying, and is said so.
// Plain data, pure functions: every call returns a new record and the events to tell the player.

/** The host's seat: the only one whose 'dropped' reports count. */
export const HOST_SEAT = 0;

/** newAbsence() -> {dropped: {seat: last}, votes: {seat: [voters]}, conceded: [seats]}: nobody gone. */
export function newAbsence() {
  return { dropped: {}, votes: {}, conceded: [] };
}

/** droppedBody(seat, last) -> the body of the host's report that `seat` dropped after its message `last`. */
export const droppedBody = (seat, last) => JSON.stringify({ seat, last });

/** concedeBody(seat) -> the body of a vote to concede `seat`. */
export const concedeBody = (seat) => JSON.stringify({ seat });

function seatOf(body, seats) {
  let v;
  try {
    v = JSON.parse(body);
  } catch (e) {
    return null;
  }
  const ok = v && Number.isSafeInteger(v.seat) && v.seat >= 0 && v.seat < seats;
  return ok ? v : null;
}

const without = (obj, key) => Object.fromEntries(Object.entries(obj).filter(([k]) => Number(k) !== key));

/**
 * note(absence, message, {me, seats, inFight, taken}) -> {absence, events: [{code, seat}]}: what a
 * message taken from the log (hub-log.js) changes. inFight: the seats still fighting (the engine's
 * participants); taken: the log's count per seat. Event codes: 'dropped' (the host says seat left),
 * 'host-lied' (seat was reported gone, yet it is here: its message came after the report, or seat
 * is me), 'back' (a dropped seat spoke again, as its report allowed), 'vote' (message.author wants
 * to concede seat), 'conceded' (every other wizard in the fight agreed).
 */
export function note(absence, message, { me, seats, inFight, taken }) {
  const events = [];
  let next = absence;
  const from = message.author;
  if (from in next.dropped && message.seq > next.dropped[from]) {
    // The dropped seat spoke after the message its report named: it was there all along.
    next = { ...next, dropped: without(next.dropped, from) };
    events.push({ code: 'host-lied', seat: from });
  }
  if (message.kind === 'dropped' && from === HOST_SEAT) {
    const v = seatOf(message.body, seats);
    if (v && Number.isSafeInteger(v.last) && v.seat !== HOST_SEAT && !next.conceded.includes(v.seat)) {
      if (v.seat === me || taken[v.seat] > v.last) events.push({ code: 'host-lied', seat: v.seat });
      else {
        next = { ...next, dropped: { ...next.dropped, [v.seat]: v.last } };
        events.push({ code: 'dropped', seat: v.seat });
      }
    }
  } else if (message.kind === 'concede') {
    const v = seatOf(message.body, seats);
    if (v && v.seat !== from && !next.conceded.includes(v.seat)) {
      if (v.seat === me) events.push({ code: 'host-lied', seat: me });
      const voters = [...new Set([...(next.votes[v.seat] || []), from])].sort();
      next = { ...next, votes: { ...next.votes, [v.seat]: voters } };
      events.push({ code: 'vote', seat: v.seat, by: from });
      const agreed = inFight.filter((s) => s !== v.seat).every((s) => voters.includes(s));
      if (agreed && v.seat !== me) {
        next = { ...next, conceded: [...next.conceded, v.seat].sort(), dropped: without(next.dropped, v.seat) };
        events.push({ code: 'conceded', seat: v.seat });
      }
    }
  }
  return { absence: next, events };
}

/** voteOf(absence, seat, voter) -> whether voter has signed the concession of seat. */
export const voteOf = (absence, seat, voter) => (absence.votes[seat] || []).includes(voter);
